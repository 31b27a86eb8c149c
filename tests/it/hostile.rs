//! Hostile packs and files, one test per class of attack: each ends with exit
//! code 2 and a message that says what went wrong, under every command that
//! meets it (`play` with random and greedy bots, `simulate --threads 2`,
//! `check`, `range`, `render`, `replay`), never with an abort, a hang or a
//! wrong answer. Packs and files are written into fresh temporary folders.

use std::path::Path;

use serde_json::json;

use crate::common::{Scratch, run, stderr, stdout};

/// A pack `name` in `s` whose manifest names `script` (and holds `extra`)
/// and whose `evil.rhai` is `text`; its folder, as the command line names
/// it.
fn evil_pack(s: &Scratch, name: &str, script: &str, text: &str, extra: &str) -> String {
    let manifest = format!("[pack]\nname = \"{name}\"\nscript = \"{script}\"\n{extra}");
    s.pack(name, &manifest, &[("evil.rhai", text)])
}

/// `bytes` written to `name` in `s`; its path.
fn written(s: &Scratch, name: &str, bytes: &[u8]) -> String {
    s.write(name, bytes).display().to_string()
}

/// Run `args`: it must exit 2 with every one of `says` in its message.
fn refused_saying(args: &[&str], says: &[&str]) {
    let out = run(args);
    let text = format!("{}{}", stderr(&out), stdout(&out));
    assert_eq!(out.status.code(), Some(2), "{args:?}: {text}");
    for s in says {
        assert!(text.contains(s), "{args:?} should say `{s}`:\n{text}");
    }
}

/// Every command that plays or asks the packs `packs` (comma-separated,
/// after `tower`) refuses with `says`: `play` (random and greedy bots),
/// `simulate --threads 2` (greedy), `range`, and `check` of a variant of
/// those packs.
fn refused_everywhere(s: &Scratch, packs: &str, says: &[&str]) {
    let packs = format!("tower,{packs}");
    let p = packs.as_str();
    let listed: Vec<String> = packs.split(',').map(|p| format!("{p:?}")).collect();
    let variant = written(
        s,
        "variant.toml",
        format!("name = \"hostile\"\npacks = [{}]\n", listed.join(", ")).as_bytes(),
    );
    for bots in ["random", "greedy"] {
        refused_saying(&["play", "--packs", p, "--seed", "3", "--bots", bots], says);
    }
    refused_saying(
        &[
            "simulate",
            "--packs",
            p,
            "--games",
            "4",
            "--threads",
            "2",
            "--bots",
            "greedy",
        ],
        says,
    );
    refused_saying(&["range", "--packs", p, "--floors", "regular"], says);
    refused_saying(&["check", &variant, "--games", "2"], says);
}

