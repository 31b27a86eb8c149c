//! The pieces on the board as every part of the kernel names them: a meeple,
//! and where on its tile it stands. The game keeps them; the rules see them
//! through their views.

use crate::kernel::geometry::Pos;

/// Where on its tile a meeple stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeepleSpot {
    /// On a segment of the tile (an index into the tile kind's segments).
    Segment(u8),
    /// On top of the tile's tower.
    Tower,
}

/// A meeple on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meeple {
    pub owner: u8,
    pub pos: Pos,
    pub spot: MeepleSpot,
}
