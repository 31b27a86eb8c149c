//! Shards of a run and their exact merge.
//!
//! A run of G games per variant is cut into N shards of consecutive games:
//! shard K plays games `G·K/N .. G·(K+1)/N`, each with the seed it has in the
//! whole run. A shard's [`Partial`] keeps what identifies the run (a
//! [`RunId`]) and one [`GameRow`] per game and variant: the whole numbers
//! every estimate is computed from (scores, captures, towers…, and how
//! the game unfolded), 52–56 bytes a game and variant as JSON for two
//! players; with `--by-kind`, also
//! the game's [`KindCounts`] row (three counts per floor kind, about 20
//! bytes more for The Tower's kinds). The balance bootstrap resamples games
//! by index with the run's fixed seed, so merged rows in index order give
//! the one-process run's numbers exactly, bit for bit.
//!
//! An arena's shard keeps, instead of `rows`, each game's seat scores
//! (`seat_scores`: about 10 bytes a game for two players): the seating of a
//! game follows from its index, and every arena number from the scores.
//!
//! The run's `command` names what a merge prints (`simulate`, `compare`,
//! `arena`); another kind of run adds its name and the rows it needs beside
//! `rows`.

mod merge;

pub use merge::{Merged, merge};

use std::ops::Range;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::analysis::arena::{self, Arena};
use crate::analysis::compare::{self, Plan, RunInfo};
use crate::analysis::kinds::KindCounts;
use crate::analysis::stats::GameRow;
use crate::kernel::diag::bad_input;
use crate::play::sim::{GameResult, MAX_THREADS};
use crate::rules::Ruleset;

/// The format tag of a partial result file.
pub const FORMAT: &str = "towerlab-partial/3";

/// The kinds of run a partial can come from (its run's `command`), each
/// merged into what that command prints.
pub const COMMANDS: [&str; 3] = ["simulate", "compare", "arena"];

/// Shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// A shard, checked against the run's games.
    pub fn new(index: u64, count: u64, games: u64) -> Result<Shard> {
        if count == 0 {
            return Err(bad_input("--shard K/N needs N of 1 or more"));
        }
        if index >= count {
            return Err(bad_input(format!(
                "--shard {index}/{count}: K counts from 0 to N-1 = {}",
                count - 1
            )));
        }
        if count > games {
            return Err(bad_input(format!(
                "--shard {index}/{count}: more shards than games ({games})"
            )));
        }
        Ok(Shard { index, count })
    }

    /// The games (by index) this shard plays of a run of `games`.
    pub fn games(&self, games: u64) -> Range<u64> {
        let at = |k: u64| (games as u128 * k as u128 / self.count as u128) as u64;
        at(self.index)..at(self.index + 1)
    }
}

/// What makes two shards part of the same run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunId {
    /// The towerlab version that played the games.
    pub version: String,
    /// The command whose output a merge prints (`simulate`, `compare` or
    /// `arena`).
    pub command: String,
    pub variants: Vec<String>,
    pub packs: Vec<Vec<String>>,
    /// A hash of each variant's pack files (manifests, scripts, tile sets)
    /// and parameter values.
    pub content: Vec<String>,
    pub seed: u64,
    pub bots: Vec<String>,
    /// The values each variant's bots weigh positions with
    /// (`Ruleset::bot_values`): shards played with other values are of
    /// another run. An arena has one.
    #[serde(default)]
    pub bot_values: Vec<String>,
    /// Games per variant in the whole run.
    pub games: u64,
    /// Shards the run is cut into.
    pub shards: u64,
    /// Whether the run counts the per-floor-kind metrics (`--by-kind`).
    #[serde(default)]
    pub by_kind: bool,
    /// An arena's seats per game (its `bots` are the lineup, fewer than the
    /// seats when the last bot fills the rest); none for other runs, whose
    /// `bots` are one per seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
}

