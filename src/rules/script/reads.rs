//! What a hook can read, and what each read gives now.
//!
//! A hook is a pure function of what it reads. Every accessor a script can
//! reach (a tower's height, a meeple's place, its feature, the board, the
//! fields of `game()`) is one [`Read`]; its value comes from the facts of the
//! question being asked ([`Facts`]) through [`ScriptRules::value`], the one
//! place a read is given its value — while a script runs (the accessor) and
//! when a kept answer is looked up (the memo, `super::memo`) alike. What a
//! call read, in order, with each value, is its trace (`super::record`);
//! how long an answer holds for the kernel is derived from it here
//! ([`holds`]).

use crate::kernel::effects::{Moment, StateAt};
use crate::kernel::features::FeatureId;
use crate::kernel::game::completed_cities_touching;
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::MeepleSpot;
use crate::kernel::rules::TowerNow;
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{Board, FloorKind, Holds, MeepleView, Table};

use super::ScriptRules;
use super::moment::{EventField, Tally, on_code};
use crate::kernel::geometry::NO_CELL;

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
            Read::Tally(t, _) => t.name(),
            Read::LastTower => "game().last_tower",
            Read::InRange(..) => "game().in_range(x, y)",
            Read::Towers => "game().towers",
            Read::TableFloors(_) => "game().table_floors(kind)",
            Read::State(..) => "state(name)",
            Read::Event(f) => f.name(),
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

/// Who the question is about, beyond whose turn it is.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Roles {
    /// In `ransom`: who pays.
    pub(super) payer: Option<usize>,
    /// Who placed the floor (`may_capture`, `captured`), who holds the
    /// meeple (`ransom`).
    pub(super) captor: Option<usize>,
    /// In `may_place_floor` and `may_top`: the seat that would act.
    pub(super) actor: Option<usize>,
}

/// What a question's reads are answered from. A part a hook cannot read is
/// `None`.
#[derive(Clone, Copy, Default)]
pub(super) struct Facts<'a> {
    /// The tower's floors and whether a meeple tops them.
    pub(super) stack: Option<(&'a [FloorKind], bool)>,
    /// Where the tower stands.
    pub(super) tower: Option<Pos>,
    /// Whose meeple tops it (`Some(None)`: nobody's).
    pub(super) owner: Option<Option<usize>>,
    /// The meeple asked about, and the cell its `dx`/`dy` are measured from.
    pub(super) meeple: Option<(MeepleView, Pos)>,
    /// The game at the moment asked.
    pub(super) table: Option<Table<'a>>,
    pub(super) roles: Roles,
    /// What happened, for an event hook.
    pub(super) moment: Option<Moment>,
    /// Every tower, for event hooks and `meeple_strength` (`game().towers`,
    /// `game().in_range`): given when a kept answer is looked up; a running
    /// hook reads them from the copy held for it (`ScriptRules::towers_now`).
    pub(super) towers: Option<&'a [TowerNow<'a>]>,
    /// The feature being scored (its root), for `feature_points`.
    pub(super) feature: Option<FeatureId>,
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

