//! Games played through the API: idle games expire, a bot's turn stepped in
//! words, a floor previewed before it is committed, whole games that end
//! scored and whose logs replay.

use super::*;

#[test]
fn idle_games_expire() {
    let addr = server(Duration::from_millis(200));
    let state = new_game(addr, &["person", "greedy"], 1);
    let id = state["id"].as_str().unwrap();
    assert_eq!(get_state(addr, id)["token"], 0);
    std::thread::sleep(Duration::from_millis(700));
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 404, "{body}");
}

/// A bot's turn stepped one decision a request (`"step": true`): each step
/// moves the token on by one and brings the events of that decision, named
/// in words (tiles as people name them, never by their code); a turn goes
/// on over several steps, the same bot to play; and the game stepped so is
/// the game played a whole turn a request.
#[test]
fn a_bots_turn_is_stepped_one_decision_at_a_time_in_words() {
    let addr = server(IDLE);
    let advance = |state: &Value, step: bool| {
        let id = state["id"].as_str().unwrap();
        let body = json!({"token": state["token"], "key": any_key(state), "step": step});
        carry(
            state,
            ok(
                addr,
                "POST",
                &format!("/api/games/{id}/advance"),
                Some(body),
            ),
        )
    };
    let events = |s: &Value| s["events"].as_array().unwrap().clone();
    let (mut stepped, mut whole) = (
        new_game(addr, &["person", "greedy"], 21),
        new_game(addr, &["person", "greedy"], 21),
    );
    let (mut steps, mut mid_turn) = (0, 0);
    while stepped["turn"].as_u64().unwrap() < 12 {
        if stepped["status"] != "bot" {
            let option = pick(&stepped);
            stepped = answer(addr, &stepped, option);
            whole = answer(addr, &whole, option);
            continue;
        }
        whole = advance(&whole, false);
        while stepped["status"] == "bot" {
            let next = advance(&stepped, true);
            steps += 1;
            assert_eq!(next["token"], stepped["token"].as_u64().unwrap() + 1);
            let fresh = &events(&next)[events(&stepped).len()..];
            // What the bot answered, in words: its events, else (a pass, a
            // decline) the option it took.
            assert_eq!(next["last"]["seat"], stepped["current"]);
            if fresh.is_empty() {
                let label = next["last"]["label"].as_str().unwrap();
                assert!(
                    ["Pass", "Pay no ransom", "Take no prisoner"].contains(&label),
                    "a step without events declines: {label}"
                );
            }
            for e in fresh {
                let text = e["text"].as_str().unwrap();
                assert!(
                    !text.contains("base/") && !text.contains("tower/"),
                    "{text}"
                );
            }
            if next["status"] == "bot" && next["current"] == stepped["current"] {
                mid_turn += 1;
            }
            stepped = next;
        }
        assert_eq!(events(&stepped), events(&whole), "stepped as played whole");
    }
    assert!(
        steps > 5 && mid_turn > 0,
        "{steps} steps, {mid_turn} mid-turn"
    );
    let placed = events(&stepped)
        .into_iter()
        .filter(|e| e["rule"] == "G1")
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect::<Vec<_>>();
    assert!(
        placed.iter().any(|t| t.contains(" places a ")),
        "tiles named in words: {placed:?}"
    );
}

