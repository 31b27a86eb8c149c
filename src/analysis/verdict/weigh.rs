//! Weighing a comparison into its verdict: each metric's differences across
//! the levels of play, which of them change and by how much, which key
//! metrics held, and how many games would narrow the widest key interval.

use super::value::{
    Change, GamesNeeded, KEY_METRICS, Level, Steady, TARGET_HALF_WIDTH, UNCHANGED_WITHIN, Verdict,
};
use super::words::write;
use crate::analysis::compare::{Comparison, Difference, Metric};
use crate::analysis::ladder::{Ladder, turns_around};
use crate::analysis::multiplicity;
use crate::analysis::practical::{Group, MinEffect};
use crate::analysis::stats;

/// Metrics that are averages over a game's decisions: they move when a
/// kind of decision appears or vanishes.
const PER_DECISION: [&str; 2] = ["branching", "forced"];

/// A metric's difference for one variant at every level.
struct Row<'a> {
    variant: usize,
    metric: &'a str,
    /// A per-floor-kind metric.
    by_kind: bool,
    /// `(level, metric, difference)` per level where it exists.
    at: Vec<(usize, &'a Metric, Difference)>,
}

impl Verdict {
    /// The verdict of one comparison.
    pub fn of(c: &Comparison) -> Verdict {
        Verdict::of_levels(&[Level {
            name: bots_name(&c.bots),
            run: c,
        }])
    }

    /// The verdict of a run: its ladder's when it has one (`c` is then the
    /// strongest level's comparison), else `c`'s.
    pub fn of_run(c: &Comparison, ladder: Option<&Ladder>) -> Verdict {
        match ladder {
            Some(l) => Verdict::of_levels(
                &l.levels
                    .iter()
                    .zip(&l.runs)
                    .map(|(name, run)| Level {
                        name: name.clone(),
                        run,
                    })
                    .collect::<Vec<_>>(),
            ),
            None => Verdict::of(c),
        }
    }

    /// The verdict of the same comparison at several levels of play,
    /// weakest first (all of one family of adjusted differences).
    pub fn of_levels(levels: &[Level]) -> Verdict {
        let rows = rows(levels);
        let min_effect = levels.first().map(|l| &l.run.min_effect);
        let mut changes: Vec<Change> = rows
            .iter()
            .filter_map(|r| change(levels, r, min_effect.cloned().unwrap_or_default()))
            .collect();
        mark_artefacts(&mut changes);
        let order = |ch: &Change| rows.iter().position(|r| r.metric == ch.metric);
        changes.sort_by(|a, b| {
            variant_of(levels, &a.variant)
                .cmp(&variant_of(levels, &b.variant))
                .then(a.group.cmp(&b.group))
                .then(if a.group <= Group::Wins {
                    order(a).cmp(&order(b))
                } else {
                    b.effect.total_cmp(&a.effect)
                })
        });
        let (mut unchanged, mut unsettled) = (Vec::new(), Vec::new());
        for r in rows.iter().filter(|r| KEY_METRICS.contains(&r.metric)) {
            if r.at.iter().any(|(_, _, d)| d.survives) {
                continue;
            }
            let Some(steady) = widest(levels, r) else {
                continue;
            };
            let measured = steady.no_interval.is_none();
            if measured && steady.ci[0] >= -UNCHANGED_WITHIN && steady.ci[1] <= UNCHANGED_WITHIN {
                unchanged.push(steady);
            } else {
                unsettled.push(steady);
            }
        }
        let games_needed = games_needed(levels, &rows);
        let count = |kinds_only: bool| {
            rows.iter()
                .filter(|r| r.by_kind || !kinds_only)
                .flat_map(|r| &r.at)
                .filter(|(_, _, d)| d.no_interval.is_none())
                .count()
        };
        let mut v = Verdict {
            text: String::new(),
            sentences: Vec::new(),
            adjustment: multiplicity::METHOD.to_string(),
            differences: count(false),
            kind_differences: count(true),
            changes,
            unchanged,
            unsettled,
            games_needed,
        };
        v.sentences = write(levels, &v);
        v.text = v.sentences.join(" ");
        v
    }
}

/// Every non-baseline variant's every metric, across the levels.
fn rows<'a>(levels: &'a [Level]) -> Vec<Row<'a>> {
    let Some(first) = levels.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let kinds = first.run.by_kind.iter().map(|m| (m, true));
    let all: Vec<(&Metric, bool)> = first
        .run
        .metrics
        .iter()
        .map(|m| (m, false))
        .chain(kinds)
        .collect();
    for v in 1..first.run.variants.len() {
        for &(metric, by_kind) in &all {
            let at = levels
                .iter()
                .enumerate()
                .filter_map(|(l, level)| {
                    let m = level
                        .run
                        .metrics
                        .iter()
                        .chain(&level.run.by_kind)
                        .find(|m| m.name == metric.name)?;
                    Some((l, m, m.values.get(v)?.diff?))
                })
                .collect();
            out.push(Row {
                variant: v,
                metric: &metric.name,
                by_kind,
                at,
            });
        }
    }
    out
}

fn variant_of(levels: &[Level], name: &str) -> usize {
    levels[0]
        .run
        .variants
        .iter()
        .position(|v| v == name)
        .unwrap_or(usize::MAX)
}

