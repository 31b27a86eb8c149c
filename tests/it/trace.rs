//! `--trace FILE` of `play`, `check` and `test` through the real binary: a
//! known hook call with its arguments, reads, debug line and answer;
//! answers from the memo marked kept; the same game with and without it;
//! the bounds (a pack that debugs in a loop, a trace that fills); no
//! tracing in the commands that play many games; and, through the library,
//! the same game, operations and runs with tracing on and off, and the
//! trace and hook budget of the load options kept by the rules made from a
//! ruleset.

use towerlab::play::bots::BotKind;
use towerlab::play::{log, sim};
use towerlab::rules::setting;
use towerlab::rules::trace::{Trace, TraceEntry, TracedCall};
use towerlab::rules::{Home, LoadOptions, Params, Ruleset};

use crate::common::{TowerPack, probe_pack, refused, run, stdout, succeeds, temp_dir};

/// The calls and the notes `trace` holds, each in order.
fn calls_and_notes(trace: &Trace) -> (Vec<TracedCall>, Vec<String>) {
    let (mut calls, mut notes) = (Vec::new(), Vec::new());
    for entry in trace.take().entries {
        match entry {
            TraceEntry::Call(call) => calls.push(call),
            TraceEntry::Note(note) => notes.push(note),
        }
    }
    (calls, notes)
}

/// The lines of the first call in `trace` whose heading contains `heading`.
fn first_call<'a>(trace: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = trace.lines().skip_while(|l| !l.contains(heading));
    let head = lines
        .next()
        .unwrap_or_else(|| panic!("no `{heading}` in:\n{trace}"));
    std::iter::once(head)
        .chain(lines.take_while(|l| l.starts_with("   ")))
        .collect()
}

#[test]
fn play_traces_a_hook_call_its_arguments_reads_debug_lines_and_answer() {
    let TowerPack { dir, path: probe } = probe_pack(
        "fn may_place_floor(tower, kind) {\n\
             debug(\"height\", tower.height, kind);\n\
             previous(tower, kind)\n\
         }\n",
    );
    let packs = format!("tower,{probe}");
    let trace = dir.path().join("trace.txt");
    let (log_a, log_b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    let play = |extra: &[&str]| {
        let base = ["play", "--packs", &packs, "--seed", "4", "--bots", "greedy"];
        stdout(&succeeds(&[&base[..], extra].concat()))
    };
    let traced = play(&[
        "--trace",
        &trace.display().to_string(),
        "--log",
        &log_a.display().to_string(),
    ]);
    let plain = play(&["--log", &log_b.display().to_string()]);
    assert_eq!(traced, plain, "tracing changes no game");
    assert_eq!(
        std::fs::read_to_string(&log_a).unwrap(),
        std::fs::read_to_string(&log_b).unwrap()
    );
    let text = std::fs::read_to_string(&trace).unwrap();
    let call = first_call(
        &text,
        &format!("may_place_floor, answered by pack `{probe}`"),
    );
    let script = format!("{probe}/probe.rhai");
    for line in [
        "   tower: Tower { height: 0, floors: [], has_meeple: false, x: 0, y: 1, meeple_owner: () }",
        "   kind: \"regular\"",
        "   read tower.height = 0",
        &format!("   debug {script}:2: height 0 regular"),
        "   answer true",
    ] {
        assert!(call.contains(&line), "`{line}` is not in {call:#?}");
    }
    let kept = first_call(&text, "may_place_floor, answered by pack");
    assert!(!kept[0].contains("kept"), "the first is worked out");
    assert!(
        text.lines()
            .any(|l| l.contains("may_place_floor") && l.contains(": kept (the memo's answer")),
        "answers from the memo are traced as kept"
    );
    assert!(
        !text.contains("more calls not shown"),
        "one game fits in a trace"
    );
}

#[test]
fn a_pack_that_debugs_in_a_loop_ends_at_the_operation_limit_with_a_bounded_trace() {
    let TowerPack { dir, path: probe } = probe_pack(
        "fn may_place_floor(tower, kind) {\n    loop { debug(\"again and again\"); }\n}\n",
    );
    let trace = dir.path().join("trace.txt");
    let out = run(&[
        "play",
        "--packs",
        &format!("tower,{probe}"),
        "--trace",
        &trace.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2), "a hook's error is bad input");
    let text = std::fs::read_to_string(&trace).unwrap();
    assert!(text.len() < 10_000, "{} bytes", text.len());
    let call = first_call(&text, "may_place_floor, answered by pack");
    let debug_lines = call
        .iter()
        .filter(|l| l.contains("again and again"))
        .count();
    assert_eq!(debug_lines, 20, "{call:#?}");
    assert!(
        call.iter()
            .any(|l| l.contains("more debug lines not kept (at most 20 a call)")),
        "{call:#?}"
    );
    let error = call.last().unwrap();
    assert!(
        error.starts_with("   error ") && error.contains("Too many operations"),
        "{error}"
    );
}

#[test]
fn a_trace_that_fills_says_how_many_calls_it_left_out() {
    let long = "x".repeat(400);
    let TowerPack { dir, path: probe } = probe_pack(&format!(
        "fn may_place_floor(tower, kind) {{\n    for i in 0..50 {{ debug(i, \"{long}\"); }}\n    previous(tower, kind)\n}}\n"
    ));
    let trace = dir.path().join("trace.txt");
    succeeds(&[
        "check",
        &format!("tower,{probe}"),
        "--games",
        "60",
        "--trace",
        &trace.display().to_string(),
    ]);
    let text = std::fs::read_to_string(&trace).unwrap();
    // The bound, and the heading and the last line.
    assert!(text.len() < (2 << 20) + 1024, "{} bytes", text.len());
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("… ")
            && last.ends_with("more calls not shown (a trace holds at most 2 MB)"),
        "{last}"
    );
    assert!(text.contains("\n== test game 0 (2 players, seed "));
    // Each text is cut to 200 characters.
    assert!(text.lines().all(|l| l.chars().count() < 300));
}

