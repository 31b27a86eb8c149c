//! The studio (`/studio`) in headless Chromium, on a phone (tapped) and a
//! desktop (clicked): a pack started from a template, a misspelt hook
//! typed and seen marked at its line with the name meant, then fixed; a
//! failing scenario run (expected and got shown), then passing; a board
//! set up by clicks whose range and captures the rules answer; the board
//! saved as a scenario that passes; the pack kept across a reload; a
//! neutral figure of a pack that declares one put on the board; a game
//! started with it on the game's page, against a bot (three of the
//! person's turns played, the page's layout measured at each question)
//! and with a friend (whose seat's link the game's page gives); a short comparison run to its
//! verdict; the pack downloaded and `towerlab check` taking it as it is.
//! No console errors. `TOWERLAB_PLAY_SCREENSHOTS=DIR` keeps
//! `DIR/studio-WIDTHxHEIGHT.png` (docs/images/studio-1280x860.png is made
//! so).

use super::*;

/// The capture template's script, a hook misspelt on line 4.
const MISSPELT: &str = "// Monks are spared.\n\n// A hook's name, misspelt:\nfn may_captur(tower, meeple, board) {\n    meeple.on != \"cloister\" && previous(tower, meeple, board)\n}\n";

/// A scenario of the template's rule: a monk next to a one-floor tower.
fn monk_scenario(expected: &str) -> String {
    format!(
        "[[scenario]]\nname = \"a monk in range\"\ntiles = [\n  {{ tile = \"tower/F\", at = [0, 0] }},\n  {{ tile = \"base/L\", at = [1, 0] }},\n]\ntowers = [{{ at = [0, 0], floors = [\"regular\"] }}]\nmeeples = [{{ owner = 1, at = [1, 0], on = \"cloister\" }}]\n[scenario.expect]\ncapturable = [{{ tower = [0, 0], meeples = {expected} }}]\n"
    )
}

#[test]
#[cfg_attr(
    no_browser,
    ignore = "`chromium` is not on PATH (apt-get install chromium; TOWERLAB_REQUIRE_BROWSER=1 requires it)"
)]
fn a_rule_written_checked_tested_played_and_compared_at_a_phone_and_a_desktop() {
    let (_server, url) = served(&[]);
    for (size, phone) in [((390, 844), true), ((1280, 860), false)] {
        studio_flow(&url, size, phone);
    }
}

