//! The comparison's tables: every metric of every variant, its paired
//! differences from the baseline, and the per-floor-kind metrics.

use maud::{Markup, html};

use super::reader::Reader;
use crate::analysis::compare::{Comparison, Metric};
use crate::analysis::stats;

/// The comparison table: mean ± 95% half-width per variant, and each
/// variant's paired difference from the first with its 95% interval.
pub(super) fn table(r: &Comparison, reader: Reader) -> Markup {
    html! {
        section id="table" {
            h2 { "Comparison" }
            (metric_table(r, &r.metrics))
            p class="note" {
                "Values: mean ± 95% CI half-width (Student's t), or [low, high] where the interval is kept within the metric's values or rests on games that all agree. Differences: paired by seed (each game of a variant against the same deal in the baseline), with their raw 95% CI; "
                span class="sig" { "* marks a difference that survives Holm's adjustment over the run's " (crate::analysis::compare::family_size(r.metrics.iter().chain(&r.by_kind))) " differences with an interval, per-floor-kind ones included (adjusted p < 0.05)" }
                ". Balance intervals are bootstrapped (from 30 games). "
                @match reader {
                    Reader::CommandLine => { "Every metric is defined by " code { "towerlab compare --explain" } "." }
                    Reader::Browser => { "Every metric is defined under its name in the table." }
                }
            }
        }
    }
}

/// The per-floor-kind metrics (`--by-kind`), as their own table.
pub(super) fn by_kind_section(r: &Comparison) -> Markup {
    html! {
        section id="by-kind" {
            h2 { "By floor kind" }
            (metric_table(r, &r.by_kind))
            p class="note" {
                "Per floor kind: floors placed, captures by a tower the kind tops, and towers it tops at the end, per game; a variant without a kind counts 0 of it. Stars as in the table above: these differences are in the same family."
            }
        }
    }
}

/// `metrics` of every variant, its first column pinned when the table
/// scrolls sideways; under it, why some values have no interval.
fn metric_table(r: &Comparison, metrics: &[Metric]) -> Markup {
    let base = r.variants.first().map_or("", String::as_str);
    html! {
        div class="scroll" {
            table class="compare" {
                thead {
                    tr {
                        th class="pin" { "metric" }
                        @for (v, name) in r.variants.iter().enumerate() {
                            th { (name) }
                            @if v > 0 { th { (name) " − " (base) } }
                        }
                    }
                }
                tbody {
                    @for metric in metrics { (table_row(metric)) }
                }
            }
        }
        @if let Some(note) = stats::thin_note(metrics.iter().flat_map(|m| {
            m.values.iter().flat_map(|v| [v.no_interval, v.diff.and_then(|d| d.no_interval)])
        })) {
            p class="note" { (note) }
        }
    }
}

fn table_row(metric: &Metric) -> Markup {
    html! {
        tr {
            th class="pin" scope="row" {
                span class="metric" { (metric.name) }
                span class="what" { (stats::glossary::describe(&metric.name)) }
            }
            @for value in &metric.values {
                td { (stats::mean_text(value.mean, value.ci, value.no_interval)) }
                @if let Some(d) = &value.diff {
                    td class=(if d.survives { "diff sig" } else { "diff" }) {
                        (stats::diff_text(d.mean, d.ci, d.survives, d.no_interval))
                    }
                }
            }
        }
    }
}
