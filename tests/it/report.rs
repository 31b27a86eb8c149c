//! `towerlab compare … --html FILE`: the page's table against `compare
//! --format json`, its sample games against the run's own first games, the
//! game picker and the tile art the page holds once, and the capture marks
//! (T5, T6) in the replay pictures. The page in a browser:
//! `report_browser.rs`.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use serde_json::Value;
use towerlab::kernel::Event;
use towerlab::play::bots::BotKind;
use towerlab::play::seed::game_seed;
use towerlab::play::sim::{self, Batch};
use towerlab::rules::{LoadOptions, Ruleset};
use towerlab::views::report::SampleGame;

use crate::common::{home, towerlab};

/// `towerlab compare tower black-tower --games 30 --bots greedy --html FILE` (written once
/// per test run, under Cargo's temporary folder for integration tests), and
/// the page it wrote.
pub fn report() -> &'static (PathBuf, String) {
    static REPORT: OnceLock<(PathBuf, String)> = OnceLock::new();
    REPORT.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report");
        std::fs::create_dir_all(&dir).expect("temporary folder");
        let path = dir.join("r.html");
        let out = towerlab()
            .args([
                "compare",
                "tower",
                "black-tower",
                "--games",
                "30",
                "--bots",
                "greedy",
                "--html",
            ])
            .arg(&path)
            .output()
            .expect("towerlab runs");
        assert!(
            out.status.success(),
            "compare --html failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let page = std::fs::read_to_string(&path).expect("the report is written");
        (path, page)
    })
}

/// The text of every element `<tag …>…</tag>` in `html`, tags stripped.
fn cells(row: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = row;
    while let Some(open) = rest.find("<td") {
        let start = rest[open..].find('>').map(|p| open + p + 1).unwrap();
        let end = rest[start..].find("</td>").map(|p| start + p).unwrap();
        out.push(rest[start..end].to_string());
        rest = &rest[end..];
    }
    out
}

#[test]
fn report_table_holds_what_compare_prints() {
    let (_, page) = report();
    let out = towerlab()
        .args([
            "compare",
            "tower",
            "black-tower",
            "--games",
            "30",
            "--bots",
            "greedy",
            "--format",
            "json",
        ])
        .output()
        .expect("towerlab runs");
    assert!(out.status.success());
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let metrics = json["metrics"].as_array().expect("metrics");
    assert_eq!(
        metrics.len(),
        towerlab::analysis::stats::metric_names(2).len()
    );
    for m in metrics {
        let name = m["name"].as_str().unwrap();
        let marker = format!("<span class=\"metric\">{name}</span>");
        let at = page
            .find(&marker)
            .unwrap_or_else(|| panic!("no row for `{name}`"));
        let row = &page[at..at + page[at..].find("</tr>").unwrap()];
        let cells = cells(row);
        // tower, black-tower, black-tower − tower.
        assert_eq!(cells.len(), 3, "{name}: {cells:?}");
        for (i, v) in m["values"].as_array().unwrap().iter().enumerate() {
            let (mean, low, high) = (
                v["mean"].as_f64().unwrap(),
                v["ci"][0].as_f64().unwrap(),
                v["ci"][1].as_f64().unwrap(),
            );
            let column = if i == 0 { 0 } else { 1 };
            assert_eq!(
                cells[column],
                towerlab::analysis::stats::mean_text(mean, [low, high], None),
                "{name}, variant {i}"
            );
            if let Some(d) = v.get("diff") {
                let sig = d["survives"].as_bool().unwrap();
                let ci = [d["ci"][0].as_f64().unwrap(), d["ci"][1].as_f64().unwrap()];
                assert_eq!(
                    cells[2],
                    towerlab::analysis::stats::diff_text(
                        d["mean"].as_f64().unwrap(),
                        ci,
                        sig,
                        None
                    ),
                    "{name}: difference"
                );
                // A difference is marked exactly when it survives the
                // adjustment, which only one whose interval excludes 0 can.
                let excludes =
                    d["ci"][0].as_f64().unwrap() > 0.0 || d["ci"][1].as_f64().unwrap() < 0.0;
                assert!(excludes || !sig, "{name}");
                assert_eq!(row.contains("class=\"diff sig\""), sig, "{name}");
            }
        }
    }
}

