//! A log file as `replay` reads it: its records split into games, and what
//! each game's `start` record says.

use super::*;

/// A log read and split into games.
pub(super) struct Log {
    pub(super) src: Source,
    pub(super) file: String,
    pub(super) records: Vec<LogLine>,
    /// Index of each game's `start` record, then the end.
    pub(super) starts: Vec<usize>,
}

impl Log {
    pub(super) fn read(path: &Path) -> Result<Log> {
        let src = Source::read(path)?;
        let records = log::read(&src)?;
        let file = path.display().to_string();
        let mut starts: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| matches!(r.record.event, LogEvent::Start(_)))
            .map(|(i, _)| i)
            .collect();
        if starts.first() != Some(&0) {
            let line = records.first().map_or(1, |r| r.line);
            return Err(bad_input(format!(
                "{file}:{line}:1: a log begins each game with a `start` record"
            )));
        }
        starts.push(records.len());
        refuse_unknown_events(&src, &file, &records)?;
        Ok(Log {
            src,
            file,
            records,
            starts,
        })
    }

    pub(super) fn blocks(&self) -> impl Iterator<Item = &[LogLine]> {
        self.starts.windows(2).map(|w| &self.records[w[0]..w[1]])
    }
}

/// Refuse a record whose event this version does not know: replay checks
/// every event of a game against the rules, and one it cannot read would
/// be skipped unchecked (a misspelled `meeple` made a later decision fail
/// for no reason the log shows). The place is the event's name in the line.
fn refuse_unknown_events(src: &Source, file: &str, records: &[LogLine]) -> Result<()> {
    let Some(rec) = records
        .iter()
        .find(|r| matches!(r.record.event, LogEvent::Unknown(_)))
    else {
        return Ok(());
    };
    let name = rec.event_name(src);
    let text = &src.text[rec.span.clone()];
    let col = text
        .find(&format!("\"{name}\""))
        .map_or(1, |at| text[..at].chars().count() + 1);
    Err(bad_input(format!(
        "{file}:{}:{col}: event `{name}` is not one this version of towerlab knows{} (docs/log.md lists them); replay checks every event of a game",
        rec.line,
        did_you_mean(&name, log::event_names())
    )))
}

/// A game's `start` record, with the game's number.
pub(super) struct Start<'l> {
    pub(super) game: u64,
    pub(super) logged: &'l log::Start,
}

impl Start<'_> {
    /// The rules the game was played under: its packs, from the files the
    /// log carries for them where it does (see `rules::logged`).
    pub(super) fn ruleset(&self, home: &Home, load: &LoadOptions, file: &str) -> Result<Ruleset> {
        let logged = self.logged;
        Ruleset::from_logged(
            home,
            load,
            &logged.packs,
            &logged.params,
            &logged.pack_files,
            file,
        )
    }
}

pub(super) fn start_of<'l>(file: &str, block: &'l [LogLine]) -> Result<Start<'l>> {
    let start = &block[0];
    match &start.record.event {
        LogEvent::Start(logged) if !logged.packs.is_empty() => Ok(Start {
            game: start.record.game,
            logged,
        }),
        _ => Err(bad_input(format!(
            "{file}:{}:1: a `start` record needs `game`, `packs`, `players` and `seed`",
            start.line
        ))),
    }
}
