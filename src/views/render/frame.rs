//! The board's cells on the page: where a cell's corner is drawn, the size
//! of the board, and the grid of faint cell lines with coordinates.

use maud::html;

use crate::kernel::geometry::Pos;

use super::drawing::{Group, Piece};
use super::style::MARGIN;
use super::tile::{TILE, num};

/// The board's cells on the page.
pub(super) struct Frame {
    min_x: i32,
    max_y: i32,
    cols: i32,
    rows: i32,
}

impl Frame {
    pub(super) fn around(cells: &[Pos]) -> Frame {
        let min_x = cells.iter().map(|p| p.x).min().unwrap_or(0);
        let max_x = cells.iter().map(|p| p.x).max().unwrap_or(0);
        let min_y = cells.iter().map(|p| p.y).min().unwrap_or(0);
        let max_y = cells.iter().map(|p| p.y).max().unwrap_or(0);
        Frame {
            min_x,
            max_y,
            cols: max_x - min_x + 1,
            rows: max_y - min_y + 1,
        }
    }

    /// The top-left corner of a cell on the page (y grows north on the
    /// board, south on the page).
    pub(super) fn cell(&self, p: Pos) -> (f64, f64) {
        (
            MARGIN + (p.x - self.min_x) as f64 * TILE,
            MARGIN + (self.max_y - p.y) as f64 * TILE,
        )
    }

    pub(super) fn width(&self) -> f64 {
        2.0 * MARGIN + self.cols as f64 * TILE
    }

    pub(super) fn height(&self) -> f64 {
        2.0 * MARGIN + self.rows as f64 * TILE
    }

    /// Faint cell lines and the coordinates along the top and left.
    pub(super) fn grid(&self) -> Group {
        let mut grid = Group::new(|t, children| {
            html! {
                g data-t=[t] class="grid" font-size="11" fill="#8a8170" text-anchor="middle" { (children) }
            }
        });
        let (m, w, h) = (
            num(MARGIN),
            num(self.cols as f64 * TILE),
            num(self.rows as f64 * TILE),
        );
        grid.push(Piece::new(move |t| {
            html! {
                rect data-t=[t] x=(m) y=(m) width=(w) height=(h) fill="none" stroke="#ddd5c4" stroke-width="1" {}
            }
        }));
        for c in 0..self.cols {
            let x = MARGIN + (c as f64 + 0.5) * TILE;
            grid.push(label("x", x, MARGIN - 10.0, self.min_x + c));
        }
        for r in 0..self.rows {
            let y = MARGIN + (r as f64 + 0.5) * TILE + 4.0;
            grid.push(label("y", MARGIN / 2.0, y, self.max_y - r));
        }
        grid
    }
}

/// A coordinate along the top (`x`) or the left (`y`), its class its axis,
/// so that a viewer showing part of the board can keep it in view.
fn label(axis: &'static str, x: f64, y: f64, value: i32) -> Piece {
    let (x, y) = (num(x), num(y));
    Piece::new(move |t| html! { text data-t=[t] class=(axis) x=(x) y=(y) { (value) } })
}
