//! A ransom offered once, then from a button, remembered across a reload;
//! the pack chooser keeps the order built.

use super::*;

/// A ransom (T11) is offered to a person once: declined, the page declines
/// it by itself at the person's next turns, while the prisoner is held, and
/// shows "Pay a ransom" instead, which brings the question back at the next
/// turn. The page, playing both seats, says so and says "you" to neither.
/// Then, on the new-game form, the pack chooser sends the packs in
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
    // Both seats at this screen: the page says so, and names every seat
    // (no "you": the person at the screen changes).
    let who = page.eval("document.querySelector('#whoami').textContent");
    assert_eq!(
        who,
        json!("Played at this screen: player 1 (seat 1), player 2 (seat 2)")
    );
    assert_eq!(page.eval("game.you"), Value::Null);
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
