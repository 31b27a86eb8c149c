//! A tile kind drawn from its art: fields, roads, cities, pennants, a
//! cloister and a foundation, turned into place.

use std::fmt::Write;

use super::super::style::{CITY, CITY_WALL, FIELD, FIELD_EDGE, ROAD, ROAD_EDGE};
use super::{CLOISTER_HALF, FOUNDATION_HALF, Pt, ROAD_HALF_WIDTH, TILE, TileArt, num};

/// One tile, drawn in its printed orientation and turned into place; the
/// symbols on it (pennants, cloister, foundation) stay upright.
pub(in crate::views::render) fn draw_tile(out: &mut String, art: &TileArt, rot: u8) {
    let t = num(TILE);
    let _ = writeln!(
        out,
        "<rect width=\"{t}\" height=\"{t}\" fill=\"{FIELD}\" stroke=\"{FIELD_EDGE}\" stroke-width=\"1\"/>"
    );
    let deg = rot as u16 * 90;
    let turned = deg != 0;
    if turned {
        let _ = writeln!(
            out,
            "<g transform=\"rotate({deg} {c} {c})\">",
            c = num(TILE / 2.0)
        );
    }
    let roads = |out: &mut String, through: bool| {
        for (width, colour) in [
            (2.0 * ROAD_HALF_WIDTH, ROAD_EDGE),
            (2.0 * ROAD_HALF_WIDTH - 3.0, ROAD),
        ] {
            for r in art.roads.iter().filter(|r| r.through == through) {
                let _ = writeln!(
                    out,
                    "<path d=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\"/>",
                    r.path.d(),
                    num(width)
                );
            }
        }
    };
    roads(out, false);
    if art.junction {
        let _ = writeln!(
            out,
            "<circle cx=\"{c}\" cy=\"{c}\" r=\"5\" fill=\"{ROAD_EDGE}\"/>",
            c = num(TILE / 2.0)
        );
    }
    for c in &art.cities {
        let _ = writeln!(
            out,
            "<path d=\"{}\" fill=\"{CITY}\" stroke=\"{CITY_WALL}\" stroke-width=\"2\" stroke-linejoin=\"round\"/>",
            c.path.d()
        );
    }
    roads(out, true);
    let upright = |out: &mut String, p: Pt, inner: &dyn Fn(&mut String)| {
        if turned {
            let _ = writeln!(
                out,
                "<g transform=\"translate({},{}) rotate(-{deg})\">",
                num(p.x),
                num(p.y)
            );
        } else {
            let _ = writeln!(
                out,
                "<g transform=\"translate({},{})\">",
                num(p.x),
                num(p.y)
            );
        }
        inner(out);
        out.push_str("</g>\n");
    };
    for &p in art.pennants() {
        upright(out, p, &|out| {
            let _ = writeln!(
                out,
                "<path class=\"pennant\" d=\"M-5 -6H5V-1C5 3 2.5 5 0 6.5C-2.5 5 -5 3 -5 -1Z\" fill=\"#2a58b8\" stroke=\"#fff\" stroke-width=\"1.2\"/>"
            );
        });
    }
    if let Some(p) = art.cloister {
        upright(out, p, &|out| draw_cloister(out));
    }
    if turned {
        out.push_str("</g>\n");
    }
    if let Some(p) = art.foundation {
        draw_foundation(out, p.rotated(rot));
    }
}

/// A cloister centred on the origin.
pub(in crate::views::render) fn draw_cloister(out: &mut String) {
    let (hx, hy) = CLOISTER_HALF;
    let _ = writeln!(
        out,
        "<g class=\"cloister\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f0e2c0\" stroke=\"{CITY_WALL}\" stroke-width=\"1.2\"/><path d=\"M{} {}L0 {}L{} {}Z\" fill=\"#b8432f\" stroke=\"{CITY_WALL}\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/><rect x=\"-2\" y=\"{}\" width=\"4\" height=\"5\" fill=\"{CITY_WALL}\"/></g>",
        num(-hx + 2.0),
        num(-hy + 5.0),
        num(2.0 * hx - 4.0),
        num(2.0 * hy - 5.0),
        num(-hx),
        num(-hy + 6.0),
        num(-hy - 2.0),
        num(hx),
        num(-hy + 6.0),
        num(hy - 5.0),
    );
}

/// A foundation: a stone square at `p`.
pub(in crate::views::render) fn draw_foundation(out: &mut String, p: Pt) {
    let h = FOUNDATION_HALF;
    let _ = writeln!(
        out,
        "<g class=\"foundation\"><rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" fill=\"#a7a29a\" stroke=\"#4b4741\" stroke-width=\"1.5\"/><rect x=\"{}\" y=\"{}\" width=\"{i}\" height=\"{i}\" fill=\"none\" stroke=\"#6e6962\" stroke-width=\"1\"/></g>",
        num(p.x - h),
        num(p.y - h),
        num(p.x - h + 3.5),
        num(p.y - h + 3.5),
        s = num(2.0 * h),
        i = num(2.0 * h - 7.0),
    );
}
