//! What an event hook's `event` and the game's past give a hook: the
//! fields of each moment ([`EventField`]), each seat's tally ([`Tally`]),
//! cells as scripts see them. Each is read
//! through `super::reads` like any other read.

use crate::kernel::CaptureOutcome;
use crate::kernel::effects::{Moment, SeatTally};
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::MeepleOn;
use crate::kernel::tiles::TileSet;

/// A field of what happened, as an event hook's `event` gives it; each
/// moment has some (see [`EventField::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum EventField {
    Seat,
    /// A tile kind's index.
    Tile,
    X,
    Y,
    /// Degrees.
    Rot,
    Foundation,
    /// A feature's kind (its code, see [`on_code`]) or a floor's kind.
    Kind,
    Tiles,
    Pennants,
    Points,
    Scored,
    /// Meeples of a seat on the completed feature.
    Meeples(u8),
    ByRule,
    Height,
    /// What a meeple stands on (see [`on_code`]).
    On,
    Captor,
    Owner,
    MeepleX,
    MeepleY,
    /// A capture's outcome: its index in `CaptureOutcome::ALL`.
    Outcome,
    Payer,
    Cost,
    A,
    B,
    /// The completed feature's segment of its tile at `x`, `y`.
    Segment,
}

impl EventField {
    /// Every field (`Meeples` once, for its name).
    pub(super) const ALL: [EventField; 25] = {
        use EventField::*;
        [
            Seat,
            Tile,
            X,
            Y,
            Rot,
            Foundation,
            Kind,
            Tiles,
            Pennants,
            Points,
            Scored,
            Meeples(0),
            ByRule,
            Height,
            On,
            Captor,
            Owner,
            MeepleX,
            MeepleY,
            Outcome,
            Payer,
            Cost,
            A,
            B,
            Segment,
        ]
    };

    /// The field's name, as a script writes it after `event.`.
    pub(super) fn name(self) -> &'static str {
        match self {
            EventField::Seat => "seat",
            EventField::Tile => "tile",
            EventField::X => "x",
            EventField::Y => "y",
            EventField::Rot => "rot",
            EventField::Foundation => "foundation",
            EventField::Kind => "kind",
            EventField::Tiles => "tiles",
            EventField::Pennants => "pennants",
            EventField::Points => "points",
            EventField::Scored => "scored",
            EventField::Meeples(_) => "meeples",
            EventField::ByRule => "by_rule",
            EventField::Height => "height",
            EventField::On => "on",
            EventField::Captor => "captor",
            EventField::Owner => "owner",
            EventField::MeepleX => "meeple_x",
            EventField::MeepleY => "meeple_y",
            EventField::Outcome => "outcome",
            EventField::Payer => "payer",
            EventField::Cost => "cost",
            EventField::A => "a",
            EventField::B => "b",
            EventField::Segment => "segment",
        }
    }

    /// The fields a moment's event has, in the order docs/packs.md lists
    /// them.
    pub(super) fn of(moment: &Moment) -> &'static [EventField] {
        use EventField::*;
        match moment {
            Moment::TileDrawn { .. } => &[Seat, Tile, Foundation],
            Moment::TilePlaced { .. } => &[Seat, Tile, X, Y, Rot, Foundation],
            Moment::FeatureCompleted { .. } => &[
                Kind,
                X,
                Y,
                Segment,
                Tiles,
                Pennants,
                Points,
                Meeples(0),
                Scored,
            ],
            Moment::FloorBuilt { .. } => &[Seat, ByRule, X, Y, Kind, Height],
            Moment::MeeplePlaced { .. } => &[Seat, X, Y, On],
            Moment::Capture { .. } => &[Captor, Owner, X, Y, MeepleX, MeepleY, On, Outcome],
            Moment::Ransom { .. } => &[Payer, Captor, Cost],
            Moment::Exchange { .. } => &[A, B],
            Moment::TurnEnd { .. } => &[Seat],
            Moment::GameEnd => &[],
        }
    }

    /// The field's value at `moment` (`tiles` for a tile kind's foundation);
    /// `None` where the moment has no such field.
    pub(super) fn value(self, moment: &Moment, tiles: Option<&TileSet>) -> Option<i64> {
        use EventField as F;
        let coord = |p: Pos, f: EventField| match f {
            F::X => Some(p.x as i64),
            _ => Some(p.y as i64),
        };
        let foundation = |tile: u16| {
            let kind = tiles?.kinds.get(tile as usize)?;
            Some(kind.foundation.is_some() as i64)
        };
        match (*moment, self) {
            (Moment::TileDrawn { seat, .. }, F::Seat)
            | (Moment::TilePlaced { seat, .. }, F::Seat)
            | (Moment::MeeplePlaced { seat, .. }, F::Seat)
            | (Moment::TurnEnd { seat }, F::Seat) => Some(seat as i64),
            (Moment::TileDrawn { tile, .. }, F::Tile)
            | (Moment::TilePlaced { tile, .. }, F::Tile) => Some(tile as i64),
            (Moment::TileDrawn { tile, .. }, F::Foundation) => foundation(tile),
            (Moment::TilePlaced { foundation, .. }, F::Foundation) => Some(foundation as i64),
            (Moment::TilePlaced { rot, .. }, F::Rot) => Some(rot as i64 * 90),
            (Moment::TilePlaced { pos, .. }, F::X | F::Y)
            | (Moment::FeatureCompleted { pos, .. }, F::X | F::Y)
            | (Moment::MeeplePlaced { pos, .. }, F::X | F::Y)
            | (Moment::FloorBuilt { tower: pos, .. }, F::X | F::Y)
            | (Moment::Capture { tower: pos, .. }, F::X | F::Y) => coord(pos, self),
            (Moment::FeatureCompleted { kind, .. }, F::Kind) => {
                Some(on_code(MeepleOn::Feature(kind)))
            }
            (Moment::FeatureCompleted { segment, .. }, F::Segment) => Some(segment.into()),
            (Moment::FeatureCompleted { tiles, .. }, F::Tiles) => Some(tiles.into()),
            (Moment::FeatureCompleted { pennants, .. }, F::Pennants) => Some(pennants.into()),
            (Moment::FeatureCompleted { points, .. }, F::Points) => Some(points.into()),
            (Moment::FeatureCompleted { scored, .. }, F::Scored) => Some(scored as i64),
            (Moment::FeatureCompleted { meeples, .. }, F::Meeples(s)) => {
                meeples.get(s as usize).map(|&n| n.into())
            }
            (Moment::FloorBuilt { seat, .. }, F::Seat) => Some(seat.map_or(-1, |s| s as i64)),
            (Moment::FloorBuilt { seat, .. }, F::ByRule) => Some(seat.is_none() as i64),
            (Moment::FloorBuilt { kind, .. }, F::Kind) => Some(kind.into()),
            (Moment::FloorBuilt { height, .. }, F::Height) => Some(height as i64),
            (Moment::MeeplePlaced { on, .. }, F::On) | (Moment::Capture { on, .. }, F::On) => {
                Some(on_code(on))
            }
            (Moment::Capture { captor, .. }, F::Captor)
            | (Moment::Ransom { captor, .. }, F::Captor) => Some(captor as i64),
            (Moment::Capture { owner, .. }, F::Owner) => Some(owner as i64),
            (Moment::Capture { at, .. }, F::MeepleX) => Some(at.x as i64),
            (Moment::Capture { at, .. }, F::MeepleY) => Some(at.y as i64),
            (Moment::Capture { outcome, .. }, F::Outcome) => CaptureOutcome::ALL
                .iter()
                .position(|&o| o == outcome)
                .map(|i| i as i64),
            (Moment::Ransom { payer, .. }, F::Payer) => Some(payer as i64),
            (Moment::Ransom { cost, .. }, F::Cost) => Some(cost.into()),
            (Moment::Exchange { a, .. }, F::A) => Some(a as i64),
            (Moment::Exchange { b, .. }, F::B) => Some(b as i64),
            _ => None,
        }
    }
}

