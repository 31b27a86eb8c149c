//! `replay`: a fresh log replays, under its variant's parameters too; a
//! tampered log (a capture out of range, other points, a ransom of the wrong
//! cost, a tile missing, malformed JSON) is rejected at its line.

use super::*;

/// A fresh log of `games` games of `variant`.
fn fresh_log(name: &str, variant: &str, games: &str) -> (ScratchFile, String) {
    let log = ScratchFile::new(&format!("{name}.jsonl"));
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
fn tampered(log: &ScratchFile, lines: &[&str], i: usize, new: Option<&str>) -> String {
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

#[test]
fn t11_a_log_of_a_variant_with_parameters_replays_under_them() {
    // A variant that sets the ransom to 2 points: the log's `start` record
    // carries the value, so replay plays under the same rules.
    let variant = ScratchFile::new("cheap-ransom.toml");
    variant
        .write("name = \"cheap-ransom\"\npacks = [\"tower\"]\n\n[params.tower]\nransom_cost = 2\n");
    let log = ScratchFile::new("cheap-ransom.jsonl");
    let line = format!(
        "simulate --variant {} --games 40 --seed 5 --format json",
        variant.path()
    );
    ok(&with_log(&line, &log));
    let text = log.read();
    let recs = log_records(&text);
    assert_eq!(recs[0]["params"]["tower"]["ransom_cost"], 2, "{}", recs[0]);
    let ransoms: Vec<&Value> = recs.iter().filter(|r| r["event"] == "ransom").collect();
    assert!(!ransoms.is_empty(), "40 games pay some ransom");
    assert!(ransoms.iter().all(|r| r["cost"] == 2));
    let out = ok(&["replay", log.path()]);
    assert!(out.contains("40 games"), "{out}");
}

#[test]
fn g4_a_log_marks_where_end_game_scoring_starts_and_its_turns_never_go_back() {
    let (log, text) = fresh_log("marked", "tower", "12");
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for game in records.split(|r| r["event"] == "start").skip(1) {
        let at = |event: &str| game.iter().position(|r| r["event"] == event);
        let marker = at("final_scoring").expect("a final_scoring record");
        let last_tile = game.iter().rposition(|r| r["event"] == "tile").unwrap();
        assert!(marker > last_tile && at("end") == Some(game.len() - 1));
        assert_eq!(
            game.iter()
                .filter(|r| r["event"] == "final_scoring")
                .count(),
            1
        );
        let turns: Vec<u64> = game.iter().map(|r| r["turn"].as_u64().unwrap()).collect();
        assert!(turns.windows(2).all(|w| w[0] <= w[1]), "{turns:?}");
    }
    // A log of an earlier version, without the marker, replays as before.
    let old: Vec<&str> = text
        .lines()
        .filter(|l| !l.contains("\"final_scoring\""))
        .collect();
    log.write(&(old.join("\n") + "\n"));
    ok(&["replay", log.path()]);
    // A marker where the game has none (in place of the record after the
    // real one) is refused at its line.
    let lines: Vec<&str> = text.lines().collect();
    let marker = find(&lines, "final_scoring", |_| true);
    tampered(&log, &lines, marker + 1, Some(lines[marker]));
}

#[test]
fn g1_a_tile_discarded_after_the_last_tile_placed_keeps_the_last_turn() {
    use towerlab::kernel::Event;
    use towerlab::kernel::geometry::Pos;
    use towerlab::play::log::{LogContext, records};
    let tiles = crate::common::tiles();
    let ctx = LogContext {
        game: 0,
        seed: 1,
        packs: &[],
        params: &Default::default(),
        pack_files: &[],
        players: 2,
        tiles: &tiles,
        floors: &[],
    };
    let tile = Event::Tile {
        player: 0,
        kind: 0,
        pos: Pos { x: 1, y: 0 },
        rot: 0,
    };
    let discard = Event::Discard { kind: 1 };
    let events = [
        discard.clone(),
        tile.clone(),
        tile,
        discard.clone(),
        discard,
        Event::FinalScoring,
        Event::End { scores: vec![0, 0] },
    ];
    let turns: Vec<u32> = records(&ctx, &events).iter().map(|r| r.turn).collect();
    // start; a discard before turn 1 belongs to it; the last two have no
    // turn after them and keep turn 2, as the end-game records do.
    assert_eq!(turns, [0, 1, 1, 2, 2, 2, 2, 2]);
}