#[test]
fn report_needs_no_network() {
    let (_, page) = report();
    assert!(page.starts_with("<!DOCTYPE html>"));
    for banned in ["<link", "<img", "<iframe", "@import", "url(http", "src=\""] {
        assert!(!page.contains(banned), "the page holds `{banned}`");
    }
    // Links only within the page.
    for (at, _) in page.match_indices("href=\"") {
        let target = &page[at + 6..];
        assert!(target.starts_with('#'), "a link out: {}", &target[..40]);
    }
    // The only URLs are SVG's namespace.
    for (at, _) in page.match_indices("http") {
        assert!(
            page[at..].starts_with("http://www.w3.org/2000/svg"),
            "a URL: {}",
            &page[at..at + 40]
        );
    }
    // One chart per kind, a viewer per game of each variant.
    for title in [
        "Final scores per game",
        "Win share per seat",
        "Tower events per game",
        "Tower heights",
    ] {
        assert!(page.contains(title), "no chart `{title}`");
    }
    assert_eq!(
        page.matches("<div class=\"viewer\"").count(),
        2 * towerlab::views::report::VIEWER_GAMES as usize
    );
}

/// The run's first game under `variant` (`tower` or `black-tower`), and
/// the same game as a sample (made once per test run).
fn run_and_sample(variant: &str) -> &'static (Ruleset, sim::GameResult, SampleGame) {
    type Made = OnceLock<(Ruleset, sim::GameResult, SampleGame)>;
    static TOWER: Made = OnceLock::new();
    static BLACK_TOWER: Made = OnceLock::new();
    let cell = match variant {
        "tower" => &TOWER,
        "black-tower" => &BLACK_TOWER,
        _ => panic!("no sample for `{variant}`"),
    };
    cell.get_or_init(|| {
        let set = Ruleset::from_variant(&home(), &LoadOptions::default(), variant)
            .expect("variant loads");
        let bots = vec![BotKind::RANDOM; set.players()];
        let batch = Batch {
            set: &set,
            bots: &bots,
            games: 1,
            master_seed: 1,
            threads: 1,
            log: false,
        };
        let result = sim::simulate(&batch, &|_| {}, |_| Ok(()))
            .expect("the run plays")
            .remove(0);
        let pictures = towerlab::views::scene::sample_game(&set, &bots, 0, game_seed(1, 0))
            .expect("sample plays");
        let sample = SampleGame::draw(&pictures, set.tiles());
        (set, result, sample)
    })
}

fn shown_in(node: &roxmltree::Node, frame: usize, frames: usize) -> bool {
    match node.attribute("data-t") {
        None => frames > 0,
        Some(t) => t.split_whitespace().any(|r| {
            let (a, b) = r.split_once('-').unwrap_or((r, r));
            (a.parse::<usize>().unwrap()..=b.parse::<usize>().unwrap()).contains(&frame)
        }),
    }
}

/// Shown in `frame`: the node and every ancestor.
fn visible(node: &roxmltree::Node, frame: usize, frames: usize) -> bool {
    node.ancestors()
        .filter(|n| n.is_element())
        .all(|n| shown_in(&n, frame, frames))
}

#[test]
fn sample_game_is_the_runs_game_0_turn_by_turn() {
    let (_, result, sample) = run_and_sample("tower");
    assert_eq!(sample.scores, result.scores);
    assert_eq!(sample.seed, result.seed);
    // Start, one picture per turn, final scoring.
    let turns = result.stats.turns as usize;
    assert_eq!(sample.frames.len(), turns + 2);
    let doc = roxmltree::Document::parse(&sample.svg).expect("the merged SVG is XML");
    let tiles: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("tile"))
        .collect();
    // Each tile once, from the turn it is placed to the end.
    assert_eq!(tiles.len(), turns + 1);
    for frame in 0..sample.frames.len() {
        let shown = tiles
            .iter()
            .filter(|t| visible(t, frame, sample.frames.len()))
            .count();
        assert_eq!(shown, sample.frames[frame].tiles, "frame {frame}");
        assert_eq!(shown, (frame + 1).min(turns + 1), "frame {frame}");
    }
    let cells: BTreeSet<(&str, &str)> = tiles
        .iter()
        .map(|t| {
            (
                t.attribute("data-x").unwrap(),
                t.attribute("data-y").unwrap(),
            )
        })
        .collect();
    assert_eq!(cells.len(), tiles.len(), "a cell drawn twice");
}

