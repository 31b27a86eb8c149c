//! Where a board picture puts things, for pages that draw on top of it (the
//! browser game marks legal placements and clickable spots): a cell's corner
//! and a meeple spot's point, in the picture's own units; and one tile kind
//! alone, at a rotation, as a small SVG.

use std::collections::HashMap;

use maud::html;

use crate::kernel::MeepleSpot;
use crate::kernel::geometry::Pos;
use crate::kernel::scene::Scene;
use crate::kernel::tiles::{TileKind, TileSet};

use super::frame::Frame;
use super::tile::draw::draw_tile;
use super::tile::{TILE, TileArt, num};
use super::{TilesAt, frame_cells, spot_on, tile_arts};

/// The size of a cell in a picture's units.
pub const CELL: f64 = TILE;

/// Positions on the picture [`super::board`] draws of one scene.
pub struct Locator<'s, 'k> {
    /// The scene's tiles by cell.
    tiles: TilesAt<'s>,
    frame: Frame,
    arts: HashMap<u16, TileArt<'k>>,
}

impl<'s, 'k> Locator<'s, 'k> {
    /// The positions in the picture of `scene` with tiles of `tiles`.
    pub fn new(scene: &'s Scene, tiles: &'k TileSet) -> Self {
        Locator {
            tiles: scene.tiles.iter().map(|t| (t.pos, t)).collect(),
            frame: Frame::around(&frame_cells(scene)),
            arts: tile_arts(scene, tiles),
        }
    }

    /// The top-left corner of the cell `pos` (which may be empty).
    pub fn cell(&self, pos: Pos) -> (f64, f64) {
        self.frame.cell(pos)
    }

    /// The point where a meeple on `spot` of the tile at `pos` stands (a
    /// tower on its foundation); `None` when no tile is there.
    pub fn spot(&self, pos: Pos, spot: MeepleSpot) -> Option<(f64, f64)> {
        let at = spot_on(&self.tiles, &self.arts, pos, spot)?;
        let (x, y) = self.frame.cell(pos);
        Some((x + at.x, y + at.y))
    }
}

/// One tile of `kind` turned `rot` quarter turns clockwise, as an SVG
/// document one cell wide.
pub fn tile_svg(kind: &TileKind, rot: u8) -> String {
    let size = num(TILE);
    let art = TileArt::new(kind);
    html! {
        svg xmlns="http://www.w3.org/2000/svg" width=(size) height=(size)
            viewBox=(format!("0 0 {size} {size}")) class="tile" data-rot=(rot as u16 * 90) {
            (draw_tile(&art, rot))
        }
    }
    .into_string()
}
