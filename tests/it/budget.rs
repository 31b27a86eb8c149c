//! The per-game hook budget (`--hook-budget`): a slow but legal pack fails
//! the game with an error naming the pack, the hook, the game, its seed and
//! the flag, exit 2. Cached answers are charged at what they cost, so the
//! same games fail on 1 and 2 threads (a thread's cache warms up over the
//! games it played before), with random and greedy bots, and under `play`
//! and `replay` of the game alone.

use crate::common::{TowerPack, run, stderr, succeeds};

/// A pack whose `reach` is slow but legal: working out a tower's reach costs
/// more the higher it is, and is cached per stack.
fn slow_pack() -> TowerPack {
    TowerPack::new(
        "slow",
        "fn reach(tower) {\n    let n = 0;\n    \
         for i in 0..tower.height * tower.height * 500 { n += 1; }\n    \
         previous(tower)\n}\n",
    )
}

/// `simulate` of `games` games from master seed `seed` under `budget`: the
/// error, if a game failed.
fn simulate(packs: &str, bots: &str, seed: u64, budget: u64, threads: &str) -> Option<String> {
    let (seed, budget) = (seed.to_string(), budget.to_string());
    let out = run(&[
        "simulate",
        "--packs",
        packs,
        "--bots",
        bots,
        "--games",
        "24",
        "--seed",
        &seed,
        "--threads",
        threads,
        "--hook-budget",
        &budget,
        "--format",
        "json",
    ]);
    if out.status.success() {
        return None;
    }
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    Some(text)
}

/// The failing game's index and seed, from `game I (seed S): …`.
fn failed_game(error: &str) -> (u64, u64) {
    let rest = error
        .split("game ")
        .nth(1)
        .unwrap_or_else(|| panic!("no game in: {error}"));
    let index = rest.split(' ').next().and_then(|i| i.parse().ok());
    let seed = rest
        .split("(seed ")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .and_then(|s| s.parse().ok());
    match (index, seed) {
        (Some(i), Some(s)) => (i, s),
        _ => panic!("no game index and seed in: {error}"),
    }
}

/// A master seed and a budget under which, on one thread, a game after the
/// first fails (so earlier games warmed the thread's cache): lowering the
/// budget from well above the games' cost until one fails.
fn budget_failing_a_later_game(packs: &str, bots: &str, from: u64) -> (u64, u64, String) {
    for seed in 1..6 {
        let mut budget = from;
        while budget > 1_000 {
            if let Some(error) = simulate(packs, bots, seed, budget, "1") {
                if failed_game(&error).0 > 0 {
                    return (seed, budget, error);
                }
                break;
            }
            budget = budget * 4 / 5;
        }
    }
    panic!("no budget fails a game after the first with {bots} bots");
}

/// The message after the `game I (seed S): ` that `simulate` puts first.
fn message(error: &str) -> &str {
    let at = error.find("pack `").expect("the message names the pack");
    error[at..].trim_end()
}

#[test]
fn a_game_over_the_hook_budget_fails_naming_pack_hook_game_seed_and_flag() {
    let pack = slow_pack();
    let (_, budget, error) = budget_failing_a_later_game(&pack.packs(), "random", 2_000_000);
    let (_, seed) = failed_game(&error);
    for says in [
        "pack `",
        "hook `",
        ".rhai:",
        &format!("(seed {seed})"),
        &format!("more than {budget} operations"),
        "--hook-budget OPS",
    ] {
        assert!(error.contains(says), "should say `{says}`: {error}");
    }
    // The limit's own words name the seed, not only simulate's prefix.
    assert!(
        message(&error).contains(&format!("(seed {seed})")),
        "{error}"
    );
}

#[test]
fn the_same_games_fail_on_one_and_two_threads_with_random_and_greedy_bots() {
    let pack = slow_pack();
    let packs = pack.packs();
    for (bots, from) in [("random", 2_000_000), ("greedy", 80_000_000)] {
        let (seed, budget, one) = budget_failing_a_later_game(&packs, bots, from);
        let two = simulate(&packs, bots, seed, budget, "2").expect("fails on 2 threads too");
        assert_eq!(one, two, "{bots} bots: 1 and 2 threads disagree");
        // The failing game alone, its thread's cache cold, fails the same.
        let game_seed = failed_game(&one).1.to_string();
        let budget = budget.to_string();
        let alone = run(&[
            "play",
            "--packs",
            &packs,
            "--bots",
            bots,
            "--seed",
            &game_seed,
            "--hook-budget",
            &budget,
        ]);
        assert_eq!(alone.status.code(), Some(2), "{}", stderr(&alone));
        assert_eq!(message(&stderr(&alone)), message(&one), "{bots} bots");
    }
}

#[test]
fn replay_of_a_game_over_the_budget_fails_it_as_play_does() {
    let pack = slow_pack();
    let packs = pack.packs();
    let (_, budget, error) = budget_failing_a_later_game(&packs, "random", 2_000_000);
    let game_seed = failed_game(&error).1.to_string();
    let log = pack.dir.file("game.jsonl");
    succeeds(&[
        "play", "--packs", &packs, "--seed", &game_seed, "--log", &log,
    ]);
    succeeds(&["replay", &log]);
    let budget = budget.to_string();
    let out = run(&["replay", &log, "--hook-budget", &budget]);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    // The same pack, hook, place and limit; a replayed pack's file is named
    // as the log carries it.
    let without_file = |m: &str| {
        let (who, rest) = m.split_once("`: ").expect("pack and hook, then the file");
        let (_, at) = rest.split_once(".rhai:").expect("the script's place");
        format!("{who} {at}")
    };
    assert_eq!(without_file(message(&text)), without_file(message(&error)));
}

#[test]
fn the_shipped_variants_play_well_within_the_default_budget() {
    // The heaviest shipped variant, greedy bots (which ask about the stacks
    // opponents could make), 4 players: far below the default
    // (docs/packs.md gives the measured maximum).
    let out = run(&[
        "simulate",
        "--variant",
        "black-tower-no-gaps",
        "--bots",
        "greedy",
        "--players",
        "4",
        "--games",
        "20",
        "--hook-budget",
        &(towerlab::rules::script::limits::GAME_OPERATIONS / 5).to_string(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn the_hook_budget_flag_is_refused_below_its_minimum() {
    let out = run(&["play", "--hook-budget", "10"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("at least 1000"), "{}", stderr(&out));
}
