//! A whole game against greedy at each of four window sizes, its layout
//! and words measured at every question (see the module above).

use super::*;

/// What the layout lacks at this question: the page scrolls, the board
/// is small, or something the question needs lies outside the window (the
/// status, the placing buttons, the first option button, and the board's
/// marks, which the fitted board shows whole when it can); a target a
/// finger taps is under 44×44 CSS px, or two of the board's round ones
/// overlap; the
/// zoom buttons lie over the board; the side panel scrolls sideways; a
/// floor count is parted from its swatch; a tower's floors are too thin to
/// count. Measured from the page's layout, before anything is scrolled
/// into view. (A JavaScript expression whose value is the list of faults.)
pub(super) fn layout_faults((width, height): (u32, u32)) -> String {
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
  const marks = [...document.querySelectorAll('#marks .place, #marks .spot[data-index]')];
  const shown = (r) => { const x = r.left + r.width / 2, y = r.top + r.height / 2; return x >= stage.left && x <= stage.right && y >= stage.top && y <= stage.bottom; };
  if (view.fitted && view.whole) {
    for (const m of marks) {
      const r = m.getBoundingClientRect();
      if (!shown(r)) faults.push(`a mark at ${r.left},${r.top} is outside the board's ${JSON.stringify(stage)}`);
    }
  }
  if (view.fitted && marks.length && !marks.some((m) => shown(m.getBoundingClientRect()))) faults.push('the framed board shows none of its marks');
  // Targets a finger taps: every button, link, summary and field of the
  // game, every cell and spot to choose (WCAG 2.5.5); the board's spots
  // do not overlap.
  const game_ = document.querySelector('#game');
  const tappable = [...game_.querySelectorAll('button, summary, a[href], input, select, #marks .place, #marks .spot[data-index]')].filter((e) => e.getClientRects().length > 0);
  for (const e of tappable) {
    const r = e.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) faults.push(`a target is ${r.width.toFixed(1)}x${r.height.toFixed(1)}: ${e.outerHTML.slice(0, 80)}`);
  }
  // (A spot is a round target, 44 px across: two overlap when their
  // middles are nearer than that.)
  const spots = [...document.querySelectorAll('#marks .spot[data-index]')].map((e) => e.getBoundingClientRect());
  for (let i = 0; i < spots.length; i++) for (let j = i + 1; j < spots.length; j++) {
    const a = spots[i], b = spots[j];
    const apart = Math.hypot((a.left + a.right - b.left - b.right) / 2, (a.top + a.bottom - b.top - b.bottom) / 2);
    if (apart < Math.min(a.width, b.width) - 0.5) faults.push(`two spots overlap: ${apart.toFixed(1)} px apart, at ${a.left},${a.top} and ${b.left},${b.top}`);
  }
  const zoom = document.querySelector('#zoom').getBoundingClientRect();
  if (zoom.left < stage.right && zoom.right > stage.left && zoom.top < stage.bottom && zoom.bottom > stage.top) faults.push(`the zoom buttons ${JSON.stringify(zoom)} lie over the board ${JSON.stringify(stage)}`);
  const side = document.querySelector('#side');
  if (side.scrollWidth > side.clientWidth) {
    const edge = side.getBoundingClientRect().left + side.clientWidth;
    const wide = [...side.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > edge).map((e) => e.outerHTML.slice(0, 60));
    faults.push(`the side panel scrolls sideways: ${side.scrollWidth} in ${side.clientWidth}: ${wide.join(' | ')}`);
  }
  for (const c of document.querySelectorAll('#players .count')) {
    const sw = c.querySelector('.swatch').getBoundingClientRect(), r = c.getBoundingClientRect();
    if (r.height > 2 * Math.max(sw.height, 12)) faults.push(`a floor count is parted from its swatch: ${c.textContent}`);
  }
  // A tower on the board: each of up to six floors at least 6 px high,
  // its height written at least 12 px high.
  for (const t of document.querySelectorAll('#board g.tower')) {
    const floors = [...t.querySelectorAll('.floor')];
    if (!shown(t.getBoundingClientRect()) || floors.length === 0 || floors.length > 6) continue;
    for (const f of floors) if (f.getBoundingClientRect().height < 6) faults.push(`a tower's floor is ${f.getBoundingClientRect().height.toFixed(1)} px high at scale ${view.scale}`);
    const label = t.querySelector('.height').getBoundingClientRect().height;
    if (label < 12) faults.push(`a tower's height is written ${label.toFixed(1)} px high`);
  }
  return faults;
})()"#
        .replace("WIDTH", &width.to_string())
        .replace("HEIGHT", &height.to_string())
}

