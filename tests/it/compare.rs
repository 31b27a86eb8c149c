//! `simulate`, `compare` and `replay` through the real binary: report formats,
//! results independent of the thread count, paired comparisons on the same
//! seeds, the deck order shared by every variant, logs that replay and
//! tampered logs that do not, and bad input refused with exit code 2.

use std::path::PathBuf;

use serde_json::Value;

use towerlab::play::seed::{DECK_STREAM, Stream};

use crate::common::{fails, stderr, stdout, succeeds};

/// A command line's words (none of them holds a space).
fn cmd(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// A command line's words, then `--log` and the log's path.
fn with_log<'a>(line: &'a str, log: &'a Scratch) -> Vec<&'a str> {
    let mut words = cmd(line);
    words.extend(["--log", log.path()]);
    words
}

/// Run a command that must succeed, print nothing on stderr (no progress bar
/// when stderr is not a terminal), and return its stdout.
fn ok(args: &[&str]) -> String {
    let out = succeeds(args);
    assert!(
        out.stderr.is_empty(),
        "{args:?} wrote to stderr:\n{}",
        stderr(&out)
    );
    stdout(&out)
}

/// Run a command that must succeed and print one JSON document.
fn json(args: &[&str]) -> Value {
    let text = ok(args);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{args:?} printed invalid JSON ({e}):\n{text}"))
}

fn num(v: &Value) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("`{v}` is not a number"))
}

/// A scratch file (not yet written) in a temporary folder removed on drop.
struct Scratch {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = crate::common::temp_dir("compare");
        Scratch {
            path: dir.path().join(format!("{name}.jsonl")),
            _dir: dir,
        }
    }

    fn path(&self) -> &str {
        self.path.to_str().expect("a UTF-8 temp path")
    }

    fn read(&self) -> String {
        std::fs::read_to_string(&self.path).expect("the log was written")
    }

    fn write(&self, text: &str) {
        std::fs::write(&self.path, text).expect("write a scratch file");
    }
}

/// A log's records, parsed.
fn records(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("a log line ({e}): {l}")))
        .collect()
}

/// The report without the fields that measure time (and the thread count,
/// which is what differs by design).
fn without_timing(mut v: Value) -> Value {
    let obj = v.as_object_mut().expect("a JSON object");
    for key in ["seconds", "games_per_sec", "threads"] {
        obj.remove(key);
    }
    v
}

/// The metrics of a compare report by name: the entries of each variant.
fn metric<'v>(report: &'v Value, name: &str) -> &'v Vec<Value> {
    report["metrics"]
        .as_array()
        .expect("metrics")
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no metric `{name}`"))["values"]
        .as_array()
        .expect("values")
}

// ---- simulate ----------------------------------------------------------

#[test]
fn simulate_json_reports_metrics_with_intervals() {
    let r = json(&cmd(
        "simulate --variant black-tower --games 60 --format json",
    ));
    assert_eq!(r["variant"], "black-tower");
    assert_eq!(r["games"], 60);
    assert!(num(&r["games_per_sec"]) > 0.0, "{r}");
    let metrics = r["metrics"].as_array().expect("metrics");
    // 2 players (the variant's): 2 scores, 2 win shares, then 21 metrics.
    assert_eq!(metrics.len(), 2 + 2 + 21, "{r}");
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
    let one = json(&cmd(&args(1)));
    let two = json(&cmd(&args(2)));
    assert_eq!(one["threads"], 1);
    assert_eq!(two["threads"], 2);
    assert_eq!(without_timing(one), without_timing(two));
}

#[test]
fn simulate_csv_has_a_header_and_a_row_per_metric() {
    let args = "simulate --variant black-tower --games 30 --seed 5";
    let text = ok(&cmd(&format!("{args} --format csv")));
    let report = json(&cmd(&format!("{args} --format json")));
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
    let text = ok(&cmd(
        "simulate --variant black-tower --games 10 --format table",
    ));
    let report = json(&cmd(
        "simulate --variant black-tower --games 10 --format json",
    ));
    assert!(text.contains("black-tower"), "{text}");
    for m in report["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        assert!(text.contains(name), "the table lacks `{name}`:\n{text}");
    }
}

