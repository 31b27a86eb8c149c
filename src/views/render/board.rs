//! The things on the board: tiles in their places, meeples on segments,
//! towers with their floors and the meeple on top.

use std::collections::HashMap;
use std::fmt::Write;

use crate::kernel::MeepleSpot;
use crate::kernel::scene::{Palette, Scene, SceneMeeple, SceneTile, SceneTower, TileLook};
use crate::kernel::tiles::{SegmentKind, TileSet};

use super::frame::Frame;
use super::style::{FIELD_EDGE, INK, MEEPLE_PATH, PLAIN};
use super::tile::draw::{draw_foundation, draw_tile};
use super::tile::{CENTRE, FOUNDATION_HALF, Pt, TILE, TileArt, num};
use super::{escape, spot_on};

/// One tile in its place.
pub(super) fn draw_placed(
    out: &mut String,
    frame: &Frame,
    t: &SceneTile,
    tiles: &TileSet,
    arts: &HashMap<u16, TileArt>,
) {
    let (x, y) = frame.cell(t.pos);
    let (px, py) = (t.pos.x, t.pos.y);
    match t.look {
        TileLook::Kind(k) => {
            let kind = &tiles.kinds[k as usize];
            let _ = writeln!(
                out,
                "<g class=\"tile\" data-x=\"{px}\" data-y=\"{py}\" data-tile=\"{}\" data-rot=\"{}\" transform=\"translate({},{})\">",
                escape(&kind.name),
                t.rot as u16 * 90,
                num(x),
                num(y)
            );
            let _ = writeln!(
                out,
                "<title>{} at {px},{py} turned {}°</title>",
                escape(&kind.name),
                t.rot as u16 * 90
            );
            draw_tile(out, &arts[&k], t.rot);
        }
        TileLook::Plain | TileLook::Foundation => {
            let tower = t.look == TileLook::Foundation;
            let _ = writeln!(
                out,
                "<g class=\"tile\" data-x=\"{px}\" data-y=\"{py}\" data-tile=\"{}\" data-rot=\"0\" transform=\"translate({},{})\"><title>{} at {px},{py}</title>",
                if tower { "T" } else { "#" },
                num(x),
                num(y),
                if tower { "the tower's tile" } else { "a tile" },
            );
            let _ = writeln!(
                out,
                "<rect width=\"{t}\" height=\"{t}\" fill=\"{PLAIN}\" stroke=\"{FIELD_EDGE}\" stroke-width=\"1\"/>",
                t = num(TILE)
            );
            if tower {
                draw_foundation(out, CENTRE);
            }
        }
    }
    out.push_str("</g>\n");
}

/// A meeple on a segment; lying down in a field.
pub(super) fn draw_meeple(
    out: &mut String,
    frame: &Frame,
    scene: &Scene,
    m: &SceneMeeple,
    tiles: &TileSet,
    arts: &HashMap<u16, TileArt>,
    palette: &Palette,
) {
    let MeepleSpot::Segment(s) = m.spot else {
        return;
    };
    let Some(TileLook::Kind(k)) = scene.tiles.iter().find(|t| t.pos == m.pos).map(|t| t.look)
    else {
        return;
    };
    let Some(spot) = spot_on(scene, arts, m.pos, m.spot) else {
        return;
    };
    let seg = &tiles.kinds[k as usize].segments[s as usize];
    let (x, y) = frame.cell(m.pos);
    let lying = seg.kind == SegmentKind::Field;
    let _ = writeln!(
        out,
        "<g class=\"meeple\" data-owner=\"{}\" data-x=\"{}\" data-y=\"{}\" data-on=\"{}\" data-segment=\"{s}\" transform=\"translate({},{}){}\"><title>player {}'s meeple on a {} at {},{}</title><path d=\"{MEEPLE_PATH}\" transform=\"translate(0,-1)\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/></g>",
        m.owner,
        m.pos.x,
        m.pos.y,
        seg.kind.name(),
        num(x + spot.x),
        num(y + spot.y),
        if lying { " rotate(90)" } else { "" },
        m.owner + 1,
        seg.kind.name(),
        m.pos.x,
        m.pos.y,
        escape(palette.player(m.owner as usize)),
    );
}

/// A tower: its floors stacked from the foundation at `foot` upwards, each
/// in its kind's colour, its height written beside it, and the meeple on top.
pub(super) fn draw_tower(out: &mut String, palette: &Palette, tower: &SceneTower, foot: Pt) {
    let (pos, floors, top) = (tower.pos, &tower.floors, tower.top);
    let n = floors.len();
    let _ = writeln!(
        out,
        "<g class=\"tower\" data-x=\"{}\" data-y=\"{}\" data-floors=\"{}\" data-height=\"{n}\"><title>tower at {},{}: {}</title>",
        pos.x,
        pos.y,
        escape(&palette.floor_names(floors, ",")),
        pos.x,
        pos.y,
        if n == 0 {
            "no floors".to_string()
        } else {
            format!(
                "{n} floors: {} (bottom to top)",
                escape(&palette.floor_names(floors, ", "))
            )
        }
    );
    let band = if n == 0 {
        0.0
    } else {
        (34.0 / n as f64).min(7.0)
    };
    let base = foot.y + FOUNDATION_HALF - 1.0;
    let w = 2.0 * FOUNDATION_HALF - 2.0;
    if n > 0 {
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"1.5\" fill=\"#fff\" fill-opacity=\"0.85\"/>",
            num(foot.x - w / 2.0 - 2.0),
            num(base - n as f64 * band - 2.0),
            num(w + 4.0),
            num(n as f64 * band + 4.0)
        );
    }
    for (i, &k) in floors.iter().enumerate() {
        let colour = palette
            .floors
            .get(k as usize)
            .map_or("#888", |d| d.colour.as_str());
        let _ = writeln!(
            out,
            "<rect class=\"floor\" data-kind=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"0.8\"/>",
            escape(palette.floor_name(k)),
            num(foot.x - w / 2.0),
            num(base - (i + 1) as f64 * band),
            num(w),
            num(band),
            escape(colour)
        );
    }
    let top_y = base - n as f64 * band;
    if n > 0 {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\" fill=\"{INK}\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">{n}</text>",
            num(foot.x + w / 2.0 + 2.0),
            num(base - 1.0)
        );
    }
    if let Some(owner) = top {
        let _ = writeln!(
            out,
            "<g class=\"meeple\" data-owner=\"{owner}\" data-x=\"{}\" data-y=\"{}\" data-on=\"tower\" transform=\"translate({},{}) scale(0.85)\"><title>player {}'s meeple on the tower at {},{}</title><path d=\"{MEEPLE_PATH}\" fill=\"{}\" stroke=\"{INK}\" stroke-width=\"1.3\" stroke-linejoin=\"round\"/></g>",
            pos.x,
            pos.y,
            num(foot.x),
            num(top_y - 8.5),
            owner + 1,
            pos.x,
            pos.y,
            escape(palette.player(owner as usize))
        );
    }
    out.push_str("</g>\n");
}
