//! Game logs: a game's events as JSON Lines records, one event per line, in
//! the format `docs/log.md` documents. Every record has `game` (the game's
//! index in its run), `turn` and `event`; seats are numbered from 0.
//!
//! [`Record`] is the one type of a log line: the logger writes it, and replay
//! and pictures of a logged game read it back with [`read`]. What happened
//! in a game is the kernel's [`Event`] itself, its tile and floor kinds
//! named: the kernel defines each event's fields and their JSON form; the log
//! adds the `start` record and reads events of later versions as unknown.

mod read;

pub use read::{LogLine, read};

use std::fmt;

use anyhow::Result;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::kernel::diag::{MAX_INPUT, bad_input};
use crate::kernel::tiles::TileSet;
use crate::kernel::{Event, Game};
use crate::rules::{PackFiles, Params, Ruleset};

/// One line of a log. Its JSON is `{"game":…,"turn":…,"event":…,…}`, with
/// the event's own fields after `event`, in the order `docs/log.md` lists.
/// Fields a reader does not know are ignored (later versions may add some).
/// A log is read back by [`read`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    pub game: u64,
    pub turn: u32,
    #[serde(flatten)]
    pub event: LogEvent,
}

/// A kernel event with its tile kind and floor kinds named (`set/name`, the
/// floor kind's name): a log's records of what happened in a game.
pub type Named = Event<String, String>;

/// What a record says, by its `event`: the game's start, an event of the
/// game (the kernel's, its fields as [`Event`] defines them), or an event
/// this version does not know.
#[derive(Clone, Debug, PartialEq)]
pub enum LogEvent {
    Start(Start),
    Game(Named),
    /// Its `event` name (read, never written by this version).
    Unknown(String),
}

/// A `start` record: what a game was played under.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Start {
    /// The packs as the variant (or `--packs`) names them, in order.
    pub packs: Vec<String>,
    /// The parameter values the variant sets, by pack (`null` or absent
    /// reads as none).
    #[serde(default, deserialize_with = "params_or_null")]
    pub params: Params,
    pub players: usize,
    pub seed: u64,
    /// The tile on the board before the first turn (absent in logs of
    /// earlier versions, whose start tile was the rules' own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_tile: Option<StartTile>,
    /// The files of each pack not shipped, so that the log replays
    /// anywhere (absent when every pack is shipped).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pack_files: Vec<PackFiles>,
}

/// The start tile of a game: its kind (`set/name`), cell and rotation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartTile {
    pub tile: String,
    pub x: i32,
    pub y: i32,
    /// Degrees clockwise.
    pub rot: u32,
}

fn params_or_null<'de, D: Deserializer<'de>>(d: D) -> Result<Params, D::Error> {
    Option::<Params>::deserialize(d)
        .map(Option::unwrap_or_default)
        .map_err(|e| {
            serde::de::Error::custom(format!("`params` is an object of packs' parameters: {e}"))
        })
}

/// The fields of a record's event, after its `event` name.
#[derive(Serialize)]
struct Tagged<'a, E> {
    event: &'a str,
    #[serde(flatten)]
    fields: &'a E,
}

impl Serialize for LogEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LogEvent::Start(start) => Tagged {
                event: "start",
                fields: start,
            }
            .serialize(s),
            LogEvent::Game(event) => event.serialize(s),
            LogEvent::Unknown(name) => Tagged {
                event: name,
                fields: &serde_json::Map::new(),
            }
            .serialize(s),
        }
    }
}

/// The names of the kernel's events, as [`Event`]'s own deserializer
/// lists them when asked for an event it does not have.
fn kernel_events() -> &'static [&'static str] {
    /// Why reading failed: an unknown event (with the names there are), or
    /// anything else.
    #[derive(Debug)]
    enum Probe {
        Unknown(&'static [&'static str]),
        Other,
    }
    impl fmt::Display for Probe {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{self:?}")
        }
    }
    impl std::error::Error for Probe {}
    impl serde::de::Error for Probe {
        fn custom<M: fmt::Display>(_: M) -> Probe {
            Probe::Other
        }
        fn unknown_variant(_: &str, names: &'static [&'static str]) -> Probe {
            Probe::Unknown(names)
        }
    }
    let no_event = std::iter::once(("event", ""));
    match Named::deserialize(serde::de::value::MapDeserializer::<_, Probe>::new(no_event)) {
        Err(Probe::Unknown(names)) => names,
        _ => &[],
    }
}

/// The `event` names of a log's records: `start`, then the kernel's events.
pub fn event_names() -> impl Iterator<Item = &'static str> {
    std::iter::once("start").chain(kernel_events().iter().copied())
}

impl LogEvent {
    /// A choice a player made (the rest follows from the choices).
    pub fn is_decision(&self) -> bool {
        matches!(
            self,
            LogEvent::Game(
                Event::Tile { .. }
                    | Event::Ransom { .. }
                    | Event::Meeple { .. }
                    | Event::Floor { .. }
                    | Event::Capture { .. }
            )
        )
    }
}

