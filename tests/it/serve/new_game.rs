//! Making a game: rules and seats from the lists, packs in the user's order
//! with their requirements first, the bots the form offers, pack parameters
//! checked in words.

use super::*;

#[test]
fn rules_and_seats_come_from_the_lists() {
    let addr = server(IDLE);
    let catalog = ok(addr, "GET", "/api/catalog", None);
    assert!(
        catalog["variants"]
            .as_array()
            .unwrap()
            .contains(&json!("tower"))
    );
    assert!(
        catalog["seats"]
            .as_array()
            .unwrap()
            .contains(&json!("greedy"))
    );
    let bad = [
        (
            r#"{"variant":"../variants/tower","seats":["person","greedy"]}"#,
            "unknown variant",
        ),
        (
            r#"{"variant":"/etc/passwd","seats":["person","greedy"]}"#,
            "unknown variant",
        ),
        (
            r#"{"packs":["rules/tower"],"seats":["person","greedy"]}"#,
            "unknown pack",
        ),
        (
            r#"{"packs":[],"seats":["person","greedy"]}"#,
            "at least one pack",
        ),
        (r#"{"variant":"tower","seats":["person"]}"#, "2 to 8 seats"),
        (
            r#"{"variant":"tower","seats":["person","wizard"]}"#,
            "unknown bot",
        ),
        (
            r#"{"variant":"tower","packs":["tower"],"seats":["person","greedy"]}"#,
            "not both",
        ),
        ("not json", "not the JSON expected"),
    ];
    for (body, says) in bad {
        let m = refused(addr, "POST", "/api/games", body, 400);
        assert!(m.contains(says), "{body}: {m}");
    }
}

/// A browser user names packs in an order; the server puts each pack's
/// requirements before it (black-tower requires tower), and keeps the
/// user's order otherwise.
#[test]
fn packs_keep_the_users_order_and_gain_their_requirements() {
    let addr = server(IDLE);
    for (asked, played) in [
        (json!(["black-tower"]), json!(["tower", "black-tower"])),
        (
            json!(["black-tower", "tower"]),
            json!(["tower", "black-tower"]),
        ),
        (
            json!(["tower", "black-tower"]),
            json!(["tower", "black-tower"]),
        ),
        (json!(["tower"]), json!(["tower"])),
    ] {
        let body = json!({"packs": asked, "seats": ["person", "greedy"], "seed": 3});
        let state = ok(addr, "POST", "/api/games", Some(body));
        let packs: Vec<Value> = state["packs"].as_array().unwrap().clone();
        let packs: Vec<Value> = packs.into_iter().filter(|p| p != "base").collect();
        assert_eq!(
            Value::from(packs),
            played,
            "{asked} plays as {}",
            state["packs"]
        );
    }
}

/// The new-game form offers the `mcts` bot, and it takes its turns.
#[test]
fn the_form_offers_mcts_and_it_plays_its_turns() {
    let addr = server(IDLE);
    let catalog = ok(addr, "GET", "/api/catalog", None);
    for list in ["bots", "seats"] {
        assert!(
            catalog[list].as_array().unwrap().contains(&json!("mcts")),
            "{catalog}"
        );
    }
    let state = new_game(addr, &["mcts", "person"], 5);
    assert_eq!(state["seats"], json!(["mcts", "person"]));
    let state = play_until(addr, state, |s| s["turn"].as_u64().unwrap() >= 4);
    assert_ne!(state["status"], "over");
    assert_eq!(state["turn"], 4, "the bot played its turns: {state}");
}

/// A new game sets its packs' parameters (as `--param` does): the catalog
/// lists what each pack declares and each variant's packs; a value of the
/// right type plays (the log's start record has it), and a pack the rules
/// do not have, a name the pack does not declare or a value of another
/// type is refused with a message in words, naming no flag and no file.
#[test]
fn a_new_game_sets_pack_parameters_checked_in_words() {
    let addr = server(IDLE);
    let catalog = ok(addr, "GET", "/api/catalog", None);
    let params = catalog["params"].as_array().unwrap();
    assert!(
        params
            .iter()
            .any(|p| p["pack"] == "tower" && p["name"] == "ransom_cost" && p["default"] == 3),
        "{catalog}"
    );
    assert_eq!(
        catalog["variant_packs"]["black-tower"],
        json!(["tower", "black-tower"])
    );
    let game = |params: Value| {
        json!({"variant": "black-tower", "seats": ["random", "random"], "seed": 4, "params": params})
            .to_string()
    };
    for (params, says) in [
        (
            json!({"house/no-gaps": {"x": 1}}),
            "these rules have no pack `house/no-gaps`; the keys there are: `tower`, `black-tower`",
        ),
        (
            json!({"tower": {"ransom_cots": 2}}),
            "has no parameter `ransom_cots` (its parameters: ransom_cost)",
        ),
        (
            json!({"tower": {"ransom_cost": "two"}}),
            "`ransom_cost` of pack `tower` is a whole number (like its default, 3), not \"two\"",
        ),
        (
            json!({"tower": {"ransom_cost": 4294967296u64}}),
            "`ransom_cost` of pack `tower` is set to 4294967296: above its greatest value, 1000000",
        ),
        (
            json!({"black-tower": {"standard_foundations": true}}),
            "is a whole number",
        ),
    ] {
        let m = refused(addr, "POST", "/api/games", &game(params), 400);
        assert!(m.contains(says), "{m}");
        assert!(!m.contains("--") && !m.contains(".toml"), "{m}");
    }
    let made = ok(
        addr,
        "POST",
        "/api/games",
        Some(serde_json::from_str(&game(json!({"tower": {"ransom_cost": 2}}))).unwrap()),
    );
    assert_eq!(made["variant"], "black-tower");
    let end = play_until(addr, made, |_| false);
    let (_, log) = http(
        addr,
        "GET",
        &format!("/api/games/{}/log", end["id"].as_str().unwrap()),
        None,
    );
    let start: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(
        start["params"]["tower"]["ransom_cost"], 2,
        "the game plays with it: {start}"
    );
}
