//! Metrics of simulated games and their statistics: per-variant means with 95%
//! confidence intervals, and paired differences between variants that played
//! the same seeds (common random numbers: the same deal in every variant).
//!
//! Means use the normal approximation (mean ± 1.96 s/√n), which is sound for
//! the game counts towerlab runs (hundreds and up). Balance is a property of a
//! whole set of games, not of one game, so its intervals come from a seeded
//! bootstrap (paired for differences).
//!
//! Here: a game's row and its metrics, estimates and their text. A run's
//! columns of metrics, with balance's bootstrap, are [`columns`]; what each
//! metric means is [`glossary`].

pub mod columns;
pub mod glossary;

use crate::play::sim::GameResult;

/// z for a two-sided 95% interval (every interval of the crate uses it).
pub const Z95: f64 = 1.959_963_984_540_054;
/// The fewest games whose values, all alike, may be read as showing no
/// spread (below it, a sample with no spread has no interval); and the
/// fewest games before `--precision` may stop or `sweep` star a difference.
pub const MIN_SAMPLE: usize = 30;

/// The per-game metrics after the seats' scores and win shares, in order.
const GAME_METRICS: [&str; 20] = [
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
        // ties, branching, forced decisions and spread.
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

/// Estimates of the per-floor-kind metrics over `rows` of [`per_kind`].
pub fn kind_summary(rows: &[Vec<f64>]) -> Vec<Estimate> {
    let width = rows.first().map_or(0, Vec::len);
    (0..width)
        .map(|m| estimate(&rows.iter().map(|r| r[m]).collect::<Vec<_>>()))
        .collect()
}

/// A mean with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Estimate {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
    /// Standard deviation of the per-game values (of the paired differences
    /// for a difference); 0 for bootstrap estimates.
    pub sd: f64,
    /// Why there is no interval (`low` and `high` are then the mean).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thin: Option<Thin>,
}

/// Why a sample is too thin for an interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Thin {
    /// Fewer than two games: no spread to measure.
    #[serde(rename = "fewer than 2 games")]
    OneGame,
    /// Every game gave the same value, in fewer than [`MIN_SAMPLE`] games:
    /// too few to show that the value does not vary.
    #[serde(rename = "no spread in fewer than 30 games")]
    NoSpread,
}

impl Thin {
    /// Why, in words, for a note under a table.
    pub fn reason(self) -> &'static str {
        match self {
            Thin::OneGame => "fewer than 2 games: no spread to measure",
            Thin::NoSpread => {
                "every game gave the same value, in fewer than 30 games: too few to show that it does not vary"
            }
        }
    }

    /// Whether `n` values with standard deviation `sd` (or an interval of
    /// width `sd` for a bootstrap) are too thin for an interval.
    pub fn of(n: usize, spread: f64) -> Option<Thin> {
        if n < 2 {
            Some(Thin::OneGame)
        } else if spread == 0.0 && n < MIN_SAMPLE {
            Some(Thin::NoSpread)
        } else {
            None
        }
    }
}

impl Estimate {
    /// A value with no interval, for the reason `thin`.
    pub fn point(mean: f64, thin: Thin) -> Estimate {
        Estimate {
            mean,
            low: mean,
            high: mean,
            sd: 0.0,
            thin: Some(thin),
        }
    }

