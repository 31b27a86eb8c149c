//! `towerlab compare … --html FILE`: the comparison as one self-contained
//! HTML page (no network needed to open it: styles, script and pictures are
//! all inline).
//!
//! The page holds the verdict in words (`analysis::verdict`), the
//! comparison table (as `compare --format table` prints it; its metric
//! column pinned when it scrolls sideways), the per-floor-kind metrics as
//! their own table (`--by-kind`), charts of per-game values (group names
//! slanted when they would not fit side by side) (score distributions, win shares, captures,
//! ransoms and exchanges, tower heights), and a replay viewer of the run's
//! first games of each variant (`replay`: a game picker per variant),
//! stepped turn by turn with buttons or arrow keys. The viewer's pictures
//! are [`crate::views::render::board`]'s, merged per game into one SVG whose
//! elements name the turns they are shown in ([`timeline`]), so a game costs
//! about one picture, not one per turn; the tile art of every game is drawn
//! once for the page (`<symbol>`s the tiles `<use>`).
//!
//! The page is built with maud's `html!`, which escapes every spliced
//! value; only the pictures, the style sheet, the script and the frames'
//! JSON go in as they are ([`PreEscaped`]).
//!
//! [`html()`] takes the comparison (its parameters, estimates and per-game
//! values) and the sample games, and returns the page; writing it is the
//! caller's.

pub mod charts;
mod fires;
mod ladder;
mod replay;
pub mod sample;
pub mod sweep;
pub mod timeline;

use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::analysis::compare::{Comparison, Metric};
use crate::analysis::ladder::Ladder;
use crate::analysis::stats::{self, Estimate};
use crate::analysis::verdict::Verdict;
use crate::rules::worths::bot_values_line;
use crate::views::render::PLAYER_COLOURS;
use charts::{BoxStats, Series};
pub use replay::VIEWER_GAMES;
pub use sample::{Frame, SampleGame};

/// Colours of variants in charts (seats use the board's player colours).
pub const VARIANT_COLOURS: [&str; 8] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#9c755f", "#76b7b2", "#e15759", "#bab0ac",
];

pub(super) fn variant_colour(v: usize) -> &'static str {
    VARIANT_COLOURS[v % VARIANT_COLOURS.len()]
}

/// The comparison with names as the page shows them: a pack given by path
/// (`./x`) by its folder's name, and a pack-list variant (`tower,./x`) as its
/// packs' names joined by " + ".
fn readable(r: &Comparison) -> Comparison {
    let mut named = r.clone();
    for v in &mut named.variants {
        *v = readable_variant(v);
    }
    for packs in &mut named.packs {
        for p in packs.iter_mut() {
            *p = pack_name(p).to_string();
        }
    }
    named
}

/// A variant's name as the page shows it: a pack list as its packs' names
/// joined by " + ".
fn readable_variant(v: &str) -> String {
    if v.contains(',') {
        v.split(',')
            .map(|p| pack_name(p.trim()))
            .collect::<Vec<_>>()
            .join(" + ")
    } else {
        v.to_string()
    }
}

/// A pack's name: a path's last folder, else the name as given.
fn pack_name(pack: &str) -> &str {
    if pack.starts_with('.') || pack.starts_with('/') {
        pack.trim_end_matches('/')
            .rsplit('/')
            .next()
            .filter(|n| !n.is_empty())
            .unwrap_or(pack)
    } else {
        pack
    }
}

const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("viewer.js");

/// The report as one HTML document: the comparison, and the sample games
/// of each variant (`samples[v]`, variant `v`'s in the comparison's order;
/// a variant without any has no viewer).
pub fn html(r: &Comparison, samples: &[Vec<SampleGame>]) -> String {
    html_with_ladder(r, samples, None)
}

/// Who reads the report: one with the command line at hand (`compare
/// --html`), or someone in a browser (the studio), whom the page never
/// asks to run a command or set an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    CommandLine,
    Browser,
}

/// [`html()`] for `reader`: in a browser, the same page with every mention
/// of a command or an option said in plain words.
pub fn html_for(r: &Comparison, samples: &[Vec<SampleGame>], reader: Reader) -> String {
    page(r, samples, None, reader)
}

/// A sentence of the verdict for a reader with no command line: its
/// mention of the option that sets the practical thresholds left out.
pub fn without_options(sentence: &str) -> String {
    sentence.replace(", --min-effect)", ")")
}

/// [`html()`], with a skill ladder's section when there is one (`r` is then
/// its strongest level's comparison).
pub fn html_with_ladder(
    r: &Comparison,
    samples: &[Vec<SampleGame>],
    skill: Option<&Ladder>,
) -> String {
    page(r, samples, skill, Reader::CommandLine)
}

