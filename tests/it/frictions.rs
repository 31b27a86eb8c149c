//! Small things an author meets: the log's `start` record names the start
//! tile; a pack named by path takes its parameters under its `name`, and a
//! wrong key lists the keys there are; `--param` on the commands that play;
//! `check` takes a pack list; a missing requirement suggests a list that
//! loads.

use towerlab::play::log::{LogEvent, Start, read};
use towerlab::rules::{Home, LoadOptions, Ruleset};

use crate::common::{fails, run, stdout, succeeds, temp_dir, write_pack};

#[test]
fn g9_the_start_record_names_the_start_tile_and_old_logs_still_replay() {
    let dir = temp_dir("start-tile");
    let log = dir.path().join("game.jsonl");
    succeeds(&["play", "--seed", "3", "--log", &log.display().to_string()]);
    let text = std::fs::read_to_string(&log).expect("the log");
    let first = text.lines().next().expect("a start record");
    let expected_start = format!(
        "\"start_tile\":{{\"tile\":\"{}\",\"x\":0,\"y\":0,\"rot\":0}}",
        crate::common::tiles().kinds[crate::common::tiles().start].name
    );
    assert!(first.contains(&expected_start), "{first}");
    let records = read(&towerlab::kernel::diag::Source::new(
        "game.jsonl",
        text.clone(),
    ))
    .expect("readable");
    assert!(matches!(
        &records[0].record.event,
        LogEvent::Start(Start {
            start_tile: Some(_),
            ..
        })
    ));
    succeeds(&["replay", &log.display().to_string()]);
    // A log of an earlier version, without the field, replays as before.
    let old = dir.path().join("old.jsonl");
    std::fs::write(&old, text.replacen(&format!(",{expected_start}"), "", 1)).expect("old log");
    assert!(
        !std::fs::read_to_string(&old)
            .unwrap()
            .contains("start_tile")
    );
    succeeds(&["replay", &old.display().to_string()]);
    // A start tile other than the rules' is refused (exit 1, the line).
    let other = dir.path().join("other.jsonl");
    std::fs::write(
        &other,
        text.replacen(
            "\"x\":0,\"y\":0,\"rot\":0}",
            "\"x\":0,\"y\":0,\"rot\":90}",
            1,
        ),
    )
    .expect("log");
    let out = run(&["replay", &other.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        crate::common::stderr(&out).contains("line 1: the log's start tile"),
        "{}",
        crate::common::stderr(&out)
    );
}

/// A variant file using the red-floor example by path, its parameters
/// keyed `key`.
fn red_variant(key: &str) -> (tempfile::TempDir, String) {
    let dir = temp_dir("params-by-name");
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/red-floor");
    let path = dir.path().join("red.toml");
    std::fs::write(
        &path,
        format!(
            "name = \"red\"\npacks = [\"tower\", \"{}\"]\n\n[params.{key}]\nred_per_player = 5\n",
            example.display()
        ),
    )
    .expect("a variant");
    (dir, path.display().to_string())
}

#[test]
fn a_pack_named_by_path_takes_its_parameters_under_its_name_or_its_path() {
    let (_d, by_name) = red_variant("red-floor");
    let set = Ruleset::from_variant(&Home::shipped(), &LoadOptions::default(), &by_name)
        .expect("keyed by name");
    let red = set.floor_kind("red").expect("red") as usize;
    let supply = set
        .rules()
        .seat_supply(2, set.tiles().foundation_tiles(), 0)
        .expect("supply");
    assert_eq!(supply[red], 5);
    // Recorded under the pack as listed, so the log replays.
    assert_eq!(set.params().keys().count(), 1);
    assert!(set.params().keys().next().unwrap().ends_with("red-floor"));
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/red-floor");
    let (_d2, by_path) = red_variant(&format!("\"{}\"", example.display()));
    let set = Ruleset::from_variant(&Home::shipped(), &LoadOptions::default(), &by_path)
        .expect("keyed by path");
    let supply = set
        .rules()
        .seat_supply(2, set.tiles().foundation_tiles(), 0)
        .expect("supply");
    assert_eq!(supply[red], 5);
    let (_d3, wrong) = red_variant("red-flor");
    let msg = fails(2, &["simulate", "--variant", &wrong, "--games", "1"]);
    assert!(
        msg.contains(":4:1: these rules have no pack `red-flor`"),
        "{msg}"
    );
    assert!(msg.contains("the keys there are: `tower`,"), "{msg}");
    assert!(msg.contains("(or its name, `red-floor`)"), "{msg}");
    assert!(msg.contains("did you mean `red-floor`?"), "{msg}");
}

#[test]
fn t11_param_sets_a_parameter_on_play_simulate_arena_and_compare() {
    let dir = temp_dir("param-flag");
    let log = dir.path().join("g.jsonl");
    succeeds(&[
        "play",
        "--seed",
        "2",
        "--param",
        "tower.ransom_cost=1",
        "--log",
        &log.display().to_string(),
    ]);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("\"params\":{\"tower\":{\"ransom_cost\":1}}"),
        "{text}"
    );
    assert!(
        !text.contains("\"event\":\"ransom\"") || text.contains("\"cost\":1,"),
        "a ransom cost other than 1"
    );
    succeeds(&["replay", &log.display().to_string()]);
    succeeds(&["simulate", "--games", "4", "--param", "tower.ransom_cost=0"]);
    succeeds(&[
        "arena",
        "random",
        "random",
        "--games",
        "2",
        "--param",
        "tower.ransom_cost=5",
    ]);
    let out = succeeds(&[
        "compare",
        "tower",
        "black-tower",
        "--games",
        "4",
        "--param",
        "black-tower.standard_foundations=10",
        "--format",
        "json",
    ]);
    assert!(stdout(&out).contains("\"variants\""));
    let msg = fails(
        2,
        &["simulate", "--games", "1", "--param", "tower.ransom_cots=1"],
    );
    assert!(msg.contains("did you mean `ransom_cost`?"), "{msg}");
    let msg = fails(
        2,
        &[
            "simulate",
            "--games",
            "1",
            "--param",
            "tower.ransom_cost=1..3",
        ],
    );
    assert!(
        msg.contains("`towerlab sweep` takes ranges and lists"),
        "{msg}"
    );
    let msg = fails(
        2,
        &[
            "compare",
            "tower",
            "tower-no-gaps",
            "--games",
            "1",
            "--param",
            "black-tower.standard_foundations=10",
        ],
    );
    assert!(msg.contains("have no pack `black-tower`"), "{msg}");
}