fn studio_flow(url: &str, (width, height): (u32, u32), phone: bool) {
    let page = Page::open(width, height);
    page.screen(width, height, phone);
    page.load(&format!("{url}studio"));
    page.wait("document.querySelectorAll('#start option').length > 0 && document.querySelectorAll('#hooks li').length > 0");
    // Every hook of the table is listed beside the editor.
    assert_eq!(
        page.eval("document.querySelectorAll('#hooks li').length"),
        json!(towerlab::rules::script::Hook::ALL.len())
    );
    // The reference's folds are filled, the scenario format's every key
    // among them, with an example.
    let filled = page.eval(
        "['#reads li', '#effects li', '#scenario-position tr', '#scenario-expect tr'] \
         .map(s => document.querySelectorAll(s).length)",
    );
    assert!(
        filled
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n.as_u64().unwrap() >= 4),
        "{filled}"
    );
    assert_eq!(
        page.eval("document.querySelector('#scenario-position').textContent.includes('rot = 90')"),
        json!(true)
    );
    // Start from the capture rule's template.
    start_from(&page, phone, "capture-rule", "my-rule");
    page.wait("studio.kept.pack === 'my-rule' && studio.kept.file === 'capture-rule.rhai'");
    page.wait("document.querySelector('#check-status').className === 'ok'");
    phone_fits(&page, phone);

    // A misspelt hook, typed: marked at its line, with the name meant.
    type_text(&page, MISSPELT);
    page.wait("document.querySelector('#gutter div.bad') !== null");
    assert_eq!(
        page.eval("[...document.querySelectorAll('#gutter div.bad')].map(d => d.textContent)"),
        json!(["4"]),
        "the misspelt hook's line is marked"
    );
    let problem = page.eval("document.querySelector('#problems li').textContent");
    assert!(
        problem
            .as_str()
            .unwrap()
            .contains("did you mean `may_capture`"),
        "{problem}"
    );
    // Fixed: the mark goes.
    type_text(&page, &MISSPELT.replace("may_captur(", "may_capture("));
    page.wait(
        "document.querySelector('#check-status').className === 'ok' && !document.querySelector('#gutter div.bad')",
    );

    // A failing scenario, then the same passing.
    open_file(&page, phone, "tests/capture.toml");
    type_text(&page, &monk_scenario("[[1, 0]]"));
    press(&page, phone, "#tool-tabs button[data-tab=tests]");
    press(&page, phone, "#run-tests");
    page.wait("document.querySelector('#tests li.fail') !== null");
    let failed = page.eval("document.querySelector('#tests li.fail .expected-got').textContent");
    let failed = failed.as_str().unwrap();
    assert!(
        failed.contains("expected[[1, 0]]") && failed.contains("got[]"),
        "expected and got shown: {failed}"
    );
    // What failed and what to do, in plain words where the failure shows.
    let advice = page.eval("document.querySelector('#tests li.fail .advice').textContent");
    let advice = advice.as_str().unwrap();
    assert!(
        advice.contains("The rules answered otherwise than the scenario expects: `capturable`")
            && advice.contains("Save as a scenario"),
        "{advice}"
    );
    assert_eq!(
        page.eval("(e => e.scrollWidth <= e.clientWidth)(document.querySelector('#tests li.fail .advice'))"),
        json!(true),
        "the advice wraps"
    );
    to_code(&page, phone);
    type_text(&page, &monk_scenario("[]"));
    press(&page, phone, "#tool-tabs button[data-tab=tests]");
    press(&page, phone, "#run-tests");
    page.wait("document.querySelector('#tests-summary').textContent === '1 of 1 passed'");

    // A board set up by clicks: a one-floor tower reaches its 4
    // neighbours and its own tile; the monk beside it is spared.
    press(&page, phone, "#tool-tabs button[data-tab=board]");
    // The empty board answered first (its answers laid out).
    page.wait(
        "studio.answers !== null && document.querySelector('#answer-status').textContent === ''",
    );
    press(&page, phone, "input[name=tool][value=tower]");
    press(&page, phone, "#grid button[data-at=\"0,0\"]");
    // The second tap at once, as a person taps: the cells are redrawn in
    // place, so a tap is not lost when the first board's answers arrive.
    press(&page, phone, "#grid button[data-at=\"0,0\"]");
    page.wait_showing(
        "document.querySelectorAll('#grid button.range').length === 5",
        "[innerWidth, JSON.stringify(studio.board), document.querySelector('input[name=tool]:checked').value, document.querySelector('#answer-status').textContent]",
    );
    press(&page, phone, "input[name=tool][value=tile]");
    press(&page, phone, "#grid button[data-at=\"1,0\"]");
    press(&page, phone, "input[name=tool][value=meeple]");
    press(&page, phone, "#grid button[data-at=\"1,0\"]");
    page.wait("studio.answers !== null && studio.answers.towers.length === 1 && document.querySelector('#answers').textContent.includes('may capture')");
    let answered = page.eval("document.querySelector('#answers').textContent");
    assert!(
        answered.as_str().unwrap().contains("may captureno meeple"),
        "the monk is spared: {answered}"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#grid button.taken').length"),
        json!(0)
    );
    // A road tile chosen and turned: turned so that it cannot fit, the
    // board says the turn that fits; a tap on it turns it, and a meeple
    // put on it stands on its road, in range; another feature chosen.
    page.eval("(s => { s.value = 'base/RFr'; s.dispatchEvent(new Event('change')); })(document.querySelector('#tile-kind'))");
    press(&page, phone, "#turn-tile");
    press(&page, phone, "input[name=tool][value=tile]");
    press(&page, phone, "#grid button[data-at=\"0,-1\"]");
    page.wait("document.querySelector('#answer-status').textContent.includes('tap it to turn it; turned 0° or 180° it fits (`rot = 0` or `rot = 180`')");
    assert_eq!(
        page.eval(
            "(e => e.scrollWidth <= e.clientWidth)(document.querySelector('#answer-status'))"
        ),
        json!(true),
        "the error wraps"
    );
    press(&page, phone, "#grid button[data-at=\"0,-1\"]");
    // The turned tile fits: the rules answer.
    page.wait(
        "studio.answers !== null && document.querySelector('#answer-status').textContent === ''",
    );
    press(&page, phone, "input[name=tool][value=meeple]");
    page.wait("document.querySelector('input[name=tool][value=meeple]').checked");
    press(&page, phone, "#grid button[data-at=\"0,-1\"]");
    page.wait(
        "document.querySelector('#grid button[data-at=\"0,-1\"]').classList.contains('taken')",
    );
    assert_eq!(
        page.eval("document.querySelector('#meeple-on').selectedOptions[0].textContent"),
        json!("the road from west to east")
    );
    page.eval(
        "(s => { s.value = [...s.options].find(o => o.textContent.startsWith('the field')).value; \
               s.dispatchEvent(new Event('change')); })(document.querySelector('#meeple-on'))",
    );
    let text = page.eval("studio.scenarioText('x')");
    let text = text.as_str().unwrap();
    assert!(
        text.contains("{ tile = \"base/RFr\", at = [0, -1], rot = 180 }")
            && text.contains("at = [0, -1], segment = ")
            && text.contains("# the field"),
        "{text}"
    );
    page.wait("studio.answers !== null && document.querySelector('#grid button[data-at=\"0,-1\"]').classList.contains('taken')");
    phone_fits(&page, phone);
    page.eval("window.scrollTo(0, 0)");
    keep_screenshot(&page, (width, height), &format!("studio-{width}x{height}"));
    // Saved as a scenario, which passes.
    press(&page, phone, "#save-scenario");
    page.wait("'tests/studio.toml' in studio.kept.packs['my-rule'].files");
    press(&page, phone, "#tool-tabs button[data-tab=tests]");
    press(&page, phone, "#run-tests");
    page.wait("document.querySelector('#tests-summary').textContent === '2 of 2 passed'");

    // Kept in the browser across a reload.
    page.load(&format!("{url}studio"));
    page.wait(
        "studio.kept.pack === 'my-rule' && document.querySelector('#check-status').className === 'ok'",
    );

    // Compared with The Tower over a few games, to the verdict.
    press(&page, phone, "#tool-tabs button[data-tab=compare]");
    set_input(&page, "#compare-games", "10");
    press(&page, phone, "#compare");
    page.wait("document.querySelector('#compare-verdict p') !== null");
    assert_eq!(
        page.eval("document.querySelector('#compare-status').textContent"),
        json!("20 games played: done")
    );
    // A player's words first; the numbers and the method folded away; no
    // command line.
    let plain = page.eval("document.querySelector('#compare-plain').textContent");
    let plain = plain.as_str().unwrap();
    assert!(plain.contains("wins"), "{plain}");
    for word in ["Holm", "Student", "--", "towerlab"] {
        assert!(!plain.contains(word), "{word} in {plain}");
    }
    assert_eq!(
        page.eval("!document.querySelector('#compare-details').open && !document.querySelector('#compare-verdict').textContent.includes('--')"),
        json!(true)
    );
    // The full report: in its own tab, and saved, with a sign of it.
    assert_eq!(
        page.eval("(async () => (await (await fetch(document.querySelector('#report-save').href)).text()).includes('<svg'))()"),
        json!(true),
        "the report's charts"
    );
    assert_eq!(
        page.eval("(() => { let got = null; const open = window.open; window.open = (u, t) => { got = [u.slice(0, 5), t]; }; \
                   document.querySelector('#report-open').click(); window.open = open; return got; })()"),
        json!(["blob:", "_blank"])
    );
    page.eval(
        "document.querySelector('#report-save').addEventListener('click', e => e.preventDefault())",
    );
    press(&page, phone, "#report-save");
    page.wait("document.querySelector('#report-status').textContent.includes('my-rule-against-tower.html saved to your downloads')");
    phone_fits(&page, phone);

    // Downloaded: a folder that `towerlab check` takes as it is.
    let zip = page.eval(
        "(async () => { let got = null; const click = HTMLAnchorElement.prototype.click; \
         HTMLAnchorElement.prototype.click = function () { got = this.href; }; \
         studio.download(); HTMLAnchorElement.prototype.click = click; \
         const bytes = new Uint8Array(await (await fetch(got)).arrayBuffer()); \
         let s = ''; for (const b of bytes) s += String.fromCharCode(b); return btoa(s); })()",
    );
    // What the page downloads, it uploads again (its zip read back).
    assert_eq!(
        page.eval(
            "(async () => { const files = [['p/pack.toml', 'a = 1\\n'], ['p/tests/é.toml', 'b']]; \
             const read = await studio.unzip(new Uint8Array(await studio.zip(files).arrayBuffer())); \
             return JSON.stringify(read) === JSON.stringify(Object.fromEntries(files)); })()"
        ),
        json!(true)
    );
    assert_eq!(
        page.eval("document.querySelector('#download-status').textContent"),
        json!("⬇ my-rule.zip (4 files) saved to your downloads")
    );
    let dir = tempfile::tempdir().unwrap();
    unzip_stored(&decode(zip.as_str().unwrap()), dir.path());
    let checked = towerlab()
        .args([
            "check",
            dir.path().join("my-rule").to_str().unwrap(),
            "--games",
            "3",
        ])
        .output()
        .unwrap();
    assert!(
        checked.status.success(),
        "towerlab check of the pack downloaded: {}",
        String::from_utf8_lossy(&checked.stderr)
    );

    // A neutral figure, from a pack that declares one: put on the board,
    // it is part of the position asked (and of a scenario saved).
    start_from(&page, phone, "warden", "my-warden");
    page.wait("studio.kept.pack === 'my-warden' && !document.querySelector('#figure-tool').hidden");
    press(&page, phone, "#tool-tabs button[data-tab=board]");
    press(&page, phone, "#clear-board");
    press(&page, phone, "input[name=tool][value=tower]");
    press(&page, phone, "#grid button[data-at=\"0,0\"]");
    press(&page, phone, "input[name=tool][value=figure]");
    press(&page, phone, "#grid button[data-at=\"0,0\"]");
    page.wait("document.querySelector('#grid button[data-at=\"0,0\"] .figure') !== null");
    assert_eq!(
        page.eval(
            "studio.scenarioText('x').includes('state = [\\n  { name = \"warden\", at = [0, 0] },')"
        ),
        json!(true),
        "{}",
        page.eval("studio.scenarioText('x')")
    );
    page.wait("studio.answers !== null && studio.answers.towers.length === 1 && document.querySelector('#answer-status').textContent === ''");
    page.eval("(s => { s.value = 'my-rule'; s.dispatchEvent(new Event('change')); })(document.querySelector('#pack'))");
    page.wait("studio.kept.pack === 'my-rule' && document.querySelector('#figure-tool').hidden");

    // Played: a game with the pack on the game's page.
    press(&page, phone, "#tool-tabs button[data-tab=play]");
    press(&page, phone, "#play");
    page.wait_after_navigation(
        "location.pathname.startsWith('/game/') && typeof game === 'object' && game !== null \
         && game.packs.join() === 'tower,my-rule' && mine(game)",
    );
    assert_eq!(page.eval("game.packs"), json!(["tower", "my-rule"]));
    assert_eq!(
        page.eval("mine(game)"),
        json!(true),
        "the person's seat is played here"
    );
    play_turns(&page, (width, height), phone, 3);
    // With a friend: the game's page gives the friend's seat its link.
    page.load(&format!("{url}studio"));
    page.wait("studio.kept.pack === 'my-rule' && studio.catalog !== null");
    press(&page, phone, "#tool-tabs button[data-tab=play]");
    page.eval("(s => { s.value = 'friends'; s.dispatchEvent(new Event('change')); })(document.querySelector('#play-bot'))");
    press(&page, phone, "#play");
    page.wait_after_navigation(
        "location.pathname.startsWith('/game/') && typeof game === 'object' && game !== null \
         && document.querySelectorAll('#friend-links .seat-link').length === 1",
    );
    assert_eq!(page.eval("game.seats"), json!(["person", "person"]));
    let errors = page.heard().errors.clone();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