/// The report for `reader`, with a skill ladder's section when there is one.
fn page(
    r: &Comparison,
    samples: &[Vec<SampleGame>],
    skill: Option<&Ladder>,
    reader: Reader,
) -> String {
    let named = readable(r);
    let r = &named;
    let title = format!("towerlab: {}", r.variants.join(" vs "));
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
                (header(r, &title, skill.is_some()))
                main {
                    (verdict_section(&Verdict::of_run(r, skill), reader))
                    @if let Some(l) = skill { (ladder::section(l)) }
                    (table(r, reader))
                    @if !r.by_kind.is_empty() { (by_kind_section(r)) }
                    @if let Some(fires) = &r.fires { (fires::section(r, fires)) }
                    (charts_section(r))
                    (replay::section(&r.variants, samples))
                }
                footer {
                    "Made by towerlab " (env!("CARGO_PKG_VERSION"))
                    ". This page needs no network: its styles, script and pictures are all in this file."
                }
                script { "\n" (PreEscaped(SCRIPT)) }
            }
        }
    };
    page.into_string()
}

/// The title, the run's parameters, the variants and the page's sections.
fn header(r: &Comparison, title: &str, skill: bool) -> Markup {
    html! {
        header {
            h1 { (title) }
            p class="meta" {
                (r.games) " games per variant on the same seeds (master seed " (r.seed) "), "
                (r.players) " players, bots " (r.bots.join(", ")) "; "
                (bot_values_line(&r.variants, &r.bot_values)) "."
            }
            ul class="variants" {
                @for (v, (name, packs)) in r.variants.iter().zip(&r.packs).enumerate() {
                    li {
                        span class="swatch" style=(format!("background:{}", variant_colour(v))) {}
                        b { (name) }
                        @if v == 0 { " (baseline)" }
                        ": packs " (packs.join(" + "))
                    }
                }
            }
            nav {
                a href="#verdict" { "Verdict" } " · "
                @if skill { a href="#skill" { "Skill" } " · " }
                a href="#table" { "Table" } " · "
                @if !r.by_kind.is_empty() { a href="#by-kind" { "By floor kind" } " · " }
                @if r.fires.is_some() { a href="#fires" { "Did the rules fire?" } " · " }
                a href="#charts" { "Charts" } " · "
                a href="#replay" { "Replay" }
            }
        }
    }
}

/// The verdict in words, at the top of the page.
fn verdict_section(v: &Verdict, reader: Reader) -> Markup {
    let said = |sentence: &String| match reader {
        Reader::CommandLine => sentence.clone(),
        Reader::Browser => without_options(sentence),
    };
    html! {
        section id="verdict" {
            h2 { "Verdict" }
            div class="verdict" {
                @for sentence in &v.sentences { p class="sentence" { (said(sentence)) } }
            }
        }
    }
}

