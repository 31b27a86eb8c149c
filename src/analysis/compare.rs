//! A comparison of variants: every variant plays the same seeds with the same
//! bots, and the result is one value — the run's parameters, each metric's
//! mean with its 95% interval per variant, and each variant's paired
//! difference from the first (the baseline). A simulation is a comparison of
//! one variant.
//!
//! The value serializes as `compare --format json` prints it; the CLI's
//! CSV, table and simulate outputs and the HTML report are formatters of it.

use std::time::Instant;

use anyhow::{Result, bail};
use serde::Serialize;

use crate::analysis::stats::{self, Columns, Estimate};
use crate::play::bots::BotKind;
use crate::play::sim::{self, Batch, GameResult};
use crate::rules::Ruleset;

/// What to play: every ruleset, the same games on the same seeds.
pub struct Plan<'a> {
    /// The variants, the first being the baseline.
    pub sets: &'a [Ruleset],
    /// The bot of each seat (so also the number of players), resolved once
    /// for the whole run.
    pub bots: &'a [BotKind],
    /// Games per variant, at least one.
    pub games: u64,
    /// The master seed: game i of every variant plays the seed of (seed, i).
    pub seed: u64,
    /// Worker threads; 0 means one per core. Results do not depend on it.
    pub threads: usize,
    /// Keep each game's log in the result handed to the caller.
    pub log: bool,
}

/// A comparison's outcome, in the order `compare --format json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The variants' names, the first being the baseline.
    pub variants: Vec<String>,
    /// Each variant's packs, in order.
    pub packs: Vec<Vec<String>>,
    /// Games per variant.
    pub games: u64,
    pub players: usize,
    /// The bot of each seat.
    pub bots: Vec<String>,
    /// The master seed.
    pub seed: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Wall-clock time of all games.
    pub seconds: f64,
    pub games_per_sec: f64,
    /// Every metric of [`stats::metric_names`], in that order.
    pub metrics: Vec<Metric>,
    /// The per-floor-kind metrics ([`by_kind`]), when asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_kind: Vec<Metric>,
    /// `per_game[variant][game]`: the per-game metrics of each game
    /// ([`stats::per_game`]), for distributions.
    #[serde(skip)]
    pub per_game: Vec<Vec<Vec<f64>>>,
    /// Each variant's game 0, to replay it.
    #[serde(skip)]
    pub first_games: Vec<GameResult>,
}

/// One metric across the variants.
#[derive(Clone, Debug, Serialize)]
pub struct Metric {
    pub name: String,
    /// One per variant, in the comparison's order.
    pub values: Vec<VariantValue>,
}

/// A metric's mean in one variant, and its difference from the baseline.
#[derive(Clone, Debug, Serialize)]
pub struct VariantValue {
    pub variant: String,
    pub mean: f64,
    /// The 95% confidence interval.
    pub ci: [f64; 2],
    /// Paired difference against the first variant (absent for it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Difference>,
}

/// A paired difference (variant − baseline, game by game on the same seeds).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Difference {
    pub mean: f64,
    pub ci: [f64; 2],
    /// Standard deviation of the per-game differences (0 for bootstrapped
    /// metrics).
    pub sd: f64,
    /// The interval excludes 0.
    pub significant: bool,
}

impl VariantValue {
    /// The mean and its interval as an estimate (without the sd).
    pub fn estimate(&self) -> Estimate {
        Estimate {
            mean: self.mean,
            low: self.ci[0],
            high: self.ci[1],
            sd: 0.0,
        }
    }
}

impl Difference {
    fn of(e: Estimate) -> Difference {
        Difference {
            mean: e.mean,
            ci: [e.low, e.high],
            sd: e.sd,
            significant: e.excludes_zero(),
        }
    }
}

impl Comparison {
    /// The metric called `name`.
    pub fn metric(&self, name: &str) -> Option<&Metric> {
        self.metrics.iter().find(|m| m.name == name)
    }

    /// The position of the metric called `name`, in [`Comparison::metrics`]
    /// and in every per-game row.
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m.name == name)
    }
}

/// The games of one variant, as played.
struct Played {
    results: Vec<GameResult>,
    seconds: f64,
}

