//! The browser game in headless Chromium, driven over the DevTools protocol:
//! `towerlab serve` is started, a person plays a whole 2-player game against
//! greedy by clicking through the page (cells, rotate, place, the action's
//! buttons and the board's spots), with no console errors; the final scores
//! the page shows equal those of the log it downloads, which `towerlab
//! replay` accepts; a screenshot of the game in progress is taken.
//!
//! Skipped when `chromium` is not installed, unless
//! `TOWERLAB_REQUIRE_BROWSER=1` (as in CI). `TOWERLAB_PLAY_SCREENSHOT=FILE`
//! keeps the screenshot (docs/images/play.png is made so).

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::towerlab;
use crate::serve::{logged_scores, replays};

/// A child process, killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The first line of `reader` holding `marker`, from that marker on.
fn line_with(reader: impl std::io::Read + Send + 'static, marker: &'static str) -> String {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(reader).lines().map_while(Result::ok) {
            if let Some(at) = line.find(marker) {
                let _ = tx.send(
                    line[at..]
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .to_string(),
                );
            }
        }
    });
    rx.recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("no line with {marker}"))
}

/// A DevTools client on one page.
struct Page {
    ws: tungstenite::WebSocket<TcpStream>,
    next: u64,
    session: String,
    events: Vec<Value>,
}

impl Page {
    fn open(ws_url: &str) -> Page {
        let host = ws_url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap();
        let stream = TcpStream::connect(host).expect("DevTools port");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let (ws, _) = tungstenite::client(ws_url, stream).expect("WebSocket handshake");
        let mut page = Page {
            ws,
            next: 0,
            session: String::new(),
            events: Vec::new(),
        };
        let target = page.call("Target.createTarget", json!({"url": "about:blank"}));
        let attached = page.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        page.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Runtime", "Log", "Page"] {
            page.call(&format!("{domain}.enable"), json!({}));
        }
        page.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
        );
        page
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut message = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        self.ws
            .send(tungstenite::Message::text(message.to_string()))
            .expect("send");
        loop {
            let text = self.ws.read().expect("DevTools reply");
            let Ok(text) = text.to_text() else { continue };
            let Ok(v) = serde_json::from_str::<Value>(text) else {
                continue;
            };
            if v["id"] == json!(id) {
                assert!(v.get("error").is_none(), "{method}: {}", v["error"]);
                return v["result"].clone();
            }
            self.events.push(v);
        }
    }

    fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            r.get("exceptionDetails").is_none(),
            "`{expression}` threw: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// Wait until `expression` is true.
    fn wait(&mut self, expression: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.eval(expression) != json!(true) {
            assert!(Instant::now() < deadline, "waited 30 s for {expression}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A real mouse click in the middle of the element `selector`.
    fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const r = document.querySelector('{selector}').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Console errors and uncaught exceptions seen so far.
    fn problems(&mut self) -> Vec<String> {
        let _ = self.eval("0");
        self.events
            .iter()
            .filter(|e| {
                e["method"] == "Runtime.exceptionThrown"
                    || (e["method"] == "Runtime.consoleAPICalled" && e["params"]["type"] == "error")
                    || (e["method"] == "Log.entryAdded" && e["params"]["entry"]["level"] == "error")
            })
            .map(|e| e["params"].to_string())
            .collect()
    }
}

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("chromium"))
        .find(|p| p.is_file())
}

fn start_chromium(exe: &Path, profile: &Path) -> (Killed, String) {
    let mut child = Command::new(exe)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--remote-debugging-port=0",
            "--remote-allow-origins=*",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let stderr = child.stderr.take().unwrap();
    let child = Killed(child);
    (child, line_with(stderr, "ws://"))
}

