//! Random input for the pack host and the parsers: random valid hook bodies
//! (loops, recursion, anonymous functions, big literals, every hook, every
//! return type) never panic, abort or hang, and give the same answer on 1
//! and 2 threads; mangled tile, pack, variant, board and log files are
//! refused or read, never a panic. The parser runs have large case counts
//! and are ignored by default: `cargo test --test it fuzz -- --ignored`
//! (`PROPTEST_CASES` sets how many).

use std::path::Path;

use proptest::prelude::*;
use towerlab::kernel::diag::Source;
use towerlab::kernel::tiles::TileSet;
use towerlab::play::bots::BotKind;
use towerlab::play::query::BoardMap;
use towerlab::play::sim::{Batch, simulate};
use towerlab::rules::{Home, LoadOptions, Ruleset};

use crate::common::rules_dir;

/// Statements a hook body is made of: each valid Rhai, some of them
/// runaways that the sandbox must stop.
const STATEMENTS: &[&str] = &[
    "let s = 0; for i in 0..50 { s += i; }",
    "let s = 0; loop { s += 1; }",
    "let s = 0; while s < 1000 { s += 1; }",
    "let a = []; a.pad(500, 0);",
    "let a = []; for i in 0..20000 { a.push(i); }",
    "let t = \"x\"; for i in 0..20 { t += t; }",
    "let big = 9223372036854775807;",
    "let big = 9223372036854775807; big += 1;",
    "let f = |x| x * 2; let y = f.call(21);",
    "let f = Fn(\"helper\"); let y = f.call(3);",
    "let y = helper(10);",
    "let y = helper(1000);",
    "let m = #{}; for i in 0..2000 { m[`k${i}`] = i; }",
    "let d = 1 / 0;",
    "let q = [1, 2, 3]; let z = q[7];",
    "try { throw \"caught\"; } catch (e) { }",
    "throw \"thrown on purpose\";",
];

/// What a hook gives back: some of the type each hook wants, some not.
const ANSWERS: &[&str] = &[
    "true",
    "false",
    "0",
    "2",
    "-1",
    "9223372036854775807",
    "()",
    "\"north\"",
    "[[0, 1], [1, 0]]",
    "[[100, 100]]",
    "[1, 2]",
    "#{ regular: 5 }",
    "#{ regular: 100000 }",
    "#{ blue: 1 }",
    "previous_answer",
];

const HOOKS: &[(&str, &str, &str)] = &[
    (
        "setup",
        "players, foundations",
        "previous(players, foundations)",
    ),
    ("may_place_floor", "tower, kind", "previous(tower, kind)"),
    ("may_top", "tower", "previous(tower)"),
    ("reach", "tower", "previous(tower)"),
    ("range", "tower, reach", "previous(tower, reach)"),
    (
        "may_capture",
        "tower, meeple, board",
        "previous(tower, meeple, board)",
    ),
    ("ransom", "score, paid", "previous(score, paid)"),
    (
        "feature_points",
        "feature, points",
        "previous(feature, points)",
    ),
    ("meeple_strength", "meeple", "previous(meeple)"),
];

/// A script defining one hook from the chosen statements and answer, with a
/// recursive helper it may call.
fn script(hook: usize, statements: &[usize], answer: usize) -> String {
    let (name, params, previous) = HOOKS[hook];
    let body: Vec<&str> = statements.iter().map(|&i| STATEMENTS[i]).collect();
    let answer = match ANSWERS[answer] {
        "previous_answer" => previous,
        other => other,
    };
    format!(
        "fn helper(n) {{ if n <= 0 {{ 0 }} else {{ helper(n - 1) + 1 }} }}\n\
         fn {name}({params}) {{\n    {}\n    {answer}\n}}\n",
        body.join("\n    ")
    )
}

/// The outcome of a few games of `tower` and the pack in `dir`, on
/// `threads` threads: the results, or the error's text.
fn outcome(dir: &Path, threads: usize) -> Result<String, String> {
    let home = Home::shipped();
    let packs = ["tower".to_string(), dir.display().to_string()];
    let set = Ruleset::from_packs(&home, &LoadOptions::default(), &packs)
        .map_err(|e| format!("{e:#}"))?;
    let bots = [BotKind::GREEDY, BotKind::RANDOM];
    let batch = Batch {
        set: &set,
        bots: &bots,
        games: 4,
        master_seed: 11,
        threads,
        log: false,
    };
    simulate(&batch, &|_| {}, |_| Ok(()))
        .map(|r| format!("{r:?}"))
        .map_err(|e| format!("{e:#}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_hook_bodies_end_cleanly_and_agree_on_one_and_two_threads(
        hook in 0..HOOKS.len(),
        statements in prop::collection::vec(0..STATEMENTS.len(), 0..4),
        answer in 0..ANSWERS.len(),
    ) {
        let dir = tempfile::tempdir().expect("a folder");
        std::fs::write(dir.path().join("pack.toml"), "[pack]\nname = \"random\"\nscript = \"random.rhai\"\n").expect("pack.toml");
        let text = script(hook, &statements, answer);
        std::fs::write(dir.path().join("random.rhai"), &text).expect("script");
        let one = outcome(dir.path(), 1);
        let two = outcome(dir.path(), 2);
        prop_assert_eq!(&one, &two, "script:\n{}", text);
    }
}

/// A log of two games under Black Tower, written once.
fn sample_log() -> &'static str {
    static LOG: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    LOG.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("run.jsonl");
        crate::common::succeeds(&[
            "simulate",
            "--packs",
            "tower,black-tower",
            "--games",
            "2",
            "--log",
            &path.display().to_string(),
        ]);
        std::fs::read_to_string(&path).expect("the log")
    })
}

