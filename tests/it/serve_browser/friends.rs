//! Two browsers play one game from its two seats; a reload resumes it;
//! each page says who it is for and words its seat as "you"; a link taken
//! back says so at once and offers nothing to do.

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
/// Each page says whom it is for ("You are Bo, seat 2"), acts only for its
/// own seat, says whose turn it is, and words events as its seat's person
/// reads them ("you place…" on hers, "Ana places…" on his); Bo asks for a
/// hint and sees it marked with its reason; Bo's page reloaded (without
/// the link) resumes the same game and seat; Ana's page follows Bo's moves.
/// Then Ana takes Bo's link back ("new link" asks first): the old link,
/// opened again, says at once that it no longer works and offers nothing
/// to do, as a made-up key does; once the game has ended, "new link" is
/// gone.
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
    assert_eq!(
        ana.eval("document.querySelector('#whoami').textContent.trim()"),
        json!("You are Ana, seat 1")
    );
    assert_eq!(
        ana.eval("document.querySelector('#events li:last-child').textContent.replace(/^G1/, '').startsWith('you place ')"),
        json!(true),
        "Ana's page says \"you\" for her"
    );

    let (address, fragment) = link.split_once('#').unwrap();
    let address = address.to_string();
    let bo = Page::open(size.0, size.1);
    bo.load(&format!("{address}?delay=20&poll=100#{fragment}"));
    bo.wait("typeof game === 'object' && game !== null && game.current === 1");
    assert_eq!(
        bo.eval("location.hash"),
        json!(""),
        "the key leaves the address"
    );
    bo.wait("document.querySelector('#status').textContent.startsWith('Your turn: ')");
    assert_eq!(
        bo.eval("document.querySelector('#whoami').textContent.trim()"),
        json!("You are Bo, seat 2")
    );
    assert_eq!(
        bo.eval("document.querySelector('#events li:last-child').textContent.replace(/^G1/, '').startsWith('Ana places ')"),
        json!(true),
        "Bo's page names Ana"
    );
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
    bo.wait("document.querySelector('#status').textContent.startsWith('Your turn: ')");
    play_turn(&bo, &mut step);
    // Ana's page follows Bo's moves, and it is her turn again.
    ana.wait("game.current === 0 && document.querySelector('#status').textContent.startsWith('Your turn: ')");
    assert_eq!(
        bo.eval("document.querySelector('#status').textContent"),
        json!("waiting for Ana (seat 1)")
    );
    for page in [&ana, &bo] {
        let errors = page.heard().errors.clone();
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    }
    take_the_link_back(&ana, &bo, (&address, fragment), &url);
}

/// Ana takes Bo's link back, confirming it; Bo's old link then says so at
/// once, as a made-up key does, with nothing to do; played to the end,
/// Ana's page has no "new link" left.
fn take_the_link_back(ana: &Page, bo: &Page, (address, fragment): (&str, &str), url: &str) {
    ana.eval("document.querySelector('#friends').open = true; true");
    ana.click("#friend-links .reissue");
    ana.wait("!!document.querySelector('#friend-links .reissue-ask')");
    // Asked first: kept, nothing changes.
    ana.click("#friend-links .reissue-no");
    assert_eq!(
        ana.eval("!document.querySelector('#friend-links .reissue-ask') && !document.querySelector('#friend-links .reissue').hidden"),
        json!(true)
    );
    let old = ana.eval("seats.away[1]");
    ana.click("#friend-links .reissue");
    ana.click("#friend-links .reissue-yes");
    ana.wait(&format!("seats.away[1] !== {old}"));
    let states_before = bo
        .heard()
        .requests
        .iter()
        .filter(|r| r.contains("/view"))
        .count();
    let refused = [
        (
            fragment.to_string(),
            "no longer works: the game's maker gave Bo (seat 2) a new link",
        ),
        (
            "seat=2&key=00ff00ff".to_string(),
            "no seat's key in this game",
        ),
    ];
    for (n, (key, says)) in refused.into_iter().enumerate() {
        // (Another query each time, so that the page loads again.)
        bo.load(&format!("{address}?delay=20&poll=100&n={n}#{key}"));
        bo.wait("typeof game === 'object' && game !== null");
        let said = bo.eval("document.querySelector('#whoami.refused')?.textContent ?? ''");
        assert!(said.as_str().unwrap().contains(says), "{said}");
        assert_eq!(bo.eval("location.hash"), json!(""));
        if n == 0 {
            keep_screenshot(bo, (1024, 768), "friends-link-taken-back");
        }
        assert_eq!(
            bo.eval("document.querySelectorAll('#options button, #marks .place, #marks .spot, #place-buttons:not([hidden]), #hint-box:not([hidden]), #ransom:not([hidden]), .reissue').length"),
            json!(0),
            "a refused link offers nothing to do"
        );
    }
    assert!(
        bo.heard()
            .requests
            .iter()
            .filter(|r| r.contains("/view"))
            .count()
            > states_before
    );
    // Played to the end by the API, with Ana's key and Bo's new one.
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    let id = ana.eval("game.id");
    let mut state = crate::serve::get_state(addr, id.as_str().unwrap());
    state["keys"] = json!([{"seat": 0, "key": ana.eval("seats.here[0]")},
                           {"seat": 1, "key": ana.eval("seats.away[1]")}]);
    play_until(addr, state, |_| false);
    // (Ana's page waited for her own answer: it looks again when reloaded.)
    ana.load(&format!("{address}?delay=20&poll=100"));
    ana.wait("typeof game === 'object' && game !== null && game.status === 'over'");
    assert_eq!(
        ana.eval("document.querySelector('#winner').textContent.startsWith('You ') || document.querySelector('#winner').textContent.startsWith('Bo (seat 2) ')"),
        json!(true),
        "the ended game's page still says \"you\""
    );
    assert_eq!(
        ana.eval("document.querySelectorAll('#friend-links .reissue').length"),
        json!(0),
        "no new link once the game has ended"
    );
}
