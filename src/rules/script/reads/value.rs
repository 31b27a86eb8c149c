//! What each read gives now: `ScriptRules::value`, the one place a read is
//! given its value, from the facts of the question being asked.

use std::sync::Arc;

use crate::kernel::features::FeatureId;
use crate::kernel::game::completed_cities_touching;
use crate::kernel::geometry::{NO_CELL, Pos};
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{Board, Table};

use super::super::host::ScriptRules;
use super::super::moment::on_code;
use super::facts::Facts;
use super::features::{feature_of, in_range_of, root_at, segment_root};
use super::{Aspect, Read, TileAspect, packed_stack};

impl ScriptRules {
    /// The value `read` gives for a question with `facts`; `None` when the
    /// question has no such thing (or it cannot be told without running a
    /// hook: the range of a stack not yet asked).
    pub(in crate::rules::script) fn value(&self, facts: &Facts, read: Read) -> Option<i64> {
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
            Read::TileAt(aspect, x, y) => placed_tile(*table()?, aspect, Pos::new(x, y))?,
            Read::Tally(t, s) => t.of(table()?.history.tallies.get(seat(s))?) as i64,
            Read::LastTower => table()?.history.last_tower.map_or(NO_CELL, Pos::packed),
            Read::InRange(x, y) => self.kept_in_range(facts.towers?, Pos::new(x, y))?,
            Read::Towers => self.towers_read(facts.towers?),
            Read::TableFloors(k) => *table()?.table_floors.get(k as usize)? as i64,
            Read::State(var, at) => table()?.state.get(var, at)?,
            Read::Event(f) => f.value(facts.moment.as_ref()?, table().and_then(|t| t.tiles))?,
            Read::Placement(i) => {
                let [x, y, tile] = facts.placement?;
                [tile >> 2, x, y, tile & 3][i as usize % 4]
            }
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

/// The walked paths (`super::super::steps`), asked for a read.
impl ScriptRules {
    /// The fewest steps to `target` from the tower at `origin` with `range`.
    /// A walk the running call sets off is charged to it by the board cells
    /// it looks at, as a bulk native's work is; a walk already kept costs
    /// nothing more.
    pub(in crate::rules::script) fn range_steps(
        &self,
        board: &Board,
        origin: Pos,
        range: &Arc<[(i32, i32)]>,
        target: (i32, i32),
    ) -> i64 {
        let (steps, looked) = {
            let mut memo = self.steps.borrow_mut();
            let before = memo.reads;
            let steps = memo.steps(board, origin, range, target);
            (steps, memo.reads - before)
        };
        self.charge_work(looked as usize);
        steps
    }

    /// Board cells the native helpers have looked at on this thread.
    pub fn board_reads(&self) -> u64 {
        self.steps.borrow().reads
    }
}

/// Fact `aspect` of the tile placed at `pos`: its kind is -1 where none
/// lies, and it has no other fact there.
fn placed_tile(t: Table, aspect: TileAspect, pos: Pos) -> Option<i64> {
    let tile = t.board.tile_at(pos);
    Some(match (aspect, tile) {
        (TileAspect::Kind, None) => -1,
        (_, None) => return None,
        (TileAspect::Kind, Some(tile)) => tile.kind as i64,
        (TileAspect::Rot, Some(tile)) => tile.rot as i64 * 90,
        (TileAspect::Foundation, Some(tile)) => {
            let kind = t.tiles?.kinds.get(tile.kind as usize)?;
            kind.foundation.is_some() as i64
        }
    })
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
}
