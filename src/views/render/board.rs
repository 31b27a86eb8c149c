//! The things on the board: tiles in their places, meeples on segments,
//! towers with their floors and the meeple on top; each one [`Piece`].

use maud::{Markup, html};

use crate::kernel::MeepleSpot;
use crate::kernel::tiles::SegmentKind;
use crate::views::scene::{Palette, SceneFigure, SceneMeeple, SceneTile, SceneTower, TileLook};

use super::drawing::Piece;
use super::frame::Frame;
use super::style::{BLOCKED, FIELD_EDGE, FIGURE, INK, MEEPLE_PATH, PLAIN};
use super::tile::draw::draw_foundation;
use super::tile::{CENTRE, FOUNDATION_HALF, Pt, TILE, num};
use super::{TileBook, TilesAt, spot_on};

/// One tile in its place: a kind's symbol, or a board file's plain tile.
pub(super) fn placed_tile(frame: &Frame, t: &SceneTile, book: &TileBook) -> Piece {
    let (x, y) = frame.cell(t.pos);
    let transform = format!("translate({},{})", num(x), num(y));
    let (px, py) = (t.pos.x, t.pos.y);
    let (name, rot, title, inner) = match t.look {
        TileLook::Kind(k) => {
            let name = book.tiles().kinds[k as usize].name.clone();
            let deg = t.rot as u16 * 90;
            let title = format!("{name} at {px},{py} turned {deg}°");
            let href = format!("#{}", book.symbol_id(k, t.rot));
            (name, deg, title, html! { use href=(href) {} })
        }
        TileLook::Plain | TileLook::Foundation => {
            let tower = t.look == TileLook::Foundation;
            let size = num(TILE);
            let inner = html! {
                rect width=(size) height=(size) fill=(PLAIN) stroke=(FIELD_EDGE) stroke-width="1" {}
                @if tower { (draw_foundation(CENTRE)) }
            };
            let (name, what) = if tower {
                ("T", "the tower's tile")
            } else {
                ("#", "a tile")
            };
            (name.to_string(), 0, format!("{what} at {px},{py}"), inner)
        }
    };
    Piece::new(move |shown| {
        html! {
            g data-t=[shown] class="tile" data-x=(px) data-y=(py) data-tile=(name) data-rot=(rot)
                transform=(transform) { title { (title) } (inner) }
        }
    })
}

/// A meeple on a segment, lying down in a field; `None` when it stands on
/// no tile of the scene.
/// `owner` names the meeple's seat.
pub(super) fn meeple(
    frame: &Frame,
    at: &TilesAt,
    m: &SceneMeeple,
    (book, palette): (&TileBook, &Palette),
    owner: String,
) -> Option<Piece> {
    let MeepleSpot::Segment(s) = m.spot else {
        return None;
    };
    let tile = at.get(&m.pos)?;
    let TileLook::Kind(k) = tile.look else {
        return None;
    };
    let spot = spot_on(at, book, m.pos, m.spot)?;
    let on = book.tiles().kinds[k as usize].segments[s as usize].kind;
    let (x, y) = frame.cell(m.pos);
    let lying = if on == SegmentKind::Field {
        " rotate(90)"
    } else {
        ""
    };
    let transform = format!("translate({},{}){lying}", num(x + spot.x), num(y + spot.y));
    let title = format!(
        "{owner}'s meeple on a {} at {},{}",
        on.name(),
        m.pos.x,
        m.pos.y
    );
    let (owner, mx, my) = (m.owner, m.pos.x, m.pos.y);
    let colour = palette.player(owner as usize).to_string();
    Some(Piece::new(move |shown| {
        html! {
            g data-t=[shown] class="meeple" data-owner=(owner) data-x=(mx) data-y=(my) data-on=(on.name())
                data-segment=(s) transform=(transform) {
                title { (title) }
                path d=(MEEPLE_PATH) transform="translate(0,-1)" fill=(colour) stroke=(INK)
                    stroke-width="1.2" stroke-linejoin="round" {}
            }
        }
    }))
}

/// A tower: its floors stacked from the foundation at `foot` upwards, each
/// in its kind's colour, its height written beside it, and the meeple on top
/// (its seat named `top`).
pub(super) fn tower(palette: &Palette, tower: &SceneTower, foot: Pt, top: Option<String>) -> Piece {
    let (pos, n) = (tower.pos, tower.floors.len());
    let kinds = palette.floor_names(&tower.floors, ",");
    let title = if n == 0 {
        format!("tower at {},{}: no floors", pos.x, pos.y)
    } else {
        format!(
            "tower at {},{}: {n} floors: {} (bottom to top)",
            pos.x,
            pos.y,
            palette.floor_names(&tower.floors, ", ")
        )
    };
    let title = match tower.blocked {
        true => format!("{title}; blocked by a rule"),
        false => title,
    };
    let blocked = tower.blocked.then_some("true");
    let inner = html! {
        (stack(palette, tower, foot)) (tower_top(palette, tower, foot, top))
        @if tower.blocked { (barrier(foot)) }
    };
    Piece::new(move |shown| {
        html! {
            g data-t=[shown] class="tower" data-x=(pos.x) data-y=(pos.y) data-floors=(kinds) data-height=(n)
                data-blocked=[blocked] {
                title { (title) } (inner)
            }
        }
    })
}

