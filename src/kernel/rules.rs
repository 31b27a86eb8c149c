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
//! kernel and the packs rely on that to cache answers.

use anyhow::Result;

use crate::kernel::board::Board;
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::MeepleSpot;

/// A floor kind: an index into [`Rules::floor_kinds`].
pub type FloorKind = u8;

/// A tower (or a bare foundation) as the rules see it.
#[derive(Clone, Copy, Debug)]
pub struct TowerView<'a> {
    pub pos: Pos,
    /// The floors, bottom to top; empty for a bare foundation.
    pub floors: &'a [FloorKind],
    /// The player whose meeple stands on top, if any.
    pub meeple: Option<usize>,
}

/// A meeple on the board as the rules see it.
#[derive(Clone, Copy, Debug)]
pub struct MeepleView {
    pub owner: usize,
    pub pos: Pos,
    pub spot: MeepleSpot,
    /// What it stands on: `road`, `city`, `field`, `cloister` or `tower`.
    pub on: &'static str,
}

/// What the kernel asks about towers. See the module documentation.
pub trait Rules: Send {
    /// The names of the floor kinds; [`FloorKind`] indexes this list.
    fn floor_kinds(&self) -> &[String];

    /// How many floors of each kind every player starts with, given the
    /// number of players and of foundation tiles in the whole tile set.
    fn floor_supply(&self, players: usize, foundation_tiles: usize) -> Result<Vec<u32>>;

    /// May a floor of `kind` go onto `tower` (a bare foundation when
    /// `tower.floors` is empty)? The kernel has already checked that the
    /// player holds such a floor.
    fn may_place_floor(&self, tower: &TowerView, kind: FloorKind) -> Result<bool>;

    /// May a meeple go on top of `tower`? The kernel has already checked that
    /// no meeple stands there and that the player has one in supply.
    fn may_top_with_meeple(&self, tower: &TowerView) -> Result<bool>;

    /// The cells, as offsets from the tower, from which a floor just placed on
    /// `tower` may capture (the floor is already in `tower.floors`). Cells may
    /// be listed in any order, and may include empty ones.
    fn capture_range(
        &self,
        tower: &TowerView,
        board: &Board,
        out: &mut Vec<(i32, i32)>,
    ) -> Result<()>;

    /// May `meeple`, standing in range, be taken by the floor just placed on
    /// `tower`?
    fn may_capture(&self, tower: &TowerView, meeple: &MeepleView, board: &Board) -> Result<bool>;

    /// The ransom a player with `score` points must pay to free one of their
    /// meeples, having already paid `paid_this_turn` ransoms this turn; `None`
    /// when no ransom is allowed. The kernel never lets a score go below zero.
    fn ransom_cost(&self, score: u32, paid_this_turn: u32) -> Result<Option<u32>>;
}
