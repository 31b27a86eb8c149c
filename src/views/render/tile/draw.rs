//! A tile kind drawn from its art: fields, roads, cities, pennants, a
//! cloister and a foundation, turned into place.

use maud::{Markup, html};

use super::super::style::{CITY, CITY_WALL, FIELD, FIELD_EDGE, PENNANT, ROAD, ROAD_EDGE};
use super::{CLOISTER_HALF, FOUNDATION_HALF, Pt, ROAD_HALF_WIDTH, TILE, TileArt, num};

/// The pennant's shield, centred on the origin.
pub(in crate::views::render) const PENNANT_PATH: &str =
    "M-5 -6H5V-1C5 3 2.5 5 0 6.5C-2.5 5 -5 3 -5 -1Z";

/// One tile, drawn in its printed orientation and turned into place; the
/// symbols on it (pennants, cloister, foundation) stay upright.
pub(in crate::views::render) fn draw_tile(art: &TileArt, rot: u8) -> Markup {
    let t = num(TILE);
    let deg = rot as u16 * 90;
    let turned = html! {
        (roads(art, false))
        @if art.junction {
            @let c = num(TILE / 2.0);
            circle cx=(c) cy=(c) r="5" fill=(ROAD_EDGE) {}
        }
        @for c in &art.cities {
            path d=(c.path.d()) fill=(CITY) stroke=(CITY_WALL) stroke-width="2" stroke-linejoin="round" {}
        }
        (roads(art, true))
        @for &p in art.pennants() {
            (upright(p, deg, html! {
                path class="pennant" d=(PENNANT_PATH) fill=(PENNANT) stroke="#fff" stroke-width="1.2" {}
            }))
        }
        @if let Some(p) = art.cloister {
            (upright(p, deg, draw_cloister()))
        }
    };
    html! {
        rect width=(t) height=(t) fill=(FIELD) stroke=(FIELD_EDGE) stroke-width="1" {}
        @if deg != 0 {
            g transform=(format!("rotate({deg} {c} {c})", c = num(TILE / 2.0))) { (turned) }
        } @else {
            (turned)
        }
        @if let Some(p) = art.foundation {
            @let under = art.road_under_foundation.map(|edge| (edge + rot as usize).is_multiple_of(2));
            (foundation_over(p.rotated(rot), under))
        }
    }
}

/// How a road is drawn: its edges (a wide dark stroke), then its surface
/// over them; as (width, colour), in drawing order.
const ROAD_STROKES: [(f64, &str); 2] = [
    (2.0 * ROAD_HALF_WIDTH, ROAD_EDGE),
    (2.0 * ROAD_HALF_WIDTH - 3.0, ROAD),
];

/// The roads that end in the tile (`through` false) or cross it: edges
/// first, then the road surface over them.
fn roads(art: &TileArt, through: bool) -> Markup {
    html! {
        @for (width, colour) in ROAD_STROKES {
            @for r in art.roads.iter().filter(|r| r.through == through) {
                path d=(r.path.d()) fill="none" stroke=(colour) stroke-width=(num(width)) {}
            }
        }
    }
}

/// A symbol at `p`, turned back upright on a tile turned `deg` degrees.
fn upright(p: Pt, deg: u16, symbol: Markup) -> Markup {
    let transform = if deg != 0 {
        format!("translate({},{}) rotate(-{deg})", num(p.x), num(p.y))
    } else {
        format!("translate({},{})", num(p.x), num(p.y))
    };
    html! { g transform=(transform) { (symbol) } }
}

/// A cloister centred on the origin.
pub(in crate::views::render) fn draw_cloister() -> Markup {
    let (hx, hy) = CLOISTER_HALF;
    let roof = format!(
        "M{} {}L0 {}L{} {}Z",
        num(-hx),
        num(-hy + 6.0),
        num(-hy - 2.0),
        num(hx),
        num(-hy + 6.0)
    );
    html! {
        g class="cloister" {
            rect x=(num(-hx + 2.0)) y=(num(-hy + 5.0)) width=(num(2.0 * hx - 4.0))
                height=(num(2.0 * hy - 5.0)) fill="#f0e2c0" stroke=(CITY_WALL) stroke-width="1.2" {}
            path d=(roof) fill="#b8432f" stroke=(CITY_WALL) stroke-width="1.2" stroke-linejoin="round" {}
            rect x="-2" y=(num(hy - 5.0)) width="4" height="5" fill=(CITY_WALL) {}
        }
    }
}

/// A foundation: a stone square at `p`.
pub(in crate::views::render) fn draw_foundation(p: Pt) -> Markup {
    foundation_over(p, None)
}

/// A foundation at `p`, with the road that passes under it, if any, running
/// north–south (`Some(true)`) or west–east (`Some(false)`) as seen: the
/// stone, then the road across it from side to side, then the stone's
/// outlines over the road, so the road is seen to go on through the
/// foundation rather than end at it.
fn foundation_over(p: Pt, road: Option<bool>) -> Markup {
    let h = FOUNDATION_HALF;
    let (s, i) = (num(2.0 * h), num(2.0 * h - 7.0));
    let (x, y) = (num(p.x - h), num(p.y - h));
    html! {
        g class="foundation" {
            @if let Some(vertical) = road {
                rect x=(x) y=(y) width=(s) height=(s) fill=(STONE) {}
                (road_across(p, vertical))
                rect x=(x) y=(y) width=(s) height=(s) fill="none" stroke=(STONE_EDGE) stroke-width="1.5" {}
            } @else {
                rect x=(x) y=(y) width=(s) height=(s) fill=(STONE) stroke=(STONE_EDGE) stroke-width="1.5" {}
            }
            rect x=(num(p.x - h + 3.5)) y=(num(p.y - h + 3.5)) width=(i) height=(i) fill="none" stroke="#6e6962" stroke-width="1" {}
        }
    }
}

/// A foundation's stone, and its outline.
const STONE: &str = "#a7a29a";
const STONE_EDGE: &str = "#4b4741";

/// A road's stretch across a foundation's square at `p`, drawn as every
/// road is: its edges, then its surface.
fn road_across(p: Pt, vertical: bool) -> Markup {
    let h = FOUNDATION_HALF;
    html! {
        g class="road-under" {
            @for (width, colour) in ROAD_STROKES {
                @let (w, l) = (num(width), num(2.0 * h));
                @if vertical {
                    rect x=(num(p.x - width / 2.0)) y=(num(p.y - h)) width=(w) height=(l) fill=(colour) {}
                } @else {
                    rect x=(num(p.x - h)) y=(num(p.y - width / 2.0)) width=(l) height=(w) fill=(colour) {}
                }
            }
        }
    }
}