/// Edits that mangle a text: a byte or a token inserted, replaced or cut.
pub fn mangle(text: &str, edits: &[(usize, usize, u8)]) -> String {
    const TOKENS: &[&str] = &[
        "4000000000",
        "-1",
        "0",
        "\"",
        "[",
        "]",
        "{",
        "}",
        "=",
        "\n",
        "#",
        "T",
        ".",
        "..",
        "/",
        "\u{FEFF}",
        "é",
        "[[tile]]",
        "count = 99999",
        "x",
        "null",
        ":",
        ",",
        "18446744073709551616",
        "1e400",
    ];
    let mut bytes = text.as_bytes().to_vec();
    for &(at, token, how) in edits {
        let at = if bytes.is_empty() {
            0
        } else {
            at % bytes.len()
        };
        let t = TOKENS[token % TOKENS.len()].as_bytes();
        match how % 3 {
            0 => {
                bytes.splice(at..at, t.iter().copied());
            }
            1 => {
                let end = (at + t.len()).min(bytes.len());
                bytes.splice(at..end, t.iter().copied());
            }
            _ => {
                let end = (at + 1 + token % 40).min(bytes.len());
                bytes.drain(at..end);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn edits() -> impl Strategy<Value = Vec<(usize, usize, u8)>> {
    prop::collection::vec((any::<usize>(), any::<usize>(), any::<u8>()), 1..8)
}

/// 20,000 cases a fuzzer, or as many as `PROPTEST_CASES` says (an explicit
/// `cases` would otherwise hide the variable).
fn fuzz_config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(fuzz_config())]

    #[test]
    #[ignore = "a fuzzer: run with --ignored"]
    fn fuzz_tile_files(edits in edits()) {
        let shipped = std::fs::read_to_string(rules_dir().join("tower/tiles.toml")).expect("tiles");
        let base = std::fs::read_to_string(rules_dir().join("base/tiles.toml")).expect("tiles");
        let text = mangle(&shipped, &edits);
        let _ = TileSet::from_sources(&[Source::new("base.toml", base), Source::new("t.toml", text)]);
    }

    #[test]
    #[ignore = "a fuzzer: run with --ignored"]
    fn fuzz_pack_manifests(edits in edits()) {
        let shipped = std::fs::read_to_string(rules_dir().join("black-tower/pack.toml")).expect("pack");
        let dir = tempfile::tempdir().expect("a folder");
        std::fs::write(dir.path().join("pack.toml"), mangle(&shipped, &edits)).expect("pack.toml");
        std::fs::copy(rules_dir().join("black-tower/black-tower.rhai"), dir.path().join("black-tower.rhai")).expect("script");
        let packs = ["tower".to_string(), dir.path().display().to_string()];
        let _ = Ruleset::from_packs(&Home::shipped(), &LoadOptions::default(), &packs);
    }

    #[test]
    #[ignore = "a fuzzer: run with --ignored"]
    fn fuzz_variant_files(edits in edits()) {
        let shipped = std::fs::read_to_string(crate::common::variants_dir().join("black-tower-no-gaps.toml")).expect("variant");
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("v.toml");
        std::fs::write(&path, mangle(&shipped, &edits)).expect("variant");
        let _ = Ruleset::from_variant(&Home::shipped(), &LoadOptions::default(), &path.display().to_string());
    }

    #[test]
    #[ignore = "a fuzzer: run with --ignored"]
    fn fuzz_board_files(text in "[#.T \n\r\t\u{FEFF}é]{0,400}") {
        let _ = BoardMap::parse(&Source::new("board.txt", text));
    }

    #[test]
    #[ignore = "a fuzzer: run with --ignored"]
    fn fuzz_logs(edits in edits()) {
        let log = sample_log();
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("game.jsonl");
        std::fs::write(&path, mangle(log, &edits)).expect("log");
        let _ = towerlab::play::replay::replay(&Home::shipped(), &LoadOptions::default(), &path);
    }
}

proptest! {
    #![proptest_config(fuzz_config())]

    #[test]
    #[ignore = "a fuzzer: run with --ignored"]
    fn fuzz_scenario_files(edits in edits()) {
        let shipped = std::fs::read_to_string(rules_dir().join("tower/tests/capture.toml")).expect("scenarios");
        let text = mangle(&shipped, &edits);
        let _ = towerlab::play::scenario::suite(&Home::shipped(), &LoadOptions::default(), "tower", &[Source::new("s.toml", text)]);
    }
}
