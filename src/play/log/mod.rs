//! Game logs: a game's events as JSON Lines records, one event per line, in
//! the format `docs/log.md` documents. Every record has `game` (the game's
//! index in its run), `turn` and `event`; seats are numbered from 0.
//!
//! [`Record`] is the one type of a log line: the logger writes it, and replay
//! and pictures of a logged game read it back with [`read`].

mod read;

pub use read::{LogLine, read};

use std::fmt;

use anyhow::Result;
use serde::{Deserialize, Deserializer, Serialize};

use crate::kernel::tiles::TileSet;
use crate::kernel::{CaptureOutcome, Event, Game, MeepleOn, MeepleSpot};
use crate::rules::{PackFiles, Params, Ruleset};

/// One line of a log. Its JSON is `{"game":…,"turn":…,"event":…,…}`, with
/// the event's own fields after `event`, in the order `docs/log.md` lists.
/// Fields a reader does not know are ignored (later versions may add some).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub game: u64,
    pub turn: u32,
    #[serde(flatten)]
    pub event: LogEvent,
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

/// What a record says happened, tagged by its `event` field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum LogEvent {
    Start {
        /// The packs as the variant (or `--packs`) names them, in order.
        packs: Vec<String>,
        /// The parameter values the variant sets, by pack (`null` or absent
        /// reads as none).
        #[serde(default, deserialize_with = "params_or_null")]
        params: Params,
        players: usize,
        seed: u64,
        /// The tile on the board before the first turn (absent in logs of
        /// earlier versions, whose start tile was the rules' own).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start_tile: Option<StartTile>,
        /// The files of each pack not shipped, so that the log replays
        /// anywhere (absent when every pack is shipped).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pack_files: Vec<PackFiles>,
    },
    Tile {
        player: usize,
        /// `set/name`.
        tile: String,
        x: i32,
        y: i32,
        /// Degrees clockwise: 0, 90, 180 or 270.
        rot: u32,
    },
    Discard {
        tile: String,
    },
    Meeple {
        player: usize,
        x: i32,
        y: i32,
        on: String,
        /// `None` (`null`) on a tower.
        segment: Option<u8>,
    },
    Floor {
        player: usize,
        x: i32,
        y: i32,
        kind: String,
        floors: Vec<String>,
    },
    Capture {
        player: usize,
        tower: [i32; 2],
        floors: Vec<String>,
        at: [i32; 2],
        on: String,
        segment: Option<u8>,
        owner: usize,
        /// What the rules made of the capture when it is not the plain one
        /// (T5): `home` (back to its owner) or `gone` (out of the game).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<String>,
    },
    Exchange {
        players: [usize; 2],
    },
    Ransom {
        player: usize,
        to: usize,
        cost: u32,
        scores: Vec<u32>,
    },
    Score {
        player: usize,
        /// Negative only for a pack's end-of-game adjustment.
        points: i64,
        feature: String,
    },
    End {
        scores: Vec<u32>,
    },
    /// An event this version does not know (read, never written).
    #[serde(other)]
    Unknown,
}

fn params_or_null<'de, D: Deserializer<'de>>(d: D) -> Result<Params, D::Error> {
    Option::<Params>::deserialize(d)
        .map(Option::unwrap_or_default)
        .map_err(|e| {
            serde::de::Error::custom(format!("`params` is an object of packs' parameters: {e}"))
        })
}

