//! Features as reads, in scenarios: the completed feature itself in
//! `on_feature_completed` (`event.feature`: its cells and segments), the
//! feature at a cell and segment in a question hook (`game().feature`),
//! a field's completed cities in `feature_points` (G8), at the end, and
//! the tile at a cell (`game().tile_at`: its segments' kinds).

use crate::common::{Scratch, run, stderr, stdout};

const SURVEYOR: &str = r#"
// A completed feature pays seat 0 ten points a cell and one a segment.
fn on_feature_completed(event) {
    if event.scored { return (); }
    let f = event.feature;
    points(0, f.cells.len() * 10 + f.segments.len(), "survey")
}

// Farmers get 2 a completed city, not 3; other features what they pay.
fn feature_points(feature, points) {
    if feature.kind == "field" { feature.cities * 2 } else { points }
}

// A meeple may top a tower while seat 1 holds an open road at (0, 0).
fn may_top(tower) {
    let road = game().feature(0, 0, 0);
    road != () && road.kind == "road" && road.open && road.meeples[1] > 0
}
"#;

const SCENARIOS: &str = r#"
[[scenario]]
name = "a road of two cells completed pays 22 besides its own points"
tiles = [{ tile = "base/LR", at = [0, 0] }]
meeples = [{ owner = 0, at = [0, 0], on = "road" }]
steps = [{ tile = "base/LR", at = [0, -1], rot = 180 }, { end = "turn" }]
[scenario.expect]
events_include = [
  { event = "score", rule = "surveyor", player = 0, points = 22, feature = "survey" },
  { event = "score", player = 0, points = 2, feature = "road" },
]
scores = [24, 0]

[[scenario]]
name = "the road at (0, 0) lets a meeple top the tower while seat 1 holds it"
tiles = [{ tile = "base/LR", at = [0, 0] }, { tile = "tower/F", at = [1, 0] }]
towers = [{ at = [1, 0], floors = ["regular"] }]
meeples = [{ owner = 1, at = [0, 0], on = "road" }]
[scenario.expect]
top = [{ tower = [1, 0], seats = [0, 1] }]

[[scenario]]
name = "no meeple of seat 1 on it: no top"
tiles = [{ tile = "base/LR", at = [0, 0] }, { tile = "tower/F", at = [1, 0] }]
towers = [{ at = [1, 0], floors = ["regular"] }]
[scenario.expect]
top = [{ tower = [1, 0], seats = [] }]

[[scenario]]
name = "a farmer beside one completed city gets 2 at the end (G8)"
rules = ["G8"]
tiles = [{ tile = "tower/C", at = [0, 0] }, { tile = "tower/C", at = [0, 1], rot = 180 }]
meeples = [{ owner = 0, at = [0, 0], on = "field" }]
[scenario.expect]
end_scores = [2, 0]
"#;

#[test]
fn g4_g8_a_pack_sees_the_completed_feature_a_feature_at_a_place_and_a_field_s_cities() {
    let (_dir, file) = passes("surveyor", SURVEYOR, SCENARIOS);
    // Under The Tower alone, the same positions give other answers.
    let plain = run(&["test", "tower", "--file", &file]);
    let text = stdout(&plain);
    assert!(text.contains(" 3 failed"), "{text}");
}

