//! `towerlab compare … --html FILE`: the comparison as one self-contained
//! HTML page (no network needed to open it: styles, script and pictures are
//! all inline).
//!
//! The page holds the comparison table (as `compare --format table` prints
//! it), charts of per-game values (score distributions, win shares, captures,
//! ransoms and exchanges, tower heights), and a replay viewer of a sample game
//! of each variant, stepped turn by turn with buttons or arrow keys. The
//! viewer's pictures are [`crate::views::render::board_svg`]'s, merged per game into
//! one SVG whose elements name the turns they are shown in
//! ([`timeline`]), so a game costs about one picture, not one per turn.
//!
//! [`html`] takes the comparison (its parameters, estimates and per-game
//! values) and the sample games, and returns the page; writing it is the
//! caller's.

pub mod charts;
pub mod sample;
pub mod timeline;

use std::fmt::Write;

use crate::analysis::compare::Comparison;
use crate::analysis::stats::{self, Estimate};
use crate::views::render::{PLAYER_COLOURS, escape};
use charts::{BoxStats, Series};
pub use sample::{Frame, SampleGame, sample_game, sample_game_within};

/// Colours of variants in charts (seats use the board's player colours).
pub const VARIANT_COLOURS: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#9c755f", "#76b7b2", "#e15759", "#bab0ac",
];

fn variant_colour(v: usize) -> &'static str {
    VARIANT_COLOURS[v % VARIANT_COLOURS.len()]
}

const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("viewer.js");

