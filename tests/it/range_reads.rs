//! Reads of a tower's range the kernel answers in one step (T4):
//! `tower.tile_in_range` and `tower.in_range(x, y)` play the same games as
//! the loop a rule would otherwise write over `capture_cells(tower)`, and
//! run the rule's script fewer times.

use crate::common::{TowerPack, json, run, stderr};

/// A guard rule: a tower may be topped only when the tile just placed lies
/// in its range — written with the turn's tile against `capture_cells`.
const BY_CELLS: &str = "fn may_top(tower) {\n\
    let t = game().tile;\n\
    if t == () { return previous(tower); }\n\
    capture_cells(tower).contains([t.x - tower.x, t.y - tower.y]) && previous(tower)\n\
}\n";

/// The same rule read in one step.
const BY_READ: &str = "fn may_top(tower) { tower.tile_in_range && previous(tower) }\n";

/// The same rule with the cell given.
const BY_CELL: &str = "fn may_top(tower) {\n\
    let t = game().tile;\n\
    if t == () { return previous(tower); }\n\
    tower.in_range(t.x, t.y) && previous(tower)\n\
}\n";

/// Every game's row (its seed, winner and every metric, scores first) of
/// twelve games, and the pack's `may_top` runs a random game (`check
/// --cost`).
fn played(script: &str) -> (String, f64) {
    let pack = TowerPack::new("guard", script);
    let packs = pack.packs();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    let csv_arg = csv.to_str().unwrap();
    let out = run(&[
        "simulate",
        "--packs",
        &packs,
        "--bots",
        "greedy,random",
        "--games",
        "12",
        "--seed",
        "7",
        "--threads",
        "1",
        "--per-game",
        csv_arg,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // Each row less its first column, the variant (the pack's folder).
    let per_game = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .map(|line| line.rsplit_once("\",").map_or(line, |(_, rest)| rest))
        .collect::<Vec<_>>()
        .join("\n");
    let cost = json(&[
        "check",
        &packs,
        "--games",
        "0",
        "--cost",
        "--cost-random",
        "6",
        "--cost-greedy",
        "0",
        "--format",
        "json",
    ]);
    let runs = cost["cost"]["bots"][0]["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["pack"].as_str().unwrap().ends_with("guard") && h["hook"] == "may_top")
        .map(|h| h["runs_a_game"].as_f64().unwrap())
        .unwrap_or_else(|| panic!("no may_top row in {cost}"));
    (per_game, runs)
}

#[test]
fn t4_a_guard_rule_read_in_one_step_plays_the_same_games_and_runs_less() {
    let (cells, cells_runs) = played(BY_CELLS);
    let (read, read_runs) = played(BY_READ);
    let (cell, _) = played(BY_CELL);
    assert_eq!(read, cells, "tower.tile_in_range plays as the loop");
    assert_eq!(cell, cells, "tower.in_range(x, y) plays as the loop");
    assert!(
        read_runs * 4.0 < cells_runs,
        "kept by whether the tile is in range: {read_runs} runs a game against {cells_runs}"
    );
}
