//! The report's charts of per-game values (scores, win shares, tower
//! events and heights), their series coloured by variant or by seat, and
//! the figure each chart stands in with its caption.

use maud::{Markup, html};

use super::charts::{self, BoxStats, Series};
use crate::analysis::compare::Comparison;
use crate::analysis::stats::Estimate;
use crate::views::render::PLAYER_COLOURS;

/// Colours of variants in charts (seats use the board's player colours).
pub const VARIANT_COLOURS: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#9c755f", "#76b7b2", "#e15759", "#bab0ac",
];

pub(super) fn variant_colour(v: usize) -> &'static str {
    VARIANT_COLOURS[v % VARIANT_COLOURS.len()]
}

/// The series of a chart: one per variant, or one per seat.
fn variant_series(r: &Comparison) -> Vec<Series> {
    r.variants
        .iter()
        .enumerate()
        .map(|(v, name)| Series {
            name: name.clone(),
            colour: variant_colour(v).to_string(),
        })
        .collect()
}

fn seat_series(r: &Comparison) -> Vec<Series> {
    (0..r.players)
        .map(|s| Series {
            name: format!("seat {}", s + 1),
            colour: PLAYER_COLOURS[s % PLAYER_COLOURS.len()].to_string(),
        })
        .collect()
}

pub(super) fn charts_section(r: &Comparison) -> Markup {
    let variants = variant_series(r);
    let events = [
        ("captures", "captures"),
        ("ransoms", "ransoms paid"),
        ("exchanges", "prisoner exchanges"),
    ];
    let heights = [
        ("tower_height_mean", "mean height of a built tower"),
        ("tower_height_max", "highest tower of the game"),
    ];
    html! {
        section id="charts" {
            h2 { "Charts" }
            div class="charts" {
                (score_chart(r))
                @if let Some(chart) = win_chart(r) { (chart) }
                @if let Some(chart) = bars_of(
                    r,
                    &variants,
                    &events,
                    "Tower events per game",
                    "count per game",
                    "Mean per game with 95% confidence intervals: captures of opponents' meeples (T5), ransoms paid to free a prisoner (T11), and automatic prisoner exchanges (T10).",
                ) { (chart) }
                @if let Some(chart) = bars_of(
                    r,
                    &variants,
                    &heights,
                    "Tower heights",
                    "floors",
                    "Floors per tower at game end, with 95% confidence intervals: the mean over the towers built in a game (at least one floor), and the game's highest tower.",
                ) { (chart) }
            }
        }
    }
}

/// Score distribution: each seat's final score, and the winner's.
fn score_chart(r: &Comparison) -> Markup {
    let seat_columns: Vec<Option<usize>> = (1..=r.players)
        .map(|s| r.metric_index(&format!("score.seat{s}")))
        .collect();
    let mut series = seat_series(r);
    series.push(Series {
        name: "winner".into(),
        colour: "#8c8c8c".into(),
    });
    let values: Vec<Vec<Option<BoxStats>>> = r
        .per_game
        .iter()
        .map(|per_game| {
            let mut per_series: Vec<Vec<f64>> = vec![Vec::new(); r.players + 1];
            for row in per_game {
                let mut best = f64::MIN;
                for (s, col) in seat_columns.iter().enumerate() {
                    if let Some(v) = col.and_then(|c| row.get(c)) {
                        per_series[s].push(*v);
                        best = best.max(*v);
                    }
                }
                if best > f64::MIN {
                    per_series[r.players].push(best);
                }
            }
            per_series.iter().map(|v| BoxStats::of(v)).collect()
        })
        .collect();
    figure(
        charts::boxes(&charts::Boxes {
            title: "Final scores per game",
            unit: "points",
            groups: r.variants.clone(),
            series,
            values,
        }),
        "Each seat's final score, and the winner's, over every game. Box: quartiles; thick line: median; ◇: mean; whiskers: 2.5th to 97.5th percentile (95% of games).",
    )
}

/// Win share per seat, when every seat has its metric.
fn win_chart(r: &Comparison) -> Option<Markup> {
    let wins = (1..=r.players)
        .map(|s| r.metric_index(&format!("win.seat{s}")))
        .collect::<Option<Vec<usize>>>()?;
    let values = (0..r.variants.len())
        .map(|v| {
            wins.iter()
                .map(|&w| percent(r.metrics[w].values[v].estimate()))
                .collect()
        })
        .collect();
    Some(figure(
        charts::bars(&charts::Bars {
            title: "Win share per seat",
            unit: "% of games won",
            groups: r.variants.clone(),
            series: seat_series(r),
            values,
            reference: Some((
                100.0 / r.players.max(1) as f64,
                format!("even share (1/{})", r.players),
            )),
            decimals: 1,
        }),
        "Share of games each seat wins (a tie splits the win), with 95% confidence intervals. Seats play in turn order: seat 1 places the first tile after the start tile.",
    ))
}

/// Bars of some metrics (groups), one bar per variant; none when the
/// comparison has none of them.
fn bars_of(
    r: &Comparison,
    variants: &[Series],
    metrics: &[(&str, &str)],
    title: &str,
    unit: &str,
    caption: &str,
) -> Option<Markup> {
    let found: Vec<(usize, &str)> = metrics
        .iter()
        .filter_map(|(m, label)| Some((r.metric_index(m)?, *label)))
        .collect();
    if found.is_empty() {
        return None;
    }
    let values = found
        .iter()
        .map(|&(m, _)| r.metrics[m].values.iter().map(|v| v.estimate()).collect())
        .collect();
    Some(figure(
        charts::bars(&charts::Bars {
            title,
            unit,
            groups: found.iter().map(|(_, l)| l.to_string()).collect(),
            series: variants.to_vec(),
            values,
            reference: None,
            decimals: 2,
        }),
        caption,
    ))
}

pub(super) fn percent(e: Estimate) -> Estimate {
    Estimate {
        mean: e.mean * 100.0,
        low: e.low * 100.0,
        high: e.high * 100.0,
        sd: e.sd * 100.0,
        thin: e.thin,
        p: e.p,
    }
}

pub(super) fn figure(chart: Markup, caption: &str) -> Markup {
    html! {
        figure { (chart) figcaption { (caption) } }
    }
}
