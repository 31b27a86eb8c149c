//! The browser game in headless Chromium, at four window sizes (a phone
//! upright and on its side, a small and a large desktop; the four games
//! played at once): `towerlab serve` is started for each, a person plays a
//! whole 2-player game against greedy through
//! the page (cells, rotate, place, the action's buttons and the board's
//! spots; tapped on the phone sizes, which are touch screens, clicked on
//! the others), with no console errors. At every question the layout is
//! measured: the page does not scroll, the board takes most of the window,
//! and what the question needs (the status, its buttons, the board's marks)
//! lies inside the window. The final scores the page shows equal those of
//! the log it downloads, which `towerlab replay` accepts; on the phone,
//! a finger drags the board and two pinch it. A screenshot of the game in
//! progress is taken at each size.
//!
//! Two browsers also play one game from its two seats, a seat's link
//! opened in the second, and a reload resumes it
//! (`two_browsers_play_one_game_and_a_reload_resumes`; its screenshots are
//! `DIR/friends-*.png`).
//!
//! Shared here: the server started for a test, a person's step at the
//! page, presses and kept screenshots.
//!
//! Drives the page with the `browser` driver; ignored without `chromium`, as
//! `browser` says. `TOWERLAB_PLAY_SCREENSHOTS=DIR` keeps the screenshots as
//! `DIR/play-WIDTHxHEIGHT.png` (docs/images/play-*.png are made so).

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::browser::Page;
use crate::common::towerlab;
use crate::serve::{logged_scores, new_game, play_until, replays};

mod friends;
mod ransom;
mod steps;
mod studio;
mod whole_game;

use whole_game::layout_faults;

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

/// How the person presses: a tap on a touch screen, else a mouse click.
fn press(page: &Page, touch: bool, selector: &str) {
    if touch {
        page.tap(selector);
    } else {
        page.click(selector);
    }
}

/// What a step needs to know of the page, in one look.
#[derive(serde::Deserialize)]
struct Look {
    kind: String,
    token: Value,
    /// The cells the tile may be placed on that the board shows (`x,y`):
    /// a person taps what they see.
    places: Vec<String>,
    /// A floor is among the action's options.
    floor: bool,
    /// A meeple's spot (or a capture's) that the board shows: its option.
    spot: Option<String>,
    /// The option buttons.
    buttons: u64,
}

const LOOK: &str = "(() => { \
    const stage = document.querySelector('#stage').getBoundingClientRect(); \
    const shown = (e) => { const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2; \
      return x > stage.left && x < stage.right && y > stage.top && y < stage.bottom; }; \
    return {kind: game.question.kind, token: game.token, \
    places: [...document.querySelectorAll('#marks .place')].filter(shown).map((e) => e.dataset.cell), \
    floor: !!document.querySelector('#options button[data-kind=floor]'), \
    spot: [...document.querySelectorAll('#marks .spot[data-index]')].filter(shown).map((e) => e.dataset.index)[0] ?? null, \
    buttons: document.querySelectorAll('#options button').length}; })()";

/// One step of the person's turn, by the question waiting.
fn play_step(page: &Page, touch: bool, step: usize) {
    let look: Look = serde_json::from_value(page.eval(LOOK)).unwrap();
    match look.kind.as_str() {
        "placement" => {
            assert!(
                !look.places.is_empty(),
                "the board shows a cell to place on"
            );
            let cell = &look.places[step % look.places.len()];
            press(page, touch, &format!("#marks .place[data-cell=\"{cell}\"]"));
            if step.is_multiple_of(3) {
                press(page, touch, "#rotate");
            }
            press(page, touch, "#confirm");
        }
        // Floors now and then, so that their preview is seen.
        "action" if step % 4 == 1 && look.floor => {
            press(page, touch, "#options button[data-kind=floor]");
        }
        "action" if step.is_multiple_of(2) && look.spot.is_some() => {
            let spot = look.spot.unwrap();
            press(page, touch, &format!("#marks .spot[data-index=\"{spot}\"]"));
        }
        // A ransom asked before, for the same prisoners, the page
        // declines by itself (T11).
        "ransom" if look.buttons == 0 => {}
        "capture" if look.spot.is_some() => press(
            page,
            touch,
            &format!("#marks .spot[data-index=\"{}\"]", look.spot.unwrap()),
        ),
        _ => press(
            page,
            touch,
            &format!(
                "#options button:nth-child({})",
                step as u64 % look.buttons + 1
            ),
        ),
    }
    confirm_floor(page, touch);
    page.wait(&format!("game.token !== {}", look.token));
}