#[test]
fn a_hook_that_would_sleep_ends_with_an_error_at_once() {
    let s = Scratch::new("hostile");
    let pack = evil_pack(
        &s,
        "sleeper",
        "evil.rhai",
        "fn reach(tower) {\n    sleep(100000);\n    1\n}\n",
        "",
    );
    let started = std::time::Instant::now();
    refused_everywhere(
        &s,
        &pack,
        &["`sleep` is not available to packs", "evil.rhai:2:"],
    );
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

#[test]
fn recursion_through_nested_hooks_is_counted_across_them() {
    // Each pack recurses 20 deep before asking the pack below: 60 nested
    // calls in all, which the per-hook limit of 32 alone would allow.
    let s = Scratch::new("hostile");
    let script = "fn f(t, n) { if n == 0 { previous(t) } else { f(t, n - 1) } }\n\
                  fn reach(tower) { f(tower, 20) }\n";
    let packs: Vec<String> = ["deep1", "deep2", "deep3"]
        .iter()
        .map(|n| evil_pack(&s, n, "evil.rhai", script, ""))
        .collect();
    refused_everywhere(
        &s,
        &packs.join(","),
        &["Function calls nested more than 32 deep"],
    );
}

#[test]
fn pack_files_resolve_only_inside_the_pack_folder() {
    let s = Scratch::new("hostile");
    let outside = written(&s, "outside.rhai", b"fn reach(tower) { 1 }\n");
    let up = evil_pack(&s, "up", "../outside.rhai", "", "");
    let absolute = evil_pack(&s, "absolute", &outside, "", "");
    let linked = evil_pack(&s, "linked", "linked.rhai", "", "");
    std::os::unix::fs::symlink(&outside, Path::new(&linked).join("linked.rhai")).expect("link");
    for (pack, why) in [
        (&up, "leaves the pack's folder with `..`"),
        (&absolute, "is an absolute path"),
        (
            &linked,
            "leads out of the pack's folder through a symbolic link",
        ),
    ] {
        refused_everywhere(&s, pack, &[why, "pack.toml:3:10"]);
    }
}

#[test]
fn too_many_floor_kinds_are_refused_at_their_line() {
    let s = Scratch::new("hostile");
    let floors: String = (0..40)
        .map(|i| format!("[[floor]]\nname = \"f{i}\"\ncolour = \"#000000\"\n"))
        .collect();
    let pack = evil_pack(&s, "floors", "evil.rhai", "", &floors);
    // The 33rd floor's name: line 4 + 3 × 32 + 1.
    refused_everywhere(&s, &pack, &["more than 32 floor kinds", "pack.toml:101:"]);
}

#[test]
fn huge_tile_counts_are_refused_before_any_deck_is_dealt() {
    let s = Scratch::new("hostile");
    let tiles = "[set]\nname = \"huge\"\ntotal = 4000000000\n\n[[tile]]\nname = \"F\"\n\
                 count = 4000000000\nedges = \"FFFF\"\n\
                 fields = [{ halves = [\"NL\", \"NR\", \"EL\", \"ER\", \"SL\", \"SR\", \"WL\", \"WR\"] }]\n";
    let pack = evil_pack(&s, "huge", "evil.rhai", "", "tiles = \"tiles.toml\"\n");
    std::fs::write(Path::new(&pack).join("tiles.toml"), tiles).expect("tiles.toml");
    refused_everywhere(
        &s,
        &pack,
        &["tiles.toml:7:9", "the most tiles a game may have"],
    );
}

#[test]
fn endless_and_oversized_input_files_are_refused_with_the_limit() {
    for args in [
        &["replay", "/dev/zero"][..],
        &[
            "range",
            "--packs",
            "tower",
            "--floors",
            "regular",
            "--board",
            "/dev/zero",
        ],
        &["render", "--log", "/dev/zero"],
    ] {
        refused_saying(args, &["larger than 64 MB, the limit for input files"]);
    }
}

#[test]
fn files_that_are_not_utf8_are_refused_with_their_place() {
    let s = Scratch::new("hostile");
    let log = written(&s, "bad.jsonl", b"{\"event\":\"start\"}\n{\"ev\xffent\"}\n");
    refused_saying(&["replay", &log], &["bad.jsonl:2:5: not UTF-8 text"]);
    refused_saying(
        &["render", "--log", &log],
        &["bad.jsonl:2:5: not UTF-8 text"],
    );
    let board = written(&s, "board.txt", b"#T\n\xfe#\n");
    refused_saying(
        &[
            "range", "--packs", "tower", "--floors", "regular", "--board", &board,
        ],
        &["board.txt:2:1: not UTF-8 text"],
    );
}

#[test]
fn board_files_larger_than_the_limit_are_refused_at_their_place() {
    let s = Scratch::new("hostile");
    let wide = format!("T{}\n", "#".repeat(200));
    let tall = format!("T\n{}", "#\n".repeat(200));
    for (name, text, at) in [("wide", wide, "wide:1:101"), ("tall", tall, "tall:101:1")] {
        let board = written(&s, name, text.as_bytes());
        refused_saying(
            &[
                "range", "--packs", "tower", "--floors", "regular", "--board", &board,
            ],
            &[at, "a board file is at most 100 by 100"],
        );
    }
}

#[test]
fn a_range_reaching_far_away_is_refused_by_range_not_drawn() {
    let s = Scratch::new("hostile");
    let pack = evil_pack(
        &s,
        "far",
        "evil.rhai",
        "fn range(tower, reach) {\n    [[100000, 100000]]\n}\n",
        "",
    );
    refused_saying(
        &[
            "range",
            "--packs",
            &format!("tower,{pack}"),
            "--floors",
            "regular",
        ],
        &["the range reaches cell (100000, 100000)"],
    );
}

/// A log of one game of `tower`, from `simulate`.
fn tower_log(s: &Scratch, packs: &str) -> String {
    let log = s.file("game.jsonl");
    let out = run(&[
        "simulate", "--packs", packs, "--games", "1", "--seed", "5", "--log", &log,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read_to_string(&log).expect("the log")
}

#[test]
fn coordinates_out_of_range_in_a_log_are_refused_by_render_as_by_replay() {
    let s = Scratch::new("hostile");
    let text = tower_log(&s, "tower");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let i = lines
        .iter()
        .position(|l| l.contains("\"event\":\"tile\"") && l.contains("\"x\":"))
        .expect("a tile record");
    let mut record: serde_json::Value = serde_json::from_str(&lines[i]).expect("json");
    // 2^32 + 1: wrapped into an i32, this would be x = 1.
    record["x"] = serde_json::Value::from(4_294_967_297_i64);
    lines[i] = record.to_string();
    let log = written(&s, "far.jsonl", lines.join("\n").as_bytes());
    let at = format!("far.jsonl:{}:", i + 1);
    refused_saying(&["replay", &log], &[&at, "4294967297", "expected i32"]);
    refused_saying(
        &["render", "--log", &log],
        &[&at, "4294967297", "expected i32"],
    );
}

#[test]
fn a_rotation_or_meeple_word_no_event_holds_is_refused_by_render_as_by_replay() {
    let s = Scratch::new("hostile");
    let text = tower_log(&s, "tower");
    let lines: Vec<&str> = text.lines().collect();
    let first = |event: &str| {
        lines
            .iter()
            .position(|l| l.contains(&format!("\"event\":\"{event}\"")))
            .unwrap_or_else(|| panic!("a `{event}` record"))
    };
    for (i, field, value, says) in [
        (
            first("tile"),
            "rot",
            json!(45),
            "expected 0, 90, 180 or 270",
        ),
        (
            first("meeple"),
            "on",
            json!("bridge"),
            "`bridge` is not one of",
        ),
    ] {
        let mut record: serde_json::Value = serde_json::from_str(lines[i]).expect("json");
        record[field] = value;
        let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        edited[i] = record.to_string();
        let log = written(&s, "odd.jsonl", edited.join("\n").as_bytes());
        let at = format!("odd.jsonl:{}:", i + 1);
        refused_saying(&["replay", &log], &[&at, says]);
        refused_saying(&["render", "--log", &log], &[&at, says]);
    }
}

#[test]
fn a_script_error_met_under_replay_is_bad_input() {
    let s = Scratch::new("hostile");
    let pack = evil_pack(
        &s,
        "turncoat",
        "evil.rhai",
        "fn reach(tower) { previous(tower) }\n",
        "",
    );
    tower_log(&s, &format!("tower,{pack}"));
    // The log carries the pack's files, and replays under them: the script
    // is rewritten there.
    let path = s.path().join("game.jsonl");
    let text = std::fs::read_to_string(&path).expect("the log");
    let logged = r#""evil.rhai":"fn reach(tower) { previous(tower) }\n""#;
    assert!(
        text.contains(logged),
        "the log carries the script: {text:.400}"
    );
    let throwing = r#""evil.rhai":"fn reach(tower) {\n    throw \"no reach today\";\n}\n""#;
    std::fs::write(&path, text.replace(logged, throwing)).expect("rewrite the log");
    let log = path.display().to_string();
    refused_saying(&["replay", &log], &["no reach today", "evil.rhai:2:"]);
}

#[test]
fn hooks_cached_per_stack_cannot_read_the_owner_so_threads_agree() {
    let s = Scratch::new("hostile");
    let peeking = evil_pack(
        &s,
        "peek",
        "evil.rhai",
        "fn reach(tower) {\n    if tower.meeple_owner == 0 { 1 } else { 2 }\n}\n",
        "",
    );
    refused_everywhere(&s, &peeking, &["only known in `may_capture`"]);
    // `may_capture` may read it: the same metrics on 1 and 2 threads, and
    // the log replays.
    let fair = evil_pack(
        &s,
        "owner",
        "evil.rhai",
        "fn may_capture(tower, meeple, board) {\n    tower.meeple_owner != meeple.owner\n}\n",
        "",
    );
    let packs = format!("tower,{fair}");
    let metrics = |threads: &str| {
        let out = run(&[
            "simulate",
            "--packs",
            &packs,
            "--games",
            "24",
            "--threads",
            threads,
            "--format",
            "json",
            "--bots",
            "greedy,random",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        strip_speed(&mut v);
        v
    };
    assert_eq!(metrics("1"), metrics("2"));
    tower_log(&s, &packs);
    let log = s.file("game.jsonl");
    let out = run(&["replay", &log]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Remove what depends on the machine (speed, threads, time) from a JSON value.
fn strip_speed(v: &mut serde_json::Value) {
    if let Some(map) = v.as_object_mut() {
        map.retain(|k, _| !matches!(k.as_str(), "threads" | "seconds" | "games_per_sec"));
        map.values_mut().for_each(strip_speed);
    }
}

#[test]
fn a_question_hook_answering_an_effect_is_refused_in_words() {
    let s = Scratch::new("hostile");
    let pack = evil_pack(
        &s,
        "effectful",
        "evil.rhai",
        "fn may_top(tower) {\n    points(0, 1, \"x\")\n}\n",
        "",
    );
    refused_saying(
        &[
            "play",
            "--packs",
            &format!("tower,{pack}"),
            "--seed",
            "3",
            "--bots",
            "greedy",
        ],
        &[
            "hook `may_top` of pack",
            "effectful`",
            "answered an effect (`points`); effects are answered by event hooks such as `on_turn_end`",
            "evil.rhai:1:",
        ],
    );
    let out = run(&["play", "--packs", &format!("tower,{pack}"), "--seed", "3"]);
    assert!(!stderr(&out).contains("EffectValue"), "{}", stderr(&out));
}
