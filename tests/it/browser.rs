//! The one browser driver of the browser tests (`report_browser`,
//! `serve_browser`): Debian's headless Chromium over the DevTools protocol
//! (headless_chrome), one page, and what the page did that a test listens
//! for (exceptions, console and log errors and warnings, the URLs it asked
//! for). Evaluation (`Runtime.evaluate`, by value) and input
//! (`Input.dispatchMouseEvent`) go through `call_method`: one round trip a
//! call, and arrays come back as values.
//!
//! Both browser tests are marked ignored when `chromium` was not on `PATH`
//! at build time (build.rs sets the cfg `no_browser`), so `cargo test` shows
//! them as ignored, never as passed; with `TOWERLAB_REQUIRE_BROWSER=1` (CI)
//! they run, and fail when the browser is missing.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::prelude::{BASE64_STANDARD, Engine};
use headless_chrome::protocol::cdp::types::Event as CdpEvent;
use headless_chrome::protocol::cdp::{Emulation, Input, Log, Network, Page as CdpPage, Runtime};
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::{Value, json};

/// The browser: `chromium` on `PATH`. A browser test reaches this only when
/// the browser was there at build time or is required.
pub fn chromium() -> PathBuf {
    std::env::var_os("PATH")
        .and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join("chromium"))
                .find(|p| p.is_file())
        })
        .expect("`chromium` is not on PATH (apt-get install chromium), and TOWERLAB_REQUIRE_BROWSER=1 requires it or it was there at build time")
}

/// What the page did that the tests listen for.
#[derive(Default)]
pub struct Heard {
    /// Uncaught exceptions, console and log errors.
    pub errors: Vec<String>,
    /// Console and log warnings.
    pub warnings: Vec<String>,
    /// The URLs the page requested.
    pub requests: Vec<String>,
}

/// Headless Chromium with one page open, `width` by `height` pixels, its
/// runtime, log and network events listened to. The browser quits, and its
/// temporary profile goes, when dropped.
pub struct Page {
    _browser: Browser,
    tab: Arc<Tab>,
    heard: Arc<Mutex<Heard>>,
}

