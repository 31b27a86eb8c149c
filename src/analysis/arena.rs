//! Arenas: bots against each other on paired deals with the seats rotated.
//!
//! Each deal (a game seed, so a deck order) is played once per rotation of
//! the lineup: with `P` seats, rotation `r` puts lineup entry `(s + r) mod P`
//! in seat `s`, so every bot sits in every seat equally often on the same
//! deals, and neither the deal nor the seat favours a bot. The lineup is the
//! bots as given, the last one filling the seats left over (`mcts greedy`
//! with 4 players: one `mcts` seat against three `greedy`).
//!
//! Per bot: its share of the wins (a game's win split evenly among tied
//! winners; a bot with several seats adds them up) with a 95% Wilson
//! interval, its mean score per seat, and its mean margin — its best seat's
//! score minus the best score of the other bots' seats. Per seat: the share
//! of the wins taken from it, whoever sat there (the seat effect).
//!
//! Game `i` plays deal `i / P` in rotation `i mod P`, with the deal's seed
//! derived from the master seed; results are gathered in index order, so any
//! thread count gives the same numbers. Playing (a range of game indices,
//! each game's seat scores) and summing up are apart, so that the shards of
//! an arena (see [`crate::analysis::partial`]) merge into the numbers of one
//! run.

use std::ops::Range;

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::Serialize;

use crate::analysis::stats::{self, Z95, win_shares};
use crate::kernel::diag::bad_input;
use crate::play::bots::{BotKind, values_of};
use crate::play::seed::game_seed;
use crate::play::sim;
use crate::rules::Ruleset;

/// An arena to play.
pub struct Arena<'a> {
    pub set: &'a Ruleset,
    /// The bots, at least two, in lineup order.
    pub bots: &'a [BotKind],
    /// Seats per game: at least one per bot.
    pub players: usize,
    /// Games asked for; rounded up to whole deals (a game per rotation).
    pub games: u64,
    pub master_seed: u64,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
}

/// One bot's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotResult {
    pub bot: String,
    /// The values it weighs positions with (`BotKind::values_name`).
    pub values: String,
    /// Seats it holds in every game.
    pub seats: usize,
    pub win_share: f64,
    /// 95% Wilson interval of the win share.
    pub ci: [f64; 2],
    /// Mean score per seat it holds.
    pub mean_score: f64,
    /// Mean of its best seat's score minus the best other bot's.
    pub mean_margin: f64,
    /// 95% interval of the mean margin.
    pub margin_ci: [f64; 2],
}

/// One seat's results, whoever sat there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatResult {
    /// 1-based.
    pub seat: usize,
    pub win_share: f64,
    pub ci: [f64; 2],
    pub mean_score: f64,
}

/// The outcome of an arena.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaResult {
    pub variant: String,
    pub packs: Vec<String>,
    pub bots: Vec<String>,
    /// The values the bots weigh positions with (`Ruleset::bot_values`).
    pub bot_values: String,
    pub players: usize,
    /// Games played: deals × rotations.
    pub games: u64,
    pub deals: u64,
    pub seed: u64,
    pub results: Vec<BotResult>,
    pub seats: Vec<SeatResult>,
}

/// What an arena's numbers are of, beside its games: the rules, the bots
/// and the seats.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaInfo {
    pub variant: String,
    pub packs: Vec<String>,
    /// The bots' labels, in lineup order.
    pub bots: Vec<String>,
    /// The values the bots weigh positions with.
    pub bot_values: String,
    pub players: usize,
    pub seed: u64,
}

impl Arena<'_> {
    /// The games the arena plays: whole deals, at least one.
    pub fn total_games(&self) -> u64 {
        let p = self.players as u64;
        self.games.div_ceil(p).max(1) * p
    }

    /// What the arena's numbers are of.
    pub fn info(&self) -> ArenaInfo {
        ArenaInfo {
            variant: self.set.name().clone(),
            packs: self.set.pack_names().clone(),
            bots: self.bots.iter().map(|b| b.label()).collect(),
            bot_values: self.set.bot_values(),
            players: self.players,
            seed: self.master_seed,
        }
    }
}

/// The lineup entry of each seat before rotation: the bots in order, the last
/// filling the remaining seats.
pub fn lineup(bots: usize, players: usize) -> Result<Vec<usize>> {
    if bots < 2 {
        return Err(bad_input(format!(
            "an arena needs at least two bots, not {bots}: e.g. `towerlab arena mcts greedy`"
        )));
    }
    if players < bots {
        return Err(bad_input(format!(
            "{bots} bots need at least {bots} players, not {players}"
        )));
    }
    Ok((0..players).map(|s| s.min(bots - 1)).collect())
}

/// The lineup entry in each seat of game `index`: deal `index / P`, rotated
/// by `index mod P`.
pub fn seating(lineup: &[usize], index: u64) -> Vec<usize> {
    let p = lineup.len();
    let r = (index % p as u64) as usize;
    (0..p).map(|s| lineup[(s + r) % p]).collect()
}

/// Play the arena. `progress` is called after each game with the number
/// finished so far.
pub fn run(arena: &Arena, progress: &(dyn Fn(u64) + Sync)) -> Result<ArenaResult> {
    let scores = play_range(arena, 0..arena.total_games(), progress)?;
    summarise(&arena.info(), &scores)
}