/// Play every variant of `plan` on the same seeds and compare them.
/// `progress` is called after each game; `each` receives every result in
/// index order, variant by variant (with its log when the plan asks for it).
pub fn run(
    plan: &Plan,
    progress: &(dyn Fn(u64) + Sync),
    mut each: impl FnMut(&GameResult) -> Result<()>,
) -> Result<Comparison> {
    if plan.sets.is_empty() || plan.games == 0 || plan.bots.is_empty() {
        bail!("a comparison needs a variant, a player and a game at least");
    }
    let played = plan
        .sets
        .iter()
        .map(|set| play(plan, set, progress, &mut each))
        .collect::<Result<Vec<_>>>()?;
    Ok(summarise(plan, played))
}

fn play(
    plan: &Plan,
    set: &Ruleset,
    progress: &(dyn Fn(u64) + Sync),
    each: &mut impl FnMut(&GameResult) -> Result<()>,
) -> Result<Played> {
    let batch = Batch {
        set,
        bots: plan.bots,
        games: plan.games,
        master_seed: plan.seed,
        threads: plan.threads,
        log: plan.log,
    };
    let start = Instant::now();
    let results = sim::simulate(&batch, progress, each)?;
    Ok(Played {
        results,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Means, intervals and paired differences of the games played.
fn summarise(plan: &Plan, played: Vec<Played>) -> Comparison {
    let names: Vec<String> = plan.sets.iter().map(|s| s.name.clone()).collect();
    let columns: Vec<Columns> = played.iter().map(|p| Columns::of(&p.results)).collect();
    let summaries: Vec<Vec<Estimate>> = columns.iter().map(Columns::summary).collect();
    let diffs: Vec<Vec<Estimate>> = columns
        .iter()
        .map(|c| columns[0].paired_difference(c))
        .collect();
    let metrics = stats::metric_names(plan.bots.len())
        .into_iter()
        .enumerate()
        .map(|(m, name)| Metric {
            name,
            values: (0..names.len())
                .map(|v| VariantValue {
                    variant: names[v].clone(),
                    mean: summaries[v][m].mean,
                    ci: [summaries[v][m].low, summaries[v][m].high],
                    diff: (v > 0).then(|| Difference::of(diffs[v][m])),
                })
                .collect(),
        })
        .collect();
    let seconds: f64 = played.iter().map(|p| p.seconds).sum();
    Comparison {
        packs: plan.sets.iter().map(|s| s.pack_names.clone()).collect(),
        variants: names,
        games: plan.games,
        players: plan.bots.len(),
        bots: plan.bots.iter().map(|b| b.name().to_string()).collect(),
        seed: plan.seed,
        threads: threads_used(plan.threads),
        seconds,
        games_per_sec: (plan.games * plan.sets.len() as u64) as f64 / seconds.max(1e-9),
        metrics,
        by_kind: Vec::new(),
        per_game: played
            .iter()
            .map(|p| p.results.iter().map(stats::per_game).collect())
            .collect(),
        first_games: played.into_iter().map(|p| p.results[0].clone()).collect(),
    }
}

/// The per-floor-kind metrics ([`stats::kind_metric_names`]) of variants
/// `names` with floor kinds `kinds`, from `rows[variant][game]` of
/// [`stats::per_kind`]. Every kind of any variant is listed, first seen
/// first; a variant without a kind counts 0 of it. Differences are paired
/// by game against the first variant.
pub fn by_kind(names: &[String], kinds: &[Vec<String>], rows: &[Vec<Vec<f64>>]) -> Vec<Metric> {
    let mut all: Vec<String> = Vec::new();
    for k in kinds.iter().flatten() {
        if !all.contains(k) {
            all.push(k.clone());
        }
    }
    let column = |v: usize, name: &str| -> Vec<f64> {
        let at = stats::kind_metric_names(&kinds[v])
            .iter()
            .position(|n| n == name);
        rows[v].iter().map(|r| at.map_or(0.0, |i| r[i])).collect()
    };
    stats::kind_metric_names(&all)
        .into_iter()
        .map(|name| {
            let base = column(0, &name);
            let values = (0..names.len())
                .map(|v| {
                    let own = column(v, &name);
                    let e = stats::estimate(&own);
                    let paired: Vec<f64> = own.iter().zip(&base).map(|(y, x)| y - x).collect();
                    VariantValue {
                        variant: names[v].clone(),
                        mean: e.mean,
                        ci: [e.low, e.high],
                        diff: (v > 0).then(|| Difference::of(stats::estimate(&paired))),
                    }
                })
                .collect();
            Metric { name, values }
        })
        .collect()
}

/// The worker threads a run of `threads` (0: one per core) uses.
fn threads_used(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}
