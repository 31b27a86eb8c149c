//! What a new author tripped on, each fixed where it was met: the turn's
//! tile of a scenario seen by its hooks; `tower.x` in `may_place_floor`
//! under `check`; a scenario's pack paths read from its own folder; some
//! records expected (`events_include`); a floor kind named with a Rhai
//! keyword; a bool state logged as `true`; `--variant native:tower`;
//! `towerlab tiles base`; `debug()` of a tile; a meeple on a bare
//! foundation in a position; a pack that plays fewer seats.

use crate::common::{Scratch, refused, run, stderr, stdout, succeeds};

/// A pack over The Tower with `script`; its folder.
fn pack(dir: &Scratch, name: &str, script: &str) -> String {
    let manifest =
        format!("[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"{name}.rhai\"\n");
    dir.pack(name, &manifest, &[(&format!("{name}.rhai"), script)])
}

/// Run `test TARGET --file FILE` with `scenarios` written to FILE: whether
/// they all passed (the target's own too), and the output.
fn scenarios(dir: &Scratch, target: &str, scenarios: &str) -> (bool, String) {
    let file = dir.write("extra/s.toml", scenarios).display().to_string();
    let out = run(&["test", target, "--file", &file, "-v"]);
    (
        out.status.success(),
        format!("{}{}", stdout(&out), stderr(&out)),
    )
}

/// How many of the file's scenarios passed, by the output's `ok` lines.
fn passed(text: &str) -> usize {
    text.lines()
        .filter(|l| l.starts_with("ok") && l.contains("extra/s.toml:"))
        .count()
}

/// The tile that opens a turn: only a meeple may top a tower when the turn's
/// tile is a foundation tile.
const TILE_READER: &str = r#"
fn may_top(tower) {
    let t = game().tile;
    t != () && t.name == "tower/F" && t.x == 1 && t.rot == 0 && t.foundation
}
"#;

#[test]
fn t3_a_scenario_s_hooks_see_its_last_tile_as_the_turn_s_as_its_steps_do() {
    let dir = Scratch::new("turn-tile");
    let p = pack(&dir, "tile-reader", TILE_READER);
    let (ok, text) = scenarios(
        &dir,
        &format!("tower,{p}"),
        r#"
[[scenario]]
name = "no steps: the hooks see the last tile"
tiles = [{ tile = "base/L", at = [0, 0] }, { tile = "tower/F", at = [1, 0] }]
towers = [{ at = [1, 0], floors = ["regular"] }]
[scenario.expect]
top = [{ tower = [1, 0], seats = [0, 1] }]

[[scenario]]
name = "the steps begin with an action: the same tile"
tiles = [{ tile = "base/L", at = [0, 0] }, { tile = "tower/F", at = [1, 0] }]
towers = [{ at = [1, 0], floors = ["regular"] }]
steps = [{ top = [1, 0] }]
[scenario.expect]
events = [{ event = "meeple", player = 0, x = 1, y = 0 }]

[[scenario]]
name = "the steps begin with a tile: none before it"
tiles = [{ tile = "tower/F", at = [1, 0] }]
towers = [{ at = [1, 0], floors = ["regular"] }]
steps = [{ tile = "base/L", at = [0, 0] }, { top = [1, 0], refused = true }]
"#,
    );
    assert!(ok && passed(&text) == 3, "{text}");
}

