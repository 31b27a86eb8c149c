//! `compare --ladder`: bad levels are refused with exit 2; the JSON keeps
//! every key of `compare` (the strongest level's comparison) and adds the
//! ladder — every level's comparison, each difference across the levels
//! with its flag, the skill gaps with their intervals — the same on one
//! thread and two; the table and the HTML report show the ladder.

use serde_json::Value;

use crate::common::{json, refused, stdout, succeeds, temp_dir, without_timing};

#[test]
fn a_ladder_refuses_bad_levels() {
    let base = ["compare", "tower", "black-tower", "--games", "2"];
    let cases: &[(&str, &str)] = &[
        ("greedy", "at least two levels"),
        ("random,wizard", "unknown bot `wizard`"),
        ("random,mcts:0", "budget of 0"),
        ("random,mcts:abc", "whole number"),
        ("greedy,greedy", "twice"),
        ("random,", "empty bot name"),
    ];
    for (levels, message) in cases {
        let mut args = base.to_vec();
        args.extend(["--ladder", levels]);
        let err = refused(&args);
        assert!(err.contains(message), "{levels}: {err}");
    }
    let mut args = base.to_vec();
    args.extend(["--ladder", "random,greedy", "--bots", "greedy"]);
    let err = refused(&args);
    assert!(err.contains("cannot be used with"), "{err}");
}

fn ladder_json(threads: &str) -> Value {
    json(&[
        "compare",
        "tower",
        "black-tower",
        "--ladder",
        "random,greedy,mcts:2",
        "--games",
        "6",
        "--seed",
        "4",
        "--threads",
        threads,
        "--format",
        "json",
    ])
}

#[test]
fn ladder_json_keeps_compare_keys_and_adds_the_ladder() {
    let v = ladder_json("1");
    for key in [
        "variants",
        "packs",
        "games",
        "players",
        "bots",
        "seed",
        "threads",
        "seconds",
        "games_per_sec",
        "metrics",
    ] {
        assert!(v.get(key).is_some(), "no `{key}`");
    }
    assert_eq!(v["bots"], serde_json::json!(["mcts:2", "mcts:2"]));
    let l = &v["ladder"];
    assert_eq!(
        l["levels"],
        serde_json::json!(["random", "greedy", "mcts:2"])
    );
    let runs = l["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    assert_eq!(runs[0]["bots"], serde_json::json!(["random", "random"]));
    assert_eq!(runs[2]["metrics"], v["metrics"], "the top is the strongest");
    let across = l["across"].as_array().unwrap();
    assert_eq!(across.len(), v["metrics"].as_array().unwrap().len());
    for a in across {
        assert_eq!(a["variant"], "black-tower");
        let diffs = a["diffs"].as_array().unwrap();
        assert_eq!(diffs.len(), 3);
        let up = diffs
            .iter()
            .any(|d| d["survives"] == true && d["mean"].as_f64() > Some(0.0));
        let down = diffs
            .iter()
            .any(|d| d["survives"] == true && d["mean"].as_f64() < Some(0.0));
        assert_eq!(a["depends_on_skill"], up && down, "{a}");
    }
    let gaps = l["skill_gaps"].as_array().unwrap();
    assert_eq!(gaps.len(), 4, "two variants, two steps");
    assert_eq!(gaps[0]["stronger"], "greedy");
    assert_eq!(gaps[0]["weaker"], "random");
    assert_eq!(gaps[1]["stronger"], "mcts:2");
    for g in gaps {
        let share = g["win_share"].as_f64().unwrap();
        let ci = g["ci"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() <= share && share <= ci[1].as_f64().unwrap());
        assert_eq!(g["games"], 6);
    }
    assert_eq!(
        without_timing(v),
        without_timing(ladder_json("2")),
        "the thread count changes nothing"
    );
}

#[test]
fn ladder_table_and_report_show_the_levels_and_the_skill_gap() {
    let dir = temp_dir("ladder-html");
    let page = dir.path().join("ladder.html");
    let out = succeeds(&[
        "compare",
        "tower",
        "tower-no-gaps",
        "--ladder",
        "random,greedy",
        "--games",
        "8",
        "--html",
        page.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("== level random: every seat random =="),
        "{text}"
    );
    assert!(
        text.contains("== across the ladder (random < greedy) =="),
        "{text}"
    );
    assert!(text.contains("depends on skill"), "{text}");
    assert!(text.contains("greedy vs random"), "{text}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"skill\""));
    assert!(html.contains("Difference in captures by level"));
    assert!(html.contains("Skill gap"));
    let csv = stdout(&succeeds(&[
        "compare",
        "tower",
        "tower-no-gaps",
        "--ladder",
        "random,greedy",
        "--games",
        "4",
        "--format",
        "csv",
    ]));
    let mut lines = csv.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("level,metric,variant,mean")
    );
    assert!(lines.any(|l| l.starts_with("greedy,captures,tower-no-gaps,")));
}
