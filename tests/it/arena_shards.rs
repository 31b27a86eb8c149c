//! An arena cut into shards (`arena --shard K/N --format partial`) and
//! merged: the merge prints what one arena prints, and bad shards, mixed
//! runs and outputs an arena has not are refused with the reason.

use serde_json::Value;

use crate::common::{Scratch, refused, stdout, succeeds, words};
use crate::shards::{merge, shards, without_speed};

#[test]
fn merged_arena_shards_print_what_one_arena_prints_for_1_2_3_and_7_shards() {
    let dir = Scratch::new("arena-exact");
    for line in [
        "arena random greedy --variant tower --games 14 --seed 5 --threads 1",
        // Three seats for two bots (the last fills the rest), and a deal's
        // seatings cut across shards (12 games of 3 seatings in 7 shards).
        "arena greedy random --variant black-tower --players 3 --games 12 --seed 2",
    ] {
        let mut json_args = words(line);
        json_args.extend(["--format", "json"]);
        let one = stdout(&succeeds(&json_args));
        let one_text = stdout(&succeeds(&words(line)));
        for n in [1, 2, 3, 7] {
            let parts = shards(line, n, &dir);
            // The arena's JSON holds no timing: byte for byte.
            assert_eq!(merge(&parts, "json"), one, "{line}, {n} shards");
            assert_eq!(
                without_speed(&merge(&parts, "text")),
                without_speed(&one_text),
                "{line}, {n} shards"
            );
        }
    }
}

#[test]
fn an_arena_partial_holds_each_games_seat_scores() {
    // 5 games asked of 2 seats: 3 whole deals, 6 games.
    let out = succeeds(&words(
        "arena random greedy --games 5 --seed 4 --format partial",
    ));
    let p: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(p["run"]["command"], "arena");
    assert_eq!(p["run"]["games"], 6);
    assert_eq!(p["run"]["players"], 2);
    assert_eq!(p["run"]["bots"], serde_json::json!(["random", "greedy"]));
    let scores = p["seat_scores"].as_array().unwrap();
    assert_eq!(scores.len(), 6);
    assert!(scores.iter().all(|g| g.as_array().unwrap().len() == 2));
    // About 10 bytes a game.
    assert!(
        out.stdout.len() < 6 * 14 + 500,
        "{} bytes",
        out.stdout.len()
    );
}

#[test]
fn bad_arena_shards_and_mixed_runs_are_refused_with_the_reason() {
    let dir = Scratch::new("arena-bad");
    let line = "arena random greedy --games 8 --seed 1";
    let parts = shards(line, 2, &dir);
    for (other, field) in [
        ("arena greedy random --games 8 --seed 1", "bots"),
        (
            "arena random greedy --games 8 --seed 1 --players 4",
            "players `4`, not `2`",
        ),
        (
            "arena random greedy --games 10 --seed 1",
            "games `10`, not `8`",
        ),
        (
            "arena random greedy --games 8 --seed 1 --variant black-tower",
            "variants",
        ),
        ("simulate --games 8 --seed 1", "command"),
    ] {
        let theirs = shards(other, 2, &dir);
        let msg = refused(&["merge", &parts[0], &theirs[1]]);
        assert!(
            msg.contains("is from another run") && msg.contains(field),
            "{other}: {msg}"
        );
    }
    let path = dir.file("bad.json");
    let msg = refused(&["merge", &parts[0]]);
    assert!(msg.contains("missing shard 1 of 2"), "{msg}");
    for (args, expected) in [
        (
            "--format csv",
            "--format csv: an arena's merge prints text or JSON",
        ),
        ("--format html", "--format html"),
        ("--html x.html", "--html"),
        ("--per-game x.csv", "--per-game"),
    ] {
        let mut all = vec!["merge", &parts[0], &parts[1]];
        all.extend(words(args));
        let msg = refused(&all);
        assert!(msg.contains(expected), "{args}: {msg}");
    }
    // A shard's seat scores that do not fit its seats or its range.
    let mut bad: Value =
        serde_json::from_str(&std::fs::read_to_string(&parts[1]).unwrap()).unwrap();
    bad["seat_scores"][0].as_array_mut().unwrap().push(3.into());
    std::fs::write(&path, bad.to_string()).unwrap();
    let msg = refused(&["merge", &parts[0], &path]);
    assert!(msg.contains("has 3 seat scores, not 2"), "{msg}");
    bad["seat_scores"].as_array_mut().unwrap().pop();
    std::fs::write(&path, bad.to_string()).unwrap();
    let msg = refused(&["merge", &parts[0], &path]);
    assert!(msg.contains("games where the shard has 4"), "{msg}");
    // A simulate shard relabelled as an arena's.
    let sim = shards("simulate --games 8 --seed 1", 1, &dir);
    let mut relabelled: Value =
        serde_json::from_str(&std::fs::read_to_string(&sim[0]).unwrap()).unwrap();
    relabelled["run"]["command"] = "arena".into();
    std::fs::write(&path, relabelled.to_string()).unwrap();
    let msg = refused(&["merge", &path]);
    assert!(msg.contains("only seat scores"), "{msg}");
}

#[test]
fn bad_arena_shard_arguments_are_refused_with_the_reason() {
    for (args, expected) in [
        // 7 games asked of 2 seats: 8 games, shards 0 to 7 at most.
        (
            "arena random greedy --games 7 --shard 0/9 --format partial",
            "more shards than games (8)",
        ),
        (
            "arena random greedy --games 8 --shard 2/2 --format partial",
            "K counts from 0 to N-1 = 1",
        ),
        (
            "arena random greedy --games 8 --shard 0/2",
            "add --format partial",
        ),
        (
            "arena random greedy --games 8 --shard x/2 --format partial",
            "K is not a whole number",
        ),
    ] {
        let msg = refused(&words(args));
        assert!(msg.contains(expected), "{args}: {msg}");
    }
}
