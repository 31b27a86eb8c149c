//! `towerlab check`: load a pack or variant, validate it, and play a few quick
//! games, collecting every problem found rather than stopping at the first
//! (every pack's load problems: `rules::problems`).
//! A function named like a misspelt hook is a problem. The games watch the
//! hooks' answers and flag dead rules: a floor kind never placeable, a hook
//! that never allowed anything, a hook whose answer never varied.

use std::cell::RefCell;

use anyhow::Result;

use crate::kernel::effects::{Acted, Moment, StateVar};
use crate::kernel::rules::TowerNow;

use crate::kernel::diag::bad_input;
use crate::kernel::{
    Asking, FloorKind, HookBudget, MAX_PLAYERS, MIN_PLAYERS, Question, Reply, Rules, StackView,
    Table,
};
use crate::play::cost::CostOptions;
use crate::play::seed::game_seed;
use crate::play::sim;
use crate::rules::param::{Given, ParamDecl};
use crate::rules::problems::load_all;
use crate::rules::script::{Hook, ScriptRules};
use crate::rules::setting;
use crate::rules::{Home, LoadOptions, Ruleset};

/// What `check` found.
#[derive(Debug, Default)]
pub struct Report {
    /// What was loaded, for the reader.
    pub notes: Vec<String>,
    /// Suspicious but not wrong.
    pub warnings: Vec<String>,
    /// Wrong: the pack or variant cannot be used as it is.
    pub problems: Vec<String>,
    pub summary: String,
    /// What each pack hook costs a game, when asked for and the checks
    /// found no problem.
    pub cost: Option<crate::play::cost::CostReport>,
}

/// Check a pack, a pack list (`tower,house/no-gaps`) or a variant.
pub fn run(home: &Home, load: &LoadOptions, target: &str, games: u64) -> Result<Report> {
    run_with_cost(home, load, target, games, None)
}

/// [`run`], and with `cost` the games it says played to count what each
/// pack hook costs (`check --cost`), once the checks found no problem.
pub fn run_with_cost(
    home: &Home,
    load: &LoadOptions,
    target: &str,
    games: u64,
    cost: Option<&CostOptions>,
) -> Result<Report> {
    let mut report = Report::default();
    let loaded = load_all(home, load, target);
    if !home.is_variant(target) && !target.contains(',') && loaded.packs.len() > 1 {
        report.notes.push(format!(
            "checking with its requirements: {}",
            loaded.packs.join(", ")
        ));
    }
    report.problems.extend(loaded.problems);
    let Some(set) = loaded.set else {
        return Ok(report);
    };
    report.notes.push(format!(
        "packs: {}; floor kinds: {}; tiles: {} ({} with a foundation)",
        set.pack_names().join(", "),
        set.floors()
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        set.tiles().total_tiles(),
        set.tiles().foundation_tiles()
    ));
    report.notes.extend(origins(&set));
    if let Some(scripts) = set.scripts() {
        for hook in Hook::ALL {
            let chain: Vec<&str> = scripts.chain(hook).collect();
            let by = if chain.is_empty() {
                "default".to_string()
            } else {
                chain.join(" → ")
            };
            report.notes.push(format!("hook {}: {by}", hook.name()));
        }
        report.problems.extend(scripts.near_misses());
    }
    let rules = set.rules();
    let kinds = set.floors().len();
    let seats = check_setup(&set, rules.as_ref(), &mut report);
    for k in 0..kinds {
        if let Err(e) = probe_kind(rules.as_ref(), k as FloorKind) {
            report
                .problems
                .push(format!("floor kind `{}`: {e:#}", set.floors()[k].name));
        }
    }
    let mut played = 0;
    if let Some(seats) = seats.clone() {
        played = match set.script_rules() {
            Some(scripted) => {
                scripted.count_fires();
                let watch = Watch::new(scripted);
                let played = play_games(&set, &watch, games, &seats, &mut report).played;
                if played > 0 {
                    report.warnings.extend(watch.dead_rules(&set, played));
                    report.notes.extend(watch.effects_done(played));
                    report.warnings.extend(constant_reads(&watch.inner, played));
                    let (notes, warnings) = fires(&watch.inner);
                    report.notes.extend(notes);
                    report.warnings.extend(warnings);
                }
                played
            }
            None => play_games(&set, set.rules().as_ref(), games, &seats, &mut report).played,
        };
    }
    let (least, most) = seats
        .clone()
        .map_or((MIN_PLAYERS, MAX_PLAYERS), |s| s.into_inner());
    if seats.is_some() {
        check_param_ends(home, &set, &mut report);
    }
    report.summary = format!(
        "`{}` loads; setup valid for {least}–{most} players; {played} random games played",
        set.name()
    );
    if let Some(options) = cost.filter(|_| report.problems.is_empty() && set.scripts().is_some()) {
        match crate::play::cost::report(&set, options) {
            Ok(cost) => report.cost = Some(cost),
            Err(e) => report.problems.push(format!("{e:#}")),
        }
    }
    Ok(report)
}

