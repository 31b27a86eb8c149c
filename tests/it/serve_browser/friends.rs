//! Two browsers play one game from its two seats; a reload resumes it.

use super::*;

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
