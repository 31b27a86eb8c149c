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
/// tiles leave it: 1 when every empty cell its edges face fits [`SCARCE`]
/// of them or more, less in proportion to the emptiest, 0 when one fits
/// none. `pattern` gives each cell's neighbour pattern: as the board
/// stands, or as a placement being weighed would leave it.
pub fn city_supply(
    game: &Game,
    fitting: &mut Fitting,
    root: FeatureId,
    mut pattern: impl FnMut(Pos) -> u8,
) -> f32 {
    let mut fewest = u32::MAX;
    game.open_cells(root, |cell| {
        if let Some(fit) = fitting.pattern(game, pattern(cell)) {
            fewest = fewest.min(fit);
        }
    });
    (fewest as f32 / SCARCE).min(1.0)
}
