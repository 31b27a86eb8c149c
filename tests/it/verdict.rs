//! Stars adjusted for multiplicity (Holm), the baseline of one's choice,
//! tables laid out for a stated width, and the verdict in words: through
//! the library on hand-built games, and through the real binary.

use serde_json::Value;
use towerlab::analysis::compare::{self, RunInfo, Tally};
use towerlab::analysis::stats::GameRow;
use towerlab::analysis::verdict::Verdict;

use crate::common::{Scratch, json, refused, stdout, succeeds};
use crate::shards::{metrics_text, shards};

/// Every difference of a compare JSON output: (metric, variant, diff).
fn diffs(json: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for key in ["metrics", "by_kind"] {
        for m in json[key].as_array().into_iter().flatten() {
            for v in m["values"].as_array().unwrap() {
                if let Some(d) = v.get("diff") {
                    out.push((
                        m["name"].as_str().unwrap().to_string(),
                        v["variant"].as_str().unwrap().to_string(),
                        d.clone(),
                    ));
                }
            }
        }
    }
    out
}

fn json_of(args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.extend(["--format", "json"]);
    json(&args)
}

#[test]
fn holm_adjusts_every_difference_of_the_run_together() {
    let json = json_of(&[
        "compare",
        "tower",
        "black-tower",
        "tower-no-gaps",
        "--games",
        "30",
        "--seed",
        "3",
        "--bots",
        "greedy",
    ]);
    let all = diffs(&json);
    let m = all.len();
    assert_eq!(m, 2 * json["metrics"].as_array().unwrap().len());
    // Holm by hand: sort the raw p-values; the i-th smallest (from 0) times
    // m - i, never below the one before, at most 1.
    let mut raw: Vec<(f64, usize)> = all
        .iter()
        .enumerate()
        .map(|(i, (_, _, d))| (d["p"].as_f64().unwrap(), i))
        .collect();
    raw.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut floor: f64 = 0.0;
    let mut survivors = 0;
    for (rank, (p, i)) in raw.iter().enumerate() {
        floor = floor.max((p * (m - rank) as f64).min(1.0));
        let (name, variant, d) = &all[*i];
        let adjusted = d["p_adjusted"].as_f64().unwrap();
        assert!(
            (adjusted - floor).abs() < 1e-12,
            "{name} of {variant}: {adjusted} against {floor}"
        );
        assert_eq!(d["survives"].as_bool(), Some(floor < 0.05), "{name}");
        // The raw interval excludes 0 exactly when the raw p is under 0.05.
        let excludes = d["ci"][0].as_f64().unwrap() > 0.0 || d["ci"][1].as_f64().unwrap() < 0.0;
        assert_eq!(d["significant"].as_bool(), Some(excludes), "{name}");
        assert_eq!(excludes, *p < 0.05, "{name}: p {p}, ci {}", d["ci"]);
        survivors += usize::from(floor < 0.05);
    }
    // Black Tower's captures survive any adjustment; not every raw star does.
    let captures = all
        .iter()
        .find(|(n, v, _)| n == "captures" && v == "black-tower")
        .unwrap();
    assert_eq!(captures.2["survives"], true);
    let raw_stars = all
        .iter()
        .filter(|(_, _, d)| d["significant"] == true)
        .count();
    assert!(survivors >= 1 && survivors <= raw_stars);
    assert_eq!(json["verdict"]["differences"].as_u64(), Some(m as u64));
    assert_eq!(json["verdict"]["adjustment"], "holm");
}

/// Two variants' hand-built games: every count the same but captures,
/// which differ by `extra[g]` in game `g` of the second variant.
fn tally(extra: &[u32]) -> Tally {
    let row = |g: usize, more: u32| {
        let mut v = vec![50 + (g as u32 * 7) % 13, 48 + (g as u32 * 5) % 11];
        v.extend([
            10 + more,
            0,
            4,
            0,
            0,
            1,
            5,
            10,
            3,
            0,
            89,
            2,
            40,
            5,
            0,
            200,
            900,
            30,
        ]);
        GameRow(v)
    };
    Tally {
        rows: vec![
            (0..extra.len()).map(|g| row(g, 0)).collect(),
            extra.iter().enumerate().map(|(g, &e)| row(g, e)).collect(),
        ],
        ..Tally::default()
    }
}

fn info() -> RunInfo {
    RunInfo {
        variants: vec!["base".into(), "other".into()],
        packs: vec![vec!["tower".into()], vec!["tower".into()]],
        decks: None,
        games: 0,
        bots: vec!["greedy".into(), "greedy".into()],
        bot_values: vec!["defaults".into(), "defaults".into()],
        seed: 1,
    }
}

#[test]
fn a_raw_star_that_does_not_survive_is_not_a_change() {
    // Captures +0.19 a game on average (one more in 6 games of 32), sd
    // 0.40: the raw interval excludes 0 (p about 0.008), but Holm
    // multiplies it by the run's 25 differences (the others are exactly 0
    // over 32 games, enough to have an interval), past 0.05.
    let mut extra = [0; 32];
    for g in [1, 6, 11, 17, 22, 29] {
        extra[g] = 1;
    }
    let c = compare::summarise(&info(), tally(&extra));
    let captures = c.metric("captures").unwrap().values[1].diff.unwrap();
    assert!(captures.significant, "{captures:?}");
    assert!(captures.p < 0.05 && captures.p > 0.001, "{}", captures.p);
    assert!(!captures.survives);
    let others = c.metrics.len() as f64;
    assert!((captures.p_adjusted - (captures.p * others).min(1.0)).abs() < 1e-12);
    let v = Verdict::of(&c);
    assert!(v.changes.is_empty(), "{:?}", v.changes);
    assert!(
        v.text.contains("other: no difference survives"),
        "{}",
        v.text
    );
}

