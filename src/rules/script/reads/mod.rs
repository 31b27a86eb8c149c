//! What a hook can read, and what each read gives now.
//!
//! A hook is a pure function of what it reads. Every accessor a script can
//! reach (a tower's height, a meeple's place, its feature, the board, the
//! fields of `game()`) is one [`Read`]; its value comes from the facts of the
//! question being asked ([`Facts`]) through `ScriptRules::value` (`value.rs`), the one
//! place a read is given its value — while a script runs (the accessor) and
//! when a kept answer is looked up (the memo, `super::memo`) alike. What a
//! call read, in order, with each value, is its trace (`super::record`);
//! how long an answer holds for the kernel is derived from it here
//! ([`holds`]).

use crate::kernel::effects::StateAt;
use crate::kernel::{FloorKind, Holds};

use super::moment::{EventField, Tally};

mod facts;
mod features;
mod value;

pub(super) use facts::{Facts, Roles};
pub(super) use features::{feature_parts, in_range_of, question_feature, root_at};

/// One thing a hook call read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Read {
    // The tower's floor stack.
    /// `tower.height`.
    Height,
    /// The top floor's kind (-1 for none): `tower.top`.
    Top,
    /// `tower.has_meeple`.
    HasMeeple,
    /// `tower.count(kind)`.
    Count(FloorKind),
    /// The whole stack, packed into a number (see [`packed_stack`]):
    /// `tower.floors`, or a helper asked about the tower.
    Floors,
    // Where the tower stands and whose meeple tops it.
    TowerX,
    TowerY,
    /// Whose meeple tops the tower; -1 for none.
    TowerOwner,
    // The meeple asked about.
    MeepleOwner,
    /// What it stands on (see [`on_code`]).
    MeepleOn,
    MeepleX,
    MeepleY,
    MeepleDx,
    MeepleDy,
    // The feature the meeple stands on.
    /// 1 when it stands on one, 0 on a tower or a made-up board.
    Feature,
    FeatureKind,
    FeatureTiles,
    FeatureComplete,
    FeaturePennants,
    /// Meeples of a seat on it.
    FeatureMeeples(u8),
    /// The completed cities a field borders (G8); 0 for other kinds.
    FeatureCities,
    /// A fact of the feature at a cell and segment: `game().feature(x, y,
    /// segment)`, `event.feature`.
    FeatureAt(Aspect, i32, i32, u8),
    // The board.
    HasTile(i32, i32),
    /// `board.range_steps(tower, dx, dy)` for the tower asked about.
    RangeSteps(i32, i32),
    /// `tower.in_range(x, y)`: does the range of the tower asked about
    /// hold the cell (1) or not (0)?
    TowerInRange(i32, i32),
    /// `tower.tile_in_range`: does the range of the tower asked about hold
    /// the turn's tile (1), not (0), or is none placed (-1)?
    TileInRange,
    // `game()`.
    Players,
    Current,
    Turn,
    TilesLeft,
    Score(u8),
    /// The seat with the one highest score; -1 on a tie.
    Leader,
    /// The seat with the one lowest score; -1 on a tie.
    Last,
    /// 1 + the seats with a higher score.
    Rank(u8),
    /// Is the first seat's score higher than the second's (1 or 0)?
    Ahead(u8, u8),
    Prisoners(u8, u8),
    Held(u8),
    /// A seat's meeples in supply.
    Supply(u8),
    Payer,
    Captor,
    Actor,
    // The turn and the past.
    /// The kind of the tile placed this turn (its index); -1 before it is
    /// placed.
    TileKind,
    TileX,
    TileY,
    /// Its rotation in degrees.
    TileRot,
    /// 1 when it has a foundation.
    TileFoundation,
    /// A fact of the tile placed at a cell: `game().tile_at(x, y)`.
    TileAt(TileAspect, i32, i32),
    /// A seat's tally ([`Tally`]).
    Tally(Tally, u8),
    /// Floors of a kind the table holds.
    TableFloors(FloorKind),
    /// Where the tower that took the last floor stands, packed (see
    /// `Pos::packed`); `NO_CELL` for none yet.
    LastTower,
    /// How many towers of at least one floor hold the cell in their range,
    /// as the rules answer it for their stacks: `game().in_range(x, y)`.
    InRange(i32, i32),
    /// Every tower as it stands, `game().towers`: a name for their content
    /// (see `super::towers`), the same exactly when they are.
    Towers,
    // The rules' own state.
    /// A state variable's value at a place.
    State(u16, StateAt),
    /// A field of an event hook's `event`.
    Event(EventField),
    /// Argument `i` of `may_place_tile` (its tile kind, `x`, `y`, `rot`),
    /// read when the script names it: a rule that returns on the tile
    /// alone is kept by the tile alone.
    Placement(u8),
}

