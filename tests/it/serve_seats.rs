//! One game from several browsers, and hints (docs/serve.md, "Seats and
//! keys"): each person seat's key, given only to the game's maker, acts for
//! that seat alone; a watcher (the game's id alone) reads the game but
//! cannot act; a missing, made-up or other game's key is refused with a 403
//! in JSON and changes nothing; names show in the state; a poll says what
//! the game waits for; the page is served at the game's own address. A hint
//! is one of the question's options, the same for the same question,
//! changes nothing, is only for the person deciding, and is refused in a
//! game whose hints are off. Words name seats by their names, and say
//! "you" in a seat's view; a replaced key's view says so.

use std::net::SocketAddr;

use serde_json::{Value, json};
use towerlab::rules::LoadOptions;
use towerlab::serve::{IDLE, Limits};

use crate::serve::{
    answer, carry, current_key, http, key, new_game, ok, play_until, refused, refused_unchanged,
    server, server_with,
};

fn make(addr: SocketAddr, body: Value) -> Value {
    ok(addr, "POST", "/api/games", Some(body))
}

fn id(state: &Value) -> &str {
    state["id"].as_str().unwrap()
}

#[test]
fn each_key_acts_for_its_own_seat_and_a_watcher_cannot_act() {
    let addr = server(IDLE);
    let made = make(
        addr,
        json!({"variant": "tower", "seats": ["person", "greedy", "person"],
               "names": ["Ana", "", "Bo"], "seed": 4}),
    );
    assert_eq!(made["names"], json!(["Ana", "player 2", "Bo"]));
    let seats: Vec<u64> = made["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["seat"].as_u64().unwrap())
        .collect();
    assert_eq!(seats, [0, 2], "a key per person seat");
    let (ana, bo) = (key(&made, 0), key(&made, 2));
    assert_ne!(ana, bo);
    assert!(ana.as_str().unwrap().len() >= 32, "{ana}");
    assert!(
        ok(addr, "GET", &format!("/api/games/{}", id(&made)), None)["keys"].is_null(),
        "no one but the maker learns a key"
    );
    // At Ana's question: Bo's key, no key, a made-up key and a key of
    // another game are refused, and nothing changes.
    let other = new_game(addr, &["person", "person"], 4);
    let refusals = [
        (
            bo.clone(),
            "the key is Bo (seat 3)'s: only Ana (seat 1) decides now",
        ),
        (Value::Null, "no `key`"),
        (json!("0".repeat(32)), "no seat's key in this game"),
        (key(&other, 0), "no seat's key in this game"),
    ];
    for (k, says) in refusals {
        let body = json!({"decision": "placement", "token": 0, "option": 0, "key": k});
        let m = refused_unchanged(addr, &made, "choose", &body.to_string(), 403);
        assert!(m.contains(says), "{m}");
    }
    // Ana plays her turn; at greedy's, a watcher cannot step it, Bo can.
    let at_bot = play_until(addr, made, |s| s["status"] == "bot");
    assert_eq!(at_bot["current"], 1, "{at_bot}");
    let step = json!({"token": at_bot["token"]}).to_string();
    let m = refused_unchanged(addr, &at_bot, "advance", &step, 403);
    assert!(m.contains("a watcher cannot act"), "{m}");
    let step = json!({"token": at_bot["token"], "key": bo});
    let path = format!("/api/games/{}/advance", id(&at_bot));
    let bos_turn = carry(&at_bot, ok(addr, "POST", &path, Some(step)));
    assert_eq!(bos_turn["current"], 2, "{bos_turn}");
    // Bo's question: Ana's key is refused, Bo's answers.
    let kind = &bos_turn["question"]["kind"];
    let body = json!({"decision": kind, "token": bos_turn["token"], "option": 0, "key": ana});
    let m = refused_unchanged(addr, &bos_turn, "choose", &body.to_string(), 403);
    assert!(
        m.contains("the key is Ana (seat 1)'s: only Bo (seat 3) decides now"),
        "{m}"
    );
    let next = answer(addr, &bos_turn, 0);
    // A poll says what the state says the game waits for.
    let poll = ok(addr, "GET", &format!("/api/games/{}/poll", id(&next)), None);
    assert_eq!(
        poll,
        json!({"token": next["token"], "status": next["status"], "current": next["current"]})
    );
    // The page is served at the game's own address.
    let (status, page) = http(addr, "GET", &format!("/game/{}", id(&next)), None);
    assert_eq!(status, 200);
    assert!(
        page.contains(r#"<script type="module" src="/app.js">"#),
        "{page}"
    );
    // A server on the loopback address says it is not on the network.
    assert!(ok(addr, "GET", "/api/catalog", None)["network"].is_null());
    // Names are one per seat, or none.
    let m = refused(
        addr,
        "POST",
        "/api/games",
        &json!({"seats": ["person", "person"], "names": ["Ana"]}).to_string(),
        400,
    );
    assert!(m.contains("1 names for 2 seats"), "{m}");
}

/// The state at the first action question from turn 3 on of the game
/// `body` makes, played by the test's players.
fn at_an_action(addr: SocketAddr, body: &Value) -> Value {
    play_until(addr, make(addr, body.clone()), |s| {
        s["question"]["kind"] == "action" && s["turn"].as_u64().unwrap() >= 3
    })
}

/// A hint's request for the question `state` waits for, with `key`.
fn ask_hint(state: &Value, key: Value) -> String {
    json!({"token": state["token"], "key": key}).to_string()
}

#[test]
fn a_hint_is_a_legal_option_the_same_for_the_same_question_and_changes_nothing() {
    let addr = server_with(Limits {
        hint_budget: 40,
        ..Limits::default()
    });
    let body = json!({"variant": "tower", "seats": ["person", "person"], "seed": 5});
    let state = at_an_action(addr, &body);
    assert_eq!(state["status"], "action", "{state}");
    let path = format!("/api/games/{}/hint", id(&state));
    let before = ok(addr, "GET", &format!("/api/games/{}", id(&state)), None);
    let ask = |s: &Value| Some(serde_json::from_str(&ask_hint(s, current_key(s))).unwrap());
    let hint = ok(addr, "POST", &path, ask(&state));
    let after = ok(addr, "GET", &format!("/api/games/{}", id(&state)), None);
    assert_eq!(after, before, "asking for a hint changed the game");
    let options = state["question"]["options"].as_array().unwrap();
    let option = hint["option"].as_u64().unwrap() as usize;
    assert!(option < options.len(), "{hint}");
    assert_eq!(hint["label"], options[option]["label"]);
    assert_eq!(hint["decision"], "action");
    assert_eq!(hint["token"], state["token"]);
    assert_eq!(hint["bot"], "mcts:40");
    let reason = hint["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("mcts:40 expects to") && !reason.contains('\n'),
        "{reason}"
    );
    let weighed = hint["weighed"].as_array().unwrap();
    assert_eq!(weighed[0]["option"], hint["option"]);
    assert_eq!(weighed[0]["value"], hint["value"]);
    for w in weighed {
        assert_eq!(
            w["label"],
            options[w["option"].as_u64().unwrap() as usize]["label"]
        );
    }
    // The same question in another game dealt and played the same way:
    // the same hint.
    let again = at_an_action(addr, &body);
    assert_ne!(again["id"], state["id"]);
    assert_eq!(again["token"], state["token"]);
    let path_again = format!("/api/games/{}/hint", id(&again));
    let hint_again = ok(addr, "POST", &path_again, ask(&again));
    assert_eq!(hint_again, hint);
    // Only the person deciding may ask, for the question waiting.
    let other = key(&state, 1 - state["current"].as_u64().unwrap());
    let m = refused_unchanged(addr, &state, "hint", &ask_hint(&state, other), 403);
    assert!(m.contains("decides now"), "{m}");
    let m = refused_unchanged(addr, &state, "hint", &ask_hint(&state, Value::Null), 403);
    assert!(m.contains("no `key`"), "{m}");
    let stale = json!({"token": 0, "key": current_key(&state)}).to_string();
    let m = refused_unchanged(addr, &state, "hint", &stale, 409);
    assert!(m.contains("stale"), "{m}");
    // The option advised is an answer the game takes.
    let next = answer(addr, &state, option);
    assert_ne!(next["token"], state["token"]);
}

#[test]
fn hints_switched_off_are_refused() {
    let addr = server(IDLE);
    let made = make(
        addr,
        json!({"seats": ["person", "greedy"], "seed": 2, "hints": false}),
    );
    assert_eq!(made["hints"], false);
    let m = refused_unchanged(
        addr,
        &made,
        "hint",
        &ask_hint(&made, current_key(&made)),
        403,
    );
    assert!(m.contains("hints are off"), "{m}");
    let on = new_game(addr, &["person", "greedy"], 2);
    assert_eq!(on["hints"], true, "hints are on unless switched off");
}

/// The deal's seed fixes the order of the tiles to come: no seat and no
/// watcher learns it while the game goes on — the state, the poll and
/// every answer have `seed: null`, and the log (which names it) is refused
/// — and a random deal is not one of 2^32 seeds. Once the game is over, the
/// state names the seed and the log replays.
#[test]
fn the_seed_stays_hidden_until_the_game_ends() {
    let addr = server(IDLE);
    let made = make(addr, json!({"seats": ["person", "greedy"]}));
    assert!(made["seed"].is_null(), "{}", made["seed"]);
    let path = format!("/api/games/{}", id(&made));
    assert!(ok(addr, "GET", &path, None)["seed"].is_null());
    let (status, body) = http(addr, "GET", &format!("{path}/log"), None);
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("once the game has ended"), "{body}");
    let later = play_until(addr, made, |s| s["turn"].as_u64().unwrap() >= 6);
    assert!(later["seed"].is_null());
    assert!(!later.to_string().contains("seed "), "no message names it");
    let end = play_until(addr, later, |_| false);
    let seed = end["seed"]
        .as_u64()
        .expect("the seed, once the game is over");
    let (status, log) = http(addr, "GET", &format!("{path}/log"), None);
    assert_eq!(status, 200);
    assert!(
        log.contains(&format!("\"seed\":{seed}")),
        "the log names it"
    );
    crate::serve::replays(&log, "serve-hidden-seed.jsonl");
    // Random deals: 20 of them below 2^32 would happen once in 2^420.
    let seeds: Vec<u64> = (0..20)
        .map(|_| {
            let s = make(addr, json!({"seats": ["random", "random"]}));
            play_until(addr, s, |_| false)["seed"].as_u64().unwrap()
        })
        .collect();
    assert!(seeds.iter().any(|&s| s >= 1 << 32), "{seeds:?}");
    assert!(seeds.iter().all(|&s| s < 1 << 53), "{seeds:?}");
}

/// The game's maker gives a seat a new key with the maker's key (given
/// only to the maker); the old key stops working and the new one plays the
/// seat. A seat's key, a watcher, a bot's seat and a seat the game does not
/// have are refused, and nothing changes.
#[test]
fn the_maker_reissues_a_seats_key_and_the_old_one_stops_working() {
    let addr = server(IDLE);
    let made = make(
        addr,
        json!({"variant": "tower", "seats": ["person", "greedy", "person"], "seed": 9}),
    );
    let maker = made["maker_key"].clone();
    assert!(maker.as_str().unwrap().len() >= 32, "{maker}");
    let path = format!("/api/games/{}", id(&made));
    assert!(ok(addr, "GET", &path, None)["maker_key"].is_null());
    let reissue = |seat: u64, key: &Value| json!({"seat": seat, "key": key}).to_string();
    let old = key(&made, 0);
    for (body, status, says) in [
        (reissue(0, &old), 403, "only the game's maker"),
        (json!({"seat": 0}).to_string(), 400, "not the JSON expected"),
        (reissue(1, &maker), 400, "a bot's seat"),
        (reissue(3, &maker), 400, "no seat 3"),
    ] {
        let m = refused_unchanged(addr, &made, "reissue", &body, status);
        assert!(m.contains(says), "{m}");
    }
    let given = ok(
        addr,
        "POST",
        &format!("{path}/reissue"),
        Some(json!({"seat": 0, "key": maker})),
    );
    assert_eq!(given["seat"], 0);
    assert_ne!(given["key"], old);
    let body = |k: &Value| json!({"decision": "placement", "token": 0, "option": 0, "key": k});
    let m = refused_unchanged(addr, &made, "choose", &body(&old).to_string(), 403);
    assert!(
        m.contains("no longer works") && m.contains("player 1 (seat 1)"),
        "{m}"
    );
    let played = ok(
        addr,
        "POST",
        &format!("{path}/choose"),
        Some(body(&given["key"])),
    );
    assert_eq!(played["token"], 1, "the new key plays the seat");
}

/// A 6-player `black-tower` game's hints at 500 iterations answer with a
/// legal option, at the default hook budget, and where a search's hooks
/// would spend more than their budget (a budget made small here, so that
/// every search of 500 iterations exceeds it): then the hint searches
/// fewer iterations, says so, and still answers.
#[test]
fn hints_at_500_iterations_answer_in_a_6_player_black_tower_game() {
    for (hook_budget, cut) in [(None, false), (Some(400_000), true)] {
        let load = match hook_budget {
            Some(ops) => LoadOptions::default().with_hook_budget(ops),
            None => LoadOptions::default(),
        };
        let limits = Limits {
            hint_budget: 500,
            ..Limits::default()
        };
        let addr =
            towerlab::serve::Server::bind(&crate::common::home(), &load, "127.0.0.1", 0, limits)
                .and_then(towerlab::serve::Server::spawn)
                .expect("the server starts");
        hints_answer(addr, cut);
    }
}

/// Three hints at action questions from turn 30 on answer with a legal
/// option; `cut`: each searched fewer than the 500 iterations asked.
fn hints_answer(addr: SocketAddr, cut: bool) {
    let body = json!({"variant": "black-tower", "seats": vec!["person"; 6], "seed": 2});
    let mut state = play_until(addr, make(addr, body), |s| {
        s["turn"].as_u64().unwrap() >= 30
    });
    for _ in 0..3 {
        state = play_until(addr, state, |s| s["question"]["kind"] == "action");
        let (status, reply) = http(
            addr,
            "POST",
            &format!("/api/games/{}/hint", id(&state)),
            Some(&ask_hint(&state, current_key(&state))),
        );
        assert_eq!(status, 200, "{reply}");
        let hint: Value = serde_json::from_str(&reply).unwrap();
        let options = state["question"]["options"].as_array().unwrap().len();
        assert!(hint["option"].as_u64().unwrap() < options as u64, "{hint}");
        if cut {
            assert_ne!(hint["bot"], "mcts:500", "{hint}");
            assert!(
                hint["reason"]
                    .as_str()
                    .unwrap()
                    .contains("of the 500 iterations asked"),
                "{hint}"
            );
        }
        state = answer(addr, &state, 0);
    }
}

/// Words name every seat by its name; a seat's view (its key) says "you"
/// for that seat, and so does an answer asked with `you`; a replaced key's
/// view is refused saying so, an unknown one saying it is no seat's; an
/// ended game's view still says "you". Names are each seat's own.
#[test]
fn words_name_seats_and_say_you_in_a_seats_view() {
    let addr = server(IDLE);
    for (names, says) in [
        (json!(["Ana", "ana"]), "seats 1 and 2 are both named"),
        (json!(["", "player 1"]), "both named \"player 1\""),
        (json!(["You", "Bo"]), "speaks to each person"),
    ] {
        let body = json!({"variant": "tower", "seats": ["person", "person"], "names": names});
        let m = refused(addr, "POST", "/api/games", &body.to_string(), 400);
        assert!(m.contains(says), "{m}");
    }
    let made = make(
        addr,
        json!({"variant": "tower", "seats": ["person", "person", "greedy"],
               "names": ["Ana", "Bo", "Cy"], "seed": 12}),
    );
    let path = format!("/api/games/{}", id(&made));
    let (ana, bo) = (key(&made, 0), key(&made, 1));
    let view = |k: &Value| {
        ok(
            addr,
            "POST",
            &format!("{path}/view"),
            Some(json!({"key": k})),
        )
    };
    // A few rounds in, by the test's players.
    let state = play_until(addr, made.clone(), |s| s["turn"].as_u64().unwrap() >= 7);
    let texts = |s: &Value| -> Vec<String> {
        s["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["text"].as_str().unwrap().to_string())
            .collect()
    };
    let read = ok(addr, "GET", &path, None);
    assert!(read["you"].is_null());
    let all = texts(&read);
    assert!(all.iter().all(|t| !t.contains("player ")), "{all:#?}");
    assert!(all.iter().any(|t| t.starts_with("Ana places ")), "{all:#?}");
    assert!(all.iter().any(|t| t.starts_with("Cy places ")), "{all:#?}");
    // The board picture names them too: its legend, its meeples' titles.
    let svg = read["board"]["svg"].as_str().unwrap();
    assert!(
        svg.contains(">Ana<") && svg.contains(">Cy<"),
        "the legend names the seats"
    );
    assert!(
        !svg.to_lowercase().contains("player "),
        "no seat is \"player N\" in the picture"
    );
    let to_ana = view(&ana);
    assert_eq!(to_ana["you"], 0);
    let said = texts(&to_ana);
    assert!(
        said.iter().any(|t| t.starts_with("you place ")),
        "{said:#?}"
    );
    assert!(said.iter().all(|t| !t.contains("Ana")), "{said:#?}");
    assert_eq!(said.len(), all.len());
    assert_eq!(view(&bo)["you"], 1);
    assert!(
        texts(&view(&bo))
            .iter()
            .any(|t| t.starts_with("Ana places "))
    );
    // An answer asked with `you` is said to the deciding seat.
    let state = play_until(addr, state, |s| s["status"] != "bot");
    let seat = state["current"].as_u64().unwrap();
    let body = json!({"decision": state["question"]["kind"], "token": state["token"],
                      "option": 0, "key": current_key(&state), "you": true});
    let answered = ok(addr, "POST", &format!("{path}/choose"), Some(body));
    assert_eq!(answered["you"], seat);
    // Bo's link taken back: its view says so, naming the seat.
    let given = ok(
        addr,
        "POST",
        &format!("{path}/reissue"),
        Some(json!({"seat": 1, "key": made["maker_key"]})),
    );
    let body = |k: &Value| json!({"key": k}).to_string();
    let m = refused(addr, "POST", &format!("{path}/view"), &body(&bo), 403);
    assert!(
        m.contains("no longer works") && m.contains("Bo (seat 2)"),
        "{m}"
    );
    let m = refused(
        addr,
        "POST",
        &format!("{path}/view"),
        &body(&json!("0f0f")),
        403,
    );
    assert!(m.contains("no seat's key"), "{m}");
    // Played to the end (with Bo's new key): the ended game's view still
    // says "you", and still refuses the replaced key.
    let mut state = carry(&made, ok(addr, "GET", &path, None));
    state["keys"][1]["key"] = given["key"].clone();
    let over = play_until(addr, state, |_| false);
    assert_eq!(over["status"], "over");
    let end = view(&ana);
    assert_eq!(end["you"], 0);
    let last = texts(&end).pop().unwrap();
    assert!(last.starts_with("final scores: you "), "{last}");
    assert!(last.contains(", Bo ") && last.contains(", Cy "), "{last}");
    refused(addr, "POST", &format!("{path}/view"), &body(&bo), 403);
}
