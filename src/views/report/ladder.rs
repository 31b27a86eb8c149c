//! The report's skill section, for `compare --ladder`: each key metric's
//! skill trace (every variant's mean at every level of play, with its
//! interval), each difference from the baseline at every level (flagged
//! when it depends on skill), a chart of each key difference across the
//! levels with its intervals, and each variant's skill gap.

use maud::{Markup, html};

use super::charts::{self, Series};
use super::figures::{figure, percent, variant_colour};
use super::names::readable_variant;
use crate::analysis::ladder::{Across, Ladder, Trace};
use crate::analysis::stats::{self, Estimate};
use crate::views::render::PLAYER_COLOURS;

/// The differences charted across the levels, with their labels.
const KEY: [(&str, &str); 6] = [
    ("score.seat1", "seat 1's score"),
    ("margin", "winner's margin"),
    ("captures", "captures"),
    ("ransoms", "ransoms"),
    ("towers", "towers built"),
    ("balance", "balance"),
];

pub fn section(l: &Ladder) -> Markup {
    let flagged = l.across.iter().filter(|a| a.depends_on_skill).count();
    html! {
        section id="skill" {
            h2 { "Across skill levels" }
            p class="note" {
                "The comparison played again at each level, every seat the level's bot: "
                (l.levels.join(" < ")) ", on the same seeds at every level. "
                "The rest of the page shows the strongest level, " (l.levels.last().map_or("", String::as_str)) ". "
                (flagged) " difference" @if flagged != 1 { "s" } " depend" @if flagged == 1 { "s" }
                " on skill (excluding 0 at two levels with opposite signs)."
            }
            div class="charts" {
                @for (metric, label) in KEY {
                    @if let Some(chart) = trace_chart(l, metric, label) { (chart) }
                    @if let Some(chart) = key_chart(l, metric, label) { (chart) }
                }
                @if let Some(chart) = gap_chart(l) { (chart) }
            }
            (across_table(l))
        }
    }
}