/// A feature as a script sees it: the question's (the feature a meeple
/// stands on, or the one being scored) or the one at a cell and segment
/// (`game().feature(x, y, segment)`, `event.feature`). Every field is read
/// through the recorder; its cells and segments, a list of the whole
/// feature, are not kept.
#[derive(Clone, Copy, Debug)]
pub struct FeatureInfo {
    /// Where: a cell and a segment of its tile; `None` for the question's.
    pub(super) at: Option<(i32, i32, u8)>,
}

impl FeatureInfo {
    /// The question's feature.
    pub(super) const ASKED: FeatureInfo = FeatureInfo { at: None };

    /// The read of `aspect` of this feature.
    pub(super) fn read_of(self, aspect: Aspect) -> Read {
        match (self.at, aspect) {
            (Some((x, y, s)), a) => Read::FeatureAt(a, x, y, s),
            (None, Aspect::Kind) => Read::FeatureKind,
            (None, Aspect::Tiles) => Read::FeatureTiles,
            (None, Aspect::Complete) => Read::FeatureComplete,
            (None, Aspect::Pennants) => Read::FeaturePennants,
            (None, Aspect::Meeples(s)) => Read::FeatureMeeples(s),
            (None, Aspect::Cities) => Read::FeatureCities,
            (None, Aspect::Exists) => Read::Feature,
        }
    }
}

/// `may_place_tile`'s arguments, in order ([`Read::Placement`]).
pub(super) const PLACEMENT_ARGS: [&str; 4] = ["tile", "x", "y", "rot"];

/// A tile as a script sees it: the one placed this turn (`game().tile`)
/// or the one at a cell (`game().tile_at(x, y)`). Its kind was read when
/// the script was given it; its name, segments and cloister are its
/// kind's, fixed for the game, so they need no read of their own. Its
/// other fields are read through the recorder.
#[derive(Clone, Copy, Debug)]
pub struct TileInfo {
    /// Where it lies; `None` for the turn's tile.
    pub(super) at: Option<(i32, i32)>,
    /// The index of its kind in the game's tile set.
    pub(super) kind: u16,
}

impl TileInfo {
    /// The read of `aspect` of the tile at `at` (`None`: the turn's).
    pub(super) fn read_at(at: Option<(i32, i32)>, aspect: TileAspect) -> Read {
        match (at, aspect) {
            (Some((x, y)), a) => Read::TileAt(a, x, y),
            (None, TileAspect::Kind) => Read::TileKind,
            (None, TileAspect::Rot) => Read::TileRot,
            (None, TileAspect::Foundation) => Read::TileFoundation,
        }
    }

    /// The read of `aspect` of this tile.
    pub(super) fn read_of(self, aspect: TileAspect) -> Read {
        TileInfo::read_at(self.at, aspect)
    }
}

/// What a read of a placed tile asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum TileAspect {
    /// The index of its kind, -1 where no tile lies; its name and its
    /// segments are its kind's.
    Kind,
    /// Its rotation in degrees.
    Rot,
    /// 1 when it has a foundation.
    Foundation,
}

impl TileAspect {
    /// Its field, as a script writes it after a tile.
    pub(super) fn field(self) -> &'static str {
        match self {
            TileAspect::Kind => "",
            TileAspect::Rot => "rot",
            TileAspect::Foundation => "foundation",
        }
    }
}