// T5: a floor placed captures a meeple in the tower's range; the picture of
// that turn shows the range (T6) and the meeple taken, where it stood.
#[test]
fn t5_capture_turns_show_the_range_and_the_meeple_taken() {
    for variant in ["tower", "black-tower"] {
        let (set, result, sample) = run_and_sample(variant);
        let captures = (result.stats.captures + result.stats.own_captures) as usize;
        let flagged: Vec<usize> = (0..sample.frames.len())
            .filter(|&f| sample.frames[f].capture)
            .collect();
        assert_eq!(flagged.len(), captures, "{variant}");
        let doc = roxmltree::Document::parse(&sample.svg).unwrap();
        let n = sample.frames.len();
        let of_class = |class: &str| -> Vec<roxmltree::Node> {
            doc.descendants()
                .filter(|d| d.attribute("class") == Some(class))
                .collect()
        };
        // The game's captures, in order, from a recorded replay of it.
        let rules = set.rules();
        let game = sim::play(
            set,
            rules.as_ref(),
            &vec![BotKind::RANDOM; set.players()],
            result.seed,
            true,
        )
        .unwrap();
        let events: Vec<(i32, i32, i32, i32, usize)> = game
            .events()
            .iter()
            .filter_map(|e| match e {
                Event::Capture {
                    tower, at, owner, ..
                } => Some((tower.x, tower.y, at.x, at.y, *owner)),
                _ => None,
            })
            .collect();
        assert_eq!(events.len(), captures);
        for f in 0..n {
            let ranges: Vec<_> = of_class("ranges")
                .into_iter()
                .filter(|r| visible(r, f, n))
                .collect();
            let taken: Vec<_> = of_class("taken")
                .into_iter()
                .filter(|t| visible(t, f, n))
                .collect();
            match flagged.iter().position(|&g| g == f) {
                None => {
                    assert!(
                        ranges.is_empty() && taken.is_empty(),
                        "{variant}: frame {f}"
                    );
                }
                Some(k) => {
                    let (tx, ty, ax, ay, owner) = events[k];
                    assert_eq!(ranges.len(), 1, "{variant}: frame {f}");
                    let at = |n: &roxmltree::Node, a: &str| -> i32 {
                        n.attribute(a).unwrap().parse().unwrap()
                    };
                    assert_eq!(
                        (at(&ranges[0], "data-x"), at(&ranges[0], "data-y")),
                        (tx, ty)
                    );
                    // The taken meeple's cell is in the tower's range.
                    let cells: BTreeSet<(i32, i32)> = ranges[0]
                        .children()
                        .filter(|c| c.attribute("class") == Some("range"))
                        .map(|c| (at(&c, "data-x"), at(&c, "data-y")))
                        .collect();
                    assert!(cells.contains(&(ax - tx, ay - ty)), "{variant}: frame {f}");
                    assert_eq!(taken.len(), 1, "{variant}: frame {f}");
                    assert_eq!((at(&taken[0], "data-x"), at(&taken[0], "data-y")), (ax, ay));
                    assert_eq!(at(&taken[0], "data-owner") as usize, owner);
                    let line = sample.frames[f]
                        .events
                        .iter()
                        .find(|l| l.starts_with("capture:"))
                        .expect("the turn's events name the capture");
                    assert!(line.contains(&format!("at {tx},{ty}")), "{line}");
                }
            }
        }
    }
}

/// The attribute `name` of each element `<tag …>` (its opening tag) in
/// `html`, in order.
fn attributes<'p>(html: &'p str, tag: &str, name: &str) -> Vec<&'p str> {
    let open = format!("<{tag} ");
    let key = format!(" {name}=\"");
    html.match_indices(&open)
        .filter_map(|(at, _)| {
            let head = &html[at..at + html[at..].find('>')?];
            let start = head.find(&key)? + key.len();
            Some(&head[start..start + head[start..].find('"')?])
        })
        .collect()
}