    /// True when the interval excludes 0 (never for a value with no
    /// interval).
    pub fn excludes_zero(&self) -> bool {
        self.thin.is_none() && (self.low > 0.0 || self.high < 0.0)
    }

    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// A mean and its 95% half-width, or the mean and "no CI" when the sample
/// is too thin for an interval.
pub fn mean_text(mean: f64, ci: [f64; 2], thin: Option<Thin>) -> String {
    match thin {
        Some(_) => format!("{mean:.2} (no CI)"),
        None => format!("{mean:.2} ± {:.2}", (ci[1] - ci[0]) / 2.0),
    }
}

/// A difference and its 95% interval, starred when it excludes 0, or the
/// difference and "no CI" when the sample is too thin for an interval.
pub fn diff_text(mean: f64, ci: [f64; 2], significant: bool, thin: Option<Thin>) -> String {
    match thin {
        Some(_) => format!("{mean:+.2} (no CI)"),
        None => format!(
            "{mean:+.2} [{:+.2}, {:+.2}]{}",
            ci[0],
            ci[1],
            if significant { " *" } else { "" }
        ),
    }
}

/// The line under a table that says why some values have no interval
/// (each reason once), if any has none.
pub fn thin_note(thins: impl IntoIterator<Item = Option<Thin>>) -> Option<String> {
    let mut reasons: Vec<&str> = Vec::new();
    for t in thins.into_iter().flatten() {
        if !reasons.contains(&t.reason()) {
            reasons.push(t.reason());
        }
    }
    (!reasons.is_empty()).then(|| format!("no CI: {}", reasons.join("; ")))
}

/// Mean and normal-approximation 95% interval of `values` (none from a
/// sample too thin to show a spread: [`Thin`]).
pub fn estimate(values: &[f64]) -> Estimate {
    let n = values.len();
    if n == 0 {
        return Estimate::point(0.0, Thin::OneGame);
    }
    let mean = values.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let sd = var.sqrt();
    if let Some(thin) = Thin::of(n, sd) {
        return Estimate {
            sd,
            ..Estimate::point(mean, thin)
        };
    }
    let half = Z95 * sd / (n as f64).sqrt();
    Estimate {
        mean,
        low: mean - half,
        high: mean + half,
        sd,
        thin: None,
    }
}

/// Games needed for a paired comparison to detect a true difference `delta`
/// with 95% confidence and 80% power, given the paired differences' sd.
pub fn games_to_detect(delta: f64, paired_sd: f64) -> u64 {
    const Z80: f64 = 0.841_621_233_572_914;
    if delta <= 0.0 {
        return u64::MAX;
    }
    (((Z95 + Z80) * paired_sd / delta).powi(2)).ceil() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_of_known_values() {
        let e = estimate(&[1.0, 2.0, 3.0, 4.0]);
        assert!((e.mean - 2.5).abs() < 1e-12);
        let sd = (5.0f64 / 3.0).sqrt();
        assert!((e.sd - sd).abs() < 1e-12);
        assert!((e.half_width() - Z95 * sd / 2.0).abs() < 1e-12);
    }

    #[test]
    fn win_share_intervals_stay_within_zero_and_one() {
        let game = |scores: Vec<u32>| GameResult {
            index: 0,
            seed: 0,
            scores,
            stats: Default::default(),
            tower_heights: Vec::new(),
            floors_unused: 0,
            prisoners_held: 0,
            towers_by_top: Vec::new(),
            bounds: None,
            course: Default::default(),
            log: None,
        };
        let results: Vec<GameResult> = (0..5)
            .map(|i| game(if i == 0 { vec![9, 1] } else { vec![1, 9] }))
            .collect();
        let s = columns::Columns::of(&results).summary();
        let (win1, win2) = (s[2], s[3]);
        assert!((win1.mean - 0.2).abs() < 1e-12);
        assert_eq!(win1.low, 0.0, "the normal interval would go below 0");
        assert!(win2.high <= 1.0 && win2.low > 0.0);
    }

    #[test]
    fn kind_metrics_count_floors_captures_and_tops_by_kind() {
        let mut r = GameResult {
            index: 0,
            seed: 0,
            scores: vec![0, 0],
            stats: Default::default(),
            tower_heights: Vec::new(),
            floors_unused: 0,
            prisoners_held: 0,
            towers_by_top: vec![0, 2],
            bounds: None,
            course: Default::default(),
            log: None,
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

    #[test]
    fn detecting_two_points_with_sd_ten_takes_about_two_hundred_games() {
        // (1.96 + 0.84)^2 * 10^2 / 2^2 = 196.2
        assert_eq!(games_to_detect(2.0, 10.0), 197);
    }
}
