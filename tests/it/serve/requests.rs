//! Bad requests: an unknown game, malformed JSON, a stale token, an option out
//! of range, a ransom not offered — each refused with a 4xx and a message,
//! the game left as it was.

use super::*;

#[test]
fn bad_game_ids_get_404() {
    let addr = server(IDLE);
    for path in ["/api/games/nope", "/api/games/0000000000000000/log"] {
        let (status, body) = http(addr, "GET", path, None);
        assert_eq!(status, 404, "{body}");
        assert!(body.contains("no game"), "{body}");
    }
    let m = refused(
        addr,
        "POST",
        "/api/games/x/choose",
        r#"{"decision":"placement","token":0,"option":0}"#,
        404,
    );
    assert!(m.contains("no game `x`"), "{m}");
}

#[test]
fn malformed_json_and_stale_tokens_change_nothing() {
    let addr = server(IDLE);
    let state = new_game(addr, &["person", "person"], 3);
    for body in [
        "{bad",
        "[]",
        r#"{"decision":"placement","token":0}"#,
        r#"{"decision":"placement","token":-1,"option":0}"#,
        r#"{"decision":"placement","token":0,"option":0,"extra":1}"#,
        r#"{"decision":"placements","token":0,"option":0}"#,
    ] {
        let m = refused_unchanged(addr, &state, "choose", body, 400);
        assert!(m.contains("not the JSON expected"), "{m}");
    }
    let stale =
        json!({"decision": "placement", "token": 5, "option": 0, "key": current_key(&state)});
    let m = refused_unchanged(addr, &state, "choose", &stale.to_string(), 409);
    assert!(m.contains("stale"), "{m}");
    let next = answer(addr, &state, 0);
    assert_eq!(next["token"], 1);
    // The same answer again is stale now.
    let again =
        json!({"decision": "placement", "token": 0, "option": 0, "key": current_key(&state)});
    let m = refused_unchanged(addr, &next, "choose", &again.to_string(), 409);
    assert!(m.contains("token 0 was answered already"), "{m}");
    // A bot's turn when a person is to decide.
    let advance = json!({"token": 1, "key": any_key(&next)});
    let m = refused_unchanged(addr, &next, "advance", &advance.to_string(), 409);
    assert!(m.contains("no bot"), "{m}");
    let m = refused_unchanged(addr, &next, "choose", &choice(&next, "action", 9999), 422);
    assert!(m.contains("no option 9999"), "{m}");
}

#[test]
fn t5_captures_out_of_range_and_t11_ransoms_not_offered_are_refused() {
    let addr = server(IDLE);
    let mut seen_capture = false;
    for seed in 1..=6 {
        let state = new_game(addr, &["person", "person"], seed);
        let state = play_until(addr, state, |s| s["question"]["kind"] == "capture");
        if state["status"] == "over" {
            continue;
        }
        seen_capture = true;
        let options = state["question"]["options"].as_array().unwrap().len();
        let body = choice(&state, "capture", options);
        let m = refused_unchanged(addr, &state, "choose", &body, 422);
        assert!(m.contains(&format!("no option {options}")), "{m}");
        // No ransom is offered while a capture waits.
        let body = choice(&state, "ransom", 1);
        let m = refused_unchanged(addr, &state, "choose", &body, 409);
        assert!(m.contains("no ransom is offered now"), "{m}");
        break;
    }
    assert!(seen_capture, "no capture came up in six games");
}