impl Page {
    pub fn open(width: u32, height: u32) -> Page {
        let options = LaunchOptions::default_builder()
            .path(Some(chromium()))
            .headless(true)
            .sandbox(false)
            .window_size(Some((width, height)))
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
    pub fn load(&self, url: &str) {
        self.tab
            .navigate_to(url)
            .and_then(|t| t.wait_until_navigated())
            .unwrap_or_else(|e| panic!("loading {url}: {e}"));
        self.wait("document.readyState === 'complete'");
    }

    /// Evaluate a JavaScript expression in the page (awaiting a promise);
    /// its value.
    pub fn eval(&self, expression: &str) -> Value {
        let reply = self
            .tab
            .call_method(Runtime::Evaluate {
                expression: expression.to_string(),
                return_by_value: Some(true),
                await_promise: Some(true),
                generate_preview: None,
                silent: None,
                include_command_line_api: None,
                user_gesture: None,
                object_group: None,
                context_id: None,
                throw_on_side_effect: None,
                timeout: None,
                disable_breaks: None,
                repl_mode: None,
                allow_unsafe_eval_blocked_by_csp: None,
                unique_context_id: None,
                serialization_options: None,
            })
            .unwrap_or_else(|e| panic!("`{expression}`: {e}"));
        if let Some(e) = reply.exception_details {
            panic!("`{expression}` threw: {e:?}");
        }
        reply.result.value.unwrap_or(Value::Null)
    }

    /// Wait (up to a minute) until `expression` is true. The page itself
    /// looks every 10 ms and answers once: one round trip, where polling
    /// from here would cost one a look (a call waits up to 100 ms for
    /// headless_chrome's reader to let go of the connection).
    pub fn wait(&self, expression: &str) {
        self.wait_showing(expression, "null");
    }

    /// [`Page::wait`], and when it fails, the value of `show` (what the
    /// page holds that tells why) in the message.
    pub fn wait_showing(&self, expression: &str, show: &str) {
        let waited = self.eval(&format!(
            "new Promise((done, failed) => {{\n\
             const until = Date.now() + 60000;\n\
             const look = () => {{\n\
             let holds;\n\
             try {{ holds = ({expression}); }} catch (e) {{ failed(e); return; }}\n\
             if (holds === true) done(true);\n\
             else if (Date.now() > until) done(false);\n\
             else setTimeout(look, 10);\n\
             }};\n\
             look();\n\
             }})"
        ));
        if waited != json!(true) {
            panic!(
                "waited a minute for {expression}; the page shows {}",
                self.eval(show)
            );
        }
    }

    /// Wait (up to a minute) until `expression` is true on the page the
    /// one shown navigates to (a click that leads to another page): asked
    /// again while the page is replaced, whose evaluation then fails.
    pub fn wait_after_navigation(&self, expression: &str) {
        let until = std::time::Instant::now() + Duration::from_secs(60);
        while std::time::Instant::now() < until {
            let reply = self.tab.evaluate(expression, false);
            if reply.is_ok_and(|r| r.value == Some(json!(true))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("waited a minute for {expression} after a navigation");
    }

    /// Press a key (`ArrowRight`, `End`) on the focused element.
    pub fn key(&self, key: &str) {
        self.tab
            .press_key(key)
            .unwrap_or_else(|e| panic!("key {key}: {e}"));
    }

    /// A real mouse click (press and release) in the middle of the element
    /// `selector`, scrolled into view first.
    pub fn click(&self, selector: &str) {
        let (x, y) = self.middle(selector);
        for kind in [
            Input::DispatchMouseEventTypeOption::MousePressed,
            Input::DispatchMouseEventTypeOption::MouseReleased,
        ] {
            self.tab
                .call_method(Input::DispatchMouseEvent {
                    Type: kind,
                    x,
                    y,
                    button: Some(Input::MouseButton::Left),
                    click_count: Some(1),
                    modifiers: None,
                    timestamp: None,
                    buttons: None,
                    force: None,
                    tangential_pressure: None,
                    tilt_x: None,
                    tilt_y: None,
                    twist: None,
                    delta_x: None,
                    delta_y: None,
                    pointer_Type: None,
                })
                .unwrap_or_else(|e| panic!("click {selector}: {e}"));
        }
    }

    /// Make the page's viewport exactly `width` by `height` pixels (a
    /// window's is smaller by the browser's frame, and no narrower than
    /// about 500 pixels); a `phone`'s honours the page's viewport tag and
    /// has a touch screen (`navigator.maxTouchPoints` 5, touch events).
    /// Before [`Page::load`].
    pub fn screen(&self, width: u32, height: u32, phone: bool) {
        let metrics: Emulation::SetDeviceMetricsOverride = serde_json::from_value(json!({
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": phone
        }))
        .expect("device metrics");
        self.tab
            .call_method(metrics)
            .expect("Emulation.setDeviceMetricsOverride");
        if !phone {
            return;
        }
        self.tab
            .call_method(Emulation::SetTouchEmulationEnabled {
                enabled: true,
                max_touch_points: Some(5),
            })
            .expect("Emulation.setTouchEmulationEnabled");
    }

    /// One touch event: `kind` (`touchStart`, `touchMove`, `touchEnd`) with
    /// fingers at `points` (page coordinates; each finger's id its index).
    pub fn touch(&self, kind: &str, points: &[(f64, f64)]) {
        let points: Vec<Value> = points
            .iter()
            .enumerate()
            .map(|(id, (x, y))| json!({ "x": x, "y": y, "id": id }))
            .collect();
        let event: Input::DispatchTouchEvent =
            serde_json::from_value(json!({ "type": kind, "touchPoints": points }))
                .expect("a touch event");
        self.tab
            .call_method(event)
            .unwrap_or_else(|e| panic!("{kind}: {e}"));
    }

    /// A tap (a finger down and up) in the middle of the element
    /// `selector`, scrolled into view first.
    pub fn tap(&self, selector: &str) {
        let (x, y) = self.middle(selector);
        self.touch("touchStart", &[(x, y)]);
        self.touch("touchEnd", &[]);
    }

    /// The middle of the element `selector` in the window, scrolled into
    /// view first.
    fn middle(&self, selector: &str) -> (f64, f64) {
        let at = self.eval(&format!(
            "(e => {{ e.scrollIntoView({{ block: 'nearest', inline: 'nearest' }}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})(document.querySelector('{selector}'))"
        ));
        (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())
    }

    /// A PNG of the page from its top, `height` pixels tall (beyond the
    /// window when taller).
    pub fn screenshot(&self, width: f64, height: f64) -> Vec<u8> {
        let shot = self
            .tab
            .call_method(CdpPage::CaptureScreenshot {
                format: Some(CdpPage::CaptureScreenshotFormatOption::Png),
                quality: None,
                clip: Some(CdpPage::Viewport {
                    x: 0.0,
                    y: 0.0,
                    width,
                    height,
                    scale: 1.0,
                }),
                from_surface: Some(true),
                capture_beyond_viewport: Some(true),
                optimize_for_speed: None,
            })
            .expect("Page.captureScreenshot");
        let png = BASE64_STANDARD
            .decode(shot.data)
            .expect("a base64 screenshot");
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
        png
    }

    /// What the page did so far (after a round trip, so that the events of
    /// the last call have arrived).
    pub fn heard(&self) -> std::sync::MutexGuard<'_, Heard> {
        self.eval("0");
        self.heard.lock().unwrap()
    }
}

/// Note an event of the page that the tests care about.
fn listen(heard: &mut Heard, event: &CdpEvent) {
    match event {
        CdpEvent::RuntimeExceptionThrown(e) => heard
            .errors
            .push(format!("exception: {:?}", e.params.exception_details)),
        CdpEvent::RuntimeConsoleAPICalled(e) => {
            use Runtime::ConsoleAPICalledEventTypeOption as Kind;
            let line = format!("console {:?}: {:?}", e.params.Type, e.params.args);
            match e.params.Type {
                Kind::Error | Kind::Assert => heard.errors.push(line),
                Kind::Warning => heard.warnings.push(line),
                _ => {}
            }
        }
        CdpEvent::LogEntryAdded(e) => {
            use Log::LogEntryLevel as Level;
            let line = format!("log: {:?}", e.params.entry);
            match e.params.entry.level {
                Level::Error => heard.errors.push(line),
                Level::Warning => heard.warnings.push(line),
                _ => {}
            }
        }
        CdpEvent::NetworkRequestWillBeSent(e) => {
            heard.requests.push(e.params.request.url.clone());
        }
        _ => {}
    }
}
