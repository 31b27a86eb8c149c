//! Scenario tests of the shipped packs (`towerlab test`): every scenario
//! passes, every rule ID of the packs (T1–T12, B1–B9, H1–H4) has one, a
//! broken copy of each pack fails a scenario of the rule it breaks, and bad
//! scenario files are refused with their place.

use std::path::Path;

use towerlab::kernel::diag::Source;
use towerlab::play::scenario::{Outcome, suite};
use towerlab::rules::{Home, LoadOptions};

use crate::common::{copy_dir, fails, rules_dir, run, stdout, succeeds, temp_dir};

const PACKS: &[&str] = &[
    "tower",
    "black-tower",
    "house/no-gaps",
    "house/eye-for-an-eye",
    "house/no-surprises",
    "house/diagonal-steps",
];

/// Every scenario of `pack` under `home`, each run to an outcome.
fn outcomes(home: &Home, pack: &str) -> Vec<Outcome> {
    let suite =
        suite(home, &LoadOptions::default(), pack, &[]).unwrap_or_else(|e| panic!("{pack}: {e:#}"));
    suite
        .results
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{pack}: {e:#}")))
        .collect()
}

#[test]
fn t1_to_h4_every_shipped_scenario_passes_and_every_rule_has_one() {
    let mut covered = std::collections::BTreeSet::new();
    for pack in PACKS {
        for o in outcomes(&Home::shipped(), pack) {
            assert!(o.passed(), "{}: {} failed: {:?}", o.at, o.name, o.failures);
            assert!(
                o.checked > 0 || !o.failures.is_empty(),
                "{}: checks nothing",
                o.at
            );
            covered.extend(o.rules);
        }
    }
    let ids = (1..=12)
        .map(|i| format!("T{i}"))
        .chain((1..=9).map(|i| format!("B{i}")))
        .chain((1..=4).map(|i| format!("H{i}")));
    for id in ids {
        assert!(covered.contains(&id), "no scenario names {id}");
    }
}

#[test]
fn the_command_runs_the_shipped_scenarios() {
    let out = succeeds(&[
        "test",
        "tower",
        "black-tower",
        "tower,house/no-gaps",
        "--verbose",
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("rules/tower/tests/capture.toml:") && text.contains("ok    "),
        "{text}"
    );
    assert!(
        text.contains("black-tower: 18 scenario(s) under tower,black-tower: 18 passed, 0 failed"),
        "{text}"
    );
    assert!(
        text.contains("tower,house/no-gaps: 3 scenario(s) under tower,house/no-gaps"),
        "{text}"
    );
}

/// A copy of the shipped `rules/` in a new home, with `file` of `pack`
/// changed: `from` replaced by `to` (which must be there), then `append`.
fn broken(pack: &str, file: &str, from: &str, to: &str, append: &str) -> tempfile::TempDir {
    let home = temp_dir("mutant");
    copy_dir(&rules_dir(), &home.path().join("rules"));
    let path = home.path().join("rules").join(pack).join(file);
    let text = std::fs::read_to_string(&path).expect("the pack's script");
    assert!(text.contains(from), "{pack}/{file} has no `{from}`");
    let text = format!("{}\n{append}\n", text.replacen(from, to, 1));
    std::fs::write(&path, text).expect("the broken script");
    home
}

/// Each mutation: pack, rule ID, script text replaced, its replacement, a
/// hook appended.
const MUTATIONS: &[(&str, &str, &str, &str, &str)] = &[
    ("tower", "T1", "2 => 10", "2 => 11", ""),
    ("tower", "T3", "!tower.has_meeple", "tower.height < 6", ""),
    ("tower", "T4", "tower.height >= 1", "tower.height >= 0", ""),
    ("tower", "T5", "", "", "fn captured(meeple) { \"home\" }"),
    ("tower", "T6", "[step, 0]", "[step, 1]", ""),
    (
        "tower",
        "T7",
        "",
        "",
        "fn may_capture(tower, meeple, board) { meeple.on != \"tower\" }",
    ),
    ("tower", "T8", "!tower.has_meeple", "true", ""),
    (
        "tower",
        "T9",
        "",
        "",
        "fn may_capture(tower, meeple, board) { meeple.on != \"field\" }",
    ),
    ("tower", "T10", "", "", "fn exchange(a, b) { false }"),
    ("tower", "T11", "paid > 0", "paid > 1", ""),
    ("tower", "T11", "param(\"ransom_cost\")", "3", ""),
    (
        "tower",
        "T12",
        "",
        "",
        "fn end(towers) { [#{ player: 1, points: 1, feature: \"towers\" }] }",
    ),
    ("black-tower", "B1", "2 => [4, 2, 8]", "2 => [4, 0, 8]", ""),
    ("black-tower", "B2", "5 => [2, 1, 5]", "5 => [2, 1, 6]", ""),
    ("black-tower", "B3", "extra >= 4", "extra > 4", ""),
    ("black-tower", "B3", "players >= 4", "players >= 5", ""),
    (
        "black-tower",
        "B4",
        "\"black\" => !tower.has_meeple",
        "\"black\" => true",
        "",
    ),
    (
        "black-tower",
        "B5",
        "switch tower.top {",
        "switch tower.floors[0] {",
        "",
    ),
    ("black-tower", "B6", "[step, step]", "[step, 0]", ""),
    (
        "black-tower",
        "B6",
        "let cells = [[0, 0]];\n            for step in 1..=reach {\n                cells += [[step, step]",
        "let cells = [];\n            for step in 1..=reach {\n                cells += [[step, step]",
        "",
    ),
    (
        "black-tower",
        "B7",
        "tower.height >= 1 && !tower.has_meeple",
        "!tower.has_meeple",
        "",
    ),
    (
        "black-tower",
        "B7",
        "\"white\" => [],",
        "\"white\" => [[0, 0], [1, 0]],",
        "",
    ),
    (
        "black-tower",
        "B8",
        "if tower.top == \"white\" {\n        return false;\n    }\n    previous(tower)",
        "if tower.top != \"regular\" {\n        return false;\n    }\n    previous(tower)",
        "",
    ),
    (
        "black-tower",
        "B9",
        "",
        "",
        "fn end(towers) { [#{ player: 0, points: 2, feature: \"black\" }] }",
    ),
    ("house/no-gaps", "H1", "steps >= 0", "steps >= -1", ""),
    ("house/eye-for-an-eye", "H2", "()", "1", ""),
    (
        "house/no-surprises",
        "H3",
        "previous(tower) - 1",
        "previous(tower) - 0",
        "",
    ),
    (
        "house/diagonal-steps",
        "H4",
        "cells_within(steps, reach)",
        "cells_within(steps, reach + 1)",
        "",
    ),
];

#[test]
fn t1_to_h4_a_broken_copy_of_each_pack_fails_a_scenario_of_the_rule_it_breaks() {
    for &(pack, id, from, to, append) in MUTATIONS {
        let home = broken(
            pack,
            &format!("{}.rhai", pack.rsplit('/').next().unwrap_or(pack)),
            from,
            to,
            append,
        );
        let failed: Vec<Outcome> = outcomes(&Home::at(home.path()), pack)
            .into_iter()
            .filter(|o| !o.passed())
            .collect();
        assert!(
            failed.iter().any(|o| o.rules.iter().any(|r| r == id)),
            "{pack} with `{from}` → `{to}` {append}: no scenario of {id} failed (failed: {:?})",
            failed.iter().map(|o| &o.name).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_failure_names_the_scenario_the_expectation_and_what_was_got() {
    let dir = temp_dir("scenario-fail");
    let file = dir.path().join("wrong.toml");
    std::fs::write(
        &file,
        "[[scenario]]\nname = \"wrong on purpose\"\nrules = [\"T6\"]\n\
         tiles = [{ tile = \"tower/F\", at = [0, 0] }]\n\
         towers = [{ at = [0, 0], floors = [\"regular\"] }]\n\
         [scenario.expect]\nrange = [{ tower = [0, 0], cells = \"XTX\" }]\n\
         supply = [{ seat = 0, floors = { regular = 9 } }]\n",
    )
    .expect("a scenario");
    let path = file.display().to_string();
    let out = run(&["test", "tower", "--file", &path]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!("FAIL  {path}:1  wrong on purpose (T6)")),
        "{text}"
    );
    assert!(
        text.contains(&format!("{path}:7:36: range of the tower at [0, 0]")),
        "{text}"
    );
    assert!(
        text.contains("expected: \n          ...\n          XTX\n          ...\n"),
        "{text}"
    );
    assert!(
        text.contains("got:      \n          .X.\n          XTX\n          .X.\n"),
        "{text}"
    );
    assert!(text.contains("supply of seat 0 (2 players)\n        expected: regular 9\n        got:      regular 10"), "{text}");
}

/// Write a scenario file and run `towerlab test tower` on it: exit 2, the
/// message.
fn refused_scenario(text: &str) -> String {
    let dir = temp_dir("scenario-bad");
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, text).expect("a scenario");
    let path = file.display().to_string();
    let out = run(&["test", "tower", "--file", &path]);
    assert_eq!(out.status.code(), Some(2), "{text}\n{}", stdout(&out));
    format!("{}{}", stdout(&out), crate::common::stderr(&out)).replace(&path, "bad.toml")
}

#[test]
fn bad_scenario_files_are_refused_with_their_place_and_a_suggestion() {
    let head = "[[scenario]]\nname = \"n\"\n";
    let cases: &[(&str, &str)] = &[
        (
            "tiles = [{ tile = \"tower/FF\", at = [0, 0] }]\n",
            "bad.toml:3:19: unknown tile `tower/FF`, did you mean `tower/F`?",
        ),
        (
            "tiles = [{ tile = \"tower/F\", at = [0, 0] }]\ntowers = [{ at = [0, 0], floors = [\"reguler\"] }]\n",
            "bad.toml:4:36: unknown floor kind `reguler`",
        ),
        (
            "tiels = []\n",
            "bad.toml:3:1: unknown field `tiels`, expected one of `name`",
        ),
        ("tiels = []\n", "did you mean `tiles`?"),
        (
            "tiles = [{ tile = \"tower/F\", at = [0, 0], rot = 45 }]\n",
            "bad.toml:3:49: a rotation is 0, 90, 180 or 270",
        ),
        (
            "tiles = [{ tile = \"tower/F\", at = [0, 9999] }]\n",
            "bad.toml:3:35: cell [0, 9999] is more than 100 cells",
        ),
        (
            "players = 9\n",
            "bad.toml:3:11: players must be 2 to 8, not 9",
        ),
        (
            "tiles = [{ tile = \"base/L\", at = [0, 0] }]\nmeeples = [{ owner = 1, at = [0, 0], on = \"cloistre\" }]\n",
            "did you mean `cloister`?",
        ),
        (
            "[scenario.expect]\nno_events = [\"captur\"]\n",
            "no event `captur` in a log (docs/log.md), did you mean `capture`?",
        ),
        (
            "tiles = [{ tile = \"tower/F\", at = [0, 0] }]\n[scenario.expect]\nrange = [{ tower = [0, 0], cells = \"XQX\" }]\n",
            "`Q` in a range picture",
        ),
        (
            "tiles = [{ tile = \"base/L\", at = [0, 0] }]\nmeeples = [{ owner = 4, at = [0, 0], on = \"cloister\" }]\n",
            "seat 4: the game has seats 0 to 1",
        ),
        (
            "steps = [{ pass = true, end = \"turn\" }]\n",
            "a step is one of",
        ),
        (
            "tiles = [{ tile = \"base/L\", at = [0, 0] }, { tile = \"base/L\", at = [0, 0] }]\n",
            "a tile is already at",
        ),
    ];
    for (body, want) in cases {
        let got = refused_scenario(&format!("{head}{body}"));
        assert!(got.contains(want), "{body}\nwant: {want}\ngot: {got}");
    }
    let not_toml = refused_scenario("[[scenario]\n");
    assert!(not_toml.contains("bad.toml:1:"), "{not_toml}");
    let empty = refused_scenario("# nothing\n");
    assert!(empty.contains("no scenario"), "{empty}");
    let msg = fails(2, &["test", "house/no-gap"]);
    assert!(msg.contains("did you mean `house/no-gaps`"), "{msg}");
}

#[test]
fn a_pack_without_scenarios_says_where_they_go() {
    let msg = fails(2, &["test", "./docs/examples/red-floor"]);
    assert!(msg.contains("tests/*.toml"), "{msg}");
}

#[test]
fn scenario_files_parse_or_are_refused_for_any_edit() {
    // A few hundred quick cases here; tests/it/fuzz.rs runs many more.
    let text =
        std::fs::read_to_string(rules_dir().join("tower/tests/capture.toml")).expect("scenarios");
    let home = Home::shipped();
    for seed in 0..200u64 {
        let edits: Vec<(usize, usize, u8)> = (0..3)
            .map(|i| {
                let h = (seed * 7919 + i * 104729).wrapping_mul(2654435761);
                (h as usize, (h >> 7) as usize, (h >> 13) as u8)
            })
            .collect();
        let mangled = crate::fuzz::mangle(&text, &edits);
        let _ = suite(
            &home,
            &LoadOptions::default(),
            "tower",
            &[Source::new("s.toml", mangled)],
        );
    }
}

#[test]
fn the_tutorial_tests_its_pack_and_the_guide_s_sample_scenario_passes() {
    let out = succeeds(&["test", "./docs/examples/leader-ransom", "--verbose"]);
    assert!(
        stdout(&out).contains("4 scenario(s) under tower,./docs/examples/leader-ransom: 4 passed"),
        "{}",
        stdout(&out)
    );
    // The first TOML block of the scenario files' reference, run as written.
    let section =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scenarios.md"))
            .expect("the reference");
    let sample = section
        .split("```toml\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a sample");
    let dir = temp_dir("guide-sample");
    let file = dir.path().join("range.toml");
    std::fs::write(&file, sample).expect("the sample");
    let out = succeeds(&[
        "test",
        "tower",
        "--file",
        &file.display().to_string(),
        "--verbose",
    ]);
    assert!(
        stdout(&out).contains("one floor reaches one tile each way (T6)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_native_rule_set_says_it_has_no_scenarios_of_its_own_and_runs_those_given() {
    for (native, pack) in [
        ("native:tower", "tower"),
        ("native:black-tower", "black-tower"),
    ] {
        let err = fails(2, &["test", native]);
        assert!(err.contains("has no scenarios of its own"), "{err}");
        assert!(err.contains(&format!("towerlab test {pack}")), "{err}");
    }
    // Scenarios given with `--file` that set no parameter run under it.
    let building = rules_dir().join("tower/tests/building.toml");
    let out = stdout(&succeeds(&[
        "test",
        "native:tower",
        "--file",
        building.to_str().unwrap(),
    ]));
    assert!(out.contains("passed, 0 failed"), "{out}");
}