#[test]
fn check_takes_a_pack_list() {
    let out = succeeds(&["check", "tower,house/no-gaps", "--games", "2"]);
    assert!(
        stdout(&out).contains("packs: tower, house/no-gaps"),
        "{}",
        stdout(&out)
    );
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/red-floor");
    let list = format!("tower,{}", example.display());
    let out = succeeds(&["check", &list, "--games", "2"]);
    assert!(!stdout(&out).contains("did you mean"), "{}", stdout(&out));
    let out = run(&["check", "tower,house/no-gapz", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).contains("did you mean `house/no-gaps`?"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_missing_requirement_suggests_a_list_that_loads() {
    let dir = temp_dir("requires-chain");
    let manifest = "[pack]\nname = \"on-black\"\nrequires = [\"black-tower\"]\n";
    let pack = write_pack(dir.path(), "on-black", manifest, &[]);
    // What the requirement needs in turn comes first.
    let alone = pack.display().to_string();
    let msg = fails(2, &["simulate", "--packs", &alone, "--games", "1"]);
    assert!(
        msg.contains(&format!("(e.g. --packs tower,black-tower,{alone})")),
        "{msg}"
    );
    // The rest of the list is kept, and what it has is not added again.
    let list = format!("tower,house/no-gaps,{alone}");
    let msg = fails(2, &["simulate", "--packs", &list, "--games", "1"]);
    let suggested = format!("(e.g. --packs tower,house/no-gaps,black-tower,{alone})");
    assert!(msg.contains(&suggested), "{msg}");
    let fixed = format!("tower,house/no-gaps,black-tower,{alone}");
    succeeds(&["simulate", "--packs", &fixed, "--games", "1"]);
}

#[test]
fn g3_tiles_segments_numbers_each_tiles_segments_as_meeples_and_logs_do() {
    let out = succeeds(&["tiles", "tower", "--segments"]);
    let text = stdout(&out);
    assert!(
        text.contains("tower/C\n  0 city N\n  1 field EL ER SL SR WL WR\n  2 foundation\n"),
        "{text}"
    );
    assert!(
        text.contains("tower/L\n  0 field NL NR EL ER SL SR WL WR\n  1 cloister\n  2 foundation\n"),
        "{text}"
    );
    // The numbers are those the kernel gives meeples: a city first.
    let tiles = crate::common::tiles();
    let c = &tiles.kinds[tiles.find("tower/C").unwrap()];
    assert_eq!(
        c.segments[0].kind,
        towerlab::kernel::tiles::SegmentKind::City
    );
    assert_eq!(
        c.segments[2].kind,
        towerlab::kernel::tiles::SegmentKind::Foundation
    );
    let out = succeeds(&["tiles", "rules/base/tiles.toml", "--segments"]);
    assert!(
        stdout(&out).contains("base/RCr\n  0 city N\n  1 road E W\n"),
        "{}",
        stdout(&out)
    );
}
