//! Marks over the board: a tower's capture range, and the meeples a capture
//! took, where they stood.

use std::fmt::Write;

use crate::kernel::geometry::Pos;
use crate::kernel::scene::{Palette, SceneMeeple};

use super::escape;
use super::frame::Frame;
use super::style::{INK, MEEPLE_PATH, RANGE_EDGE, TAKEN};
use super::tile::{Pt, TILE, num};

/// The cells in a tower's range, relative to the tower at `at`.
pub(super) fn draw_range(out: &mut String, frame: &Frame, at: Pos, cells: &[(i32, i32)]) {
    let _ = writeln!(
        out,
        "<g class=\"ranges\" data-x=\"{}\" data-y=\"{}\">",
        at.x, at.y
    );
    for &(dx, dy) in cells {
        let (x, y) = frame.cell(at.offset(dx, dy));
        let _ = writeln!(
            out,
            "<rect class=\"range\" data-x=\"{dx}\" data-y=\"{dy}\" x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"url(#range-hatch)\" stroke=\"{RANGE_EDGE}\" stroke-width=\"3\"/>",
            num(x + 2.5),
            num(y + 2.5),
            s = num(TILE - 5.0)
        );
    }
    let (x, y) = frame.cell(at);
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>",
        num(x + 0.5),
        num(y + 0.5),
        s = num(TILE - 1.0)
    );
    out.push_str("</g>\n");
}

/// A meeple taken by a capture: its cell outlined, and where it stood a
/// faded meeple in its owner's colour, crossed out in a ring.
pub(super) fn draw_taken(
    out: &mut String,
    t: &SceneMeeple,
    corner: Pt,
    spot: Pt,
    palette: &Palette,
) {
    let (x, y) = (corner.x + spot.x, corner.y + spot.y);
    let _ = writeln!(
        out,
        "<g class=\"taken\" data-owner=\"{}\" data-x=\"{}\" data-y=\"{}\"><title>player {}'s meeple, taken by a capture from {},{}</title><rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"none\" stroke=\"{TAKEN}\" stroke-width=\"3\"/><circle cx=\"{}\" cy=\"{}\" r=\"13\" fill=\"#fff\" fill-opacity=\"0.7\" stroke=\"{TAKEN}\" stroke-width=\"2.5\"/><path d=\"{MEEPLE_PATH}\" transform=\"translate({},{})\" fill=\"{}\" fill-opacity=\"0.55\" stroke=\"{INK}\" stroke-opacity=\"0.6\" stroke-width=\"1.2\"/><path d=\"M-8 -8L8 8M8 -8L-8 8\" transform=\"translate({},{})\" stroke=\"{TAKEN}\" stroke-width=\"3\" stroke-linecap=\"round\"/></g>",
        t.owner,
        t.pos.x,
        t.pos.y,
        t.owner + 1,
        t.pos.x,
        t.pos.y,
        num(corner.x + 1.5),
        num(corner.y + 1.5),
        num(x),
        num(y),
        num(x),
        num(y - 1.0),
        escape(palette.player(t.owner as usize)),
        num(x),
        num(y),
        s = num(TILE - 3.0),
    );
}
