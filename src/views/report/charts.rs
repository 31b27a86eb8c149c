//! Charts as inline SVG: bars with 95% confidence intervals, and box plots
//! of per-game values. Every chart has a title, a labelled value axis with
//! its unit, and a legend. Built with maud's `html!`, so every name and
//! label is escaped by construction.

use maud::{Markup, html};

use crate::analysis::stats::Estimate;

const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 320.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const BOTTOM: f64 = 44.0;
const INK: &str = "#2b2b2b";
const GRID: &str = "#e2ddd3";

/// A series of a chart: its name in the legend and its colour.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub colour: String,
}

/// Bars grouped along the x axis, one per series in each group, each with
/// its 95% interval.
pub struct Bars<'a> {
    pub title: &'a str,
    /// The value axis' label, with its unit.
    pub unit: &'a str,
    pub groups: Vec<String>,
    pub series: Vec<Series>,
    /// `values[group][series]`, already in the axis' unit.
    pub values: Vec<Vec<Estimate>>,
    /// A dashed horizontal line at this value, named in the legend.
    pub reference: Option<(f64, String)>,
    /// Decimals of the values written over the bars.
    pub decimals: usize,
}

/// The five numbers of a box plot, and the mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxStats {
    pub low: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub high: f64,
    pub mean: f64,
}

impl BoxStats {
    /// Quartiles, median, mean, and the 2.5th and 97.5th percentiles (the
    /// whiskers) of `values`; `None` when there are none.
    pub fn of(values: &[f64]) -> Option<BoxStats> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let q = |p: f64| {
            // Linear interpolation between closest ranks.
            let at = p * (v.len() - 1) as f64;
            let (i, f) = (at.floor() as usize, at.fract());
            let next = v[(i + 1).min(v.len() - 1)];
            v[i] + f * (next - v[i])
        };
        Some(BoxStats {
            low: q(0.025),
            q1: q(0.25),
            median: q(0.5),
            q3: q(0.75),
            high: q(0.975),
            mean: v.iter().sum::<f64>() / v.len() as f64,
        })
    }
}

/// Box plots grouped along the x axis, one per series in each group.
pub struct Boxes<'a> {
    pub title: &'a str,
    pub unit: &'a str,
    pub groups: Vec<String>,
    pub series: Vec<Series>,
    /// `values[group][series]`.
    pub values: Vec<Vec<Option<BoxStats>>>,
}

/// Round numbers for an axis from `low` to `high`: (first, step, last).
pub fn ticks(low: f64, high: f64) -> (f64, f64, f64) {
    let span = (high - low).max(1e-9);
    let raw = span / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| span / s <= 6.0)
        .unwrap_or(10.0 * mag);
    let first = (low / step).floor() * step;
    let last = (high / step).ceil() * step;
    (first, step, if last <= first { first + step } else { last })
}

fn fmt(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    if s.starts_with('-') && s.trim_start_matches(['-', '0', '.']).is_empty() {
        s[1..].to_string()
    } else {
        s
    }
}

/// The width of `text` at `size` pixels in DejaVu Sans (the charts' first
/// font), from its glyphs' advances rounded up: narrow, wide and the rest
/// (digits are 0.64 em).
fn text_width(text: &str, size: f64) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 0.33,
            ' ' | 'f' | 't' | 'r' | '-' | '(' | ')' | '[' | ']' | '/' => 0.45,
            'm' | 'w' | 'M' | 'W' | '%' | '@' => 1.0,
            c if c.is_uppercase() => 0.78,
            _ => 0.65,
        })
        .sum();
    em * size
}

/// The font size of the group names under the x axis.
const GROUP_FONT: f64 = 12.5;

/// The font size of the values written over bars.
const VALUE_FONT: f64 = 10.5;

/// The frame of a chart: title, legend, y axis with grid lines, and the
/// value → y mapping; the marks are added to it, then [`Plot::finish`]
/// closes the picture.
struct Plot {
    title: String,
    /// The picture's elements so far, built with `html!` (so escaped).
    marks: Vec<Markup>,
    /// The top of the plotting area (below the legend).
    top: f64,
    /// The bottom of the plotting area (the x axis).
    bottom: f64,
    /// The whole picture's height.
    height: f64,
    /// Group names are written slanted (45°), as they would not fit side
    /// by side.
    slanted: bool,
    /// The leftmost x any mark reaches (below 0 when a slanted name reaches
    /// past the picture's left edge, which then grows to hold it).
    left_edge: f64,
    low: f64,
    high: f64,
}

