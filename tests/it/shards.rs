//! Shards and their merge through the real binary: a merge prints what one
//! process prints, for any number of shards, and every bad input is refused
//! with its reason.

use serde_json::Value;

use crate::common::{Scratch, refused, stderr, stdout, succeeds, towerlab, words};

/// The `"metrics":[…]` text of a JSON output, exactly as printed (the
/// last field but a sequential run's `stopping`).
pub fn metrics_text(json: &str) -> &str {
    let start = json.find("\"metrics\":").expect("a metrics field");
    let rest = &json[start..];
    let end = [",\"stopping\"", ",\"verdict\""]
        .iter()
        .filter_map(|field| rest.find(field))
        .min()
        .unwrap_or(rest.trim_end().len() - 1);
    &rest[..end]
}

/// Play `line` as `n` shards into `dir`; the partial files.
pub fn shards(line: &str, n: u64, dir: &Scratch) -> Vec<String> {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    (0..n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let mut args = words(line);
            args.extend(["--shard", &shard, "--format", "partial"]);
            let out = succeeds(&args);
            let path = dir.file(&format!("part-{run}-{k}-of-{n}.json"));
            std::fs::write(&path, &out.stdout).expect("the partial is written");
            path
        })
        .collect()
}

pub fn merge(parts: &[String], format: &str) -> String {
    let mut args = vec!["merge", "--format", format];
    // In reverse: the order of the files does not matter.
    args.extend(parts.iter().rev().map(String::as_str));
    stdout(&succeeds(&args))
}

/// Everything but the speed line, which differs run to run.
pub fn without_speed(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.contains("games/s")).collect();
    lines.join("\n")
}

#[test]
fn merged_shards_print_what_one_process_prints_for_1_2_3_and_7_shards() {
    let dir = Scratch::new("exact");
    for line in [
        "compare tower black-tower --games 21 --seed 5 --threads 1",
        "simulate --variant black-tower --games 14 --seed 9 --players 3",
        // The per-floor-kind metrics merge exactly too (JSON: `by_kind`,
        // after `metrics`, inside the compared text).
        "simulate --variant black-tower --games 13 --seed 4 --by-kind",
    ] {
        let mut json_args = words(line);
        json_args.extend(["--format", "json"]);
        let one = stdout(&succeeds(&json_args));
        let mut csv_args = words(line);
        csv_args.extend(["--format", "csv"]);
        let one_csv = stdout(&succeeds(&csv_args));
        let one_text = stdout(&succeeds(&words(line)));
        for n in [1, 2, 3, 7] {
            let parts = shards(line, n, &dir);
            let merged = merge(&parts, "json");
            assert_eq!(
                metrics_text(&merged),
                metrics_text(&one),
                "{line}, {n} shards"
            );
            let (a, b): (Value, Value) = (
                serde_json::from_str(&merged).unwrap(),
                serde_json::from_str(&one).unwrap(),
            );
            assert_eq!(a["games"], b["games"]);
            assert_eq!(a["seed"], b["seed"]);
            assert_eq!(merge(&parts, "csv"), one_csv, "{line}, {n} shards");
            assert_eq!(
                without_speed(&merge(&parts, "text")),
                without_speed(&one_text)
            );
        }
    }
}

#[test]
fn shards_as_separate_processes_take_their_index_from_slurm_or_kubernetes() {
    let dir = Scratch::new("auto");
    let line = "compare tower tower-no-gaps --games 12 --seed 2 --shard auto/4 --format partial";
    let mut parts = Vec::new();
    for k in 0..4 {
        let var = if k % 2 == 0 {
            "SLURM_ARRAY_TASK_ID"
        } else {
            "JOB_COMPLETION_INDEX"
        };
        let out = towerlab()
            .args(words(line))
            .env_remove("TOWERLAB_HOME")
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX")
            .env(var, k.to_string())
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{}", stderr(&out));
        let path = dir.file(&format!("auto-{k}.json"));
        std::fs::write(&path, &out.stdout).unwrap();
        parts.push(path);
    }
    let one = stdout(&succeeds(&words(
        "compare tower tower-no-gaps --games 12 --seed 2 --format json",
    )));
    assert_eq!(metrics_text(&merge(&parts, "json")), metrics_text(&one));
}

#[test]
fn a_partial_is_small_and_says_what_run_it_belongs_to() {
    let out = succeeds(&words("simulate --games 100 --format partial --seed 4"));
    let p: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(p["format"], "towerlab-partial/3");
    assert_eq!(p["run"]["command"], "simulate");
    assert_eq!(p["run"]["shards"], 1);
    assert_eq!(p["rows"][0].as_array().unwrap().len(), 100);
    assert!(p["run"]["content"][0].as_str().unwrap().len() == 16);
    // About 51 bytes a game (20 small numbers for 2 players).
    assert!(
        out.stdout.len() < 100 * 60 + 400,
        "{} bytes",
        out.stdout.len()
    );
    // With --by-kind, about 21 bytes more a game for three floor kinds.
    let kinds = succeeds(&words(
        "simulate --variant black-tower --games 100 --format partial --seed 4 --by-kind",
    ));
    let p: Value = serde_json::from_slice(&kinds.stdout).unwrap();
    assert_eq!(p["kinds"][0]["kinds"].as_array().unwrap().len(), 3);
    assert_eq!(p["kinds"][0]["games"].as_array().unwrap().len(), 100);
    assert!(
        kinds.stdout.len() < 100 * (60 + 25) + 500,
        "{} bytes",
        kinds.stdout.len()
    );
}

