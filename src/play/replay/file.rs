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
            .filter(|(_, r)| matches!(r.record.event, LogEvent::Start { .. }))
            .map(|(i, _)| i)
            .collect();
        if starts.first() != Some(&0) {
            let line = records.first().map_or(1, |r| r.line);
            return Err(bad_input(format!(
                "{file}:{line}:1: a log begins each game with a `start` record"
            )));
        }
        starts.push(records.len());
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

/// What a game's `start` record says.
pub(super) struct Start<'l> {
    pub(super) packs: &'l [String],
    pub(super) params: &'l Params,
    pub(super) pack_files: &'l [PackFiles],
    pub(super) players: usize,
    pub(super) seed: u64,
    pub(super) game: u64,
    pub(super) start_tile: Option<&'l StartTile>,
}

impl Start<'_> {
    /// The rules the game was played under: its packs, from the files the
    /// log carries for them where it does (see `rules::logged`).
    pub(super) fn ruleset(&self, home: &Home, file: &str) -> Result<Ruleset> {
        Ruleset::from_logged(home, self.packs, self.params, self.pack_files, file)
    }
}

pub(super) fn start_of<'l>(file: &str, block: &'l [LogLine]) -> Result<Start<'l>> {
    let start = &block[0];
    match &start.record.event {
        LogEvent::Start {
            packs,
            params,
            players,
            seed,
            start_tile,
            pack_files,
        } if !packs.is_empty() => Ok(Start {
            packs,
            params,
            pack_files,
            start_tile: start_tile.as_ref(),
            players: *players,
            seed: *seed,
            game: start.record.game,
        }),
        _ => Err(bad_input(format!(
            "{file}:{}:1: a `start` record needs `game`, `packs`, `players` and `seed`",
            start.line
        ))),
    }
}