impl Plot {
    /// A chart whose x axis holds `groups`, named under it: side by side
    /// when every name fits its group's width, else slanted, the picture
    /// growing to hold the longest.
    fn new(
        title: &str,
        unit: &str,
        legend: (&[Series], Option<&str>),
        groups: &[String],
        low: f64,
        high: f64,
    ) -> Plot {
        let (first, step, last) = ticks(low, high);
        let mut marks = vec![html! {
            text x=(LEFT) y="20" font-size="15" font-weight="bold" { (title) }
        }];
        let legend_end = legend_marks(&mut marks, legend.0, legend.1);
        let slot = (WIDTH - LEFT - RIGHT) / groups.len().max(1) as f64;
        let longest = groups
            .iter()
            .map(|g| text_width(g, GROUP_FONT))
            .fold(0.0, f64::max);
        let slanted = longest > slot - 4.0;
        let extra = if slanted {
            longest * std::f64::consts::FRAC_1_SQRT_2 + GROUP_FONT - BOTTOM + 24.0
        } else {
            0.0
        };
        let top = legend_end + 31.0;
        let bottom = top + (HEIGHT - BOTTOM - 62.0);
        let mut plot = Plot {
            title: title.to_string(),
            marks,
            top,
            bottom,
            height: bottom + BOTTOM + extra.max(0.0),
            slanted,
            left_edge: 0.0,
            low: first,
            high: last,
        };
        plot.axis(first, step, last, unit);
        plot
    }

    /// Grid lines with their tick labels, the unit, and the axes.
    fn axis(&mut self, first: f64, step: f64, last: f64, unit: &str) {
        let decimals = if step.fract() == 0.0 {
            0
        } else if (step * 10.0).fract() == 0.0 {
            1
        } else {
            2
        };
        let mut v = first;
        while v <= last + step / 1000.0 {
            let y = format!("{:.1}", self.y(v));
            let label_y = format!("{:.1}", self.y(v) + 4.0);
            self.marks.push(html! {
                line x1=(LEFT) y1=(y) x2=(WIDTH - RIGHT) y2=(y) stroke=(GRID) stroke-width="1" {}
                text class="tick" x=(LEFT - 6.0) y=(label_y) text-anchor="end" font-size="11" { (fmt(v, decimals)) }
            });
            v += step;
        }
        let mid = (self.top + self.bottom) / 2.0;
        let base = self.y(first.max(0.0).min(last));
        self.marks.push(html! {
            text class="unit" x="16" y=(mid) transform=(format!("rotate(-90 16 {mid})")) text-anchor="middle" { (unit) }
            line x1=(LEFT) y1=(self.top) x2=(LEFT) y2=(self.bottom) stroke=(INK) stroke-width="1" {}
            line x1=(LEFT) y1=(base) x2=(WIDTH - RIGHT) y2=(base) stroke=(INK) stroke-width="1" {}
        });
    }

    fn y(&self, v: f64) -> f64 {
        let t = (v - self.low) / (self.high - self.low);
        self.bottom - t * (self.bottom - self.top)
    }

    /// The horizontal extent of group `g` of `n`, with its name under it.
    fn group(&mut self, g: usize, n: usize, name: &str) -> (f64, f64) {
        let w = (WIDTH - LEFT - RIGHT) / n as f64;
        let x0 = LEFT + g as f64 * w;
        let cx = format!("{:.1}", x0 + w / 2.0);
        if self.slanted {
            let reach =
                x0 + w / 2.0 - text_width(name, GROUP_FONT) * std::f64::consts::FRAC_1_SQRT_2;
            self.left_edge = self.left_edge.min(reach - 4.0);
            let y = format!("{:.1}", self.bottom + 14.0);
            self.marks.push(html! {
                text class="group" x=(cx) y=(y) text-anchor="end" font-size=(GROUP_FONT)
                    transform=(format!("rotate(-45 {cx} {y})")) { (name) }
            });
        } else {
            self.marks.push(html! {
                text class="group" x=(cx) y=(self.bottom + 20.0)
                    text-anchor="middle" font-size=(GROUP_FONT) { (name) }
            });
        }
        (x0 + w * 0.12, x0 + w * 0.88)
    }