/// Play the arena's games `range` (indices into its whole run) and give each
/// game's seat scores, in index order.
pub fn play_range(
    arena: &Arena,
    range: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Vec<u32>>> {
    let lineup = lineup(arena.bots.len(), arena.players)?;
    let workers = sim::Workers::new(arena.set, arena.threads)?;
    let done = std::sync::atomic::AtomicU64::new(0);
    workers
        .install(|| {
            range
                .into_par_iter()
                .map(|index| {
                    let kinds: Vec<BotKind> = seating(&lineup, index)
                        .into_iter()
                        .map(|e| arena.bots[e])
                        .collect();
                    let seed = game_seed(arena.master_seed, index / lineup.len() as u64);
                    let scores = workers
                        .with_rules(|rules| {
                            sim::play(arena.set, rules, &kinds, seed, false).map(|g| g.scores())
                        })
                        .with_context(|| format!("arena game {index} (seed {seed})"))?;
                    progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                    Ok(scores)
                })
                .collect::<Vec<Result<Vec<u32>>>>()
        })
        // In index order: the error reported is the lowest failed game's,
        // whatever the number of threads.
        .into_iter()
        .collect()
}

/// The arena's numbers from the seat scores of its games `0..n`, in index
/// order (whole deals: `n` a multiple of the seats).
pub fn summarise(info: &ArenaInfo, played: &[Vec<u32>]) -> Result<ArenaResult> {
    let k = info.bots.len();
    let lineup = lineup(k, info.players)?;
    let n = played.len();
    let mut shares = vec![0f64; k];
    let mut scores = vec![0f64; k];
    let mut margins = vec![Vec::with_capacity(n); k];
    let mut seat_shares = vec![0f64; info.players];
    let mut seat_scores = vec![0f64; info.players];
    for (index, g) in played.iter().enumerate() {
        let ws = win_shares(g);
        let mut best = vec![0u32; k];
        for (s, e) in seating(&lineup, index as u64).into_iter().enumerate() {
            shares[e] += ws[s];
            scores[e] += g[s] as f64;
            best[e] = best[e].max(g[s]);
            seat_shares[s] += ws[s];
            seat_scores[s] += g[s] as f64;
        }
        for (e, m) in margins.iter_mut().enumerate() {
            let others = (0..k).filter(|&o| o != e).map(|o| best[o]).max();
            m.push(best[e] as f64 - others.unwrap_or(0) as f64);
        }
    }
    let results = (0..k)
        .map(|e| {
            let seats = lineup.iter().filter(|&&x| x == e).count();
            let share = shares[e] / n.max(1) as f64;
            let margin = stats::estimate(&margins[e]);
            BotResult {
                bot: info.bots[e].clone(),
                values: values_of(&info.bots[e..=e], &info.bot_values).remove(0),
                seats,
                win_share: share,
                ci: wilson(share, n),
                mean_score: scores[e] / (n * seats).max(1) as f64,
                mean_margin: margin.mean,
                margin_ci: [margin.low, margin.high],
            }
        })
        .collect();
    let seats = (0..info.players)
        .map(|s| {
            let share = seat_shares[s] / n.max(1) as f64;
            SeatResult {
                seat: s + 1,
                win_share: share,
                ci: wilson(share, n),
                mean_score: seat_scores[s] / n.max(1) as f64,
            }
        })
        .collect();
    Ok(ArenaResult {
        variant: info.variant.clone(),
        packs: info.packs.clone(),
        bots: info.bots.clone(),
        bot_values: info.bot_values.clone(),
        players: info.players,
        games: n as u64,
        deals: n as u64 / info.players as u64,
        seed: info.seed,
        results,
        seats,
    })
}

/// The 95% Wilson score interval of a share `p` of `n` trials.
pub fn wilson(p: f64, n: usize) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let n = n as f64;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At a share of 0 or 1 that bound is the share itself, exactly (the
    // arithmetic would leave it a rounding error inside).
    let low = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    [low, high]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_sits_in_every_seat_equally_often() {
        let lineup = lineup(2, 4).unwrap();
        assert_eq!(lineup, vec![0, 1, 1, 1]);
        let mut count = [[0; 2]; 4];
        for i in 0..8 {
            for (s, e) in seating(&lineup, i).into_iter().enumerate() {
                count[s][e] += 1;
            }
        }
        assert!(count.iter().all(|c| *c == [2, 6]), "{count:?}");
    }

    #[test]
    fn wilson_matches_a_known_interval() {
        // 0.7 of 100: [0.604, 0.781].
        let [lo, hi] = wilson(0.7, 100);
        assert!((lo - 0.6041).abs() < 1e-3 && (hi - 0.7810).abs() < 1e-3);
        assert_eq!(wilson(1.0, 10)[1], 1.0);
        assert!(wilson(0.0, 10)[0] == 0.0);
    }

    #[test]
    fn one_bot_or_too_few_seats_is_bad_input() {
        assert!(lineup(1, 2).is_err());
        assert!(lineup(3, 2).is_err());
    }
}