/// `turns` of the person's turns played on the game's page (the bot's
/// between them), the page's layout measured at each question as a whole
/// game measures it (targets of 44 px, nothing outside the window, no
/// scrolling).
fn play_turns(page: &Page, size: (u32, u32), touch: bool, turns: usize) {
    let look = format!(
        "game.status === 'bot' ? {{status: 'bot'}} : {{status: game.status, kind: game.question?.kind ?? null, \
         faults: game.status === 'over' ? [] : {}}}",
        layout_faults(size)
    );
    let (mut placed, mut step) = (0, 0);
    while placed < turns {
        let now = page.eval(&look);
        match now["status"].as_str().unwrap() {
            "bot" => {
                page.wait("game.status !== 'bot'");
                continue;
            }
            status => assert!(status != "failed" && status != "over", "{now}"),
        }
        assert_eq!(now["faults"], json!([]), "at {size:?}, step {step}");
        placed += usize::from(now["kind"] == json!("placement"));
        play_step(page, touch, step);
        step += 1;
    }
    page.wait("game.status !== 'bot'");
    let events = page.eval("document.querySelectorAll('#events li').length");
    assert!(
        events.as_u64().unwrap() >= 2 * turns as u64,
        "{events} events shown"
    );
}

/// On a phone, the code's view (the tools' tabs stay at the bottom); on a
/// desktop every pane is shown.
fn to_code(page: &Page, phone: bool) {
    if phone {
        press(page, phone, "#tool-tabs button[data-tab=code]");
    }
}

