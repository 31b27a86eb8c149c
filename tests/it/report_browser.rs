//! The report in a real browser (the `browser` driver): no console errors
//! or warnings, no network, the viewer steps through a game framed on the
//! tiles it has (a game opens on its start tile, in the middle of the
//! picture, not on an empty corner of its final board), another game is
//! picked and stepped, and a screenshot (`TOWERLAB_REPORT_SCREENSHOT=FILE`
//! keeps it). Ignored without `chromium`, as `browser` says.

use std::path::PathBuf;

use serde_json::json;

use crate::browser::Page;
use crate::report::report;

/// Tiles drawn (not hidden) in the viewer on show.
const DRAWN_TILES: &str = "[...document.querySelectorAll('#replay .viewer:not([hidden]) g.tile')].filter(e => e.getClientRects().length > 0).length";
const ALL_TILES: &str = "document.querySelectorAll('#replay .viewer:not([hidden]) g.tile').length";
const HEADING: &str =
    "document.querySelector('#replay .viewer:not([hidden]) .turn .label').textContent";

/// The shown viewer's variant and game: `"V G"`.
const SHOWN_GAME: &str = "(v => v.dataset.variant + ' ' + v.dataset.game)(document.querySelector('#replay .viewer:not([hidden])'))";
/// The variants whose game picker is shown.
const PICKERS_SHOWN: &str = "[...document.querySelectorAll('#replay .game-picker')].filter(e => e.getClientRects().length > 0).map(e => e.dataset.variant).join(' ')";

/// How the shown viewer frames its game, as faults: a tile drawn outside
/// the picture; a lone start tile narrower than an eighth of the picture,
/// or away from its middle third.
const FRAMED: &str = r#"(() => {
  const v = document.querySelector('#replay .viewer:not([hidden])');
  const svg = v.querySelector('svg.picture');
  if (!svg) return ['the picture is not framed'];
  const box = svg.getBoundingClientRect();
  const tiles = [...v.querySelectorAll('g.tile')].filter((e) => e.getClientRects().length > 0).map((e) => e.getBoundingClientRect());
  const faults = [];
  for (const t of tiles) {
    if (t.left < box.left - 0.5 || t.right > box.right + 0.5 || t.top < box.top - 0.5 || t.bottom > box.bottom + 0.5) faults.push(`a tile at ${t.left},${t.top} is outside the picture ${JSON.stringify(box)}`);
  }
  if (tiles.length === 1) {
    const t = tiles[0], x = (t.left + t.right) / 2 - box.left, y = (t.top + t.bottom) / 2 - box.top;
    if (t.width < box.width / 8) faults.push(`the start tile is ${t.width} px wide in a picture ${box.width} px wide`);
    if (x < box.width / 3 || x > 2 * box.width / 3 || y < box.height / 3 || y > 2 * box.height / 3) faults.push(`the start tile is at ${x},${y} in a picture ${box.width}x${box.height}`);
  }
  return faults;
})()"#;

/// Pick game `game` of variant `variant` as a person does: choose it in
/// the picker, which tells the page it changed.
fn pick(variant: usize, game: u64) -> String {
    format!(
        "(p => {{ p.focus(); p.value = '{game}'; p.dispatchEvent(new Event('change', {{ bubbles: true }})); return p.value; }})(document.querySelector('.game-picker[data-variant=\"{variant}\"]'))"
    )
}

#[test]
#[cfg_attr(
    no_browser,
    ignore = "`chromium` is not on PATH (apt-get install chromium; TOWERLAB_REQUIRE_BROWSER=1 requires it)"
)]
fn report_opens_in_chromium_and_steps_through_a_game() {
    let dir = crate::common::temp_dir("report-browser");
    let (path, _) = report();
    let page = Page::open(1280, 900);
    let file = format!("file://{}", path.canonicalize().unwrap().display());
    page.load(&file);
    assert_eq!(
        page.eval("document.title"),
        json!("towerlab: tower vs black-tower")
    );

    // Start: the start tile alone, framed; → and ← step; the buttons too.
    assert_eq!(page.eval(DRAWN_TILES), json!(1));
    assert_eq!(page.eval(HEADING), json!("Start tile"));
    assert_eq!(page.eval(FRAMED), json!([]), "the start");
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
    assert_eq!(page.eval(FRAMED), json!([]), "turn 1");
    page.key("End");
    let all = page.eval(ALL_TILES);
    assert!(all.as_u64().unwrap() > 40, "{all} tiles");
    assert_eq!(page.eval(DRAWN_TILES), all);
    assert_eq!(page.eval(HEADING), json!("End: final scoring"));
    assert_eq!(page.eval(FRAMED), json!([]), "the end");

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
    let left_at = page.eval(DRAWN_TILES);
    page.click(".tab[data-variant=\"1\"]");
    assert_eq!(
        page.eval("document.querySelector('.viewer[data-viewer=\"0\"]').hidden"),
        json!(true)
    );
    assert_eq!(page.eval(SHOWN_GAME), json!("1 0"));
    assert_eq!(page.eval(DRAWN_TILES), json!(1));
    assert_eq!(page.eval(FRAMED), json!([]), "another variant's start");
    page.key("ArrowRight");
    assert_eq!(page.eval(DRAWN_TILES), json!(2));

    // Another game of that variant, picked, from its start; stepped.
    assert_eq!(page.eval(PICKERS_SHOWN), json!("1"));
    page.eval(&pick(1, 2));
    assert_eq!(page.eval(SHOWN_GAME), json!("1 2"));
    assert_eq!(page.eval(DRAWN_TILES), json!(1));
    assert_eq!(page.eval(HEADING), json!("Start tile"));
    page.click("[data-step=\"next\"]");
    page.key("ArrowRight");
    assert_eq!(page.eval(DRAWN_TILES), json!(3));
    page.key("End");
    let tiles = page.eval(DRAWN_TILES).as_u64().unwrap();
    assert!(tiles > 40, "{tiles} tiles");
    assert_eq!(page.eval(HEADING), json!("End: final scoring"));
    // The first variant, as it was left; its picker; the game picked there.
    page.click(".tab[data-variant=\"0\"]");
    assert_eq!(page.eval(PICKERS_SHOWN), json!("0"));
    assert_eq!(page.eval(SHOWN_GAME), json!("0 0"));
    page.eval(&pick(0, 1));
    assert_eq!(page.eval(SHOWN_GAME), json!("0 1"));
    assert_eq!(page.eval(DRAWN_TILES), json!(1));
    page.eval(&pick(0, 0));
    assert_eq!(page.eval(DRAWN_TILES), left_at, "game 0 kept its turn");
    // The variant's tab shows the game last picked in it.
    page.click(".tab[data-variant=\"1\"]");
    assert_eq!(page.eval(SHOWN_GAME), json!("1 2"));
    assert_eq!(page.eval(DRAWN_TILES).as_u64(), Some(tiles));
    page.click(".tab[data-variant=\"0\"]");

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
    let png = page.screenshot(1280.0, height);
    assert!(png.len() > 50_000, "a {} byte screenshot", png.len());
    let out = dir.path().join("report.png");
    std::fs::write(&out, &png).unwrap();
    if let Some(keep) = std::env::var_os("TOWERLAB_REPORT_SCREENSHOT") {
        std::fs::write(&keep, &png).unwrap();
        eprintln!("screenshot written to {}", PathBuf::from(keep).display());
    }

    // Nothing went wrong, and nothing came from the network.
    let heard = page.heard();
    let mut problems = [heard.errors.clone(), heard.warnings.clone()].concat();
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
