//! What things are worth to a bot, in points, in a variant: one table for
//! every bot that weighs positions (the greedy bot's values, the searching
//! bot's evaluation). The defaults are hand-set; `towerlab tune` learns a
//! variant's own from its self-play games and stores them in the home
//! folder under the ruleset's fingerprint (`tuned/<fingerprint>.toml`), where
//! [`Ruleset`](super::Ruleset) finds them again: values tuned for other rules
//! (another pack text, other parameters) are never used.

use std::hash::Hasher;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::kernel::diag::{Source, bad_input};

/// The folder of a home where tuned values are kept.
pub const TUNED_DIR: &str = "tuned";

/// The worth of things a player holds, in points. Early-game values: the
/// bots fade them as the deck runs out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Worths {
    /// The k-th meeple in supply (index k − 1): the last ones most, as
    /// without a meeple a player can take no feature.
    #[serde(deserialize_with = "points")]
    pub meeple: [f32; 7],
    /// Holding an opponent's meeple: ransom income or an exchange to come.
    #[serde(deserialize_with = "points")]
    pub prisoner: f32,
    /// A floor in supply, per floor kind (index: the kind); kinds past the
    /// end are worth `floor_default`.
    #[serde(deserialize_with = "points")]
    pub floor: Vec<f32>,
    /// A floor in supply of a kind `floor` does not list.
    #[serde(deserialize_with = "points")]
    pub floor_default: f32,
    /// The share of an open feature's value its leader counts on: it may be
    /// stolen, blocked or left unfinished.
    #[serde(deserialize_with = "chance")]
    pub open_share: f32,
    /// Expected growth per open end of an open road and city, in tiles.
    #[serde(deserialize_with = "points")]
    pub road_growth: f32,
    #[serde(deserialize_with = "points")]
    pub city_growth: f32,
    /// The chance that an open city completes, by open ends (index: ends − 1,
    /// the last for that many or more).
    #[serde(deserialize_with = "chance")]
    pub city_chance: [f32; 5],
    /// The chance that a cloister's missing neighbour arrives: `cloister_chance
    /// − cloister_drop · missing`.
    #[serde(deserialize_with = "chance")]
    pub cloister_chance: f32,
    #[serde(deserialize_with = "chance")]
    pub cloister_drop: f32,
    /// The share of the best capture a floor would let its builder make with
    /// their next floor on the same tower that the floor is worth now: the
    /// capture may be gone, or an opponent may use the tower first. (Values
    /// stored before it existed read as its default.)
    #[serde(default = "later_capture", deserialize_with = "chance")]
    pub later_capture: f32,
    /// The share of a seat's income from the rules over the last round
    /// (their `points` effects) that it counts on again in each round
    /// left: a rule that paid for a choice at every turn pays again.
    #[serde(default = "rule_share", deserialize_with = "chance")]
    pub income: f32,
    /// The share of what the undrawn tiles would pay a seat, each drawn as
    /// the position stands (a rule paying at a draw, `tile_drawn`), that it
    /// counts on.
    #[serde(default = "rule_share", deserialize_with = "chance")]
    pub draws: f32,
    /// A meeple of the seat's on top of a tower (a guard), in points:
    /// none by default (the base game pays nothing for one); `towerlab
    /// tune` learns it where a rule pays guards.
    #[serde(default, deserialize_with = "points")]
    pub guard: f32,
    /// One unit of each of the packs' state variables kept per seat, the
    /// seat's own value (index: the variable, in the order the variant
    /// declares them; other scopes and indices past the end weigh 0), in
    /// points, below 0 for a debt: none by default; `towerlab tune` learns
    /// them.
    #[serde(default, deserialize_with = "signed_points")]
    pub state: Vec<f32>,
}

/// [`Worths::income`]'s and [`Worths::draws`]' default: what a rule paid
/// may stop (a guard captured, a tower's top taken), so half.
fn rule_share() -> f32 {
    0.5
}

/// [`Worths::later_capture`]'s default.
fn later_capture() -> f32 {
    0.5
}

impl Default for Worths {
    fn default() -> Worths {
        Worths {
            meeple: [7.0, 4.0, 2.8, 2.2, 1.8, 1.5, 1.3],
            prisoner: 1.0,
            floor: Vec::new(),
            floor_default: 0.5,
            open_share: 0.8,
            road_growth: 0.5,
            city_growth: 0.6,
            city_chance: [0.7, 0.5, 0.35, 0.25, 0.2],
            cloister_chance: 0.9,
            cloister_drop: 0.05,
            later_capture: later_capture(),
            income: rule_share(),
            draws: rule_share(),
            guard: 0.0,
            state: Vec::new(),
        }
    }
}

impl Worths {
    /// A floor of `kind` in supply.
    pub fn floor(&self, kind: usize) -> f32 {
        self.floor.get(kind).copied().unwrap_or(self.floor_default)
    }