impl ScriptRules {
    /// The value `read` gives for a question with `facts`; `None` when the
    /// question has no such thing (or it cannot be told without running a
    /// hook: the range of a stack not yet asked).
    pub(super) fn value(&self, facts: &Facts, read: Read) -> Option<i64> {
        let seat = |s: u8| s as usize;
        let table = || facts.table.as_ref();
        let scores = || table().map(|t| t.scores);
        Some(match read {
            Read::Height => facts.stack?.0.len() as i64,
            Read::Top => facts.stack?.0.last().map_or(-1, |&k| k as i64),
            Read::HasMeeple => facts.stack?.1 as i64,
            Read::Count(kind) => facts.stack?.0.iter().filter(|&&k| k == kind).count() as i64,
            Read::Floors => packed_stack(facts.stack?.0)?,
            Read::TowerX => facts.tower?.x as i64,
            Read::TowerY => facts.tower?.y as i64,
            Read::TowerOwner => facts.owner?.map_or(-1, |o| o as i64),
            Read::MeepleOwner => facts.meeple?.0.owner as i64,
            Read::MeepleOn => on_code(facts.meeple?.0.on),
            Read::MeepleX => facts.meeple?.0.pos.x as i64,
            Read::MeepleY => facts.meeple?.0.pos.y as i64,
            Read::MeepleDx => {
                let (m, from) = facts.meeple?;
                (m.pos.x - from.x) as i64
            }
            Read::MeepleDy => {
                let (m, from) = facts.meeple?;
                (m.pos.y - from.y) as i64
            }
            Read::Feature => feature_of(facts).is_some() as i64,
            Read::FeatureKind => {
                let (t, root) = feature_of(facts)?;
                t.features?.kind(root) as i64
            }
            Read::FeatureTiles | Read::FeatureComplete => {
                let (t, root) = feature_of(facts)?;
                let e = t.features?.extent(t.board, root, &mut Vec::new());
                match read {
                    Read::FeatureTiles => e.tiles as i64,
                    _ => e.complete as i64,
                }
            }
            Read::FeaturePennants => {
                let (t, root) = feature_of(facts)?;
                t.features?.pennants(root) as i64
            }
            Read::FeatureMeeples(s) => meeples_on(*table()?, feature_of(facts)?.1, seat(s))?,
            Read::FeatureCities => {
                let (t, root) = feature_of(facts)?;
                cities(t, root)?
            }
            Read::FeatureAt(aspect, x, y, s) => {
                let t = *table()?;
                let root = root_at(t, Pos::new(x, y), s);
                match (aspect, root) {
                    (Aspect::Exists, root) => root.is_some() as i64,
                    (_, None) => return None,
                    (Aspect::Kind, Some(r)) => t.features?.kind(r) as i64,
                    (Aspect::Tiles | Aspect::Complete, Some(r)) => {
                        let e = t.features?.extent(t.board, r, &mut Vec::new());
                        match aspect {
                            Aspect::Tiles => e.tiles as i64,
                            _ => e.complete as i64,
                        }
                    }
                    (Aspect::Pennants, Some(r)) => t.features?.pennants(r) as i64,
                    (Aspect::Meeples(s), Some(r)) => meeples_on(t, r, seat(s))?,
                    (Aspect::Cities, Some(r)) => cities(t, r)?,
                }
            }
            Read::HasTile(x, y) => table()?.board.has_tile(Pos::new(x, y)) as i64,
            Read::RangeSteps(dx, dy) => {
                let (floors, topped) = facts.stack?;
                let range = self.known_range(floors, topped)?;
                let board = table()?.board;
                self.range_steps(board, facts.tower?, &range, (dx, dy))
            }
            Read::TowerInRange(x, y) => {
                let (floors, topped) = facts.stack?;
                let range = self.known_range(floors, topped)?;
                in_range_of(&range, facts.tower?, Pos::new(x, y)) as i64
            }
            Read::TileInRange => {
                let (floors, topped) = facts.stack?;
                let tower = facts.tower?;
                match table()?.history.tile {
                    None => -1,
                    Some(tile) => {
                        let range = self.known_range(floors, topped)?;
                        in_range_of(&range, tower, tile.pos) as i64
                    }
                }
            }
            Read::Players => scores()?.len() as i64,
            Read::Current => table()?.current as i64,
            Read::Turn => table()?.turn as i64,
            Read::TilesLeft => table()?.tiles_left as i64,
            Read::Score(s) => *scores()?.get(seat(s))? as i64,
            Read::Leader => the_one(scores()?, |a, b| a > b),
            Read::Last => the_one(scores()?, |a, b| a < b),
            Read::Rank(s) => {
                let scores = scores()?;
                let mine = *scores.get(seat(s))?;
                1 + scores.iter().filter(|&&x| x > mine).count() as i64
            }
            Read::Ahead(a, b) => {
                let scores = scores()?;
                (scores.get(seat(a))? > scores.get(seat(b))?) as i64
            }
            Read::Prisoners(c, o) => {
                let t = table()?;
                let n = t.players();
                if seat(c) >= n || seat(o) >= n {
                    return None;
                }
                t.prisoners_of(seat(c), seat(o)) as i64
            }
            Read::Held(c) => {
                let t = table()?;
                let n = t.players();
                if seat(c) >= n {
                    return None;
                }
                (0..n).map(|o| t.prisoners_of(seat(c), o) as i64).sum()
            }
            Read::Supply(s) => *table()?.supply.get(seat(s))? as i64,
            Read::Payer => facts.roles.payer? as i64,
            Read::Captor => facts.roles.captor? as i64,
            Read::Actor => facts.roles.actor? as i64,
            Read::TileKind => table()?.history.tile.map_or(-1, |t| t.kind as i64),
            Read::TileX => table()?.history.tile?.pos.x as i64,
            Read::TileY => table()?.history.tile?.pos.y as i64,
            Read::TileRot => table()?.history.tile?.rot as i64 * 90,
            Read::TileFoundation => table()?.history.tile?.foundation as i64,
            Read::Tally(t, s) => t.of(table()?.history.tallies.get(seat(s))?) as i64,
            Read::LastTower => table()?.history.last_tower.map_or(NO_CELL, Pos::packed),
            Read::InRange(x, y) => self.kept_in_range(facts.towers?, Pos::new(x, y))?,
            Read::Towers => self.towers_read(facts.towers?),
            Read::TableFloors(k) => *table()?.table_floors.get(k as usize)? as i64,
            Read::State(var, at) => table()?.state.get(var, at)?,
            Read::Event(f) => f.value(facts.moment.as_ref()?, table().and_then(|t| t.tiles))?,
        })
    }
}