/// A floor's option previews what it would do, as the rules answer it: the
/// tower's height with it, the cells it would reach and the meeples it
/// could capture. Committed, a floor whose preview lists meeples asks the
/// capture question with exactly those meeples' owners (in order); one
/// whose preview lists none ends the turn. Other actions have no preview.
#[test]
fn a_floor_is_previewed_as_the_capture_question_then_asks() {
    let addr = server(IDLE);
    let mut state = new_game(addr, &["person", "person"], 3);
    let (mut with_prey, mut without) = (0, 0);
    while state["status"] != "over" && (with_prey < 2 || without < 2) {
        let q = &state["question"];
        let floor = q["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["kind"] == "floor").cloned());
        let (Some(floor), "action") = (floor, q["kind"].as_str().unwrap()) else {
            let option = pick(&state);
            state = answer(addr, &state, option);
            continue;
        };
        for o in q["options"].as_array().unwrap() {
            assert_eq!(o["preview"].is_null(), o["kind"] != "floor", "{o}");
        }
        let preview = &floor["preview"];
        let range = preview["range"].as_array().unwrap();
        assert!(
            !range.is_empty() && preview["height"].as_u64().unwrap() >= 1,
            "{preview}"
        );
        let prey: Vec<Value> = preview["captures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["owner"].clone())
            .collect();
        state = answer(addr, &state, floor["index"].as_u64().unwrap() as usize);
        if prey.is_empty() {
            without += 1;
            assert_ne!(state["question"]["kind"], "capture", "{state}");
        } else {
            with_prey += 1;
            assert_eq!(state["question"]["kind"], "capture", "{state}");
            let owners: Vec<Value> = state["question"]["options"].as_array().unwrap()[1..]
                .iter()
                .map(|o| o["owner"].clone())
                .collect();
            assert_eq!(
                owners, prey,
                "the capture question lists what the preview said"
            );
        }
    }
    assert!(
        with_prey >= 1 && without >= 1,
        "{with_prey} with prey, {without} without"
    );
}

#[test]
fn a_game_against_greedy_ends_scored_and_its_log_replays() {
    let addr = server(IDLE);
    let state = new_game(addr, &["person", "greedy"], 11);
    let end = play_until(addr, state, |_| false);
    assert_eq!(end["status"], "over");
    assert!(end["question"].is_null());
    let id = end["id"].as_str().unwrap();
    let (status, log) = http(addr, "GET", &format!("/api/games/{id}/log"), None);
    assert_eq!(status, 200);
    let shown: Vec<u64> = end["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["score"].as_u64().unwrap())
        .collect();
    assert_eq!(logged_scores(&log), shown);
    for p in end["players"].as_array().unwrap() {
        let parts = p["breakdown"].as_array().unwrap();
        let sum: i64 = parts.iter().map(|b| b["points"].as_i64().unwrap()).sum();
        assert_eq!(
            sum,
            p["score"].as_i64().unwrap(),
            "the breakdown adds up: {p}"
        );
        assert!(
            parts.iter().all(|b| b["points"] != 0),
            "no source of 0: {p}"
        );
        assert!(p["last_tile"].is_array(), "each player placed a tile: {p}");
    }
    assert!(
        end["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["rule"] == "G1")
    );
    replays(&log, "serve-api-game.jsonl");
    // Answers after the end are refused.
    let m = refused_unchanged(
        addr,
        &end,
        "choose",
        &format!(
            r#"{{"decision":"placement","token":{},"option":0}}"#,
            end["token"]
        ),
        409,
    );
    assert!(m.contains("has ended"), "{m}");
}

#[test]
fn a_session_of_bots_plays_the_game_simulate_plays() {
    use towerlab::play::bots::BotKind;
    use towerlab::play::session::{Seat, Session, Waiting};
    let set =
        towerlab::rules::Ruleset::from_variant(&home(), &LoadOptions::default(), "tower").unwrap();
    let rules = set.rules();
    for seed in [3, 8] {
        let bots = [BotKind::GREEDY, BotKind::RANDOM];
        let seats: Vec<Seat> = bots.iter().map(|&b| Seat::Bot(b)).collect();
        let mut session = Session::new(&set, rules.as_ref(), &seats, seed).unwrap();
        // Whole turns and single steps alike.
        let mut n = 0;
        while let Waiting::Bot { .. } = session.waiting() {
            let token = session.token();
            n += 1;
            if n % 3 == 0 {
                session.bot_turn(token).unwrap().unwrap();
            } else {
                session.bot_step(token).unwrap().unwrap();
            }
        }
        assert!(matches!(session.waiting(), Waiting::Over));
        let other = set.rules();
        let game = towerlab::play::sim::play(&set, other.as_ref(), &bots, seed, true).unwrap();
        assert_eq!(session.game().scores(), game.scores(), "seed {seed}");
        assert_eq!(session.game().events(), game.events(), "seed {seed}");
    }
}