    /// One unit of state variable `var` kept per seat.
    pub fn state(&self, var: usize) -> f32 {
        self.state.get(var).copied().unwrap_or(0.0)
    }

    /// Whether a guard or a state value is worth anything (none is, untuned).
    pub fn weighs_holdings(&self) -> bool {
        self.guard != 0.0 || self.state.iter().any(|&w| w != 0.0)
    }

    /// The chance that an open city with `open` open ends completes.
    pub fn city_chance(&self, open: u32) -> f32 {
        match open {
            0 => 1.0,
            n => self.city_chance[(n as usize - 1).min(self.city_chance.len() - 1)],
        }
    }

    /// The chance that one missing neighbour of a cloister arrives, with
    /// `missing` of them missing.
    pub fn cloister_chance(&self, missing: u32) -> f32 {
        (self.cloister_chance - self.cloister_drop * missing as f32).clamp(0.0, 1.0)
    }
}

/// The most points a stored value may be worth: far past any value
/// `towerlab tune` learns (a meeple's is a few points), and small enough
/// that a bot's sums of them stay far inside what a float counts exactly.
pub const MAX_POINTS: f32 = 1_000.0;

/// Numbers a bot weighs with, each of which must be in its range: a NaN, an
/// infinity or a huge worth would make every comparison of options
/// meaningless.
trait Numbers {
    fn all(&self, ok: impl Fn(f32) -> bool) -> bool;
}

impl Numbers for f32 {
    fn all(&self, ok: impl Fn(f32) -> bool) -> bool {
        ok(*self)
    }
}

impl<const N: usize> Numbers for [f32; N] {
    fn all(&self, ok: impl Fn(f32) -> bool) -> bool {
        self.iter().all(|&v| ok(v))
    }
}

impl Numbers for Vec<f32> {
    fn all(&self, ok: impl Fn(f32) -> bool) -> bool {
        self.iter().all(|&v| ok(v))
    }
}

/// Read a value of [`Worths`], refused (at its place in the file) unless
/// every number in it is within `lo..=hi` (so finite).
fn within<'de, D, T>(d: D, lo: f32, hi: f32, what: &str) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Numbers,
{
    let value = T::deserialize(d)?;
    if value.all(|v| (lo..=hi).contains(&v)) {
        Ok(value)
    } else {
        Err(serde::de::Error::custom(format!(
            "not a finite number from {lo} to {hi}: {what} (no nan or inf)"
        )))
    }
}

/// Points: from 0 to [`MAX_POINTS`].
fn points<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Numbers,
{
    within(d, 0.0, MAX_POINTS, "a value is a number of points")
}

/// Points either way: from −[`MAX_POINTS`] to [`MAX_POINTS`].
fn signed_points<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Numbers,
{
    within(d, -MAX_POINTS, MAX_POINTS, "a value is a number of points")
}

/// A chance or a share: from 0 to 1.
fn chance<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + Numbers,
{
    within(d, 0.0, 1.0, "a chance or a share")
}

/// Tuned values as stored: what they were tuned for, and the values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tuned {
    /// The variant's name when tuned (for people; the fingerprint decides).
    pub variant: String,
    /// The ruleset's fingerprint (`Ruleset::fingerprint`).
    pub fingerprint: String,
    /// The self-play run that learned them.
    pub seed: u64,
    pub games: u64,
    pub players: usize,
    pub worths: Worths,
}

/// Where the values tuned for `fingerprint` are kept in the home `folder`.
pub fn tuned_path(folder: &Path, fingerprint: &str) -> PathBuf {
    folder.join(TUNED_DIR).join(format!("{fingerprint}.toml"))
}

/// The values tuned for `fingerprint` in the home `folder`, if any, for a
/// ruleset of `floor_kinds` floor kinds. The file is an input like any
/// other: a file (a link to `/dev/zero` or a pipe is refused at once), read
/// under the input limit, every value in its range, and written for these rules — the
/// fingerprint it records is the one its name gives (a file copied or
/// renamed to other rules' name is refused, never used for them), and it
/// values no more floor kinds than the rules have.
pub fn load(folder: Option<&Path>, fingerprint: &str, floor_kinds: usize) -> Result<Option<Tuned>> {
    let Some(folder) = folder else {
        return Ok(None);
    };
    let path = tuned_path(folder, fingerprint);
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        Ok(_) => {}
    }
    // Found by its name, so never a device or a pipe (reading one could
    // never end): a file, or a link to one.
    if !std::fs::metadata(&path).is_ok_and(|m| m.is_file()) {
        return Err(bad_input(format!(
            "{} is not a file: tuned values are a TOML file `towerlab tune` writes",
            path.display()
        )));
    }
    let source = Source::read(&path)?;
    let tuned: Tuned = source.parse_toml()?;
    if tuned.fingerprint != fingerprint {
        return Err(bad_input(format!(
            "{}: these values were tuned for the rules of fingerprint {}, not for these \
             ({fingerprint}): a file in `tuned/` is used only for the rules it was tuned for; \
             remove it, or run `towerlab tune` for these rules",
            source.path.display(),
            tuned.fingerprint
        )));
    }
    let listed = tuned.worths.floor.len();
    if listed > floor_kinds {
        return Err(bad_input(format!(
            "{}: `floor` values {listed} floor kinds, and these rules have {floor_kinds}: this file was not written by `towerlab tune` for them",
            source.path.display()
        )));
    }
    Ok(Some(tuned))
}