/// A record as its JSON line.
impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
    }
}

/// The log of `game`, played under `set` as game `index` of a run with seed
/// `seed`, as JSON Lines.
pub fn game_log(set: &Ruleset, index: u64, seed: u64, game: &Game) -> Result<String> {
    let floors: Vec<String> = set.floors().iter().map(|f| f.name.clone()).collect();
    let pack_files = set.pack_files();
    let ctx = LogContext {
        game: index,
        seed,
        packs: set.pack_names(),
        params: set.params(),
        pack_files: &pack_files,
        players: game.players().len(),
        tiles: set.tiles(),
        floors: &floors,
    };
    let mut text = String::new();
    write_lines(&records(&ctx, game.events()), &mut text)?;
    within_replay(&text, index, seed)?;
    Ok(text)
}

/// A game's log `text` (game `index`, dealt from `seed`) that `replay` can
/// read: at most [`MAX_INPUT`] bytes, the most it reads of any input; past
/// it, bad input saying so, so that no log is written that replay refuses.
/// The bound stays rather than a larger one for logs: replay holds a log in
/// memory to give each event's line and column.
fn within_replay(text: &str, index: u64, seed: u64) -> Result<()> {
    if text.len() <= MAX_INPUT {
        return Ok(());
    }
    Err(bad_input(format!(
        "game {index} (seed {seed}): its log would take {} MB, past the {} MB a log may take \
         (the most `replay` reads): rules that add this many floors or effects write more than \
         a log holds",
        text.len() >> 20,
        MAX_INPUT >> 20
    )))
}

/// The bytes a log file of many games may take: [`MAX_INPUT`], the most
/// `replay` reads. A run that logs more fails at the game that would pass
/// it, rather than write a log replay refuses.
pub const MAX_LOG: usize = MAX_INPUT;

/// What a log needs besides the events: names for tile kinds and floor kinds.
pub struct LogContext<'a> {
    pub game: u64,
    pub seed: u64,
    /// The packs as the variant (or `--packs`) names them, in order.
    pub packs: &'a [String],
    /// The parameter values the variant sets, by pack.
    pub params: &'a Params,
    /// The files of each pack not shipped.
    pub pack_files: &'a [PackFiles],
    pub players: usize,
    pub tiles: &'a TileSet,
    pub floors: &'a [String],
}

impl LogContext<'_> {
    fn start(&self) -> Record {
        Record {
            game: self.game,
            turn: 0,
            event: LogEvent::Start(Start {
                packs: self.packs.to_vec(),
                params: self.params.clone(),
                players: self.players,
                seed: self.seed,
                start_tile: Some(start_tile(self.tiles)),
                pack_files: self.pack_files.to_vec(),
            }),
        }
    }
}

/// The start tile as every game places it: the tile set's start tile on
/// [0, 0], unturned.
pub fn start_tile(tiles: &TileSet) -> StartTile {
    StartTile {
        tile: tiles.kinds[tiles.start].name.clone(),
        x: 0,
        y: 0,
        rot: 0,
    }
}

/// The records of one game: `start`, then one per event.
pub fn records(ctx: &LogContext, events: &[Event]) -> Vec<Record> {
    let mut out = Vec::with_capacity(events.len() + 1);
    out.push(ctx.start());
    // Tiles discarded after the last tile placed have no turn that draws
    // again: they keep the last turn, so turns never go backwards.
    let last_tile = events.iter().rposition(|e| matches!(e, Event::Tile { .. }));
    let mut turn = 0u32;
    out.extend(events.iter().enumerate().map(|(i, e)| {
        let draws_again = last_tile.is_some_and(|t| i < t);
        record_of(ctx, &mut turn, e, draws_again)
    }));
    out
}

/// The record of one kernel event, its tile and floor kinds named; `turn`
/// is the turn so far, counted up by each placed tile (a discard belongs to
/// the turn that then draws again, when one does: `draws_again`).
fn record_of(ctx: &LogContext, turn: &mut u32, event: &Event, draws_again: bool) -> Record {
    let at_turn = match event {
        Event::Tile { .. } => {
            *turn += 1;
            *turn
        }
        Event::Discard { .. } if draws_again => *turn + 1,
        _ => *turn,
    };
    let named = event.map_names(
        |&kind| ctx.tiles.kinds[kind as usize].name.clone(),
        |&kind| ctx.floors[kind as usize].clone(),
    );
    Record {
        game: ctx.game,
        turn: at_turn,
        event: LogEvent::Game(named),
    }
}

/// Append records as JSON Lines.
pub fn write_lines(records: &[Record], out: &mut String) -> Result<()> {
    for r in records {
        out.push_str(&serde_json::to_string(r)?);
        out.push('\n');
    }
    Ok(())
}
