//! Game logs: a game's events as JSON Lines records, one event per line, in
//! the format `docs/log.md` documents. Every record has `game` (the game's
//! index in its run), `turn` and `event`; seats are numbered from 0.

use serde_json::{Value, json};

use crate::kernel::tiles::TileSet;
use crate::kernel::{CaptureOutcome, Event, MeepleOn, MeepleSpot};
use crate::rules::Params;

/// What a log needs besides the events: names for tile kinds and floor kinds.
pub struct LogContext<'a> {
    pub game: u64,
    pub seed: u64,
    /// The packs as the variant (or `--packs`) names them, in order.
    pub packs: &'a [String],
    /// The parameter values the variant sets, by pack.
    pub params: &'a Params,
    pub players: usize,
    pub tiles: &'a TileSet,
    pub floors: &'a [String],
}

impl LogContext<'_> {
    fn floors(&self, stack: &[u8]) -> Value {
        stack
            .iter()
            .map(|&k| Value::from(self.floors[k as usize].as_str()))
            .collect()
    }
}

fn segment_of(spot: MeepleSpot) -> Value {
    match spot {
        MeepleSpot::Segment(s) => Value::from(s),
        MeepleSpot::Tower => Value::Null,
    }
}

/// The log's word for what a meeple stands on (`on`: `road`, `city`,
/// `field`, `cloister`, `tower`) and for the feature a score is for
/// (`feature`), from the kernel's kinds: the one place events become words.
fn word(on: MeepleOn) -> &'static str {
    on.name()
}

/// The records of one game: `start`, then one per event.
pub fn records(ctx: &LogContext, events: &[Event]) -> Vec<Value> {
    let mut out = Vec::with_capacity(events.len() + 1);
    let game = ctx.game;
    out.push(json!({
        "game": game, "turn": 0, "event": "start",
        "packs": ctx.packs, "params": ctx.params, "players": ctx.players, "seed": ctx.seed,
    }));
    let mut turn = 0u32;
    for e in events {
        let record = match e {
            Event::Tile {
                player,
                kind,
                pos,
                rot,
            } => {
                turn += 1;
                json!({
                    "game": game, "turn": turn, "event": "tile", "player": player,
                    "tile": ctx.tiles.kinds[*kind as usize].name, "x": pos.x, "y": pos.y,
                    "rot": *rot as u32 * 90,
                })
            }
            Event::Discard { kind } => json!({
                "game": game, "turn": turn + 1, "event": "discard",
                "tile": ctx.tiles.kinds[*kind as usize].name,
            }),
            Event::Meeple {
                player,
                pos,
                spot,
                on,
            } => json!({
                "game": game, "turn": turn, "event": "meeple", "player": player,
                "x": pos.x, "y": pos.y, "on": word(*on), "segment": segment_of(*spot),
            }),
            Event::Floor {
                player,
                pos,
                kind,
                floors,
            } => json!({
                "game": game, "turn": turn, "event": "floor", "player": player,
                "x": pos.x, "y": pos.y, "kind": ctx.floors[*kind as usize],
                "floors": ctx.floors(floors),
            }),
            Event::Capture {
                player,
                tower,
                floors,
                at,
                spot,
                on,
                owner,
                outcome,
            } => {
                let mut r = json!({
                    "game": game, "turn": turn, "event": "capture", "player": player,
                    "tower": [tower.x, tower.y], "floors": ctx.floors(floors),
                    "at": [at.x, at.y], "on": word(*on), "segment": segment_of(*spot), "owner": owner,
                });
                // Only what the rules changed: a plain capture's record is as it was.
                let changed = match outcome {
                    CaptureOutcome::Home if owner != player => Some("home"),
                    CaptureOutcome::Gone => Some("gone"),
                    _ => None,
                };
                if let (Some(word), Some(map)) = (changed, r.as_object_mut()) {
                    map.insert("outcome".into(), json!(word));
                }
                r
            }
            Event::Exchange { players } => json!({
                "game": game, "turn": turn, "event": "exchange", "players": players,
            }),
            Event::Ransom {
                player,
                to,
                cost,
                scores,
            } => json!({
                "game": game, "turn": turn, "event": "ransom", "player": player,
                "to": to, "cost": cost, "scores": scores,
            }),
            Event::Score {
                player,
                points,
                feature,
            } => json!({
                "game": game, "turn": turn, "event": "score", "player": player,
                "points": points, "feature": word(MeepleOn::Feature(*feature)),
            }),
            Event::RuleScore {
                player,
                points,
                feature,
            } => json!({
                "game": game, "turn": turn, "event": "score", "player": player,
                "points": points, "feature": feature,
            }),
            Event::End { scores } => json!({
                "game": game, "turn": turn, "event": "end", "scores": scores,
            }),
        };
        out.push(record);
    }
    out
}

/// Append records as JSON Lines.
pub fn write_lines(records: &[Value], out: &mut String) {
    for r in records {
        out.push_str(&r.to_string());
        out.push('\n');
    }
}