/// Games played with a parameter at each end of what it may be set to.
const GAMES_AT_AN_END: u64 = 2;

/// Each number parameter of the packs set to each end of the values it may
/// be set to (its declared bounds; an integer's implicit ones where it
/// declares none), its setup asked and a few games played: a value a
/// variant, `--param` or the browser may set that breaks the rules (a
/// ransom past what a cost holds, a supply past its most) is the pack's
/// problem, told here rather than in a player's game.
fn check_param_ends(home: &Home, set: &Ruleset, report: &mut Report) {
    // What the same games do with every parameter at its default, asked
    // once a game at an end fails: a failure they share is not the
    // parameter's (`check` told it already).
    let mut at_defaults: Option<Vec<String>> = None;
    for pack in set.packs() {
        for (name, decl) in &pack.params {
            for (end, value) in param_ends(decl) {
                let at = [setting::Setting {
                    pack: &pack.reference,
                    name,
                    value: Given::Toml(&value),
                }];
                let mut found = Report::default();
                let values = setting::resolve(set.packs(), &at).map_err(|r| bad_input(r.why));
                match values.and_then(|values| set.with_params(home, &values)) {
                    Ok(at_end) => {
                        let rules = at_end.rules();
                        if let Some(seats) = check_setup(&at_end, rules.as_ref(), &mut found) {
                            let mut games = Report::default();
                            let failed = play_games(
                                &at_end,
                                rules.as_ref(),
                                GAMES_AT_AN_END,
                                &seats,
                                &mut games,
                            )
                            .failures;
                            let shared = at_defaults.get_or_insert_with(|| {
                                let rules = set.rules();
                                play_games(
                                    set,
                                    rules.as_ref(),
                                    GAMES_AT_AN_END,
                                    &seats,
                                    &mut Report::default(),
                                )
                                .failures
                            });
                            if failed.iter().any(|f| !shared.contains(f)) {
                                found.problems.extend(games.problems);
                            }
                        }
                    }
                    Err(e) => found.problems.push(format!("{e:#}")),
                }
                // The first problem says it; the rest are usually the same.
                report.problems.extend(found.problems.into_iter().take(1).map(|p| {
                    format!(
                        "parameter `{name}` of pack `{}` set to {value} ({end}, which a variant \
                         may set) breaks the rules: {p}; declare `min` and `max` the rules can take",
                        pack.reference
                    )
                }));
            }
        }
    }
}

/// The values at the ends of what a number parameter may be set to, other
/// than its default, with words for each.
fn param_ends(decl: &ParamDecl) -> Vec<(&'static str, toml::Value)> {
    let ends = match decl.default {
        toml::Value::Integer(_) => {
            let (least, most) = decl.integer_range();
            vec![
                ("its least value", toml::Value::Integer(least)),
                ("its greatest value", toml::Value::Integer(most)),
            ]
        }
        toml::Value::Float(_) => {
            let (least, most) = decl.float_range();
            vec![
                ("its least value", toml::Value::Float(least)),
                ("its greatest value", toml::Value::Float(most)),
            ]
        }
        _ => Vec::new(),
    };
    ends.into_iter()
        .filter(|(_, v)| *v != decl.default)
        .collect()
}

/// Warnings for the reads a hook made that gave one value in all of
/// `games` games: a read that never varies is a likely bug (a field read on
/// features where it cannot change, a seat that is always the same).
fn constant_reads(rules: &ScriptRules, games: u64) -> Vec<String> {
    rules
        .constant_reads()
        .into_iter()
        .map(|(hook, read, value)| {
            format!(
                "hook `{}` read `{read}` and it gave {value} every time in {games} test games \
                 (always the same: is that what the rule means?)",
                hook.name()
            )
        })
        .collect()
}

