//! Reading a log back: one [`Record`] per line with where it stands in the
//! file, a line that is not a record refused as bad input with its
//! `path:line:col`.

use std::ops::Range;

use anyhow::Result;
use serde_json::Value;

use super::Record;
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
        match self.record.event.name() {
            Some(name) => name.to_string(),
            None => serde_json::from_str::<Value>(self.text(src))
                .ok()
                .and_then(|v| v["event"].as_str().map(String::from))
                .unwrap_or_default(),
        }
    }
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
        let record =
            serde_json::from_str::<Record>(line).map_err(|e| not_a_record(src, i + 1, line, e))?;
        out.push(LogLine {
            line: i + 1,
            span,
            record,
        });
    }
    Ok(out)
}

/// Why `text` (line `line` of `src`) is not a record: not JSON, not an object
/// with an `event`, or an event whose fields are missing or of a wrong type.
/// The record is read again only for its `event` (every other field
/// skipped, nothing of it kept).
fn not_a_record(src: &Source, line: usize, text: &str, err: serde_json::Error) -> anyhow::Error {
    #[derive(serde::Deserialize)]
    struct EventOnly {
        event: Option<serde_json::Value>,
    }
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
    use super::super::{LogEvent, Record, write_lines};
    use super::*;

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
        r#"{"game":0,"turn":19,"event":"exchange","players":[0,1]}"#,
        r#"{"game":0,"turn":2,"event":"score","player":1,"points":2,"feature":"road"}"#,
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
            assert!(line.record.event.name().is_some(), "{want}");
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
            LogEvent::Score {
                player: 1,
                points: 4,
                feature: "city".into()
            }
        );
        assert_eq!(read[0].record.game, 3);
    }

    #[test]
    fn an_unknown_event_reads_with_its_name_kept_in_the_file() {
        let src = source("\n{\"game\":0,\"turn\":4,\"event\":\"comet\",\"size\":9}\n");
        let read = read(&src).unwrap();
        assert_eq!(read[0].line, 2);
        assert_eq!(read[0].record.event, LogEvent::Unknown);
        assert_eq!(read[0].event_name(&src), "comet");
    }

    #[test]
    fn a_start_without_params_or_with_null_has_none() {
        for params in ["", r#","params":null"#] {
            let line = format!(
                r#"{{"game":0,"turn":0,"event":"start","packs":["tower"]{params},"players":2,"seed":1}}"#
            );
            let read = read(&source(&line)).unwrap();
            let LogEvent::Start { params, .. } = &read[0].record.event else {
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
        let err = refused(r#"{"game":0,"turn":2,"event":"tile","player":0}"#);
        assert!(err.starts_with("run.jsonl:1:"), "{err}");
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
}
