//! `towerlab check`: load a pack or variant, validate it, and play a few quick
//! games, collecting every problem found rather than stopping at the first.

use anyhow::Result;

use crate::kernel::{FloorKind, Rules, StackView};
use crate::play::seed::game_seed;
use crate::play::sim;
use crate::rules::manifest::Pack;
use crate::rules::script::Hook;
use crate::rules::{Home, Ruleset};

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
}

/// The packs `pack` needs, in order, followed by `pack` itself.
fn with_requirements(home: &Home, pack: Pack, out: &mut Vec<Pack>, depth: usize) -> Result<()> {
    if depth > 16 {
        return Err(crate::kernel::diag::bad_input(format!(
            "pack `{}`: requirements nest too deep (a cycle?)",
            pack.reference
        )));
    }
    for req in &pack.requires {
        if out.iter().any(|p| &p.name == req || &p.reference == req) {
            continue;
        }
        let dep = home.load_pack(req)?;
        with_requirements(home, dep, out, depth + 1)?;
    }
    out.push(pack);
    Ok(())
}

/// Check a pack or a variant.
pub fn run(home: &Home, target: &str, games: u64) -> Result<Report> {
    let mut report = Report::default();
    let set = if home.is_variant(target) {
        Ruleset::from_variant(home, target)
    } else {
        let pack = home.load_pack(target)?;
        let mut list = Vec::new();
        with_requirements(home, pack, &mut list, 0)?;
        let names: Vec<String> = list.iter().map(|p| p.reference.clone()).collect();
        if names.len() > 1 {
            report.notes.push(format!(
                "checking with its requirements: {}",
                names.join(", ")
            ));
        }
        Ruleset::from_packs(home, &names)
    };
    let set = match set {
        Ok(set) => set,
        Err(e) => {
            report.problems.push(format!("{e:#}"));
            return Ok(report);
        }
    };
    report.notes.push(format!(
        "packs: {}; floor kinds: {}; tiles: {} ({} with a foundation)",
        set.pack_names.join(", "),
        set.floors
            .iter()
            .map(|f| f.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        set.tiles.total_tiles(),
        set.tiles.foundation_tiles()
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
        report.warnings.extend(scripts.near_misses());
    }
    let rules = set.rules();
    let kinds = set.floors.len();
    let mut setup_ok = true;
    for players in 2..=6 {
        match rules.floor_supply(players, set.tiles.foundation_tiles()) {
            Ok(supply) => {
                for (k, &n) in supply.iter().enumerate() {
                    if n == 0 && kinds > 0 && players == 2 {
                        report.warnings.push(format!(
                            "setup gives no `{}` floors to a player in a 2-player game",
                            set.floors[k].name
                        ));
                    }
                }
            }
            Err(e) => {
                setup_ok = false;
                let problem = format!("{e:#}");
                if !report.problems.iter().any(|p| p.ends_with(&problem)) {
                    report
                        .problems
                        .push(format!("setup for {players} players: {problem}"));
                }
            }
        }
    }
    for k in 0..kinds {
        if let Err(e) = probe_kind(rules.as_ref(), k as FloorKind) {
            report
                .problems
                .push(format!("floor kind `{}`: {e:#}", set.floors[k].name));
        }
    }
    let mut played = 0;
    if setup_ok && report.problems.is_empty() {
        for i in 0..games {
            let players = 2 + (i % 5) as usize;
            let seed = game_seed(0xC4EC, i);
            match sim::play_random(&set.tiles, rules.as_ref(), players, seed) {
                Ok(_) => played += 1,
                Err(e) => {
                    let msg = format!("game {i} ({players} players, seed {seed}): {e:#}");
                    report.problems.push(msg);
                    break;
                }
            }
        }
    }
    report.summary = format!(
        "`{}` loads; setup valid for 2–6 players; {played} random games played",
        set.name
    );
    Ok(report)
}

/// Where the variant and each pack were found: shipped, or a path (a home
/// folder's pack or variant wins over a shipped one of the same name).
fn origins(set: &Ruleset) -> Vec<String> {
    let variant = set
        .origin
        .iter()
        .map(|o| format!("variant `{}`: {o}", set.name));
    let packs = set
        .packs
        .iter()
        .map(|p| format!("pack `{}`: {}", p.reference, p.origin));
    variant.chain(packs).collect()
}

/// Ask the tower hooks about a one-floor tower of `kind`, as the game would.
fn probe_kind(rules: &dyn Rules, kind: FloorKind) -> Result<()> {
    let bare = StackView {
        floors: &[],
        topped: false,
    };
    rules.may_place_floor(&bare, kind)?;
    let floors = [kind];
    let one = StackView {
        floors: &floors,
        topped: false,
    };
    rules.may_top(&one)?;
    let mut cells = Vec::new();
    rules.capture_range(&one, &mut cells)?;
    Ok(())
}
