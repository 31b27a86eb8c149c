//! Bots' turns shown one step at a time, in words.

use super::*;

/// Bots' turns are shown one step at a time: paused, each "next step"
/// plays one decision of the bot's (one request, the token moving on by
/// one), and the page names it in words — the seat, what it did, tiles as
/// people name them, never a tile's code — the earlier steps listed below,
/// the last one still shown through the person's turn. A floor reaching no
/// cell says so.
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
    // A floor whose rules give it no cell in range (none of the shipped
    // variants' floors, a pack's may) is told so in words, not as "0
    // cells"; the page shows what the server's preview says.
    page.eval(
        "previewFloor({index: 0, label: 'A black floor on the tower at (1, 0) (T3)', \
         preview: {height: 2, range: [], captures: []}}); true",
    );
    let said = page.eval("document.querySelector('#floor-text').textContent");
    let said = said.as_str().unwrap();
    assert!(
        said.contains("this floor reaches no cell") && !said.contains("0 cells"),
        "{said}"
    );
    // Cells the range reaches where the rules let the tower take nothing
    // (past a gap under no-gaps) are dotted apart from the range, and said.
    page.eval(
        "previewFloor({index: 0, label: 'A floor on the tower at (1, 0) (T3)', \
         preview: {height: 3, range: [[0, 0], [60, 0]], takes_nothing: [[180, 0]], captures: []}}); true",
    );
    assert_eq!(
        page.eval(
            "[document.querySelectorAll('#marks .reach').length, \
              document.querySelectorAll('#marks .reach.takes-nothing').length, \
              getComputedStyle(document.querySelector('#marks .reach.takes-nothing')).borderTopStyle]"
        ),
        json!([3, 1, "dotted"])
    );
    let said = page.eval("document.querySelector('#floor-text').textContent");
    let said = said.as_str().unwrap();
    assert!(
        said.contains("reach 2 cells (hatched)")
            && said
                .ends_with("It also reaches 1 cell (dotted) where the rules let it take nothing."),
        "{said}"
    );
    // A meeple in reach that a rule spares is told, with the rule's pack,
    // as the server's preview words it.
    page.eval(
        "previewFloor({index: 0, label: 'A floor on the tower at (1, 0) (T3)', \
         preview: {height: 1, range: [[0, 0]], captures: [], spared: [{owner: 1, at: null, \
         pack: 'no-road-captures', says: \"the tower reaches Bo's meeple (on a road), \
         but no-road-captures spares it\"}]}}); true",
    );
    let said = page.eval("document.querySelector('#floor-text').textContent");
    let said = said.as_str().unwrap();
    assert!(
        said.ends_with(
            "no meeple it could capture stands there. The tower reaches Bo's meeple \
             (on a road), but no-road-captures spares it."
        ),
        "{said}"
    );
    page.eval("clearPreview(); true");
    let errors = page.heard().errors.clone();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}
