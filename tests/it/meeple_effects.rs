//! Effects on meeples: a meeple made a prisoner (`take_prisoner`, T10's
//! exchange following) or put on top of a tower (`place_on_tower`, its
//! `meeple_placed` moment following) by a rule; refused clearly when they
//! would break what the kernel keeps true.

use crate::common::{Scratch, refused, run, stdout};

/// A pack over The Tower with `script`; its folder.
fn pack(dir: &Scratch, name: &str, script: &str) -> String {
    let manifest =
        format!("[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"{name}.rhai\"\n");
    dir.pack(name, &manifest, &[(&format!("{name}.rhai"), script)])
}

/// At each turn's end, the seat whose turn it was jails the meeple on the
/// road of the tile at (0, 0) (segment 0 of `base/LR`), and puts one of its
/// own meeples on the tower at (1, 0).
const JAILER: &str = r#"
fn on_turn_end(event) {
    [take_prisoner(0, 0, 0, event.seat), place_on_tower(1, 0, event.seat)]
}
fn on_meeple_placed(event) {
    if event.on == "tower" { points(event.seat, 1, "guard") }
}
"#;

const SCENARIOS: &str = r#"
[[scenario]]
name = "a rule jails a meeple and tops a tower"
tiles = [{ tile = "base/LR", at = [0, 0] }, { tile = "tower/F", at = [1, 0] }]
towers = [{ at = [1, 0], floors = ["regular"] }]
meeples = [{ owner = 1, at = [0, 0], on = "road" }]
steps = [{ end = "turn" }]
[scenario.expect]
prisoners = [{ captor = 0, owner = 1, count = 1 }]
top = [{ tower = [1, 0], seats = [] }]
scores = [1, 0]
events = [
  { event = "imprisoned", rule = "jailer", owner = 1, captor = 0, x = 0, y = 0 },
  { event = "topped", rule = "jailer", owner = 0, x = 1, y = 0 },
]

[[scenario]]
name = "a prisoner taken by a rule is exchanged at once (T10)"
tiles = [{ tile = "base/LR", at = [0, 0] }, { tile = "tower/F", at = [1, 0] }]
towers = [{ at = [1, 0], floors = ["regular"] }]
meeples = [{ owner = 1, at = [0, 0], on = "road" }]
prisoners = [{ captor = 1, owner = 0, count = 1 }]
steps = [{ end = "turn" }]
[scenario.expect]
prisoners = [{ captor = 0, owner = 1, count = 0 }, { captor = 1, owner = 0, count = 0 }]
events = [{ event = "exchange", players = [0, 1] }]
"#;

