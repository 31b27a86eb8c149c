//! Scenario tests of rules (`towerlab test`): a position set up by hand —
//! tiles, meeples, towers, prisoners, scores, the seat to act — and what
//! must hold in it: a tower's range, the meeples a floor may capture, who
//! may build or top a tower, a ransom's cost, a seat's supply, the scores at
//! the end; or decisions played from it and the events they log. A pack
//! keeps its scenarios in `tests/*.toml` (docs/scenarios.md).
//!
//! `file` reads the format; `position` builds the game; `expect` checks
//! what must hold. A scenario that cannot be set up (an unknown tile, a cell
//! off the board) is bad input with its `file:line:col`; one whose rules
//! answer otherwise than it says fails, with what was expected and got.

use std::sync::Arc;

use anyhow::{Context, Result};

use crate::kernel::diag::Source;
use crate::rules::{Home, LoadOptions, Params, Ruleset};

mod answers;
mod checked;
mod expect;
mod failure;
mod file;
mod position;
mod state;
mod steps;

pub use answers::{Answering, Answers, KindSeats, RansomAnswer, TowerAnswers, answers};
pub use failure::Failure;
pub use file::RawFile;
use file::RawScenario;

/// The most scenarios a file may hold: each sets up a game and asks its
/// rules, so a file of hundreds of thousands would run for many minutes
/// (the shipped files hold a few dozen).
pub const MAX_SCENARIOS: usize = 10_000;

/// A scenario file, read and parsed.
pub struct ScenarioFile {
    pub source: Arc<Source>,
    raw: RawFile,
}

impl ScenarioFile {
    /// Parse a scenario file (bad input with its place when it is not one).
    pub fn parse(source: Source) -> Result<ScenarioFile> {
        let raw: RawFile = source.parse_toml().map_err(|e| with_suggestion(&e))?;
        if raw.scenario.is_empty() {
            return Err(source.error_at(
                0..0,
                "no scenario: a scenario file holds `[[scenario]]` tables (docs/packs.md)",
            ));
        }
        if let Some(past) = raw.scenario.get(MAX_SCENARIOS) {
            return Err(source.error_at(
                past.span(),
                format!("more than {MAX_SCENARIOS} scenarios, the most a file may hold: split it"),
            ));
        }
        Ok(ScenarioFile {
            source: Arc::new(source),
            raw,
        })
    }

    /// How many scenarios the file holds.
    pub fn len(&self) -> usize {
        self.raw.scenario.len()
    }

    /// Scenario `index`'s name and line.
    pub fn scenario_name(&self, index: usize) -> (String, usize) {
        let spanned = &self.raw.scenario[index];
        let (line, _) = self.source.line_col(spanned.span().start);
        (spanned.get_ref().name.get_ref().clone(), line)
    }

    pub fn is_empty(&self) -> bool {
        self.raw.scenario.is_empty()
    }
}

/// An unknown key's error with the nearest key it could mean: the parser
/// lists the keys there are (`unknown field `x`, expected one of `a`, …`).
fn with_suggestion(e: &anyhow::Error) -> anyhow::Error {
    let text = format!("{e:#}");
    let suggestion = text.split_once("unknown field `").and_then(|(_, rest)| {
        let (name, rest) = rest.split_once('`')?;
        let known: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
        Some(crate::kernel::diag::did_you_mean(name, known))
    });
    match suggestion {
        Some(s) if !s.is_empty() => crate::kernel::diag::bad_input(format!("{text}{s}")),
        _ => crate::kernel::diag::bad_input(text),
    }
}

/// What running one scenario found.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub name: String,
    /// `file:line` of the scenario.
    pub at: String,
    /// The rule IDs it names.
    pub rules: Vec<String>,
    /// How many expectations were checked.
    pub checked: usize,
    pub failures: Vec<Failure>,
}

impl Outcome {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// Run scenario `index` of `file` under `set` (or under the packs the
/// scenario names). Bad input when it cannot be set up; a rules error (a
/// hook's) as it is; either under the scenario's name and place.
pub fn run(home: &Home, set: &Ruleset, file: &ScenarioFile, index: usize) -> Result<Outcome> {
    let spanned = &file.raw.scenario[index];
    let (line, _) = file.source.line_col(spanned.span().start);
    let at = format!("{}:{line}", file.source.path.display());
    let name = spanned.get_ref().name.get_ref();
    run_at(home, set, file, index, &at)
        .with_context(|| format!("scenario `{}` ({at})", shortened(name)))
}

/// A scenario's name as an error shows it: its first 100 characters.
fn shortened(name: &str) -> String {
    const SHOWN: usize = 100;
    match name.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}…", &name[..cut]),
        None => name.to_string(),
    }
}

fn run_at(
    home: &Home,
    set: &Ruleset,
    file: &ScenarioFile,
    index: usize,
    at: &str,
) -> Result<Outcome> {
    let raw = file.raw.scenario[index].get_ref();
    let src = &file.source;
    let own = own_rules(home, set, src, raw)?;
    let set = own.as_ref().unwrap_or(set);
    if let Some(trace) = set.scripts().and_then(|s| s.trace()) {
        trace.note(format!("scenario `{}` ({at})", raw.name.get_ref()));
    }
    let rules = set.rules();
    let mut game = position::build(src, set, rules.as_ref(), raw)?;
    state::set(src, &mut game, raw)?;
    let mut checked = 0;
    let mut failures = Vec::new();
    let events = steps::play(src, set, &mut game, raw, &mut failures)?;
    if failures.is_empty() {
        checked = expect::check(src, set, &game, &events, &raw.expect, &mut failures)?;
    }
    Ok(Outcome {
        name: raw.name.get_ref().clone(),
        at: at.to_string(),
        rules: raw.rules.iter().map(|r| r.get_ref().clone()).collect(),
        checked,
        failures,
    })
}