#[test]
fn a_difference_that_survives_is_told_with_its_interval_and_unit() {
    let extra = [3, 2, 3, 4, 3, 2, 3, 3, 4, 3, 2, 3, 3, 3, 4, 2].repeat(2);
    let c = compare::summarise(&info(), tally(&extra));
    let v = Verdict::of(&c);
    assert_eq!(v.changes.len(), 1, "{:?}", v.changes);
    let change = &v.changes[0];
    assert_eq!(change.metric, "captures");
    assert_eq!(change.mean, 2.9375);
    assert_eq!(change.unit, "meeples a game");
    let said = format!(
        "captures +2.94 meeples a game [{:+.2}, {:+.2}] (+29%)",
        change.ci[0], change.ci[1]
    );
    assert!(v.text.contains(&said), "{} lacks {said}", v.text);
    // The seats' scores and wins are the same in every game of both, but
    // 32 games that agree leave room for about 3 in 32 that would not: the
    // first seat's win share is not shown to be within ±0.05.
    let win = v.unsettled.iter().find(|s| s.metric == "win.seat1");
    let win = win.expect("the first seat's win share is unsettled");
    let q = 1.0 - 0.05f64.powf(1.0 / 32.0);
    assert!((win.ci[1] - q).abs() < 1e-12 && (win.ci[0] + q).abs() < 1e-12);
    assert!(v.text.contains("About"), "{}", v.text);
}

#[test]
fn a_run_where_nothing_differs_says_so_and_stars_nothing() {
    // The Rhai pack and the native reference play the same games. Games
    // that all agree bound the share that might not by about 3/n: 120 games
    // put balance (which a share q of games could move by 2q) within ±0.05.
    let line = [
        "compare",
        "tower",
        "native:tower",
        "--games",
        "120",
        "--bots",
        "random",
    ];
    let json = json_of(&line);
    assert!(diffs(&json).iter().all(|(_, _, d)| d["survives"] == false));
    let v = &json["verdict"];
    assert_eq!(v["changes"].as_array().map(Vec::len), Some(0));
    let text = v["text"].as_str().unwrap();
    assert!(
        text.contains("native:tower: no difference survives."),
        "{text}"
    );
    assert!(text.contains("Unchanged, within ±0.05"), "{text}");
    let printed = stdout(&succeeds(&line));
    let (table, verdict) = printed.split_once("Verdict:").expect("a verdict");
    let starred: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with('│') && l.contains(" *"))
        .collect();
    assert!(starred.is_empty(), "stars in {starred:#?}");
    assert!(verdict.contains("no difference survives"));
}

#[test]
fn the_baseline_of_ones_choice_goes_first_in_every_output_and_merge() {
    let line = "compare tower black-tower tower-no-gaps --games 12 --seed 4";
    let mut args: Vec<&str> = line.split_whitespace().collect();
    let first = json_of(&args);
    args.extend(["--baseline", "black-tower"]);
    let chosen = json_of(&args);
    assert_eq!(chosen["variants"][0], "black-tower");
    assert_eq!(chosen["variants"][1], "tower");
    assert_eq!(chosen["variants"][2], "tower-no-gaps");
    // tower − black-tower is exactly the negation of black-tower − tower.
    for (a, b) in first["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .zip(chosen["metrics"].as_array().unwrap())
    {
        let forward = a["values"][1]["diff"]["mean"].as_f64().unwrap();
        let back = b["values"][1]["diff"]["mean"].as_f64().unwrap();
        assert_eq!(forward, -back, "{}", a["name"]);
        assert_eq!(a["values"][1]["mean"], b["values"][0]["mean"]);
    }
    let csv = stdout(&succeeds(&[&args[..], &["--format", "csv"]].concat()));
    let second_line = csv.lines().nth(1).unwrap();
    assert!(
        second_line.starts_with("score.seat1,black-tower,"),
        "{second_line}"
    );
    // A merge names the baseline as compare does.
    let dir = Scratch::new("baseline");
    let parts = shards(line, 2, &dir);
    let mut merge_args = vec!["merge", "--format", "json", "--baseline", "black-tower"];
    merge_args.extend(parts.iter().map(String::as_str));
    let merged = stdout(&succeeds(&merge_args));
    let whole = stdout(&succeeds(&[&args[..], &["--format", "json"]].concat()));
    assert_eq!(metrics_text(&merged), metrics_text(&whole));
    // A baseline that is not compared is refused, with a suggestion.
    let err = refused(&[&args[..args.len() - 1], &["blak-tower"]].concat());
    assert!(err.contains("did you mean `black-tower`"), "{err}");
}

#[test]
fn a_table_written_to_a_file_is_laid_out_for_the_width_asked() {
    let line = "compare tower black-tower tower-no-gaps tower-eye-for-an-eye --games 8";
    // The output but its speed line, which differs run to run.
    let text = |args: &[&str]| -> String {
        stdout(&succeeds(args))
            .lines()
            .filter(|l| !l.contains("games/s"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut args: Vec<&str> = line.split_whitespace().collect();
    let at_100 = text(&args);
    args.extend(["--width", "100"]);
    assert_eq!(text(&args), at_100, "100 is the default off a terminal");
    for line in at_100.lines() {
        assert!(
            line.chars().count() <= 100,
            "{} wide: {line}",
            line.chars().count()
        );
    }
    assert!(at_100.contains("black-tower against the baseline tower:"));
    args.pop();
    args.push("400");
    let wide = text(&args);
    assert!(!wide.contains("against the baseline"), "one table at 400");
    assert!(wide.lines().any(|l| l.chars().count() > 100));
}