/// On a phone, every control shown is at least 44 px each way, every
/// tool's tab is in the window, and the page is no wider than the screen.
fn phone_fits(page: &Page, phone: bool) {
    if !phone {
        return;
    }
    let small = page.eval(
        "[...document.querySelectorAll('button, select, input:not([type=radio]):not([type=file]), summary, .button, #board-tools label')] \
         .filter(e => e.getClientRects().length > 0) \
         .map(e => [e.id || e.textContent.trim().slice(0, 20) || e.outerHTML.slice(0, 50), e.getBoundingClientRect()]) \
         .filter(([, r]) => r.width < 44 || r.height < 44).map(([n, r]) => `${n}: ${Math.round(r.width)}x${Math.round(r.height)}`)",
    );
    assert_eq!(small, json!([]), "controls under 44 px");
    // Every tool's tab lies in the window, none scrolled out of sight.
    assert_eq!(
        page.eval(
            "[...document.querySelectorAll('#tool-tabs button')].filter(b => b.getClientRects().length > 0) \
             .filter(b => (r => r.left < 0 || r.right > innerWidth || r.bottom > innerHeight)(b.getBoundingClientRect())) \
             .map(b => b.textContent)"
        ),
        json!([]),
        "tabs out of the window"
    );
    assert_eq!(
        page.eval("document.documentElement.scrollWidth <= window.innerWidth"),
        json!(true),
        "the page is wider than the screen"
    );
}

