//! Scoring hooks: `feature_points` changes what a feature pays,
//! `meeple_strength` how much a meeple counts in a majority (G7) —
//! logged with their rule, replayed, refused when hostile; and every
//! example pack's own scenarios pass.

use std::path::Path;

use crate::common::{Scratch, ScratchFile, log_records, refused, run, stderr, stdout, succeeds};

/// A game of the Shadow example, logged: its text.
fn shadow_game(log: &ScratchFile) -> String {
    succeeds(&[
        "play",
        "--packs",
        "tower,docs/examples/shadow",
        "--seed",
        "5",
        "--bots",
        "greedy",
        "--log",
        log.path(),
    ]);
    log.read()
}

#[test]
fn scoring_hooks_change_points_and_strengths_and_say_which_rule_did() {
    let log = ScratchFile::new("shadow.jsonl");
    let text = shadow_game(&log);
    let records = log_records(&text);
    let strengths: Vec<_> = records
        .iter()
        .filter(|r| r["event"] == "strength")
        .collect();
    assert!(!strengths.is_empty(), "meeples counted 2 in this game");
    assert!(
        strengths
            .iter()
            .all(|r| r["rule"] == "shadow" && r["strength"] == 2),
        "{strengths:?}"
    );
    succeeds(&["replay", log.path()]);
    // A strength the rule would not give is caught.
    let forged = text.replacen(r#""strength":2"#, r#""strength":3"#, 1);
    log.write(&forged);
    let out = run(&["replay", log.path()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn points_a_rule_changed_are_logged_with_it_and_the_others_without() {
    let dir = Scratch::new("points");
    let pack = dir.pack(
        "double-roads",
        "[pack]\nname = \"double-roads\"\nrequires = [\"tower\"]\nscript = \"d.rhai\"\n",
        &[(
            "d.rhai",
            "fn feature_points(feature, points) {\n  if feature.kind == \"road\" { points * 2 } else { points }\n}\n",
        )],
    );
    let log = ScratchFile::new("double.jsonl");
    succeeds(&[
        "simulate",
        "--packs",
        &format!("tower,{pack}"),
        "--games",
        "3",
        "--log",
        log.path(),
    ]);
    let records = log_records(&log.read());
    let roads: Vec<_> = records
        .iter()
        .filter(|r| r["event"] == "score" && r["feature"] == "road")
        .collect();
    assert!(!roads.is_empty());
    assert!(
        roads
            .iter()
            .all(|r| r["rule"] == "double-roads" && r["points"].as_i64().unwrap() % 2 == 0),
        "{roads:?}"
    );
    let cities = records
        .iter()
        .filter(|r| r["event"] == "score" && r["feature"] == "city");
    assert!(cities.clone().count() > 0);
    assert!(cities.clone().all(|r| r.get("rule").is_none()));
    succeeds(&["replay", log.path()]);
}

#[test]
fn hostile_scoring_answers_are_refused_with_pack_and_hook() {
    let dir = Scratch::new("hostile-scoring");
    let cases = [
        (
            "negative",
            "fn feature_points(feature, points) { -1 }\n",
            "an integer from 0 to 4294967295",
        ),
        (
            "huge",
            "fn feature_points(feature, points) { 10000000000 }\n",
            "an integer from 0 to 4294967295",
        ),
        (
            "strong",
            "fn meeple_strength(meeple) { 5000 }\n",
            "an integer from 0 to 1000",
        ),
        (
            "word",
            "fn meeple_strength(meeple) { \"lots\" }\n",
            "an integer from 0 to 1000",
        ),
        (
            "towers",
            "fn feature_points(feature, points) { game().towers.len() }\n",
            "only known in event hooks (`on_…`), `meeple_strength` and `end`",
        ),
        (
            "in-range",
            "fn feature_points(feature, points) { game().in_range(0, 0) }\n",
            "only known in event hooks (`on_…`), `meeple_strength` and `end`",
        ),
        (
            "far",
            "fn meeple_strength(meeple) { game().in_range(100000000, 0) }\n",
            "is off any board",
        ),
    ];
    for (name, script, expected) in cases {
        let manifest = format!(
            "[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"{name}.rhai\"\n"
        );
        let pack = dir.pack(name, &manifest, &[(&format!("{name}.rhai"), script)]);
        let err = refused(&[
            "play",
            "--packs",
            &format!("tower,{pack}"),
            "--seed",
            "3",
            "--bots",
            "greedy",
        ]);
        assert!(err.contains(expected), "{name}: {err}");
        assert!(err.contains(&format!("pack `{pack}`")), "{name}: {err}");
    }
}

/// `meeple_strength` as a shadow over every tower's range: by
/// `game().in_range`, or by a loop over `game().towers` and their
/// `capture_cells`.
const SHADOW_BY_READ: &str =
    "fn meeple_strength(meeple) { if game().in_range(meeple.x, meeple.y) > 0 { 1 } else { 2 } }\n";
const SHADOW_BY_LOOP: &str = "fn meeple_strength(meeple) {
    for t in game().towers {
        if t.height > 0 {
            for c in capture_cells(t) {
                if t.x + c[0] == meeple.x && t.y + c[1] == meeple.y { return 1; }
            }
        }
    }
    2
}
";

#[test]
fn in_range_counts_the_towers_whose_range_holds_the_cell_as_a_loop_over_them_would() {
    let dir = Scratch::new("in-range");
    let pack = |name: &str, script: &str| {
        let manifest =
            format!("[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"s.rhai\"\n");
        dir.pack(name, &manifest, &[("s.rhai", script)])
    };
    let (by_read, by_loop) = (
        pack("by-read", SHADOW_BY_READ),
        pack("by-loop", SHADOW_BY_LOOP),
    );
    // The Tower's range, and a house rule's shorter one: the read follows
    // the variant's own ranges. Only strengths other than 1 are logged:
    // every meeple out of a shadow, each with its cell.
    for below in ["tower", "tower,house/no-surprises"] {
        for (bots, games) in [("random", "20"), ("greedy", "4")] {
            let strengths = |p: &str| {
                let log = ScratchFile::new("in-range.jsonl");
                let packs = format!("{below},{p}");
                succeeds(&[
                    "simulate",
                    "--packs",
                    &packs,
                    "--bots",
                    bots,
                    "--games",
                    games,
                    "--seed",
                    "4",
                    "--log",
                    log.path(),
                ]);
                log_records(&log.read())
                    .into_iter()
                    .filter(|r| r["event"] == "strength" || r["event"] == "score")
                    .map(|mut r| {
                        r.as_object_mut().unwrap().remove("rule");
                        r
                    })
                    .collect::<Vec<_>>()
            };
            let read = strengths(&by_read);
            let shadowed = read.iter().filter(|r| r["event"] == "strength").count();
            let scored = read.iter().filter(|r| r["event"] == "score").count();
            assert!(shadowed > 0, "{below}, {bots}: no meeple out of a shadow");
            assert_eq!(read, strengths(&by_loop), "{below}, {bots}");
            // A rule that sees no shadow logs a strength for every meeple.
            let unshadowed = strengths(&pack("none", "fn meeple_strength(meeple) { 2 }\n"));
            assert!(
                unshadowed
                    .iter()
                    .filter(|r| r["event"] == "strength")
                    .count()
                    > shadowed,
                "{below}, {bots}: no meeple was in a shadow ({scored} scores)"
            );
        }
    }
    // The read is traced with its cell and value.
    let trace = ScratchFile::new("in-range.trace");
    succeeds(&[
        "play",
        "--packs",
        &format!("tower,{by_read}"),
        "--seed",
        "5",
        "--bots",
        "greedy",
        "--trace",
        trace.path(),
    ]);
    let text = trace.read();
    assert!(
        text.contains("read game().in_range("),
        "{}",
        &text[..text.len().min(2000)]
    );
}

#[test]
fn every_example_packs_scenarios_pass() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples");
    let mut tested = Vec::new();
    for entry in std::fs::read_dir(&examples).unwrap() {
        let dir = entry.unwrap().path();
        if dir.join("tests").is_dir() && dir.join("pack.toml").is_file() {
            let out = succeeds(&["test", dir.to_str().unwrap()]);
            assert!(stdout(&out).contains(" 0 failed"), "{}", stdout(&out));
            tested.push(dir.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    for name in ["bell", "warden", "tithe", "shadow", "pilgrims"] {
        assert!(tested.iter().any(|t| t == name), "{name}: {tested:?}");
    }
}
