//! The verdict as a value: the changes that survive, the key metrics that
//! held or are not settled, the games that would settle them, and the
//! thresholds it is drawn with.

use serde::Serialize;

use crate::analysis::compare::Comparison;
use crate::analysis::practical::Group;
use crate::analysis::stats::Thin;

/// The metrics a verdict says "did not change" of when it can.
pub const KEY_METRICS: [&str; 2] = ["balance", "win.seat1"];

/// A key metric's difference is "unchanged" when its whole 95% interval
/// lies within ± this (a share of games).
pub const UNCHANGED_WITHIN: f64 = 0.05;

/// The half-width the games estimate aims the widest key interval at.
pub const TARGET_HALF_WIDTH: f64 = 0.02;

/// What a comparison (or a ladder of them) says, in words and as values.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// The paragraph, written from the fields below: its `sentences`
    /// joined.
    pub text: String,
    /// The paragraph's sentences: the run, one per variant, what did not
    /// change, what is not settled, the games that would settle it.
    pub sentences: Vec<String>,
    /// The multiplicity adjustment of the stars.
    pub adjustment: String,
    /// Differences adjusted together, as one family: every metric of every
    /// variant at every level, per-floor-kind metrics included, each that
    /// has an interval.
    pub differences: usize,
    /// How many of them are per-floor-kind differences (`--by-kind`).
    pub kind_differences: usize,
    /// The differences that survive the adjustment, variant by variant, in
    /// the order of their groups (scores, who wins, what the rule does, how
    /// a game feels, bookkeeping); scores and wins in the table's order,
    /// the others largest effect first.
    pub changes: Vec<Change>,
    /// Key metrics whose every interval lies within ±`within`.
    pub unchanged: Vec<Steady>,
    /// Key metrics that neither changed nor can be said to be unchanged.
    pub unsettled: Vec<Steady>,
    /// Games per variant that would narrow the widest key interval to
    /// ±[`TARGET_HALF_WIDTH`] (none when every one is that narrow).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games_needed: Option<GamesNeeded>,
}

/// A difference that survives the adjustment.
#[derive(Clone, Debug, Serialize)]
pub struct Change {
    pub variant: String,
    pub metric: String,
    pub unit: String,
    /// The level its numbers are from: the strongest at which it survives.
    pub level: String,
    /// Variant − baseline, and its raw 95% interval.
    pub mean: f64,
    pub ci: [f64; 2],
    /// The difference over the baseline's mean (none when that is 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relative: Option<f64>,
    pub p_adjusted: f64,
    /// Standardized size: |mean| over the sd of the per-game differences.
    pub effect: f64,
    /// The levels at which it survives, weakest first.
    pub holds_at: Vec<String>,
    /// It survives at two levels with opposite signs.
    pub turns_around: bool,
    /// The question it answers, in the order the verdict tells them.
    pub group: Group,
    /// Its practical threshold (`--min-effect`), in its unit.
    pub min_effect: f64,
    /// |mean| is under the threshold: detectable but small.
    pub small: bool,
    /// Why it moved other than by what the rule does to a game: an average
    /// over decisions when the count of decisions changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artefact: Option<String>,
}

/// A key metric's difference, with the interval that decides it.
#[derive(Clone, Debug, Serialize)]
pub struct Steady {
    pub variant: String,
    pub metric: String,
    /// The level with the widest interval.
    pub level: String,
    pub mean: f64,
    pub ci: [f64; 2],
    /// Why there is no interval at that level: too few games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_interval: Option<Thin>,
    pub within: f64,
    /// Its raw interval excludes 0, though the difference does not survive
    /// the adjustment.
    pub excludes_zero: bool,
}

/// How many games would narrow an interval to a half-width.
#[derive(Clone, Debug, Serialize)]
pub struct GamesNeeded {
    pub variant: String,
    pub metric: String,
    pub level: String,
    pub half_width: f64,
    pub target: f64,
    /// Games per variant (and level) in all.
    pub games: u64,
}

/// One level of play: its name (the bots) and its comparison.
pub struct Level<'a> {
    pub name: String,
    pub run: &'a Comparison,
}
