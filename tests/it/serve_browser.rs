//! The browser game in headless Chromium:
//! `towerlab serve` is started, a person plays a whole 2-player game against
//! greedy by clicking through the page (cells, rotate, place, the action's
//! buttons and the board's spots), with no console errors; the final scores
//! the page shows equal those of the log it downloads, which `towerlab
//! replay` accepts; a screenshot of the game in progress is taken.
//!
//! Drives the page with the `browser` driver; ignored without `chromium`, as
//! `browser` says. `TOWERLAB_PLAY_SCREENSHOT=FILE` keeps the screenshot
//! (docs/images/play.png is made so).

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::browser::Page;
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

/// One click-through step of the person's turn, by the question waiting.
fn play_step(page: &Page, step: usize) {
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

/// A screenshot of the page as the window shows it, kept with
/// `TOWERLAB_PLAY_SCREENSHOT=FILE`.
fn screenshot(page: &Page) {
    let png = page.screenshot(1400.0, 900.0);
    if let Some(keep) = std::env::var_os("TOWERLAB_PLAY_SCREENSHOT") {
        std::fs::write(keep, &png).unwrap();
    }
}

#[test]
#[cfg_attr(
    no_browser,
    ignore = "`chromium` is not on PATH (apt-get install chromium; TOWERLAB_REQUIRE_BROWSER=1 requires it)"
)]
fn a_person_plays_a_whole_game_against_greedy_in_chromium() {
    let mut server = towerlab()
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = server.stdout.take().unwrap();
    let _server = Killed(server);
    let url = line_with(stdout, "http://");
    let page = Page::open(1400, 900);
    page.load(&format!("{url}?delay=20"));
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
            screenshot(&page);
            shot = true;
        }
        play_step(&page, step);
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
    let errors = page.heard().errors.clone();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}