/// The opening frame: every tile and legal cell inside the board, which
/// they fill at least half of, across or down. (A JavaScript expression
/// whose value is the list of faults.)
const OPENING: &str = r#"(() => {
  const stage = document.querySelector('#stage').getBoundingClientRect();
  const boxes = [...document.querySelectorAll('#board g.tile, #marks .place')].map((e) => e.getBoundingClientRect());
  const x0 = Math.min(...boxes.map((b) => b.left)), x1 = Math.max(...boxes.map((b) => b.right));
  const y0 = Math.min(...boxes.map((b) => b.top)), y1 = Math.max(...boxes.map((b) => b.bottom));
  const faults = [];
  if (boxes.length < 2) faults.push(`${boxes.length} tiles and cells`);
  if (x0 < stage.left - 0.5 || x1 > stage.right + 0.5 || y0 < stage.top - 0.5 || y1 > stage.bottom + 0.5) faults.push(`the game ${[x0, y0, x1, y1]} leaves the board ${JSON.stringify(stage)}`);
  if (x1 - x0 < 0.5 * stage.width && y1 - y0 < 0.5 * stage.height) faults.push(`the game ${[x0, y0, x1, y1]} is small in the board ${JSON.stringify(stage)}`);
  return faults;
})()"#;

/// What the words lack at this question, on Ana's page (Ana plays seat 1
/// against Bo, a greedy bot): the page says who she is; no line says
/// "player N" or names a segment by its number; her own events say "you",
/// never her name. (A JavaScript
/// expression whose value is the list of faults.)
const WORDS: &str = r#"(() => {
  const faults = [];
  const who = document.querySelector('#whoami').textContent.trim();
  if (who !== 'You are Ana, seat 1') faults.push(`the page says "${who}"`);
  for (const e of document.querySelectorAll('#status, #options button, #step-line, #step-list li, #events li, #players td, #floor-text')) {
    if (/player \d/.test(e.textContent)) faults.push(`"player N" in "${e.textContent}"`);
    if (/segment \d/.test(e.textContent)) faults.push(`a segment by its number in "${e.textContent}"`);
    if (/Ana (places|puts|adds|scores|pays)/.test(e.textContent)) faults.push(`Ana named on her own page: "${e.textContent}"`);
  }
  return faults;
})()"#;

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
    page.eval(
        "document.querySelectorAll('#seats select')[1].value = 'greedy';
         const names = document.querySelectorAll('#seats input.name');
         names[0].value = 'Ana'; names[1].value = 'Bo';
         document.querySelector('#seed').value = '7'; true",
    );
    press(&page, touch, "#start");
    page.wait("typeof game === 'object' && game !== null");
    page.wait("game.status !== 'bot'");
    let opening: Vec<String> = serde_json::from_value(page.eval(OPENING)).unwrap();
    assert!(
        opening.is_empty(),
        "at {width}x{height}, the opening frame: {opening:#?}"
    );
    keep_first_screenshot(&page, (width, height), &format!("opening-{width}x{height}"));
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
         faults: game.status === 'over' ? [] : [...{}, ...{WORDS}], \
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
            keep_screenshot(&page, (width, height), &format!("play-{width}x{height}"));
            shot = true;
        }
        play_step(&page, touch, step);
        step += 1;
    }
    assert!(shot, "a screenshot of the game in progress");
    let words: Vec<String> = serde_json::from_value(
        page.eval("[...document.querySelectorAll('#events li')].map((li) => li.textContent)"),
    )
    .unwrap();
    assert!(
        words.iter().any(|w| w.contains("you place "))
            && words.iter().any(|w| w.contains("Bo places ")),
        "Ana's events say \"you\", Bo's his name: {:#?}",
        &words[..8]
    );
    assert!(
        words[0].contains("final scores: you ") && words[0].contains(", Bo "),
        "{}",
        words[0]
    );
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
    let winner = winner.as_str().unwrap();
    assert!(
        winner.contains(&format!("with {} points", ranked[0]))
            && ["You win", "Bo (greedy) wins", "You and Bo (greedy) tie"]
                .iter()
                .any(|w| winner.starts_with(w)),
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
