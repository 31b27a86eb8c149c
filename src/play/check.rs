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
    for (k, req) in pack.requires.iter().enumerate() {
        if out.iter().any(|p| &p.name == req || &p.reference == req) {
            continue;
        }
        // A requirement that does not load is reported at its line.
        let dep = home
            .load_pack(req)
            .map_err(|e| match pack.requires_spans.get(k) {
                Some(span) => pack
                    .manifest
                    .error_at(span.clone(), format!("`requires`: {e:#}")),
                None => e,
            })?;
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
    let setup_ok = check_setup(&set, rules.as_ref(), &mut report);
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

/// A setup that fails, with the first number of players it fails for.
struct SetupFailure {
    players: usize,
    error: anyhow::Error,
}

/// Ask the setup for 2 to 6 players; report each distinct failure once (a
/// hook that fails usually fails alike for every number of players), with
/// the first number of players it fails for. False when any failed.
fn check_setup(set: &Ruleset, rules: &dyn Rules, report: &mut Report) -> bool {
    let kinds = set.floors.len();
    let mut failures: Vec<SetupFailure> = Vec::new();
    for players in 2..=6 {
        match rules.floor_supply(players, set.tiles.foundation_tiles()) {
            Ok(supply) if players == 2 && kinds > 0 => {
                for (k, _) in supply.iter().enumerate().filter(|(_, n)| **n == 0) {
                    report.warnings.push(format!(
                        "setup gives no `{}` floors to a player in a 2-player game",
                        set.floors[k].name
                    ));
                }
            }
            Ok(_) => {}
            Err(error) => {
                let seen = failures.iter().any(|f| same_error(&f.error, &error));
                if !seen {
                    failures.push(SetupFailure { players, error });
                }
            }
        }
    }
    for f in &failures {
        report
            .problems
            .push(format!("setup for {} players: {:#}", f.players, f.error));
    }
    failures.is_empty()
}

/// Two errors are the same failure when their chains read alike.
fn same_error(a: &anyhow::Error, b: &anyhow::Error) -> bool {
    a.chain()
        .map(|e| e.to_string())
        .eq(b.chain().map(|e| e.to_string()))
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
