//! `towerlab check --cost`: what each pack hook costs a game. Its figures
//! move the way the runs do (a hook that loops more costs more a run, one
//! whose answers the memo keeps runs less), are the same on every run,
//! and bad input is refused; and, ignored unless asked for (it runs
//! valgrind on a release build: `benches/cost.sh`), the figures are within
//! 10% of callgrind's count of the same games.

use serde_json::Value;

use crate::common::{TowerPack, json, refused, run, stdout};

/// The arguments of `check PACKS --cost` with `random` and `greedy` games.
fn cost_args<'a>(packs: &'a str, random: &'a str, greedy: &'a str) -> Vec<&'a str> {
    vec![
        "check",
        packs,
        "--games",
        "0",
        "--cost",
        "--cost-random",
        random,
        "--cost-greedy",
        greedy,
    ]
}

/// `check PACKS --cost` with `random` and `greedy` games, as JSON.
fn cost(packs: &str, random: u64, greedy: u64) -> Value {
    let (random, greedy) = (random.to_string(), greedy.to_string());
    let mut args = cost_args(packs, &random, &greedy);
    args.extend(["--format", "json"]);
    json(&args)
}

/// The row of `pack`'s `hook` with the first kind of bots.
fn row<'a>(report: &'a Value, pack: &str, hook: &str) -> &'a Value {
    report["cost"]["bots"][0]["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["pack"].as_str().unwrap().ends_with(pack) && h["hook"] == hook)
        .unwrap_or_else(|| panic!("no `{pack}`, `{hook}` in {report}"))
}

/// A `may_top` that reads the scores (new at almost every turn, so asked
/// again and again) and loops `steps` times before it answers.
fn looping(name: &str, steps: u32) -> TowerPack {
    TowerPack::new(
        name,
        &format!(
            "fn may_top(tower) {{\n  let s = game().scores;\n  let n = 0;\n  \
             for i in 0..{steps} {{ n += i; }}\n  previous(tower)\n}}\n"
        ),
    )
}

#[test]
fn a_hook_that_loops_more_costs_more_a_run_and_the_same_runs() {
    let (short, long) = (looping("short", 2), looping("long", 40));
    let short_report = cost(&short.packs(), 6, 0);
    let long_report = cost(&long.packs(), 6, 0);
    let (s, l) = (
        row(&short_report, "short", "may_top"),
        row(&long_report, "long", "may_top"),
    );
    assert!(s["runs"].as_u64().unwrap() > 0, "{short_report}");
    assert_eq!(
        s["runs"], l["runs"],
        "the same games ask the same questions"
    );
    let a_run = |r: &Value| r["instructions_a_run"].as_u64().unwrap();
    assert!(a_run(l) > a_run(s) * 3, "{s} against {l}");
    let share = |r: &Value| r["share"].as_f64().unwrap();
    assert!(share(l) > share(s));
    assert_eq!(long_report["cost"]["against"], "native:tower");
}

#[test]
fn a_hook_the_memo_keeps_runs_fewer_times() {
    // The same answer; one reads only the stack, the other every score.
    let kept = TowerPack::new("kept", "fn may_top(tower) { tower.height < 9 }\n");
    let asked = TowerPack::new(
        "asked",
        "fn may_top(tower) { let s = game().scores; tower.height < 9 }\n",
    );
    let runs = |p: &TowerPack, name: &str| {
        let report = cost(&p.packs(), 6, 0);
        row(&report, name, "may_top")["runs"].as_u64().unwrap()
    };
    let (kept_runs, asked_runs) = (runs(&kept, "kept"), runs(&asked, "asked"));
    assert!(kept_runs > 0);
    assert!(
        kept_runs * 3 < asked_runs,
        "kept {kept_runs}, asked again {asked_runs}"
    );
}

#[test]
fn the_figures_are_the_same_on_every_run_and_name_the_bulk() {
    let packs = "tower,./docs/examples/bell";
    let first = cost(packs, 5, 1);
    assert_eq!(first, cost(packs, 5, 1), "a count, not a clock");
    let bots = first["cost"]["bots"].as_array().unwrap();
    assert_eq!(bots.len(), 2);
    assert_eq!(
        (bots[0]["bots"].as_str(), bots[1]["bots"].as_str()),
        (Some("random"), Some("greedy"))
    );
    // The Bell's event hook is nearly all of it, and the advice names the
    // cheap forms and the guide's section.
    assert_eq!(first["cost"]["bulk"]["hook"], "on_tile_drawn", "{first}");
    let advice = first["advice"].as_str().unwrap();
    assert!(
        advice.contains("game().in_range") && advice.contains("speed.md#what-a-rules-runs-cost")
    );
    // The text names it too, with the table.
    let text = stdout(&run(&cost_args(packs, "3", "0")));
    assert!(
        text.contains(
            "costliest hook with random bots: pack `./docs/examples/bell`, `on_tile_drawn`"
        ),
        "{text}"
    );
    assert!(text.contains("all hooks"), "{text}");
}

