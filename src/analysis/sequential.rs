//! Sequential comparisons: play in batches until the paired difference of
//! one metric is known to ±H, with an interval whose 95% coverage survives
//! the stopping rule.
//!
//! A fixed-n interval looked at after every batch covers the truth less
//! often than it claims (each look is another chance to stop on a lucky
//! fluctuation). A *confidence sequence* holds at every number of games at
//! once, so stopping whenever it is narrow enough keeps its coverage. This
//! module uses the asymptotic confidence sequence of Waudby-Smith, Arbour,
//! Sinha, Kennedy and Ramdas, "Time-uniform central limit theory and
//! asymptotic confidence sequences", Annals of Statistics 52(6), 2024
//! (a normal mixture of Robbins, 1970, with the sample standard deviation):
//! after t games with mean difference m and standard deviation s,
//!
//! ```text
//! m ± s · sqrt( 2(tρ² + 1) / (t²ρ²) · ln( sqrt(tρ² + 1) / α ) ),   α = 0.05,
//! ```
//!
//! where ρ is tuned to be narrowest at the first look (one batch of games):
//! ρ² = (−2 ln α + ln(1 − 2 ln α)) / batch. It is wider than the fixed-n
//! interval at the same t (about 1.5–2× here), the price of looking often.

use anyhow::Result;

use crate::analysis::compare::{
    self, Comparison, Plan, RunInfo, SequenceInterval, Stopping, Tally,
};
use crate::analysis::stats;
use crate::kernel::diag::{bad_input, did_you_mean};
use crate::play::sim::GameResult;

/// The confidence level's complement.
const ALPHA: f64 = 0.05;

/// When to stop: `metric`'s paired difference known to ±`half_width`, or
/// `max_games` games per variant played.
#[derive(Clone, Debug)]
pub struct Precision {
    pub metric: String,
    pub half_width: f64,
    pub max_games: u64,
}

/// The confidence sequence's half-width after `t` games whose differences
/// have standard deviation `sd`, tuned for a first look at `t0` games.
pub fn half_width(sd: f64, t: u64, t0: u64) -> f64 {
    if t == 0 {
        return f64::INFINITY;
    }
    let l = -2.0 * ALPHA.ln();
    let rho2 = (l + (1.0 + l).ln()) / t0.max(1) as f64;
    let t = t as f64;
    let inner = 2.0 * (t * rho2 + 1.0) / (t * t * rho2) * ((t * rho2 + 1.0).sqrt() / ALPHA).ln();
    sd * inner.sqrt()
}

/// The interval of the paired differences `d` (the mean, then ± the
/// confidence sequence's half-width).
pub fn interval(d: &[f64], t0: u64) -> [f64; 2] {
    let e = stats::estimate(d);
    let h = half_width(e.sd, d.len() as u64, t0);
    [e.mean - h, e.mean + h]
}

/// Where `metric` is among the per-game metrics of `players` seats; balance
/// (a property of a whole set of games) has no per-game differences.
pub fn metric_index(metric: &str, players: usize) -> Result<usize> {
    let names = stats::metric_names(players);
    if metric == "balance" {
        return Err(bad_input(
            "--precision needs a per-game metric; `balance` belongs to a set of games (its interval is a bootstrap)",
        ));
    }
    names.iter().position(|n| n == metric).ok_or_else(|| {
        bad_input(format!(
            "unknown metric `{metric}` in --precision{}",
            did_you_mean(metric, names.iter().map(String::as_str))
        ))
    })
}

/// Play `plan` in batches of `plan.games` until `precision` is met, and
/// compare the games played (the same games a fixed run of that many
/// would play, so the same metrics).
pub fn run(
    plan: &Plan,
    precision: &Precision,
    progress: &(dyn Fn(u64) + Sync),
    mut each: impl FnMut(&GameResult) -> Result<()>,
) -> Result<Comparison> {
    compare::check(plan)?;
    let m = metric_index(&precision.metric, plan.bots.len())?;
    if !(precision.half_width > 0.0 && precision.half_width.is_finite()) {
        return Err(bad_input("--precision needs a half-width above 0"));
    }
    let batch = plan.games.min(precision.max_games);
    let mut tally = Tally::default();
    let (intervals, reached) = loop {
        let start = tally.games();
        let end = (start + batch).min(precision.max_games);
        tally.extend(compare::play_range(plan, start..end, progress, &mut each)?);
        let intervals = intervals_of(plan, &tally, m, batch);
        // A few games that happen to agree are not a precise answer: the
        // run may stop only from a minimum sample on.
        let reached = tally.games() >= stats::MIN_SAMPLE as u64
            && intervals
                .iter()
                .all(|i| (i.ci[1] - i.ci[0]) / 2.0 <= precision.half_width);
        if reached || end >= precision.max_games {
            break (intervals, reached);
        }
    };
    let mut info = RunInfo::of(plan);
    info.games = tally.games();
    let mut c = compare::summarise(&info, tally);
    c.stopping = Some(Stopping {
        metric: precision.metric.clone(),
        precision: precision.half_width,
        max_games: precision.max_games,
        games: c.games,
        batch,
        reached,
        method: "asymptotic 95% confidence sequence (Waudby-Smith et al., Ann. Statist. 2024)"
            .to_string(),
        intervals,
    });
    Ok(c)
}

/// Every variant's confidence-sequence interval against the baseline.
/// Differences that all agree so far have no spread for the sequence to
/// scale: they get the bound their count of games allows
/// ([`stats::difference`]), which holds at every look too (the event
/// "every game so far agreed" only shrinks as games come), so the run
/// never stops on an interval of zero width.
fn intervals_of(plan: &Plan, tally: &Tally, m: usize, t0: u64) -> Vec<SequenceInterval> {
    let columns: Vec<Vec<f64>> = tally
        .rows
        .iter()
        .map(|rows| rows.iter().map(|r| r.metrics()[m]).collect())
        .collect();
    let name = &stats::metric_names(plan.bots.len())[m];
    let scale = stats::Scale::of(name, columns.iter().map(Vec::as_slice));
    (1..columns.len())
        .map(|v| {
            let e = stats::difference(&columns[0], &columns[v], scale);
            let spread = e.sd > 0.0;
            let d: Vec<f64> = columns[v]
                .iter()
                .zip(&columns[0])
                .map(|(b, a)| b - a)
                .collect();
            SequenceInterval {
                variant: plan.sets[v].name().clone(),
                mean: e.mean,
                ci: match e.thin {
                    Some(_) => [e.mean, e.mean],
                    None if spread => interval(&d, t0),
                    None => [e.low, e.high],
                },
                no_interval: e.thin,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_wider_than_the_fixed_interval_and_shrinks() {
        let fixed = stats::Z95 / (400f64).sqrt();
        let at = half_width(1.0, 400, 100);
        assert!(at > fixed && at < 3.0 * fixed, "{at} vs {fixed}");
        assert!(half_width(1.0, 1600, 100) < at);
        assert_eq!(half_width(0.0, 10, 10), 0.0);
    }
}
