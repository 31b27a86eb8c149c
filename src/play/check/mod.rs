//! `towerlab check`: load a pack or variant, validate it, and play a few quick
//! games, collecting every problem found rather than stopping at the first
//! (every pack's load problems: `rules::problems`).
//! A function named like a misspelt hook is a problem. The games watch the
//! hooks' answers and flag dead rules: a floor kind never placeable, a hook
//! that never allowed anything, a hook whose answer never varied.

mod games;
mod params;
mod report;
mod setup;
mod watch;

use anyhow::Result;

use crate::kernel::{FloorKind, MAX_PLAYERS, MIN_PLAYERS};
use crate::play::cost::CostOptions;
use crate::rules::problems::load_all;
use crate::rules::script::Hook;
use crate::rules::{Home, LoadOptions, Ruleset};
use games::play_games;
use params::check_param_ends;
pub use report::Report;
use setup::{check_setup, probe_kind};
use watch::Watch;

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
                    watch.findings(&set, played, &mut report);
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