impl RunId {
    pub fn of(command: &str, plan: &Plan, shards: u64, by_kind: bool) -> RunId {
        let info = RunInfo::of(plan);
        RunId {
            version: env!("CARGO_PKG_VERSION").to_string(),
            command: command.to_string(),
            variants: info.variants,
            packs: info.packs,
            content: plan.sets.iter().map(content_hash).collect(),
            seed: info.seed,
            bots: info.bots,
            bot_values: info.bot_values,
            games: info.games,
            shards,
            by_kind,
            players: None,
        }
    }

    /// The run of `arena`, cut into `shards`.
    pub fn of_arena(arena: &Arena, shards: u64) -> RunId {
        let info = arena.info();
        RunId {
            version: env!("CARGO_PKG_VERSION").to_string(),
            command: "arena".to_string(),
            variants: vec![info.variant],
            packs: vec![info.packs],
            content: vec![content_hash(arena.set)],
            seed: info.seed,
            bots: info.bots,
            bot_values: vec![info.bot_values],
            games: arena.total_games(),
            shards,
            by_kind: false,
            players: Some(info.players),
        }
    }

    /// The seats of each game of the run.
    pub fn seats(&self) -> usize {
        self.players.unwrap_or(self.bots.len())
    }

    /// The first field in which `other` differs, with both values.
    fn difference(&self, other: &RunId) -> Option<(&'static str, String, String)> {
        let fields: [(&str, String, String); 12] = [
            ("version", self.version.clone(), other.version.clone()),
            ("command", self.command.clone(), other.command.clone()),
            (
                "variants",
                self.variants.join(" "),
                other.variants.join(" "),
            ),
            (
                "packs",
                format!("{:?}", self.packs),
                format!("{:?}", other.packs),
            ),
            (
                "pack content",
                self.content.join(" "),
                other.content.join(" "),
            ),
            ("seed", self.seed.to_string(), other.seed.to_string()),
            ("bots", self.bots.join(","), other.bots.join(",")),
            (
                "bot values",
                self.bot_values.join("; "),
                other.bot_values.join("; "),
            ),
            ("games", self.games.to_string(), other.games.to_string()),
            ("shards", self.shards.to_string(), other.shards.to_string()),
            (
                "--by-kind",
                self.by_kind.to_string(),
                other.by_kind.to_string(),
            ),
            (
                "players",
                self.seats().to_string(),
                other.seats().to_string(),
            ),
        ];
        fields.into_iter().find(|(_, a, b)| a != b)
    }
}

/// One shard's games: `towerlab … --shard K/N --format partial`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Partial {
    pub format: String,
    pub run: RunId,
    pub shard: u64,
    /// The first game's index and one past the last.
    pub first: u64,
    pub end: u64,
    pub seconds: f64,
    pub threads: usize,
    /// `rows[variant][game]`, games in index order.
    pub rows: Vec<Vec<GameRow>>,
    /// Each variant's per-floor-kind counts (only with `--by-kind`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<KindCounts>,
    /// An arena's games: each one's score per seat, in index order (`rows`
    /// is then empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seat_scores: Vec<Vec<u32>>,
}

/// Play shard `shard` of `plan` (a `command` run, counting the
/// per-floor-kind metrics when `by_kind`) and keep its games.
pub fn play(
    command: &str,
    plan: &Plan,
    shard: Shard,
    by_kind: bool,
    progress: &(dyn Fn(u64) + Sync),
    mut each: impl FnMut(&GameResult) -> Result<()>,
) -> Result<Partial> {
    compare::check(plan)?;
    let range = shard.games(plan.games);
    let tally = compare::play_range(plan, range.clone(), progress, &mut each)?;
    Ok(Partial {
        format: FORMAT.to_string(),
        run: RunId::of(command, plan, shard.count, by_kind),
        shard: shard.index,
        first: range.start,
        end: range.end,
        seconds: tally.seconds,
        threads: tally.threads,
        rows: tally.rows,
        kinds: if by_kind { tally.kinds } else { Vec::new() },
        seat_scores: Vec::new(),
    })
}

