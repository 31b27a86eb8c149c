//! The per-floor-kind counts of a run, game by game (`simulate --by-kind`):
//! whole numbers kept like a game's [`GameRow`](crate::analysis::stats::GameRow),
//! so a shard's partial result carries them and a merge gives the same
//! estimates as one process, bit for bit.

use serde::{Deserialize, Serialize};

use crate::analysis::stats::{self, Estimate};
use crate::play::sim::GameResult;

/// One variant's per-floor-kind counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindCounts {
    /// The variant's floor kinds, in the rules' order.
    pub kinds: Vec<String>,
    /// `games[g]`: game g's counts, in [`stats::kind_metric_names`] order
    /// (three per kind).
    pub games: Vec<Vec<u32>>,
}

impl KindCounts {
    /// No games yet, for the floor kinds `kinds`.
    pub fn new(kinds: Vec<String>) -> KindCounts {
        KindCounts {
            kinds,
            games: Vec::new(),
        }
    }

    /// Count a finished game.
    pub fn push(&mut self, r: &GameResult) {
        let at = |v: &[u32], k: usize| v.get(k).copied().unwrap_or(0);
        let n = self.kinds.len();
        let mut row = Vec::with_capacity(3 * n);
        for counts in [
            &r.stats.floors_by_kind,
            &r.stats.captures_by_top,
            &r.towers_by_top,
        ] {
            row.extend((0..n).map(|k| at(counts, k)));
        }
        self.games.push(row);
    }

    /// Add the games of `more` (the same kinds), which follow these.
    pub fn extend(&mut self, more: KindCounts) {
        if self.kinds.is_empty() && self.games.is_empty() {
            self.kinds = more.kinds;
        }
        self.games.extend(more.games);
    }

    /// The metrics' names ([`stats::kind_metric_names`]).
    pub fn names(&self) -> Vec<String> {
        stats::kind_metric_names(&self.kinds)
    }

    /// Game `g`'s counts as metric values, in [`KindCounts::names`] order.
    pub fn metrics(&self, g: usize) -> Vec<f64> {
        self.games[g].iter().map(|&c| f64::from(c)).collect()
    }

    /// Every metric's name with its estimate over the games.
    pub fn summary(&self) -> Vec<(String, Estimate)> {
        let rows: Vec<Vec<f64>> = (0..self.games.len()).map(|g| self.metrics(g)).collect();
        self.names()
            .into_iter()
            .zip(stats::kind_summary(&rows))
            .collect()
    }

    /// The first game whose row does not hold three counts per kind.
    pub fn misfit(&self) -> Option<usize> {
        self.games
            .iter()
            .position(|g| g.len() != 3 * self.kinds.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(floors: Vec<u32>, captures: Vec<u32>, tops: Vec<u32>) -> GameResult {
        let mut r = GameResult {
            scores: vec![0, 0],
            towers_by_top: tops,
            ..Default::default()
        };
        r.stats.floors_by_kind = floors;
        r.stats.captures_by_top = captures;
        r
    }

    #[test]
    fn counts_agree_with_the_per_kind_metrics_and_split_exactly() {
        let kinds = vec!["regular".to_string(), "black".to_string()];
        let games = [
            game(vec![5, 1], vec![3], vec![0, 2]),
            game(vec![2], vec![], vec![1, 1]),
            game(vec![0, 4], vec![0, 2], vec![]),
        ];
        let mut whole = KindCounts::new(kinds.clone());
        games.iter().for_each(|g| whole.push(g));
        for (g, r) in games.iter().enumerate() {
            assert_eq!(whole.metrics(g), stats::per_kind(r, 2));
        }
        let mut joined = KindCounts::default();
        for part in [&games[..1], &games[1..]] {
            let mut p = KindCounts::new(kinds.clone());
            part.iter().for_each(|g| p.push(g));
            joined.extend(p);
        }
        assert_eq!(joined, whole);
        assert_eq!(joined.summary(), whole.summary());
        assert_eq!(whole.summary()[0].0, "floors.regular");
        assert!((whole.summary()[1].1.mean - 5.0 / 3.0).abs() < 1e-12);
        assert_eq!(whole.misfit(), None);
    }
}