/// One metric's skill trace: each variant's mean at each level, with its
/// interval.
fn trace_chart(l: &Ladder, metric: &str, label: &str) -> Option<Markup> {
    let rows: Vec<&Trace> = l.traces.iter().filter(|t| t.metric == metric).collect();
    if rows.is_empty() {
        return None;
    }
    let series = rows
        .iter()
        .enumerate()
        .map(|(i, t)| Series {
            name: readable_variant(&t.variant),
            colour: variant_colour(i).to_string(),
        })
        .collect();
    let values = (0..l.levels.len())
        .map(|level| {
            rows.iter()
                .map(|t| Estimate {
                    mean: t.means[level],
                    low: t.cis[level][0],
                    high: t.cis[level][1],
                    sd: 0.0,
                    thin: None,
                    p: 1.0,
                })
                .collect()
        })
        .collect();
    let title = format!("{} by level", capitalised(label));
    let caption = format!(
        "{}: its skill trace, each variant's mean at each level of play (weakest first), with its 95% interval.",
        stats::glossary::describe(metric)
    );
    Some(figure(
        charts::bars(&charts::Bars {
            title: &title,
            unit: "mean",
            groups: l.levels.clone(),
            series,
            values,
            reference: None,
            decimals: 2,
        }),
        &caption,
    ))
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// One metric's differences (variant − baseline), one group per level.
fn key_chart(l: &Ladder, metric: &str, label: &str) -> Option<Markup> {
    let rows: Vec<&Across> = l.across.iter().filter(|a| a.metric == metric).collect();
    if rows.is_empty() {
        return None;
    }
    let series = rows
        .iter()
        .enumerate()
        .map(|(i, a)| Series {
            name: format!("{} − baseline", readable_variant(&a.variant)),
            colour: variant_colour(i + 1).to_string(),
        })
        .collect();
    let values = (0..l.levels.len())
        .map(|level| {
            rows.iter()
                .map(|a| a.diffs.get(level).map_or(zero(), estimate))
                .collect()
        })
        .collect();
    let title = format!("Difference in {label} by level");
    let flagged = rows.iter().any(|a| a.depends_on_skill);
    let caption = format!(
        "{}: each variant's paired difference from the baseline at each level, with its 95% interval.{}",
        stats::glossary::describe(metric),
        if flagged {
            " It depends on skill: it excludes 0 at two levels with opposite signs."
        } else {
            ""
        }
    );
    Some(figure(
        charts::bars(&charts::Bars {
            title: &title,
            unit: "variant − baseline",
            groups: l.levels.clone(),
            series,
            values,
            reference: Some((0.0, "no difference".into())),
            decimals: 2,
        }),
        &caption,
    ))
}

/// The skill gaps: one group per variant, one bar per step of the ladder.
fn gap_chart(l: &Ladder) -> Option<Markup> {
    let first = l.skill_gaps.first()?;
    let mut variants: Vec<&str> = Vec::new();
    let mut steps: Vec<String> = Vec::new();
    for g in &l.skill_gaps {
        if !variants.contains(&g.variant.as_str()) {
            variants.push(&g.variant);
        }
        let step = format!("{} vs {}", g.stronger, g.weaker);
        if !steps.contains(&step) {
            steps.push(step);
        }
    }
    let values = variants
        .iter()
        .map(|v| {
            l.skill_gaps
                .iter()
                .filter(|g| g.variant == *v)
                .map(|g| {
                    percent(Estimate {
                        mean: g.win_share,
                        low: g.ci[0],
                        high: g.ci[1],
                        sd: 0.0,
                        thin: None,
                        p: 1.0,
                    })
                })
                .collect()
        })
        .collect();
    let series = steps
        .into_iter()
        .enumerate()
        .map(|(i, name)| Series {
            name,
            colour: PLAYER_COLOURS[i % PLAYER_COLOURS.len()].to_string(),
        })
        .collect();
    Some(figure(
        charts::bars(&charts::Bars {
            title: "Skill gap",
            unit: "% of games the stronger bot wins",
            groups: variants.iter().map(|v| readable_variant(v)).collect(),
            series,
            values,
            reference: Some((first.even_share * 100.0, "even share".into())),
            decimals: 1,
        }),
        "The stronger bot's win share against the weaker on each variant (one seat against the rest; paired deals, seats rotated), with 95% Wilson intervals. A rule that widens the gap rewards skill more.",
    ))
}

/// Every difference at every level, the flagged ones marked.
fn across_table(l: &Ladder) -> Markup {
    html! {
        div class="scroll" {
            table class="compare" {
                thead {
                    tr {
                        th { "metric" } th { "variant − baseline" }
                        @for level in &l.levels { th { "at " (level) } }
                        th { "depends on skill" }
                    }
                }
                tbody {
                    @for a in &l.across {
                        tr {
                            th scope="row" { span class="metric" { (a.metric) } }
                            td { (readable_variant(&a.variant)) }
                            @for d in &a.diffs {
                                td class=(if d.survives { "diff sig" } else { "diff" }) {
                                    (crate::analysis::stats::diff_text(d.mean, d.ci, d.survives, d.no_interval))
                                }
                            }
                            td class=(if a.depends_on_skill { "skill sig" } else { "skill" }) {
                                @if a.depends_on_skill { "depends on skill" }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn estimate(d: &crate::analysis::compare::Difference) -> Estimate {
    Estimate {
        mean: d.mean,
        low: d.ci[0],
        high: d.ci[1],
        sd: d.sd,
        thin: d.no_interval,
        p: 1.0,
    }
}

fn zero() -> Estimate {
    Estimate {
        mean: 0.0,
        low: 0.0,
        high: 0.0,
        sd: 0.0,
        thin: None,
        p: 1.0,
    }
}
