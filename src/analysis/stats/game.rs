//! A game's row and its metrics: what a finished game leaves for the
//! statistics ([`GameRow`]), the metrics by name, each seat's share of the
//! win, and the per-floor-kind metrics.

use super::interval::{Estimate, Scale, mean_in};
use crate::play::sim::GameResult;

/// The per-game metrics after the seats' scores and win shares, in order.
pub(super) const GAME_METRICS: [&str; 21] = [
    "margin",
    "captures",
    "own_captures",
    "exchanges",
    "ransoms",
    "ransom_points",
    "prisoners_end",
    "towers",
    "tower_height_mean",
    "tower_height_max",
    "floors_unused",
    "turns",
    "lead_changes",
    "decisiveness",
    "drama",
    "comeback",
    "ties",
    "branching",
    "forced",
    "spread",
    "decisions",
];

/// The metrics, by name, for `players` seats; the order of
/// [`per_game`]'s values, followed by `balance`.
pub fn metric_names(players: usize) -> Vec<String> {
    let mut names = Vec::new();
    for s in 1..=players {
        names.push(format!("score.seat{s}"));
    }
    for s in 1..=players {
        names.push(format!("win.seat{s}"));
    }
    names.extend(GAME_METRICS.map(String::from));
    names.push("balance".to_string());
    names
}

/// Each seat's share of the win: 1 for a sole winner, 1/k for k tied.
pub fn win_shares(scores: &[u32]) -> Vec<f64> {
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners = scores.iter().filter(|&&s| s == best).count().max(1) as f64;
    scores
        .iter()
        .map(|&s| if s == best { 1.0 / winners } else { 0.0 })
        .collect()
}

/// What a game leaves for the statistics, as whole numbers: each seat's
/// score, then the counts [`per_game`] turns into metrics. It is the
/// sufficient statistic of a game: a run's every estimate is a function of
/// its rows, so a partial result of a shard keeps them and a merge sees
/// exactly what one process saw.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct GameRow(pub Vec<u32>);

/// The counts of a [`GameRow`] after the scores, in order: the game's
/// counters, then its course ([`crate::play::course::Course`]).
const ROW_COUNTS: usize = 18;

impl GameRow {
    /// The row of a finished game.
    pub fn of(r: &GameResult) -> GameRow {
        let s = &r.stats;
        let c = &r.course;
        let mut v = r.scores.clone();
        v.extend([
            s.captures,
            s.own_captures,
            s.exchanges,
            s.ransoms,
            s.ransom_points,
            r.prisoners_held,
            r.tower_heights.len() as u32,
            r.tower_heights.iter().sum(),
            r.tower_heights.iter().copied().max().unwrap_or(0),
            r.floors_unused,
            s.turns,
            c.lead_changes,
            c.decided_at,
            c.drama,
            c.comeback,
            c.decisions,
            c.options,
            c.forced,
        ]);
        GameRow(v)
    }

    /// The number of seats, or `None` when the row is too short to hold a
    /// game (a damaged partial result).
    pub fn players(&self) -> Option<usize> {
        self.0.len().checked_sub(ROW_COUNTS).filter(|&p| p > 0)
    }

    /// Each seat's final score.
    pub fn scores(&self) -> &[u32] {
        &self.0[..self.0.len().saturating_sub(ROW_COUNTS)]
    }