/// The comparison table: mean ± 95% half-width per variant, and each
/// variant's paired difference from the first with its 95% interval.
fn table(r: &Comparison, reader: Reader) -> Markup {
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
fn by_kind_section(r: &Comparison) -> Markup {
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

fn charts_section(r: &Comparison) -> Markup {
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

fn percent(e: Estimate) -> Estimate {
    Estimate {
        mean: e.mean * 100.0,
        low: e.low * 100.0,
        high: e.high * 100.0,
        sd: e.sd * 100.0,
        thin: e.thin,
        p: e.p,
    }
}

fn figure(chart: Markup, caption: &str) -> Markup {
    html! {
        figure { (chart) figcaption { (caption) } }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::compare::{Difference, VariantValue};

    /// A comparison of two variants whose names and bots are markup.
    fn hostile() -> Comparison {
        let names = ["<b>a</b>", "x\" onload=\"alert(1)"];
        let value = |v: usize| VariantValue {
            variant: names[v].to_string(),
            mean: 1.0,
            ci: [0.5, 1.5],
            no_interval: None,
            diff: (v > 0).then_some(Difference {
                mean: 0.25,
                ci: [0.1, 0.4],
                sd: 1.0,
                significant: true,
                no_interval: None,
                p: 0.001,
                p_adjusted: 0.002,
                survives: true,
            }),
        };
        Comparison {
            variants: names.map(String::from).to_vec(),
            packs: vec![vec!["<p>".into()], vec!["&".into()]],
            decks: None,
            games: 1,
            players: 2,
            bots: vec!["<i>".into(), "random".into()],
            bot_values: vec!["defaults".into(), "<tuned>".into()],
            seed: 1,
            threads: 1,
            seconds: 0.0,
            games_per_sec: 0.0,
            metrics: stats::metric_names(2)
                .into_iter()
                .map(|name| Metric {
                    name,
                    values: vec![value(0), value(1)],
                })
                .collect(),
            by_kind: Vec::new(),
            per_game: vec![vec![vec![1.0; 21]]; 2],
            first_games: Vec::new(),
            kinds: Vec::new(),
            stopping: None,
            fires: None,
            min_effect: Default::default(),
        }
    }

    /// The page's words, its style sheet and script left out.
    fn words_of(page: &str) -> String {
        let mut out = page.to_string();
        for (open, close) in [("<style", "</style>"), ("<script", "</script>")] {
            while let Some(start) = out.find(open) {
                let end = start + out[start..].find(close).unwrap() + close.len();
                out.replace_range(start..end, "");
            }
        }
        out
    }

    /// The options (`--name`) `text` mentions.
    fn options_in(text: &str) -> Vec<String> {
        text.match_indices("--")
            .filter_map(|(i, _)| {
                let name: String = text[i + 2..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                    .collect();
                (!name.is_empty()).then(|| format!("--{name}"))
            })
            .collect()
    }

    /// The report for a browser (the studio's) asks for no command and no
    /// option: where the command line's report points to `towerlab compare
    /// --explain` and to `--min-effect`, it says the same in plain words.
    #[test]
    fn a_browsers_report_names_no_command_or_option() {
        let c = hostile();
        let terminal = words_of(&html(&c, &[]));
        assert!(
            terminal.contains("towerlab compare --explain"),
            "{terminal}"
        );
        assert!(options_in(&terminal).contains(&"--min-effect".to_string()));
        let browser = words_of(&html_for(&c, &[], Reader::Browser));
        assert_eq!(options_in(&browser), Vec::<String>::new());
        assert!(!browser.contains("towerlab compare"), "{browser}");
        assert!(browser.contains("Every metric is defined under its name in the table."));
        assert!(browser.contains("practical threshold)"), "{browser}");
    }

    #[test]
    fn names_are_escaped_by_construction() {
        let page = html(&hostile(), &[]);
        for raw in ["<b>a</b>", "\" onload=", "<p>", "<i>"] {
            assert!(!page.contains(raw), "`{raw}` is in the page unescaped");
        }
        assert!(page.contains("&lt;b&gt;a&lt;/b&gt;"));
        assert!(page.contains("packs &amp;"));
    }

    #[test]
    fn pack_lists_read_as_names() {
        assert_eq!(pack_name("./docs/examples/red-floor/"), "red-floor");
        assert_eq!(pack_name("house/no-gaps"), "house/no-gaps");
        let mut c = hostile();
        c.variants = vec!["tower".into(), "tower,./x".into()];
        c.packs = vec![vec!["tower".into()], vec!["tower".into(), "./x".into()]];
        let r = readable(&c);
        assert_eq!(r.variants, ["tower", "tower + x"]);
        assert_eq!(r.packs[1], ["tower", "x"]);
    }

    #[test]
    fn a_difference_that_depends_on_skill_is_flagged_and_charted() {
        use crate::analysis::ladder::{Across, Ladder, SkillGap, Trace};
        let c = hostile();
        let d = |mean: f64| Difference {
            mean,
            ci: [mean - 0.2, mean + 0.2],
            sd: 1.0,
            significant: true,
            no_interval: None,
            p: 0.001,
            p_adjusted: 0.002,
            survives: true,
        };
        let ladder = Ladder {
            levels: vec!["random".into(), "greedy".into()],
            runs: vec![c.clone(), c.clone()],
            across: vec![Across {
                metric: "captures".into(),
                variant: "tower,./x".into(),
                diffs: vec![d(0.5), d(-6.6)],
                depends_on_skill: true,
            }],
            skill_gaps: vec![SkillGap {
                variant: "tower".into(),
                stronger: "greedy".into(),
                weaker: "random".into(),
                games: 10,
                win_share: 0.9,
                ci: [0.6, 0.98],
                even_share: 0.5,
            }],
            traces: vec![Trace {
                metric: "captures".into(),
                variant: "tower".into(),
                means: vec![2.5, 17.5],
                cis: vec![[2.0, 3.0], [17.0, 18.0]],
            }],
        };
        let page = html_with_ladder(&c, &[], Some(&ladder));
        assert!(page.contains("Captures by level"));
        assert!(page.contains("<td class=\"skill sig\">depends on skill</td>"));
        assert!(page.contains("Difference in captures by level"));
        assert!(page.contains("tower + x − baseline"));
        assert!(page.contains("href=\"#skill\""));
        assert!(!html(&c, &[]).contains("id=\"skill\""));
    }

    #[test]
    fn a_significant_difference_is_marked() {
        let page = html(&hostile(), &[]);
        assert!(page.contains("<td class=\"diff sig\">+0.25 [+0.10, +0.40] *</td>"));
        assert!(!page.contains("id=\"replay\""), "no samples, no viewer");
    }
}
