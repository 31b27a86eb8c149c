//! The game's features as reads see them: the feature at a cell and
//! segment, the question's feature, a feature's cells, and whether a range
//! holds a cell.

use crate::kernel::Board;
use crate::kernel::Table;
use crate::kernel::features::FeatureId;
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::MeepleSpot;

use super::facts::Facts;

/// The feature of segment `segment` of the tile at `pos`, if there is one.
pub(in crate::rules::script) fn root_at(t: Table, pos: Pos, segment: u8) -> Option<FeatureId> {
    let features = t.features?;
    let index = t.board.tile_index(pos)?;
    let id = t.board.tiles()[index].first_segment + segment as u32;
    let is_its = (id as usize) < features.len() && features.place_of(id).0 == index;
    is_its.then(|| features.root(id))
}

/// The question's feature (the one scored, or the meeple's), if it has one.
pub(in crate::rules::script) fn question_feature(facts: &Facts) -> Option<FeatureId> {
    feature_of(facts).map(|(_, root)| root)
}

/// The cells of the feature of `root` (with `segments`: its segments),
/// each once, as a script sees them: `[x, y]` (`[x, y, segment]`).
pub(in crate::rules::script) fn feature_parts(
    t: Table,
    root: FeatureId,
    segments: bool,
) -> rhai::Array {
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
pub(super) fn feature_of<'a>(facts: &Facts<'a>) -> Option<(Table<'a>, FeatureId)> {
    let table = facts.table?;
    if let Some(root) = facts.feature {
        return Some((table, root));
    }
    let (m, _) = facts.meeple?;
    let root = segment_root(table.board, table.features?, m.pos, m.spot)?;
    Some((table, root))
}

pub(super) fn segment_root(
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
pub(in crate::rules::script) fn in_range_of(range: &[(i32, i32)], tower: Pos, cell: Pos) -> bool {
    range.contains(&(cell.x - tower.x, cell.y - tower.y))
}