// ---- compare -----------------------------------------------------------

#[test]
fn compare_pairs_the_variants_on_the_same_seeds() {
    let log = Scratch::new("pairs");
    let r = json(&with_log(
        "compare tower black-tower --games 80 --format json",
        &log,
    ));
    assert_eq!(r["variants"], serde_json::json!(["tower", "black-tower"]));
    assert_eq!(r["games"], 80);
    for m in r["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let values = m["values"].as_array().unwrap();
        assert_eq!(values.len(), 2, "{name}");
        assert_eq!(values[0]["variant"], "tower");
        assert_eq!(values[1]["variant"], "black-tower");
        assert!(
            values[0].get("diff").is_none(),
            "{name}: the baseline has no diff"
        );
        let d = &values[1]["diff"];
        let (mean, low, high) = (num(&d["mean"]), num(&d["ci"][0]), num(&d["ci"][1]));
        assert!(num(&d["sd"]) >= 0.0, "{name}: {d}");
        assert!(low <= high, "{name}: {d}");
        assert_eq!(
            d["significant"].as_bool(),
            Some(low > 0.0 || high < 0.0),
            "{name}: significant means the interval excludes 0: {d}"
        );
        // The mean of paired differences is the difference of the means
        // (balance: of the two point estimates).
        let gap = num(&values[1]["mean"]) - num(&values[0]["mean"]);
        assert!((mean - gap).abs() < 1e-9, "{name}: diff {mean} vs {gap}");
    }

    // The log holds tower's 80 games, then black-tower's, game i of each
    // with the same seed: that is what makes the differences paired.
    let starts: Vec<Value> = records(&log.read())
        .into_iter()
        .filter(|r| r["event"] == "start")
        .collect();
    assert_eq!(starts.len(), 160);
    for (a, b) in starts[..80].iter().zip(&starts[80..]) {
        assert_eq!(a["packs"], serde_json::json!(["tower"]));
        assert_eq!(b["packs"], serde_json::json!(["tower", "black-tower"]));
        assert_eq!(a["game"], b["game"]);
        assert_eq!(a["seed"], b["seed"], "game {}", a["game"]);
    }
    let seeds: std::collections::HashSet<u64> = starts[..80]
        .iter()
        .map(|s| s["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds.len(), 80, "every game has its own seed");
}

#[test]
fn b2_black_tower_builds_more_towers_than_the_tower() {
    // B2 gives each of 2 players 4 black + 2 white + 8 regular = 14 floors,
    // against T1's 10, and B4/B7 let black and white floors go where regular
    // ones do (white only onto a started tower), so random players place
    // more floors and put a floor on more foundations; a white floor also
    // caps its tower (B7), sending later floors to other foundations. The
    // deck (and so the foundations drawn) is the same game for game, so the
    // paired difference in `towers` is large next to its noise.
    let r = json(&cmd("compare tower black-tower --games 80 --format json"));
    let towers = metric(&r, "towers");
    let d = &towers[1]["diff"];
    assert!(num(&d["mean"]) > 0.0, "{d}");
    assert_eq!(d["significant"], true, "{d}");
    // At most 18 foundations are drawn (T2, G9), in either variant.
    for v in towers {
        assert!(num(&v["mean"]) <= 18.0, "{v}");
    }
    // G1, G9: a game places at most the 89 tiles of the deck (90 with the
    // start tile), in either variant.
    for v in metric(&r, "turns") {
        let mean = num(&v["mean"]);
        assert!(mean > 0.0 && mean <= 89.0, "{v}");
    }
}

#[test]
fn comparing_a_variant_with_itself_gives_zero_differences() {
    let r = json(&cmd("compare tower tower --games 40 --format json"));
    for m in r["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let values = m["values"].as_array().unwrap();
        assert_eq!(values[0]["mean"], values[1]["mean"], "{name}");
        assert_eq!(values[0]["ci"], values[1]["ci"], "{name}");
        let d = &values[1]["diff"];
        assert_eq!(num(&d["mean"]), 0.0, "{name}: {d}");
        assert_eq!(num(&d["ci"][0]), 0.0, "{name}: {d}");
        assert_eq!(num(&d["ci"][1]), 0.0, "{name}: {d}");
        assert_eq!(d["significant"], false, "{name}: {d}");
    }
}

#[test]
fn compare_csv_and_table_list_both_variants() {
    let args = "compare tower black-tower --games 10";
    let text = ok(&cmd(&format!("{args} --format csv")));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().collect::<Result<_, _>>().unwrap();
    // 25 metrics for 2 players, one row per variant each.
    assert_eq!(rows.len(), 2 * 25, "{text}");
    for pair in rows.chunks(2) {
        assert_eq!(pair[0][0], pair[1][0], "rows of a metric are adjacent");
        assert_eq!((&pair[0][1], &pair[1][1]), ("tower", "black-tower"));
        assert_eq!(&pair[0][5], "", "the baseline has no diff");
        assert!(pair[1][5].parse::<f64>().is_ok(), "{:?}", pair[1]);
    }
    let table = ok(&cmd(&format!("{args} --format table")));
    for word in ["tower", "black-tower - tower", "towers", "turns", "balance"] {
        assert!(table.contains(word), "the table lacks `{word}`:\n{table}");
    }
}

// ---- the deck is the same in every variant -------------------------------

/// The names of the tiles drawn in each game of a log, in order: placed
/// (`tile`) or put aside (`discard`); with each game's seed.
fn drawn(text: &str) -> Vec<(u64, Vec<String>)> {
    let mut games: Vec<(u64, Vec<String>)> = Vec::new();
    for r in records(text) {
        match r["event"].as_str().unwrap() {
            "start" => games.push((r["seed"].as_u64().expect("a seed"), Vec::new())),
            "tile" | "discard" => games
                .last_mut()
                .expect("a start first")
                .1
                .push(r["tile"].as_str().unwrap().to_string()),
            _ => {}
        }
    }
    games
}

#[test]
fn g1_every_variant_draws_the_same_deck_for_a_seed() {
    // The deck is shuffled by the seed's own stream (src/seed.rs), and every
    // tile is drawn in deck order: placed, or discarded when it fits nowhere
    // (G1), after which the next is drawn. So the tile and discard records of
    // a game, in order, spell out the whole deck, whatever the players did
    // with it: they agree between variants from the first tile to the last,
    // even where placements and discards differ.
    let (a, b) = (Scratch::new("deck-tower"), Scratch::new("deck-black"));
    for (variant, log) in [("tower", &a), ("black-tower", &b)] {
        let line = format!("simulate --variant {variant} --games 6 --seed 41 --format json");
        ok(&with_log(&line, log));
    }
    let (ta, tb) = (a.read(), b.read());
    let (da, db) = (drawn(&ta), drawn(&tb));
    assert_eq!(da.len(), 6);
    assert_eq!(db.len(), 6);
    let tiles = crate::common::tiles();
    // G9: 72 base tiles with the start tile, 18 Tower tiles; the start tile is
    // not drawn.
    assert_eq!(tiles.deck().len(), 72 + 18 - 1);
    for (g, (x, y)) in da.iter().zip(&db).enumerate() {
        assert_eq!(x.0, y.0, "game {g}: the same seed in both runs");
        assert_eq!(
            x.1, y.1,
            "game {g}: the deck order differs between variants"
        );
        // ... and it is the seed's deck, tile for tile.
        let mut deck = tiles.deck();
        Stream::new(x.0, DECK_STREAM).shuffle(&mut deck);
        let names: Vec<&str> = deck
            .iter()
            .map(|&k| tiles.kinds[k as usize].name.as_str())
            .collect();
        assert_eq!(
            x.1, names,
            "game {g}: the drawn tiles are the deck in order"
        );
    }
    assert_ne!(da[0], da[1], "games of a run are dealt different decks");
    // The games themselves differ: black floors are placed only under
    // Black Tower, so the logs cannot be the same.
    assert!(!ta.contains(r#""kind":"black""#));
    assert!(tb.contains(r#""kind":"black""#));
}

// ---- replay --------------------------------------------------------------

/// A fresh log of `games` games of `variant`.
fn fresh_log(name: &str, variant: &str, games: &str) -> (Scratch, String) {
    let log = Scratch::new(name);
    let line = format!("simulate --variant {variant} --games {games} --seed 3 --format json");
    ok(&with_log(&line, &log));
    let text = log.read();
    (log, text)
}

/// The index (0-based) of the first `event` record of the log that passes
/// `pick`.
fn find(lines: &[&str], event: &str, pick: impl Fn(&Value) -> bool) -> usize {
    lines
        .iter()
        .position(|l| {
            let r: Value = serde_json::from_str(l).unwrap();
            r["event"] == event && pick(&r)
        })
        .unwrap_or_else(|| panic!("the log holds no such `{event}` record"))
}

/// Replace line `i` (0-based) of the log, write it, and return the replay's
/// stderr, checking exit code 1 and that the message names line `i + 1`.
fn tampered(log: &Scratch, lines: &[&str], i: usize, new: Option<&str>) -> String {
    let mut out: Vec<&str> = lines.to_vec();
    match new {
        Some(l) => out[i] = l,
        None => {
            out.remove(i);
        }
    }
    log.write(&(out.join("\n") + "\n"));
    let err = fails(1, &["replay", log.path()]);
    assert!(
        err.contains(&format!("{}: line {}:", log.path(), i + 1)),
        "the message names line {}:\n{err}",
        i + 1
    );
    err
}

#[test]
fn replay_of_a_fresh_log_succeeds() {
    let (log, text) = fresh_log("fresh", "black-tower", "12");
    let out = ok(&["replay", log.path()]);
    let lines = text.lines().count();
    assert!(
        out.contains(&format!("12 games, {lines} events replayed")),
        "{out}"
    );
}

#[test]
fn t6_replay_rejects_a_capture_moved_out_of_range() {
    let (log, text) = fresh_log("capture", "tower", "12");
    let lines: Vec<&str> = text.lines().collect();
    let i = find(&lines, "capture", |_| true);
    let mut r: Value = serde_json::from_str(lines[i]).unwrap();
    let at = r["at"].clone();
    // 100 cells away: beyond any tower's reach (a game has 89 tiles).
    r["at"] = serde_json::json!([num(&at[0]) as i64 + 100, num(&at[1]) as i64 + 100]);
    let line = r.to_string();
    let err = tampered(&log, &lines, i, Some(&line));
    assert!(err.contains("out of the tower's range"), "{err}");
}

#[test]
fn g4_replay_rejects_a_score_with_other_points() {
    let (log, text) = fresh_log("score", "tower", "4");
    let lines: Vec<&str> = text.lines().collect();
    let i = find(&lines, "score", |_| true);
    let mut r: Value = serde_json::from_str(lines[i]).unwrap();
    r["points"] = Value::from(num(&r["points"]) as u64 + 1);
    let line = r.to_string();
    let err = tampered(&log, &lines, i, Some(&line));
    assert!(err.contains("the log says"), "{err}");
}

#[test]
fn t11_replay_rejects_a_ransom_of_two_points() {
    // T11: a ransom costs 3 in the printed rules.
    let (log, text) = fresh_log("ransom", "tower", "40");
    let lines: Vec<&str> = text.lines().collect();
    let i = find(&lines, "ransom", |r| r["cost"] == 3);
    let mut r: Value = serde_json::from_str(lines[i]).unwrap();
    r["cost"] = Value::from(2);
    let line = r.to_string();
    let err = tampered(&log, &lines, i, Some(&line));
    assert!(
        err.contains(r#""cost":3"#),
        "the message shows the cost the rules give:\n{err}"
    );
}

#[test]
fn g1_replay_rejects_a_log_with_a_tile_missing() {
    let (log, text) = fresh_log("tile", "tower", "2");
    let lines: Vec<&str> = text.lines().collect();
    // A tile record (past the first few turns) followed by the meeple or
    // floor of its turn: with the tile gone, the game draws that tile but
    // the log's next decision is not a tile.
    let i = (5..lines.len() - 1)
        .find(|&i| {
            let r: Value = serde_json::from_str(lines[i]).unwrap();
            let next: Value = serde_json::from_str(lines[i + 1]).unwrap();
            r["event"] == "tile" && (next["event"] == "meeple" || next["event"] == "floor")
        })
        .expect("a tile followed by an action");
    let tile: Value = serde_json::from_str(lines[i]).unwrap();
    let err = tampered(&log, &lines, i, None);
    assert!(
        err.contains(&format!("tile `{}`", tile["tile"].as_str().unwrap())),
        "the message names the tile the deck deals:\n{err}"
    );
}

#[test]
fn replay_reports_malformed_json_with_line_and_column() {
    let (log, text) = fresh_log("malformed", "tower", "1");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[4] = r#"{"game":0,"turn":2,"event":"tile","player"#.to_string();
    log.write(&(lines.join("\n") + "\n"));
    let err = fails(2, &["replay", log.path()]);
    // FILE:LINE:COL, the column where the text breaks off.
    let at = format!("{}:5:", log.path());
    let rest = err
        .split_once(&at)
        .unwrap_or_else(|| panic!("no `{at}` in:\n{err}"))
        .1;
    let col: String = rest.chars().take_while(char::is_ascii_digit).collect();
    assert!(
        !col.is_empty() && rest[col.len()..].starts_with(':'),
        "{err}"
    );
    assert!(col.parse::<usize>().unwrap() >= 40, "column {col}: {err}");
}

// ---- bad input -----------------------------------------------------------

#[test]
fn an_unknown_bot_is_refused_with_a_suggestion() {
    let err = fails(2, &cmd("simulate --games 2 --bots randm"));
    assert!(err.contains("randm"), "{err}");
    assert!(err.contains("did you mean `random`"), "{err}");
}

#[test]
fn three_bots_for_two_players_are_refused() {
    let err = fails(
        2,
        &cmd("simulate --games 2 --players 2 --bots random,random,random"),
    );
    assert!(err.contains("3 bots for 2 players"), "{err}");
}

#[test]
fn an_unwritable_log_is_refused_by_name() {
    let err = fails(2, &cmd("simulate --games 2 --log /nonexistent/dir/x.jsonl"));
    assert!(err.contains("/nonexistent/dir/x.jsonl"), "{err}");
}

// ---- progress ------------------------------------------------------------

#[test]
fn no_progress_is_drawn_when_stderr_is_not_a_terminal() {
    // Long enough for a progress bar to be drawn more than once if it were
    // on; `ok` checks that stderr stays empty.
    let log = Scratch::new("progress");
    let run = "--games 120 --threads 1 --format json";
    ok(&with_log(&format!("simulate --variant tower {run}"), &log));
    ok(&with_log(
        &format!("compare tower tower-no-gaps {run}"),
        &log,
    ));
    let out = ok(&["replay", log.path()]);
    assert!(out.contains("240 games"), "{out}");
}

#[test]
fn t11_a_log_of_a_variant_with_parameters_replays_under_them() {
    // A variant that sets the ransom to 2 points: the log's `start` record
    // carries the value, so replay plays under the same rules.
    let variant = Scratch::new("cheap-ransom-variant");
    let variant_path = variant.path.with_extension("toml");
    std::fs::write(
        &variant_path,
        "name = \"cheap-ransom\"\npacks = [\"tower\"]\n\n[params.tower]\nransom_cost = 2\n",
    )
    .unwrap();
    let log = Scratch::new("cheap-ransom");
    let line = format!(
        "simulate --variant {} --games 40 --seed 5 --format json",
        variant_path.display()
    );
    ok(&with_log(&line, &log));
    let text = log.read();
    let recs = records(&text);
    assert_eq!(recs[0]["params"]["tower"]["ransom_cost"], 2, "{}", recs[0]);
    let ransoms: Vec<&Value> = recs.iter().filter(|r| r["event"] == "ransom").collect();
    assert!(!ransoms.is_empty(), "40 games pay some ransom");
    assert!(ransoms.iter().all(|r| r["cost"] == 2));
    let out = ok(&["replay", log.path()]);
    assert!(out.contains("40 games"), "{out}");
    let _ = std::fs::remove_file(variant_path);
}

/// The comparison as a library value: two variants played on the same seeds
/// with bots resolved once.
fn library_comparison(games: u64) -> towerlab::analysis::compare::Comparison {
    use towerlab::analysis::compare::{self, Plan};
    use towerlab::play::bots::BotKind;
    use towerlab::rules::Ruleset;
    let home = crate::common::home();
    let sets = vec![
        Ruleset::from_variant(&home, "tower").expect("tower loads"),
        Ruleset::from_variant(&home, "black-tower").expect("black-tower loads"),
    ];
    let bots = vec![BotKind::Random; 2];
    let plan = Plan {
        sets: &sets,
        bots: &bots,
        games,
        seed: 7,
        threads: 1,
        log: false,
        fires: false,
    };
    let seen = std::cell::Cell::new(0);
    let c = compare::run(&plan, &|_| {}, |_| {
        seen.set(seen.get() + 1);
        Ok(())
    })
    .expect("the comparison runs");
    assert_eq!(
        seen.get(),
        2 * games,
        "every game of every variant is handed on"
    );
    c
}

#[test]
fn the_library_comparison_is_the_json_compare_prints() {
    let c = library_comparison(12);
    // Through text, as the CLI's output is read (parsing may round a float).
    let text = serde_json::to_string(&c).unwrap();
    let mut lib = without_timing(serde_json::from_str(&text).unwrap());
    let verdict = towerlab::analysis::verdict::Verdict::of(&c);
    lib["verdict"] = serde_json::from_str(&serde_json::to_string(&verdict).unwrap()).unwrap();
    let cli = without_timing(json(&cmd(
        "compare tower black-tower --games 12 --seed 7 --threads 1 --format json",
    )));
    assert_eq!(lib, cli);
    // Per-game rows and game 0 are kept for the report, not printed.
    assert_eq!(c.per_game.len(), 2);
    assert!(c.per_game.iter().all(|rows| rows.len() == 12));
    assert_eq!(c.first_games[0].seed, c.first_games[1].seed, "same deal");
    assert!(c.first_games[0].bounds.is_some());
}

#[test]
fn the_baseline_has_no_difference_and_the_others_pair_against_it() {
    let c = library_comparison(20);
    let turns = c.metric("turns").expect("a turns metric");
    assert!(turns.values[0].diff.is_none());
    let d = turns.values[1].diff.expect("a paired difference");
    let expected = turns.values[1].mean - turns.values[0].mean;
    assert!((d.mean - expected).abs() < 1e-9, "{} vs {expected}", d.mean);
    assert_eq!(
        c.metric_index("turns"),
        c.metrics.iter().position(|m| m.name == "turns")
    );
}

#[test]
fn a_comparison_without_games_is_refused_not_a_panic() {
    use towerlab::analysis::compare::{self, Plan};
    use towerlab::play::bots::BotKind;
    let plan = Plan {
        sets: &[],
        bots: &[BotKind::Random; 2],
        games: 0,
        seed: 1,
        threads: 1,
        log: false,
        fires: false,
    };
    assert!(compare::run(&plan, &|_| {}, |_| Ok(())).is_err());
}