/// How far the colours of marks that are no seat's — the hatch of a
/// floor's reach, the board's pennants — are from the nearest seat's
/// colour (the eye's "redmean" distance of their red, green and blue).
const MARK_COLOURS: &str = "(() => { \
    const rgb = (c) => { const d = document.createElement('div'); d.style.color = c; document.body.append(d); \
      const v = getComputedStyle(d).color.match(/\\d+/g).map(Number); d.remove(); return v; }; \
    const apart = (a, b) => { const [r1, g1, b1] = rgb(a), [r2, g2, b2] = rgb(b), r = (r1 + r2) / 2; \
      return Math.sqrt((2 + r / 256) * (r1 - r2) ** 2 + 4 * (g1 - g2) ** 2 + (2 + (255 - r) / 256) * (b1 - b2) ** 2); }; \
    const nearest = (c) => Math.min(...game.players.map((p) => apart(c, p.colour))); \
    const reach = document.querySelector('#marks .reach'); \
    const pennant = document.querySelector('#board .pennant'); \
    return { reach: reach ? nearest(getComputedStyle(reach).borderTopColor) : null, \
             pennant: pennant ? nearest(pennant.getAttribute('fill')) : null }; })()";

/// A floor chosen is previewed, then built on confirmation: the button is
/// in the window, the range hatched cell by cell in no seat's colour, as
/// the board's pennants are.
fn confirm_floor(page: &Page, touch: bool) {
    let preview = page.eval(&format!(
        "document.querySelector('#floor-confirm').hidden ? null : {{\
           inside: (r => r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth)(document.querySelector('#floor-place').getBoundingClientRect()), \
           hatched: document.querySelectorAll('#marks .reach').length === game.question.options[Number(document.querySelector('#options button.chosen').dataset.index)].preview.range.length, \
           colours: {MARK_COLOURS}, \
           size: [innerWidth, innerHeight]}}",
    ));
    if preview.is_null() {
        return;
    }
    assert_eq!(
        preview["inside"],
        json!(true),
        "the floor's confirmation is in the window"
    );
    assert_eq!(
        preview["hatched"],
        json!(true),
        "the floor's range is hatched, cell by cell"
    );
    for (mark, apart) in preview["colours"].as_object().unwrap() {
        if let Some(apart) = apart.as_f64() {
            assert!(
                apart > 200.0,
                "the {mark}'s colour is {apart:.0} from a seat's"
            );
        }
    }
    let (w, h) = (
        preview["size"][0].as_u64().unwrap(),
        preview["size"][1].as_u64().unwrap(),
    );
    keep_first_screenshot(
        page,
        (w as u32, h as u32),
        &format!("floor-preview-{w}x{h}"),
    );
    press(page, touch, "#floor-place");
}

/// A screenshot of `page` kept as `DIR/NAME.png` with
/// `TOWERLAB_PLAY_SCREENSHOTS=DIR`.
fn keep_screenshot(page: &Page, (width, height): (u32, u32), name: &str) {
    let png = page.screenshot(width as f64, height as f64);
    if let Some(dir) = std::env::var_os("TOWERLAB_PLAY_SCREENSHOTS") {
        std::fs::write(std::path::Path::new(&dir).join(format!("{name}.png")), &png).unwrap();
    }
}

/// A screenshot kept as [`keep_screenshot`] does, unless one of that name
/// is kept already.
fn keep_first_screenshot(page: &Page, size: (u32, u32), name: &str) {
    if let Some(dir) = std::env::var_os("TOWERLAB_PLAY_SCREENSHOTS")
        && !std::path::Path::new(&dir)
            .join(format!("{name}.png"))
            .exists()
    {
        keep_screenshot(page, size, name);
    }
}

/// A server started for a browser test, and its page's address.
fn served(args: &[&str]) -> (Killed, String) {
    let mut server = towerlab()
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = server.stdout.take().unwrap();
    let server = Killed(server);
    (server, line_with(stdout, "http://"))
}

/// The question waiting at `page` answered passively: the first cell, no
/// meeple, no floor, no capture, no ransom (one the page declines by itself
/// is left to it).
fn pass_step(page: &Page) {
    let token = page.eval("game.token");
    match page.eval("game.question.kind").as_str().unwrap() {
        "placement" => {
            let look: Look = serde_json::from_value(page.eval(LOOK)).unwrap();
            page.click(&format!("#marks .place[data-cell=\"{}\"]", look.places[0]));
            page.click("#confirm");
        }
        "ransom"
            if page.eval("document.querySelectorAll('#options button').length") == json!(0) => {}
        _ => page.click(r#"#options button[data-index="0"]"#),
    }
    page.wait(&format!("game.token !== {token}"));
}