#[test]
fn t10_a_rule_jails_a_meeple_tops_a_tower_and_the_exchange_follows() {
    let dir = Scratch::new("jailer");
    let jailer = pack(&dir, "jailer", JAILER);
    let file = dir.file("jailer.toml");
    std::fs::write(&file, SCENARIOS).unwrap();
    let out = run(&["test", &format!("tower,{jailer}"), "--file", &file, "-v"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("2 passed, 0 failed"), "{text}");
}

#[test]
fn meeple_effects_that_break_the_rules_are_refused_with_their_place() {
    let dir = Scratch::new("bad-jailer");
    let cases = [
        (
            "own",
            "fn on_floor_built(event) { [place_on_tower(event.x, event.y, event.seat), take_prisoner(event.x, event.y, event.seat)] }\n",
            "own meeple is never its prisoner",
        ),
        (
            "nobody",
            "fn on_turn_end(event) { take_prisoner(0, 0, 0, 1) }\n",
            "no meeple stands there",
        ),
        (
            "seat",
            "fn on_turn_end(event) { take_prisoner(0, 0, 0, 9) }\n",
            "there is no seat 9",
        ),
        (
            "twice",
            "fn on_floor_built(event) { [place_on_tower(event.x, event.y, 0), place_on_tower(event.x, event.y, 1)] }\n",
            "a meeple already stands on the tower",
        ),
        (
            "nowhere",
            "fn on_turn_end(event) { place_on_tower(40, 40, 0) }\n",
            "no tower stands at (40, 40)",
        ),
    ];
    for (name, script, expected) in cases {
        let p = pack(&dir, name, script);
        let err = refused(&[
            "play",
            "--packs",
            &format!("tower,{p}"),
            "--seed",
            "3",
            "--bots",
            "greedy",
        ]);
        assert!(err.contains(expected), "{name}: {err}");
        assert!(
            err.contains(&format!("pack `{p}`")) && err.contains(".rhai:1:"),
            "{name}: {err}"
        );
    }
}

/// At each tile placed, a rule puts a meeple of the seat that placed it on
/// segment 0 of that tile, when it is free and the seat holds all seven; a
/// meeple placed on a road pays a point.
const ROADMAN: &str = r#"
fn on_tile_placed(event) {
    let free = true;
    for n in game().feature(event.x, event.y, 0).meeples { if n > 0 { free = false; } }
    if free && game().meeples_in_supply(event.seat) == 7 { place_meeple(event.x, event.y, 0, event.seat) }
}
fn on_meeple_placed(event) {
    if event.on == "road" { points(event.seat, 1, "roadman") }
}
"#;

const ROADMAN_SCENARIOS: &str = r#"
[[scenario]]
name = "a rule puts a seat's meeple on the road of its tile"
tiles = [{ tile = "tower/F", at = [1, 0] }]
steps = [{ tile = "base/LR", at = [0, 0] }, { end = "turn" }]
[scenario.expect]
events_include = [
  { event = "placed", rule = "roadman", owner = 0, x = 0, y = 0, on = "road", segment = 0 },
  { event = "score", rule = "roadman", player = 0, points = 1 },
]
scores = [1, 0]

[[scenario]]
name = "a seat with a meeple out holds fewer than seven: no rule's meeple"
tiles = [{ tile = "tower/F", at = [1, 0] }, { tile = "tower/F", at = [2, 0] }]
meeples = [{ owner = 0, at = [2, 0], on = "field" }]
steps = [{ tile = "base/LR", at = [0, 0] }, { end = "turn" }]
[scenario.expect]
no_events = ["placed"]
scores = [0, 0]
"#;

#[test]
fn g3_a_rule_places_a_seat_s_meeple_from_its_supply_and_its_moment_follows() {
    let dir = Scratch::new("roadman");
    let p = pack(&dir, "roadman", ROADMAN);
    let file = dir.file("roadman.toml");
    std::fs::write(&file, ROADMAN_SCENARIOS).unwrap();
    let out = run(&["test", &format!("tower,{p}"), "--file", &file]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    // A game logs the rule's meeple and replays.
    let log = dir.file("game.jsonl");
    let packs = format!("tower,{p}");
    let args = ["play", "--packs", &packs, "--seed", "5", "--log", &log];
    assert!(run(&args).status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("\"event\":\"placed\",\"rule\":\"roadman\""),
        "{text}"
    );
    assert!(run(&["replay", &log]).status.success());
}

#[test]
fn g3_a_rule_s_meeple_where_the_kernel_forbids_one_is_refused_with_its_place() {
    let dir = Scratch::new("bad-roadman");
    let cases = [
        (
            "occupied",
            "fn on_turn_end(event) { [place_meeple(0, 0, 0, 0), place_meeple(0, 0, 0, 1)] }\n",
            "already holds a meeple (G3)",
        ),
        (
            "flood",
            "fn on_tile_placed(event) { let e = []; for i in 0..50 { e.push(place_meeple(event.x, event.y, 0, event.seat)); } e }\n",
            "already holds a meeple (G3)",
        ),
        (
            "nowhere",
            "fn on_turn_end(event) { place_meeple(40, 40, 0, 0) }\n",
            "no tile at (40, 40)",
        ),
        (
            "segment",
            "fn on_turn_end(event) { place_meeple(0, 0, 30, 0) }\n",
            "not 30",
        ),
        (
            "seat",
            "fn on_turn_end(event) { place_meeple(0, 0, 0, 9) }\n",
            "there is no seat 9",
        ),
    ];
    for (name, script, expected) in cases {
        let p = pack(&dir, name, script);
        let err = refused(&["play", "--packs", &format!("tower,{p}"), "--seed", "3"]);
        assert!(err.contains(expected), "{name}: {err}");
        assert!(
            err.contains(&format!("pack `{p}`")) && err.contains("effect `place_meeple`"),
            "{name}: {err}"
        );
    }
    // None in supply: every meeple of seat 0 is seat 1's prisoner.
    let p = pack(
        &dir,
        "empty",
        "fn on_turn_end(event) { place_meeple(0, 0, 0, 0) }\n",
    );
    let file = dir.file("empty.toml");
    std::fs::write(
        &file,
        "[[scenario]]\nname = \"no meeple left\"\ntiles = [{ tile = \"base/LR\", at = [0, 0] }]\n\
         prisoners = [{ captor = 1, owner = 0, count = 7 }]\nsteps = [{ end = \"turn\" }]\n",
    )
    .unwrap();
    let out = run(&["test", &format!("tower,{p}"), "--file", &file]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).contains("seat 0 has no meeple in supply"),
        "{}",
        stdout(&out)
    );
    // A foundation is a tower's: `place_on_tower`.
    let p = pack(
        &dir,
        "base",
        "fn on_turn_end(event) { place_meeple(1, 0, 1, 0) }\n",
    );
    std::fs::write(
        &file,
        "[[scenario]]\nname = \"a foundation\"\ntiles = [{ tile = \"tower/F\", at = [1, 0] }]\n\
         steps = [{ end = \"turn\" }]\n",
    )
    .unwrap();
    let out = run(&["test", &format!("tower,{p}"), "--file", &file]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).contains("not its foundation"),
        "{}",
        stdout(&out)
    );
}
