//! `simulate`: its reports (JSON with intervals, CSV, table), the same metrics
//! on one thread and two, no progress bar when stderr is not a terminal, and
//! bad input (bots, an unwritable log) refused.

use super::*;

#[test]
fn simulate_json_reports_metrics_with_intervals() {
    let r = json(&words(
        "simulate --variant black-tower --games 60 --format json",
    ));
    assert_eq!(r["variant"], "black-tower");
    assert_eq!(r["games"], 60);
    assert!(num(&r["games_per_sec"]) > 0.0, "{r}");
    let metrics = r["metrics"].as_array().expect("metrics");
    // 2 players (the variant's): 2 scores, 2 win shares, then 22 metrics.
    assert_eq!(metrics.len(), 2 + 2 + 22, "{r}");
    for m in metrics {
        let name = m["name"].as_str().expect("a metric name");
        let mean = num(&m["mean"]);
        let ci = m["ci"].as_array().expect("ci");
        assert_eq!(ci.len(), 2, "{name}: ci is [low, high]");
        let (low, high) = (num(&ci[0]), num(&ci[1]));
        // Normal intervals are centred on the mean; balance's interval is a
        // bootstrap percentile interval, which need not hold the point
        // estimate, so only its order is checked.
        assert!(low <= high, "{name}: {low} > {high}");
        if name != "balance" {
            assert!(
                low <= mean && mean <= high,
                "{name}: {mean} not in [{low}, {high}]"
            );
        }
    }
    let names: Vec<&str> = metrics
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    for expected in [
        "score.seat1",
        "win.seat2",
        "captures",
        "towers",
        "turns",
        "balance",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    // Win shares sum to 1 per game, so their means do too.
    let win = |s: &str| num(&metrics.iter().find(|m| m["name"] == s).unwrap()["mean"]);
    assert!((win("win.seat1") + win("win.seat2") - 1.0).abs() < 1e-9);
}

#[test]
fn simulate_metrics_are_the_same_on_one_and_two_threads() {
    let args = |threads| {
        format!("simulate --variant black-tower --games 60 --format json --threads {threads}")
    };
    let one = json(&words(&args(1)));
    let two = json(&words(&args(2)));
    assert_eq!(one["threads"], 1);
    assert_eq!(two["threads"], 2);
    assert_eq!(without_timing(one), without_timing(two));
}

#[test]
fn simulate_csv_has_a_header_and_a_row_per_metric() {
    let args = "simulate --variant black-tower --games 30 --seed 5";
    let text = ok(&words(&format!("{args} --format csv")));
    let report = json(&words(&format!("{args} --format json")));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(String::from)
        .collect();
    assert_eq!(header, ["variant", "metric", "mean", "ci_low", "ci_high"]);
    let rows: Vec<csv::StringRecord> = reader
        .records()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("CSV rows parse: {e}\n{text}"));
    let metrics = report["metrics"].as_array().unwrap();
    assert_eq!(rows.len(), metrics.len(), "{text}");
    for (row, m) in rows.iter().zip(metrics) {
        assert_eq!(&row[0], "black-tower");
        assert_eq!(&row[1], m["name"].as_str().unwrap());
        // The same run: the CSV's numbers are the JSON's. (serde_json's
        // default float parsing may be off by one unit in the last place, so
        // they are compared to 1e-12 rather than bit for bit.)
        let f = |i: usize| {
            row[i]
                .parse::<f64>()
                .unwrap_or_else(|e| panic!("{row:?}: {e}"))
        };
        for (i, v) in [(2, &m["mean"]), (3, &m["ci"][0]), (4, &m["ci"][1])] {
            let (a, b) = (f(i), num(v));
            assert!(
                (a - b).abs() <= 1e-12 * b.abs().max(1.0),
                "{row:?}: column {i} is {a}, the JSON says {b}"
            );
        }
    }
}

#[test]
fn simulate_table_names_every_metric() {
    let text = ok(&words(
        "simulate --variant black-tower --games 10 --format table",
    ));
    let report = json(&words(
        "simulate --variant black-tower --games 10 --format json",
    ));
    assert!(text.contains("black-tower"), "{text}");
    for m in report["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        assert!(text.contains(name), "the table lacks `{name}`:\n{text}");
    }
}

#[test]
fn an_unknown_bot_is_refused_with_a_suggestion() {
    let err = fails(2, &words("simulate --games 2 --bots randm"));
    assert!(err.contains("randm"), "{err}");
    assert!(err.contains("did you mean `random`"), "{err}");
}

#[test]
fn three_bots_for_two_players_are_refused() {
    let err = fails(
        2,
        &words("simulate --games 2 --players 2 --bots random,random,random"),
    );
    assert!(err.contains("3 bots for 2 players"), "{err}");
}

#[test]
fn an_unwritable_log_is_refused_by_name() {
    let err = fails(
        2,
        &words("simulate --games 2 --log /nonexistent/dir/x.jsonl"),
    );
    assert!(err.contains("/nonexistent/dir/x.jsonl"), "{err}");
}

#[test]
fn no_progress_is_drawn_when_stderr_is_not_a_terminal() {
    // Long enough for a progress bar to be drawn more than once if it were
    // on; `ok` checks that stderr stays empty.
    let log = ScratchFile::new("progress.jsonl");
    let run = "--games 120 --threads 1 --format json";
    ok(&with_log(&format!("simulate --variant tower {run}"), &log));
    ok(&with_log(
        &format!("compare tower tower-no-gaps {run}"),
        &log,
    ));
    let out = ok(&["replay", log.path()]);
    assert!(out.contains("240 games"), "{out}");
}
