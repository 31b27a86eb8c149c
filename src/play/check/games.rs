//! The quick games `check` plays: random bots, seats as the setup allows,
//! each distinct error told once.

use crate::kernel::Rules;
use crate::play::seed::game_seed;
use crate::play::sim;
use crate::rules::Ruleset;

use super::report::Report;

/// Play `games` quick games under `rules`, of 2 to 6 players as far as
/// `seats` allows, recording each distinct problem (a game's error, once
/// however many games hit it); how many ended, and those errors.
pub(super) fn play_games(
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
pub(super) struct Played {
    pub(super) played: u64,
    pub(super) failures: Vec<String>,
}
