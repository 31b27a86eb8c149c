//! Unit tests of replay: typed rejections and bad input.
use super::*;
use crate::kernel::diag::is_bad_input;
use crate::play::bots::BotKind;
use crate::play::sim;

/// The repository as a home.
fn home() -> Home {
    Home::at(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// The log of one 2-player `tower` game with random bots.
fn tower_log(seed: u64) -> Vec<Record> {
    let set =
        Ruleset::from_packs(&home(), &LoadOptions::unit_tests(), &["tower".to_string()]).unwrap();
    let rules = set.rules();
    let bots = [BotKind::RANDOM, BotKind::RANDOM];
    let game = sim::play(&set, rules.as_ref(), &bots, seed, true).unwrap();
    let floors: Vec<String> = set.floors().iter().map(|f| f.name.clone()).collect();
    let ctx = LogContext {
        game: 0,
        seed,
        packs: set.pack_names(),
        params: set.params(),
        pack_files: &[],
        players: 2,
        tiles: set.tiles(),
        floors: &floors,
    };
    log::records(&ctx, game.events())
}

fn replay_text(text: &str) -> Result<Replayed> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.jsonl");
    std::fs::write(&path, text).unwrap();
    replay(&home(), &LoadOptions::unit_tests(), &path)
}

fn lines(records: &[Record]) -> String {
    let mut text = String::new();
    log::write_lines(records, &mut text).unwrap();
    text
}

#[test]
fn a_log_replays_and_a_tampered_record_is_rejected_by_type() {
    let mut records = tower_log(7);
    let done = replay_text(&lines(&records)).unwrap();
    assert_eq!(done.events, records.len());
    let k = records
        .iter()
        .position(|r| matches!(r.event, LogEvent::Game(Event::Capture { .. })))
        .expect("a tower game with a capture");
    if let LogEvent::Game(Event::Capture { at, .. }) = &mut records[k].event {
        at.x += 100;
    }
    let err = replay_text(&lines(&records)).unwrap_err();
    assert!(!is_bad_input(&err), "{err:#}");
    let rejected = err.downcast_ref::<Rejected>().expect("a rejected record");
    assert_eq!(rejected.line, k + 1);
    assert_eq!(rejected.why, Rejection::OutOfRange);
}

#[test]
fn a_log_cut_short_is_rejected_and_a_broken_line_is_bad_input() {
    let records = tower_log(8);
    let err = replay_text(&lines(&records[..records.len() - 1])).unwrap_err();
    let rejected = err.downcast_ref::<Rejected>().expect("a rejected record");
    assert!(
        matches!(&rejected.why, Rejection::StopsEarly { expected } if expected.contains("\"end\"")),
        "{err:#}"
    );
    let mut text = lines(&records[..3]);
    text.push_str("{\"game\":0,\"turn\"\n");
    let err = replay_text(&text).unwrap_err();
    assert!(is_bad_input(&err), "{err:#}");
    assert!(err.downcast_ref::<Rejected>().is_none());
}

#[test]
fn an_event_this_version_does_not_know_is_bad_input_at_its_name() {
    let text = lines(&tower_log(9));
    let k = text
        .lines()
        .position(|l| l.contains("\"event\":\"meeple\""))
        .expect("a meeple placed");
    let misspelled: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == k {
                l.replace("\"event\":\"meeple\"", "\"event\":\"meple\"")
            } else {
                l.to_string()
            }
        })
        .collect();
    let err = replay_text(&(misspelled.join("\n") + "\n")).unwrap_err();
    assert!(is_bad_input(&err), "{err:#}");
    let col = text.lines().nth(k).unwrap().find("\"meeple\"").unwrap() + 1;
    let msg = format!("{err:#}");
    assert!(
        msg.contains(&format!("run.jsonl:{}:{col}: event `meple`", k + 1)),
        "{msg}"
    );
    assert!(msg.contains("did you mean `meeple`?"), "{msg}");
}
