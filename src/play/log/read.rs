//! Reading a log back: one [`Record`] per line with where it stands in the
//! file, a line that is not a record refused as bad input with its
//! `path:line:col`.

use std::borrow::Cow;
use std::ops::Range;

use anyhow::Result;
use serde::Deserialize;
use serde_json::Value;

use super::{LogEvent, Named, Record, Start, kernel_events};
use crate::kernel::diag::{Source, bad_input};

/// A record read from a log, with where it stands in the file.
#[derive(Clone, Debug)]
pub struct LogLine {
    /// 1-based line number.
    pub line: usize,
    /// Byte range of the line's text in the file.
    pub span: Range<usize>,
    pub record: Record,
}

impl LogLine {
    /// The line's text as the file has it.
    pub fn text<'s>(&self, src: &'s Source) -> &'s str {
        src.text[self.span.clone()].trim()
    }

    /// The record's `event` as the file names it.
    pub fn event_name(&self, src: &Source) -> String {
        match serde_json::from_str::<EventOnly>(self.text(src)) {
            Ok(EventOnly {
                event: Some(Value::String(name)),
            }) => name,
            _ => String::new(),
        }
    }
}

/// A record read for its `event` alone (every other field skipped, nothing
/// of it kept).
#[derive(Deserialize)]
struct EventOnly {
    event: Option<Value>,
}

/// Read a log file: one JSON record per line, blank lines skipped. A line
/// that is not a record is bad input, with its `path:line:col`.
pub fn read(src: &Source) -> Result<Vec<LogLine>> {
    let mut out = Vec::new();
    let mut offset = 0;
    for (i, with_end) in src.text.split_inclusive('\n').enumerate() {
        let line = with_end.strip_suffix('\n').unwrap_or(with_end);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let span = offset..offset + line.len();
        offset += with_end.len();
        if line.trim().is_empty() {
            continue;
        }
        // A record is an object: anything else is refused before it is
        // parsed, so a huge array or string is never built in memory.
        if !line.trim_start().starts_with('{') {
            return Err(not_an_object(src, i + 1));
        }
        let record = record(line).map_err(|e| not_a_record(src, i + 1, line, e))?;
        out.push(LogLine {
            line: i + 1,
            span,
            record,
        });
    }
    Ok(out)
}

/// The record of a line. Nearly every line is an event the kernel defines,
/// so a line is read as one first (as [`Event`](crate::kernel::Event) reads
/// itself); a line that is not is read again for its `event` alone, which
/// tells a `start`, an event this version does not know, and a kernel event
/// written wrong (whose error is the first reading's: the event the record
/// names, the field, its place in the line).
fn record(line: &str) -> serde_json::Result<Record> {
    let err = match serde_json::from_str::<Line<Named>>(line) {
        Ok(read) => return Ok(read.record(LogEvent::Game)),
        Err(err) => err,
    };
    let Ok(head) = serde_json::from_str::<Head>(line) else {
        return Err(err);
    };
    match &*head.event {
        "start" => serde_json::from_str::<Line<Start>>(line).map(|l| l.record(LogEvent::Start)),
        name if kernel_events().contains(&name) => Err(err),
        name => Ok(Record {
            game: head.game,
            turn: head.turn,
            event: LogEvent::Unknown(name.to_string()),
        }),
    }
}

/// A record read as an `E`: what every record has, and the event's fields.
/// (Read as the fields of an object, so that an error in them, which an
/// internally tagged enum finds after the whole object is read, is placed at
/// the object's end.)
#[derive(Deserialize)]
struct Line<E> {
    game: u64,
    turn: u32,
    #[serde(flatten)]
    event: E,
}

impl<E> Line<E> {
    fn record(self, event: impl FnOnce(E) -> LogEvent) -> Record {
        Record {
            game: self.game,
            turn: self.turn,
            event: event(self.event),
        }
    }
}

/// What every record has, its other fields skipped.
#[derive(Deserialize)]
struct Head<'a> {
    game: u64,
    turn: u32,
    #[serde(borrow)]
    event: Cow<'a, str>,
}

/// Why `text` (line `line` of `src`) is not a record: not JSON, not an object
/// with an `event`, or an event whose fields are missing or of a wrong type.
/// The record is read again only for its `event`.
fn not_a_record(src: &Source, line: usize, text: &str, err: serde_json::Error) -> anyhow::Error {
    let path = src.path.display();
    match serde_json::from_str::<EventOnly>(text) {
        Err(e) if e.is_syntax() || e.is_eof() => bad_input(format!(
            "{path}:{line}:{}: not a JSON log record: {e}",
            e.column()
        )),
        Ok(EventOnly {
            event: Some(Value::String(event)),
        }) => bad_input(format!(
            "{path}:{line}:{}: not a `{event}` record as docs/log.md describes: {err}",
            err.column()
        )),
        _ => not_an_object(src, line),
    }
}