/// What of a seat's past a hook may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Tally {
    Floors,
    Captures,
    RansomsPaid,
    RansomPointsPaid,
    RansomPointsReceived,
}

impl Tally {
    /// Its name as a script calls it on `game()`.
    pub(super) fn name(self) -> &'static str {
        match self {
            Tally::Floors => "floors_built",
            Tally::Captures => "captures",
            Tally::RansomsPaid => "ransoms_paid",
            Tally::RansomPointsPaid => "ransom_points_paid",
            Tally::RansomPointsReceived => "ransom_points_received",
        }
    }

    pub(super) const ALL: [Tally; 5] = [
        Tally::Floors,
        Tally::Captures,
        Tally::RansomsPaid,
        Tally::RansomPointsPaid,
        Tally::RansomPointsReceived,
    ];

    pub(super) fn of(self, t: &SeatTally) -> u32 {
        match self {
            Tally::Floors => t.floors,
            Tally::Captures => t.captures,
            Tally::RansomsPaid => t.ransoms_paid,
            Tally::RansomPointsPaid => t.ransom_points_paid,
            Tally::RansomPointsReceived => t.ransom_points_received,
        }
    }
}

/// What a meeple stands on, as a number.
pub(super) fn on_code(on: MeepleOn) -> i64 {
    match on {
        MeepleOn::Feature(kind) => kind as i64,
        MeepleOn::Tower => -1,
    }
}

/// A packed cell (see [`Pos::packed`]) as a script sees it: `[x, y]`, or
/// `()` for none.
pub(super) fn cell_value(packed: i64) -> rhai::Dynamic {
    match Pos::unpacked(packed) {
        Some(p) => rhai::Dynamic::from(vec![
            rhai::Dynamic::from(p.x as i64),
            rhai::Dynamic::from(p.y as i64),
        ]),
        None => rhai::Dynamic::UNIT,
    }
}