    fn finish(self) -> Markup {
        let height = format!("{:.0}", self.height.ceil());
        let left = self.left_edge.floor();
        let view = format!("{left} 0 {} {height}", WIDTH - left);
        html! {
            svg xmlns="http://www.w3.org/2000/svg" class="chart"
                viewBox=(view) role="img" aria-label=(self.title)
                font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="12" fill=(INK) {
                @for mark in &self.marks { (mark) }
            }
        }
    }
}

/// The legend under the title, wrapped to the chart's width: a swatch per
/// series and a dashed line for `extra`. Returns the last row's y.
fn legend_marks(marks: &mut Vec<Markup>, legend: &[Series], extra: Option<&str>) -> f64 {
    let (mut x, mut y) = (LEFT, 31.0);
    let mut place = |width: f64| {
        if x > LEFT && x + width > WIDTH - RIGHT {
            x = LEFT;
            y += 17.0;
        }
        let at = (x, y);
        x += width;
        at
    };
    for s in legend {
        let (x, y) = place(32.0 + text_width(&s.name, 12.0));
        marks.push(html! {
            g class="legend" {
                rect x=(x) y=(y) width="12" height="12" fill=(s.colour) stroke=(INK) stroke-width="0.8" {}
                text x=(x + 17.0) y=(y + 10.0) { (s.name) }
            }
        });
    }
    if let Some(extra) = extra {
        let (x, y) = place(32.0 + text_width(extra, 12.0));
        marks.push(html! {
            g class="legend" {
                line x1=(x) y1=(y + 6.0) x2=(x + 18.0) y2=(y + 6.0) stroke=(INK)
                    stroke-width="1.5" stroke-dasharray="5 3" {}
                text x=(x + 23.0) y=(y + 10.0) { (extra) }
            }
        });
    }
    y
}

/// A bar chart with 95% interval whiskers and each mean written on top.
pub fn bars(chart: &Bars) -> Markup {
    let mut high = chart
        .values
        .iter()
        .flatten()
        .map(|e| e.high.max(e.mean))
        .fold(0.0, f64::max);
    if let Some((r, _)) = &chart.reference {
        high = high.max(*r);
    }
    // Room for the labels over the bars.
    high = if high <= 0.0 { 1.0 } else { high * 1.08 };
    let low = chart
        .values
        .iter()
        .flatten()
        .map(|e| e.low.min(e.mean))
        .fold(0.0, f64::min);
    let mut plot = Plot::new(
        chart.title,
        chart.unit,
        (
            &chart.series,
            chart.reference.as_ref().map(|(_, n)| n.as_str()),
        ),
        &chart.groups,
        low,
        high,
    );
    let n = chart.groups.len();
    for (g, name) in chart.groups.iter().enumerate() {
        let (x0, x1) = plot.group(g, n, name);
        let w = (x1 - x0) / chart.series.len().max(1) as f64;
        for (s, series) in chart.series.iter().enumerate() {
            if let Some(e) = chart.values.get(g).and_then(|v| v.get(s)) {
                let bar = bar(
                    &plot,
                    chart,
                    (name, series),
                    x0 + s as f64 * w + w * 0.1,
                    w * 0.8,
                    e,
                );
                plot.marks.push(bar);
            }
        }
    }
    if let Some((r, _)) = &chart.reference {
        let y = format!("{:.1}", plot.y(*r));
        plot.marks.push(html! {
            line class="reference" x1=(LEFT) y1=(y) x2=(WIDTH - RIGHT) y2=(y) stroke=(INK)
                stroke-width="1.5" stroke-dasharray="5 3" {}
        });
    }
    plot.finish()
}