#[test]
fn test_traces_each_scenario_s_calls_under_its_name() {
    let dir = temp_dir("trace-test");
    let trace = dir.path().join("trace.txt");
    succeeds(&[
        "test",
        "./docs/examples/leader-ransom",
        "--trace",
        &trace.display().to_string(),
    ]);
    let text = std::fs::read_to_string(&trace).unwrap();
    assert!(text.contains("\n== scenario `"), "{text}");
    assert!(text.contains("ransom, answered by pack `./docs/examples/leader-ransom`"));
}

#[test]
fn only_play_check_and_test_trace() {
    for command in ["simulate", "compare", "arena"] {
        let err = refused(&[command, "--trace", "t.txt"]);
        assert!(err.contains("--trace"), "{command}: {err}");
    }
    let dir = temp_dir("trace-clobber");
    let log = dir.path().join("game.jsonl").display().to_string();
    let err = refused(&["play", "--log", &log, "--trace", &log]);
    assert!(err.contains("--trace"), "{err}");
}

/// A game (seed 5, greedy against random) under The Tower and the pack at
/// `probe`, traced into `trace` when given: its log, what its hooks spent,
/// and the pack functions run.
fn a_game(probe: &str, trace: Option<Trace>) -> (String, u64, u64) {
    let load = match trace {
        Some(t) => LoadOptions::default().with_trace(t),
        None => LoadOptions::default(),
    };
    let set = Ruleset::from_packs(
        &crate::common::home(),
        &load,
        &["tower".to_string(), probe.to_string()],
    )
    .unwrap();
    let rules = set.script_rules().expect("packs");
    let bots = [BotKind::GREEDY, BotKind::RANDOM];
    let game = sim::play(&set, &rules, &bots, 5, true).unwrap();
    let log = log::game_log(&set, 0, 5, &game).unwrap();
    (log, rules.operations_spent(), rules.hook_runs())
}

#[test]
fn tracing_changes_no_answer_no_operation_and_no_budget() {
    let TowerPack {
        dir: _d,
        path: probe,
    } = probe_pack(
        "fn may_place_floor(tower, kind) { debug(\"asked\", tower, kind); previous(tower, kind) }\n\
         fn may_capture(tower, meeple, board) { debug(meeple); meeple.on != \"road\" }\n\
         fn range(tower, reach) { let r = previous(tower, reach); debug(r.len()); r }\n",
    );
    let trace = Trace::new();
    let traced = a_game(&probe, Some(trace.clone()));
    let plain = a_game(&probe, None);
    assert!(traced.0 == plain.0, "the same game, event by event");
    assert_eq!(
        (traced.1, traced.2),
        (plain.1, plain.2),
        "the same operations and pack functions run"
    );
    let (calls, _) = calls_and_notes(&trace);
    assert!(
        calls.iter().any(|c| c.kept),
        "answers from the memo are traced"
    );
    let worked_out = calls.iter().filter(|c| !c.kept).count() as u64;
    assert!(
        worked_out > 0 && worked_out <= traced.2,
        "each run traced once"
    );
    let capture = calls
        .iter()
        .find(|c| c.hook == "may_capture" && !c.kept)
        .expect("a capture was asked about");
    assert_eq!(capture.debug.len(), 1);
    assert!(capture.debug[0].text.starts_with("Meeple { owner: "));
    assert_eq!(capture.debug[0].line, 2);
    assert_eq!(capture.reads[0].0, "meeple.on");
}

/// The hook budget and trace of the load options reach the scripts, and
/// the rules made from a ruleset with other parameter values keep them.
#[test]
fn rules_made_from_a_ruleset_keep_its_trace_and_hook_budget() {
    let trace = Trace::new();
    let load = LoadOptions::default()
        .with_hook_budget(123_456)
        .with_trace(trace.clone());
    let set = Ruleset::from_variant(&Home::shipped(), &load, "tower").unwrap();
    let values = Params::from([(
        "tower".to_string(),
        [("ransom_cost".to_string(), toml::Value::Integer(2))].into(),
    )]);
    let values = setting::resolve(set.packs(), &setting::settings_of(&values)).unwrap();
    let other = set.with_params(&Home::shipped(), &values).unwrap();
    for (name, rules) in [("loaded", &set), ("with params", &other)] {
        let scripts = rules.scripts().expect("scripted packs");
        assert_eq!(scripts.hook_budget(), 123_456, "{name}");
        scripts.trace().expect(name).note(name);
    }
    let (_, notes) = calls_and_notes(&trace);
    assert_eq!(notes, ["loaded", "with params"]);
    let plain = Ruleset::from_variant(&Home::shipped(), &LoadOptions::default(), "tower").unwrap();
    let scripts = plain.scripts().expect("scripted packs");
    assert_eq!(
        scripts.hook_budget(),
        towerlab::rules::script::limits::GAME_OPERATIONS
    );
    assert!(scripts.trace().is_none(), "untraced by default");
}
