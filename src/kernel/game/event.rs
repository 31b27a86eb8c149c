//! What happened in a game, event by event, and its JSON form: the one
//! definition of each event's fields, for the game's own record (tile kinds
//! and floor kinds as numbers) and for a log's (the same events with them
//! named, `Event<String, String>`), whose format `docs/log.md` documents.
//!
//! The JSON form is a record's event part: `{"event":"tile","player":0,…}`,
//! fields in the order docs/log.md lists them. Positions are written `x`, `y`
//! on a tile, meeple or floor, and as `[x, y]` pairs for a capture's
//! `tower` and `at`; rotations in degrees; a meeple's spot as its `segment`
//! (`null` on a tower); kinds by their words (`on`, `feature`, `outcome`).

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

use crate::kernel::geometry::Pos;
use crate::kernel::pieces::{MeepleOn, MeepleSpot};
use crate::kernel::rules::{CaptureOutcome, FloorKind};
use crate::kernel::tiles::SegmentKind;

/// Something that happened, for logs and tests. `T` names tile kinds and
/// `F` floor kinds: a game records indices into its tile set and its rules'
/// floor kinds; [`Event::map_names`] gives the same event with other names
/// (a log's: `set/name` and the floor's name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Event<T = u16, F = FloorKind> {
    Tile {
        player: usize,
        #[serde(rename = "tile")]
        kind: T,
        #[serde(flatten)]
        pos: Pos,
        /// Quarter turns clockwise (written in degrees).
        #[serde(with = "degrees")]
        rot: u8,
    },
    Discard {
        #[serde(rename = "tile")]
        kind: T,
    },
    Meeple {
        player: usize,
        #[serde(flatten)]
        pos: Pos,
        on: MeepleOn,
        #[serde(rename = "segment", with = "segment", default = "segment::absent")]
        spot: MeepleSpot,
    },
    Floor {
        player: usize,
        #[serde(flatten)]
        pos: Pos,
        kind: F,
        /// The tower's stack after, bottom to top.
        floors: Vec<F>,
        /// The floor came from the table's stock.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        table: bool,
    },
    Capture {
        player: usize,
        #[serde(with = "pair")]
        tower: Pos,
        floors: Vec<F>,
        #[serde(with = "pair")]
        at: Pos,
        on: MeepleOn,
        #[serde(rename = "segment", with = "segment", default = "segment::absent")]
        spot: MeepleSpot,
        owner: usize,
        /// What became of an opponent's meeple when the rules made it other
        /// than a prisoner (T5); `None` for a prisoner, and for the captor's
        /// own meeple, which always goes home.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<CaptureOutcome>,
    },
    Exchange {
        players: [usize; 2],
    },
    Ransom {
        player: usize,
        to: usize,
        cost: u32,
        /// Everyone's, after.
        scores: Vec<u32>,
    },
    /// Points for a feature (G4–G8), or the points the rules gave or took
    /// at the end of the game (negative only then).
    Score {
        player: usize,
        points: i64,
        feature: Scored,
        /// The rule (pack) whose effect gave the points, for points given
        /// during the game by a rule's effect.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
    },
    /// The end-game scoring begins (G4–G8): the `score` events after it
    /// are for unfinished features, fields and the rules' own end scores.
    #[serde(rename = "final_scoring")]
    FinalScoring,
    End {
        scores: Vec<u32>,
    },
    /// A rule's effect put a floor on a tower: from the box, or from a
    /// seat's supply (`from`).
    #[serde(rename = "floor_added")]
    FloorAdded {
        rule: String,
        #[serde(flatten)]
        pos: Pos,
        kind: F,
        /// The tower's stack after, bottom to top.
        floors: Vec<F>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<usize>,
        /// The floor came from the table's stock.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        table: bool,
    },
    /// A rule's effect took a tower's top floor back into the box.
    #[serde(rename = "floor_removed")]
    FloorRemoved {
        rule: String,
        #[serde(flatten)]
        pos: Pos,
        kind: F,
        /// The tower's stack after.
        floors: Vec<F>,
    },
    /// A rule's effect sent a meeple back to its owner's supply.
    #[serde(rename = "sent_home")]
    SentHome {
        rule: String,
        #[serde(flatten)]
        pos: Pos,
        on: MeepleOn,
        #[serde(rename = "segment", with = "segment", default = "segment::absent")]
        spot: MeepleSpot,
        owner: usize,
    },
    /// A rule's effect set a value of its state: the game's, a seat's
    /// (`seat`) or a cell's (`at`, where a tower's stands).
    State {
        rule: String,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<usize>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<[i32; 2]>,
        value: StateValue,
    },
    /// A rule's effect blocked a tower (no floor, no meeple on top) or
    /// unblocked it.
    Blocked {
        rule: String,
        #[serde(flatten)]
        pos: Pos,
        blocked: bool,
    },
    /// A rule's effect made a meeple `captor`'s prisoner.
    Imprisoned {
        rule: String,
        #[serde(flatten)]
        pos: Pos,
        on: MeepleOn,
        #[serde(rename = "segment", with = "segment", default = "segment::absent")]
        spot: MeepleSpot,
        owner: usize,
        captor: usize,
    },
    /// A rule's effect put a meeple of `owner`'s supply on a segment of the
    /// tile at `pos` (`place_meeple`).
    Placed {
        rule: String,
        #[serde(flatten)]
        pos: Pos,
        on: MeepleOn,
        #[serde(rename = "segment", with = "segment", default = "segment::absent")]
        spot: MeepleSpot,
        owner: usize,
    },
    /// A rule's effect put a meeple of `owner`'s supply on top of the tower
    /// at `pos`.
    Topped {
        rule: String,
        #[serde(flatten)]
        pos: Pos,
        owner: usize,
    },
    /// A rule's effect put a neutral figure on a cell (`at`), or took it
    /// off the board (`at` absent).
    Figure {
        rule: String,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<[i32; 2]>,
    },
    /// A rule made a meeple count for `strength` (not 1) in the majority
    /// of the feature it stands on, as the feature is scored.
    Strength {
        rule: String,
        #[serde(flatten)]
        pos: Pos,
        #[serde(rename = "segment", with = "segment", default = "segment::absent")]
        spot: MeepleSpot,
        owner: usize,
        strength: u32,
    },
}