/// One click-through step of the person's turn, by the question waiting.
fn play_step(page: &mut Page, step: usize) {
    let kind = page.eval("game.question.kind");
    let token = page.eval("game.token");
    match kind.as_str().unwrap() {
        "placement" => {
            let cells = page
                .eval("document.querySelectorAll('#marks .place').length")
                .as_u64()
                .unwrap();
            let n = step as u64 % cells + 1;
            page.click(&format!("#marks .place:nth-child({n})"));
            if step.is_multiple_of(3) {
                page.click("#rotate");
            }
            page.click("#confirm");
        }
        "action"
            if step.is_multiple_of(2)
                && page.eval("!!document.querySelector('#marks .spot[data-index]')")
                    == json!(true) =>
        {
            page.click("#marks .spot[data-index]");
        }
        "capture"
            if page.eval("!!document.querySelector('#marks .spot[data-index]')") == json!(true) =>
        {
            page.click("#marks .spot[data-index]");
        }
        _ => {
            let buttons = page
                .eval("document.querySelectorAll('#options button').length")
                .as_u64()
                .unwrap();
            page.click(&format!(
                "#options button:nth-child({})",
                step as u64 % buttons + 1
            ));
        }
    }
    page.wait(&format!("game.token !== {token}"));
}

fn screenshot(page: &mut Page) {
    let shot = page.call("Page.captureScreenshot", json!({"format": "png"}));
    let png = decode_base64(shot["data"].as_str().unwrap());
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("play.png");
    std::fs::write(&out, &png).unwrap();
    if let Some(keep) = std::env::var_os("TOWERLAB_PLAY_SCREENSHOT") {
        std::fs::write(keep, &png).unwrap();
    }
}

#[test]
fn a_person_plays_a_whole_game_against_greedy_in_chromium() {
    let required = std::env::var("TOWERLAB_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    let Some(exe) = chromium() else {
        assert!(
            !required,
            "TOWERLAB_REQUIRE_BROWSER=1 but `chromium` is not on PATH"
        );
        eprintln!("skipped: `chromium` is not installed (apt-get install chromium)");
        return;
    };
    let mut server = towerlab()
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = server.stdout.take().unwrap();
    let _server = Killed(server);
    let url = line_with(stdout, "http://");
    let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("play-profile-{}", std::process::id()));
    let (_browser, ws) = start_chromium(&exe, &profile);
    let mut page = Page::open(&ws);
    page.call("Page.navigate", json!({"url": format!("{url}?delay=20")}));
    page.wait("document.querySelectorAll('#variant option').length > 0");
    assert_eq!(
        page.eval("document.querySelector('#seats select').value"),
        json!("person")
    );
    page.eval("document.querySelectorAll('#seats select')[1].value = 'greedy'; document.querySelector('#seed').value = '7'; true");
    page.click("#start");
    page.wait("typeof game === 'object' && game !== null");
    let (mut step, mut shot) = (0, false);
    let deadline = Instant::now() + Duration::from_secs(600);
    while page.eval("game.status") != json!("over") {
        assert!(Instant::now() < deadline, "the game took over ten minutes");
        if page.eval("game.status") == json!("bot") {
            std::thread::sleep(Duration::from_millis(10));
            continue;
        }
        assert_ne!(page.eval("game.status"), json!("failed"));
        if !shot && page.eval("game.turn >= 24 && game.question.kind === 'action'") == json!(true) {
            screenshot(&mut page);
            shot = true;
        }
        play_step(&mut page, step);
        step += 1;
    }
    assert!(shot, "a screenshot of the game in progress");
    page.wait("!document.querySelector('#final').hidden");
    let shown: Vec<u64> =
        serde_json::from_value(page.eval(
            "[...document.querySelectorAll('#final li')].map(li => Number(li.dataset.score))",
        ))
        .unwrap();
    assert_eq!(shown.len(), 2);
    let log = page.eval("fetch(document.querySelector('#log').href).then(r => r.text())");
    let log = log.as_str().expect("the log downloads");
    assert_eq!(
        logged_scores(log),
        shown,
        "the page's final scores are the log's"
    );
    replays(log, "serve-browser-game.jsonl");
    let problems = page.problems();
    assert!(problems.is_empty(), "console errors: {problems:#?}");
    let _ = std::fs::remove_dir_all(&profile);
}

/// Standard base64, as DevTools sends screenshots.
fn decode_base64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut bits, mut n) = (0u32, 0);
    for c in text.bytes().filter(|&c| c != b'=') {
        let v = ALPHABET.iter().position(|&a| a == c).expect("base64") as u32;
        bits = (bits << 6) | v;
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((bits >> n) as u8);
        }
    }
    out
}