/// The seat whose score beats every other's by `better`; -1 when none does
/// (a tie, or no seats).
fn the_one(scores: &[u32], better: impl Fn(u32, u32) -> bool) -> i64 {
    let Some(best) = scores
        .iter()
        .enumerate()
        .reduce(|a, b| if better(*b.1, *a.1) { b } else { a })
    else {
        return -1;
    };
    let tied = scores
        .iter()
        .enumerate()
        .any(|(i, &s)| i != best.0 && !better(*best.1, s));
    if tied { -1 } else { best.0 as i64 }
}

/// Meeples of `seat` on the feature of `root`.
fn meeples_on(t: Table, root: FeatureId, seat: usize) -> Option<i64> {
    let features = t.features?;
    Some(
        t.meeples
            .iter()
            .filter(|m| {
                m.owner as usize == seat
                    && segment_root(t.board, features, m.pos, m.spot) == Some(root)
            })
            .count() as i64,
    )
}

/// The completed cities the feature of `root` borders, when it is a field
/// (G8); 0 for any other.
fn cities(t: Table, root: FeatureId) -> Option<i64> {
    let features = t.features?;
    if features.kind(root) != SegmentKind::Field {
        return Some(0);
    }
    Some(completed_cities_touching(features, t.board, t.tiles?, root) as i64)
}

/// The feature of segment `segment` of the tile at `pos`, if there is one.
pub(super) fn root_at(t: Table, pos: Pos, segment: u8) -> Option<FeatureId> {
    let features = t.features?;
    let index = t.board.tile_index(pos)?;
    let id = t.board.tiles()[index].first_segment + segment as u32;
    let is_its = (id as usize) < features.len() && features.place_of(id).0 == index;
    is_its.then(|| features.root(id))
}

/// The question's feature (the one scored, or the meeple's), if it has one.
pub(super) fn question_feature(facts: &Facts) -> Option<FeatureId> {
    feature_of(facts).map(|(_, root)| root)
}

/// The cells of the feature of `root` (with `segments`: its segments),
/// each once, as a script sees them: `[x, y]` (`[x, y, segment]`).
pub(super) fn feature_parts(t: Table, root: FeatureId, segments: bool) -> rhai::Array {
    use rhai::Dynamic;
    let Some(features) = t.features else {
        return rhai::Array::new();
    };
    let mut seen = rustc_hash::FxHashSet::default();
    let mut out = rhai::Array::new();
    for id in features.members(root) {
        let (tile, s) = features.place_of(id);
        let pos = t.board.tiles()[tile].pos;
        let mut part = vec![Dynamic::from(pos.x as i64), Dynamic::from(pos.y as i64)];
        if segments {
            part.push(Dynamic::from(s as i64));
        } else if !seen.insert(pos) {
            continue;
        }
        out.push(Dynamic::from(part));
    }
    out
}

/// The table and the feature the question's meeple stands on, when it
/// stands on one of a game's features.
fn feature_of<'a>(facts: &Facts<'a>) -> Option<(Table<'a>, FeatureId)> {
    let table = facts.table?;
    if let Some(root) = facts.feature {
        return Some((table, root));
    }
    let (m, _) = facts.meeple?;
    let root = segment_root(table.board, table.features?, m.pos, m.spot)?;
    Some((table, root))
}

fn segment_root(
    board: &Board,
    features: &crate::kernel::features::Features,
    pos: Pos,
    spot: MeepleSpot,
) -> Option<FeatureId> {
    let MeepleSpot::Segment(s) = spot else {
        return None;
    };
    let tile = board.tile_at(pos)?;
    Some(features.root(tile.first_segment + s as u32))
}

/// Does a range (`range`, offsets from the tower) of a tower at `tower`
/// hold `cell`?
pub(super) fn in_range_of(range: &[(i32, i32)], tower: Pos, cell: Pos) -> bool {
    range.contains(&(cell.x - tower.x, cell.y - tower.y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leader_and_the_last_are_single_seats_and_a_tie_is_none() {
        assert_eq!(the_one(&[3, 9, 4], |a, b| a > b), 1);
        assert_eq!(the_one(&[9, 9, 4], |a, b| a > b), -1);
        assert_eq!(the_one(&[3, 9, 4], |a, b| a < b), 0);
        assert_eq!(the_one(&[3, 3, 4], |a, b| a < b), -1);
        assert_eq!(the_one(&[0, 0], |a, b| a > b), -1);
        assert_eq!(the_one(&[], |a, b| a > b), -1);
    }

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
