//! The rules interface: every question about towers that the kernel cannot
//! answer by itself — which floor kinds exist and how many each player gets,
//! where a kind may go, what a tower's floors let it capture, which meeples may
//! be taken, whether and at what cost a ransom is allowed.
//!
//! The kernel implements the *operations* (place a floor, capture, exchange,
//! ransom) and asks an implementation of [`Rules`] *whether* and *where*. Floor
//! kinds are names that the rules define; the kernel knows them only as
//! indices into [`Rules::floor_kinds`].
//!
//! Every method must be pure: the same arguments give the same answer. The
//! kernel and the packs rely on that to cache answers. The questions about a
//! floor stack get a [`StackView`], which holds only what such a cached
//! answer may depend on; only [`Rules::may_capture`] sees where the tower
//! stands, whose meeple tops it, and the board.

use anyhow::Result;

use crate::kernel::board::Board;
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::{MeepleOn, MeepleSpot};

/// A floor kind: an index into [`Rules::floor_kinds`].
pub type FloorKind = u8;

/// A floor stack as the hooks that are answered once per stack see it: the
/// floors, and whether a meeple tops them — exactly what such an answer may
/// depend on, so that it can be kept. Not where the tower stands, not whose
/// meeple tops it, not the board.
#[derive(Clone, Copy, Debug)]
pub struct StackView<'a> {
    /// The floors, bottom to top; empty for a bare foundation.
    pub floors: &'a [FloorKind],
    /// Does a meeple stand on top?
    pub topped: bool,
}

/// A tower (or a bare foundation) on the board, as [`Rules::may_capture`]
/// sees it.
#[derive(Clone, Copy, Debug)]
pub struct TowerView<'a> {
    pub pos: Pos,
    /// The floors, bottom to top; empty for a bare foundation.
    pub floors: &'a [FloorKind],
    /// The player whose meeple stands on top, if any.
    pub meeple: Option<usize>,
}

impl<'a> TowerView<'a> {
    /// The tower's floor stack, as the per-stack questions see it.
    pub fn stack(&self) -> StackView<'a> {
        StackView {
            floors: self.floors,
            topped: self.meeple.is_some(),
        }
    }
}

/// A meeple on the board as the rules see it.
#[derive(Clone, Copy, Debug)]
pub struct MeepleView {
    pub owner: usize,
    pub pos: Pos,
    pub spot: MeepleSpot,
    /// What it stands on.
    pub on: MeepleOn,
}

/// What the kernel asks about towers. See the module documentation.
pub trait Rules: Send {
    /// The names of the floor kinds; [`FloorKind`] indexes this list.
    fn floor_kinds(&self) -> &[String];

    /// How many floors of each kind every player starts with, given the
    /// number of players and of foundation tiles in the whole tile set.
    fn floor_supply(&self, players: usize, foundation_tiles: usize) -> Result<Vec<u32>>;

    /// May a floor of `kind` go onto a tower of `stack` (a bare foundation
    /// when `stack.floors` is empty)? The kernel has already checked that the
    /// player holds such a floor.
    fn may_place_floor(&self, stack: &StackView, kind: FloorKind) -> Result<bool>;

    /// May a meeple go on top of a tower of `stack`? The kernel has already
    /// checked that no meeple stands there and that the player has one in
    /// supply.
    fn may_top(&self, stack: &StackView) -> Result<bool>;

    /// The cells, as offsets from the tower, from which a floor just placed on
    /// a tower may capture, its `stack` holding that floor. Cells may be
    /// listed in any order, and may include empty ones.
    fn capture_range(&self, stack: &StackView, out: &mut Vec<(i32, i32)>) -> Result<()>;

    /// May `meeple`, standing in range, be taken by the floor just placed on
    /// `tower`?
    fn may_capture(&self, tower: &TowerView, meeple: &MeepleView, board: &Board) -> Result<bool>;

    /// The ransom a player with `score` points must pay to free one of their
    /// meeples, having already paid `paid_this_turn` ransoms this turn; `None`
    /// when no ransom is allowed. The kernel never lets a score go below zero.
    fn ransom_cost(&self, score: u32, paid_this_turn: u32) -> Result<Option<u32>>;
}