/// The sd of the per-game differences behind `d` over `games` (from its
/// interval when it has no sd of its own: a bootstrap).
fn per_game_sd(d: &Difference, games: u64) -> f64 {
    if d.sd > 0.0 {
        return d.sd;
    }
    (d.ci[1] - d.ci[0]) / 2.0 / stats::Z95 * (games as f64).sqrt()
}

/// Mark a variant's change of the count of decisions (a kind of decision
/// appeared or vanished) and of the averages over decisions that move with
/// it: what the game asks, not how it goes.
fn mark_artefacts(changes: &mut [Change]) {
    let moved: Vec<String> = changes
        .iter()
        .filter(|ch| ch.metric == "decisions")
        .map(|ch| ch.variant.clone())
        .collect();
    for ch in changes.iter_mut().filter(|ch| moved.contains(&ch.variant)) {
        ch.artefact = match ch.metric.as_str() {
            "decisions" => Some("a kind of decision appeared or vanished".to_string()),
            m if PER_DECISION.contains(&m) => {
                Some("an average over decisions, which moves with their kinds".to_string())
            }
            _ => None,
        };
    }
}

/// The change of row `r`, if it survives at some level: its numbers from
/// the strongest level at which it does.
fn change(levels: &[Level], r: &Row, min_effect: MinEffect) -> Option<Change> {
    let &(l, m, d) = r.at.iter().rev().find(|(_, _, d)| d.survives)?;
    let games = levels[l].run.games;
    let sd = per_game_sd(&d, games);
    let base = m.values[0].mean;
    let diffs: Vec<Difference> = r.at.iter().map(|(_, _, d)| *d).collect();
    Some(Change {
        variant: levels[l].run.variants[r.variant].clone(),
        metric: r.metric.to_string(),
        unit: stats::glossary::unit(r.metric).to_string(),
        level: levels[l].name.clone(),
        mean: d.mean,
        ci: d.ci,
        // A share's change is said in its own unit: a tenth of a percent of
        // decisions is not "+12%".
        relative: (base != 0.0 && !stats::glossary::is_share(r.metric))
            .then(|| d.mean / base.abs()),
        p_adjusted: d.p_adjusted,
        effect: if sd > 0.0 {
            d.mean.abs() / sd
        } else {
            f64::INFINITY
        },
        holds_at: r
            .at
            .iter()
            .filter(|(_, _, d)| d.survives)
            .map(|(l, _, _)| levels[*l].name.clone())
            .collect(),
        turns_around: turns_around(&diffs),
        group: Group::of(r.metric),
        min_effect: min_effect.of(r.metric),
        // Under the threshold, unless the change makes the thing appear or
        // vanish (the variant's or the baseline's mean is 0).
        small: d.mean.abs() < min_effect.of(r.metric) && base != 0.0 && base + d.mean != 0.0,
        artefact: None,
    })
}

/// A key row at its level with the widest interval (at a level with
/// none, when one has none: too few games).
fn widest(levels: &[Level], r: &Row) -> Option<Steady> {
    let width = |d: &Difference| match d.no_interval {
        Some(_) => f64::INFINITY,
        None => d.ci[1] - d.ci[0],
    };
    let (l, _, d) =
        r.at.iter()
            .max_by(|a, b| width(&a.2).total_cmp(&width(&b.2)))
            .copied()?;
    Some(Steady {
        variant: levels[l].run.variants[r.variant].clone(),
        metric: r.metric.to_string(),
        level: levels[l].name.clone(),
        mean: d.mean,
        ci: d.ci,
        no_interval: d.no_interval,
        within: UNCHANGED_WITHIN,
        excludes_zero: d.no_interval.is_none() && (d.ci[0] > 0.0 || d.ci[1] < 0.0),
    })
}

/// The games that would narrow the widest key interval to the target: the
/// half-width shrinks as 1/√games.
fn games_needed(levels: &[Level], rows: &[Row]) -> Option<GamesNeeded> {
    let (row, l, d) = rows
        .iter()
        .filter(|r| KEY_METRICS.contains(&r.metric))
        .flat_map(|r| r.at.iter().map(move |(l, _, d)| (r, *l, *d)))
        .filter(|(_, _, d)| d.no_interval.is_none())
        .max_by(|a, b| (a.2.ci[1] - a.2.ci[0]).total_cmp(&(b.2.ci[1] - b.2.ci[0])))?;
    let half_width = (d.ci[1] - d.ci[0]) / 2.0;
    if half_width.is_nan() || half_width <= TARGET_HALF_WIDTH {
        return None;
    }
    let games = levels[l].run.games as f64 * (half_width / TARGET_HALF_WIDTH).powi(2);
    Some(GamesNeeded {
        variant: levels[l].run.variants[row.variant].clone(),
        metric: row.metric.to_string(),
        level: levels[l].name.clone(),
        half_width,
        target: TARGET_HALF_WIDTH,
        games: games.ceil() as u64,
    })
}

/// The bots of a run as a level's name: one name when every seat has it.
fn bots_name(bots: &[String]) -> String {
    match bots {
        [first, rest @ ..] if rest.iter().all(|b| b == first) => first.clone(),
        _ => bots.join(","),
    }
}
