//! What a browser may choose from: the variants and packs, shipped and the
//! home folder's (by name, never by path), the kinds of seat, and the
//! rulesets loaded from them, shared by every game played under them and
//! kept for the next within bounds (a number and the bytes they hold,
//! measured as each is built; the least recently used dropped first), so
//! requests with ever new parameter values cannot grow the server.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use anyhow::Result;

use super::Limits;
use super::wire::{self, NewGame, PackParam, PlayerCount};
use crate::kernel::diag::{bad_input, did_you_mean};
use crate::kernel::{MAX_PLAYERS, MIN_PLAYERS};
use crate::play::bots::{BotKind, check_values};
use crate::play::params;
use crate::play::session::Seat;
use crate::rules::native::{NATIVES, native};
use crate::rules::script::memory::held;
use crate::rules::{Home, LoadOptions, Ruleset};

/// The variants and packs on offer, and the rulesets loaded so far.
pub struct Catalog {
    home: Home,
    /// How the rules' packs are loaded.
    load: LoadOptions,
    /// What the new-game form offers, the server's budget limit with it.
    lists: wire::Catalog,
    loaded: Mutex<Kept>,
}

/// The rulesets kept loaded, the most recently used last; within
/// `Limits::rulesets` and `Limits::ruleset_bytes`.
struct Kept {
    sets: Vec<KeptSet>,
    bytes: usize,
    most: usize,
    most_bytes: usize,
}

struct KeptSet {
    key: String,
    set: Arc<Ruleset>,
    /// What building it allocated and kept (the counting allocator's
    /// measure on the building thread; 0 when it is not installed).
    bytes: usize,
}

impl Kept {
    /// The set kept under `key`, now the most recently used.
    fn take(&mut self, key: &str) -> Option<Arc<Ruleset>> {
        let i = self.sets.iter().position(|k| k.key == key)?;
        let found = self.sets.remove(i);
        let set = found.set.clone();
        self.sets.push(found);
        Some(set)
    }

    /// Keep `set` (unless it alone is past the bytes), dropping the least
    /// recently used until both bounds hold.
    fn keep(&mut self, key: String, set: Arc<Ruleset>, bytes: usize) {
        if self.take(&key).is_some() || bytes > self.most_bytes || self.most == 0 {
            return;
        }
        while !self.sets.is_empty()
            && (self.sets.len() >= self.most || self.bytes + bytes > self.most_bytes)
        {
            let dropped = self.sets.remove(0);
            self.bytes -= dropped.bytes;
        }
        self.bytes += bytes;
        self.sets.push(KeptSet { key, set, bytes });
    }
}

/// A new game's rules and seats, checked against the catalog.
pub struct Choice {
    pub set: Arc<Ruleset>,
    pub seats: Vec<Seat>,
}

impl Catalog {
    /// The variants and packs of `home`, loaded under `load`; bots search at most
    /// `limits.budget` iterations per decision, and the rulesets kept are
    /// bounded by `limits`; `network` is the page's address for other
    /// devices.
    pub fn new(
        home: &Home,
        load: &LoadOptions,
        limits: &Limits,
        network: Option<String>,
    ) -> Catalog {
        let max_budget = limits.budget;
        let mut packs = home.packs();
        packs.retain(|p| p != "base");
        packs.extend(NATIVES.map(|n| n.name.to_string()));
        let bots: Vec<String> = BotKind::ALL.iter().map(|b| b.name().into()).collect();
        let seats = std::iter::once(Seat::Person.name().to_string())
            .chain(bots.iter().cloned())
            .collect();
        let params = params::declared(home, &packs)
            .into_iter()
            .map(|d| PackParam {
                pack: d.pack,
                name: d.name,
                default: d.default,
                description: d.description,
            })
            .collect();
        let variants = home.variants();
        let variant_packs = variants
            .iter()
            .filter_map(|v| Some((v.clone(), home.load_variant(v).ok()?.packs)))
            .collect();
        let lists = wire::Catalog {
            variants,
            packs,
            bots,
            seats,
            players: PlayerCount {
                min: MIN_PLAYERS,
                max: MAX_PLAYERS,
            },
            max_budget,
            network,
            params,
            variant_packs,
        };
        Catalog {
            home: home.clone(),
            load: load.clone(),
            lists,
            loaded: Mutex::new(Kept {
                sets: Vec::new(),
                bytes: 0,
                most: limits.rulesets,
                most_bytes: limits.ruleset_bytes,
            }),
        }
    }

