//! Where a board picture puts things, for pages that draw on top of it (the
//! browser game marks legal placements and clickable spots): a cell's corner
//! and a meeple spot's point, in the picture's own units; and one tile kind
//! alone, at a rotation, as a small SVG.

use maud::html;

use crate::kernel::MeepleSpot;
use crate::kernel::geometry::Pos;
use crate::kernel::tiles::TileKind;
use crate::views::scene::Scene;

use super::frame::Frame;
use super::style::MARGIN;
use super::tile::draw::draw_tile;
use super::tile::{TILE, TileArt, num};
use super::{TileBook, TilesAt, frame_cells, spot_on};

/// The size of a cell in a picture's units.
pub const CELL: f64 = TILE;

/// Positions on the picture [`super::board`] draws of one scene.
pub struct Locator<'s, 'b, 'k> {
    /// The scene's tiles by cell.
    tiles: TilesAt<'s>,
    frame: Frame,
    book: &'b TileBook<'k>,
}

impl<'s, 'b, 'k> Locator<'s, 'b, 'k> {
    /// The positions in the picture of `scene` with the tile art of `book`.
    pub fn new(scene: &'s Scene, book: &'b TileBook<'k>) -> Self {
        Locator {
            tiles: scene.tiles.iter().map(|t| (t.pos, t)).collect(),
            frame: Frame::around(&frame_cells(scene)),
            book,
        }
    }

    /// The top-left corner of the cell `pos` (which may be empty).
    pub fn cell(&self, pos: Pos) -> (f64, f64) {
        self.frame.cell(pos)
    }

    /// The part of the board picture that shows the cells between the
    /// corners `low` and `high` with the coordinates' margin around them,
    /// cut to the board: `[x, y, width, height]`.
    pub fn area(&self, low: Pos, high: Pos) -> [f64; 4] {
        let (left, top) = self.frame.cell(Pos::new(low.x, high.y));
        let (right, bottom) = self.frame.cell(Pos::new(high.x, low.y));
        let x0 = (left - MARGIN).max(0.0);
        let y0 = (top - MARGIN).max(0.0);
        let x1 = (right + CELL + MARGIN).min(self.frame.width());
        let y1 = (bottom + CELL + MARGIN).min(self.frame.height());
        [x0, y0, x1 - x0, y1 - y0]
    }

    /// The point where a meeple on `spot` of the tile at `pos` stands (a
    /// tower on its foundation); `None` when no tile is there.
    pub fn spot(&self, pos: Pos, spot: MeepleSpot) -> Option<(f64, f64)> {
        let at = spot_on(&self.tiles, self.book, pos, spot)?;
        let (x, y) = self.frame.cell(pos);
        Some((x + at.x, y + at.y))
    }
}

/// One tile of `kind` turned `rot` quarter turns clockwise, as an SVG
/// document one cell wide.
pub fn tile_svg(kind: &TileKind, rot: u8) -> String {
    tile_art_svg(&TileArt::new(kind), rot)
}

/// [`tile_svg`] of kind `k` of the book's tile set, from the book's art.
pub fn book_tile_svg(book: &TileBook, k: u16, rot: u8) -> String {
    tile_art_svg(book.art(k), rot)
}

fn tile_art_svg(art: &TileArt, rot: u8) -> String {
    let size = num(TILE);
    html! {
        svg xmlns="http://www.w3.org/2000/svg" width=(size) height=(size)
            viewBox=(format!("0 0 {size} {size}")) class="tile" data-rot=(rot as u16 * 90) {
            (draw_tile(art, rot))
        }
    }
    .into_string()
}