/// Play shard `shard` of `arena` (its games cut as [`Arena::total_games`]
/// counts them) and keep each game's seat scores.
pub fn play_arena(arena: &Arena, shard: Shard, progress: &(dyn Fn(u64) + Sync)) -> Result<Partial> {
    let range = shard.games(arena.total_games());
    let start = std::time::Instant::now();
    let seat_scores = arena::play_range(arena, range.clone(), progress)?;
    Ok(Partial {
        format: FORMAT.to_string(),
        run: RunId::of_arena(arena, shard.count),
        shard: shard.index,
        first: range.start,
        end: range.end,
        seconds: start.elapsed().as_secs_f64(),
        threads: compare::threads_used(arena.threads),
        rows: Vec::new(),
        kinds: Vec::new(),
        seat_scores,
    })
}

/// A hash (FNV-1a, 64 bits, in hex) of what a ruleset is made of: each
/// pack's reference, manifest, script and tile file, and the parameters.
pub fn content_hash(set: &Ruleset) -> String {
    let mut h = Fnv::default();
    for pack in set.packs() {
        h.field(pack.reference.as_bytes());
        h.field(pack.manifest.text.as_bytes());
        h.field(pack.script.as_ref().map_or(&b""[..], |s| s.text.as_bytes()));
        h.field(pack.tiles.as_ref().map_or(&b""[..], |t| t.text.as_bytes()));
    }
    h.field(format!("{:?}", set.params()).as_bytes());
    format!("{:016x}", h.0)
}