#[test]
fn bad_shards_and_mixed_runs_are_refused_with_the_reason() {
    let dir = Scratch::new("bad");
    let line = "simulate --games 10 --seed 1";
    let parts = shards(line, 3, &dir);
    let msg = refused(&["merge", &parts[0], &parts[0], &parts[1], &parts[2]]);
    assert!(msg.contains("shard 0/3 is given twice"), "{msg}");
    let msg = refused(&["merge", &parts[0], &parts[2]]);
    assert!(msg.contains("missing shard 1 of 3"), "{msg}");
    for (other, field) in [
        ("simulate --games 10 --seed 2", "seed `2`, not `1`"),
        ("simulate --games 11 --seed 1", "games `11`, not `10`"),
        (
            "simulate --games 10 --seed 1 --variant black-tower",
            "variants",
        ),
        ("simulate --games 10 --seed 1 --bots greedy,random", "bots"),
        // The same name and packs, but the variant file sets a parameter.
        ("simulate --games 10 --seed 1 --packs tower", "pack content"),
        (
            "simulate --games 10 --seed 1 --packs tower,house/no-gaps",
            "variants",
        ),
        ("compare tower tower --games 10 --seed 1", "command"),
    ] {
        let theirs = shards(other, 3, &dir);
        let msg = refused(&["merge", &parts[0], &parts[1], &theirs[2]]);
        assert!(
            msg.contains("is from another run") && msg.contains(field),
            "{other}: {msg}"
        );
    }
    // The same variant with other pack content.
    let mut changed: Value =
        serde_json::from_str(&std::fs::read_to_string(&parts[2]).unwrap()).unwrap();
    changed["run"]["content"][0] = "0123456789abcdef".into();
    let path = dir.file("changed.json");
    std::fs::write(&path, changed.to_string()).unwrap();
    let msg = refused(&["merge", &parts[0], &parts[1], &path]);
    assert!(msg.contains("pack content"), "{msg}");
    // Rows that do not fit the shard.
    changed["run"]["content"][0] =
        serde_json::from_str::<Value>(&std::fs::read_to_string(&parts[0]).unwrap()).unwrap()["run"]
            ["content"][0]
            .clone();
    changed["rows"][0].as_array_mut().unwrap().pop();
    std::fs::write(&path, changed.to_string()).unwrap();
    let msg = refused(&["merge", &parts[0], &parts[1], &path]);
    assert!(msg.contains("games where the shard has"), "{msg}");
    // A kind of run this merge does not know.
    changed["run"]["command"] = "sweep".into();
    std::fs::write(&path, changed.to_string()).unwrap();
    let msg = refused(&["merge", &parts[0], &parts[1], &path]);
    assert!(
        msg.contains("a partial result of `sweep`, which this towerlab cannot merge"),
        "{msg}"
    );
    // Not a partial at all: file:line:col.
    let junk = dir.file("junk.json");
    std::fs::write(&junk, "{\n  \"format\": 3\n}").unwrap();
    let msg = refused(&["merge", &junk]);
    assert!(
        msg.contains("junk.json:2:") && msg.contains("not a towerlab partial"),
        "{msg}"
    );
    let msg = refused(&["merge", &dir.file("nowhere.json")]);
    assert!(msg.contains("cannot read"), "{msg}");
}

#[test]
fn bad_shard_arguments_are_refused_with_the_reason() {
    for (args, expected) in [
        (
            "simulate --games 10 --shard 3/3 --format partial",
            "K counts from 0 to N-1 = 2",
        ),
        (
            "simulate --games 10 --shard 0/0 --format partial",
            "N of 1 or more",
        ),
        (
            "simulate --games 10 --shard 0/11 --format partial",
            "more shards than games",
        ),
        (
            "simulate --games 10 --shard 1/x --format partial",
            "N is not a whole number",
        ),
        (
            "simulate --games 10 --shard 2 --format partial",
            "expected K/N",
        ),
        ("simulate --games 10 --shard 0/2", "add --format partial"),
        (
            "simulate --games 10 --shard auto/2 --format partial",
            "SLURM_ARRAY_TASK_ID",
        ),
        (
            "compare tower tower --games 10 --shard 0/2 --format partial --precision turns=1",
            "cannot be cut into shards",
        ),
        (
            "compare tower tower --games 10 --shard 0/2 --format partial --html x.html",
            "merge",
        ),
    ] {
        let msg = refused(&words(args));
        assert!(msg.contains(expected), "{args}: {msg}");
    }
    let out = towerlab()
        .args(words("simulate --games 10 --shard auto/2 --format partial"))
        .env_remove("JOB_COMPLETION_INDEX")
        .env("SLURM_ARRAY_TASK_ID", "two")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("$SLURM_ARRAY_TASK_ID is `two`"));
}

