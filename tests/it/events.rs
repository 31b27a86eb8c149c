//! Packs that act: event hooks and their effects, a pack's own state, the
//! turn's context and each seat's tally as reads — played, logged,
//! replayed, refused when hostile.

use serde_json::Value;

use crate::common::{Scratch, ScratchFile, json, log_records, refused, run, stderr, succeeds};

/// A pack over The Tower with `state` declared in its manifest and
/// `script` as its script; its folder as a command line names it.
fn acting_pack(dir: &Scratch, name: &str, state: &str, script: &str) -> String {
    let manifest = format!(
        "[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"{name}.rhai\"\n{state}"
    );
    dir.pack(name, &manifest, &[(&format!("{name}.rhai"), script)])
}

/// A game of `packs` logged: its records.
fn played(packs: &str, extra: &[&str]) -> Vec<Value> {
    let log = ScratchFile::new("events.jsonl");
    let mut args = vec!["play", "--packs", packs, "--seed", "7", "--log", log.path()];
    args.extend_from_slice(extra);
    succeeds(&args);
    log_records(&log.read())
}

fn of_kind<'a>(records: &'a [Value], event: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["event"] == event).collect()
}

/// Every event hook is asked at its moment: a pack counting each moment in
/// a seat's state sees every one of them in a game of greedy bots (the
/// moments that can happen in any game: tiles, features, floors, meeples,
/// captures, turns and the end).
#[test]
fn every_event_hook_is_asked_at_its_moment() {
    let hooks = towerlab::kernel::effects::Moment::NAMES;
    let dir = Scratch::new("every-hook");
    let state: String = hooks
        .iter()
        .map(|h| format!("[state.{h}]\nscope = \"game\"\nmin = 0\nmax = 100000\n"))
        .collect();
    let script: String = hooks
        .iter()
        .map(|h| format!("fn on_{h}(event) {{ set_state(\"{h}\", state(\"{h}\") + 1) }}\n"))
        .collect();
    let pack = acting_pack(&dir, "counter", &state, &script);
    let records = played(
        &format!("tower,{pack}"),
        &["--bots", "greedy", "--players", "3"],
    );
    let last = |name: &str| {
        of_kind(&records, "state")
            .into_iter()
            .rfind(|r| r["name"] == format!("counter.{name}"))
            .map(|r| r["value"].as_i64().unwrap())
    };
    let count = |event: &str| of_kind(&records, event).len() as i64;
    assert_eq!(
        last("tile_placed"),
        Some(count("tile")),
        "one a tile placed"
    );
    assert_eq!(last("turn_end"), Some(count("tile")), "one a turn");
    assert_eq!(
        last("tile_drawn"),
        Some(count("tile")),
        "one a tile drawn that fits"
    );
    assert_eq!(last("floor_built"), Some(count("floor")));
    assert_eq!(last("meeple_placed"), Some(count("meeple")));
    assert_eq!(last("capture"), Some(count("capture")));
    assert_eq!(last("exchange"), Some(count("exchange")).filter(|&n| n > 0));
    assert_eq!(last("ransom"), Some(count("ransom")).filter(|&n| n > 0));
    assert_eq!(last("game_end"), Some(1));
    // Before and after scoring: two moments a completed feature.
    let completed = last("feature_completed").expect("features completed");
    assert!(completed > 0 && completed % 2 == 0, "{completed}");
}