/// FNV-1a over length-prefixed fields (so fields cannot run together).
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn field(&mut self, bytes: &[u8]) {
        for b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A partial result read from `name` (a file name, for messages).
pub fn parse(name: &str, text: &str) -> Result<Partial> {
    let p: Partial = serde_json::from_str(text).map_err(|e| {
        bad_input(format!(
            "{name}:{}:{}: not a towerlab partial result: {e}",
            e.line(),
            e.column()
        ))
    })?;
    if p.format != FORMAT {
        let older = p.format.starts_with("towerlab-partial/");
        return Err(bad_input(format!(
            "{name}: format `{}`, expected `{FORMAT}`{}",
            p.format,
            if older {
                " (from an older towerlab, whose partials lack what this one keeps — counts of \
                 each game, the bot values of the run: play the shard again)"
            } else {
                ""
            }
        )));
    }
    if !COMMANDS.contains(&p.run.command.as_str()) {
        return Err(bad_input(format!(
            "{name}: a partial result of `{}`, which this towerlab cannot merge (it merges {})",
            p.run.command,
            COMMANDS.join(" and ")
        )));
    }
    check_rows(name, &p)?;
    Ok(p)
}

/// A partial's games match its shard: one row per game of its range and
/// variant (or seat scores per game, for an arena), each with the run's
/// seats.
fn check_rows(name: &str, p: &Partial) -> Result<()> {
    let shard = Shard::new(p.shard, p.run.shards, p.run.games)
        .map_err(|e| bad_input(format!("{name}: {e:#}")))?;
    let range = shard.games(p.run.games);
    let expected = (range.end - range.start) as usize;
    let bad = |what: String| Err(bad_input(format!("{name}: {what}")));
    if (p.first, p.end) != (range.start, range.end) {
        return bad(format!(
            "shard {}/{} covers games {}..{}, not {}..{}",
            p.shard, p.run.shards, range.start, range.end, p.first, p.end
        ));
    }
    check_speed(p).or_else(bad)?;
    let checked = if p.run.command == "arena" {
        check_arena(p, expected)
    } else {
        check_game_rows(p, expected).and_then(|()| check_kinds(p, expected))
    };
    checked.or_else(bad)
}

/// A shard's time and threads, as a merge adds them into the speed it
/// prints: a finite time of 0 or more, and a thread count a run can have.
fn check_speed(p: &Partial) -> Result<(), String> {
    if !(p.seconds.is_finite() && p.seconds >= 0.0) {
        return Err(format!(
            "field `seconds` is {}: a shard's time is a number of seconds, 0 or more",
            p.seconds
        ));
    }
    if !(1..=MAX_THREADS).contains(&p.threads) {
        return Err(format!(
            "field `threads` is {}: a shard runs on 1 to {MAX_THREADS} threads",
            p.threads
        ));
    }
    Ok(())
}

/// A simulate or compare shard: a row per game of each variant.
fn check_game_rows(p: &Partial, expected: usize) -> Result<(), String> {
    if p.rows.len() != p.run.variants.len() {
        return Err(format!(
            "{} variants' games for {} variants",
            p.rows.len(),
            p.run.variants.len()
        ));
    }
    for rows in &p.rows {
        if rows.len() != expected {
            return Err(format!(
                "{} games where the shard has {expected}",
                rows.len()
            ));
        }
        if let Some(r) = rows.iter().find(|r| r.players() != Some(p.run.seats())) {
            return Err(format!(
                "a game row of {} numbers does not fit {} players",
                r.0.len(),
                p.run.seats()
            ));
        }
    }
    Ok(())
}

/// An arena shard: one variant, the seats its bots fit, and each game's
/// score per seat.
fn check_arena(p: &Partial, expected: usize) -> Result<(), String> {
    let seats = p.run.seats();
    if p.run.variants.len() != 1 || !p.rows.is_empty() || !p.kinds.is_empty() {
        return Err("an arena's shard holds one variant and only seat scores".to_string());
    }
    arena::lineup(p.run.bots.len(), seats).map_err(|e| format!("{e:#}"))?;
    if !p.run.games.is_multiple_of(seats as u64) {
        return Err(format!(
            "an arena of {} games is not whole deals of {seats} seatings",
            p.run.games
        ));
    }
    if p.seat_scores.len() != expected {
        return Err(format!(
            "{} games where the shard has {expected}",
            p.seat_scores.len()
        ));
    }
    match p.seat_scores.iter().position(|g| g.len() != seats) {
        Some(g) => Err(format!(
            "game {} has {} seat scores, not {seats}",
            p.first + g as u64,
            p.seat_scores[g].len()
        )),
        None => Ok(()),
    }
}

/// A partial's per-floor-kind counts: one set per variant and game with
/// three counts per kind, when the run counts them; none otherwise.
fn check_kinds(p: &Partial, expected: usize) -> Result<(), String> {
    let wanted = if p.run.by_kind {
        p.run.variants.len()
    } else {
        0
    };
    if p.kinds.len() != wanted {
        return Err(format!(
            "{} variants' floor-kind counts in a run of {wanted}",
            p.kinds.len()
        ));
    }
    for k in &p.kinds {
        if k.games.len() != expected {
            return Err(format!(
                "floor-kind counts of {} games where the shard has {expected}",
                k.games.len()
            ));
        }
        if let Some(g) = k.misfit() {
            return Err(format!(
                "game {} has {} floor-kind counts, not 3 for each of {} kinds",
                p.first + g as u64,
                k.games[g].len(),
                k.kinds.len()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once_in_order() {
        for (games, n) in [(10, 3), (7, 7), (1000, 7), (5, 1)] {
            let mut next = 0;
            for k in 0..n {
                let r = Shard::new(k, n, games).unwrap().games(games);
                assert_eq!(r.start, next);
                assert!(r.end > r.start);
                next = r.end;
            }
            assert_eq!(next, games);
        }
    }

    #[test]
    fn bad_shards_are_refused() {
        assert!(Shard::new(3, 3, 10).is_err());
        assert!(Shard::new(0, 0, 10).is_err());
        assert!(Shard::new(0, 11, 10).is_err());
    }
}
