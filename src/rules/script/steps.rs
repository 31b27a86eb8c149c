//! Capture paths on a board: how many steps it takes, through cells of a
//! tower's range that hold tiles, from the tower to each of them
//! (`board.range_steps`, `board.path_steps`). One breadth-first walk answers
//! every cell, and its answers are kept per (tower, range) while the board's
//! content stays as it is ([`Board::stamp`]): a capture check reads each cell
//! of the range a bounded number of times, however many meeples it asks about.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::kernel::Board;
use crate::kernel::geometry::Pos;

/// A step goes to one of the 8 neighbours; a diagonal one only where neither
/// corner cell between is in the range.
const STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The fewest steps from `origin` to `origin + c` for every cell `c` of
/// `cells` (offsets) that a path reaches; a path goes through cells of
/// `cells` that hold a tile, the tower's own included. `reads` counts the
/// board cells looked at.
pub(super) fn distances(
    board: &Board,
    origin: Pos,
    cells: &[(i32, i32)],
    reads: &mut u64,
) -> FxHashMap<(i32, i32), i64> {
    // A set, so that each step's test is constant time: the walk is linear
    // in the cells.
    let mut inside: FxHashSet<(i32, i32)> =
        FxHashSet::with_capacity_and_hasher(cells.len(), Default::default());
    inside.extend(cells.iter().copied());
    let mut usable = |c: (i32, i32)| {
        inside.contains(&c) && {
            *reads += 1;
            board.has_tile(origin.offset(c.0, c.1))
        }
    };
    let mut dist: FxHashMap<(i32, i32), i64> =
        FxHashMap::with_capacity_and_hasher(cells.len(), Default::default());
    if !usable((0, 0)) {
        return dist;
    }
    let mut queue = std::collections::VecDeque::new();
    dist.insert((0, 0), 0);
    queue.push_back(((0, 0), 0));
    while let Some((c, d)) = queue.pop_front() {
        for (sx, sy) in STEPS {
            let next = (c.0 + sx, c.1 + sy);
            let diagonal = sx != 0 && sy != 0;
            if diagonal && (inside.contains(&(c.0 + sx, c.1)) || inside.contains(&(c.0, c.1 + sy)))
            {
                continue;
            }
            if !dist.contains_key(&next) && usable(next) {
                dist.insert(next, d + 1);
                queue.push_back((next, d + 1));
            }
        }
    }
    dist
}

/// The walks of one board content, per (tower, range).
#[derive(Default)]
pub(super) struct StepsMemo {
    /// The [`Board::stamp`] the walks were made on.
    stamp: u64,
    /// Keyed by the tower and the range's address; the entry holds the range,
    /// so the address is not reused while it is kept.
    walks: FxHashMap<(Pos, usize), Walk>,
    /// Board cells looked at, over the thread's life.
    pub(super) reads: u64,
}

struct Walk {
    _range: Arc<[(i32, i32)]>,
    steps: FxHashMap<(i32, i32), i64>,
}

impl StepsMemo {
    /// The fewest steps from the tower at `origin` to `origin + target`
    /// through cells of `range` holding tiles; `-1` when no path reaches it.
    pub(super) fn steps(
        &mut self,
        board: &Board,
        origin: Pos,
        range: &Arc<[(i32, i32)]>,
        target: (i32, i32),
    ) -> i64 {
        if self.stamp != board.stamp() {
            self.walks.clear();
            self.stamp = board.stamp();
        }
        let key = (origin, Arc::as_ptr(range) as *const () as usize);
        let reads = &mut self.reads;
        let walk = self.walks.entry(key).or_insert_with(|| Walk {
            _range: range.clone(),
            steps: distances(board, origin, range, reads),
        });
        walk.steps.get(&target).copied().unwrap_or(-1)
    }
}

impl super::ScriptRules {
    /// The fewest steps to `target` from the tower at `origin` with `range`.
    pub(super) fn range_steps(
        &self,
        board: &Board,
        origin: Pos,
        range: &Arc<[(i32, i32)]>,
        target: (i32, i32),
    ) -> i64 {
        self.steps.borrow_mut().steps(board, origin, range, target)
    }

    /// Board cells the native helpers have looked at on this thread.
    pub fn board_reads(&self) -> u64 {
        self.steps.borrow().reads
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::tiles::TileSet;

    fn board_at(cells: &[(i32, i32)]) -> Board {
        let home = crate::rules::Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        let tiles: TileSet = TileSet::from_sources(&[home.base_tiles().unwrap()]).unwrap();
        let mut board = Board::new();
        for &(x, y) in cells {
            board.place(
                tiles.start as u16,
                &tiles.kinds[tiles.start],
                Pos::new(x, y),
                0,
                0,
            );
        }
        board
    }

    #[test]
    fn a_straight_range_stops_at_its_first_gap() {
        let board = board_at(&[(0, 0), (1, 0), (3, 0)]);
        let range: Vec<(i32, i32)> = (0..=4).map(|x| (x, 0)).collect();
        let d = distances(&board, Pos::ORIGIN, &range, &mut 0);
        assert_eq!(d.get(&(1, 0)), Some(&1));
        assert_eq!(d.get(&(3, 0)), None, "beyond the gap at (2, 0)");
    }

    #[test]
    fn a_diagonal_step_is_taken_only_between_cells_off_the_range() {
        let board = board_at(&[(0, 0), (1, 1), (1, 0)]);
        let diagonal = [(0, 0), (1, 1)];
        assert_eq!(
            distances(&board, Pos::ORIGIN, &diagonal, &mut 0).get(&(1, 1)),
            Some(&1)
        );
        let square = [(0, 0), (1, 0), (1, 1)];
        assert_eq!(
            distances(&board, Pos::ORIGIN, &square, &mut 0).get(&(1, 1)),
            Some(&2),
            "(1, 0) is in the range: the path turns through it"
        );
    }

    #[test]
    fn the_memo_walks_once_per_board_content() {
        let mut board = board_at(&[(0, 0), (1, 0), (2, 0)]);
        let range: Arc<[(i32, i32)]> = (0..=2).map(|x| (x, 0)).collect::<Vec<_>>().into();
        let mut memo = StepsMemo::default();
        assert_eq!(memo.steps(&board, Pos::ORIGIN, &range, (2, 0)), 2);
        let once = memo.reads;
        assert_eq!(memo.steps(&board, Pos::ORIGIN, &range, (1, 0)), 1);
        assert_eq!(memo.reads, once, "the same board: no new walk");
        let home = crate::rules::Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        let tiles = TileSet::from_sources(&[home.base_tiles().unwrap()]).unwrap();
        board.place(
            tiles.start as u16,
            &tiles.kinds[tiles.start],
            Pos::new(0, 5),
            0,
            0,
        );
        assert_eq!(memo.steps(&board, Pos::ORIGIN, &range, (1, 0)), 1);
        assert!(memo.reads > once, "a tile placed: walked again");
    }
}