/// How often each pack changed its hooks' answers in the test games (notes),
/// and a warning for each that changed none: a rule that never applies in
/// play may be written for a case that does not arise, or be shadowed. A
/// hook no pack before it defines, which answered as the hook's default
/// does, states the default: a note, not a warning.
fn fires(rules: &ScriptRules) -> (Vec<String>, Vec<String>) {
    let fires = rules.fires();
    let games = fires.games;
    let (mut notes, mut warnings) = (Vec::new(), Vec::new());
    for f in fires.hooks.iter().filter(|f| f.asked > 0) {
        let unknown = match f.unknown {
            0 => String::new(),
            n => format!(" ({n} could not be compared: a pack before it failed)"),
        };
        if f.never_changed() && f.first_in_chain {
            notes.push(format!(
                "pack `{}`, hook `{}`: answered as the hook's default would in all {} questions \
                 of {games} test games (it states the default: nothing to fix){unknown}",
                f.pack,
                f.hook.name(),
                f.asked
            ));
        } else if f.never_changed() {
            warnings.push(format!(
                "pack `{}`, hook `{}` changed no answer in {games} test games: asked {} times, \
                 it answered as the packs before it (or the default) would{unknown}; \
                 does the rule ever apply?",
                f.pack,
                f.hook.name(),
                f.asked
            ));
        } else {
            notes.push(format!(
                "pack `{}`, hook `{}`: changed {} of {} answers, in {} of {games} games{unknown}",
                f.pack,
                f.hook.name(),
                f.changed,
                f.asked,
                f.games_changed
            ));
        }
    }
    (notes, warnings)
}

/// Play `games` quick games under `rules`, of 2 to 6 players as far as
/// `seats` allows, recording each distinct problem (a game's error, once
/// however many games hit it); how many ended, and those errors.
fn play_games(
    set: &Ruleset,
    rules: &dyn Rules,
    games: u64,
    seats: &std::ops::RangeInclusive<usize>,
    report: &mut Report,
) -> Played {
    let mut played = 0;
    let mut seen: Vec<String> = Vec::new();
    let least = *seats.start();
    let counts = (seats.end().min(&6).max(&least) - least + 1) as u64;
    for i in 0..games {
        let players = least + (i % counts) as usize;
        let seed = game_seed(0xC4EC, i);
        if let Some(trace) = set.scripts().and_then(|s| s.trace()) {
            trace.note(format!("test game {i} ({players} players, seed {seed})"));
        }
        match sim::play_random(set.tiles(), rules, players, seed) {
            Ok(_) => played += 1,
            Err(e) => {
                let problem = format!("{e:#}");
                if !seen.contains(&problem) {
                    report.problems.push(format!(
                        "game {i} ({players} players, seed {seed}): {problem}"
                    ));
                    seen.push(problem);
                }
            }
        }
    }
    Played {
        played,
        failures: seen,
    }
}

/// Test games played: how many ended, and each distinct error of those
/// that did not.
struct Played {
    played: u64,
    failures: Vec<String>,
}

/// Where the variant and each pack were found: shipped, or a path (a home
/// folder's pack or variant wins over a shipped one of the same name).
fn origins(set: &Ruleset) -> Vec<String> {
    let variant = set
        .origin()
        .iter()
        .map(|o| format!("variant `{}`: {o}", set.name()));
    let packs = set
        .packs()
        .iter()
        .map(|p| format!("pack `{}`: {}", p.reference, p.origin));
    variant.chain(packs).collect()
}

/// A setup that fails, with the first number of players it fails for.
struct SetupFailure {
    players: usize,
    error: anyhow::Error,
}

