//! A comparison's verdict in words, built from its values: the differences
//! that survive the multiplicity adjustment, in the order a designer asks
//! ([`Group`]: scores, who wins, what the rule does, how a game feels,
//! bookkeeping), with their intervals in the metric's units; those under a
//! metric's practical threshold apart, as detectable but small; options per
//! decision that move because a kind of decision appeared or vanished
//! apart, as such; the key metrics that did not change (balance, the first
//! seat's win share) where the interval is narrow enough to say so, the
//! skill levels at which each difference holds and any that turns around,
//! and how many games would narrow the widest key interval to a stated
//! width.
//!
//! The verdict is a value ([`Verdict`]): its `text` is written from its
//! fields, and `compare` prints it under the table, in its JSON (`verdict`)
//! and at the top of the HTML report.

use serde::Serialize;

use crate::analysis::compare::{Comparison, Difference, Metric};
use crate::analysis::ladder::{Ladder, turns_around};
use crate::analysis::multiplicity;
use crate::analysis::practical::{Group, MinEffect};
use crate::analysis::stats::{self, Thin};

/// The metrics a verdict says "did not change" of when it can.
pub const KEY_METRICS: [&str; 2] = ["balance", "win.seat1"];

/// A key metric's difference is "unchanged" when its whole 95% interval
/// lies within ± this (a share of games).
pub const UNCHANGED_WITHIN: f64 = 0.05;

/// The half-width the games estimate aims the widest key interval at.
pub const TARGET_HALF_WIDTH: f64 = 0.02;

/// The most differences the text names per variant after its scores and
/// wins, which it always names all of (the JSON has all).
const NAMED_PER_VARIANT: usize = 5;

/// Metrics that are averages over a game's decisions: they move when a
/// kind of decision appears or vanishes.
const PER_DECISION: [&str; 2] = ["branching", "forced"];

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

/// A number with its sign, as tables print it ([`stats::signed`]).
fn signed(x: f64) -> String {
    stats::signed(x)
}

fn interval(ci: [f64; 2]) -> String {
    format!("[{}, {}]", signed(ci[0]), signed(ci[1]))
}

/// A key metric as a sentence names it.
fn key_name(metric: &str) -> &str {
    match metric {
        "win.seat1" => "the first seat's win share",
        other => other,
    }
}

/// The paragraph, sentence by sentence.
fn write(levels: &[Level], v: &Verdict) -> Vec<String> {
    let Some(first) = levels.first() else {
        return Vec::new();
    };
    let c = first.run;
    let ladder = levels.len() > 1;
    let mut out = vec![format!(
        "Against {}, {} games per variant ({}; stars adjusted by Holm's method over {} differences{}):",
        c.variants[0],
        c.games,
        if ladder {
            format!(
                "at {} levels of play, {}",
                levels.len(),
                levels
                    .iter()
                    .map(|l| l.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" < ")
            )
        } else {
            format!("bots {}", first.name)
        },
        v.differences,
        match v.kind_differences {
            0 => String::new(),
            k => format!(", {k} of them per floor kind"),
        }
    )];
    for name in &c.variants[1..] {
        out.extend(variant_sentences(name, v, ladder, levels.len()));
    }
    let steady = |list: &[Steady], excluding: bool| -> Vec<Steady> {
        list.iter()
            .filter(|s| s.excludes_zero == excluding)
            .cloned()
            .collect()
    };
    let every = if ladder { " at every level" } else { "" };
    let sentences = [
        (
            steady(&v.unchanged, false),
            format!("Unchanged, within ±{UNCHANGED_WITHIN}{every}"),
        ),
        (
            steady(&v.unchanged, true),
            format!(
                "Within ±{UNCHANGED_WITHIN}{every}, though not 0 by the raw interval (not starred after the adjustment)"
            ),
        ),
        (
            steady(&v.unsettled, false),
            format!("Not told apart from 0, nor within ±{UNCHANGED_WITHIN}"),
        ),
        (
            steady(&v.unsettled, true),
            "Away from 0 by the raw interval, but not starred after the adjustment".to_string(),
        ),
    ];
    for (list, head) in sentences {
        if !list.is_empty() {
            out.push(format!("{head}: {}.", by_metric(&list)));
        }
    }
    out.push(match &v.games_needed {
        Some(g) => format!(
            "About {} games per variant would narrow the widest key interval ({} under {}{}, ±{:.3} now) to ±{}.",
            thousands(g.games),
            key_name(&g.metric),
            g.variant,
            if ladder {
                format!(" at {}", g.level)
            } else {
                String::new()
            },
            g.half_width,
            g.target
        ),
        None if v.unsettled.iter().any(|s| s.no_interval.is_some()) => {
            "Too few games for an interval of every key metric.".to_string()
        }
        None => format!("Every key interval is within ±{TARGET_HALF_WIDTH}."),
    });
    out
}