#[test]
fn black_tower_packs_are_measured_against_native_black_tower() {
    let report = cost("tower,black-tower", 2, 0);
    assert_eq!(report["cost"]["against"], "native:black-tower");
}

#[test]
fn bad_input_to_cost_is_refused_clearly() {
    let err = refused(&["check", "native:tower", "--cost"]);
    assert!(
        err.contains("native rules") && err.contains("--cost"),
        "{err}"
    );
    let err = refused(&["check", "tower", "--cost-random", "3"]);
    assert!(err.contains("--cost"), "{err}");
    // A pack whose hook fails: its problem, and no cost.
    let broken = TowerPack::new("broken", "fn may_top(tower) { tower.no_such_field }\n");
    let out = run(&[
        "check",
        &broken.packs(),
        "--games",
        "3",
        "--cost",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["ok"], false);
    assert!(report["cost"].is_null(), "{report}");
    assert!(!report["problems"].as_array().unwrap().is_empty());
}

/// Instructions callgrind counts in `towerlab simulate --packs PACKS --bots
/// random,random --games GAMES --threads 1 --seed 5`.
fn callgrind(packs: &str, games: u64) -> u64 {
    let out = std::process::Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(env!("CARGO_BIN_EXE_towerlab"))
        .args([
            "simulate",
            "--packs",
            packs,
            "--bots",
            "random,random",
            "--threads",
            "1",
            "--seed",
            "5",
        ])
        .args(["--games", &games.to_string()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("valgrind runs");
    let text = String::from_utf8_lossy(&out.stderr);
    text.lines()
        .find_map(|l| l.split("Collected : ").nth(1))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no count in valgrind's output:\n{text}"))
}

/// Instructions of every pack hook's runs in a cost report's random games,
/// by its constants.
fn hooks_instructions(report: &Value) -> u64 {
    let c = &report["cost"];
    let n = |v: &Value, k: &str| v[k].as_u64().unwrap();
    c["bots"][0]["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let host = match h["hook"].as_str().unwrap().starts_with("on_") {
                true => n(c, "host_an_event_run"),
                false => n(c, "host_a_question_run"),
            };
            host * n(h, "runs") + n(c, "instructions_an_operation") * n(h, "operations")
        })
        .sum()
}

/// The Bell and the Warden with random bots: a game's instructions as the
/// report counts them (the native game's and every hook run's) within 10%
/// of callgrind's, each a game taken as `benches/instructions.sh` takes it
/// (100 games less one, over 99: loading left out).
#[test]
#[ignore = "runs valgrind on a release build for minutes: benches/cost.sh runs it"]
fn the_figures_are_within_a_tenth_of_callgrinds() {
    if cfg!(debug_assertions) {
        panic!("run with --release: the constants are a release build's");
    }
    if std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("valgrind is not installed: nothing to compare with");
        return;
    }
    const GAMES: u64 = 100;
    for packs in ["tower,./docs/examples/bell", "tower,./docs/examples/warden"] {
        let counted = (callgrind(packs, GAMES) - callgrind(packs, 1)) as f64 / (GAMES - 1) as f64;
        let (all, one) = (cost(packs, GAMES, 0), cost(packs, 1, 0));
        let native = all["cost"]["bots"][0]["native_instructions"]
            .as_u64()
            .unwrap();
        let hooks =
            (hooks_instructions(&all) - hooks_instructions(&one)) as f64 / (GAMES - 1) as f64;
        let reported = native as f64 + hooks;
        let off = reported / counted - 1.0;
        eprintln!(
            "{packs}: reported {reported:.0}, callgrind {counted:.0} a game ({:+.1}%)",
            off * 100.0
        );
        assert!(
            off.abs() <= 0.10,
            "{packs}: reported {reported:.0} a game, callgrind {counted:.0}"
        );
    }
}