/// Ask the setup for every number of players (2 to 8). A pack may play
/// fewer: the counts its setup answers, when they run unbroken from the
/// least to the greatest, are the ones it plays (its refusal of the others,
/// in its own words, is a note). Otherwise each distinct failure is a
/// problem, once (a hook that fails usually fails alike for every number of
/// players), with the first number of players it fails for. The counts it
/// plays, or `None` when the setup is broken.
fn check_setup(
    set: &Ruleset,
    rules: &dyn Rules,
    report: &mut Report,
) -> Option<std::ops::RangeInclusive<usize>> {
    let kinds = set.floors().len();
    let mut failures: Vec<SetupFailure> = Vec::new();
    let mut plays = Vec::new();
    for players in MIN_PLAYERS..=MAX_PLAYERS {
        let foundations = set.tiles().foundation_tiles();
        let supplies = rules
            .seat_supply(players, foundations, 0)
            .and_then(|seat| Ok((seat, rules.table_supply(players, foundations)?)));
        match supplies {
            Ok((seat, table)) => {
                if plays.is_empty() && kinds > 0 {
                    no_floors_warnings(set, players, &seat, &table, report);
                }
                plays.push(players);
            }
            Err(error) => {
                let seen = failures.iter().any(|f| same_error(&f.error, &error));
                if !seen {
                    failures.push(SetupFailure { players, error });
                }
            }
        }
    }
    let (least, most) = match (plays.first(), plays.last()) {
        (Some(&least), Some(&most)) => (least, most),
        _ => (MIN_PLAYERS, MAX_PLAYERS),
    };
    let unbroken = !plays.is_empty() && most - least + 1 == plays.len();
    if unbroken && !failures.is_empty() {
        let refusal = failures
            .iter()
            .map(|f| format!("for {} players: {:#}", f.players, f.error))
            .collect::<Vec<_>>()
            .join("; ");
        report.notes.push(format!(
            "plays {least}–{most} players; its setup refuses the others ({refusal})"
        ));
        return Some(least..=most);
    }
    for f in &failures {
        report
            .problems
            .push(format!("setup for {} players: {:#}", f.players, f.error));
    }
    failures.is_empty().then_some(least..=most)
}

/// Warnings for the floor kinds setup gives nobody in a game of `players`.
fn no_floors_warnings(
    set: &Ruleset,
    players: usize,
    seat: &[u32],
    table: &[u32],
    report: &mut Report,
) {
    for k in (0..set.floors().len()).filter(|&k| seat[k] == 0 && table[k] == 0) {
        let whom = match set.floors()[k].table {
            true => "the table",
            false => "a player",
        };
        report.warnings.push(format!(
            "setup gives no `{}` floors to {whom} in a {players}-player game",
            set.floors()[k].name
        ));
    }
}

/// Two errors are the same failure when their chains read alike.
fn same_error(a: &anyhow::Error, b: &anyhow::Error) -> bool {
    a.chain()
        .map(|e| e.to_string())
        .eq(b.chain().map(|e| e.to_string()))
}

/// Ask the tower hooks about a one-floor tower of `kind`, as the game would
/// (for seat 0 of two, before the first tile).
fn probe_kind(rules: &dyn Rules, kind: FloorKind) -> Result<()> {
    let bare = StackView {
        floors: &[],
        topped: false,
    };
    let floors = [kind];
    let one = StackView {
        floors: &floors,
        topped: false,
    };
    Asking::outside_game(2, |asking| -> Result<()> {
        rules.may_place_floor(&bare, kind, asking)?;
        rules.may_top(&one, asking)?;
        Ok(())
    })?;
    let mut cells = Vec::new();
    rules.capture_range(&one, &mut cells)?;
    Ok(())
}

/// What the hooks answered during the test games: which answers each gave.
#[derive(Default)]
struct Seen {
    /// Per floor kind: was a floor of it ever allowed?
    placeable: Vec<bool>,
    may_top: [bool; 2],
    may_capture: [bool; 2],
    exchange: [bool; 2],
    may_place_tile: [bool; 2],
    ransoms: Vec<Option<u32>>,
    /// Effects the event hooks answered, by name.
    effects: std::collections::BTreeMap<&'static str, u64>,
    /// Moments whose event hook answered some effect (by moment name).
    acted: std::collections::BTreeSet<&'static str>,
}

/// The rules, passing every question on and noting the answers.
struct Watch {
    inner: ScriptRules,
    seen: RefCell<Seen>,
}

impl Watch {
    fn new(inner: ScriptRules) -> Watch {
        let kinds = inner.floor_kinds().len();
        Watch {
            inner,
            seen: RefCell::new(Seen {
                placeable: vec![false; kinds],
                ..Seen::default()
            }),
        }
    }

