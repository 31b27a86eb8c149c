//! Which meeples a floor just placed may capture (T5, T6, T9): the range the
//! rules give for the tower, then the rules' `may_capture` for each meeple
//! standing in it. This is the one answer to that question: the game lists
//! its capture choices with it, bots weigh floors with it, and range queries
//! ask it about boards of their own.

use anyhow::Result;
use rustc_hash::FxHashSet;

use crate::kernel::geometry::Pos;
use crate::kernel::pieces::{Meeple, MeepleOn};
use crate::kernel::rules::{MeepleView, Rules, Table, TowerView};

/// The meeples of `meeples` (their indices, in order, into `out`) that a
/// floor just placed on `tower` may take: standing in the tower's capture
/// range (left in `range`, as the rules gave it) and let go by the rules,
/// which see the game as `table` shows it.
/// `on` names what a meeple stands on; it is asked only for meeples in range.
/// Both buffers are cleared first, so a caller that keeps them allocates
/// nothing (beyond a set for a range of more than a few dozen cells).
pub fn capturable(
    rules: &dyn Rules,
    tower: &TowerView,
    table: &Table,
    meeples: &[Meeple],
    on: impl Fn(usize, &Meeple) -> MeepleOn,
    range: &mut Vec<(i32, i32)>,
    out: &mut Vec<u16>,
) -> Result<()> {
    range.clear();
    out.clear();
    rules.capture_range(&tower.stack(), range)?;
    let cells = Cells::of(range);
    for (i, m) in meeples.iter().enumerate() {
        if !cells.holds(tower.pos, m.pos) {
            continue;
        }
        let view = MeepleView {
            owner: m.owner as usize,
            pos: m.pos,
            spot: m.spot,
            on: on(i, m),
        };
        if rules.may_capture(tower, &view, table)? {
            out.push(i as u16);
        }
    }
    Ok(())
}

/// May the floor just placed on `tower`, whose capture range is `range` (as
/// [`capturable`] leaves it), take `meeple`? For callers that keep a range
/// and ask about one meeple, perhaps one not yet on the board.
pub fn may_take(
    rules: &dyn Rules,
    tower: &TowerView,
    range: &[(i32, i32)],
    table: &Table,
    meeple: &MeepleView,
) -> Result<bool> {
    let d = (meeple.pos.x - tower.pos.x, meeple.pos.y - tower.pos.y);
    if !range.contains(&d) {
        return Ok(false);
    }
    rules.may_capture(tower, meeple, table)
}

/// The largest |dx| or |dy| of a range's cells; -1 when it has none.
pub fn reach_of(range: &[(i32, i32)]) -> i32 {
    range
        .iter()
        .map(|&(x, y)| x.abs().max(y.abs()))
        .max()
        .unwrap_or(-1)
}

/// A range's cells, to ask whether a meeple stands in one: a short range
/// is searched, a long one put in a set first, so that a capture check stays
/// linear in the cells however many meeples stand in them.
struct Cells<'a> {
    range: &'a [(i32, i32)],
    /// The range's [`reach_of`], which rules out far cells without a search.
    reach: i32,
    set: Option<FxHashSet<(i32, i32)>>,
}

impl<'a> Cells<'a> {
    /// Ranges longer than this are put in a set.
    const SEARCHED: usize = 32;

    fn of(range: &'a [(i32, i32)]) -> Cells<'a> {
        let set = (range.len() > Self::SEARCHED).then(|| range.iter().copied().collect());
        Cells {
            range,
            reach: reach_of(range),
            set,
        }
    }

    /// Is `at` one of the cells around `tower`?
    fn holds(&self, tower: Pos, at: Pos) -> bool {
        let d = (at.x - tower.x, at.y - tower.y);
        d.0.abs().max(d.1.abs()) <= self.reach
            && match &self.set {
                Some(set) => set.contains(&d),
                None => self.range.contains(&d),
            }
    }
}
