//! `towerlab compare … --html FILE`: the page's table against `compare
//! --format json`, its sample games against the run's own game 0, the
//! capture marks (T5, T6) in the replay pictures, and the page in a real
//! browser (headless Chromium, driven over the DevTools protocol): no console
//! errors, no network, the viewer steps through a game, and a screenshot.
//!
//! The browser test is marked ignored when `chromium` was not on `PATH` at
//! build time (build.rs sets the cfg `no_browser`), unless
//! `TOWERLAB_REQUIRE_BROWSER=1` (as in CI), where a missing browser fails it.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use towerlab::kernel::Event;
use towerlab::play::bots::BotKind;
use towerlab::play::seed::game_seed;
use towerlab::play::sim::{self, Batch};
use towerlab::rules::Ruleset;
use towerlab::views::report::SampleGame;

use crate::common::{home, towerlab};

/// A fresh folder under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "towerlab-report-{name}-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&dir).expect("temporary folder");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

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

/// Chromium, killed when dropped.
struct Browser {
    child: Child,
    log: Arc<Mutex<Vec<String>>>,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    /// Start headless Chromium with a fresh profile in `dir`; returns it
    /// and its DevTools WebSocket address.
    fn start(exe: &Path, dir: &Path) -> (Browser, String) {
        let mut child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-quic",
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
            ])
            .arg(format!("--user-data-dir={}", dir.join("profile").display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let stderr = child.stderr.take().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(at) = line.find("ws://") {
                    let _ = tx.send(line[at..].trim().to_string());
                }
                lines.lock().unwrap().push(line);
            }
        });
        let browser = Browser { child, log };
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(url) => (browser, url),
            Err(_) => panic!(
                "chromium printed no DevTools address:\n{}",
                browser.log.lock().unwrap().join("\n")
            ),
        }
    }
}

/// A DevTools protocol client over one WebSocket, with one page attached.
struct Cdp {
    ws: tungstenite::WebSocket<TcpStream>,
    next: u64,
    session: Option<String>,
    /// Every event received, in order.
    events: Vec<Value>,
}

impl Cdp {
    fn connect(url: &str) -> Cdp {
        let host = url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .expect("host:port");
        let stream = TcpStream::connect(host).expect("DevTools port");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let (ws, _) = tungstenite::client(url, stream).expect("WebSocket handshake");
        Cdp {
            ws,
            next: 0,
            session: None,
            events: Vec::new(),
        }
    }

    fn receive(&mut self) -> Value {
        loop {
            let message = self
                .ws
                .read()
                .unwrap_or_else(|e| panic!("DevTools connection: {e}"));
            if let Ok(text) = message.to_text()
                && !text.is_empty()
            {
                return serde_json::from_str(text).expect("DevTools sends JSON");
            }
        }
    }