#[test]
fn a_merge_writes_the_report_and_the_per_game_rows() {
    let dir = Scratch::new("html");
    let parts = shards("compare tower black-tower --games 6 --seed 3", 2, &dir);
    let html = dir.file("r.html");
    let rows = dir.file("rows.csv");
    let mut args = vec!["merge", "--html", &html, "--per-game", &rows];
    args.extend(parts.iter().map(String::as_str));
    succeeds(&args);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("id=\"replay\"") && page.contains("black-tower"));
    let one = dir.file("one.csv");
    succeeds(&[
        "compare",
        "tower",
        "black-tower",
        "--games",
        "6",
        "--seed",
        "3",
        "--per-game",
        &one,
    ]);
    assert_eq!(
        std::fs::read_to_string(&rows).unwrap(),
        std::fs::read_to_string(&one).unwrap()
    );
}

#[test]
fn by_kind_shards_keep_the_kind_counts_in_the_merge_and_the_per_game_rows() {
    let dir = Scratch::new("kinds");
    let line = "simulate --variant black-tower --games 9 --seed 6 --by-kind";
    let parts = shards(line, 3, &dir);
    let merged: Value = serde_json::from_str(&merge(&parts, "json")).unwrap();
    let by_kind = merged["by_kind"].as_array().expect("a by_kind field");
    assert!(
        by_kind.iter().any(|m| m["name"] == "floors.black"),
        "{merged}"
    );
    // Per-game rows: one process, the merge and each shard's rows agree,
    // with a column per floor-kind metric.
    let one = dir.file("one.csv");
    let mut args = words(line);
    args.extend(["--per-game", &one]);
    succeeds(&args);
    let rows = dir.file("merged.csv");
    let mut args = vec!["merge", "--per-game", &rows];
    args.extend(parts.iter().map(String::as_str));
    succeeds(&args);
    let one = std::fs::read_to_string(&one).unwrap();
    assert_eq!(std::fs::read_to_string(&rows).unwrap(), one);
    let header: Vec<&str> = one.lines().next().unwrap().split(',').collect();
    assert!(header.contains(&"floors.black") && header.contains(&"towers.top.regular"));
    assert_eq!(one.lines().count(), 10);
    let mut args = words(line);
    let shard_rows = dir.file("shard.csv");
    args.extend([
        "--shard",
        "1/3",
        "--format",
        "partial",
        "--per-game",
        &shard_rows,
    ]);
    succeeds(&args);
    let shard_rows = std::fs::read_to_string(&shard_rows).unwrap();
    let (whole, part): (Vec<&str>, Vec<&str>) =
        (one.lines().collect(), shard_rows.lines().collect());
    assert_eq!(part, [&whole[..1], &whole[4..7]].concat());
    // Without --by-kind there are no kind columns, and the runs do not mix.
    let plain = shards("simulate --variant black-tower --games 9 --seed 6", 3, &dir);
    let msg = refused(&["merge", &parts[0], &parts[1], &plain[2]]);
    assert!(msg.contains("--by-kind `false`, not `true`"), "{msg}");
    // Kind counts that do not fit the floor kinds are refused.
    let mut damaged: Value =
        serde_json::from_str(&std::fs::read_to_string(&parts[2]).unwrap()).unwrap();
    damaged["kinds"][0]["games"][1]
        .as_array_mut()
        .unwrap()
        .pop();
    let path = dir.file("damaged.json");
    std::fs::write(&path, damaged.to_string()).unwrap();
    let msg = refused(&["merge", &parts[0], &parts[1], &path]);
    assert!(
        msg.contains("floor-kind counts, not 3 for each of"),
        "{msg}"
    );
    // Counts of other floor kinds than the other shards'.
    let mut renamed: Value =
        serde_json::from_str(&std::fs::read_to_string(&parts[2]).unwrap()).unwrap();
    renamed["kinds"][0]["kinds"][1] = "red".into();
    std::fs::write(&path, renamed.to_string()).unwrap();
    let msg = refused(&["merge", &parts[0], &parts[1], &path]);
    assert!(
        msg.contains("counts the floor kinds regular,red,white"),
        "{msg}"
    );
}

/// A simulate run's parts have one variant: a baseline or a table width
/// for them is refused, not ignored.
#[test]
fn merging_a_simulate_run_refuses_what_only_a_comparison_has() {
    let dir = crate::common::temp_dir("merge-simulate-flags");
    let [p0, p1] = crate::inputs_bounded::shards(dir.path());
    for (flag, value) in [("--baseline", "tower"), ("--width", "80")] {
        let err = crate::common::refused(&["merge", &p0, &p1, flag, value]);
        assert!(err.contains(&format!("{flag}: a simulate run")), "{err}");
    }
    assert!(crate::common::run(&["merge", &p0, &p1]).status.success());
}
