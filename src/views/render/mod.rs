//! Pictures of boards as self-contained SVG, drawn from a
//! [`crate::views::scene::Scene`] (plain data: tiles, meeples,
//! towers with their floors, players, a range overlay, captions) and a
//! [`crate::views::scene::Palette`]; `views::scene::build` builds scenes.
//!
//! The SVG is structured for tests and viewers: one `<g class="tile">` per
//! placed tile (`data-x`, `data-y` with y north, `data-tile`, `data-rot` in
//! degrees), one `class="meeple"` element per meeple on the board
//! (`data-owner`, `data-x`, `data-y`, `data-on`), one `<g class="tower">` per
//! tower with floors (`data-floors`, bottom to top), one `<rect class="range">`
//! per cell in range (`data-x`, `data-y` relative to the tower), one
//! `<rect class="reached">` per cell the tower reaches where the rules let it
//! take nothing (dotted, not hatched), one
//! `<g class="taken">` per meeple a capture took (`Scene::taken`), one
//! `<g class="figure">` per neutral figure of the rules (`data-name`); a
//! blocked tower has `data-blocked`.
//!
//! Tiles are drawn from their data ([`tile::TileArt`]), so a pack's new tiles
//! draw without code changes; [`tile_sheet_svg`] shows every kind of a set.
//! Each kind's art is drawn once per rotation as a `<symbol>` in `<defs>`
//! (kept by a [`TileBook`], which may serve many pictures), and a placed
//! tile `<use>`s it.

mod board;
pub mod book;
pub mod drawing;
mod frame;
mod lines;
pub mod locate;
mod overlays;
mod panel;
mod style;
pub mod tile;

use maud::{Markup, html};

use crate::kernel::MeepleSpot;
use crate::kernel::geometry::Pos;
use crate::kernel::tiles::TileSet;
use crate::views::scene::{Palette, Scene, TileLook};
pub use book::TileBook;
use drawing::{Drawing, Group, Part, Piece};
use frame::Frame;
use panel::{Marks, Panel};
use style::{MARGIN, PANEL_WIDTH, RANGE_EDGE, TABLE};
use tile::draw::draw_tile;
use tile::{CENTRE, Pt, TILE, TileArt, num};

/// Meeple colours by seat in the default palette.
pub use crate::views::scene::PLAYER_COLOURS;

/// The colour of seat `p` in the default palette.
pub fn player_colour(p: usize) -> &'static str {
    PLAYER_COLOURS[p % PLAYER_COLOURS.len()]
}

/// Seat `p` as a scene's picture names it: its player's name, `player N`
/// for a scene without players.
pub(super) fn seat_name(scene: &Scene, p: usize) -> String {
    scene
        .players
        .as_ref()
        .and_then(|players| players.get(p))
        .map_or_else(|| format!("player {}", p + 1), |player| player.name.clone())
}

/// The tiles of a scene by cell.
pub(super) type TilesAt<'s> = rustc_hash::FxHashMap<Pos, &'s crate::views::scene::SceneTile>;

/// A picture of a scene as an SVG document (see [`board`]).
pub fn board_svg(scene: &Scene, tiles: &TileSet, palette: &Palette) -> String {
    board_svg_with(scene, &TileBook::new(tiles), palette)
}

/// [`board_svg`] with the tile art of `book`, which may have drawn it for
/// earlier pictures already; the picture holds the symbols it uses.
pub fn board_svg_with(scene: &Scene, book: &TileBook, palette: &Palette) -> String {
    let drawing = board(scene, book, palette);
    drawing.svg_with(tile_defs(scene, book))
}

/// The symbols of the tile kinds a scene shows, as `<defs>` children.
fn tile_defs(scene: &Scene, book: &TileBook) -> Markup {
    let used = scene.tiles.iter().filter_map(|t| match t.look {
        TileLook::Kind(k) => Some((k, t.rot)),
        _ => None,
    });
    book.defs_of(used)
}

/// A picture of a scene: the board, meeples in their owners' colours,
/// towers with their floors, the range and taken meeples when the scene has
/// them, and a panel of captions, players and a legend. Tiles of
/// [`TileLook::Kind`] are kinds of the book's tile set, and `<use>` its
/// symbols, which the drawing does not hold ([`TileBook::symbols`]).
pub fn board(scene: &Scene, book: &TileBook, palette: &Palette) -> Drawing {
    // Tiles by cell, so that placing meeples and towers is linear in them.
    let at: TilesAt = scene.tiles.iter().map(|t| (t.pos, t)).collect();
    let frame = Frame::around(&frame_cells(scene));
    let mut parts = vec![Part::Group(frame.grid())];
    let mut placed = layer("tiles");
    for t in &scene.tiles {
        placed.push(board::placed_tile(&frame, t, book));
    }
    parts.push(Part::Group(placed));
    if let Some(range) = &scene.range {
        parts.push(Part::Group(overlays::range(&frame, range)));
    }
    if scene.players.is_some() {
        let mut meeples = layer("meeples");
        for m in &scene.meeples {
            meeples.children.extend(board::meeple(
                &frame,
                &at,
                m,
                (book, palette),
                seat_name(scene, m.owner as usize),
            ));
        }
        parts.push(Part::Group(meeples));
    }
    let mut towers = layer("towers");
    for tower in &scene.towers {
        if let Some(spot) = spot_on(&at, book, tower.pos, MeepleSpot::Tower) {
            let (x, y) = frame.cell(tower.pos);
            let top = tower.top.map(|p| seat_name(scene, p as usize));
            towers.push(board::tower(
                palette,
                tower,
                Pt::new(x + spot.x, y + spot.y),
                top,
            ));
        }
    }
    parts.push(Part::Group(towers));
    if !scene.figures.is_empty() {
        let mut figures = layer("figures");
        for f in scene.figures.iter().filter(|f| at.contains_key(&f.pos)) {
            figures.push(board::figure(&frame, f));
        }
        parts.push(Part::Group(figures));
    }
    if !scene.taken.is_empty() {
        let mut taken = layer("taken-meeples");
        for t in &scene.taken {
            if let Some(spot) = spot_on(&at, book, t.pos, t.spot) {
                let (x, y) = frame.cell(t.pos);
                let whose = seat_name(scene, t.owner as usize);
                taken.push(overlays::taken(t, (Pt::new(x, y), spot), palette, whose));
            }
        }
        parts.push(Part::Group(taken));
    }
    let panel = panel(scene, palette, frame.width() + 16.0);
    finish(&frame, parts, panel)
}

