//! A run's per-game metric columns: their summaries, their paired
//! differences, and balance (a property of a whole set of games) with its
//! seeded percentile bootstrap.

use rayon::prelude::*;

use super::{
    Estimate, GAME_METRICS, GameRow, MIN_SAMPLE, Scale, Thin, difference, mean_in, metric_names,
};
use crate::play::seed::Stream;
use crate::play::sim::GameResult;

/// Bootstrap resamples for set-level metrics.
const RESAMPLES: usize = 1000;
/// The bootstrap's fixed seed: statistics are as reproducible as games.
const BOOTSTRAP_SEED: u64 = 0xB007_5742;

/// Balance of a set of games: 1 minus the largest gap between seats' win
/// shares (1 is perfectly even).
/// `wins` holds each game's seat shares one game after another.
fn balance(wins: &[f64], seats: usize, pick: impl Iterator<Item = usize>) -> f64 {
    let mut sums = vec![0.0; seats];
    let mut n = 0.0;
    for i in pick {
        for (s, w) in sums.iter_mut().zip(&wins[i * seats..(i + 1) * seats]) {
            *s += w;
        }
        n += 1.0;
    }
    if n == 0.0 || seats == 0 {
        return 1.0;
    }
    let max = sums.iter().copied().fold(f64::MIN, f64::max) / n;
    let min = sums.iter().copied().fold(f64::MAX, f64::min) / n;
    1.0 - (max - min)
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

/// Per-game metric columns of a run, for summaries and pairing.
pub struct Columns {
    /// `columns[m][g]`: metric `m` of game `g` (per-game metrics only).
    columns: Vec<Vec<f64>>,
    /// Win shares, `seats` per game one game after another, for balance.
    wins: Vec<f64>,
    seats: usize,
}

impl Columns {
    pub fn of(results: &[GameResult]) -> Columns {
        let rows: Vec<GameRow> = results.iter().map(GameRow::of).collect();
        Columns::of_rows(&rows)
    }

    /// The columns of games given as rows (all of one player count).
    pub fn of_rows(rows: &[GameRow]) -> Columns {
        let metrics: Vec<Vec<f64>> = rows.iter().map(GameRow::metrics).collect();
        Columns::of_metrics(&metrics)
    }

    /// The columns of per-game metric rows ([`GameRow::metrics`]).
    pub fn of_metrics(rows: &[Vec<f64>]) -> Columns {
        let width = rows.first().map_or(0, Vec::len);
        let columns = (0..width)
            .map(|m| rows.iter().map(|r| r[m]).collect())
            .collect();
        let seats = (width.saturating_sub(GAME_METRICS.len())) / 2;
        Columns {
            columns,
            wins: rows
                .iter()
                .flat_map(|r| r[seats..2 * seats].iter().copied())
                .collect(),
            seats,
        }
    }

    /// The values of per-game metric `m` ([`metric_names`] order), game by
    /// game.
    pub fn column(&self, m: usize) -> Option<&[f64]> {
        self.columns.get(m).map(Vec::as_slice)
    }

    /// The paired difference of balance, `other - self`, over the same
    /// seeds (the seat counts may differ).
    pub fn balance_difference(&self, other: &Columns) -> Estimate {
        self.balance_estimate(Some(other))
    }

    fn games(&self) -> usize {
        self.wins.len().checked_div(self.seats).unwrap_or(0)
    }

    /// Balance of the games `pick`.
    fn balance_of(&self, pick: impl Iterator<Item = usize>) -> f64 {
        balance(&self.wins, self.seats, pick)
    }

    /// The scale of each per-game metric over the games of every variant
    /// of a run (`runs`, all of one player count): what a sample with no
    /// spread rests on, and the bounds of a share.
    pub fn scales(runs: &[&Columns]) -> Vec<Scale> {
        let seats = runs.first().map_or(0, |c| c.seats);
        let names = metric_names(seats);
        (0..runs.first().map_or(0, |c| c.columns.len()))
            .map(|m| Scale::of(&names[m], runs.iter().filter_map(|c| c.column(m))))
            .collect()
    }

    /// Estimates of every metric, in [`metric_names`]
    /// order (balance last), each kept within the values it may take, with
    /// the metrics' `scales` ([`Columns::scales`]).
    pub fn summary(&self, scales: &[Scale]) -> Vec<Estimate> {
        let mut values: Vec<Estimate> = self
            .columns
            .iter()
            .zip(scales)
            .map(|(c, &scale)| mean_in(c, scale))
            .collect();
        values.push(self.balance_estimate(None));
        values
    }

    /// Paired differences `other - self` for every metric, balance last.
    /// Both runs must have played the same seeds in the same order.
    pub fn paired_difference(&self, other: &Columns, scales: &[Scale]) -> Vec<Estimate> {
        let mut out: Vec<Estimate> = self
            .columns
            .iter()
            .zip(&other.columns)
            .zip(scales)
            .map(|((a, b), &scale)| difference(a, b, scale))
            .collect();
        out.push(self.balance_estimate(Some(other)));
        out
    }

    /// Balance, or the paired difference of balance against `other`, with a
    /// percentile bootstrap interval (from [`MIN_SAMPLE`] games: below, a
    /// resample of a handful of games says little of the spread). Its sd is
    /// the bootstrap's standard error times √games, the per-game spread an
    /// interval that wide implies; its test of 0 is the normal reading of
    /// that standard error.
    fn balance_estimate(&self, other: Option<&Columns>) -> Estimate {
        let n = self.games();
        let value = |idx: &[usize]| match other {
            None => self.balance_of(idx.iter().copied()),
            Some(o) => o.balance_of(idx.iter().copied()) - self.balance_of(idx.iter().copied()),
        };
        let point = match other {
            None => self.balance_of(0..n),
            Some(o) => o.balance_of(0..n) - self.balance_of(0..n),
        };
        if n < 2 {
            return Estimate::point(point, Thin::OneGame);
        }
        if n < MIN_SAMPLE {
            return Estimate::point(point, Thin::Bootstrap);
        }
        // The resamples' indices are drawn in order from one stream, a few
        // resamples at a time; their balances are computed in parallel (each
        // a sum in index order), so the draws are the same on any threads.
        let mut rng = Stream::new(BOOTSTRAP_SEED, 0);
        let mut draws = Vec::with_capacity(RESAMPLES);
        let per_chunk = (1 << 20) / n + 1;
        while draws.len() < RESAMPLES {
            let k = per_chunk.min(RESAMPLES - draws.len());
            let idx: Vec<Vec<usize>> = (0..k)
                .map(|_| (0..n).map(|_| rng.below(n)).collect())
                .collect();
            draws.par_extend(idx.par_iter().map(|i| value(i)));
        }
        draws.sort_by(f64::total_cmp);
        let bound = if other.is_some() { -1.0 } else { 0.0 };
        if draws[0] == draws[draws.len() - 1] {
            // Every resample the same: every game alike (one seat won them
            // all, say). A share q of games unlike them could move each
            // seat's win share by q, so balance by up to 2q.
            let e = super::alike(point, n, [point - 2.0, point + 2.0]);
            return super::clipped(e, bound, 1.0);
        }
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        let se = (draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (draws.len() - 1) as f64)
            .sqrt();
        Estimate {
            mean: point,
            low: percentile(&draws, 0.025).max(bound),
            high: percentile(&draws, 0.975).min(1.0),
            sd: se * (n as f64).sqrt(),
            thin: None,
            p: libm::erfc((point / se).abs() / std::f64::consts::SQRT_2).clamp(0.0, 1.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_is_one_when_seats_win_equally() {
        let wins = vec![1.0, 0.0, 0.0, 1.0];
        assert!((balance(&wins, 2, 0..2) - 1.0).abs() < 1e-12);
        assert!((balance(&wins, 2, [0, 0].into_iter()) - 0.0).abs() < 1e-12);
    }

    #[test]
    fn win_share_intervals_stay_within_zero_and_one() {
        let game = |scores: Vec<u32>| GameResult {
            scores,
            ..Default::default()
        };
        let results: Vec<GameResult> = (0..5)
            .map(|i| game(if i == 0 { vec![9, 1] } else { vec![1, 9] }))
            .collect();
        let c = Columns::of(&results);
        let s = c.summary(&Columns::scales(&[&c]));
        let (win1, win2) = (s[2], s[3]);
        assert!((win1.mean - 0.2).abs() < 1e-12);
        assert_eq!(win1.low, 0.0, "the t interval would go below 0");
        assert!(win2.high <= 1.0 && win2.low > 0.0);
    }
}