/// The height of a floor, up to six of them in a stack: each floor of a
/// stack stays countable where a cell is a finger's width (48 px, the
/// browser game's least while cells are chosen), about 6 px.
pub const FLOOR_HEIGHT: f64 = 8.0;
/// How much wider than its foundation a stack is drawn.
const STACK_OVERHANG: f64 = 2.0;
/// The size of the height written beside a stack.
const HEIGHT_FONT: f64 = 16.0;
/// The highest a stack is drawn: taller ones have lower floors.
const STACK_HEIGHT: f64 = 6.0 * FLOOR_HEIGHT;

/// The height of one floor in a stack of `n`.
fn band(n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        (STACK_HEIGHT / n as f64).min(FLOOR_HEIGHT)
    }
}

/// Where the stack stands: its bottom and its width (a little wider than
/// the foundation).
fn base_and_width(foot: Pt) -> (f64, f64) {
    (
        foot.y + FOUNDATION_HALF - 1.0,
        2.0 * (FOUNDATION_HALF + STACK_OVERHANG),
    )
}

/// The floors on a light backing, and the height written beside them.
fn stack(palette: &Palette, tower: &SceneTower, foot: Pt) -> Markup {
    let n = tower.floors.len();
    let band = band(n);
    let (base, w) = base_and_width(foot);
    html! {
        @if n > 0 {
            rect x=(num(foot.x - w / 2.0 - 2.0)) y=(num(base - n as f64 * band - 2.0)) width=(num(w + 4.0))
                height=(num(n as f64 * band + 4.0)) rx="1.5" fill="#fff" fill-opacity="0.85"
                stroke=(INK) stroke-width="0.6" {}
        }
        @for (i, &k) in tower.floors.iter().enumerate() {
            @let colour = palette.floors.get(k as usize).map_or("#888", |d| d.colour.as_str());
            rect class="floor" data-kind=(palette.floor_name(k)) x=(num(foot.x - w / 2.0))
                y=(num(base - (i + 1) as f64 * band)) width=(num(w)) height=(num(band)) fill=(colour)
                stroke=(INK) stroke-width="0.8" {}
        }
        @if n > 0 {
            text class="height" x=(num(foot.x + w / 2.0 + 3.0)) y=(num(base - 1.0)) font-size=(num(HEIGHT_FONT))
                font-weight="bold" fill=(INK) stroke="#fff" stroke-width="3" paint-order="stroke" { (n) }
        }
    }
}

/// A blocked tower's barrier: a bar across its foundation.
fn barrier(foot: Pt) -> Markup {
    let (base, w) = base_and_width(foot);
    let half = w / 2.0 + 4.0;
    html! {
        path class="barrier" d=(format!("M{} {}L{} {}", num(foot.x - half), num(base + 3.0), num(foot.x + half), num(base + 3.0)))
            stroke=(BLOCKED) stroke-width="4" stroke-linecap="round" {}
    }
}

/// A neutral figure of the rules: a grey pawn in the tile's top left
/// corner with its initial, named in its title.
pub(super) fn figure(frame: &Frame, f: &SceneFigure) -> Piece {
    let (x, y) = frame.cell(f.pos);
    let (cx, cy) = (num(x + 12.0), num(y + 12.0));
    let initial: String = f
        .name
        .chars()
        .take(1)
        .flat_map(char::to_uppercase)
        .collect();
    let (name, px, py) = (f.name.clone(), f.pos.x, f.pos.y);
    Piece::new(move |shown| {
        html! {
            g data-t=[shown] class="figure" data-name=(name) data-x=(px) data-y=(py) {
                title { "the " (name) " at " (px) "," (py) }
                circle cx=(cx) cy=(cy) r="9" fill=(FIGURE) stroke=(INK) stroke-width="1.2" {}
                text x=(cx) y=(cy) dy="4" text-anchor="middle" font-size="11" font-weight="bold"
                    fill="#fff" { (initial) }
            }
        }
    })
}

/// The meeple on top of the tower, if any, its seat named `name`.
fn tower_top(palette: &Palette, tower: &SceneTower, foot: Pt, name: Option<String>) -> Markup {
    let Some(owner) = tower.top else {
        return html! {};
    };
    let name = name.unwrap_or_else(|| format!("player {}", owner + 1));
    let (pos, n) = (tower.pos, tower.floors.len());
    let (base, _) = base_and_width(foot);
    let top_y = base - n as f64 * band(n);
    html! {
        g class="meeple" data-owner=(owner) data-x=(pos.x) data-y=(pos.y) data-on="tower"
            transform=(format!("translate({},{}) scale(0.85)", num(foot.x), num(top_y - 8.5))) {
            title { (name) "'s meeple on the tower at " (pos.x) "," (pos.y) }
            path d=(MEEPLE_PATH) fill=(palette.player(owner as usize)) stroke=(INK) stroke-width="1.3"
                stroke-linejoin="round" {}
        }
    }
}