/// What a score is for, written as its name.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "String", from = "String")]
pub enum Scored {
    /// A road, city, cloister or field (G4–G8).
    Feature(SegmentKind),
    /// An end-of-game score the rules gave, by the name they gave it.
    Rule(String),
}

impl Scored {
    /// `road`, `city`, … or the rules' name: the word a log writes.
    pub fn name(&self) -> &str {
        match self {
            Scored::Feature(kind) => kind.name(),
            Scored::Rule(name) => name,
        }
    }
}

/// Two scores are for the same thing when they have the same name: a rule
/// may name its score as a feature is named, and a log (which writes names)
/// reads it back as the feature.
impl PartialEq for Scored {
    fn eq(&self, other: &Scored) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Scored {}

impl From<Scored> for String {
    fn from(scored: Scored) -> String {
        scored.name().to_string()
    }
}

/// A feature's word is the feature; any other word, a rule's score.
impl From<String> for Scored {
    fn from(name: String) -> Scored {
        SegmentKind::named(&name).map_or(Scored::Rule(name), Scored::Feature)
    }
}

impl<T, F> Event<T, F> {
    /// The same event with its tile kind named by `tile` and its floor
    /// kinds by `floor`; every other field as it is.
    pub fn map_names<U, G>(&self, tile: impl Fn(&T) -> U, floor: impl Fn(&F) -> G) -> Event<U, G> {
        let stack = |floors: &[F]| floors.iter().map(&floor).collect();
        match self {
            Event::Tile {
                player,
                kind,
                pos,
                rot,
            } => Event::Tile {
                player: *player,
                kind: tile(kind),
                pos: *pos,
                rot: *rot,
            },
            Event::Discard { kind } => Event::Discard { kind: tile(kind) },
            Event::Meeple {
                player,
                pos,
                on,
                spot,
            } => Event::Meeple {
                player: *player,
                pos: *pos,
                on: *on,
                spot: *spot,
            },
            Event::Floor {
                player,
                pos,
                kind,
                floors,
                table,
            } => Event::Floor {
                player: *player,
                pos: *pos,
                kind: floor(kind),
                floors: stack(floors),
                table: *table,
            },
            Event::Capture {
                player,
                tower,
                floors,
                at,
                on,
                spot,
                owner,
                outcome,
            } => Event::Capture {
                player: *player,
                tower: *tower,
                floors: stack(floors),
                at: *at,
                on: *on,
                spot: *spot,
                owner: *owner,
                outcome: *outcome,
            },
            Event::Exchange { players } => Event::Exchange { players: *players },
            Event::Ransom {
                player,
                to,
                cost,
                scores,
            } => Event::Ransom {
                player: *player,
                to: *to,
                cost: *cost,
                scores: scores.clone(),
            },
            Event::Score {
                player,
                points,
                feature,
                rule,
            } => Event::Score {
                player: *player,
                points: *points,
                feature: feature.clone(),
                rule: rule.clone(),
            },
            Event::FinalScoring => Event::FinalScoring,
            Event::End { scores } => Event::End {
                scores: scores.clone(),
            },
            Event::FloorAdded {
                rule,
                pos,
                kind,
                floors,
                from,
                table,
            } => Event::FloorAdded {
                rule: rule.clone(),
                pos: *pos,
                kind: floor(kind),
                floors: stack(floors),
                from: *from,
                table: *table,
            },
            Event::FloorRemoved {
                rule,
                pos,
                kind,
                floors,
            } => Event::FloorRemoved {
                rule: rule.clone(),
                pos: *pos,
                kind: floor(kind),
                floors: stack(floors),
            },
            Event::SentHome {
                rule,
                pos,
                on,
                spot,
                owner,
            } => Event::SentHome {
                rule: rule.clone(),
                pos: *pos,
                on: *on,
                spot: *spot,
                owner: *owner,
            },
            Event::State {
                rule,
                name,
                seat,
                at,
                value,
            } => Event::State {
                rule: rule.clone(),
                name: name.clone(),
                seat: *seat,
                at: *at,
                value: *value,
            },
            Event::Blocked { rule, pos, blocked } => Event::Blocked {
                rule: rule.clone(),
                pos: *pos,
                blocked: *blocked,
            },
            Event::Imprisoned {
                rule,
                pos,
                on,
                spot,
                owner,
                captor,
            } => Event::Imprisoned {
                rule: rule.clone(),
                pos: *pos,
                on: *on,
                spot: *spot,
                owner: *owner,
                captor: *captor,
            },
            Event::Placed {
                rule,
                pos,
                on,
                spot,
                owner,
            } => Event::Placed {
                rule: rule.clone(),
                pos: *pos,
                on: *on,
                spot: *spot,
                owner: *owner,
            },
            Event::Topped { rule, pos, owner } => Event::Topped {
                rule: rule.clone(),
                pos: *pos,
                owner: *owner,
            },
            Event::Figure { rule, name, at } => Event::Figure {
                rule: rule.clone(),
                name: name.clone(),
                at: *at,
            },
            Event::Strength {
                rule,
                pos,
                spot,
                owner,
                strength,
            } => Event::Strength {
                rule: rule.clone(),
                pos: *pos,
                spot: *spot,
                owner: *owner,
                strength: *strength,
            },
        }
    }
}

/// A rotation in quarter turns, written in degrees: 0, 90, 180 or 270.
mod degrees {
    use super::*;

