//! `towerlab compare … --html FILE`: the page's table against `compare
//! --format json`, its sample games against the run's own game 0, the
//! capture marks (T5, T6) in the replay pictures, and the page in a real
//! browser (Debian's headless Chromium, driven over the DevTools protocol by
//! headless_chrome): no console errors, no network, the viewer steps through
//! a game, and a screenshot.
//!
//! The browser test is marked ignored when `chromium` was not on `PATH` at
//! build time (build.rs sets the cfg `no_browser`), unless
//! `TOWERLAB_REQUIRE_BROWSER=1` (as in CI), where a missing browser fails it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use base64::prelude::{BASE64_STANDARD, Engine};
use headless_chrome::protocol::cdp::types::Event as CdpEvent;
use headless_chrome::protocol::cdp::{Log, Network, Page as CdpPage, Runtime};
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::{Value, json};
use towerlab::kernel::Event;
use towerlab::play::bots::BotKind;
use towerlab::play::seed::game_seed;
use towerlab::play::sim::{self, Batch};
use towerlab::rules::Ruleset;
use towerlab::views::report::SampleGame;

use crate::common::{home, towerlab};

/// `towerlab compare tower black-tower --games 30 --bots greedy --html FILE` (written once
/// per test run, under Cargo's temporary folder for integration tests), and
/// the page it wrote.
fn report() -> &'static (PathBuf, String) {
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
                format!("{mean:.2} ± {:.2}", (high - low) / 2.0),
                "{name}, variant {i}"
            );
            if let Some(d) = v.get("diff") {
                let sig = d["significant"].as_bool().unwrap();
                assert_eq!(
                    cells[2],
                    format!(
                        "{:+.2} [{:+.2}, {:+.2}]{}",
                        d["mean"].as_f64().unwrap(),
                        d["ci"][0].as_f64().unwrap(),
                        d["ci"][1].as_f64().unwrap(),
                        if sig { " *" } else { "" }
                    ),
                    "{name}: difference"
                );
                // A difference is marked exactly when its interval excludes 0.
                let excludes =
                    d["ci"][0].as_f64().unwrap() > 0.0 || d["ci"][1].as_f64().unwrap() < 0.0;
                assert_eq!(sig, excludes, "{name}");
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
    // One chart per kind, one viewer per variant.
    for title in [
        "Final scores per game",
        "Win share per seat",
        "Tower events per game",
        "Tower heights",
    ] {
        assert!(page.contains(title), "no chart `{title}`");
    }
    assert_eq!(page.matches("<div class=\"viewer\"").count(), 2);
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
        let set = Ruleset::from_variant(&home(), variant).expect("variant loads");
        let bots = vec![BotKind::Random; set.players];
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
        let pictures = towerlab::play::sample::sample_game(&set, &bots, 0, game_seed(1, 0))
            .expect("sample plays");
        let sample = SampleGame::draw(&pictures, &set.tiles);
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
            &set.tiles,
            rules.as_ref(),
            &vec![BotKind::Random; set.players],
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

// ---------------------------------------------------------------------------
// The page in a browser.

/// The browser, when installed.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("chromium"))
        .find(|p| p.is_file())
}

/// What the page did that the test listens for: problems (exceptions,
/// console errors and warnings, log entries) and the URLs it requested.
#[derive(Default)]
struct Heard {
    problems: Vec<String>,
    requests: Vec<String>,
}

/// Headless Chromium (Debian's, at `exe`) with one page open, its runtime,
/// log and network events listened to. The browser quits when dropped.
struct Page {
    _browser: Browser,
    tab: Arc<Tab>,
    heard: Arc<Mutex<Heard>>,
}

impl Page {
    fn open(exe: &Path) -> Page {
        let options = LaunchOptions::default_builder()
            .path(Some(exe.to_path_buf()))
            .headless(true)
            .sandbox(false)
            .window_size(Some((1280, 900)))
            // A loaded machine may keep the test busy between two calls.
            .idle_browser_timeout(Duration::from_secs(300))
            .build()
            .expect("browser options");
        let browser = Browser::new(options).expect("chromium starts");
        let tab = browser.new_tab().expect("a page");
        tab.set_default_timeout(Duration::from_secs(60));
        let heard = Arc::new(Mutex::new(Heard::default()));
        let sink = heard.clone();
        tab.add_event_listener(Arc::new(move |event: &CdpEvent| {
            listen(&mut sink.lock().unwrap(), event)
        }))
        .expect("an event listener");
        tab.enable_runtime().expect("Runtime.enable");
        tab.enable_log().expect("Log.enable");
        tab.call_method(Network::Enable {
            max_total_buffer_size: None,
            max_resource_buffer_size: None,
            max_post_data_size: None,
            report_direct_socket_traffic: None,
            enable_durable_messages: None,
        })
        .expect("Network.enable");
        Page {
            _browser: browser,
            tab,
            heard,
        }
    }