impl LogEvent {
    /// The `event` name, `None` for an event this version does not know.
    pub fn name(&self) -> Option<&'static str> {
        Some(match self {
            LogEvent::Start { .. } => "start",
            LogEvent::Tile { .. } => "tile",
            LogEvent::Discard { .. } => "discard",
            LogEvent::Meeple { .. } => "meeple",
            LogEvent::Floor { .. } => "floor",
            LogEvent::Capture { .. } => "capture",
            LogEvent::Exchange { .. } => "exchange",
            LogEvent::Ransom { .. } => "ransom",
            LogEvent::Score { .. } => "score",
            LogEvent::End { .. } => "end",
            LogEvent::Unknown => return None,
        })
    }

    /// A choice a player made (the rest follows from the choices).
    pub fn is_decision(&self) -> bool {
        matches!(
            self,
            LogEvent::Tile { .. }
                | LogEvent::Ransom { .. }
                | LogEvent::Meeple { .. }
                | LogEvent::Floor { .. }
                | LogEvent::Capture { .. }
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
    let floors: Vec<String> = set.floors.iter().map(|f| f.name.clone()).collect();
    let pack_files = set.pack_files();
    let ctx = LogContext {
        game: index,
        seed,
        packs: &set.pack_names,
        params: &set.params,
        pack_files: &pack_files,
        players: game.players().len(),
        tiles: &set.tiles,
        floors: &floors,
    };
    let mut text = String::new();
    write_lines(&records(&ctx, game.events()), &mut text)?;
    Ok(text)
}

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
    fn floors(&self, stack: &[u8]) -> Vec<String> {
        stack
            .iter()
            .map(|&k| self.floors[k as usize].clone())
            .collect()
    }

    fn tile(&self, kind: u16) -> String {
        self.tiles.kinds[kind as usize].name.clone()
    }

    fn start(&self) -> Record {
        Record {
            game: self.game,
            turn: 0,
            event: LogEvent::Start {
                packs: self.packs.to_vec(),
                params: self.params.clone(),
                players: self.players,
                seed: self.seed,
                start_tile: Some(start_tile(self.tiles)),
                pack_files: self.pack_files.to_vec(),
            },
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

fn segment_of(spot: MeepleSpot) -> Option<u8> {
    match spot {
        MeepleSpot::Segment(s) => Some(s),
        MeepleSpot::Tower => None,
    }
}

/// The log's word for what a meeple stands on (`on`: `road`, `city`,
/// `field`, `cloister`, `tower`) and for the feature a score is for
/// (`feature`), from the kernel's kinds: the one place events become words.
fn word(on: MeepleOn) -> &'static str {
    on.name()
}

/// The word for a capture's outcome, only where the rules changed it: a
/// plain capture's record is as it always was.
fn changed_outcome(outcome: CaptureOutcome, owner: usize, captor: usize) -> Option<&'static str> {
    match outcome {
        CaptureOutcome::Home if owner != captor => Some("home"),
        CaptureOutcome::Gone => Some("gone"),
        _ => None,
    }
}

/// The records of one game: `start`, then one per event.
pub fn records(ctx: &LogContext, events: &[Event]) -> Vec<Record> {
    let mut out = Vec::with_capacity(events.len() + 1);
    out.push(ctx.start());
    let mut turn = 0u32;
    out.extend(events.iter().map(|e| record_of(ctx, &mut turn, e)));
    out
}

/// The record of one kernel event; `turn` is the turn so far, counted up by
/// each placed tile.
///
/// The one conversion from the kernel's events to the log's records: each
/// arm names every field of its event (no `..`) and no arm is a wildcard, so
/// a field or variant added to [`Event`] does not compile until it is taken
/// here — written to the log (which only gains fields) or left out on
/// purpose. The records are not the kernel's events made serialisable: a
/// log names tiles and floors, writes rotations in degrees and positions as
/// `x`/`y` or pairs, has one `score` record for both kinds of kernel score
/// and a capture's outcome only when the rules changed it, and is read back
/// with records the kernel has no event for (`start`, events of later
/// versions) and from logs of earlier versions.
#[deny(clippy::wildcard_enum_match_arm)]
fn record_of(ctx: &LogContext, turn: &mut u32, event: &Event) -> Record {
    let mut at_turn = *turn;
    let event = match event {
        Event::Tile {
            player,
            kind,
            pos,
            rot,
        } => {
            *turn += 1;
            at_turn = *turn;
            LogEvent::Tile {
                player: *player,
                tile: ctx.tile(*kind),
                x: pos.x,
                y: pos.y,
                rot: *rot as u32 * 90,
            }
        }
        Event::Discard { kind } => {
            at_turn += 1;
            LogEvent::Discard {
                tile: ctx.tile(*kind),
            }
        }
        Event::Meeple {
            player,
            pos,
            spot,
            on,
        } => LogEvent::Meeple {
            player: *player,
            x: pos.x,
            y: pos.y,
            on: word(*on).to_string(),
            segment: segment_of(*spot),
        },
        Event::Floor {
            player,
            pos,
            kind,
            floors,
        } => LogEvent::Floor {
            player: *player,
            x: pos.x,
            y: pos.y,
            kind: ctx.floors[*kind as usize].clone(),
            floors: ctx.floors(floors),
        },
        Event::Capture {
            player,
            tower,
            floors,
            at,
            spot,
            on,
            owner,
            outcome,
        } => LogEvent::Capture {
            player: *player,
            tower: [tower.x, tower.y],
            floors: ctx.floors(floors),
            at: [at.x, at.y],
            on: word(*on).to_string(),
            segment: segment_of(*spot),
            owner: *owner,
            outcome: changed_outcome(*outcome, *owner, *player).map(str::to_owned),
        },
        Event::Exchange { players } => LogEvent::Exchange { players: *players },
        Event::Ransom {
            player,
            to,
            cost,
            scores,
        } => LogEvent::Ransom {
            player: *player,
            to: *to,
            cost: *cost,
            scores: scores.clone(),
        },
        Event::Score {
            player,
            points,
            feature,
        } => LogEvent::Score {
            player: *player,
            points: i64::from(*points),
            feature: word(MeepleOn::Feature(*feature)).to_string(),
        },
        Event::RuleScore {
            player,
            points,
            feature,
        } => LogEvent::Score {
            player: *player,
            points: *points,
            feature: feature.to_string(),
        },
        Event::End { scores } => LogEvent::End {
            scores: scores.clone(),
        },
    };
    Record {
        game: ctx.game,
        turn: at_turn,
        event,
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
