//! No interval from too few games: a value from fewer than two games (or
//! balance from fewer than 30) prints no interval and no star, says why,
//! and JSON marks it; a few games that all agree have the bound their count
//! allows; `--precision` needs a minimum sample (30 games) before it may
//! stop, and a sweep stars only what survives Holm's adjustment.

use towerlab::analysis::stats::{MIN_SAMPLE, Thin, estimate};

use crate::common::{json, stdout, succeeds, words};

#[test]
fn a_thin_sample_has_no_interval_and_a_spread_one_has() {
    let one = estimate(&[3.0]);
    assert_eq!(one.thin, Some(Thin::OneGame));
    assert!(!one.excludes_zero());
    // Games that all agree: the bound their count allows, a game unlike
    // them one unit away (the rule of three: about 3/n of them may differ).
    let alike = estimate(&[2.0; 5]);
    assert_eq!(alike.thin, None);
    let q = 1.0 - 0.05f64.powf(1.0 / 5.0);
    assert!((alike.low - (2.0 - q)).abs() < 1e-12, "{alike:?}");
    assert!((alike.high - (2.0 + q)).abs() < 1e-12, "{alike:?}");
    let many = estimate(&vec![2.0; MIN_SAMPLE]);
    assert!(many.high - many.low > 0.0 && many.high - many.low < 2.0 * 3.0 / 30.0);
    let spread = estimate(&[1.0, 3.0, 2.0]);
    assert_eq!(spread.thin, None);
    assert!(spread.low < 2.0 && spread.high > 2.0);
}

#[test]
fn one_game_prints_no_interval_and_no_star() {
    let table = stdout(&succeeds(&words("compare tower black-tower --games 1")));
    assert!(table.contains("(no CI)"), "{table}");
    assert!(table.contains("no CI: fewer than 2 games"), "{table}");
    assert!(!table.contains("] *"), "a star from one game:\n{table}");
    assert!(!table.contains("± 0.00"), "{table}");
    let c = json(&words("compare tower black-tower --games 1 --format json"));
    for m in c["metrics"].as_array().unwrap() {
        for v in m["values"].as_array().unwrap() {
            assert_eq!(v["no_interval"], "fewer than 2 games", "{v}");
            if let Some(d) = v.get("diff") {
                assert_eq!(d["significant"], false, "{m}");
                assert_eq!(d["no_interval"], "fewer than 2 games", "{m}");
            }
        }
    }
    // `simulate`'s interval column says it as `compare`'s cells do, and as
    // the note under the table names it.
    let s = stdout(&succeeds(&words("simulate --games 1")));
    assert!(s.contains("no CI: fewer than 2 games"), "{s}");
    let scores = s
        .lines()
        .find(|l| l.contains("score.seat1"))
        .expect("a row");
    assert!(scores.contains("(no CI)"), "{s}");
    let s = json(&words("simulate --games 1 --format json"));
    assert_eq!(s["metrics"][0]["no_interval"], "fewer than 2 games");
}

/// The cells of `column` in every row of a CSV output.
fn csv_column(out: &str, column: &str) -> Vec<String> {
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let at = header.iter().position(|h| *h == column).expect(column);
    lines
        .map(|l| l.split(',').nth(at).unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_csv_leaves_the_interval_empty_where_there_is_none() {
    for (command, thin) in [
        ("simulate --games 1 --format csv", true),
        ("compare tower black-tower --games 1 --format csv", true),
        ("simulate --games 40 --format csv", false),
    ] {
        let out = stdout(&succeeds(&words(command)));
        for column in ["ci_low", "ci_high"] {
            let cells = csv_column(&out, column);
            assert!(!cells.is_empty(), "{command}");
            if thin {
                assert!(cells.iter().all(|c| c.is_empty()), "{command}:\n{out}");
            } else {
                assert!(cells.iter().any(|c| !c.is_empty()), "{command}:\n{out}");
            }
        }
        if command.starts_with("compare") {
            // The differences from the baseline too.
            for cell in csv_column(&out, "diff_low") {
                assert!(cell.is_empty(), "{command}:\n{out}");
            }
        }
    }
}

#[test]
fn enough_games_keep_their_intervals_unmarked() {
    let c = json(&words("compare tower black-tower --games 40 --format json"));
    let captures = c["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "captures")
        .unwrap();
    for v in captures["values"].as_array().unwrap() {
        assert!(v.get("no_interval").is_none(), "{v}");
        assert!(v["ci"][0].as_f64().unwrap() < v["ci"][1].as_f64().unwrap());
    }
}

#[test]
fn precision_does_not_stop_before_the_minimum_sample() {
    let c = json(&words(
        "compare tower black-tower --games 1 --precision captures=0.0000001 --max-games 40 --format json",
    ));
    let stopping = &c["stopping"];
    assert_eq!(stopping["games"], 40, "{stopping}");
    assert_eq!(stopping["reached"], false, "{stopping}");
    let table = stdout(&succeeds(&words(
        "compare tower black-tower --games 2 --precision captures=0.0000001 --max-games 3",
    )));
    assert!(table.contains("not reached"), "{table}");
}

#[test]
fn a_sweep_stars_only_what_survives_holm() {
    for games in ["1", "10"] {
        let args = [
            "sweep",
            "--variant",
            "tower",
            "--param",
            "tower.ransom_cost=0,6",
            "--games",
            games,
        ];
        let table = stdout(&succeeds(&args));
        assert!(
            table.contains("* when it survives Holm's adjustment"),
            "{table}"
        );
        let mut with_json = args.to_vec();
        with_json.extend(["--format", "json"]);
        let s = json(&with_json);
        let mut stars = 0;
        for m in s["metrics"].as_array().unwrap() {
            for p in m["points"].as_array().unwrap() {
                if let Some(d) = p.get("diff") {
                    if games == "1" {
                        assert_eq!(d["significant"], false, "{games}: {m}");
                    }
                    let survives = d["survives"] == true;
                    assert!(!survives || d["significant"] == true, "{m}");
                    assert!(!survives || d["p_adjusted"].as_f64().unwrap() < 0.05);
                    stars += usize::from(survives);
                }
            }
        }
        assert_eq!(table.matches("] *").count(), stars, "{table}");
    }
}
