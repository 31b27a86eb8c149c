//! `towerlab arena` through the real binary: bad input is refused with exit
//! 2 and a clear message; the JSON has every bot's win share with its
//! interval, shares that add up to one, the total games played, and the same
//! numbers on one thread and on two.

use serde_json::Value;

use crate::common::{json, refused, stdout, succeeds};

#[test]
fn arena_refuses_bad_input() {
    let cases: &[(&[&str], &str)] = &[
        (&["arena", "greedy"], "at least two bots"),
        (&["arena", "greedy", "grredy"], "unknown bot `grredy`"),
        (&["arena", "mcts:0", "greedy"], "budget of 0"),
        (&["arena", "mcts:abc", "greedy"], "whole number"),
        (&["arena", "mcts:-3", "greedy"], "whole number"),
        (
            &["arena", "mcts:99999999999", "greedy"],
            "at most 4294967295",
        ),
        (&["arena", "greedy:5", "random"], "takes no budget"),
        (
            &["arena", "greedy", "random", "mcts", "--players", "2"],
            "at least 3 players",
        ),
        (&["arena", "greedy", "random", "--variant", "towr"], "towr"),
    ];
    for (args, message) in cases {
        let err = refused(args);
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let err = refused(&["simulate", "--bots", "mcts:abc", "--games", "1"]);
    assert!(err.contains("whole number"), "{err}");
}

fn arena_json(threads: &str) -> Value {
    json(&[
        "arena",
        "greedy",
        "random",
        "--variant",
        "black-tower",
        "--games",
        "11",
        "--seed",
        "3",
        "--threads",
        threads,
        "--format",
        "json",
    ])
}

#[test]
fn arena_json_reports_every_bot_and_the_games_played() {
    let v = arena_json("1");
    assert_eq!(v["bots"], serde_json::json!(["greedy", "random"]));
    // 11 games asked: 6 deals, each in both seatings.
    assert_eq!(v["games"], 12);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    let mut total = 0.0;
    for r in results {
        let share = r["win_share"].as_f64().unwrap();
        let ci = r["ci"].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(lo <= share && share <= hi && lo >= 0.0 && hi <= 1.0, "{r}");
        assert!(r["mean_score"].as_f64().unwrap() > 0.0, "{r}");
        total += share;
    }
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    assert!(
        results[0]["win_share"].as_f64().unwrap() > 0.5,
        "greedy beats random"
    );
    assert_eq!(
        results[0]["mean_margin"].as_f64().unwrap(),
        -results[1]["mean_margin"].as_f64().unwrap()
    );
    assert_eq!(v["seats"].as_array().unwrap().len(), 2);
    assert_eq!(v, arena_json("2"), "the thread count changes nothing");
}

#[test]
fn arena_text_names_the_bots_and_the_seat_effect() {
    let out = succeeds(&[
        "arena",
        "mcts:4",
        "greedy",
        "--players",
        "3",
        "--games",
        "3",
    ]);
    let text = stdout(&out);
    assert!(text.contains("3 players, 3 games"), "{text}");
    assert!(text.contains("mcts:4"), "{text}");
    assert!(text.contains("seat effect"), "{text}");
    let greedy = text.lines().find(|l| l.starts_with("greedy")).unwrap();
    assert!(
        greedy.split_whitespace().nth(1) == Some("2"),
        "two greedy seats: {text}"
    );
}

/// The `mcts` bot's games, too, are the same on one thread and on two.
#[test]
fn arena_with_mcts_is_the_same_on_one_and_two_threads() {
    let run = |threads: &str| {
        stdout(&succeeds(&[
            "arena",
            "mcts:3",
            "greedy",
            "--games",
            "4",
            "--seed",
            "9",
            "--threads",
            threads,
            "--format",
            "json",
        ]))
    };
    let one = run("1");
    assert!(one.contains("\"mcts:3\""), "{one}");
    assert_eq!(one, run("2"));
}