/// What the verdict says of variant `name`: its changes by group, in the
/// order a designer asks (scores and wins always named in full, the rest
/// up to [`NAMED_PER_VARIANT`]); then those under their practical
/// threshold, and the per-decision averages that moved with the count of
/// decisions, each in a sentence of their own.
fn variant_sentences(name: &str, v: &Verdict, ladder: bool, levels: usize) -> Vec<String> {
    let mine: Vec<&Change> = v.changes.iter().filter(|ch| ch.variant == name).collect();
    if mine.is_empty() {
        return vec![format!("{name}: no difference survives.")];
    }
    let words = |ch: &&Change| change_words(ch, ladder, levels);
    let headline: Vec<&Change> = mine
        .iter()
        .copied()
        .filter(|ch| !ch.small && ch.artefact.is_none())
        .collect();
    let mut parts: Vec<String> = Vec::new();
    let mut named = 0;
    let mut more = 0;
    let mut group = None;
    for ch in &headline {
        let always = ch.group <= Group::Wins;
        if !always && named >= NAMED_PER_VARIANT {
            more += 1;
            continue;
        }
        named += usize::from(!always);
        let item = words(ch);
        if group != Some(ch.group) {
            group = Some(ch.group);
            parts.push(format!("{}: {item}", ch.group.heading()));
        } else {
            parts.push(item);
        }
    }
    let mut out = Vec::new();
    if parts.is_empty() {
        out.push(format!(
            "{name}: no difference survives above its practical threshold."
        ));
    } else {
        let more = match more {
            0 => String::new(),
            n => format!("; and {n} more (see the table)"),
        };
        out.push(format!("{name}: {}{more}.", parts.join("; ")));
    }
    let small: Vec<String> = mine
        .iter()
        .filter(|ch| ch.small && ch.artefact.is_none())
        .map(|ch| format!("{} (threshold {})", words(ch), ch.min_effect))
        .collect();
    if !small.is_empty() {
        out.push(format!(
            "{name}, detectable but small (under each metric's practical threshold, --min-effect): {}.",
            small.join("; ")
        ));
    }
    let (count, averages): (Vec<&Change>, Vec<&Change>) = mine
        .iter()
        .copied()
        .filter(|ch| ch.artefact.is_some())
        .partition(|ch| ch.metric == "decisions");
    if let Some(count) = count.first() {
        let averages = match averages.is_empty() {
            true => String::new(),
            false => format!(
                "; the averages over decisions move with it: {}",
                averages.iter().map(words).collect::<Vec<_>>().join("; ")
            ),
        };
        out.push(format!(
            "{name}, moved by what the game asks rather than how it goes: {} ({}){averages}.",
            count.artefact.as_deref().unwrap_or_default(),
            words(count)
        ));
    }
    out
}

/// Key metrics' differences, grouped by metric: "balance under a (…), b
/// (…); the first seat's win share under a (…)".
fn by_metric(steady: &[Steady]) -> String {
    KEY_METRICS
        .iter()
        .filter_map(|&metric| {
            let under: Vec<String> = steady
                .iter()
                .filter(|s| s.metric == metric)
                .map(|s| match s.no_interval {
                    Some(_) => format!("{} ({}, no CI: too few games)", s.variant, signed(s.mean)),
                    None => format!("{} ({} {})", s.variant, signed(s.mean), interval(s.ci)),
                })
                .collect();
            (!under.is_empty()).then(|| format!("{} under {}", key_name(metric), under.join(", ")))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// One change in words: the metric, by how much, in its unit, with its
/// interval; at a ladder, where it holds.
fn change_words(ch: &Change, ladder: bool, levels: usize) -> String {
    let mut s = format!(
        "{} {} {} {}",
        ch.metric,
        signed(ch.mean),
        ch.unit,
        interval(ch.ci)
    );
    if let Some(r) = ch.relative.filter(|r| r.is_finite()) {
        s.push_str(&format!(" ({}%)", relative_percent(r)));
    }
    if ladder {
        if ch.turns_around {
            s.push_str(", turns around with skill");
        } else if ch.holds_at.len() == levels {
            s.push_str(", at every level");
        } else {
            s.push_str(&format!(
                ", at {} only (these numbers at {})",
                ch.holds_at.join(" and "),
                ch.level
            ));
        }
    }
    s
}

/// A relative change in percent: whole percents, or two significant digits
/// below 1% (never "+0%").
fn relative_percent(r: f64) -> String {
    let percent = r * 100.0;
    if percent.abs() >= 1.0 {
        format!("{percent:+.0}")
    } else {
        stats::signed(percent)
    }
}

/// A whole number as people read it, with thousands separators: "1,250".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
