//! Charts as inline SVG: bars with 95% confidence intervals, and box plots
//! of per-game values. Every chart has a title, a labelled value axis with
//! its unit, and a legend.

use std::fmt::Write;

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

fn esc(text: &str) -> String {
    super::escape(text)
}

/// The frame of a chart: title, legend, y axis with grid lines; returns the
/// document so far and the value → y mapping.
struct Plot {
    out: String,
    /// The top of the plotting area (below the legend).
    top: f64,
    low: f64,
    high: f64,
    groups: usize,
}

impl Plot {
    fn new(
        title: &str,
        unit: &str,
        legend: &[Series],
        extra: Option<&str>,
        low: f64,
        high: f64,
    ) -> Plot {
        let (first, step, last) = ticks(low, high);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{}\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" font-size=\"12\" fill=\"{INK}\">",
            esc(title)
        );
        let _ = writeln!(
            out,
            "<text x=\"{LEFT}\" y=\"20\" font-size=\"15\" font-weight=\"bold\">{}</text>",
            esc(title)
        );
        // Legend: under the title, wrapped to the chart's width.
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
            let (x, y) = place(32.0 + 7.0 * s.name.chars().count() as f64);
            let _ = writeln!(
                out,
                "<g class=\"legend\"><rect x=\"{x}\" y=\"{y}\" width=\"12\" height=\"12\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"0.8\"/><text x=\"{}\" y=\"{}\">{}</text></g>",
                esc(&s.colour),
                x + 17.0,
                y + 10.0,
                esc(&s.name)
            );
        }
        if let Some(extra) = extra {
            let (x, y) = place(32.0 + 7.0 * extra.chars().count() as f64);
            let _ = writeln!(
                out,
                "<g class=\"legend\"><line x1=\"{x}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{INK}\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/><text x=\"{}\" y=\"{}\">{}</text></g>",
                y + 6.0,
                x + 18.0,
                y + 6.0,
                x + 23.0,
                y + 10.0,
                esc(extra)
            );
        }
        let mut plot = Plot {
            out,
            top: y + 31.0,
            low: first,
            high: last,
            groups: 0,
        };
        // Grid lines and tick labels.
        let decimals = if step.fract() == 0.0 {
            0
        } else if (step * 10.0).fract() == 0.0 {
            1
        } else {
            2
        };
        let mut v = first;
        while v <= last + step / 1000.0 {
            let y = plot.y(v);
            let _ = writeln!(
                plot.out,
                "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\" stroke=\"{GRID}\" stroke-width=\"1\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"11\">{}</text>",
                WIDTH - RIGHT,
                LEFT - 6.0,
                y + 4.0,
                fmt(v, decimals)
            );
            v += step;
        }
        let mid = (plot.top + HEIGHT - BOTTOM) / 2.0;
        let _ = writeln!(
            plot.out,
            "<text x=\"16\" y=\"{mid}\" transform=\"rotate(-90 16 {mid})\" text-anchor=\"middle\">{}</text>",
            esc(unit)
        );
        let _ = writeln!(
            plot.out,
            "<line x1=\"{LEFT}\" y1=\"{}\" x2=\"{LEFT}\" y2=\"{}\" stroke=\"{INK}\" stroke-width=\"1\"/><line x1=\"{LEFT}\" y1=\"{b}\" x2=\"{}\" y2=\"{b}\" stroke=\"{INK}\" stroke-width=\"1\"/>",
            plot.top,
            HEIGHT - BOTTOM,
            WIDTH - RIGHT,
            b = plot.y(first.max(0.0).min(last)),
        );
        plot
    }

    fn y(&self, v: f64) -> f64 {
        let t = (v - self.low) / (self.high - self.low);
        HEIGHT - BOTTOM - t * (HEIGHT - BOTTOM - self.top)
    }

    /// The horizontal extent of group `g` of `n`.
    fn group(&mut self, g: usize, n: usize, name: &str) -> (f64, f64) {
        self.groups = n;
        let w = (WIDTH - LEFT - RIGHT) / n as f64;
        let x0 = LEFT + g as f64 * w;
        let _ = writeln!(
            self.out,
            "<text class=\"group\" x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" font-size=\"12.5\">{}</text>",
            x0 + w / 2.0,
            HEIGHT - BOTTOM + 20.0,
            esc(name)
        );
        (x0 + w * 0.12, x0 + w * 0.88)
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// A bar chart with 95% interval whiskers and each mean written on top.
pub fn bars(chart: &Bars) -> String {
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
        &chart.series,
        chart.reference.as_ref().map(|(_, n)| n.as_str()),
        low,
        high,
    );
    let zero = plot.y(0.0);
    let n = chart.groups.len();
    for (g, name) in chart.groups.iter().enumerate() {
        let (x0, x1) = plot.group(g, n, name);
        let k = chart.series.len().max(1);
        let w = (x1 - x0) / k as f64;
        for (s, series) in chart.series.iter().enumerate() {
            let Some(e) = chart.values.get(g).and_then(|v| v.get(s)) else {
                continue;
            };
            let x = x0 + s as f64 * w + w * 0.1;
            let bw = w * 0.8;
            let top = plot.y(e.mean);
            let (y, h) = (top.min(zero), (top - zero).abs());
            let tip = format!(
                "{} · {}: {} (95% CI {} to {}) {}",
                name,
                series.name,
                fmt(e.mean, chart.decimals + 1),
                fmt(e.low, chart.decimals + 1),
                fmt(e.high, chart.decimals + 1),
                chart.unit
            );
            let _ = writeln!(
                plot.out,
                "<g class=\"bar\"><title>{}</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{bw:.1}\" height=\"{h:.1}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"0.8\"/>",
                esc(&tip),
                esc(&series.colour)
            );
            let cx = x + bw / 2.0;
            let (lo, hi) = (plot.y(e.low), plot.y(e.high));
            let cap = (bw * 0.25).min(6.0);
            let _ = writeln!(
                plot.out,
                "<path class=\"ci\" d=\"M{cx:.1} {lo:.1}V{hi:.1}M{:.1} {lo:.1}H{:.1}M{:.1} {hi:.1}H{:.1}\" stroke=\"{INK}\" stroke-width=\"1.4\" fill=\"none\"/>",
                cx - cap,
                cx + cap,
                cx - cap,
                cx + cap
            );
            let _ = writeln!(
                plot.out,
                "<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"10.5\">{}</text></g>",
                hi.min(top) - 4.0,
                fmt(e.mean, chart.decimals)
            );
        }
    }
    if let Some((r, _)) = &chart.reference {
        let y = plot.y(*r);
        let _ = writeln!(
            plot.out,
            "<line class=\"reference\" x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{}\" y2=\"{y:.1}\" stroke=\"{INK}\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>",
            WIDTH - RIGHT
        );
    }
    plot.finish()
}

