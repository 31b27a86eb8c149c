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
mod figures;
mod fires;
mod ladder;
mod names;
mod reader;
mod replay;
pub mod sample;
pub mod sweep;
mod tables;
pub mod timeline;

use maud::{DOCTYPE, Markup, PreEscaped, html};

use crate::analysis::compare::Comparison;
use crate::analysis::ladder::Ladder;
use crate::analysis::verdict::Verdict;
use crate::rules::worths::bot_values_line;
pub use figures::VARIANT_COLOURS;
use figures::{charts_section, variant_colour};
use names::readable;
pub use reader::{Reader, without_options};
pub use replay::VIEWER_GAMES;
pub use sample::{Frame, SampleGame};
use tables::{by_kind_section, table};

const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("viewer.js");

/// The report as one HTML document: the comparison, and the sample games
/// of each variant (`samples[v]`, variant `v`'s in the comparison's order;
/// a variant without any has no viewer).
pub fn html(r: &Comparison, samples: &[Vec<SampleGame>]) -> String {
    html_with_ladder(r, samples, None)
}

/// [`html()`] for `reader`: in a browser, the same page with every mention
/// of a command or an option said in plain words.
pub fn html_for(r: &Comparison, samples: &[Vec<SampleGame>], reader: Reader) -> String {
    page(r, samples, None, reader)
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

#[cfg(test)]
mod tests {
    use super::names::pack_name;
    use super::*;
    use crate::analysis::compare::{Difference, Metric, VariantValue};
    use crate::analysis::stats;

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