    /// Warnings for rules that did nothing in `games` games; only hooks that
    /// some pack defines are judged.
    fn dead_rules(&self, set: &Ruleset, games: u64) -> Vec<String> {
        let defined = |h: Hook| self.inner.scripts().chain(h).next().is_some();
        let seen = self.seen.borrow();
        let mut out = Vec::new();
        let in_games = format!("in {games} test games");
        for (k, &ok) in seen.placeable.iter().enumerate() {
            if !ok {
                out.push(format!(
                    "floor kind `{}` was never placeable {in_games}",
                    set.floors()[k].name
                ));
            }
        }
        let flags = [
            (Hook::MayCapture, seen.may_capture, "a capture"),
            (Hook::MayTop, seen.may_top, "a meeple on a tower"),
            (Hook::Exchange, seen.exchange, "an exchange"),
            (Hook::MayPlaceTile, seen.may_place_tile, "a placement"),
        ];
        for (hook, answers, what) in flags {
            if !defined(hook) || answers == [false, false] {
                continue;
            }
            if !answers[1] {
                out.push(format!(
                    "hook `{}` never allowed {what} {in_games}",
                    hook.name()
                ));
            } else if !answers[0] {
                out.push(format!(
                    "hook `{}`: its answer never varied {in_games} (always true)",
                    hook.name()
                ));
            }
        }
        for hook in Hook::ALL.into_iter().filter(|h| h.acts() && defined(*h)) {
            let moment = hook.name().trim_start_matches("on_");
            if !seen.acted.contains(moment) {
                out.push(format!(
                    "hook `{}` answered no effect {in_games}",
                    hook.name()
                ));
            }
        }
        // A ransom of one fixed cost is the printed rule, so only a ransom
        // never allowed is flagged.
        if defined(Hook::Ransom)
            && seen.ransoms.iter().all(Option::is_none)
            && !seen.ransoms.is_empty()
        {
            out.push(format!("hook `ransom` never allowed a ransom {in_games}"));
        }
        out
    }

    /// What the event hooks did in `games` games, effect by effect.
    fn effects_done(&self, games: u64) -> Option<String> {
        let seen = self.seen.borrow();
        (!seen.effects.is_empty()).then(|| {
            let each: Vec<String> = seen
                .effects
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            format!("effects in {games} test games: {}", each.join(", "))
        })
    }

    fn note(&self, f: impl FnOnce(&mut Seen)) {
        f(&mut self.seen.borrow_mut());
    }
}

/// The questions whose answers [`Watch`] notes.
#[derive(Clone, Copy)]
enum Watched {
    Floor(usize),
    Top,
    Capture,
    Exchange,
    Ransom,
    Tile,
}

impl HookBudget for Watch {
    fn begin_game(&self, seed: Option<u64>) {
        self.inner.begin_game(seed)
    }

    fn searching(&self, on: bool) {
        self.inner.searching(on)
    }
}

impl Rules for Watch {
    fn floor_kinds(&self) -> &[String] {
        self.inner.floor_kinds()
    }

    fn ask(&self, question: Question) -> Result<Reply> {
        let watched = match &question {
            // Asked one by one, so each answer is seen.
            Question::TowerAnswers { .. } => return Ok(Reply::OneByOne),
            Question::MayPlaceFloor { kind, .. } => Watched::Floor(*kind as usize),
            Question::MayTop { .. } => Watched::Top,
            Question::MayCapture { .. } => Watched::Capture,
            Question::Exchange { .. } => Watched::Exchange,
            Question::Ransom { .. } => Watched::Ransom,
            Question::MayPlaceTile { .. } => Watched::Tile,
            _ => return self.inner.ask(question),
        };
        let reply = self.inner.ask(question)?;
        self.note(|s| match (watched, &reply) {
            (Watched::Floor(k), Reply::Answer(a)) => {
                if let Some(p) = s.placeable.get_mut(k) {
                    *p |= a.yes;
                }
            }
            (Watched::Top, Reply::Answer(a)) => s.may_top[a.yes as usize] = true,
            (Watched::Capture, Reply::Yes(y)) => s.may_capture[*y as usize] = true,
            (Watched::Exchange, Reply::Yes(y)) => s.exchange[*y as usize] = true,
            (Watched::Tile, Reply::Yes(y)) => s.may_place_tile[*y as usize] = true,
            (Watched::Ransom, Reply::Cost(c)) if !s.ransoms.contains(c) => s.ransoms.push(*c),
            _ => {}
        });
        Ok(reply)
    }

    fn listens(&self) -> u32 {
        self.inner.listens()
    }

    fn on_event(
        &self,
        moment: &Moment,
        table: &Table,
        towers: &[TowerNow],
        out: &mut Vec<Acted>,
    ) -> Result<()> {
        let from = out.len();
        self.inner.on_event(moment, table, towers, out)?;
        self.note(|s| {
            for a in &out[from..] {
                *s.effects.entry(a.effect.name()).or_default() += 1;
            }
            if out.len() > from {
                s.acted.insert(moment.name());
            }
        });
        Ok(())
    }

    fn state_vars(&self) -> &[StateVar] {
        self.inner.state_vars()
    }
}