/// The viewer holds the run's first games of each variant (the default
/// count), each picked from its variant's picker, each the run's game of
/// that index (its own seed); the page says how to draw any other game.
#[test]
fn the_viewer_picks_among_each_variants_first_games() {
    let (_, page) = report();
    let n = towerlab::views::report::VIEWER_GAMES;
    assert!(n > 1);
    let games: Vec<String> = (0..n).map(|g| g.to_string()).collect();
    assert_eq!(attributes(page, "select", "data-variant"), ["0", "1"]);
    for (v, name) in ["tower", "black-tower"].iter().enumerate() {
        // The picker of variant v: its games, in order.
        let at = page
            .find(&format!(
                "<select class=\"game-picker\" data-variant=\"{v}\""
            ))
            .expect("a picker");
        let picker = &page[at..at + page[at..].find("</select>").unwrap()];
        assert_eq!(attributes(picker, "option", "value"), games, "{name}");
        // A viewer per game, its seed the run's.
        for g in 0..n {
            let marker = format!("data-variant=\"{v}\" data-game=\"{g}\"");
            assert_eq!(page.matches(&marker).count(), 1, "{name} game {g}");
            let about = format!(
                "{name}: game {g} (seed {}), ",
                towerlab::play::seed::game_seed(1, g)
            );
            assert!(page.contains(&about), "no `{about}`");
        }
    }
    assert_eq!(
        page.matches("<div class=\"viewer\"").count(),
        2 * n as usize
    );
    // Only the first viewer and its variant's picker are shown at first.
    let opening = |marker: &str| -> Vec<&str> {
        page.match_indices(marker)
            .map(|(at, _)| &page[at..at + page[at..].find('>').unwrap()])
            .collect()
    };
    let viewers = opening("<div class=\"viewer\"");
    assert!(viewers[0].contains("data-variant=\"0\" data-game=\"0\""));
    assert!(!viewers[0].contains("hidden"));
    assert!(viewers[1..].iter().all(|v| v.ends_with(" hidden")));
    let pickers = opening("<label class=\"game\"");
    assert_eq!(pickers.len(), 2);
    assert!(!pickers[0].contains("hidden") && pickers[1].ends_with(" hidden"));
    assert!(page.contains("towerlab render --log FILE --game G --variant NAME"));
    assert!(page.contains("--viewer-games N"));
}

/// `--viewer-games N` sets the games per variant (at most the run's);
/// 0 is bad input that says what is allowed.
#[test]
fn viewer_games_sets_the_games_per_variant() {
    let dir = crate::common::temp_dir("viewer-games");
    let path = dir.path().join("r.html");
    let html = path.to_str().unwrap();
    let args = |n: &str| {
        [
            "compare",
            "tower",
            "tower,house/no-gaps",
            "--games",
            "3",
            "--threads",
            "1",
            "--html",
            html,
            "--viewer-games",
            n,
        ]
        .map(String::from)
    };
    let viewers = |n: &str| {
        let out = towerlab().args(args(n)).output().expect("towerlab runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let page = std::fs::read_to_string(&path).unwrap();
        (page.matches("<div class=\"viewer\"").count(), page)
    };
    assert_eq!(viewers("2").0, 4);
    // More than the run played: every game of the run.
    let (count, page) = viewers("50");
    assert_eq!(count, 6);
    // Pack lists read as names, in the tabs and the pictures' headings.
    assert!(!page.contains("tower,house/no-gaps"));
    assert!(
        page.contains(">tower + house/no-gaps · game 2<")
            || page.contains(">tower + house/no-gaps ·</text>") && page.contains(">game 2</text>"),
        "the pictures' heading"
    );
    let out = towerlab().args(args("0")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--viewer-games") && err.contains("from 1 to 200"),
        "{err}"
    );
}

/// Every game's tiles `<use>` tile art the page holds once: each symbol id
/// is defined exactly once, in the page's one hidden tile-art picture, and
/// every reference names one of them.
#[test]
fn the_page_holds_each_tiles_art_once() {
    let (_, page) = report();
    assert_eq!(page.matches("<svg class=\"tile-art\"").count(), 1);
    let art_start = page.find("<svg class=\"tile-art\"").unwrap();
    let art_end = art_start + page[art_start..].find("</svg>").unwrap();
    let ids = attributes(&page[art_start..art_end], "symbol", "id");
    assert!(!ids.is_empty());
    let defined: BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(defined.len(), ids.len(), "a symbol defined twice");
    assert_eq!(
        page.matches("<symbol ").count(),
        ids.len(),
        "symbols outside"
    );
    let uses = attributes(page, "use", "href");
    // Every tile of every game is a use.
    assert_eq!(uses.len(), page.matches("class=\"tile\"").count());
    for href in &uses {
        let id = href.strip_prefix('#').expect("a link in the page");
        assert!(defined.contains(id), "`{href}` names no symbol");
    }
}