    /// The per-game metrics, in [`metric_names`] order (without `balance`,
    /// which belongs to a set of games).
    pub fn metrics(&self) -> Vec<f64> {
        let scores = self.scores();
        let c = &self.0[scores.len()..];
        let mut v: Vec<f64> = scores.iter().map(|&s| f64::from(s)).collect();
        v.extend(win_shares(scores));
        let mut sorted = scores.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let top = sorted[0];
        let margin = top - sorted.get(1).copied().unwrap_or(top);
        let built = f64::from(c[6]);
        let share = |part: u32, whole: u32| {
            if whole > 0 {
                f64::from(part) / f64::from(whole)
            } else {
                0.0
            }
        };
        v.push(f64::from(margin));
        v.extend(c[..6].iter().map(|&x| f64::from(x)));
        v.extend([
            built,
            share(c[7], c[6]),
            f64::from(c[8]),
            f64::from(c[9]),
            f64::from(c[10]),
        ]);
        // The course: lead changes, decisiveness, drama, comeback; then
        // ties, branching, forced decisions, spread and decisions.
        let tied = sorted.get(1) == Some(&top);
        v.extend([
            f64::from(c[11]),
            share(c[12], c[10]),
            f64::from(c[13]),
            f64::from(c[14]),
            f64::from(u8::from(tied)),
            share(c[16], c[15]),
            share(c[17], c[15]),
            f64::from(top - sorted[sorted.len() - 1]),
            f64::from(c[15]),
        ]);
        v
    }
}

/// The per-game metrics of one game, in [`metric_names`] order (without
/// `balance`, which belongs to a set of games).
pub fn per_game(r: &GameResult) -> Vec<f64> {
    GameRow::of(r).metrics()
}

/// The per-floor-kind metrics, by name, for the floor kinds `kinds` (in
/// [`per_kind`]'s order): for each kind, floors of it placed, captures by a
/// tower it tops, and towers it tops at the end. A new pack's kinds appear
/// with no code change.
pub fn kind_metric_names(kinds: &[String]) -> Vec<String> {
    let mut names = Vec::new();
    for what in ["floors", "captures.top", "towers.top"] {
        names.extend(kinds.iter().map(|k| format!("{what}.{k}")));
    }
    names
}

/// One game's per-floor-kind metrics for `kinds` floor kinds, in
/// [`kind_metric_names`] order.
pub fn per_kind(r: &GameResult, kinds: usize) -> Vec<f64> {
    let at = |v: &[u32], k: usize| v.get(k).copied().unwrap_or(0) as f64;
    let mut out = Vec::with_capacity(3 * kinds);
    for counts in [
        &r.stats.floors_by_kind,
        &r.stats.captures_by_top,
        &r.towers_by_top,
    ] {
        out.extend((0..kinds).map(|k| at(counts, k)));
    }
    out
}

/// Estimates of the per-floor-kind metrics over `rows` of [`per_kind`]
/// (counts: never below 0).
pub fn kind_summary(rows: &[Vec<f64>]) -> Vec<Estimate> {
    let width = rows.first().map_or(0, Vec::len);
    (0..width)
        .map(|m| {
            let column: Vec<f64> = rows.iter().map(|r| r[m]).collect();
            let scale = Scale::of("", [column.as_slice()]);
            mean_in(&column, scale)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_metrics_count_floors_captures_and_tops_by_kind() {
        let mut r = GameResult {
            scores: vec![0, 0],
            towers_by_top: vec![0, 2],
            ..Default::default()
        };
        r.stats.floors_by_kind = vec![5, 1];
        r.stats.captures_by_top = vec![3];
        let kinds = [
            "regular".to_string(),
            "black".to_string(),
            "white".to_string(),
        ];
        let names = kind_metric_names(&kinds);
        assert_eq!(names[0], "floors.regular");
        assert_eq!(names[4], "captures.top.black");
        assert_eq!(names[8], "towers.top.white");
        assert_eq!(
            per_kind(&r, 3),
            vec![5.0, 1.0, 0.0, 3.0, 0.0, 0.0, 0.0, 2.0, 0.0]
        );
        let s = kind_summary(&[per_kind(&r, 3), vec![1.0; 9]]);
        assert!((s[0].mean - 3.0).abs() < 1e-12);
    }

    #[test]
    fn ties_split_the_win() {
        assert_eq!(win_shares(&[5, 7, 7]), vec![0.0, 0.5, 0.5]);
        assert_eq!(win_shares(&[9, 1]), vec![1.0, 0.0]);
    }
}
