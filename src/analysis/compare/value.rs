//! The comparison's value: the run's parameters, each metric's mean and
//! interval per variant and the paired differences from the baseline,
//! adjusted together; what every output formats.

use anyhow::Result;
use serde::Serialize;

use crate::analysis::decks::Decks;
use crate::analysis::kinds::KindCounts;
use crate::analysis::multiplicity;
use crate::analysis::practical::MinEffect;
use crate::analysis::stats::{Estimate, Thin};
use crate::kernel::diag::{bad_input, did_you_mean};
use crate::play::bots::BotKind;
use crate::play::sim::GameResult;
use crate::rules::Ruleset;
use crate::rules::script::Fire;

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
    /// Count which packs change their hooks' answers (`--fires`).
    pub fires: bool,
}

/// A comparison's outcome, in the order `compare --format json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The variants' names, the first being the baseline.
    pub variants: Vec<String>,
    /// Each variant's packs, in order.
    pub packs: Vec<Vec<String>>,
    /// How the variants' decks differ (a comparison of two or more
    /// variants; absent from a merged run's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decks: Option<Decks>,
    /// Games per variant.
    pub games: u64,
    pub players: usize,
    /// The bot of each seat.
    pub bots: Vec<String>,
    /// The values each variant's bots weigh positions with: `defaults`,
    /// or the tuned file (`Ruleset::bot_values`).
    pub bot_values: Vec<String>,
    /// The master seed.
    pub seed: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Wall-clock time of all games.
    pub seconds: f64,
    pub games_per_sec: f64,
    /// Every metric of
    /// [`stats::metric_names`](crate::analysis::stats::metric_names), in
    /// that order.
    pub metrics: Vec<Metric>,
    /// The per-floor-kind metrics
    /// ([`by_kind`](crate::analysis::compare::by_kind)), when asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_kind: Vec<Metric>,
    /// `per_game[variant][game]`: the per-game metrics of each game
    /// ([`stats::per_game`](crate::analysis::stats::per_game)), for
    /// distributions.
    #[serde(skip)]
    pub per_game: Vec<Vec<Vec<f64>>>,
    /// Each variant's game 0, to replay it (empty for a merged run, whose
    /// game 0 is played again from its seed).
    #[serde(skip)]
    pub first_games: Vec<GameResult>,
    /// Each variant's per-floor-kind counts, game by game (`--by-kind`).
    #[serde(skip)]
    pub kinds: Vec<KindCounts>,
    /// How a sequential comparison (`--precision`) stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopping: Option<Stopping>,
    /// Did the rules fire? Per variant, how often each pack's hook was
    /// asked and changed the answer (`--fires`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fires: Option<Vec<VariantFires>>,
    /// The practical thresholds the verdict reads (`--min-effect`).
    #[serde(skip)]
    pub min_effect: MinEffect,
}

/// The fires of one variant's games: per pack and hook, in the order of
/// hooks, then of the packs (none under native rules).
#[derive(Clone, Debug, Serialize)]
pub struct VariantFires {
    pub variant: String,
    pub games: u64,
    pub hooks: Vec<Fire>,
}

impl VariantFires {
    /// A sentence for each pack hook that never changed an answer the
    /// games played asked: a rule that did nothing in these games (written
    /// for a case that does not arise, or shadowed by a later pack),
    /// whatever bots' searches found it would have done elsewhere.
    pub fn never_changed(&self) -> Vec<String> {
        self.hooks
            .iter()
            .filter(|f| f.never_changed_in_play())
            .map(|f| {
                let search = match f.in_search.changed {
                    0 => String::new(),
                    n => format!(
                        " (it changed {n} answers to bots' look-ahead questions, in positions no game reached)"
                    ),
                };
                // A hook no pack before it defines was compared with the
                // hook's default: it states the default, which is no fault.
                let states = match f.first_in_chain {
                    true => " (it answers as the hook's default does: no fault)",
                    false => "",
                };
                format!(
                    "pack `{}`, hook `{}` never changed an answer the games asked in {} games{states}{search}",
                    f.pack,
                    f.hook.name(),
                    self.games
                )
            })
            .collect()
    }
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
    /// The 95% confidence interval (the mean twice when there is none).
    pub ci: [f64; 2],
    /// Why there is no interval: too few games ([`Thin`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_interval: Option<Thin>,
    /// Paired difference against the first variant (absent for it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Difference>,
}

/// A paired difference (variant − baseline, game by game on the same seeds).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Difference {
    pub mean: f64,
    pub ci: [f64; 2],
    /// Standard deviation of the per-game differences (for balance, its
    /// bootstrap's standard error times √games: the per-game spread that
    /// interval implies).
    pub sd: f64,
    /// The raw interval excludes 0 (never without an interval).
    pub significant: bool,
    /// Why there is no interval: too few games ([`Thin`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_interval: Option<Thin>,
    /// The two-sided p-value of no difference: Student's t test, the exact
    /// bound of differences that all agree, or balance's bootstrap read as
    /// normal ([`Estimate::p`]; 1 without an interval).
    pub p: f64,
    /// `p` after Holm's adjustment over every difference of the run
    /// ([`multiplicity`]; differences without an interval are not among
    /// them, and stay at 1).
    pub p_adjusted: f64,
    /// The adjusted p-value is under 0.05: the difference the stars mark.
    pub survives: bool,
}

