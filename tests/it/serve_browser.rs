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
    /// The cells the tile may be placed on.
    places: u64,
    /// A floor is among the action's options.
    floor: bool,
    /// A meeple's spot (or a capture's) is marked on the board.
    spot: bool,
    /// The option buttons.
    buttons: u64,
}

const LOOK: &str = "({kind: game.question.kind, token: game.token, \
    places: document.querySelectorAll('#marks .place').length, \
    floor: !!document.querySelector('#options button[data-kind=floor]'), \
    spot: !!document.querySelector('#marks .spot[data-index]'), \
    buttons: document.querySelectorAll('#options button').length})";

/// One step of the person's turn, by the question waiting.
fn play_step(page: &Page, touch: bool, step: usize) {
    let look: Look = serde_json::from_value(page.eval(LOOK)).unwrap();
    match look.kind.as_str() {
        "placement" => {
            let n = step as u64 % look.places + 1;
            press(page, touch, &format!("#marks .place:nth-child({n})"));
            if step.is_multiple_of(3) {
                press(page, touch, "#rotate");
            }
            press(page, touch, "#confirm");
        }
        // Floors now and then, so that their preview is seen.
        "action" if step % 4 == 1 && look.floor => {
            press(page, touch, "#options button[data-kind=floor]");
        }
        "action" if step.is_multiple_of(2) && look.spot => {
            press(page, touch, "#marks .spot[data-index]");
        }
        // A ransom asked before, for the same prisoners, the page
        // declines by itself (T11).
        "ransom" if look.buttons == 0 => {}
        "capture" if look.spot => press(page, touch, "#marks .spot[data-index]"),
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

/// A floor chosen is previewed, then built on confirmation: the button is
/// in the window and the range hatched cell by cell.
fn confirm_floor(page: &Page, touch: bool) {
    let preview = page.eval(
        "document.querySelector('#floor-confirm').hidden ? null : {\
           inside: (r => r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth)(document.querySelector('#floor-place').getBoundingClientRect()), \
           hatched: document.querySelectorAll('#marks .reach').length === game.question.options[Number(document.querySelector('#options button.chosen').dataset.index)].preview.range.length, \
           size: [innerWidth, innerHeight]}",
    );
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

/// What the layout lacks at this question: the page scrolls, the board
/// is small, or something the question needs lies outside the window (the
/// status, the placing buttons, the first option button, and the board's
/// marks, which the fitted board shows whole). Measured from the page's
/// layout, before anything is scrolled into view.
/// (A JavaScript expression whose value is the list of faults.)
fn layout_faults((width, height): (u32, u32)) -> String {
    r#"(() => {
  const faults = [];
  const W = innerWidth, H = innerHeight;
  if (W !== WIDTH || H !== HEIGHT) faults.push(`the window is ${W}x${H}, not WIDTHxHEIGHT`);
  const root = document.documentElement;
  if (root.scrollWidth > W || root.scrollHeight > H) faults.push(`the page scrolls: ${root.scrollWidth}x${root.scrollHeight} in ${W}x${H}`);
  const stage = document.querySelector('#stage').getBoundingClientRect();
  if (stage.width < 0.5 * W || stage.height < 0.4 * H) faults.push(`the board is ${stage.width}x${stage.height} in ${W}x${H}`);
  const inside = (r, box) => r.width > 0 && r.height > 0 && r.left >= box.left - 0.5 && r.top >= box.top - 0.5 && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5;
  const window_ = { left: 0, top: 0, right: W, bottom: H };
  const needed = ['#status', '#zoom'];
  if (game.question && game.question.kind === 'placement') needed.push('#rotate', '#confirm');
  // (A ransom the page declines by itself has no buttons.)
  else if (game.question && !(game.question.kind === 'ransom' && !document.querySelector('#options button'))) needed.push('#options button');
  for (const sel of needed) {
    const e = document.querySelector(sel);
    if (!e || !inside(e.getBoundingClientRect(), window_)) faults.push(`${sel} is outside the window: ${JSON.stringify(e && e.getBoundingClientRect())}`);
  }
  if (view.fitted) {
    for (const m of document.querySelectorAll('#marks .place, #marks .spot[data-index]')) {
      const r = m.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (x < stage.left || x > stage.right || y < stage.top || y > stage.bottom) faults.push(`a mark at ${x},${y} is outside the board's ${JSON.stringify(stage)}`);
    }
  }
  return faults;
})()"#
        .replace("WIDTH", &width.to_string())
        .replace("HEIGHT", &height.to_string())
}

/// On a touch screen: a finger drags the board (it moves), two fingers
/// spreading zoom it in around their middle (the point under it stays).
fn drag_and_pinch(page: &Page) {
    let view = || page.eval("[view.x, view.y, view.scale]");
    let box_: Vec<f64> = serde_json::from_value(page.eval(
        "(r => [r.left, r.top, r.width, r.height])(document.querySelector('#stage').getBoundingClientRect())",
    ))
    .unwrap();
    // A point of the stage's lower left, away from the marks and buttons.
    let (x, y) = (box_[0] + 12.0, box_[1] + box_[3] - 30.0);
    let before = view();
    page.touch("touchStart", &[(x, y)]);
    for i in 1..=5 {
        page.touch("touchMove", &[(x + 8.0 * i as f64, y - 4.0 * i as f64)]);
    }
    page.touch("touchEnd", &[]);
    let after = view();
    let moved = |a: &Value, b: &Value, i: usize| b[i].as_f64().unwrap() - a[i].as_f64().unwrap();
    assert!(
        (moved(&before, &after, 0) - 40.0).abs() < 1.0
            && (moved(&before, &after, 1) + 20.0).abs() < 1.0,
        "a finger dragged the board 40,-20: {before} to {after}"
    );
    let (cx, cy) = (box_[0] + box_[2] / 2.0, box_[1] + box_[3] / 2.0);
    // The board point under the pinch's middle, before and after.
    let under = || {
        let v = view();
        let f = |i: usize| v[i].as_f64().unwrap();
        (
            (cx - box_[0] - f(0)) / f(2),
            (cy - box_[1] - f(1)) / f(2),
            f(2),
        )
    };
    let (bx, by, scale) = under();
    page.touch("touchStart", &[(cx - 20.0, cy), (cx + 20.0, cy)]);
    for i in 1..=4 {
        let d = 20.0 + 10.0 * i as f64;
        page.touch("touchMove", &[(cx - d, cy), (cx + d, cy)]);
    }
    page.touch("touchEnd", &[]);
    let (ax, ay, zoomed) = under();
    assert!(
        (zoomed / scale - 3.0).abs() < 0.01,
        "spreading two fingers from 40 to 120 px zooms 3×: {scale} to {zoomed}"
    );
    assert!(
        (ax - bx).abs() < 0.5 && (ay - by).abs() < 0.5,
        "the pinch zooms around its middle: {bx},{by} to {ax},{ay}"
    );
    page.click("#zoom [data-zoom=fit]");
    assert_eq!(page.eval("view.fitted"), json!(true));
}

/// A screenshot of the page as the window shows it, kept with
/// `TOWERLAB_PLAY_SCREENSHOTS=DIR`.
fn screenshot(page: &Page, (width, height): (u32, u32)) {
    let png = page.screenshot(width as f64, height as f64);
    if let Some(dir) = std::env::var_os("TOWERLAB_PLAY_SCREENSHOTS") {
        let file = std::path::Path::new(&dir).join(format!("play-{width}x{height}.png"));
        std::fs::write(file, &png).unwrap();
    }
}

/// A whole game against greedy in a window of `size`, tapped on a touch
/// screen or clicked, its layout measured at every question.
fn a_whole_game((width, height): (u32, u32), touch: bool) {
    let (_server, url) = served(&[]);
    let page = Page::open(width, height);
    page.screen(width, height, touch);
    page.load(&format!("{url}?delay=20"));
    page.wait("document.querySelectorAll('#variant option').length > 0");
    assert_eq!(
        page.eval("document.querySelector('#seats select').value"),
        json!("person")
    );
    assert_eq!(
        page.eval("document.querySelector('#game').getBoundingClientRect().height"),
        json!(0),
        "no game panel on the new-game form"
    );
    page.eval("document.querySelectorAll('#seats select')[1].value = 'greedy'; document.querySelector('#seed').value = '7'; true");
    press(&page, touch, "#start");
    page.wait("typeof game === 'object' && game !== null");
    page.wait("!!document.querySelector('#legend-art svg')");
    assert_eq!(
        page.eval("document.querySelector('#canvas g.panel') === null"),
        json!(true),
        "the legend is not on the board, where zoom would scale it"
    );
    if touch {
        page.wait("game.status !== 'bot'");
        drag_and_pinch(&page);
    }
    let (mut step, mut shot, mut measured) = (0, false, 0);
    let deadline = Instant::now() + Duration::from_secs(900);
    // At each question, in one look: the status, the layout's faults and
    // whether it is time for the screenshot.
    let look = format!(
        "game.status === 'bot' ? {{status: 'bot'}} : {{status: game.status, \
         faults: game.status === 'over' ? [] : {}, \
         shoot: game.turn >= 24 && !!game.question && game.question.kind === 'action'}}",
        layout_faults((width, height))
    );
    loop {
        assert!(Instant::now() < deadline, "the game took over 15 minutes");
        let now = page.eval(&look);
        match now["status"].as_str().unwrap() {
            "over" => break,
            "bot" => {
                page.wait("game.status !== 'bot'");
                continue;
            }
            status => assert_ne!(status, "failed"),
        }
        let faults: Vec<String> = serde_json::from_value(now["faults"].clone()).unwrap();
        assert!(
            faults.is_empty(),
            "at {width}x{height}, step {step}: {faults:#?}"
        );
        measured += 1;
        if !shot && now["shoot"] == json!(true) {
            screenshot(&page, (width, height));
            shot = true;
        }
        play_step(&page, touch, step);
        step += 1;
    }
    assert!(shot, "a screenshot of the game in progress");
    assert!(measured > 40, "the layout measured at {measured} questions");
    page.wait("!document.querySelector('#final').hidden");
    let shown: Vec<u64> = serde_json::from_value(page.eval(
        "[...document.querySelectorAll('#final li')].sort((a, b) => a.dataset.seat - b.dataset.seat).map(li => Number(li.dataset.score))",
    ))
    .unwrap();
    let ranked: Vec<u64> =
        serde_json::from_value(page.eval(
            "[...document.querySelectorAll('#final li')].map(li => Number(li.dataset.score))",
        ))
        .unwrap();
    assert!(
        ranked.windows(2).all(|w| w[0] >= w[1]),
        "the final ranking is by score: {ranked:?}"
    );
    let winner = page.eval("document.querySelector('#winner').textContent");
    assert!(
        winner
            .as_str()
            .unwrap()
            .contains(&format!("with {} points", ranked[0])),
        "the winner is named with the best score: {winner}"
    );
    assert_eq!(shown.len(), 2);
    let log = page.eval("fetch(document.querySelector('#log').href).then(r => r.text())");
    let log = log.as_str().expect("the log downloads");
    assert_eq!(
        logged_scores(log),
        shown,
        "the page's final scores are the log's"
    );
    replays(log, &format!("serve-browser-game-{width}x{height}.jsonl"));
    let errors = page.heard().errors.clone();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

/// The window sizes of the whole games: a phone upright and on its side
/// (touch screens), a small and a large desktop (a mouse).
const SIZES: [((u32, u32), bool); 4] = [
    ((390, 844), true),
    ((844, 390), true),
    ((1024, 768), false),
    ((1400, 900), false),
];

/// A whole game at each of the four sizes, the four played at once, each
/// with its own server and browser: a game spends nearly all its time
/// waiting for the browser's answers (each call to the browser is a round
/// trip of up to 100 ms), so four together take little longer than one,
/// where one after the other they would hold a test thread four times as
/// long. A failure names its window size.
#[test]
#[cfg_attr(
    no_browser,
    ignore = "`chromium` is not on PATH (apt-get install chromium; TOWERLAB_REQUIRE_BROWSER=1 requires it)"
)]
fn a_whole_game_at_each_size_on_a_phone_and_a_desktop() {
    let games: Vec<_> = SIZES
        .into_iter()
        .map(|(size, touch)| (size, std::thread::spawn(move || a_whole_game(size, touch))))
        .collect();
    let failed: Vec<String> = games
        .into_iter()
        .filter_map(|((w, h), game)| {
            let panic = game.join().err()?;
            let said = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Some(format!("the game at {w}x{h} failed: {said}"))
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
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

/// Play the turn of the seat `page` plays, up to the next seat's turn.
fn play_turn(page: &Page, step: &mut usize) {
    let seat = page.eval("game.current");
    while page.eval("game.current") == seat && page.eval("game.status") != json!("over") {
        play_step(page, false, *step);
        *step += 1;
    }
}

/// Two browsers (each its own profile and storage) play one game from its
/// two seats: Ana makes it, giving Bo's seat away, and Bo opens its link.
/// Each page acts only for its own seat and says whose turn it is; Bo asks
/// for a hint and sees it marked with its reason; Bo's page reloaded (without the link)
/// resumes the same game and seat; Ana's page follows Bo's moves.
#[test]
#[cfg_attr(
    no_browser,
    ignore = "`chromium` is not on PATH (apt-get install chromium; TOWERLAB_REQUIRE_BROWSER=1 requires it)"
)]
fn two_browsers_play_one_game_and_a_reload_resumes() {
    let size = (1024, 768);
    let (_server, url) = served(&["--hint-budget", "100"]);
    let ana = Page::open(size.0, size.1);
    ana.load(&format!("{url}?delay=20&poll=100"));
    ana.wait("document.querySelectorAll('#variant option').length > 0");
    ana.eval(
        "const rows = document.querySelectorAll('#seats li');
         const bo = rows[1].querySelector('select');
         bo.value = 'person'; bo.dispatchEvent(new Event('change'));
         rows[0].querySelector('input.name').value = 'Ana';
         rows[1].querySelector('input.name').value = 'Bo';
         rows[1].querySelector('input.here').checked = false;
         document.querySelector('#seed').value = '7'; true",
    );
    ana.click("#start");
    ana.wait("typeof game === 'object' && game !== null");
    let id = ana.eval("game.id");
    let id = id.as_str().unwrap();
    assert_eq!(
        ana.eval("location.pathname"),
        json!(format!("/game/{id}")),
        "the page's address names the game"
    );
    let link = ana.eval("document.querySelector('#friend-links .seat-link input').value");
    let link = link.as_str().unwrap().to_string();
    assert!(link.contains(&format!("/game/{id}#seat=2&key=")), "{link}");
    assert!(
        ana.eval("document.querySelector('#friend-links .watch-link input').value")
            .as_str()
            .unwrap()
            .ends_with(&format!("/game/{id}"))
    );
    assert_eq!(
        ana.eval("!!document.querySelector('#friend-links .local-only')"),
        json!(true),
        "the page says a server on 127.0.0.1 is not on the network"
    );
    let mut step = 0;
    play_turn(&ana, &mut step);
    ana.wait("document.querySelector('#status').textContent === 'waiting for Bo (seat 2)'");
    assert_eq!(
        ana.eval("document.querySelectorAll('#options button, #marks .place').length"),
        json!(0),
        "Ana's page offers nothing to do for Bo"
    );

    let (address, fragment) = link.split_once('#').unwrap();
    let bo = Page::open(size.0, size.1);
    bo.load(&format!("{address}?delay=20&poll=100#{fragment}"));
    bo.wait("typeof game === 'object' && game !== null && game.current === 1");
    assert_eq!(
        bo.eval("location.hash"),
        json!(""),
        "the key leaves the address"
    );
    bo.wait("document.querySelector('#status').textContent.startsWith('Bo (seat 2): ')");
    // Bo places the tile, then asks for a hint at the next question.
    play_step(&bo, false, step);
    step += 1;
    bo.click("#hint");
    bo.wait("!['', 'thinking…'].includes(document.querySelector('#hint-line').textContent)");
    let line = bo.eval("document.querySelector('#hint-line').textContent");
    assert!(
        line.as_str().unwrap().contains(" expects to "),
        "the hint's reason: {line}"
    );
    assert_eq!(
        bo.eval("!!document.querySelector('.hinted')"),
        json!(true),
        "the hint is marked"
    );
    keep_screenshot(&ana, size, "friends-ana-waits");
    keep_screenshot(&bo, size, "friends-bo-hint");
    // Bo reloads without the link.
    let token = bo.eval("game.token");
    bo.load(&format!("{address}?delay=20&poll=100"));
    bo.wait("typeof game === 'object' && game !== null");
    assert_eq!(bo.eval("game.id"), json!(id));
    assert_eq!(bo.eval("game.token"), token, "the reload resumes the game");
    bo.wait("document.querySelector('#status').textContent.startsWith('Bo (seat 2): ')");
    play_turn(&bo, &mut step);
    // Ana's page follows Bo's moves, and it is her turn again.
    ana.wait("game.current === 0 && document.querySelector('#status').textContent.startsWith('Ana (seat 1): ')");
    assert_eq!(
        bo.eval("document.querySelector('#status').textContent"),
        json!("waiting for Ana (seat 1)")
    );
    for page in [&ana, &bo] {
        let errors = page.heard().errors.clone();
        assert!(errors.is_empty(), "console errors: {errors:#?}");
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

/// Bots' turns are shown one step at a time: paused, each "next step"
/// plays one decision of the bot's (one request, the token moving on by
/// one), and the page names it in words — the seat, what it did, tiles as
/// people name them, never a tile's code — the earlier steps listed below,
/// the last one still shown through the person's turn.
#[test]
#[cfg_attr(
    no_browser,
    ignore = "`chromium` is not on PATH (apt-get install chromium; TOWERLAB_REQUIRE_BROWSER=1 requires it)"
)]
fn bots_steps_are_shown_one_at_a_time_in_words() {
    let size = (1024, 768);
    let (_server, url) = served(&[]);
    let page = Page::open(size.0, size.1);
    page.screen(size.0, size.1, false);
    // Steps a minute apart, unless "next step" is pressed.
    page.load(&format!("{url}?delay=60000"));
    page.wait("document.querySelectorAll('#variant option').length > 0");
    page.eval(
        "document.querySelector('#player-count').value = '3';
         document.querySelector('#player-count').dispatchEvent(new Event('change'));
         document.querySelector('#seed').value = '7'; true",
    );
    page.click("#start");
    page.wait("typeof game === 'object' && game !== null && game.question !== null");
    let mut step = 0;
    while page.eval("game.status") != json!("bot") {
        play_step(&page, false, step);
        step += 1;
    }
    page.wait("!document.querySelector('#step-controls').hidden");
    page.click("#step-pause");
    assert_eq!(
        page.eval("document.querySelector('#step-next').disabled"),
        json!(false)
    );
    let mut shown = Vec::new();
    while page.eval("game.status") == json!("bot") {
        let token = page.eval("game.token").as_u64().unwrap();
        let steps = page.eval("steps.length").as_u64().unwrap();
        // Nothing moves until "next step".
        std::thread::sleep(Duration::from_millis(150));
        assert_eq!(page.eval("game.token"), json!(token));
        page.click("#step-next");
        page.wait(&format!("game.token !== {token}"));
        assert_eq!(
            page.eval("game.token"),
            json!(token + 1),
            "one decision a step"
        );
        assert_eq!(
            page.eval("steps.length"),
            json!(steps + 1),
            "one step shown"
        );
        let line = page.eval("document.querySelector('#step-line').textContent");
        let line = line.as_str().unwrap().to_string();
        assert!(line.contains(" (greedy): "), "the seat is named: {line}");
        assert!(!line.contains("(greedy): player "), "named once: {line}");
        assert!(
            !line.contains("base/") && !line.contains("tower/"),
            "{line}"
        );
        shown.push(line);
    }
    assert!(
        shown.len() >= 3,
        "two bots' turns, step by step: {shown:#?}"
    );
    assert!(
        shown.iter().any(|l| l.contains(" places a ")),
        "a tile placed, named in words: {shown:#?}"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#step-list li').length"),
        json!(shown.len() - 1),
        "the earlier steps are listed"
    );
    assert_eq!(
        page.eval("document.querySelector('#step-line').textContent"),
        json!(shown.last().unwrap()),
        "the last step stays shown at the person's turn"
    );
    keep_screenshot(&page, size, "steps");
    // And through it, after the person's first answer.
    play_step(&page, false, step);
    assert_eq!(
        page.eval("document.querySelector('#step-line').textContent"),
        json!(shown.last().unwrap()),
    );
    let errors = page.heard().errors.clone();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

/// The question waiting at `page` answered passively: the first cell, no
/// meeple, no floor, no capture, no ransom (one the page declines by itself
/// is left to it).
fn pass_step(page: &Page) {
    let token = page.eval("game.token");
    match page.eval("game.question.kind").as_str().unwrap() {
        "placement" => {
            page.click("#marks .place");
            page.click("#confirm");
        }
        "ransom"
            if page.eval("document.querySelectorAll('#options button').length") == json!(0) => {}
        _ => page.click(r#"#options button[data-index="0"]"#),
    }
    page.wait(&format!("game.token !== {token}"));
}

/// A ransom (T11) is offered to a person once: declined, the page declines
/// it by itself at the person's next turns, while the prisoner is held, and
/// shows "Pay a ransom" instead, which brings the question back at the next
/// turn. Then, on the new-game form, the pack chooser sends the packs in
/// the order the user built (↑), the server putting their requirement
/// first, and a pack's setting of the wrong type is refused in words.
#[test]
#[cfg_attr(
    no_browser,
    ignore = "`chromium` is not on PATH (apt-get install chromium; TOWERLAB_REQUIRE_BROWSER=1 requires it)"
)]
fn a_ransom_is_offered_once_then_from_a_button_and_packs_keep_the_order_built() {
    let size = (1024, 768);
    let (_server, url) = served(&[]);
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    // A game of two people, played by the API's test players (floors first,
    // prisoners taken) up to a ransom offered.
    let state = (1..60)
        .map(|seed| {
            play_until(addr, new_game(addr, &["person", "person"], seed), |s| {
                s["question"]["kind"] == "ransom" || s["turn"].as_u64().unwrap() > 50
            })
        })
        .find(|s| s["question"]["kind"] == "ransom")
        .expect("a ransom offered in one of 59 games");
    let id = state["id"].as_str().unwrap();
    let link = |seat: u64| {
        let key = crate::serve::key(&state, seat);
        format!(
            "{url}game/{id}?delay=20&s={seat}#seat={}&key={}",
            seat + 1,
            key.as_str().unwrap()
        )
    };
    // Both seats played at this page, from their links: the payer's last,
    // as a ransom once shown is remembered.
    let payer = state["current"].as_u64().unwrap();
    let page = Page::open(size.0, size.1);
    page.screen(size.0, size.1, false);
    page.load(&link(1 - payer));
    page.wait("typeof game === 'object' && game !== null");
    page.load(&link(payer));
    page.wait("typeof game === 'object' && game !== null && mine(game)");
    let payer = json!(payer);
    assert_eq!(page.eval("game.current"), payer);
    assert_eq!(page.eval("game.question.kind"), json!("ransom"));
    assert!(
        page.eval("document.querySelectorAll('#options button').length")
            .as_u64()
            .unwrap()
            >= 2,
        "the ransom is offered, with its options"
    );
    assert!(
        page.eval("document.querySelector('#status').textContent")
            .as_str()
            .unwrap()
            .contains("pay a ransom?")
    );
    keep_screenshot(&page, size, "ransom-offered");
    let token = page.eval("game.token");
    page.click(r#"#options button[data-index="0"]"#);
    page.wait(&format!("game.token !== {token}"));
    // The payer's next turn: the question is declined by itself.
    let mut declined = false;
    for _ in 0..100 {
        let here = page.eval("game.current") == payer;
        if here
            && page.eval("game.question.kind === 'action' && game.last.decision === 'ransom'")
                == json!(true)
        {
            declined = true;
            break;
        }
        assert!(
            !(here && page.eval("game.question.kind === 'ransom' && document.querySelectorAll('#options button').length > 0") == json!(true)),
            "the ransom is not asked again"
        );
        pass_step(&page);
    }
    assert!(declined, "the page declined the ransom by itself");
    assert_eq!(page.eval("game.last.label"), json!("Pay no ransom"));
    assert_eq!(
        page.eval("document.querySelector('#ransom').hidden"),
        json!(false),
        "the button shows"
    );
    // Reloaded, the page remembers the ransom it asked about: the question
    // is not asked again, the button shows.
    page.load(&format!("{url}game/{id}?delay=20"));
    page.wait("typeof game === 'object' && game !== null && mine(game)");
    assert_eq!(page.eval("game.current"), payer);
    assert_eq!(
        page.eval("document.querySelector('#ransom').hidden"),
        json!(false),
        "after a reload, the ransom asked about is remembered"
    );
    page.click("#ransom");
    assert_eq!(
        page.eval("document.querySelector('#ransom').disabled"),
        json!(true)
    );
    let mut asked = false;
    for _ in 0..100 {
        if page.eval("game.current") == payer
            && page.eval("game.question.kind === 'ransom' && document.querySelectorAll('#options button').length > 1") == json!(true)
        {
            asked = true;
            break;
        }
        pass_step(&page);
    }
    assert!(asked, "asked for, the ransom is offered again");

    // The pack chooser: black-tower and house/no-gaps ticked, house/no-gaps
    // moved above black-tower.
    page.click("#restart");
    page.wait("!document.querySelector('#new').hidden");
    page.eval(
        "document.querySelector('input[name=rules][value=packs]').checked = true;
         for (const p of ['black-tower', 'house/no-gaps']) {
           const box = document.querySelector(`#packs li[data-pack='${p}'] input`);
           box.checked = true; box.dispatchEvent(new Event('change', { bubbles: true }));
         }
         document.querySelectorAll('#seats select')[1].value = 'greedy'; true",
    );
    while page.eval(
        "(() => { const li = [...document.querySelectorAll('#packs li')]; return li.findIndex(l => l.dataset.pack === 'house/no-gaps') > li.findIndex(l => l.dataset.pack === 'black-tower'); })()",
    ) == json!(true)
    {
        page.click(r#"#packs li[data-pack="house/no-gaps"] button.up"#);
    }
    // A setting of the wrong type, refused in words.
    assert_eq!(
        page.eval("!document.querySelector('#params-box').hidden && !document.querySelector(\"#params [data-name='standard_foundations']\").closest('.param').hidden"),
        json!(true),
        "black-tower's setting is offered"
    );
    page.eval("document.querySelector(\"#params [data-name='standard_foundations']\").value = 'many'; true");
    page.click("#start");
    page.wait("document.querySelector('#new-error').textContent !== ''");
    let error = page.eval("document.querySelector('#new-error').textContent");
    let error = error.as_str().unwrap();
    assert!(
        error.contains("is a whole number") && error.contains("\"many\""),
        "{error}"
    );
    assert!(!error.contains("--") && !error.contains(".toml"), "{error}");
    keep_screenshot(&page, size, "params-refused");
    page.eval(
        "document.querySelector(\"#params [data-name='standard_foundations']\").value = '20'; true",
    );
    page.click("#start");
    page.wait("typeof game === 'object' && game !== null");
    assert_eq!(
        page.eval("request.packs"),
        json!(["house/no-gaps", "black-tower"]),
        "sent in the order built"
    );
    assert_eq!(
        page.eval("game.packs.filter(p => p !== 'base')"),
        json!(["tower", "house/no-gaps", "black-tower"]),
        "played in that order, the requirement first"
    );
    // The one error heard is the refused game's 400.
    let errors: Vec<String> = page
        .heard()
        .errors
        .iter()
        .filter(|e| !(e.contains("status of 400") && e.contains("/api/games\"")))
        .cloned()
        .collect();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}