/// The report as one HTML document: the comparison, and the sample game of
/// each variant (in the comparison's order; fewer, or none, leave out the
/// viewer of the others).
pub fn html(r: &Comparison, samples: &[SampleGame]) -> String {
    let names: Vec<&str> = r.variants.iter().map(String::as_str).collect();
    let title = format!("towerlab: {}", names.join(" vs "));
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        escape(&title)
    );
    let _ = writeln!(out, "<header>\n<h1>{}</h1>", escape(&title));
    let _ = writeln!(
        out,
        "<p class=\"meta\">{} games per variant on the same seeds (master seed {}), {} players, bots {}.</p>",
        r.games,
        r.seed,
        r.players,
        escape(&r.bots.join(", "))
    );
    out.push_str("<ul class=\"variants\">\n");
    for (v, (name, packs)) in r.variants.iter().zip(&r.packs).enumerate() {
        let _ = writeln!(
            out,
            "<li><span class=\"swatch\" style=\"background:{}\"></span><b>{}</b>{}: packs {}</li>",
            variant_colour(v),
            escape(name),
            if v == 0 { " (baseline)" } else { "" },
            escape(&packs.join(" + "))
        );
    }
    out.push_str("</ul>\n<nav><a href=\"#table\">Table</a> · <a href=\"#charts\">Charts</a> · <a href=\"#replay\">Replay</a></nav>\n</header>\n<main>\n");
    table(&mut out, r);
    charts_section(&mut out, r);
    replay_section(&mut out, r, samples);
    let _ = writeln!(
        out,
        "</main>\n<footer>Made by towerlab {}. This page needs no network: its styles, script and pictures are all in this file.</footer>",
        env!("CARGO_PKG_VERSION")
    );
    let _ = write!(out, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

/// The comparison table: mean ± 95% half-width per variant, and each
/// variant's paired difference from the first with its 95% interval.
fn table(out: &mut String, r: &Comparison) {
    out.push_str("<section id=\"table\">\n<h2>Comparison</h2>\n<div class=\"scroll\"><table class=\"compare\">\n<thead><tr><th>metric</th>");
    let base = r.variants.first().map_or("", String::as_str);
    for (v, name) in r.variants.iter().enumerate() {
        let _ = write!(out, "<th>{}</th>", escape(name));
        if v > 0 {
            let _ = write!(out, "<th>{} − {}</th>", escape(name), escape(base));
        }
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for metric in &r.metrics {
        let name = &metric.name;
        let _ = write!(
            out,
            "<tr><th scope=\"row\"><span class=\"metric\">{}</span><span class=\"what\">{}</span></th>",
            escape(name),
            escape(stats::describe(name))
        );
        for value in &metric.values {
            let e = value.estimate();
            let _ = write!(out, "<td>{:.2} ± {:.2}</td>", e.mean, e.half_width());
            if let Some(d) = &value.diff {
                let sig = d.significant;
                let _ = write!(
                    out,
                    "<td class=\"diff{}\">{:+.2} [{:+.2}, {:+.2}]{}</td>",
                    if sig { " sig" } else { "" },
                    d.mean,
                    d.ci[0],
                    d.ci[1],
                    if sig { " *" } else { "" }
                );
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>\n<p class=\"note\">Values: mean ± 95% CI half-width. Differences: paired by seed (each game of a variant against the same deal in the baseline), with their 95% CI; <span class=\"sig\">* marks a difference whose interval excludes 0</span>. Balance intervals are bootstrapped.</p>\n</section>\n");
}

fn charts_section(out: &mut String, r: &Comparison) {
    let index = |name: &str| r.metric_index(name);
    let variants: Vec<Series> = r
        .variants
        .iter()
        .enumerate()
        .map(|(v, name)| Series {
            name: name.clone(),
            colour: variant_colour(v).to_string(),
        })
        .collect();
    let seats: Vec<Series> = (0..r.players)
        .map(|s| Series {
            name: format!("seat {}", s + 1),
            colour: PLAYER_COLOURS[s % PLAYER_COLOURS.len()].to_string(),
        })
        .collect();
    let groups: Vec<String> = r.variants.clone();
    out.push_str("<section id=\"charts\">\n<h2>Charts</h2>\n<div class=\"charts\">\n");

    // Score distribution: each seat's final score, and the winner's.
    let seat_columns: Vec<Option<usize>> = (1..=r.players)
        .map(|s| index(&format!("score.seat{s}")))
        .collect();
    let mut series = seats.clone();
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
        out,
        &charts::boxes(&charts::Boxes {
            title: "Final scores per game",
            unit: "points",
            groups: groups.clone(),
            series,
            values,
        }),
        "Each seat's final score, and the winner's, over every game. Box: quartiles; thick line: median; ◇: mean; whiskers: 2.5th to 97.5th percentile (95% of games).",
    );

    // Win share per seat.
    let wins: Vec<Option<usize>> = (1..=r.players)
        .map(|s| index(&format!("win.seat{s}")))
        .collect();
    if wins.iter().all(Option::is_some) {
        let values = (0..r.variants.len())
            .map(|v| {
                wins.iter()
                    .map(|w| percent(r.metrics[w.unwrap_or(0)].values[v].estimate()))
                    .collect()
            })
            .collect();
        figure(
            out,
            &charts::bars(&charts::Bars {
                title: "Win share per seat",
                unit: "% of games won",
                groups: groups.clone(),
                series: seats.clone(),
                values,
                reference: Some((
                    100.0 / r.players.max(1) as f64,
                    format!("even share (1/{})", r.players),
                )),
                decimals: 1,
            }),
            "Share of games each seat wins (a tie splits the win), with 95% confidence intervals. Seats play in turn order: seat 1 places the first tile after the start tile.",
        );
    }

    // Captures, ransoms, exchanges.
    let events = [
        ("captures", "captures"),
        ("ransoms", "ransoms paid"),
        ("exchanges", "prisoner exchanges"),
    ];
    bars_of(
        out,
        r,
        &variants,
        &events,
        "Tower events per game",
        "count per game",
        "Mean per game with 95% confidence intervals: captures of opponents' meeples (T5), ransoms paid to free a prisoner (T11), and automatic prisoner exchanges (T10).",
    );

    // Tower heights.
    let heights = [
        ("tower_height_mean", "mean height of a built tower"),
        ("tower_height_max", "highest tower of the game"),
    ];
    bars_of(
        out,
        r,
        &variants,
        &heights,
        "Tower heights",
        "floors",
        "Floors per tower at game end, with 95% confidence intervals: the mean over the towers built in a game (at least one floor), and the game's highest tower.",
    );
    out.push_str("</div>\n</section>\n");
}

/// Bars of some metrics (groups), one bar per variant.
fn bars_of(
    out: &mut String,
    r: &Comparison,
    variants: &[Series],
    metrics: &[(&str, &str)],
    title: &str,
    unit: &str,
    caption: &str,
) {
    let found: Vec<(usize, &str)> = metrics
        .iter()
        .filter_map(|(m, label)| Some((r.metric_index(m)?, *label)))
        .collect();
    if found.is_empty() {
        return;
    }
    let values = found
        .iter()
        .map(|&(m, _)| r.metrics[m].values.iter().map(|v| v.estimate()).collect())
        .collect();
    figure(
        out,
        &charts::bars(&charts::Bars {
            title,
            unit,
            groups: found.iter().map(|(_, l)| l.to_string()).collect(),
            series: variants.to_vec(),
            values,
            reference: None,
            decimals: 2,
        }),
        caption,
    );
}

fn percent(e: Estimate) -> Estimate {
    Estimate {
        mean: e.mean * 100.0,
        low: e.low * 100.0,
        high: e.high * 100.0,
        sd: e.sd * 100.0,
    }
}

fn figure(out: &mut String, svg: &str, caption: &str) {
    let _ = writeln!(
        out,
        "<figure>\n{svg}<figcaption>{}</figcaption>\n</figure>",
        escape(caption)
    );
}

/// The replay viewer: one tab per variant's sample game, the controls, and
/// each game's merged pictures with its turns' events as JSON.
fn replay_section(out: &mut String, r: &Comparison, samples: &[SampleGame]) {
    let samples: Vec<(usize, &String, &SampleGame)> = r
        .variants
        .iter()
        .zip(samples)
        .enumerate()
        .map(|(v, (name, sample))| (v, name, sample))
        .collect();
    if samples.is_empty() {
        return;
    }
    out.push_str("<section id=\"replay\">\n<h2>Replay</h2>\n");
    let _ = writeln!(
        out,
        "<p class=\"note\">Game {} of the run in each variant, played again on its seed with the same bots (the same game as in the table). Step with the buttons, the slider or the ← → keys (Home, End: first and last turn). On a capture's turn the capturing tower's range is hatched and the taken meeple is crossed out where it stood.</p>",
        samples[0].2.game
    );
    out.push_str("<div class=\"tabs\" role=\"tablist\">\n");
    for (i, (v, name, _)) in samples.iter().enumerate() {
        let _ = writeln!(
            out,
            "<button type=\"button\" class=\"tab\" role=\"tab\" data-viewer=\"{i}\" aria-selected=\"{}\"><span class=\"swatch\" style=\"background:{}\"></span>{}</button>",
            i == 0,
            variant_colour(*v),
            escape(name)
        );
    }
    out.push_str("</div>\n<div class=\"controls\">\n<button type=\"button\" data-step=\"first\" title=\"first turn (Home)\">« start</button>\n<button type=\"button\" data-step=\"prev-capture\" title=\"previous capture\">◀ capture</button>\n<button type=\"button\" data-step=\"prev\" title=\"previous turn (←)\">◀ back</button>\n<input type=\"range\" class=\"slider\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"turn\">\n<button type=\"button\" data-step=\"next\" title=\"next turn (→)\">next ▶</button>\n<button type=\"button\" data-step=\"next-capture\" title=\"next capture\">capture ▶</button>\n<button type=\"button\" data-step=\"last\" title=\"last turn (End)\">end »</button>\n<span class=\"position\" aria-live=\"polite\"></span>\n<label class=\"zoom\"><input type=\"checkbox\" class=\"full-size\"> full size</label>\n</div>\n");
    for (i, (_, name, sample)) in samples.iter().enumerate() {
        let captures = sample.frames.iter().filter(|f| f.capture).count();
        let frames = serde_json::to_string(&sample.frames)
            .unwrap_or_else(|_| "[]".into())
            .replace('<', "\\u003c");
        let svg = sample
            .svg
            .replace("range-hatch", &format!("range-hatch-{i}"));
        let _ = writeln!(
            out,
            "<div class=\"viewer\" data-viewer=\"{i}\"{}>\n<p class=\"about\">{}: game {} (seed {}), {} turns, {} capture{}; final scores {}.</p>\n<div class=\"turn\"><h3 class=\"label\"></h3><ul class=\"events\"></ul></div>\n<div class=\"board\">\n{svg}</div>\n<script type=\"application/json\" class=\"frames\">{frames}</script>\n</div>",
            if i == 0 { "" } else { " hidden" },
            escape(name),
            sample.game,
            sample.seed,
            sample.frames.len().saturating_sub(2),
            captures,
            if captures == 1 { "" } else { "s" },
            sample
                .scores
                .iter()
                .enumerate()
                .map(|(p, s)| format!("player {} {s}", p + 1))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out.push_str("</section>\n");
}
