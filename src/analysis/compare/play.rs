//! Playing a comparison: every variant's games on the same seeds, their
//! [`Tally`] (as statistics see them, mergeable across shards) and the
//! [`Comparison`] summarised from it.

use std::ops::Range;
use std::time::Instant;

use anyhow::{Result, bail};

use super::value::{
    Comparison, Difference, Metric, Plan, RunInfo, VariantFires, VariantValue, adjust,
    baseline_first,
};
use crate::analysis::kinds::KindCounts;
use crate::analysis::practical::MinEffect;
use crate::analysis::stats::{self, Estimate, GameRow, columns::Columns};
use crate::play::sim::{self, Batch, GameResult};
use crate::rules::script::Fires;

/// The games of a run, or of a shard of it, as statistics see them.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// `rows[variant][game]`, games in index order.
    pub rows: Vec<Vec<GameRow>>,
    /// Each variant's per-floor-kind counts, games in index order.
    pub kinds: Vec<KindCounts>,
    /// Each variant's first game, when it was played here with its result.
    pub first_games: Vec<GameResult>,
    /// Wall-clock seconds spent playing.
    pub seconds: f64,
    /// Worker threads used.
    pub threads: usize,
    /// Each variant's fires, when counted.
    pub fires: Vec<Fires>,
}

impl Tally {
    /// Add the games of `more`, which follow this tally's.
    pub fn extend(&mut self, more: Tally) {
        if self.rows.is_empty() {
            self.rows = vec![Vec::new(); more.rows.len()];
        }
        for (rows, extra) in self.rows.iter_mut().zip(more.rows) {
            rows.extend(extra);
        }
        if self.kinds.is_empty() {
            self.kinds = vec![KindCounts::default(); more.kinds.len()];
        }
        for (kinds, extra) in self.kinds.iter_mut().zip(more.kinds) {
            kinds.extend(extra);
        }
        if self.first_games.is_empty() {
            self.first_games = more.first_games;
        }
        if self.fires.is_empty() {
            self.fires = vec![Fires::default(); more.fires.len()];
        }
        for (fires, extra) in self.fires.iter_mut().zip(more.fires) {
            fires.add(extra);
        }
        self.seconds += more.seconds;
        self.threads = self.threads.max(more.threads);
    }

    /// The same games with variant `b` as the baseline.
    pub fn with_baseline(mut self, b: usize) -> Tally {
        baseline_first(&mut self.rows, b);
        baseline_first(&mut self.kinds, b);
        baseline_first(&mut self.first_games, b);
        baseline_first(&mut self.fires, b);
        self
    }

    /// Games per variant.
    pub fn games(&self) -> u64 {
        self.rows.first().map_or(0, |r| r.len() as u64)
    }
}

/// Play every variant of `plan` on the same seeds and compare them.
/// `progress` is called after each game; `each` receives every result in
/// index order, variant by variant (with its log when the plan asks for it).
pub fn run(
    plan: &Plan,
    progress: &(dyn Fn(u64) + Sync),
    mut each: impl FnMut(&GameResult) -> Result<()>,
) -> Result<Comparison> {
    check(plan)?;
    let tally = play_range(plan, 0..plan.games, progress, &mut each)?;
    Ok(summarise(&RunInfo::of(plan), tally))
}

/// Refuse a plan with nothing to play.
pub fn check(plan: &Plan) -> Result<()> {
    if plan.sets.is_empty() || plan.games == 0 || plan.bots.is_empty() {
        bail!("a comparison needs a variant, a player and a game at least");
    }
    Ok(())
}

/// Play games `range` (by index) of every variant of `plan`.
pub fn play_range(
    plan: &Plan,
    range: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
    each: &mut impl FnMut(&GameResult) -> Result<()>,
) -> Result<Tally> {
    let mut tally = Tally {
        threads: threads_used(plan.threads),
        ..Tally::default()
    };
    for set in plan.sets {
        let batch = Batch {
            set,
            bots: plan.bots,
            games: range.end,
            master_seed: plan.seed,
            threads: plan.threads,
            log: plan.log,
        };
        let start = Instant::now();
        let (results, fires) =
            sim::simulate_counted(&batch, range.start, plan.fires, progress, &mut *each)?;
        if plan.fires {
            // Native rules have no packs: their games are counted alone.
            tally.fires.push(fires.unwrap_or(Fires {
                games: results.len() as u64,
                hooks: Vec::new(),
            }));
        }
        tally.seconds += start.elapsed().as_secs_f64();
        tally.rows.push(results.iter().map(GameRow::of).collect());
        let mut kinds = KindCounts::new(set.floors().iter().map(|f| f.name.clone()).collect());
        results.iter().for_each(|r| kinds.push(r));
        tally.kinds.push(kinds);
        if range.start == 0 {
            tally.first_games.extend(results.into_iter().next());
        }
    }
    Ok(tally)
}