/// One bar at `x`, `bw` wide: its tooltip, the bar, the interval's whisker
/// and the mean written over it.
fn bar(
    plot: &Plot,
    chart: &Bars,
    (group, series): (&str, &Series),
    x: f64,
    bw: f64,
    e: &Estimate,
) -> Markup {
    let zero = plot.y(0.0);
    let top = plot.y(e.mean);
    let (y, h) = (top.min(zero), (top - zero).abs());
    let d = chart.decimals + 1;
    let tip = format!(
        "{group} · {}: {} (95% CI {} to {}) {}",
        series.name,
        fmt(e.mean, d),
        fmt(e.low, d),
        fmt(e.high, d),
        chart.unit
    );
    let cx = x + bw / 2.0;
    let (lo, hi) = (plot.y(e.low), plot.y(e.high));
    // The value over the bar, when it fits the bar's slot (else the
    // tooltip and the table give it).
    let value = fmt(e.mean, chart.decimals);
    let labelled = text_width(&value, VALUE_FONT) <= bw / 0.8 - 2.0;
    let cap = (bw * 0.25).min(6.0);
    let whisker = format!(
        "M{cx:.1} {lo:.1}V{hi:.1}M{:.1} {lo:.1}H{:.1}M{:.1} {hi:.1}H{:.1}",
        cx - cap,
        cx + cap,
        cx - cap,
        cx + cap
    );
    html! {
        g class="bar" {
            title { (tip) }
            rect x=(format!("{x:.1}")) y=(format!("{y:.1}")) width=(format!("{bw:.1}"))
                height=(format!("{h:.1}")) fill=(series.colour) stroke=(INK) stroke-width="0.8" {}
            path class="ci" d=(whisker) stroke=(INK) stroke-width="1.4" fill="none" {}
            @if labelled {
                text class="value" x=(format!("{cx:.1}")) y=(format!("{:.1}", hi.min(top) - 4.0)) text-anchor="middle"
                    font-size=(VALUE_FONT) { (value) }
            }
        }
    }
}

/// Box plots: box from the first to the third quartile, a line at the
/// median, a diamond at the mean, whiskers to the 2.5th and 97.5th
/// percentiles.
pub fn boxes(chart: &Boxes) -> Markup {
    let all = chart.values.iter().flatten().flatten();
    let low = all.clone().map(|b| b.low).fold(f64::MAX, f64::min);
    let high = all.map(|b| b.high).fold(f64::MIN, f64::max);
    let (low, high) = if low > high {
        (0.0, 1.0)
    } else {
        (low.min(0.0), high)
    };
    let mut plot = Plot::new(
        chart.title,
        chart.unit,
        (&chart.series, None),
        &chart.groups,
        low,
        high,
    );
    let n = chart.groups.len();
    for (g, name) in chart.groups.iter().enumerate() {
        let (x0, x1) = plot.group(g, n, name);
        let w = (x1 - x0) / chart.series.len().max(1) as f64;
        for (s, series) in chart.series.iter().enumerate() {
            if let Some(Some(b)) = chart.values.get(g).and_then(|v| v.get(s)) {
                let mark = box_mark(
                    &plot,
                    chart.unit,
                    (name, series),
                    x0 + s as f64 * w + w * 0.15,
                    w * 0.7,
                    b,
                );
                plot.marks.push(mark);
            }
        }
    }
    plot.finish()
}

/// One box at `x`, `bw` wide: its tooltip, whiskers, box, median and mean.
fn box_mark(
    plot: &Plot,
    unit: &str,
    (group, series): (&str, &Series),
    x: f64,
    bw: f64,
    b: &BoxStats,
) -> Markup {
    let cx = x + bw / 2.0;
    let y = |v| plot.y(v);
    let tip = format!(
        "{group} · {}: median {}, quartiles {} to {}, mean {}, 95% of games {} to {} {unit}",
        series.name,
        fmt(b.median, 1),
        fmt(b.q1, 1),
        fmt(b.q3, 1),
        fmt(b.mean, 1),
        fmt(b.low, 1),
        fmt(b.high, 1),
    );
    let whiskers = format!(
        "M{cx:.1} {:.1}V{:.1}M{cx:.1} {:.1}V{:.1}M{:.1} {:.1}H{:.1}M{:.1} {:.1}H{:.1}",
        y(b.high),
        y(b.q3),
        y(b.q1),
        y(b.low),
        cx - bw / 4.0,
        y(b.high),
        cx + bw / 4.0,
        cx - bw / 4.0,
        y(b.low),
        cx + bw / 4.0,
    );
    let m = format!("{:.1}", y(b.median));
    html! {
        g class="box" {
            title { (tip) }
            path d=(whiskers) stroke=(INK) stroke-width="1.2" fill="none" {}
            rect x=(format!("{x:.1}")) y=(format!("{:.1}", y(b.q3))) width=(format!("{bw:.1}"))
                height=(format!("{:.1}", (y(b.q1) - y(b.q3)).max(0.5))) fill=(series.colour)
                stroke=(INK) stroke-width="1" {}
            line x1=(format!("{x:.1}")) y1=(m) x2=(format!("{:.1}", x + bw)) y2=(m) stroke=(INK) stroke-width="2.2" {}
            path d=(format!("M{cx:.1} {:.1}l4 4l-4 4l-4 -4Z", y(b.mean) - 4.0)) fill="#fff"
                stroke=(INK) stroke-width="1.2" {}
        }
    }
}