/// Start a pack called `name` from the start `from` (a template, an
/// example or a shipped pack), as a person does under *Start a pack*.
fn start_from(page: &Page, phone: bool, from: &str, name: &str) {
    to_code(page, phone);
    page.eval("document.querySelector('#start-box').open = true");
    page.eval(&format!(
        "(s => {{ s.value = [...s.options].find(o => o.textContent.startsWith({from})).value; \
         s.dispatchEvent(new Event('change')); }})(document.querySelector('#start'))",
        from = json!(from)
    ));
    set_input(page, "#start-name", name);
    press(page, phone, "#start-go");
}

/// Set an input's value as typing would.
fn set_input(page: &Page, selector: &str, value: &str) {
    page.eval(&format!(
        "(e => {{ e.value = {value}; e.dispatchEvent(new Event('input')); }})(document.querySelector('{selector}'))",
        value = json!(value)
    ));
}

/// Replace the text of the file open with `text`, as typed (the editor's
/// own input events).
fn type_text(page: &Page, text: &str) {
    page.eval(&format!(
        "(s => {{ s.focus(); s.select(); document.execCommand('insertText', false, {text}); }})(document.querySelector('#source'))",
        text = json!(text)
    ));
}

fn open_file(page: &Page, phone: bool, name: &str) {
    to_code(page, phone);
    let index = page.eval(&format!(
        "[...document.querySelectorAll('#file-tabs button')].findIndex(b => b.textContent === {})",
        json!(name)
    ));
    press(
        page,
        phone,
        &format!(
            "#file-tabs button:nth-child({})",
            index.as_i64().unwrap() + 1
        ),
    );
    page.wait(&format!("studio.kept.file === {}", json!(name)));
}

fn decode(text: &str) -> Vec<u8> {
    use base64::prelude::{BASE64_STANDARD, Engine};
    BASE64_STANDARD.decode(text).expect("base64")
}

/// The files of a zip of stored entries (what the page writes) under
/// `dir`.
fn unzip_stored(zip: &[u8], dir: &std::path::Path) {
    let u16_at = |i: usize| u16::from_le_bytes([zip[i], zip[i + 1]]) as usize;
    let u32_at =
        |i: usize| u32::from_le_bytes([zip[i], zip[i + 1], zip[i + 2], zip[i + 3]]) as usize;
    let mut at = 0;
    let mut files = 0;
    while u32_at(at) == 0x0403_4b50 {
        assert_eq!(u16_at(at + 8), 0, "stored");
        let size = u32_at(at + 18);
        let name_len = u16_at(at + 26);
        let extra = u16_at(at + 28);
        let name = std::str::from_utf8(&zip[at + 30..at + 30 + name_len]).unwrap();
        let start = at + 30 + name_len + extra;
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &zip[start..start + size]).unwrap();
        at = start + size;
        files += 1;
    }
    assert!(files >= 3, "{files} files in the zip");
}