/// A group of the board holding elements of one class.
fn layer(class: &'static str) -> Group {
    Group::new(move |t, children| html! { g data-t=[t] class=(class) { (children) } })
}

/// The side panel of a scene.
fn panel(scene: &Scene, palette: &Palette, x: f64) -> Panel {
    let mut panel = Panel::new(x);
    panel.heading(&scene.title);
    for c in &scene.captions {
        panel.line(c);
    }
    if let Some(players) = &scene.players {
        panel.players(players, palette);
    }
    let marks = Marks {
        range: scene.range.is_some(),
        spared: scene
            .range
            .as_ref()
            .is_some_and(|r| r.spared().next().is_some()),
    };
    panel.legend(palette, marks, scene.players.is_some());
    if !scene.taken.is_empty() {
        panel.taken_legend();
    }
    panel
}

/// The whole picture: background, patterns, the board's parts, then the
/// panel beside them.
fn finish(frame: &Frame, board: Vec<Part>, panel: Panel) -> Drawing {
    let width = frame.width() + 16.0 + PANEL_WIDTH;
    let height = frame.height().max(panel.y + MARGIN);
    let (w, h) = (num(width), num(height));
    let mut parts = vec![
        Part::Piece(Piece::new(move |t| {
            html! { rect data-t=[t] class="background" width=(w) height=(h) fill=(TABLE) {} }
        })),
        Part::Piece(Piece::new(|t| {
            html! {
                defs data-t=[t] {
                    pattern id="range-hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)" {
                        rect width="8" height="8" fill=(RANGE_EDGE) fill-opacity="0.12" {}
                        rect width="3" height="8" fill=(RANGE_EDGE) fill-opacity="0.3" {}
                    }
                }
            }
        })),
    ];
    parts.extend(board);
    parts.push(Part::Group(panel.group));
    Drawing {
        width,
        height,
        parts,
    }
}

/// The cells the frame must hold: every tile and the scene's bounds.
fn frame_cells(scene: &Scene) -> Vec<Pos> {
    let mut cells: Vec<Pos> = scene.tiles.iter().map(|t| t.pos).collect();
    if cells.is_empty() {
        cells.push(Pos::ORIGIN);
    }
    if let Some((low, high)) = scene.bounds {
        cells.extend([low, high]);
    }
    cells
}

/// Where on the page, relative to its cell's corner, a meeple on `spot` of
/// the tile at `pos` stands (a tower on the tile's foundation); `None` when
/// no tile is there.
pub(super) fn spot_on(at: &TilesAt, book: &TileBook, pos: Pos, spot: MeepleSpot) -> Option<Pt> {
    let tile = at.get(&pos)?;
    let TileLook::Kind(k) = tile.look else {
        return Some(CENTRE);
    };
    let art = book.art(k);
    let at = match spot {
        MeepleSpot::Segment(s) => art.anchors().get(s as usize).copied(),
        MeepleSpot::Tower => art.foundation,
    };
    Some(at.unwrap_or(CENTRE).rotated(tile.rot))
}

/// Every tile kind of a tile set at each of its distinct rotations, named:
/// a check that new tiles draw as meant.
pub fn tile_sheet_svg(tiles: &TileSet) -> String {
    const COLUMNS: usize = 4;
    let rows = tiles.kinds.len().div_ceil(2);
    let width = num(2.0 * MARGIN + 2.0 * (COLUMNS as f64 * (TILE + 8.0) + 150.0));
    let height = num(2.0 * MARGIN + rows as f64 * (TILE + 26.0));
    let sheet = html! {
        svg xmlns="http://www.w3.org/2000/svg" width=(width) height=(height)
            viewBox=(format!("0 0 {width} {height}"))
            font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="12" {
            rect width=(width) height=(height) fill=(TABLE) {}
            @for (i, kind) in tiles.kinds.iter().enumerate() {
                @let art = TileArt::new(kind);
                @let x0 = MARGIN + (i % 2) as f64 * (COLUMNS as f64 * (TILE + 8.0) + 150.0);
                @let y0 = MARGIN + (i / 2) as f64 * (TILE + 26.0);
                text x=(num(x0)) y=(num(y0 + 12.0)) { (kind.name) " ×" (kind.count) }
                @for (j, rot) in (0..4u8).filter(|r| kind.distinct_rotations & (1 << r) != 0).enumerate() {
                    @let x = x0 + 150.0 + j as f64 * (TILE + 8.0);
                    g class="tile" data-tile=(kind.name) data-rot=(rot as u16 * 90)
                        transform=(format!("translate({},{})", num(x), num(y0))) { (draw_tile(&art, rot)) }
                }
            }
        }
    };
    sheet.into_string() + "\n"
}

/// Escape text for XML (and HTML) content and attribute values, for the
/// report's text that is not built with maud.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