/// A response curve: a metric's mean at each value of a sweep, joined by a
/// line, over the band of its 95% intervals.
pub struct Curve<'a> {
    pub title: &'a str,
    pub unit: &'a str,
    pub colour: &'a str,
    /// The values swept, left to right.
    pub labels: &'a [String],
    /// The metric at each value (none where it does not exist).
    pub points: Vec<Option<Estimate>>,
}

/// A response curve with its interval band.
pub fn curve(chart: &Curve) -> Markup {
    let known = || chart.points.iter().flatten();
    let low = known().map(|e| e.low.min(e.mean)).fold(f64::MAX, f64::min);
    let high = known().map(|e| e.high.max(e.mean)).fold(f64::MIN, f64::max);
    let (low, high) = if low > high {
        (0.0, 1.0)
    } else {
        (low, high.max(low + 1e-6))
    };
    let legend = [Series {
        name: "mean, 95% interval band".into(),
        colour: chart.colour.into(),
    }];
    let mut plot = Plot::new(
        chart.title,
        chart.unit,
        (&legend, None),
        chart.labels,
        low,
        high,
    );
    let n = chart.labels.len().max(1);
    let mut at: Vec<(f64, Estimate)> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for (g, name) in chart.labels.iter().enumerate() {
        let (x0, x1) = plot.group(g, n, name);
        if let Some(Some(e)) = chart.points.get(g) {
            at.push(((x0 + x1) / 2.0, *e));
            names.push(name);
        }
    }
    let point = |x: f64, v: f64| format!("{x:.1},{:.1}", plot.y(v));
    let band: Vec<String> = at
        .iter()
        .map(|(x, e)| point(*x, e.high))
        .chain(at.iter().rev().map(|(x, e)| point(*x, e.low)))
        .collect();
    let line: Vec<String> = at.iter().map(|(x, e)| point(*x, e.mean)).collect();
    let dots: Vec<(String, String, String)> = at
        .iter()
        .zip(&names)
        .map(|((x, e), name)| {
            let tip = format!("{name}: {:.3} [{:.3}, {:.3}]", e.mean, e.low, e.high);
            (format!("{x:.1}"), format!("{:.1}", plot.y(e.mean)), tip)
        })
        .collect();
    plot.marks.push(html! {
        polygon class="band" points=(band.join(" ")) fill=(chart.colour) fill-opacity="0.22" stroke="none" {}
        polyline class="curve" points=(line.join(" ")) fill="none" stroke=(chart.colour) stroke-width="2" {}
        @for (x, y, tip) in &dots {
            circle cx=(x) cy=(y) r="3.5" fill=(chart.colour) { title { (tip) } }
        }
    });
    plot.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 9.3), (0.0, 2.0, 10.0));
        let (first, step, last) = ticks(0.0, 0.62);
        assert_eq!((first, step), (0.0, 0.2));
        assert!((last - 0.8).abs() < 1e-12);
        let (first, step, last) = ticks(37.0, 141.0);
        assert!(first <= 37.0 && last >= 141.0, "{first} {step} {last}");
        assert_eq!(step, 20.0);
    }

    #[test]
    fn box_stats_of_one_to_five() {
        let b = BoxStats::of(&[5.0, 1.0, 4.0, 2.0, 3.0]).unwrap();
        assert_eq!((b.q1, b.median, b.q3, b.mean), (2.0, 3.0, 4.0, 3.0));
        // 2.5th percentile: 1 + 0.1 * (2 - 1).
        assert!((b.low - 1.1).abs() < 1e-12 && (b.high - 4.9).abs() < 1e-12);
        assert_eq!(BoxStats::of(&[]), None);
    }
}
