//! Capture paths on a board: how many steps it takes, through cells of a
//! tower's range that hold tiles, from the tower to each of them
//! (`board.range_steps`, `board.path_steps`). One breadth-first walk answers
//! every cell, and its answers are kept per (tower, range) while the board's
//! content stays as it is ([`Board::stamp`]): a capture check reads each cell
//! of the range a bounded number of times, however many meeples it asks about.

use std::sync::Arc;

use rustc_hash::FxHashMap;

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

/// Where each cell of a range sits in the walk's flat tables. The walk looks
/// up every neighbour of every cell it reaches, so a lookup should cost a few
/// instructions: a range whose bounding box is small (every range a shipped
/// pack draws) is laid out as the box, a cell's place computed; a sparse
/// range drawn over a wide area (a pack may give any cells) would make the
/// box too large, and is laid out by a map from its cells to their order.
enum Layout {
    Grid {
        x0: i32,
        y0: i32,
        width: i64,
        height: i64,
    },
    Sparse(FxHashMap<(i32, i32), usize>),
}

/// Boxes of up to this many cells (or 16 a cell of the range) are laid out
/// as grids.
const MAX_GRID: i64 = 4096;

impl Layout {
    fn of(cells: &[(i32, i32)]) -> Layout {
        let xs = cells.iter().map(|c| c.0);
        let ys = cells.iter().map(|c| c.1);
        let (x0, x1) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (y0, y1) = (ys.clone().min().unwrap_or(0), ys.max().unwrap_or(0));
        let (width, height) = (x1 as i64 - x0 as i64 + 1, y1 as i64 - y0 as i64 + 1);
        if width * height <= MAX_GRID.max(16 * cells.len() as i64) {
            return Layout::Grid {
                x0,
                y0,
                width,
                height,
            };
        }
        let mut order = FxHashMap::with_capacity_and_hasher(cells.len(), Default::default());
        for &c in cells {
            let next = order.len();
            order.entry(c).or_insert(next);
        }
        Layout::Sparse(order)
    }

    /// How many places the tables hold.
    fn len(&self) -> usize {
        match self {
            Layout::Grid { width, height, .. } => (width * height) as usize,
            Layout::Sparse(order) => order.len(),
        }
    }

    /// The place of cell `c`; `None` where no cell of the range can be.
    fn index(&self, c: (i32, i32)) -> Option<usize> {
        match *self {
            Layout::Grid {
                x0,
                y0,
                width,
                height,
            } => {
                let (dx, dy) = (c.0 as i64 - x0 as i64, c.1 as i64 - y0 as i64);
                ((0..width).contains(&dx) && (0..height).contains(&dy))
                    .then_some((dy * width + dx) as usize)
            }
            Layout::Sparse(ref order) => order.get(&c).copied(),
        }
    }
}

/// The fewest steps from a tower to each cell of its range that a path
/// reaches (see [`distances`]).
pub(super) struct Steps {
    layout: Layout,
    /// Per place: the steps, or -1 where no path reaches.
    steps: Vec<i32>,
}

impl Steps {
    /// The fewest steps to `target` (an offset); -1 where no path reaches it.
    pub(super) fn to(&self, target: (i32, i32)) -> i64 {
        self.layout
            .index(target)
            .map_or(-1, |i| i64::from(self.steps[i]))
    }
}

/// The fewest steps from `origin` to `origin + c` for every cell `c` of
/// `cells` (offsets) that a path reaches; a path goes through cells of
/// `cells` that hold a tile, the tower's own included. `reads` counts the
/// board cells looked at. Linear in the cells (and their box).
pub(super) fn distances(
    board: &Board,
    origin: Pos,
    cells: &[(i32, i32)],
    reads: &mut u64,
) -> Steps {
    let layout = Layout::of(cells);
    let mut inside = vec![false; layout.len()];
    for &c in cells {
        if let Some(i) = layout.index(c) {
            inside[i] = true;
        }
    }
    let mut steps = vec![-1i32; layout.len()];
    let in_range = |c: (i32, i32)| layout.index(c).filter(|&i| inside[i]);
    let mut usable = |c: (i32, i32)| {
        in_range(c).filter(|_| {
            *reads += 1;
            board.has_tile(origin.offset(c.0, c.1))
        })
    };
    let Some(start) = usable((0, 0)) else {
        return Steps { layout, steps };
    };
    let mut queue = std::collections::VecDeque::new();
    steps[start] = 0;
    queue.push_back(((0, 0), 0));
    while let Some((c, d)) = queue.pop_front() {
        for (sx, sy) in STEPS {
            let next = (c.0 + sx, c.1 + sy);
            let diagonal = sx != 0 && sy != 0;
            if diagonal
                && (in_range((c.0 + sx, c.1)).is_some() || in_range((c.0, c.1 + sy)).is_some())
            {
                continue;
            }
            let unseen = layout.index(next).is_some_and(|i| steps[i] < 0);
            if let Some(i) = usable(next).filter(|_| unseen) {
                steps[i] = d + 1;
                queue.push_back((next, d + 1));
            }
        }
    }
    Steps { layout, steps }
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
    steps: Steps,
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
        walk.steps.to(target)
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
        assert_eq!(d.to((1, 0)), 1);
        assert_eq!(d.to((3, 0)), -1, "beyond the gap at (2, 0)");
    }

    #[test]
    fn a_diagonal_step_is_taken_only_between_cells_off_the_range() {
        let board = board_at(&[(0, 0), (1, 1), (1, 0)]);
        let diagonal = [(0, 0), (1, 1)];
        assert_eq!(
            distances(&board, Pos::ORIGIN, &diagonal, &mut 0).to((1, 1)),
            1
        );
        let square = [(0, 0), (1, 0), (1, 1)];
        assert_eq!(
            distances(&board, Pos::ORIGIN, &square, &mut 0).to((1, 1)),
            2,
            "(1, 0) is in the range: the path turns through it"
        );
    }

    /// A range with a cell far away is laid out sparse: every cell near the
    /// tower is reached in the steps the same range without it gives.
    #[test]
    fn a_range_spread_wide_walks_as_a_compact_one() {
        let tiles: Vec<(i32, i32)> = (-3..=3)
            .flat_map(|x| (-3..=3).map(move |y| (x, y)))
            .filter(|&(x, y)| (x + 2 * y) % 5 != 2)
            .collect();
        let board = board_at(&tiles);
        let compact: Vec<(i32, i32)> = (-4..=4)
            .flat_map(|x| (-4..=4).map(move |y| (x, y)))
            .filter(|&(x, y)| (x * y) % 3 != 1)
            .collect();
        let mut wide = compact.clone();
        wide.push((5000, -7000));
        assert!(matches!(Layout::of(&compact), Layout::Grid { .. }));
        assert!(matches!(Layout::of(&wide), Layout::Sparse(_)));
        let (mut r1, mut r2) = (0, 0);
        let near = distances(&board, Pos::ORIGIN, &compact, &mut r1);
        let far = distances(&board, Pos::ORIGIN, &wide, &mut r2);
        for x in -6..=6 {
            for y in -6..=6 {
                assert_eq!(near.to((x, y)), far.to((x, y)), "({x}, {y})");
            }
        }
        let steps: Vec<i64> = tiles.iter().map(|&c| near.to(c)).collect();
        assert!(
            steps.iter().any(|&s| s > 1),
            "paths of several steps: {steps:?}"
        );
        assert!(steps.contains(&-1), "cells no path reaches: {steps:?}");
        assert_eq!(far.to((5000, -7000)), -1);
        assert_eq!(r1, r2, "the far cell, next to no other, is never looked at");
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