/// Means, intervals and paired differences of the games of `tally`, a whole
/// run described by `run`.
pub fn summarise(run: &RunInfo, tally: Tally) -> Comparison {
    let per_game: Vec<Vec<Vec<f64>>> = tally
        .rows
        .iter()
        .map(|rows| rows.iter().map(GameRow::metrics).collect())
        .collect();
    let columns: Vec<Columns> = per_game.iter().map(|m| Columns::of_metrics(m)).collect();
    let scales = Columns::scales(&columns.iter().collect::<Vec<_>>());
    let summaries: Vec<Vec<Estimate>> = columns.iter().map(|c| c.summary(&scales)).collect();
    let diffs: Vec<Vec<Estimate>> = columns
        .iter()
        .map(|c| columns[0].paired_difference(c, &scales))
        .collect();
    let names = &run.variants;
    let metrics = stats::metric_names(run.bots.len())
        .into_iter()
        .enumerate()
        .map(|(m, name)| Metric {
            name,
            values: (0..names.len())
                .map(|v| {
                    let diff = (v > 0).then(|| Difference::of(diffs[v][m]));
                    VariantValue::of(&names[v], summaries[v][m], diff)
                })
                .collect(),
        })
        .collect();
    let games = tally.games();
    let fires = (!tally.fires.is_empty()).then(|| {
        names
            .iter()
            .zip(tally.fires)
            .map(|(variant, f)| VariantFires {
                variant: variant.clone(),
                games: f.games,
                hooks: f.hooks,
            })
            .collect()
    });
    let mut c = Comparison {
        variants: names.clone(),
        packs: run.packs.clone(),
        decks: run.decks.clone(),
        games,
        players: run.bots.len(),
        bots: run.bots.clone(),
        bot_values: run.bot_values.clone(),
        seed: run.seed,
        threads: tally.threads,
        seconds: tally.seconds,
        games_per_sec: (games * names.len() as u64) as f64 / tally.seconds.max(1e-9),
        metrics,
        by_kind: Vec::new(),
        per_game,
        first_games: tally.first_games,
        kinds: tally.kinds,
        stopping: None,
        fires,
        min_effect: MinEffect::default(),
    };
    adjust(&mut [&mut c]);
    c
}

impl Comparison {
    /// Fill `by_kind` from the per-floor-kind counts the run kept
    /// (`--by-kind`); nothing when it kept none.
    pub fn add_by_kind(&mut self) {
        if self.kinds.len() != self.variants.len() || self.kinds.is_empty() {
            return;
        }
        let kinds: Vec<Vec<String>> = self.kinds.iter().map(|k| k.kinds.clone()).collect();
        let rows: Vec<Vec<Vec<f64>>> = self
            .kinds
            .iter()
            .map(|k| (0..k.games.len()).map(|g| k.metrics(g)).collect())
            .collect();
        self.by_kind = by_kind(&self.variants, &kinds, &rows);
        adjust(&mut [self]);
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
            let all: Vec<Vec<f64>> = (0..names.len()).map(|v| column(v, &name)).collect();
            let scale = stats::Scale::of(&name, all.iter().map(Vec::as_slice));
            let values = (0..names.len())
                .map(|v| {
                    let own = &all[v];
                    let e = stats::mean_in(own, scale);
                    let diff =
                        (v > 0).then(|| Difference::of(stats::difference(&base, own, scale)));
                    VariantValue::of(&names[v], e, diff)
                })
                .collect();
            Metric { name, values }
        })
        .collect()
}

/// The worker threads a run of `threads` (0: one per core) uses.
pub fn threads_used(threads: usize) -> usize {
    sim::worker_threads(threads)
}
