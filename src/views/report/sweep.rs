//! `towerlab sweep … --html FILE`: a sweep as one self-contained page — the
//! run's parameters, a table of each metric per value with its paired
//! difference from the first value, and a response curve per metric with
//! its 95% interval band.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::analysis::stats::{self, Estimate};
use crate::analysis::sweep::{Sweep, SweepMetric};
use crate::rules::worths::bot_values_line;
use crate::views::report::charts::{self, Curve};

const STYLE: &str = include_str!("report.css");

/// The sweep's page.
pub fn html(s: &Sweep) -> String {
    let title = format!("towerlab: {} over {}", s.variant, s.dimension);
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { "\n" (PreEscaped(STYLE)) }
            }
            body {
                header {
                    h1 { (title) }
                    p class="meta" {
                        (s.games) " games per value on the same seeds (master seed " (s.seed) "), packs "
                        (s.packs.join(" + ")) ", bots " (s.bots.first().map(|b| b.join(", ")).unwrap_or_default()) "; "
                        (bot_values_line(&s.values, &s.bot_values)) "."
                    }
                    nav { a href="#table" { "Table" } " · " a href="#curves" { "Response curves" } }
                }
                main {
                    (table(s))
                    section id="curves" {
                        h2 { "Response curves" }
                        p class="note" { "Each metric's mean at every value of " (s.dimension) ", with the band of its 95% confidence intervals." }
                        div class="charts" {
                            @for (i, m) in s.metrics.iter().enumerate() { figure { (curve(s, m, i)) } }
                        }
                    }
                }
                footer { "Made by towerlab " (env!("CARGO_PKG_VERSION")) "." }
            }
        }
    };
    page.into_string()
}

fn table(s: &Sweep) -> Markup {
    let first = s.values.first().map_or("", String::as_str);
    html! {
        section id="table" {
            h2 { "Metrics per value" }
            p class="note" { "Mean ± 95% half-width (or [low, high]); differences paired by seed against " (s.dimension) " = " (first) ", with their raw 95% interval, starred when they survive Holm's adjustment over the sweep's differences." }
            div class="scroll" {
                table class="compare" {
                    thead { tr {
                        th { "metric" }
                        @for (i, v) in s.values.iter().enumerate() {
                            th { (v) }
                            @if i > 0 { th { (v) " − " (first) } }
                        }
                    } }
                    tbody {
                        @for m in &s.metrics { (row(s, m)) }
                    }
                }
            }
        }
    }
}

fn row(s: &Sweep, m: &SweepMetric) -> Markup {
    html! {
        tr {
            th { span class="metric" { (m.name) } span class="what" { (stats::glossary::describe(&m.name)) } }
            @for (i, v) in s.values.iter().enumerate() {
                @match m.points.iter().find(|p| &p.value == v) {
                    Some(p) => {
                        td { (stats::mean_text(p.mean, p.ci, p.no_interval)) }
                        @if i > 0 {
                            @match p.diff {
                                Some(d) => td class=(if d.survives { "diff sig" } else { "diff" }) {
                                    (stats::diff_text(d.mean, d.ci, d.survives, d.no_interval))
                                },
                                None => td {},
                            }
                        }
                    },
                    None => { td {} @if i > 0 { td {} } },
                }
            }
        }
    }
}

fn curve(s: &Sweep, m: &SweepMetric, i: usize) -> Markup {
    let points: Vec<Option<Estimate>> = s
        .values
        .iter()
        .map(|v| {
            m.points.iter().find(|p| &p.value == v).map(|p| Estimate {
                mean: p.mean,
                low: p.ci[0],
                high: p.ci[1],
                sd: 0.0,
                thin: p.no_interval,
                p: 1.0,
            })
        })
        .collect();
    charts::curve(&Curve {
        title: &m.name,
        unit: stats::glossary::describe(&m.name),
        colour: super::figures::variant_colour(i),
        labels: &s.values,
        points,
    })
}
