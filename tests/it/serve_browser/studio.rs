//! The studio (`/studio`) in headless Chromium, on a phone (tapped) and a
//! desktop (clicked): a pack started from a template, a misspelt hook
//! typed and seen marked at its line with the name meant, then fixed; a
//! failing scenario run (expected and got shown), then passing; a board
//! set up by clicks whose range and captures the rules answer; the board
//! saved as a scenario that passes; the pack kept across a reload; a
//! neutral figure of a pack that declares one put on the board; a game
//! started with it on the game's page, against a bot and with a friend
//! (whose seat's link the game's page gives); a short comparison run to its
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
    // Start from the capture rule's template.
    start_from(&page, phone, "capture-rule", "my-rule");
    page.wait("kept.pack === 'my-rule' && kept.file === 'capture-rule.rhai'");
    page.wait("document.querySelector('#check-status').className === 'ok'");

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
    press(&page, phone, "#tool-tabs button[data-tab=tests]");
    open_file(&page, phone, "tests/capture.toml");
    type_text(&page, &monk_scenario("[[1, 0]]"));
    press(&page, phone, "#run-tests");
    page.wait("document.querySelector('#tests li.fail') !== null");
    let failed = page.eval("document.querySelector('#tests li.fail .expected-got').textContent");
    let failed = failed.as_str().unwrap();
    assert!(
        failed.contains("expected[[1, 0]]") && failed.contains("got[]"),
        "expected and got shown: {failed}"
    );
    type_text(&page, &monk_scenario("[]"));
    press(&page, phone, "#run-tests");
    page.wait("document.querySelector('#tests-summary').textContent === '1 of 1 passed'");

    // A board set up by clicks: a one-floor tower reaches its 4
    // neighbours and its own tile; the monk beside it is spared.
    press(&page, phone, "#tool-tabs button[data-tab=board]");
    // The empty board answered first (its answers laid out).
    page.wait("answers !== null && document.querySelector('#answer-status').textContent === ''");
    press(&page, phone, "input[name=tool][value=tower]");
    press(&page, phone, "#grid button[data-at=\"0,0\"]");
    // The second tap at once, as a person taps: the cells are redrawn in
    // place, so a tap is not lost when the first board's answers arrive.
    press(&page, phone, "#grid button[data-at=\"0,0\"]");
    page.wait("document.querySelectorAll('#grid button.range').length === 5");
    press(&page, phone, "input[name=tool][value=tile]");
    press(&page, phone, "#grid button[data-at=\"1,0\"]");
    press(&page, phone, "input[name=tool][value=meeple]");
    press(&page, phone, "#grid button[data-at=\"1,0\"]");
    page.wait("answers !== null && answers.towers.length === 1 && document.querySelector('#answers').textContent.includes('may capture')");
    let answered = page.eval("document.querySelector('#answers').textContent");
    assert!(
        answered.as_str().unwrap().contains("may captureno meeple"),
        "the monk is spared: {answered}"
    );
    assert_eq!(
        page.eval("document.querySelectorAll('#grid button.taken').length"),
        json!(0)
    );
    page.eval("window.scrollTo(0, 0)");
    keep_screenshot(&page, (width, height), &format!("studio-{width}x{height}"));
    // Saved as a scenario, which passes.
    press(&page, phone, "#save-scenario");
    page.wait("'tests/studio.toml' in kept.packs['my-rule'].files");
    press(&page, phone, "#tool-tabs button[data-tab=tests]");
    press(&page, phone, "#run-tests");
    page.wait("document.querySelector('#tests-summary').textContent === '2 of 2 passed'");

    // Kept in the browser across a reload.
    page.load(&format!("{url}studio"));
    page.wait(
        "kept.pack === 'my-rule' && document.querySelector('#check-status').className === 'ok'",
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
    assert_eq!(
        page.eval("document.querySelector('#compare-report').srcdoc.includes('<svg')"),
        json!(true),
        "the report's charts"
    );

    // Downloaded: a folder that `towerlab check` takes as it is.
    let zip = page.eval(
        "(async () => { let got = null; const click = HTMLAnchorElement.prototype.click; \
         HTMLAnchorElement.prototype.click = function () { got = this.href; }; \
         download(); HTMLAnchorElement.prototype.click = click; \
         const bytes = new Uint8Array(await (await fetch(got)).arrayBuffer()); \
         let s = ''; for (const b of bytes) s += String.fromCharCode(b); return btoa(s); })()",
    );
    // What the page downloads, it uploads again (its zip read back).
    assert_eq!(
        page.eval(
            "(async () => { const files = [['p/pack.toml', 'a = 1\\n'], ['p/tests/é.toml', 'b']]; \
             const read = await unzip(new Uint8Array(await zip(files).arrayBuffer())); \
             return JSON.stringify(read) === JSON.stringify(Object.fromEntries(files)); })()"
        ),
        json!(true)
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
    page.wait("kept.pack === 'my-warden' && !document.querySelector('#figure-tool').hidden");
    press(&page, phone, "#tool-tabs button[data-tab=board]");
    press(&page, phone, "#clear-board");
    press(&page, phone, "input[name=tool][value=tower]");
    press(&page, phone, "#grid button[data-at=\"0,0\"]");
    press(&page, phone, "input[name=tool][value=figure]");
    press(&page, phone, "#grid button[data-at=\"0,0\"]");
    page.wait("document.querySelector('#grid button[data-at=\"0,0\"] .figure') !== null");
    assert_eq!(
        page.eval(
            "scenarioText('x').includes('state = [\\n  { name = \"warden\", at = [0, 0] },')"
        ),
        json!(true),
        "{}",
        page.eval("scenarioText('x')")
    );
    page.wait("answers !== null && answers.towers.length === 1 && document.querySelector('#answer-status').textContent === ''");
    page.eval("(s => { s.value = 'my-rule'; s.dispatchEvent(new Event('change')); })(document.querySelector('#pack'))");
    page.wait("kept.pack === 'my-rule' && document.querySelector('#figure-tool').hidden");

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
    // With a friend: the game's page gives the friend's seat its link.
    page.load(&format!("{url}studio"));
    page.wait("kept.pack === 'my-rule' && catalog !== null");
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

/// Start a pack called `name` from the start `from` (a template, an
/// example or a shipped pack), as a person does under *Start a pack*.
fn start_from(page: &Page, phone: bool, from: &str, name: &str) {
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
    page.wait(&format!("kept.file === {}", json!(name)));
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