    pub fn serialize<S: Serializer>(quarters: &u8, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(u32::from(*quarters) * 90)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        let degrees = u32::deserialize(d)?;
        match degrees {
            0 | 90 | 180 | 270 => Ok((degrees / 90) as u8),
            _ => Err(de::Error::invalid_value(
                de::Unexpected::Unsigned(degrees.into()),
                &"0, 90, 180 or 270 (degrees clockwise)",
            )),
        }
    }
}

/// A meeple's spot as its `segment`: the segment's number, `null` on a
/// tower (and when absent, as in a hand-written record).
mod segment {
    use super::*;

    pub fn serialize<S: Serializer>(spot: &MeepleSpot, s: S) -> Result<S::Ok, S::Error> {
        match spot {
            MeepleSpot::Segment(n) => s.serialize_some(n),
            MeepleSpot::Tower => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<MeepleSpot, D::Error> {
        Ok(Option::<u8>::deserialize(d)?.map_or(MeepleSpot::Tower, MeepleSpot::Segment))
    }

    pub fn absent() -> MeepleSpot {
        MeepleSpot::Tower
    }
}

/// A position as an `[x, y]` pair.
mod pair {
    use super::*;

    pub fn serialize<S: Serializer>(pos: &Pos, s: S) -> Result<S::Ok, S::Error> {
        [pos.x, pos.y].serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Pos, D::Error> {
        let [x, y] = <[i32; 2]>::deserialize(d)?;
        Ok(Pos::new(x, y))
    }
}
/// A state value as the log writes it: a number, or `true`/`false` for a
/// variable of type bool. Read back from either (a log of an earlier
/// version wrote a bool's 1 and 0), and equal by the value alone, so such
/// a log replays.
#[derive(Clone, Copy, Debug, Eq)]
pub struct StateValue {
    pub value: i64,
    /// Written `true` or `false`.
    pub boolean: bool,
}

impl PartialEq for StateValue {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl std::fmt::Display for StateValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.boolean {
            write!(f, "{}", self.value != 0)
        } else {
            write!(f, "{}", self.value)
        }
    }
}

impl Serialize for StateValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.boolean {
            s.serialize_bool(self.value != 0)
        } else {
            s.serialize_i64(self.value)
        }
    }
}

impl<'de> Deserialize<'de> for StateValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Number(i64),
            Flag(bool),
        }
        Ok(match Written::deserialize(d)? {
            Written::Number(value) => StateValue {
                value,
                boolean: false,
            },
            Written::Flag(b) => StateValue {
                value: b as i64,
                boolean: true,
            },
        })
    }
}
