//! Features as reads, in scenarios: the completed feature itself in
//! `on_feature_completed` (`event.feature`: its cells and segments), the
//! feature at a cell and segment in a question hook (`game().feature`),
//! and a field's completed cities in `feature_points` (G8), at the end.

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
    let dir = Scratch::new("surveyor");
    let manifest = "[pack]\nname = \"surveyor\"\nrequires = [\"tower\"]\nscript = \"s.rhai\"\n";
    let p = dir.pack("surveyor", manifest, &[("s.rhai", SURVEYOR)]);
    let file = dir.write("s.toml", SCENARIOS).display().to_string();
    let out = run(&["test", &format!("tower,{p}"), "--file", &file]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(out.status.success(), "{text}");
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