/// What a read of a feature at a place asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Aspect {
    /// 1 when a tile there has that segment, else 0.
    Exists,
    Kind,
    Tiles,
    Complete,
    Pennants,
    Meeples(u8),
    Cities,
}

impl Aspect {
    /// Its field, as a script writes it after a feature.
    pub(super) fn field(self) -> &'static str {
        match self {
            Aspect::Exists => "",
            Aspect::Kind => "kind",
            Aspect::Tiles => "tiles",
            Aspect::Complete => "complete",
            Aspect::Pennants => "pennants",
            Aspect::Meeples(_) => "meeples",
            Aspect::Cities => "cities",
        }
    }

    /// Its name after `feature.`.
    pub(super) fn name(self) -> &'static str {
        match self {
            Aspect::Exists => "game().feature(x, y, segment)",
            Aspect::Kind => "feature.kind",
            Aspect::Tiles => "feature.tiles",
            Aspect::Complete => "feature.complete (or .open)",
            Aspect::Pennants => "feature.pennants",
            Aspect::Meeples(_) => "feature.meeples",
            Aspect::Cities => "feature.cities",
        }
    }
}

impl Read {
    /// The read as a script writes it, for messages.
    /// Whether one value in every game says nothing about the rule: the
    /// player count is fixed by the game, and whether a meeple stands on a
    /// feature by what the hook is asked about.
    pub(super) fn fixed_by_question(self) -> bool {
        matches!(self, Read::Players | Read::Feature)
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Read::Height => "tower.height",
            Read::Top => "tower.top",
            Read::HasMeeple => "tower.has_meeple",
            Read::Count(_) => "tower.count(kind)",
            Read::Floors => "tower.floors",
            Read::TowerX => "tower.x",
            Read::TowerY => "tower.y",
            Read::TowerOwner => "tower.meeple_owner",
            Read::MeepleOwner => "meeple.owner",
            Read::MeepleOn => "meeple.on",
            Read::MeepleX => "meeple.x",
            Read::MeepleY => "meeple.y",
            Read::MeepleDx => "meeple.dx",
            Read::MeepleDy => "meeple.dy",
            Read::Feature => "meeple.feature",
            Read::FeatureKind => "meeple.feature.kind",
            Read::FeatureTiles => "meeple.feature.tiles",
            Read::FeatureComplete => "meeple.feature.complete (or .open)",
            Read::FeaturePennants => "meeple.feature.pennants",
            Read::FeatureMeeples(_) => "meeple.feature.meeples",
            Read::FeatureCities => "meeple.feature.cities",
            Read::FeatureAt(aspect, ..) => aspect.name(),
            Read::HasTile(..) => "board.has_tile(x, y)",
            Read::RangeSteps(..) => "board.range_steps(tower, dx, dy)",
            Read::TowerInRange(..) => "tower.in_range(x, y)",
            Read::TileInRange => "tower.tile_in_range",
            Read::Players => "game().players",
            Read::Current => "game().current",
            Read::Turn => "game().turn",
            Read::TilesLeft => "game().tiles_left",
            Read::Score(_) => "game().scores",
            Read::Leader => "game().leader",
            Read::Last => "game().last",
            Read::Rank(_) => "game().rank(seat)",
            Read::Ahead(..) => "game().ahead(a, b)",
            Read::Prisoners(..) => "game().prisoners(captor, owner)",
            Read::Held(_) => "game().held(captor)",
            Read::Supply(_) => "game().meeples_in_supply(seat)",
            Read::Payer => "game().payer",
            Read::Captor => "game().captor",
            Read::Actor => "game().actor",
            Read::TileKind => "game().tile",
            Read::TileX => "game().tile.x",
            Read::TileY => "game().tile.y",
            Read::TileRot => "game().tile.rot",
            Read::TileFoundation => "game().tile.foundation",
            Read::TileAt(TileAspect::Kind, ..) => "game().tile_at(x, y)",
            Read::TileAt(TileAspect::Rot, ..) => "game().tile_at(x, y).rot",
            Read::TileAt(TileAspect::Foundation, ..) => "game().tile_at(x, y).foundation",
            Read::Tally(t, _) => t.name(),
            Read::LastTower => "game().last_tower",
            Read::InRange(..) => "game().in_range(x, y)",
            Read::Towers => "game().towers",
            Read::TableFloors(_) => "game().table_floors(kind)",
            Read::State(..) => "state(name)",
            Read::Event(f) => f.name(),
            Read::Placement(i) => PLACEMENT_ARGS[i as usize % 4],
        }
    }

    /// How long a value of this read stays what it was for the kernel's
    /// per-tower answers: the stack and the top meeple's owner change only
    /// with the tower, the player count never; the seat asking is the
    /// seat's own; the scores and prisoners (and what is derived from them)
    /// change only with the standings; everything else is of the moment.
    fn lasts(self) -> Holds {
        match self {
            Read::Height
            | Read::Top
            | Read::HasMeeple
            | Read::Count(_)
            | Read::Floors
            | Read::TowerOwner
            | Read::Players => Holds::Tower,
            // Where a tower stands never changes, but an answer that read
            // it is not one for every stack alike (`Holds::Tower` answers
            // are kept by the stack alone): it is the tower's, asked of
            // each seat.
            Read::TowerX | Read::TowerY | Read::Actor => Holds::Seat,
            // The rules' state changes only by effects, each a change of
            // the standings.
            Read::Score(_)
            | Read::Leader
            | Read::Last
            | Read::Rank(_)
            | Read::Ahead(..)
            | Read::Prisoners(..)
            | Read::Held(_)
            | Read::State(..) => Holds::Standings,
            _ => Holds::Now,
        }
    }
}