/// Box plots: box from the first to the third quartile, a line at the
/// median, a diamond at the mean, whiskers to the 2.5th and 97.5th
/// percentiles.
pub fn boxes(chart: &Boxes) -> String {
    let all = chart.values.iter().flatten().flatten();
    let low = all.clone().map(|b| b.low).fold(f64::MAX, f64::min);
    let high = all.map(|b| b.high).fold(f64::MIN, f64::max);
    let (low, high) = if low > high {
        (0.0, 1.0)
    } else {
        (low.min(0.0), high)
    };
    let mut plot = Plot::new(chart.title, chart.unit, &chart.series, None, low, high);
    let n = chart.groups.len();
    for (g, name) in chart.groups.iter().enumerate() {
        let (x0, x1) = plot.group(g, n, name);
        let k = chart.series.len().max(1);
        let w = (x1 - x0) / k as f64;
        for (s, series) in chart.series.iter().enumerate() {
            let Some(Some(b)) = chart.values.get(g).and_then(|v| v.get(s)) else {
                continue;
            };
            let x = x0 + s as f64 * w + w * 0.15;
            let bw = w * 0.7;
            let cx = x + bw / 2.0;
            let y = |v| plot.y(v);
            let tip = format!(
                "{} · {}: median {}, quartiles {} to {}, mean {}, 95% of games {} to {} {}",
                name,
                series.name,
                fmt(b.median, 1),
                fmt(b.q1, 1),
                fmt(b.q3, 1),
                fmt(b.mean, 1),
                fmt(b.low, 1),
                fmt(b.high, 1),
                chart.unit
            );
            let body = format!(
                "<g class=\"box\"><title>{}</title><path d=\"M{cx:.1} {:.1}V{:.1}M{cx:.1} {:.1}V{:.1}M{:.1} {:.1}H{:.1}M{:.1} {:.1}H{:.1}\" stroke=\"{INK}\" stroke-width=\"1.2\" fill=\"none\"/><rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"1\"/><line x1=\"{x:.1}\" y1=\"{m:.1}\" x2=\"{:.1}\" y2=\"{m:.1}\" stroke=\"{INK}\" stroke-width=\"2.2\"/><path d=\"M{cx:.1} {:.1}l4 4l-4 4l-4 -4Z\" fill=\"#fff\" stroke=\"{INK}\" stroke-width=\"1.2\"/></g>",
                esc(&tip),
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
                y(b.q3),
                (y(b.q1) - y(b.q3)).max(0.5),
                esc(&series.colour),
                x + bw,
                y(b.mean) - 4.0,
                m = y(b.median),
            );
            plot.out.push_str(&body);
            plot.out.push('\n');
        }
    }
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