    /// Call `method` (on the attached page, once there is one) and return
    /// its result; events that arrive meanwhile are kept.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(s) = &self.session {
            message["sessionId"] = json!(s);
        }
        self.ws
            .send(tungstenite::Message::text(message.to_string()))
            .expect("DevTools send");
        loop {
            let v = self.receive();
            if v["id"] == json!(id) {
                if let Some(e) = v.get("error") {
                    panic!("{method}: {e}");
                }
                return v["result"].clone();
            }
            self.events.push(v);
        }
    }

    /// Wait for the event `method`.
    fn wait_for(&mut self, method: &str) -> Value {
        if let Some(e) = self.events.iter().find(|e| e["method"] == method) {
            return e.clone();
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            let v = self.receive();
            self.events.push(v.clone());
            if v["method"] == method {
                return v;
            }
        }
        panic!("no {method} within a minute");
    }

    /// Evaluate a JavaScript expression in the page; its value.
    fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("`{expression}` threw: {e}");
        }
        r["result"]["value"].clone()
    }

    fn key(&mut self, key: &str, code: u32) {
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
        }
    }

    /// Ask the browser to quit (the connection then closes).
    fn close_browser(&mut self) {
        self.next += 1;
        let message = json!({"id": self.next, "method": "Browser.close"});
        let _ = self
            .ws
            .send(tungstenite::Message::text(message.to_string()));
    }

    /// A real mouse click in the middle of the element `selector`.
    fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector('{selector}'); e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
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
    let dir = TempDir::new("browser");
    let (path, _) = report();
    let (browser, url) = Browser::start(&exe, &dir.0);
    let mut cdp = Cdp::connect(&url);

    let target = cdp.call("Target.createTarget", json!({"url": "about:blank"}));
    let attached = cdp.call(
        "Target.attachToTarget",
        json!({"targetId": target["targetId"], "flatten": true}),
    );
    cdp.session = Some(attached["sessionId"].as_str().unwrap().to_string());
    for domain in ["Runtime", "Log", "Page", "Network"] {
        cdp.call(&format!("{domain}.enable"), json!({}));
    }
    cdp.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
    );
    let file = format!("file://{}", path.canonicalize().unwrap().display());
    cdp.call("Page.navigate", json!({"url": file}));
    cdp.wait_for("Page.loadEventFired");
    assert_eq!(
        cdp.eval("document.title"),
        json!("towerlab: tower vs black-tower")
    );

    // Start: the start tile alone; → and ← step; the buttons too.
    assert_eq!(cdp.eval(DRAWN_TILES), json!(1));
    assert_eq!(cdp.eval(HEADING), json!("Start tile"));
    cdp.key("ArrowRight", 39);
    assert_eq!(cdp.eval(DRAWN_TILES), json!(2));
    cdp.key("ArrowRight", 39);
    assert_eq!(cdp.eval(DRAWN_TILES), json!(3));
    assert_eq!(
        cdp.eval(HEADING).as_str().unwrap().split(" of ").next(),
        Some("Turn 2")
    );
    cdp.key("ArrowLeft", 37);
    assert_eq!(cdp.eval(DRAWN_TILES), json!(2));
    cdp.click("[data-step=\"prev\"]");
    assert_eq!(cdp.eval(DRAWN_TILES), json!(1));
    cdp.click("[data-step=\"next\"]");
    assert_eq!(cdp.eval(DRAWN_TILES), json!(2));
    // End (the viewer has the focus after a click): every tile.
    cdp.key("End", 35);
    let all = cdp.eval(ALL_TILES);
    assert!(all.as_u64().unwrap() > 40, "{all} tiles");
    assert_eq!(cdp.eval(DRAWN_TILES), all);
    assert_eq!(cdp.eval(HEADING), json!("End: final scoring"));

    // The first capture: the range and the meeple taken are drawn.
    cdp.click("[data-step=\"first\"]");
    assert_eq!(cdp.eval(DRAWN_TILES), json!(1));
    let has_capture = cdp.eval("!document.querySelector('[data-step=\"next-capture\"]').disabled");
    if has_capture == json!(true) {
        cdp.click("[data-step=\"next-capture\"]");
        let shown = |cdp: &mut Cdp, class: &str| {
            cdp.eval(&format!("[...document.querySelectorAll('#replay .viewer:not([hidden]) .{class}')].filter(e => e.getClientRects().length > 0).length"))
        };
        assert!(shown(&mut cdp, "range").as_u64().unwrap() > 0);
        assert_eq!(shown(&mut cdp, "taken"), json!(1));
        assert_eq!(
            cdp.eval("document.querySelector('#replay .viewer:not([hidden]) .events li.capture') !== null"),
            json!(true)
        );
    }

    // The other variant's game, from its start.
    cdp.click(".tab[data-viewer=\"1\"]");
    assert_eq!(
        cdp.eval("document.querySelector('.viewer[data-viewer=\"0\"]').hidden"),
        json!(true)
    );
    assert_eq!(cdp.eval(DRAWN_TILES), json!(1));
    cdp.key("ArrowRight", 39);
    assert_eq!(cdp.eval(DRAWN_TILES), json!(2));
    cdp.click(".tab[data-viewer=\"0\"]");

    // The first game's last capture, for the screenshot: from the end, back.
    cdp.click("[data-step=\"last\"]");
    assert_eq!(cdp.eval(DRAWN_TILES), all);
    if has_capture == json!(true) {
        cdp.click("[data-step=\"prev-capture\"]");
        assert_eq!(
            cdp.eval("document.querySelector('#replay .viewer:not([hidden]) .turn').classList.contains('capture')"),
            json!(true)
        );
    }

    // A screenshot of the whole page.
    let height = cdp
        .eval("document.documentElement.scrollHeight")
        .as_f64()
        .unwrap();
    cdp.eval("window.scrollTo(0, 0)");
    let shot = cdp.call(
        "Page.captureScreenshot",
        json!({"format": "png", "captureBeyondViewport": true,
               "clip": {"x": 0, "y": 0, "width": 1280, "height": height, "scale": 1}}),
    );
    let png = decode_base64(shot["data"].as_str().expect("screenshot data"));
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(png.len() > 50_000, "a {} byte screenshot", png.len());
    let out = dir.0.join("report.png");
    std::fs::write(&out, &png).unwrap();
    if let Some(keep) = std::env::var_os("TOWERLAB_REPORT_SCREENSHOT") {
        std::fs::write(&keep, &png).unwrap();
        eprintln!("screenshot written to {}", PathBuf::from(keep).display());
    }

    // Nothing went wrong, and nothing came from the network.
    let _ = cdp.call("Runtime.evaluate", json!({"expression": "0"}));
    let mut problems = Vec::new();
    for e in &cdp.events {
        let p = &e["params"];
        match e["method"].as_str().unwrap_or("") {
            "Runtime.exceptionThrown" => {
                problems.push(format!("exception: {}", p["exceptionDetails"]))
            }
            "Runtime.consoleAPICalled"
                if matches!(p["type"].as_str(), Some("error" | "assert" | "warning")) =>
            {
                problems.push(format!("console {}: {}", p["type"], p["args"]))
            }
            "Log.entryAdded"
                if matches!(p["entry"]["level"].as_str(), Some("error" | "warning")) =>
            {
                problems.push(format!("log: {}", p["entry"]))
            }
            "Network.requestWillBeSent" => {
                let url = p["request"]["url"].as_str().unwrap_or("");
                if url != file && !url.starts_with("data:") {
                    problems.push(format!("request: {url}"));
                }
            }
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    // The events above were listened to: the page's own load is among them.
    assert!(
        cdp.events
            .iter()
            .any(|e| e["method"] == "Network.requestWillBeSent"
                && e["params"]["request"]["url"] == json!(file)),
        "the page's request was not seen"
    );
    cdp.close_browser();
    drop(browser);
}

/// Standard base64 (DevTools sends screenshots so).
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a') as u32 + 26,
            b'0'..=b'9' => (c - b'0') as u32 + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= value(c) << (18 - 6 * i);
        }
        let take = chunk.len() - 1;
        out.extend_from_slice(&n.to_be_bytes()[1..1 + take]);
    }
    out
}