/// How long an answer whose call read `trace` holds: the shortest of its
/// reads' (an answer that read nothing holds for the tower).
pub(super) fn holds(trace: &[(Read, i64)]) -> Holds {
    trace
        .iter()
        .map(|(r, _)| r.lasts())
        .max()
        .unwrap_or(Holds::Tower)
}

/// A stack as one number, for [`Read::Floors`]: the height in the low 4
/// bits, then 5 bits a floor; `None` for a stack of more than 11 floors or
/// a kind past 31 (such a read is not kept).
pub(super) fn packed_stack(floors: &[FloorKind]) -> Option<i64> {
    if floors.len() > 11 {
        return None;
    }
    // One pass: asked thousands of times a game for a bot's ranges.
    let mut packed = floors.len() as i64;
    let mut shift = 4;
    for &k in floors {
        if k >= 32 {
            return None;
        }
        packed |= (k as i64) << shift;
        shift += 5;
    }
    Some(packed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn how_long_an_answer_holds_is_its_shortest_read() {
        assert_eq!(holds(&[]), Holds::Tower);
        assert_eq!(
            holds(&[(Read::Height, 2), (Read::TowerOwner, 1)]),
            Holds::Tower
        );
        assert_eq!(holds(&[(Read::Height, 2), (Read::Actor, 1)]), Holds::Seat);
        assert_eq!(
            holds(&[(Read::Actor, 1), (Read::Rank(1), 2)]),
            Holds::Standings
        );
        assert_eq!(
            holds(&[(Read::Score(0), 4), (Read::Turn, 9), (Read::Height, 1)]),
            Holds::Now
        );
    }

    #[test]
    fn stacks_pack_into_numbers_of_their_own() {
        let mut seen = std::collections::HashSet::new();
        for stack in [
            vec![],
            vec![0],
            vec![0, 0],
            vec![1, 0],
            vec![0, 1],
            vec![31; 11],
        ] {
            assert!(seen.insert(packed_stack(&stack).unwrap()), "{stack:?}");
        }
        assert_eq!(packed_stack(&[0; 12]), None);
        assert_eq!(packed_stack(&[32]), None);
    }
}
