//! The report in a real browser (Debian's headless Chromium, driven over the
//! DevTools protocol by headless_chrome): no console errors, no network, the
//! viewer steps through a game, another game is picked and stepped, and a
//! screenshot.
//!
//! The browser test is marked ignored when `chromium` was not on `PATH` at
//! build time (build.rs sets the cfg `no_browser`), unless
//! `TOWERLAB_REQUIRE_BROWSER=1` (as in CI), where a missing browser fails it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::prelude::{BASE64_STANDARD, Engine};
use headless_chrome::protocol::cdp::types::Event as CdpEvent;
use headless_chrome::protocol::cdp::{Log, Network, Page as CdpPage, Runtime};
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::{Value, json};

use crate::report::report;

/// The browser, when installed.
pub(crate) fn chromium() -> Option<PathBuf> {
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
pub(crate) struct Page {
    _browser: Browser,
    tab: Arc<Tab>,
    heard: Arc<Mutex<Heard>>,
}

impl Page {
    pub(crate) fn open(exe: &Path) -> Page {
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
    pub(crate) fn load(&self, url: &str) {
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
    pub(crate) fn eval(&self, expression: &str) -> Value {
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
    pub(crate) fn screenshot(&self, height: f64) -> Vec<u8> {
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

/// The shown viewer's variant and game: `"V G"`.
const SHOWN_GAME: &str = "(v => v.dataset.variant + ' ' + v.dataset.game)(document.querySelector('#replay .viewer:not([hidden])'))";
/// The variants whose game picker is shown.
const PICKERS_SHOWN: &str = "[...document.querySelectorAll('#replay .game-picker')].filter(e => e.getClientRects().length > 0).map(e => e.dataset.variant).join(' ')";

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
    let left_at = page.eval(DRAWN_TILES);
    page.click(".tab[data-variant=\"1\"]");
    assert_eq!(
        page.eval("document.querySelector('.viewer[data-viewer=\"0\"]').hidden"),
        json!(true)
    );
    assert_eq!(page.eval(SHOWN_GAME), json!("1 0"));
    assert_eq!(page.eval(DRAWN_TILES), json!(1));
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