/// Line `line` of `src` is not an object with an `event`.
fn not_an_object(src: &Source, line: usize) -> anyhow::Error {
    bad_input(format!(
        "{}:{line}:1: a log record is an object with an `event`",
        src.path.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::super::write_lines;
    use super::*;
    use crate::kernel::geometry::Pos;
    use crate::kernel::tiles::SegmentKind;
    use crate::kernel::{CaptureOutcome, Event, MeepleOn, MeepleSpot, Scored};

    /// A log writes a capture's outcome with the word a `captured` hook
    /// answers.
    #[test]
    fn t5_an_outcome_is_logged_as_its_hooks_word() {
        for o in CaptureOutcome::ALL {
            let json = serde_json::to_string(&o).unwrap();
            assert_eq!(json, format!("\"{}\"", o.word()));
            assert_eq!(CaptureOutcome::named(o.word()), Some(o));
        }
        assert_eq!(CaptureOutcome::named("jail"), None);
    }

    /// One record of every event, as `simulate --log` writes them.
    const LINES: &[&str] = &[
        r#"{"game":0,"turn":0,"event":"start","packs":["tower"],"params":{"tower":{"ransom_cost":2}},"players":2,"seed":8969667536906373033}"#,
        r#"{"game":0,"turn":0,"event":"start","packs":["tower","black-tower"],"params":{},"players":2,"seed":16642727480171054985}"#,
        r#"{"game":0,"turn":1,"event":"tile","player":0,"tile":"base/RRR","x":1,"y":0,"rot":0}"#,
        r#"{"game":30,"turn":15,"event":"discard","tile":"base/L"}"#,
        r#"{"game":0,"turn":28,"event":"ransom","player":1,"to":0,"cost":2,"scores":[2,3]}"#,
        r#"{"game":0,"turn":1,"event":"meeple","player":0,"x":1,"y":0,"on":"field","segment":4}"#,
        r#"{"game":0,"turn":8,"event":"meeple","player":1,"x":-1,"y":0,"on":"tower","segment":null}"#,
        r#"{"game":0,"turn":6,"event":"floor","player":1,"x":-1,"y":0,"kind":"regular","floors":["regular"]}"#,
        r#"{"game":0,"turn":16,"event":"capture","player":1,"tower":[3,-1],"floors":["regular","regular"],"at":[2,-1],"on":"tower","segment":null,"owner":0}"#,
        r#"{"game":0,"turn":17,"event":"capture","player":0,"tower":[0,2],"floors":["regular"],"at":[1,2],"on":"city","segment":1,"owner":1,"outcome":"gone"}"#,
        r#"{"game":0,"turn":19,"event":"exchange","players":[0,1]}"#,
        r#"{"game":0,"turn":2,"event":"score","player":1,"points":2,"feature":"road"}"#,
        r#"{"game":0,"turn":89,"event":"score","player":0,"points":-4,"feature":"prisoners"}"#,
        r#"{"game":0,"turn":89,"event":"end","scores":[11,4]}"#,
    ];

    fn source(text: &str) -> Source {
        Source::new("run.jsonl", text)
    }

    #[test]
    fn every_event_reads_and_writes_back_byte_for_byte() {
        let read = read(&source(&LINES.join("\n"))).unwrap();
        assert_eq!(read.len(), LINES.len());
        for (line, want) in read.iter().zip(LINES) {
            assert!(!matches!(line.record.event, LogEvent::Unknown(_)), "{want}");
            assert_eq!(line.record.to_string(), *want);
        }
        let mut text = String::new();
        let records: Vec<Record> = read.into_iter().map(|l| l.record).collect();
        write_lines(&records, &mut text).unwrap();
        assert_eq!(text, LINES.join("\n") + "\n");
    }

    #[test]
    fn fields_a_reader_does_not_know_are_ignored() {
        let line = r#"{"game":3,"turn":2,"event":"score","player":1,"points":4,"feature":"city","note":"x"}"#;
        let read = read(&source(line)).unwrap();
        assert_eq!(
            read[0].record.event,
            LogEvent::Game(Event::Score {
                player: 1,
                points: 4,
                feature: Scored::Feature(SegmentKind::City),
                rule: None,
            })
        );
        assert_eq!(read[0].record.game, 3);
    }

    #[test]
    fn an_unknown_event_reads_with_its_name_kept_in_the_file() {
        let src = source("\n{\"game\":0,\"turn\":4,\"event\":\"comet\",\"size\":9}\n");
        let read = read(&src).unwrap();
        assert_eq!(read[0].line, 2);
        assert_eq!(read[0].record.event, LogEvent::Unknown("comet".into()));
        assert_eq!(read[0].event_name(&src), "comet");
    }

    #[test]
    fn a_start_without_params_or_with_null_has_none() {
        for params in ["", r#","params":null"#] {
            let line = format!(
                r#"{{"game":0,"turn":0,"event":"start","packs":["tower"]{params},"players":2,"seed":1}}"#
            );
            let read = read(&source(&line)).unwrap();
            let LogEvent::Start(Start { params, .. }) = &read[0].record.event else {
                panic!("a start record: {line}");
            };
            assert!(params.is_empty());
        }
    }

    fn refused(text: &str) -> String {
        let err = read(&source(text)).unwrap_err();
        assert!(crate::kernel::diag::is_bad_input(&err), "{err:#}");
        format!("{err:#}")
    }

    #[test]
    fn a_line_that_is_not_a_record_is_bad_input_with_its_place() {
        let ok = LINES[2];
        let err = refused(&format!(
            "{ok}\n{{\"game\":0,\"turn\":2,\"event\":\"tile\",\"player"
        ));
        assert!(
            err.starts_with("run.jsonl:2:41: not a JSON log record: EOF"),
            "{err}"
        );
        let err = refused(&format!(
            "{ok}\r\n{{\"game\":0,\"turn\":2,\"event\":\"tile\",\"player\n"
        ));
        assert!(
            err.starts_with("run.jsonl:2:41: not a JSON log record: EOF"),
            "{err}"
        );
        let err = refused(&format!("{ok}\n[1,2]"));
        assert_eq!(
            err,
            "run.jsonl:2:1: a log record is an object with an `event`"
        );
        let err = refused(r#"{"game":0,"turn":2}"#);
        assert_eq!(
            err,
            "run.jsonl:1:1: a log record is an object with an `event`"
        );
        // A field missing is found at the object's end.
        let err = refused(r#"{"game":0,"turn":2,"event":"tile","player":0}"#);
        assert!(err.starts_with("run.jsonl:1:45: "), "{err}");
        assert!(err.contains("not a `tile` record"), "{err}");
        assert!(err.contains("missing field `tile`"), "{err}");
        let err = refused(
            r#"{"game":0,"turn":0,"event":"start","packs":["tower"],"params":3,"players":2,"seed":1}"#,
        );
        assert!(
            err.contains("`params` is an object of packs' parameters"),
            "{err}"
        );
    }

    /// The kernel's fields, read back: positions from `x`, `y` and from
    /// pairs, rotations from degrees, spots from `segment`, kinds from words.
    #[test]
    fn a_record_reads_as_the_kernel_event_it_names() {
        let read = read(&source(&LINES[2..].join("\n"))).unwrap();
        let event = |i: usize| &read[i].record.event;
        let tile: Named = Event::Tile {
            player: 0,
            kind: "base/RRR".into(),
            pos: Pos::new(1, 0),
            rot: 0,
        };
        assert_eq!(event(0), &LogEvent::Game(tile));
        let LogEvent::Game(Event::Meeple { pos, on, spot, .. }) = event(4) else {
            panic!("a meeple: {:?}", event(4));
        };
        assert_eq!(
            (*pos, *on, *spot),
            (Pos::new(-1, 0), MeepleOn::Tower, MeepleSpot::Tower)
        );
        let LogEvent::Game(Event::Capture {
            tower,
            at,
            on,
            spot,
            outcome,
            ..
        }) = event(7)
        else {
            panic!("a capture: {:?}", event(7));
        };
        assert_eq!((*tower, *at), (Pos::new(0, 2), Pos::new(1, 2)));
        assert_eq!(*on, MeepleOn::Feature(SegmentKind::City));
        assert_eq!(
            (*spot, *outcome),
            (MeepleSpot::Segment(1), Some(CaptureOutcome::Gone))
        );
        let LogEvent::Game(Event::Score { feature, .. }) = event(10) else {
            panic!("a score: {:?}", event(10));
        };
        assert!(matches!(feature, Scored::Rule(name) if name == "prisoners"));
    }

    #[test]
    fn a_turned_tile_is_written_in_degrees_and_read_in_quarter_turns() {
        let line = r#"{"game":0,"turn":3,"event":"tile","player":1,"tile":"base/CRR","x":0,"y":-1,"rot":270}"#;
        let read = read(&source(line)).unwrap();
        assert!(
            matches!(
                read[0].record.event,
                LogEvent::Game(Event::Tile { rot: 3, .. })
            ),
            "{:?}",
            read[0].record.event
        );
        assert_eq!(read[0].record.to_string(), line);
    }

    /// A rule's score named as a feature is, reads back as that feature's
    /// and is the same score: the log has one word for both.
    #[test]
    fn a_rules_score_named_like_a_feature_reads_back_as_the_same_score() {
        let scored: Named = Event::Score {
            player: 0,
            points: 3,
            feature: Scored::Rule("road".into()),
            rule: None,
        };
        let record = Record {
            game: 0,
            turn: 5,
            event: LogEvent::Game(scored),
        };
        let read = read(&source(&record.to_string())).unwrap();
        assert!(matches!(
            &read[0].record.event,
            LogEvent::Game(Event::Score {
                feature: Scored::Feature(SegmentKind::Road),
                ..
            })
        ));
        assert_eq!(read[0].record, record);
    }

    #[test]
    fn a_meeple_without_a_segment_reads_as_one_on_no_segment() {
        let line = r#"{"game":0,"turn":1,"event":"meeple","player":0,"x":1,"y":0,"on":"road"}"#;
        let read = read(&source(line)).unwrap();
        assert!(matches!(
            read[0].record.event,
            LogEvent::Game(Event::Meeple {
                spot: MeepleSpot::Tower,
                ..
            })
        ));
    }

    /// Words and numbers the kernel's events cannot hold are refused with
    /// the record's place, naming what may stand there.
    #[test]
    fn a_rotation_or_word_the_kernel_has_no_value_for_is_bad_input() {
        let tile = |rot: &str| {
            format!(
                r#"{{"game":0,"turn":1,"event":"tile","player":0,"tile":"base/L","x":1,"y":0,"rot":{rot}}}"#
            )
        };
        for rot in ["45", "360", "-90"] {
            let line = tile(rot);
            let err = refused(&line);
            assert!(
                err.starts_with(&format!("run.jsonl:1:{}: ", line.len())),
                "{err}"
            );
            assert!(err.contains("not a `tile` record"), "{err}");
        }
        let err = refused(&tile("45"));
        assert!(err.contains("expected 0, 90, 180 or 270"), "{err}");
        let err = refused(
            r#"{"game":0,"turn":1,"event":"meeple","player":0,"x":1,"y":0,"on":"bridge","segment":2}"#,
        );
        assert!(err.contains("not a `meeple` record"), "{err}");
        assert!(
            err.contains("`bridge` is not one of city, road, field, cloister, foundation, tower"),
            "{err}"
        );
        let capture = |fields: &str| {
            format!(
                r#"{{"game":0,"turn":9,"event":"capture","player":1,"floors":["regular"],"on":"road","segment":1,"owner":0,{fields}}}"#
            )
        };
        let err = refused(&capture(r#""tower":[0,1],"at":[1,1],"outcome":"lost""#));
        assert!(err.contains("not a `capture` record"), "{err}");
        assert!(err.contains("unknown variant `lost`"), "{err}");
        let err = refused(&capture(r#""tower":[0,1,2],"at":[1,1]"#));
        assert!(err.contains("not a `capture` record"), "{err}");
        let err = refused(&capture(r#""tower":{"x":0,"y":1},"at":[1,1]"#));
        assert!(err.contains("not a `capture` record"), "{err}");
        let err = refused(&capture(r#""tower":[0,1]"#));
        assert!(err.contains("missing field `at`"), "{err}");
    }

    /// The events docs/log.md lists are the events a log reads: `start` and
    /// the kernel's.
    #[test]
    fn the_event_names_are_those_docs_log_md_lists() {
        let doc = include_str!("../../../docs/log.md");
        let table = doc.split("## Events").nth(1).expect("an Events section");
        let mut documented: Vec<&str> = table
            .lines()
            .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
            .collect();
        let mut names: Vec<&str> = super::super::event_names().collect();
        documented.sort_unstable();
        names.sort_unstable();
        assert_eq!(names, documented);
    }
}