impl Worths {
    /// What identifies these values: a fingerprint of their stored form,
    /// short (two tables of values share it only by accident).
    pub fn digest(&self) -> String {
        let text = toml::to_string(self).unwrap_or_default();
        fingerprint([text.as_bytes()])[..8].to_string()
    }
}

/// The values bots weigh positions with, as every output that they affect
/// names them: `defaults`, or the tuned file with a digest of its values
/// (`tuned/<fingerprint>.toml, values <digest>`), which tells two runs
/// played with other values apart.
pub fn bot_values(tuned: Option<&Tuned>) -> String {
    match tuned {
        None => "defaults".to_string(),
        Some(t) => format!(
            "{TUNED_DIR}/{}.toml, values {}",
            t.fingerprint,
            t.worths.digest()
        ),
    }
}

/// The words that name the values the bots weighed positions with, under
/// a run's heading (text and HTML): "bot values: defaults", or each variant's when they
/// differ ("bot values: tower defaults; black-tower tuned/….toml, …").
pub fn bot_values_line(variants: &[String], values: &[String]) -> String {
    match values {
        [first, rest @ ..] if rest.iter().all(|v| v == first) => format!("bot values: {first}"),
        _ => {
            let each: Vec<String> = variants
                .iter()
                .zip(values)
                .map(|(variant, v)| format!("{variant} {v}"))
                .collect();
            format!("bot values: {}", each.join("; "))
        }
    }
}

/// `tuned` as its file in `tuned/` holds it (the command line writes it).
pub fn text(tuned: &Tuned) -> Result<String> {
    toml::to_string(tuned).context("writing tuned values")
}

/// A stable 64-bit fingerprint of `parts` (FNV-1a: a fixed, documented
/// function, unlike the standard library's hashers, so a file written by one
/// build is found by the next).
pub fn fingerprint<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    for part in parts {
        h.write(&(part.len() as u64).to_le_bytes());
        h.write(part);
    }
    format!("{:016x}", h.finish())
}

/// FNV-1a, 64 bits: a few lines, so written here rather than a dependency.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fingerprint_sees_where_parts_split() {
        let a = fingerprint([b"ab".as_slice(), b"c".as_slice()]);
        let b = fingerprint([b"a".as_slice(), b"bc".as_slice()]);
        assert_ne!(a, b);
        assert_eq!(a, fingerprint([b"ab".as_slice(), b"c".as_slice()]));
    }

    #[test]
    fn stored_values_read_back() {
        let folder = tempfile::tempdir().unwrap();
        let dir = folder.path().join("home");
        let tuned = Tuned {
            variant: "v".into(),
            fingerprint: "00ff".into(),
            seed: 3,
            games: 10,
            players: 2,
            worths: Worths {
                floor: vec![0.25, 1.5],
                ..Worths::default()
            },
        };
        let path = tuned_path(&dir, "00ff");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text(&tuned).unwrap()).unwrap();
        assert_eq!(load(Some(&dir), "00ff", 2).unwrap(), Some(tuned));
        assert_eq!(load(Some(&dir), "00fe", 2).unwrap(), None);
        let err = load(Some(&dir), "00ff", 1).unwrap_err().to_string();
        assert!(
            err.contains("`floor` values 2 floor kinds, and these rules have 1"),
            "{err}"
        );
    }

    #[test]
    fn a_stored_value_that_is_not_finite_is_refused_at_its_place() {
        let folder = tempfile::tempdir().unwrap();
        let tuned = Tuned {
            variant: "v".into(),
            fingerprint: "0a".into(),
            seed: 1,
            games: 1,
            players: 2,
            worths: Worths::default(),
        };
        let path = tuned_path(folder.path(), "0a");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let good = text(&tuned).unwrap();
        for (from, to) in [
            ("prisoner = 1.0", "prisoner = nan"),
            ("floor = []", "floor = [1.0, inf]"),
            ("cloister_drop = 0.05", "cloister_drop = -inf"),
        ] {
            assert!(good.contains(from), "{good}");
            let bad = good.replace(from, to);
            std::fs::write(&path, &bad).unwrap();
            let err = load(Some(folder.path()), "0a", 2).unwrap_err().to_string();
            let line = bad.lines().position(|l| l == to).unwrap() + 1;
            let col = to.find(" = ").unwrap() + 4;
            let place = format!("{}:{line}:{col}: ", path.display());
            assert!(err.starts_with(&place), "{err} (want {place})");
            assert!(err.contains("not a finite number"), "{err}");
        }
    }
}