    /// The home folder the rules come from.
    pub fn home(&self) -> &Home {
        &self.home
    }

    /// How the rules' packs are loaded (memory limit, hook budget).
    pub fn load_options(&self) -> &LoadOptions {
        &self.load
    }

    /// The lists, for the new-game form.
    pub fn lists(&self) -> &wire::Catalog {
        &self.lists
    }

    /// Check a new game's request: rules from the lists, 2 to 8 known
    /// seats, parameters the rules' packs declare.
    pub fn choose(&self, req: &NewGame) -> Result<Choice> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&req.seats.len()) {
            return Err(bad_input(format!(
                "a game has {MIN_PLAYERS} to {MAX_PLAYERS} seats, not {}",
                req.seats.len()
            )));
        }
        let seats = req
            .seats
            .iter()
            .map(|s| Seat::parse(s))
            .collect::<Result<Vec<_>>>()?;
        self.within_budget(&seats)?;
        if let Some(files) = &req.pack_files {
            return self.studio_choice(req, files, seats);
        }
        let set = match (&req.variant, &req.packs) {
            (Some(_), Some(_)) => return Err(bad_input("give a variant or packs, not both")),
            (Some(v), None) => self.variant(v)?,
            (None, Some(p)) => self.pack_list(p)?,
            (None, None) => self.variant("tower")?,
        };
        let set = match &req.params {
            Some(given) => self.with_params(&self.home, set, given)?,
            None => set,
        };
        values_known(&set, &seats)?;
        Ok(Choice { set, seats })
    }

    /// A game under packs a studio page sent (with the catalog's): `packs`
    /// may name them too. Their rules are loaded for this game alone, not
    /// kept for the next.
    fn studio_choice(
        &self,
        req: &NewGame,
        files: &[wire::PackFiles],
        seats: Vec<Seat>,
    ) -> Result<Choice> {
        let Some(packs) = req.packs.as_ref().filter(|_| req.variant.is_none()) else {
            return Err(bad_input(
                "a game with `pack_files` names its packs in `packs`, not a variant",
            ));
        };
        let home = super::studio::holding(&self.home, files)?;
        let list = self.studio_list(&home, packs, files)?;
        let set = Arc::new(Ruleset::from_packs(&home, &self.load, &list)?);
        let set = match &req.params {
            Some(given) => Arc::new(set.with_params(&home, &params::from_json(&set, given)?)?),
            None => set,
        };
        values_known(&set, &seats)?;
        Ok(Choice { set, seats })
    }

    /// Every bot's search budget within the server's maximum: a game's
    /// thread is the server's, and a bot's turn cannot be called back.
    fn within_budget(&self, seats: &[Seat]) -> Result<()> {
        for (i, seat) in seats.iter().enumerate() {
            if let Seat::Bot(bot) = seat
                && let Some(n) = bot.budget()
                && n > self.lists.max_budget
            {
                return Err(bad_input(format!(
                    "seat {}: {}:{n} searches more than this server allows, {} iterations per decision (`serve --max-budget`)",
                    i + 1,
                    bot.name(),
                    self.lists.max_budget
                )));
            }
        }
        Ok(())
    }

    fn variant(&self, name: &str) -> Result<Arc<Ruleset>> {
        known(name, &self.lists.variants, "variant")?;
        self.load(format!("variant:{name}"), || {
            Ruleset::from_variant(&self.home, &self.load, name)
        })
    }

    fn pack_list(&self, packs: &[String]) -> Result<Arc<Ruleset>> {
        let list = self.with_requirements(&self.home, packs, &self.lists.packs)?;
        self.load(format!("packs:{}", list.join(",")), || {
            Ruleset::from_packs(&self.home, &self.load, &list)
        })
    }

    /// `packs`, each the catalog's or one of `files` (held by `home`),
    /// with the packs each requires put before it.
    pub fn studio_list(
        &self,
        home: &Home,
        packs: &[String],
        files: &[wire::PackFiles],
    ) -> Result<Vec<String>> {
        let mut offered = self.lists.packs.clone();
        offered.extend(files.iter().map(|f| f.pack.clone()));
        self.with_requirements(home, packs, &offered)
    }

    /// `packs`, each one of `offered` and named once, with the packs each
    /// requires put before it.
    fn with_requirements(
        &self,
        home: &Home,
        packs: &[String],
        offered: &[String],
    ) -> Result<Vec<String>> {
        if packs.is_empty() {
            return Err(bad_input("name at least one pack"));
        }
        for (i, p) in packs.iter().enumerate() {
            known(p, offered, "pack")?;
            if packs[..i].contains(p) {
                return Err(bad_input(crate::rules::pack_listed_twice(p)));
            }
        }
        let mut list = Vec::new();
        for p in packs {
            add_with_requirements(home, p, &mut list)?;
        }
        Ok(list)
    }

    /// `set` with the parameter values `given` (checked against what its
    /// packs declare), loaded once per set of values.
    fn with_params(
        &self,
        home: &Home,
        set: Arc<Ruleset>,
        given: &BTreeMap<String, BTreeMap<String, serde_json::Value>>,
    ) -> Result<Arc<Ruleset>> {
        let values = params::from_json(&set, given)?;
        if values.is_empty() {
            return Ok(set);
        }
        let key = format!("{}:{}", set.fingerprint(), serde_json::to_string(given)?);
        self.load(key, || set.with_params(home, &values))
    }

    /// The ruleset under `key`: the one kept, or loaded by `load` (and
    /// kept, within the bounds).
    fn load(&self, key: String, load: impl FnOnce() -> Result<Ruleset>) -> Result<Arc<Ruleset>> {
        if let Some(set) = self.lock().take(&key) {
            return Ok(set);
        }
        let before = held();
        let set = Arc::new(load()?);
        let bytes = usize::try_from(held().saturating_sub(before)).unwrap_or(0);
        self.lock().keep(key, set.clone(), bytes);
        Ok(set)
    }

    /// How many rulesets are kept, and the bytes they hold.
    #[cfg(test)]
    fn kept(&self) -> (usize, usize) {
        let kept = self.lock();
        (kept.sets.len(), kept.bytes)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.loaded.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Add `pack` to `list` (unless listed already), the packs it requires
/// (and theirs) first, as found in `home`: a browser user picks packs and
/// their order, and the server puts each pack's requirements before it.
fn add_with_requirements(home: &Home, pack: &str, list: &mut Vec<String>) -> Result<()> {
    if list.iter().any(|p| p == pack) {
        return Ok(());
    }
    if native(pack).is_some() {
        list.push(pack.to_string());
        return Ok(());
    }
    let loaded = home
        .load_pack(pack)
        .map_err(|e| bad_input(format!("pack `{pack}` cannot be read: {e:#}")))?;
    let mut packs = Vec::new();
    crate::rules::with_requirements(home, loaded, &mut packs)?;
    for p in packs {
        if !list.contains(&p.reference) {
            list.push(p.reference);
        }
    }
    Ok(())
}

/// `name` must be one of `list`: the browser names nothing else.
fn known(name: &str, list: &[String], what: &str) -> Result<()> {
    if list.iter().any(|n| n == name) {
        return Ok(());
    }
    Err(bad_input(format!(
        "unknown {what} `{name}` (the list: {}){}",
        list.join(", "),
        did_you_mean(name, list.iter().map(String::as_str))
    )))
}

/// Refuse a bot seat whose `@tuned` has no tuned values under `set`.
fn values_known(set: &Ruleset, seats: &[Seat]) -> Result<()> {
    let bots: Vec<BotKind> = seats
        .iter()
        .filter_map(|s| match s {
            Seat::Bot(b) => Some(*b),
            Seat::Person => None,
        })
        .collect();
    check_values(&bots, &[set])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(rulesets: usize, ruleset_bytes: usize) -> Catalog {
        let limits = Limits {
            rulesets,
            ruleset_bytes,
            ..Limits::default()
        };
        Catalog::new(&Home::shipped(), &LoadOptions::unit_tests(), &limits, None)
    }

    fn game(cost: i64) -> NewGame {
        serde_json::from_value(serde_json::json!({
            "variant": "tower",
            "seats": ["random", "random"],
            "params": {"tower": {"ransom_cost": cost}},
        }))
        .unwrap()
    }

    #[test]
    fn rulesets_kept_are_bounded_in_number_the_least_recently_used_dropped() {
        let catalog = catalog(4, usize::MAX);
        let first = catalog.choose(&game(0)).ok().unwrap().set;
        for cost in 1..40 {
            catalog.choose(&game(cost)).ok().unwrap();
            // Used again each time: never the least recently used.
            let again = catalog.choose(&game(0)).ok().unwrap().set;
            assert!(Arc::ptr_eq(&first, &again), "value 0 was dropped at {cost}");
            assert!(catalog.kept().0 <= 4, "{:?}", catalog.kept());
        }
    }

    /// A game under a studio's packs with parameter values compiles each
    /// script once (its values taken by the compiled scripts), and its
    /// values are checked as every value is.
    #[test]
    fn a_studio_game_s_packs_are_compiled_once_with_its_values() {
        use crate::rules::script::compiled_on_this_thread;
        let catalog = catalog(4, usize::MAX);
        let game = |per: serde_json::Value| -> NewGame {
            let manifest = "[pack]\nname = \"mine\"\nrequires = [\"tower\"]\nscript = \"mine.rhai\"\n\
                            [param.reach]\ndefault = 1\nmin = 0\nmax = 3\n";
            serde_json::from_value(serde_json::json!({
                "packs": ["mine"],
                "seats": ["random", "random"],
                "params": {"mine": {"reach": per}},
                "pack_files": [{"pack": "mine", "files": {
                    "pack.toml": manifest,
                    "mine.rhai": "fn reach(tower) { param(\"reach\") }\n",
                }}],
            }))
            .unwrap()
        };
        let before = compiled_on_this_thread();
        let choice = catalog.choose(&game(serde_json::json!(2))).ok().unwrap();
        let scripts = choice.set.packs().iter().filter(|p| p.script.is_some());
        assert_eq!(compiled_on_this_thread() - before, scripts.count() as u64);
        assert_eq!(choice.set.params()["mine"]["reach"].as_integer(), Some(2));
        let err = catalog.choose(&game(serde_json::json!(4))).err().unwrap();
        let err = format!("{err:#}");
        assert!(
            err.contains("`reach` of pack `mine` is set to 4: above"),
            "{err}"
        );
    }

    /// The shipped home has no tuned values: a seat may pick the defaults,
    /// and is refused the tuned values.
    #[test]
    fn a_seat_picks_its_bot_values_and_tuned_ones_must_exist() {
        let catalog = catalog(4, usize::MAX);
        let seats = |bot: &str| -> NewGame {
            serde_json::from_value(serde_json::json!({"seats": ["person", bot]})).unwrap()
        };
        assert!(catalog.choose(&seats("greedy@defaults")).is_ok());
        let err = catalog
            .choose(&seats("mcts:5@tuned"))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("no tuned values are stored"), "{err}");
    }

    #[test]
    fn rulesets_kept_are_bounded_in_bytes_the_least_recently_used_dropped() {
        let set = Arc::new(
            Ruleset::from_variant(&Home::shipped(), &LoadOptions::unit_tests(), "tower").unwrap(),
        );
        let mut kept = Kept {
            sets: Vec::new(),
            bytes: 0,
            most: 100,
            most_bytes: 1000,
        };
        for (key, bytes) in [("a", 400), ("b", 400), ("c", 100)] {
            kept.keep(key.into(), set.clone(), bytes);
        }
        assert!(kept.take("a").is_some());
        // 400 more: `b`, used least recently, makes room.
        kept.keep("d".into(), set.clone(), 400);
        let keys: Vec<&str> = kept.sets.iter().map(|k| k.key.as_str()).collect();
        assert_eq!(keys, ["c", "a", "d"]);
        assert_eq!(kept.bytes, 900);
        // One past the bound alone is not kept, and drops nothing.
        kept.keep("huge".into(), set, 1001);
        assert_eq!(kept.sets.len(), 3);
    }
}