/// Effects are logged with their rule, and `replay` checks them: a log
/// whose effect the rules would not produce is rejected at its line.
#[test]
fn effects_are_logged_and_a_log_with_an_effect_the_rules_would_not_produce_is_rejected() {
    let log = ScratchFile::new("bell.jsonl");
    succeeds(&[
        "play",
        "--packs",
        "tower,docs/examples/bell",
        "--seed",
        "7",
        "--bots",
        "greedy",
        "--log",
        log.path(),
    ]);
    let text = log.read();
    let records = log_records(&text);
    let added = of_kind(&records, "floor_added");
    assert!(!added.is_empty(), "the bells raised towers");
    assert!(added.iter().all(|r| r["rule"] == "bell"));
    succeeds(&["replay", log.path()]);
    // One raised floor of another kind: not what the bell does.
    let forged = text.replacen(
        r#""event":"floor_added","rule":"bell""#,
        r#""event":"floor_added","rule":"forged""#,
        1,
    );
    assert_ne!(forged, text);
    log.write(&forged);
    let out = run(&["replay", log.path()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("the log says"), "{}", stderr(&out));
    // An effect left out of the log is missed too.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(r#""event":"state""#))
        .unwrap();
    let without: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != at)
        .map(|(_, l)| *l)
        .collect();
    log.write(&(without.join("\n") + "\n"));
    let out = run(&["replay", log.path()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// The same seed plays the same games on one and two threads, with event
/// packs and searching bots (their copies of the game carry the state).
#[test]
fn event_packs_play_the_same_games_on_one_and_two_threads_with_mcts() {
    for pack in ["bell", "warden", "tithe"] {
        let packs = format!("tower,docs/examples/{pack}");
        let run_on = |threads: &str| {
            let mut v = json(&[
                "simulate",
                "--packs",
                &packs,
                "--games",
                "4",
                "--bots",
                "mcts:8,greedy",
                "--seed",
                "11",
                "--threads",
                threads,
                "--format",
                "json",
            ]);
            crate::common::without_timing(v.take())
        };
        assert_eq!(run_on("1"), run_on("2"), "{pack}");
    }
}

/// Effects that feed their own moment end with a clear error within the
/// cascade's limit, never a hang.
#[test]
fn an_effect_loop_ends_with_an_error_naming_the_rule() {
    let dir = Scratch::new("loop");
    let pack = acting_pack(
        &dir,
        "echo",
        "",
        "fn on_floor_built(event) { add_floor(event.x, event.y, \"regular\") }\n",
    );
    let err = refused(&[
        "play",
        "--packs",
        &format!("tower,{pack}"),
        "--bots",
        "greedy",
    ]);
    assert!(err.contains("cascade more than 8 deep"), "{err}");
    assert!(err.contains("on_floor_built"), "{err}");
    // The effect that went past the limit, by pack, hook and line.
    assert!(
        err.contains("echo`, hook `on_floor_built`")
            && err.contains("echo.rhai:1:")
            && err.contains("effect `add_floor`"),
        "{err}"
    );
}

/// Two packs answering each other's floors: the error names both, with
/// the line of each effect the cascade went through.
#[test]
fn a_cascade_between_two_packs_names_both() {
    let dir = Scratch::new("ping-pong");
    let ping = acting_pack(
        &dir,
        "ping",
        "",
        "fn on_floor_built(event) {\n    if event.height % 2 == 1 { add_floor(event.x, event.y, \"regular\") }\n}\n",
    );
    let pong = acting_pack(
        &dir,
        "pong",
        "",
        "fn on_floor_built(event) {\n    if event.height % 2 == 0 { add_floor(event.x, event.y, \"regular\") }\n}\n",
    );
    let err = refused(&[
        "play",
        "--packs",
        &format!("tower,{ping},{pong}"),
        "--bots",
        "greedy",
    ]);
    assert!(err.contains("cascade more than 8 deep"), "{err}");
    for pack in ["ping", "pong"] {
        assert!(
            err.contains(&format!("{pack}`, hook `on_floor_built`"))
                && err.contains(&format!("{pack}.rhai:2:")),
            "{pack}: {err}"
        );
    }
}

/// Hostile event hooks end with clear errors naming pack, hook and line.
#[test]
fn hostile_effects_are_refused_with_their_place() {
    let dir = Scratch::new("hostile-effects");
    let cases = [
        (
            "far",
            "",
            "fn on_turn_end(event) { add_floor(100000000, 0, \"regular\") }\n",
            "off any board",
        ),
        (
            "nowhere",
            "",
            "fn on_turn_end(event) { add_floor(40, 40, \"regular\") }\n",
            "no tower stands at (40, 40)",
        ),
        (
            "flood",
            "",
            "fn on_turn_end(event) { let e = []; for i in 0..2000 { e.push(points(0, 1, \"x\")); } e }\n",
            "more than 1000 effects",
        ),
        (
            "bounds",
            "[state.n]\nscope = \"game\"\nmin = 0\nmax = 3\n",
            "fn on_turn_end(event) { set_state(\"n\", state(\"n\") + 2) }\n",
            "state `bounds.n` takes 0 to 3, not 4",
        ),
        (
            "misspelt",
            "[state.rings]\nscope = \"game\"\nmin = 0\nmax = 3\n",
            "fn on_turn_end(event) { set_state(\"ring\", 1) }\n",
            "did you mean `rings`",
        ),
        (
            "scope",
            "[state.n]\nscope = \"seat\"\nmin = 0\nmax = 3\n",
            "fn on_turn_end(event) { set_state(\"n\", 1) }\n",
            "kept per seat: write set_state(\"n\", seat, value)",
        ),
        (
            "negative",
            "",
            "fn on_turn_end(event) { points(event.seat, -1000, \"fine\") }\n",
            "below 0",
        ),
        (
            "shape",
            "",
            "fn on_turn_end(event) { 42 }\n",
            "an event hook answers an effect",
        ),
        (
            "chained",
            "",
            "fn on_turn_end(event) { previous(event) }\n",
            "`previous` is not for event hooks",
        ),
        (
            "field",
            "",
            "fn on_turn_end(event) { if event.tiles > 0 { points(0, 1, \"x\") } }\n",
            "has no `tiles`; it has seat",
        ),
    ];
    for (name, state, script, expected) in cases {
        let pack = acting_pack(&dir, name, state, script);
        let err = refused(&["play", "--packs", &format!("tower,{pack}"), "--seed", "3"]);
        assert!(err.contains(expected), "{name}: {err}");
        assert!(
            err.contains(&format!("pack `{pack}`")) && err.contains(".rhai:1:"),
            "{name}: no pack, hook and line: {err}"
        );
    }
}

/// State declarations are checked where they are written.
#[test]
fn bad_state_declarations_are_refused_at_their_place() {
    let dir = Scratch::new("bad-state");
    let cases = [
        (
            "[state.n]\nscope = \"gamme\"\nmin = 0\nmax = 1\n",
            "did you mean `game`",
        ),
        ("[state.n]\nscope = \"game\"\n", "needs its bounds"),
        (
            "[state.n]\nscope = \"game\"\nmin = 5\nmax = 1\n",
            "`min` 5 is above `max` 1",
        ),
        (
            "[state.n]\nscope = \"game\"\nmin = 0\nmax = 3\ndefault = 9\n",
            "not within 0 to 3",
        ),
        (
            "[state.n]\nscope = \"game\"\ntype = \"bool\"\nmax = 3\n",
            "takes no `min` or `max`",
        ),
        (
            "[state.n]\nscope = \"game\"\ntype = \"text\"\n",
            "is not `int` or `bool`",
        ),
    ];
    for (i, (state, expected)) in cases.into_iter().enumerate() {
        let pack = acting_pack(
            &dir,
            &format!("s{i}"),
            state,
            "fn on_turn_end(event) { () }\n",
        );
        let err = refused(&["play", "--packs", &format!("tower,{pack}")]);
        assert!(err.contains(expected), "{state}: {err}");
        assert!(err.contains("pack.toml:"), "{state}: no place: {err}");
    }
}

/// The turn's tile, each seat's tally, the tower built last and where a
/// tower stands are reads of every hook that reads the game.
#[test]
fn hooks_read_the_turns_tile_the_tallies_the_last_tower_and_where_a_tower_stands() {
    let dir = Scratch::new("reads");
    // Only the tower built last may grow again, and only on a turn whose
    // tile has a foundation; a seat that has built 3 floors builds no more.
    let pack = acting_pack(
        &dir,
        "reads",
        "",
        r#"
fn may_place_floor(tower, kind) {
    let g = game();
    let tile = g.tile;
    if tile == () || !tile.foundation { return false; }
    if g.floors_built(g.actor) >= 3 { return false; }
    let last = g.last_tower;
    (last == () || (last[0] == tower.x && last[1] == tower.y) || tower.height == 0)
        && previous(tower, kind)
}
"#,
    );
    for seed in ["1", "2", "3"] {
        let log = ScratchFile::new("reads.jsonl");
        succeeds(&[
            "play",
            "--packs",
            &format!("tower,{pack}"),
            "--seed",
            seed,
            "--bots",
            "greedy",
            "--log",
            log.path(),
        ]);
        let records = log_records(&log.read());
        let mut built = [0; 2];
        let mut last: Option<(i64, i64)> = None;
        let mut tile_has_foundation = false;
        for r in &records {
            match r["event"].as_str().unwrap() {
                "tile" => {
                    let name = r["tile"].as_str().unwrap();
                    tile_has_foundation = name.starts_with("tower/");
                }
                "floor" => {
                    let seat = r["player"].as_u64().unwrap() as usize;
                    let at = (r["x"].as_i64().unwrap(), r["y"].as_i64().unwrap());
                    let height = r["floors"].as_array().unwrap().len();
                    assert!(
                        tile_has_foundation,
                        "a floor on a turn without a foundation"
                    );
                    assert!(built[seat] < 3, "a fourth floor of seat {seat}");
                    assert!(height == 1 || last.is_none() || last == Some(at), "{r}");
                    built[seat] += 1;
                    last = Some(at);
                }
                _ => {}
            }
        }
        assert!(built.iter().sum::<i32>() > 0, "someone built");
        succeeds(&["replay", log.path()]);
    }
}

/// `check` test-plays an event pack and reports the effects its hooks
/// answered.
#[test]
fn check_reports_the_effects_an_event_pack_answered() {
    let out = succeeds(&["check", "docs/examples/warden"]);
    let text = crate::common::stdout(&out);
    assert!(text.contains("block"), "{text}");
    assert!(text.contains("set_state"), "{text}");
}