    /// Load `url` and wait until the page has loaded.
    fn load(&self, url: &str) {
        self.tab
            .navigate_to(url)
            .and_then(|t| t.wait_until_navigated())
            .unwrap_or_else(|e| panic!("loading {url}: {e}"));
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.eval("document.readyState") != json!("complete") {
            assert!(
                Instant::now() < deadline,
                "{url} did not load within a minute"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Evaluate a JavaScript expression in the page; its value.
    fn eval(&self, expression: &str) -> Value {
        let r = self
            .tab
            .evaluate(expression, false)
            .unwrap_or_else(|e| panic!("`{expression}`: {e}"));
        if r.subtype == Some(Runtime::RemoteObjectSubtype::Error) {
            panic!("`{expression}` threw: {:?}", r.description);
        }
        r.value.unwrap_or(Value::Null)
    }

    fn key(&self, key: &str) {
        self.tab
            .press_key(key)
            .unwrap_or_else(|e| panic!("key {key}: {e}"));
    }

    /// A real mouse click in the middle of the element `selector`.
    fn click(&self, selector: &str) {
        self.tab
            .find_element(selector)
            .and_then(|e| e.click().map(|_| ()))
            .unwrap_or_else(|e| panic!("click {selector}: {e}"));
    }

    /// A PNG of the whole page, `height` pixels tall.
    fn screenshot(&self, height: f64) -> Vec<u8> {
        let shot = self
            .tab
            .call_method(CdpPage::CaptureScreenshot {
                format: Some(CdpPage::CaptureScreenshotFormatOption::Png),
                quality: None,
                clip: Some(CdpPage::Viewport {
                    x: 0.0,
                    y: 0.0,
                    width: 1280.0,
                    height,
                    scale: 1.0,
                }),
                from_surface: Some(true),
                capture_beyond_viewport: Some(true),
                optimize_for_speed: None,
            })
            .expect("Page.captureScreenshot");
        BASE64_STANDARD
            .decode(shot.data)
            .expect("a base64 screenshot")
    }
}

/// Note an event of the page that the test cares about.
fn listen(heard: &mut Heard, event: &CdpEvent) {
    match event {
        CdpEvent::RuntimeExceptionThrown(e) => heard
            .problems
            .push(format!("exception: {:?}", e.params.exception_details)),
        CdpEvent::RuntimeConsoleAPICalled(e) => {
            use Runtime::ConsoleAPICalledEventTypeOption as Kind;
            if matches!(e.params.Type, Kind::Error | Kind::Assert | Kind::Warning) {
                heard
                    .problems
                    .push(format!("console {:?}: {:?}", e.params.Type, e.params.args));
            }
        }
        CdpEvent::LogEntryAdded(e) => {
            use Log::LogEntryLevel as Level;
            if matches!(e.params.entry.level, Level::Error | Level::Warning) {
                heard.problems.push(format!("log: {:?}", e.params.entry));
            }
        }
        CdpEvent::NetworkRequestWillBeSent(e) => {
            heard.requests.push(e.params.request.url.clone());
        }
        _ => {}
    }
}

/// Tiles drawn (not hidden) in the viewer on show.
const DRAWN_TILES: &str = "[...document.querySelectorAll('#replay .viewer:not([hidden]) g.tile')].filter(e => e.getClientRects().length > 0).length";
const ALL_TILES: &str = "document.querySelectorAll('#replay .viewer:not([hidden]) g.tile').length";
const HEADING: &str =
    "document.querySelector('#replay .viewer:not([hidden]) .turn .label').textContent";

#[test]
#[cfg_attr(
    no_browser,
    ignore = "`chromium` is not on PATH (apt-get install chromium; TOWERLAB_REQUIRE_BROWSER=1 requires it)"
)]
fn report_opens_in_chromium_and_steps_through_a_game() {
    let required = std::env::var("TOWERLAB_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    let Some(exe) = chromium() else {
        assert!(
            !required,
            "TOWERLAB_REQUIRE_BROWSER=1 but `chromium` is not on PATH (apt-get install chromium)"
        );
        eprintln!(
            "skipped report_opens_in_chromium_and_steps_through_a_game: `chromium` is not installed (apt-get install chromium; CI sets TOWERLAB_REQUIRE_BROWSER=1 to require it)"
        );
        return;
    };
    let dir = crate::common::temp_dir("report-browser");
    let (path, _) = report();
    let page = Page::open(&exe);
    let file = format!("file://{}", path.canonicalize().unwrap().display());
    page.load(&file);
    assert_eq!(
        page.eval("document.title"),
        json!("towerlab: tower vs black-tower")
    );

    // Start: the start tile alone; → and ← step; the buttons too.
    assert_eq!(page.eval(DRAWN_TILES), json!(1));
    assert_eq!(page.eval(HEADING), json!("Start tile"));
    page.key("ArrowRight");
    assert_eq!(page.eval(DRAWN_TILES), json!(2));
    page.key("ArrowRight");
    assert_eq!(page.eval(DRAWN_TILES), json!(3));
    assert_eq!(
        page.eval(HEADING).as_str().unwrap().split(" of ").next(),
        Some("Turn 2")
    );
    page.key("ArrowLeft");
    assert_eq!(page.eval(DRAWN_TILES), json!(2));
    page.click("[data-step=\"prev\"]");
    assert_eq!(page.eval(DRAWN_TILES), json!(1));
    page.click("[data-step=\"next\"]");
    assert_eq!(page.eval(DRAWN_TILES), json!(2));
    // End (the viewer has the focus after a click): every tile.
    page.key("End");
    let all = page.eval(ALL_TILES);
    assert!(all.as_u64().unwrap() > 40, "{all} tiles");
    assert_eq!(page.eval(DRAWN_TILES), all);
    assert_eq!(page.eval(HEADING), json!("End: final scoring"));

    // The first capture: the range and the meeple taken are drawn.
    page.click("[data-step=\"first\"]");
    assert_eq!(page.eval(DRAWN_TILES), json!(1));
    let has_capture = page.eval("!document.querySelector('[data-step=\"next-capture\"]').disabled");
    if has_capture == json!(true) {
        page.click("[data-step=\"next-capture\"]");
        let shown = |class: &str| {
            page.eval(&format!("[...document.querySelectorAll('#replay .viewer:not([hidden]) .{class}')].filter(e => e.getClientRects().length > 0).length"))
        };
        assert!(shown("range").as_u64().unwrap() > 0);
        assert_eq!(shown("taken"), json!(1));
        assert_eq!(
            page.eval("document.querySelector('#replay .viewer:not([hidden]) .events li.capture') !== null"),
            json!(true)
        );
    }

    // The other variant's game, from its start.
    page.click(".tab[data-viewer=\"1\"]");
    assert_eq!(
        page.eval("document.querySelector('.viewer[data-viewer=\"0\"]').hidden"),
        json!(true)
    );
    assert_eq!(page.eval(DRAWN_TILES), json!(1));
    page.key("ArrowRight");
    assert_eq!(page.eval(DRAWN_TILES), json!(2));
    page.click(".tab[data-viewer=\"0\"]");

    // The first game's last capture, for the screenshot: from the end, back.
    page.click("[data-step=\"last\"]");
    assert_eq!(page.eval(DRAWN_TILES), all);
    if has_capture == json!(true) {
        page.click("[data-step=\"prev-capture\"]");
        assert_eq!(
            page.eval("document.querySelector('#replay .viewer:not([hidden]) .turn').classList.contains('capture')"),
            json!(true)
        );
    }

    // A screenshot of the whole page.
    let height = page
        .eval("document.documentElement.scrollHeight")
        .as_f64()
        .unwrap();
    page.eval("window.scrollTo(0, 0)");
    let png = page.screenshot(height);
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(png.len() > 50_000, "a {} byte screenshot", png.len());
    let out = dir.path().join("report.png");
    std::fs::write(&out, &png).unwrap();
    if let Some(keep) = std::env::var_os("TOWERLAB_REPORT_SCREENSHOT") {
        std::fs::write(&keep, &png).unwrap();
        eprintln!("screenshot written to {}", PathBuf::from(keep).display());
    }

    // Nothing went wrong, and nothing came from the network.
    page.eval("0");
    let heard = page.heard.lock().unwrap();
    let mut problems = heard.problems.clone();
    for url in &heard.requests {
        if *url != file && !url.starts_with("data:") {
            problems.push(format!("request: {url}"));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    // The events above were listened to: the page's own load is among them.
    assert!(
        heard.requests.contains(&file),
        "the page's request was not seen"
    );
}