#[test]
fn t3_check_plays_a_may_place_floor_that_reads_where_the_tower_stands() {
    let dir = Scratch::new("tower-x");
    let p = pack(
        &dir,
        "far-west",
        "fn may_place_floor(tower, kind) { tower.x > -5 && tower.meeple_owner == () && previous(tower, kind) }\n",
    );
    let out = run(&["check", &p, "--games", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("3 random games played"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_scenario_s_pack_paths_are_read_from_its_own_folder() {
    let dir = Scratch::new("pack-paths");
    let manifest = "[pack]\nname = \"helper\"\nrequires = [\"tower\"]\nscript = \"h.rhai\"\n";
    dir.pack(
        "extra/helper",
        manifest,
        &[("h.rhai", "fn ransom(score, paid) { 5 }\n")],
    );
    let (ok, text) = scenarios(
        &dir,
        "tower",
        r#"
[[scenario]]
name = "the helper beside the file sets the ransom"
packs = ["tower", "./helper"]
prisoners = [{ captor = 1, owner = 0, count = 1 }]
scores = [9, 0]
[scenario.expect]
ransom = [{ captor = 1, cost = 5 }]
"#,
    );
    assert!(ok && passed(&text) == 1, "{text}");
}

/// A road closed beside a cloister: a tile record, a meeple's points, its
/// return, and the turn's end.
const CLOSED_ROAD: &str = r#"
[[scenario]]
name = "closing a road"
tiles = [{ tile = "base/LR", at = [0, 0] }]
meeples = [{ owner = 0, at = [0, 0], on = "road" }]
steps = [{ tile = "base/LR", at = [0, -1], rot = 180 }, { end = "turn" }]
[scenario.expect]
"#;

#[test]
fn g4_events_include_expects_some_records_in_order_and_says_which_is_missing() {
    let dir = Scratch::new("events-include");
    let passing = format!(
        "{CLOSED_ROAD}events_include = [{{ event = \"tile\", x = 0, y = -1 }}, \
         {{ event = \"score\", player = 0, points = 2 }}]\n"
    );
    let (ok, text) = scenarios(&dir, "tower", &passing);
    assert!(ok && passed(&text) == 1, "{text}");
    // `events` with the same list fails: it wants every record of those
    // events; and the order counts for `events_include` too.
    let all = passing.replace("events_include", "events");
    let (ok, _) = scenarios(&dir, "tower", &all);
    let reversed = format!(
        "{CLOSED_ROAD}events_include = [{{ event = \"score\", player = 0 }}, \
         {{ event = \"tile\", x = 0, y = -1 }}]\n"
    );
    let (ok_reversed, text) = scenarios(&dir, "tower", &reversed);
    assert!(!ok_reversed, "{text}");
    assert!(text.contains("record 2 of `events_include`"), "{text}");
    assert!(ok, "every record of the tile event is one listed");
    let missing = format!("{CLOSED_ROAD}events_include = [{{ event = \"capture\" }}]\n");
    let (ok, text) = scenarios(&dir, "tower", &missing);
    assert!(!ok && text.contains("no `capture` record"), "{text}");
}

#[test]
fn a_floor_kind_a_script_could_not_name_after_a_dot_is_refused_where_declared() {
    let dir = Scratch::new("keyword-kind");
    let manifest = "[pack]\nname = \"kw\"\n\n[[floor]]\nname = \"shared\"\ncolour = \"#123456\"\ndescription = \"x\"\n";
    let p = dir.pack("kw", manifest, &[]);
    let out = run(&["check", &p]);
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert!(
        text.contains("pack.toml:5:8") && text.contains("`supply.shared`"),
        "{text}"
    );
    // Loaded for play, the same words.
    let err = refused(&["play", "--packs", &p]);
    assert!(err.contains("`supply.shared`"), "{err}");
}

/// A bool state set at each turn's end.
const POSTED: &str = "[pack]\nname = \"posted\"\nrequires = [\"tower\"]\nscript = \"posted.rhai\"\n\n\
    [state.posted]\nscope = \"game\"\ntype = \"bool\"\n";

#[test]
fn a_bool_state_is_logged_true_or_false_and_a_log_that_wrote_1_still_replays() {
    let dir = Scratch::new("bool-state");
    let p = dir.pack(
        "posted",
        POSTED,
        &[(
            "posted.rhai",
            "fn on_turn_end(event) { set_state(\"posted\", !state(\"posted\")) }\n",
        )],
    );
    let log = dir.file("game.jsonl");
    succeeds(&[
        "play",
        "--packs",
        &format!("tower,{p}"),
        "--seed",
        "4",
        "--log",
        &log,
    ]);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("\"name\":\"posted.posted\",\"value\":true"),
        "{text}"
    );
    assert!(text.contains("\"value\":false"), "{text}");
    succeeds(&["replay", &log]);
    let old = dir.file("old.jsonl");
    let written = text
        .replace("\"value\":true", "\"value\":1")
        .replace("\"value\":false", "\"value\":0");
    std::fs::write(&old, written).unwrap();
    succeeds(&["replay", &old]);
}

#[test]
fn a_native_rule_set_is_a_variant_and_the_base_game_s_tiles_are_a_sheet() {
    succeeds(&["simulate", "--variant", "native:tower", "--games", "2"]);
    let text = stdout(&succeeds(&["tiles", "base", "--segments"]));
    assert!(text.contains("base/L\n  0 field"), "{text}");
    refused(&["tiles", "base/nothing"]);
}

#[test]
fn debug_of_a_tile_or_a_feature_writes_its_fields_into_the_trace() {
    let dir = Scratch::new("debug-tile");
    let p = pack(
        &dir,
        "teller",
        "fn on_tile_placed(event) { debug(game().tile, game().feature(event.x, event.y, 0)); () }\n",
    );
    let trace = dir.file("trace.txt");
    succeeds(&[
        "play",
        "--packs",
        &format!("tower,{p}"),
        "--seed",
        "2",
        "--trace",
        &trace,
    ]);
    let text = std::fs::read_to_string(&trace).unwrap();
    assert!(text.contains("Tile { name: \"base/"), "{text}");
    assert!(
        text.contains(", rot: ") && text.contains("foundation: "),
        "{text}"
    );
    assert!(text.contains(", segments: [\""), "{text}");
    assert!(text.contains(" Feature { kind: \""), "{text}");
    assert!(text.contains(", meeples: [0, 0], cities: "), "{text}");
}

#[test]
fn t4_a_position_may_hold_a_meeple_on_a_bare_foundation_as_an_effect_may_put_one() {
    let dir = Scratch::new("bare-top");
    let (ok, text) = scenarios(
        &dir,
        "tower",
        r#"
[[scenario]]
name = "a warden on a bare foundation closes it"
tiles = [{ tile = "tower/F", at = [0, 0] }]
towers = [{ at = [0, 0], floors = [], top = 1 }]
[scenario.expect]
floors = [{ tower = [0, 0], kind = "regular", seats = [] }]
"#,
    );
    assert!(ok && passed(&text) == 1, "{text}");
}

/// The Tower's setup for 2 to 6 players, refusing 7 and 8 in its own words.
const SIX_AT_MOST: &str = r#"
fn setup(players, foundations) {
    if players > 6 { throw "The Tower is for 2 to 6 players"; }
    #{ regular: 10 }
}
fn may_place_floor(tower, kind) { tower.meeple_owner == () }
"#;

#[test]
fn t1_a_pack_may_play_fewer_seats_check_says_which_and_commands_refuse_others() {
    let dir = Scratch::new("six-at-most");
    let manifest = "[pack]\nname = \"six\"\nscript = \"six.rhai\"\n\n[[floor]]\nname = \"regular\"\ncolour = \"#888888\"\ndescription = \"x\"\n";
    let p = dir.pack("six", manifest, &[("six.rhai", SIX_AT_MOST)]);
    let out = run(&["check", &p, "--games", "5"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(text.contains("setup valid for 2–6 players"), "{text}");
    assert!(text.contains("plays 2–6 players"), "{text}");
    let err = refused(&["play", "--packs", &p, "--players", "7"]);
    assert!(err.contains("The Tower is for 2 to 6 players"), "{err}");
    // A setup that fails for every count is still a problem.
    let broken = dir.pack(
        "none",
        &manifest.replace("six", "none"),
        &[(
            "none.rhai",
            "fn setup(players, foundations) { throw \"never\"; }\n",
        )],
    );
    let out = run(&["check", &broken]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).contains("setup for 2 players: pack"),
        "{}",
        stdout(&out)
    );
}
