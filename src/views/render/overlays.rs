//! Marks over the board: a tower's capture range (hatched where it could
//! take a meeple, dotted where it reaches but the rules let it take
//! nothing), and the meeples a capture took, where they stood.

use maud::html;

use crate::kernel::geometry::Pos;
use crate::views::scene::{Palette, SceneMeeple, SceneRange};

use super::drawing::{Group, Piece};
use super::frame::Frame;
use super::style::{INK, MEEPLE_PATH, RANGE_EDGE, REACH_DOTS, TAKEN};
use super::tile::{Pt, TILE, num};

/// The cells in a tower's range, relative to the tower: hatched where it
/// could take a meeple, dotted where it reaches and the rules let it take
/// nothing; the tower's own cell dashed.
pub(super) fn range(frame: &Frame, range: &SceneRange) -> Group {
    let at = range.at;
    let mut group = Group::new(move |shown, children| {
        html! { g data-t=[shown] class="ranges" data-x=(at.x) data-y=(at.y) { (children) } }
    });
    for (dx, dy) in range.spared() {
        group.push(spared_cell(frame, at, (dx, dy)));
    }
    for &(dx, dy) in &range.cells {
        let (x, y) = frame.cell(at.offset(dx, dy));
        let (x, y, s) = (num(x + 2.5), num(y + 2.5), num(TILE - 5.0));
        group.push(Piece::new(move |shown| {
            html! {
                rect data-t=[shown] class="range" data-x=(dx) data-y=(dy) x=(x) y=(y) width=(s) height=(s)
                    fill="url(#range-hatch)" stroke=(RANGE_EDGE) stroke-width="3" {}
            }
        }));
    }
    let (x, y) = frame.cell(at);
    let (x, y, s) = (num(x + 0.5), num(y + 0.5), num(TILE - 1.0));
    group.push(Piece::new(move |shown| {
        html! {
            rect data-t=[shown] x=(x) y=(y) width=(s) height=(s) fill="none" stroke=(INK) stroke-width="2"
                stroke-dasharray="5 3" {}
        }
    }));
    group
}

/// A cell the tower at `at` reaches (`dx`, `dy` from it) where the rules
/// let it take nothing: a dotted edge, no hatch.
fn spared_cell(frame: &Frame, at: Pos, (dx, dy): (i32, i32)) -> Piece {
    let (x, y) = frame.cell(at.offset(dx, dy));
    let (x, y, s) = (num(x + 3.5), num(y + 3.5), num(TILE - 7.0));
    Piece::new(move |shown| {
        html! {
            rect data-t=[shown] class="reached" data-x=(dx) data-y=(dy) x=(x) y=(y) width=(s) height=(s)
                fill="#fff" fill-opacity="0.25" stroke=(RANGE_EDGE) stroke-width="3"
                stroke-dasharray=(REACH_DOTS) stroke-linecap="round" {}
        }
    })
}

/// A meeple taken by a capture: its cell outlined (the cell's corner at
/// `corner`), and where it stood (`spot` in the cell) a faded meeple in its
/// owner's colour (the owner named `whose`), crossed out in a ring.
pub(super) fn taken(
    t: &SceneMeeple,
    (corner, spot): (Pt, Pt),
    palette: &Palette,
    whose: String,
) -> Piece {
    let (x, y) = (num(corner.x + spot.x), num(corner.y + spot.y));
    let (cx, cy) = (num(corner.x + 1.5), num(corner.y + 1.5));
    let meeple_at = format!("translate({},{})", x, num(corner.y + spot.y - 1.0));
    let cross_at = format!("translate({x},{y})");
    let s = num(TILE - 3.0);
    let (owner, px, py) = (t.owner, t.pos.x, t.pos.y);
    let colour = palette.player(owner as usize).to_string();
    Piece::new(move |shown| {
        html! {
            g data-t=[shown] class="taken" data-owner=(owner) data-x=(px) data-y=(py) {
                title { (whose) "'s meeple, taken by a capture from " (px) "," (py) }
                rect x=(cx) y=(cy) width=(s) height=(s) fill="none" stroke=(TAKEN) stroke-width="3" {}
                circle cx=(x) cy=(y) r="13" fill="#fff" fill-opacity="0.7" stroke=(TAKEN) stroke-width="2.5" {}
                path d=(MEEPLE_PATH) transform=(meeple_at) fill=(colour) fill-opacity="0.55" stroke=(INK)
                    stroke-opacity="0.6" stroke-width="1.2" {}
                path d="M-8 -8L8 8M8 -8L-8 8" transform=(cross_at) stroke=(TAKEN) stroke-width="3"
                    stroke-linecap="round" {}
            }
        }
    })
}