#[test]
fn a_feature_read_where_the_event_has_none_says_which_fields_it_has() {
    let dir = Scratch::new("no-feature");
    let manifest = "[pack]\nname = \"nf\"\nrequires = [\"tower\"]\nscript = \"nf.rhai\"\n";
    let p = dir.pack(
        "nf",
        manifest,
        &[("nf.rhai", "fn on_turn_end(event) { event.feature; () }\n")],
    );
    let out = run(&["play", "--packs", &format!("tower,{p}"), "--seed", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("the event of `on_turn_end` has no `segment`; it has seat")
            && err.contains("nf.rhai:1:"),
        "{err}"
    );
}

/// The Pilgrims example (docs/examples/pilgrims): the guide shows its
/// script and first scenario as they are, and games with it log the
/// pilgrims placed and replay.
#[test]
fn g6_the_pilgrims_example_is_the_guide_s_and_its_games_replay() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/events.md")).unwrap();
    let script =
        std::fs::read_to_string(root.join("docs/examples/pilgrims/pilgrims.rhai")).unwrap();
    assert!(guide.contains(&format!("```rhai\n{script}```")));
    let scenarios =
        std::fs::read_to_string(root.join("docs/examples/pilgrims/tests/pilgrims.toml")).unwrap();
    let first = scenarios.split("\n[[scenario]]").nth(1).unwrap();
    assert!(guide.contains(&format!("```toml\n[[scenario]]{first}```")));
    let dir = Scratch::new("pilgrims-games");
    let packs = format!("tower,{}", root.join("docs/examples/pilgrims").display());
    let mut placed = 0;
    for seed in 1..=6 {
        let log = dir.file(&format!("g{seed}.jsonl"));
        let seed = seed.to_string();
        let args = [
            "play", "--packs", &packs, "--seed", &seed, "--bots", "greedy", "--log", &log,
        ];
        let out = run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        placed += std::fs::read_to_string(&log)
            .unwrap()
            .matches("\"event\":\"placed\",\"rule\":\"pilgrims\"")
            .count();
        let out = run(&["replay", &log]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert!(placed > 0, "no pilgrim in six games");
}

const MASON: &str = r#"
// A meeple may top a tower while the tile at (0, 0) is a cloister's
// turned a quarter, the tower's tile has its foundation as segment 1
// and nothing lies at (5, 5) or past the board's edge.
fn may_top(tower) {
    let t = game().tile_at(0, 0);
    let own = game().tile_at(tower.x, tower.y);
    t != () && t.segments.index_of("cloister") == 2 && t.cloister == 2 && t.rot == 90
        && t.x == 0 && t.y == 0 && t.name == "base/LR" && !t.foundation
        && own.foundation && own.segments == ["field", "foundation"] && own.cloister == ()
        && game().tile_at(5, 5) == () && game().tile_at(99999999999, 0) == ()
}
"#;

const MASON_SCENARIOS: &str = r#"
[[scenario]]
name = "a cloister's tile turned a quarter at (0, 0) lets a meeple top the tower"
tiles = [{ tile = "base/LR", at = [0, 0], rot = 90 }, { tile = "tower/F", at = [1, 0] }]
towers = [{ at = [1, 0], floors = ["regular"] }]
[scenario.expect]
top = [{ tower = [1, 0], seats = [0, 1] }]

[[scenario]]
name = "the same tile unturned: no top"
tiles = [{ tile = "base/LR", at = [0, 0] }, { tile = "tower/F", at = [1, 0] }]
towers = [{ at = [1, 0], floors = ["regular"] }]
[scenario.expect]
top = [{ tower = [1, 0], seats = [] }]

[[scenario]]
name = "a road's tile at (0, 0): no top"
tiles = [{ tile = "base/RCr", at = [0, 0], rot = 90 }, { tile = "tower/F", at = [-1, 0] }]
towers = [{ at = [-1, 0], floors = ["regular"] }]
[scenario.expect]
top = [{ tower = [-1, 0], seats = [] }]
"#;

#[test]
fn a_pack_sees_the_tile_at_a_cell_its_name_turn_foundation_and_segments_kinds() {
    passes("mason", MASON, MASON_SCENARIOS);
}

/// Every one of `scenarios` passes under The Tower and a pack `name` of
/// `script`; the scratch folder and the scenarios' file, for more runs.
fn passes(name: &str, script: &str, scenarios: &str) -> (Scratch, String) {
    let dir = Scratch::new(name);
    let manifest =
        format!("[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"s.rhai\"\n");
    let p = dir.pack(name, &manifest, &[("s.rhai", script)]);
    let file = dir.write("s.toml", scenarios).display().to_string();
    let out = run(&["test", &format!("tower,{p}"), "--file", &file]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(out.status.success() && text.contains(" 0 failed"), "{text}");
    (dir, file)
}