/// The rules a scenario names for itself (`packs`, `params`), if it does.
fn own_rules(
    home: &Home,
    set: &Ruleset,
    src: &Source,
    raw: &RawScenario,
) -> Result<Option<Ruleset>> {
    if raw.packs.is_none() && raw.params.is_empty() {
        return Ok(None);
    }
    let packs: Vec<String> = match &raw.packs {
        Some(p) => p
            .iter()
            .map(|p| from_file(home, src, p.get_ref()))
            .collect(),
        None => set.pack_names().clone(),
    };
    let at = raw
        .packs
        .as_ref()
        .and_then(|p| p.first())
        .map_or(raw.name.span(), |p| p.span());
    let params: Params = raw.params.clone();
    Ruleset::from_packs_with(home, set.load_options(), &packs, &params)
        .map(Some)
        .map_err(|e| src.error_at(at, format!("the scenario's rules: {e:#}")))
}

/// A pack a scenario names: a pack of the rules folders by its name, else
/// a path from the scenario file's folder when a pack is there (so a file
/// runs alike from any folder), else as written.
fn from_file(home: &Home, src: &Source, pack: &str) -> String {
    let dirs = home.rules_dirs();
    // Packs held in memory (the studio's) name no file on disk.
    let held = dirs
        .iter()
        .any(|d| matches!(d, crate::rules::Dir::Inline(..)));
    let named = held
        || crate::rules::native::native(pack).is_some()
        || dirs.iter().any(|d| d.join(pack).has("pack.toml"));
    let beside = src
        .path
        .parent()
        .filter(|_| !named && std::path::Path::new(pack).is_relative())
        .map(|dir| dir.join(pack))
        .filter(|dir| dir.join("pack.toml").is_file());
    match beside {
        Some(dir) => dir.display().to_string(),
        None => pack.to_string(),
    }
}

/// The scenarios of one target and what running them found.
pub struct Suite {
    /// The packs the scenarios ran under, as named.
    pub packs: Vec<String>,
    /// Each file's scenarios: an outcome each, or the error that stopped
    /// it (a file that does not parse is one error).
    pub results: Vec<Result<Outcome>>,
}

impl Suite {
    pub fn passed(&self) -> usize {
        self.results
            .iter()
            .filter(|r| r.as_ref().is_ok_and(Outcome::passed))
            .count()
    }
}

/// Run the scenarios of `target` — a pack (its `tests/*.toml`, under the
/// pack and the packs it requires), a pack list `a,b` or a variant (its
/// last pack's, under the whole list) — and the scenario files `extra`,
/// under the same rules.
pub fn suite(home: &Home, load: &LoadOptions, target: &str, extra: &[Source]) -> Result<Suite> {
    let set = target_rules(home, load, target)?;
    let last = set.packs().last();
    // A native rule set has no scenarios of its own: those in its folder
    // are The Tower pack's, written for that pack and its parameters.
    let native = last.and_then(|p| p.native);
    let own = match last {
        Some(pack) if native.is_none() => pack.scenario_files()?,
        _ => Vec::new(),
    };
    if own.is_empty() && extra.is_empty() {
        return Err(crate::kernel::diag::bad_input(match native {
            Some(n) => format!(
                "`{target}` has no scenarios of its own: its rules are those of the pack{} {} \
                 written in Rust, with no parameters, and the scenarios are the packs' \
                 (`towerlab test {}` runs them); or give files with `--file`",
                if n.mirrors.len() > 1 { "s" } else { "" },
                n.mirrors.join(", "),
                n.mirrors.last().copied().unwrap_or("tower"),
            ),
            None => format!(
                "`{target}` has no scenarios: a pack keeps them in `tests/*.toml` in its folder \
                 (docs/scenarios.md); or give files with `--file`"
            ),
        }));
    }
    let mut results = Vec::new();
    for source in own.into_iter().chain(extra.iter().cloned()) {
        match ScenarioFile::parse(source) {
            Ok(file) => {
                for i in 0..file.len() {
                    results.push(run(home, &set, &file, i));
                }
            }
            Err(e) => results.push(Err(e)),
        }
    }
    Ok(Suite {
        packs: set.pack_names().clone(),
        results,
    })
}

/// The rules a target names: a pack with its requirements, a pack list, or
/// a variant.
fn target_rules(home: &Home, load: &LoadOptions, target: &str) -> Result<Ruleset> {
    if target.contains(',') {
        let packs: Vec<String> = target.split(',').map(str::to_string).collect();
        return Ruleset::from_packs(home, load, &packs);
    }
    if home.is_variant(target) {
        return Ruleset::from_variant(home, load, target);
    }
    let loaded = crate::rules::problems::load_all(home, load, target);
    match loaded.set {
        Some(set) => Ok(set),
        None => Err(crate::kernel::diag::bad_input(loaded.problems.join("\n"))),
    }
}
