//! Stars that hold their level at every sample size, measured on a true
//! null: The Tower against a renamed copy of itself. The copy's tower tiles
//! have other names, so they are placed in the deck by the added tiles'
//! stream: game i deals the base tiles in the same order under both, the
//! tower tiles elsewhere, so the paired games differ — but the rules, the
//! bots and the law of the deck are the same, so no metric's distribution
//! does. Any star is a false one; Holm's adjustment over the run's
//! differences must keep runs with any star to about 5%.

use towerlab::analysis::compare::{self, Comparison, Plan, RunInfo, Tally};
use towerlab::play::bots::BotKind;
use towerlab::rules::{Home, LoadOptions, Ruleset};

use crate::common::{Scratch, rules_dir};

/// A home holding `tower-copy`: The Tower's pack and tiles under another
/// name.
fn renamed_tower(dir: &Scratch) -> Ruleset {
    let tower = rules_dir().join("tower");
    let read = |f: &str| std::fs::read_to_string(tower.join(f)).expect("a shipped file");
    let manifest = read("pack.toml").replace("name = \"tower\"", "name = \"tower-copy\"");
    let tiles = read("tiles.toml").replace("name = \"tower\"", "name = \"tower-copy\"");
    assert!(tiles.contains("tower-copy") && manifest.contains("tower-copy"));
    dir.write("rules/tower-copy/pack.toml", manifest);
    dir.write("rules/tower-copy/tiles.toml", tiles);
    dir.write("rules/tower-copy/tower.rhai", read("tower.rhai"));
    Ruleset::from_packs(
        &Home::at(dir.path()),
        &LoadOptions::default(),
        &["tower-copy".to_string()],
    )
    .unwrap_or_else(|e| panic!("{e:#}"))
}

/// Runs per sample size, and the sizes (games per variant). At a true rate
/// of 5%, 40 runs star in 2 on average; the test allows twice that.
const RUNS: u64 = 40;
const SIZES: [usize; 5] = [2, 5, 10, 20, 30];

/// The comparison of the first `n` games of each variant of `tally`.
fn first_games(info: &RunInfo, tally: &Tally, n: usize) -> Comparison {
    let part = Tally {
        rows: tally.rows.iter().map(|r| r[..n].to_vec()).collect(),
        ..Tally::default()
    };
    compare::summarise(info, part)
}

#[test]
fn a_true_null_stars_nothing_in_all_but_a_few_runs_at_any_size() {
    let dir = Scratch::new("calibration");
    let home = Home::shipped();
    let sets = [
        Ruleset::from_variant(&home, &LoadOptions::default(), "tower").expect("tower"),
        renamed_tower(&dir),
    ];
    let bots = [BotKind::RANDOM, BotKind::RANDOM];
    let largest = *SIZES.last().unwrap();
    let mut starred = [0u64; SIZES.len()];
    let mut differ = 0;
    for run in 0..RUNS {
        let plan = Plan {
            sets: &sets,
            bots: &bots,
            games: largest as u64,
            seed: 7_000 + run,
            threads: 0,
            log: false,
            fires: false,
        };
        let tally =
            compare::play_range(&plan, 0..plan.games, &|_| {}, &mut |_| Ok(())).expect("the games");
        differ += (0..largest)
            .filter(|&g| tally.rows[0][g] != tally.rows[1][g])
            .count();
        let info = RunInfo::of(&plan);
        for (k, &n) in SIZES.iter().enumerate() {
            let c = first_games(&info, &tally, n);
            let any = c
                .metrics
                .iter()
                .flat_map(|m| &m.values)
                .filter_map(|v| v.diff)
                .any(|d| d.survives);
            starred[k] += u64::from(any);
        }
    }
    // The construction is a null of different games, not of the same ones.
    assert!(
        differ as u64 > RUNS * largest as u64 * 9 / 10,
        "only {differ} paired games differ"
    );
    for (k, &n) in SIZES.iter().enumerate() {
        assert!(
            starred[k] <= RUNS / 10,
            "{} of {RUNS} runs of {n} games per variant star a difference that is not there (by size {SIZES:?}: {starred:?})",
            starred[k]
        );
    }
}