/// How a sequential comparison (`analysis::sequential`) stopped, as `compare --format json` prints it
/// (field `stopping`).
#[derive(Clone, Debug, Serialize)]
pub struct Stopping {
    pub metric: String,
    /// The half-width asked for.
    pub precision: f64,
    pub max_games: u64,
    /// Games per variant played.
    pub games: u64,
    /// Games per batch (a look after each).
    pub batch: u64,
    /// True when every difference reached the precision (false: the maximum
    /// stopped the run first).
    pub reached: bool,
    pub method: String,
    /// Each non-baseline variant's difference from the baseline, with its
    /// confidence-sequence interval at the stop.
    pub intervals: Vec<SequenceInterval>,
}

/// A difference's interval from the confidence sequence.
#[derive(Clone, Debug, Serialize)]
pub struct SequenceInterval {
    pub variant: String,
    pub mean: f64,
    pub ci: [f64; 2],
    /// Why there is no interval: too few games ([`Thin`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_interval: Option<Thin>,
}

impl VariantValue {
    /// The mean and its interval as an estimate (without the sd).
    pub fn estimate(&self) -> Estimate {
        Estimate::drawn(self.mean, self.ci, self.no_interval)
    }

    /// The value and its interval as an estimate.
    pub fn of(variant: &str, e: Estimate, diff: Option<Difference>) -> VariantValue {
        VariantValue {
            variant: variant.to_string(),
            mean: e.mean,
            ci: [e.low, e.high],
            no_interval: e.thin,
            diff,
        }
    }
}

impl Difference {
    /// The difference an estimate describes, as if it were the run's only
    /// one (until [`adjust`] adjusts it among the others).
    pub fn of(e: Estimate) -> Difference {
        let p = match e.thin {
            Some(_) => 1.0,
            None => e.p,
        };
        Difference {
            mean: e.mean,
            ci: [e.low, e.high],
            sd: e.sd,
            significant: e.excludes_zero(),
            no_interval: e.thin,
            p,
            p_adjusted: p,
            survives: e.excludes_zero() && p < multiplicity::ALPHA,
        }
    }
}

/// Adjust the p-values of every difference of `runs` (every metric of
/// every variant, with the per-floor-kind metrics when there are any)
/// together, as one family (Holm's method, [`multiplicity`]), and mark the
/// ones that survive.
pub fn adjust(runs: &mut [&mut Comparison]) {
    adjust_together(
        runs.iter_mut()
            .flat_map(|c| c.metrics.iter_mut().chain(c.by_kind.iter_mut()))
            .flat_map(|m| m.values.iter_mut())
            .filter_map(|v| v.diff.as_mut())
            .collect(),
    );
}

/// Adjust `diffs` as one family, and mark the ones that survive: every one
/// with an interval (one without has nothing to test, keeps a p-value of
/// 1 and is not counted in the family).
pub fn adjust_together(diffs: Vec<&mut Difference>) {
    let mut family: Vec<&mut Difference> = diffs
        .into_iter()
        .filter(|d| d.no_interval.is_none())
        .collect();
    let raw: Vec<f64> = family.iter().map(|d| d.p).collect();
    for (d, adjusted) in family.iter_mut().zip(multiplicity::holm(&raw)) {
        d.p_adjusted = adjusted;
        // Only a difference whose raw interval excludes 0 can survive.
        d.survives = d.significant && adjusted < multiplicity::ALPHA;
    }
}

/// How many differences of `metrics` are adjusted together: those with an
/// interval.
pub fn family_size<'a>(metrics: impl IntoIterator<Item = &'a Metric>) -> usize {
    metrics
        .into_iter()
        .flat_map(|m| &m.values)
        .filter_map(|v| v.diff)
        .filter(|d| d.no_interval.is_none())
        .count()
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

/// What identifies a run apart from its games: the same for every shard.
#[derive(Clone, Debug)]
pub struct RunInfo {
    pub variants: Vec<String>,
    pub packs: Vec<Vec<String>>,
    /// How the decks differ, when the rules are at hand (not in a merge).
    pub decks: Option<Decks>,
    pub games: u64,
    pub bots: Vec<String>,
    /// Each variant's bot values (`Ruleset::bot_values`).
    pub bot_values: Vec<String>,
    pub seed: u64,
}

impl RunInfo {
    pub fn of(plan: &Plan) -> RunInfo {
        RunInfo {
            variants: plan.sets.iter().map(|s| s.name().clone()).collect(),
            packs: plan.sets.iter().map(|s| s.pack_names().clone()).collect(),
            decks: (plan.sets.len() > 1).then(|| Decks::of(plan.sets)),
            games: plan.games,
            bots: plan.bots.iter().map(|b| b.label()).collect(),
            bot_values: plan.sets.iter().map(|s| s.bot_values()).collect(),
            seed: plan.seed,
        }
    }
}

/// The position of the baseline `wanted` among a run's `variants` (the
/// names as given, or as the variants call themselves); bad input, with a
/// "did you mean", when it is none of them.
pub fn baseline_index(variants: &[String], wanted: &str) -> Result<usize> {
    let wanted = wanted.trim();
    variants.iter().position(|v| v == wanted).ok_or_else(|| {
        bad_input(format!(
            "--baseline `{wanted}` is not one of the variants compared ({}){}",
            variants.join(", "),
            did_you_mean(wanted, variants.iter().map(String::as_str))
        ))
    })
}

/// Move item `b` of `items` to the front, the others keeping their order:
/// how a baseline other than the first is put first.
pub fn baseline_first<T>(items: &mut [T], b: usize) {
    if b < items.len() {
        items[..=b].rotate_right(1);
    }
}

impl RunInfo {
    /// The same run with variant `b` as the baseline.
    pub fn with_baseline(mut self, b: usize) -> RunInfo {
        baseline_first(&mut self.variants, b);
        baseline_first(&mut self.packs, b);
        baseline_first(&mut self.bot_values, b);
        self
    }
}
