//! What the tiles still to draw leave an open city: the share of its chance
//! to complete that the bots weigh (the search's evaluation and the greedy
//! bot's blocks). The undrawn tiles are public as a multiset, only their
//! order hidden, so every player may count how many of them would fit the
//! cells a city still needs (G1, G5).

use crate::kernel::determinize::Fitting;
use crate::kernel::geometry::Pos;
use crate::kernel::{FeatureId, Game};

/// Fewer undrawn tiles than this fitting an open city's emptiest cell lower
/// its chance to complete in proportion (none: it cannot complete). Three:
/// about as many as a kind of tile has copies; 3, 5 and 8 won alike against
/// the reference (docs/notes/bots-threats.md).
pub const SCARCE: f32 = 3.0;

/// The share of the open city `root`'s chance to complete that the undrawn
/// tiles leave it: the least [`cell_share`] of the empty cells its edges
/// face. `pattern` gives each cell's neighbour pattern: as the board
/// stands, or as a placement being weighed would leave it.
pub fn city_supply(
    game: &Game,
    fitting: &mut Fitting,
    root: FeatureId,
    mut pattern: impl FnMut(Pos) -> u8,
) -> f32 {
    let mut least = 1f32;
    game.open_cells(root, |cell| {
        least = least.min(cell_share(fitting.pattern(game, pattern(cell))));
    });
    least
}

/// The share of a city's chance to complete that one cell it needs leaves
/// it, from the undrawn tiles that fit the cell: 1 from [`SCARCE`] of them
/// on (or when nothing constrains the cell), less in proportion below, 0
/// when none fits.
pub fn cell_share(fitting: Option<u32>) -> f32 {
    fitting.map_or(1.0, |f| (f as f32 / SCARCE).min(1.0))
}
