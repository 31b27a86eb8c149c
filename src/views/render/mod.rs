//! Pictures of boards as self-contained SVG, drawn from a
//! [`Scene`](crate::kernel::scene::Scene) (plain data: tiles, meeples,
//! towers with their floors, players, a range overlay, captions) and a
//! [`Palette`](crate::kernel::scene::Palette); the play layer builds scenes.
//!
//! The SVG is structured for tests and viewers: one `<g class="tile">` per
//! placed tile (`data-x`, `data-y` with y north, `data-tile`, `data-rot` in
//! degrees), one `class="meeple"` element per meeple on the board
//! (`data-owner`, `data-x`, `data-y`, `data-on`), one `<g class="tower">` per
//! tower with floors (`data-floors`, bottom to top), one `<rect class="range">`
//! per cell in range (`data-x`, `data-y` relative to the tower), one
//! `<g class="taken">` per meeple a capture took (`Scene::taken`).
//!
//! Tiles are drawn from their data ([`tile::TileArt`]), so a pack's new tiles
//! draw without code changes; [`tile_sheet_svg`] shows every kind of a set.

pub mod tile;

use std::collections::HashMap;
use std::fmt::Write;

use crate::kernel::MeepleSpot;
use crate::kernel::geometry::Pos;
use crate::kernel::scene::{
    Palette, Scene, SceneMeeple, ScenePlayer, SceneTile, SceneTower, TileLook,
};
use crate::kernel::tiles::{SegmentKind, TileSet};
use tile::{CENTRE, CLOISTER_HALF, FOUNDATION_HALF, Pt, ROAD_HALF_WIDTH, TILE, TileArt, num};

/// Meeple colours by seat in the default palette.
pub use crate::kernel::scene::PLAYER_COLOURS;

const FIELD: &str = "#9cc46a";
const FIELD_EDGE: &str = "#6c8f45";
const CITY: &str = "#d8a657";
const CITY_WALL: &str = "#7a5426";
const ROAD: &str = "#f7f1e1";
const ROAD_EDGE: &str = "#5e5a52";
const PLAIN: &str = "#c9d7b4";
const TABLE: &str = "#f3efe6";
const INK: &str = "#2b2b2b";
const RANGE_EDGE: &str = "#d4007a";
const TAKEN: &str = "#b00020";

/// Space around the board, for the coordinates.
const MARGIN: f64 = 30.0;
const PANEL_WIDTH: f64 = 270.0;
const MEEPLE_PATH: &str = "M0 -8C2.6 -8 4 -6.2 4 -4.2C4 -3 3.5 -2.2 2.8 -1.6L7.8 .2C9.2 .7 9.4 2.8 8 3.2L4.2 3.8L7.2 10H2L0 6.4L-2 10H-7.2L-4.2 3.8L-8 3.2C-9.4 2.8 -9.2 .7 -7.8 .2L-2.8 -1.6C-3.5 -2.2 -4 -3 -4 -4.2C-4 -6.2 -2.6 -8 0 -8Z";

/// The colour of seat `p` in the default palette.
pub fn player_colour(p: usize) -> &'static str {
    PLAYER_COLOURS[p % PLAYER_COLOURS.len()]
}

/// A picture of a scene: the board, meeples in their owners' colours,
/// towers with their floors, the range and taken meeples when the scene has
/// them, and a panel of captions, players and a legend. Tiles of
/// [`TileLook::Kind`] are kinds of `tiles`.
pub fn board_svg(scene: &Scene, tiles: &TileSet, palette: &Palette) -> String {
    let arts = tile_arts(scene, tiles);
    let frame = Frame::around(&frame_cells(scene));
    let mut body = String::new();
    frame.grid(&mut body);
    body.push_str("<g class=\"tiles\">\n");
    for t in &scene.tiles {
        draw_placed(&mut body, &frame, t, tiles, &arts);
    }
    body.push_str("</g>\n");
    if let Some(range) = &scene.range {
        draw_range(&mut body, &frame, range.at, &range.cells);
    }
    if scene.players.is_some() {
        body.push_str("<g class=\"meeples\">\n");
        for m in &scene.meeples {
            draw_meeple(&mut body, &frame, scene, m, tiles, &arts, palette);
        }
        body.push_str("</g>\n");
    }
    body.push_str("<g class=\"towers\">\n");
    for tower in &scene.towers {
        let Some(spot) = spot_on(scene, &arts, tower.pos, MeepleSpot::Tower) else {
            continue;
        };
        let (x, y) = frame.cell(tower.pos);
        draw_tower(&mut body, palette, tower, Pt::new(x + spot.x, y + spot.y));
    }
    body.push_str("</g>\n");
    if !scene.taken.is_empty() {
        body.push_str("<g class=\"taken-meeples\">\n");
        for t in &scene.taken {
            let Some(spot) = spot_on(scene, &arts, t.pos, t.spot) else {
                continue;
            };
            let (x, y) = frame.cell(t.pos);
            draw_taken(&mut body, t, Pt::new(x, y), spot, palette);
        }
        body.push_str("</g>\n");
    }
    let mut panel = Panel::new(frame.width() + 16.0);
    panel.heading(&scene.title);
    for c in &scene.captions {
        panel.line(c);
    }
    if let Some(players) = &scene.players {
        panel.players(players, palette);
    }
    panel.legend(palette, scene.range.is_some(), scene.players.is_some());
    if !scene.taken.is_empty() {
        panel.taken_legend();
    }
    finish(&frame, body, panel)
}

/// The art of each tile kind the scene shows.
fn tile_arts<'k>(scene: &Scene, tiles: &'k TileSet) -> HashMap<u16, TileArt<'k>> {
    let mut arts = HashMap::new();
    for t in &scene.tiles {
        if let TileLook::Kind(k) = t.look {
            arts.entry(k)
                .or_insert_with(|| TileArt::new(&tiles.kinds[k as usize]));
        }
    }
    arts
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
fn spot_on(scene: &Scene, arts: &HashMap<u16, TileArt>, pos: Pos, spot: MeepleSpot) -> Option<Pt> {
    let tile = scene.tiles.iter().find(|t| t.pos == pos)?;
    let TileLook::Kind(k) = tile.look else {
        return Some(CENTRE);
    };
    let art = &arts[&k];
    let at = match spot {
        MeepleSpot::Segment(s) => art.anchors().get(s as usize).copied(),
        MeepleSpot::Tower => art.foundation,
    };
    Some(at.unwrap_or(CENTRE).rotated(tile.rot))
}

/// One tile in its place.
fn draw_placed(
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
fn draw_meeple(
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

/// Every tile kind of a tile set at each of its distinct rotations, named:
/// a check that new tiles draw as meant.
pub fn tile_sheet_svg(tiles: &TileSet) -> String {
    const COLUMNS: usize = 4;
    let rows = tiles.kinds.len().div_ceil(2);
    let width = 2.0 * MARGIN + 2.0 * (COLUMNS as f64 * (TILE + 8.0) + 150.0);
    let height = 2.0 * MARGIN + rows as f64 * (TILE + 26.0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" font-size=\"12\">",
        w = num(width),
        h = num(height)
    );
    let _ = writeln!(
        out,
        "<rect width=\"{}\" height=\"{}\" fill=\"{TABLE}\"/>",
        num(width),
        num(height)
    );
    for (i, kind) in tiles.kinds.iter().enumerate() {
        let art = TileArt::new(kind);
        let x0 = MARGIN + (i % 2) as f64 * (COLUMNS as f64 * (TILE + 8.0) + 150.0);
        let y0 = MARGIN + (i / 2) as f64 * (TILE + 26.0);
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\">{} ×{}</text>",
            num(x0),
            num(y0 + 12.0),
            escape(&kind.name),
            kind.count
        );
        let mut x = x0 + 150.0;
        for rot in (0..4u8).filter(|r| kind.distinct_rotations & (1 << r) != 0) {
            let _ = writeln!(
                out,
                "<g class=\"tile\" data-tile=\"{}\" data-rot=\"{}\" transform=\"translate({},{})\">",
                escape(&kind.name),
                rot as u16 * 90,
                num(x),
                num(y0)
            );
            draw_tile(&mut out, &art, rot);
            out.push_str("</g>\n");
            x += TILE + 8.0;
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The board's cells on the page.
struct Frame {
    min_x: i32,
    max_y: i32,
    cols: i32,
    rows: i32,
}

impl Frame {
    fn around(cells: &[Pos]) -> Frame {
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
    fn cell(&self, p: Pos) -> (f64, f64) {
        (
            MARGIN + (p.x - self.min_x) as f64 * TILE,
            MARGIN + (self.max_y - p.y) as f64 * TILE,
        )
    }

    fn width(&self) -> f64 {
        2.0 * MARGIN + self.cols as f64 * TILE
    }

    fn height(&self) -> f64 {
        2.0 * MARGIN + self.rows as f64 * TILE
    }

    /// Faint cell lines and the coordinates along the top and left.
    fn grid(&self, out: &mut String) {
        out.push_str(
            "<g class=\"grid\" font-size=\"11\" fill=\"#8a8170\" text-anchor=\"middle\">\n",
        );
        let _ = writeln!(
            out,
            "<rect x=\"{m}\" y=\"{m}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#ddd5c4\" stroke-width=\"1\"/>",
            num(self.cols as f64 * TILE),
            num(self.rows as f64 * TILE),
            m = num(MARGIN)
        );
        for c in 0..self.cols {
            let x = MARGIN + (c as f64 + 0.5) * TILE;
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                num(x),
                num(MARGIN - 10.0),
                self.min_x + c
            );
        }
        for r in 0..self.rows {
            let y = MARGIN + (r as f64 + 0.5) * TILE + 4.0;
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                num(MARGIN / 2.0),
                num(y),
                self.max_y - r
            );
        }
        out.push_str("</g>\n");
    }
}

/// One tile, drawn in its printed orientation and turned into place; the
/// symbols on it (pennants, cloister, foundation) stay upright.
fn draw_tile(out: &mut String, art: &TileArt, rot: u8) {
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
fn draw_cloister(out: &mut String) {
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
fn draw_foundation(out: &mut String, p: Pt) {
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

/// A tower: its floors stacked from the foundation at `foot` upwards, each
/// in its kind's colour, its height written beside it, and the meeple on top.
fn draw_tower(out: &mut String, palette: &Palette, tower: &SceneTower, foot: Pt) {
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

/// A meeple taken by a capture: its cell outlined, and where it stood a
/// faded meeple in its owner's colour, crossed out in a ring.
fn draw_taken(out: &mut String, t: &SceneMeeple, corner: Pt, spot: Pt, palette: &Palette) {
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

/// The cells in a tower's range, relative to the tower at `at`.
fn draw_range(out: &mut String, frame: &Frame, at: Pos, cells: &[(i32, i32)]) {
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

/// The side panel: text lines, players and the legend, laid out downwards.
struct Panel {
    x: f64,
    y: f64,
    out: String,
}

impl Panel {
    fn new(x: f64) -> Panel {
        Panel {
            x,
            y: MARGIN,
            out: String::from("<g class=\"panel\" font-size=\"12\" fill=\"#2b2b2b\">\n"),
        }
    }

    fn heading(&mut self, text: &str) {
        self.y += 6.0;
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"16\" font-weight=\"bold\">{}</text>",
            num(self.x),
            num(self.y),
            escape(text)
        );
        self.y += 20.0;
    }

    fn subheading(&mut self, text: &str) {
        self.y += 10.0;
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">{}</text>",
            num(self.x),
            num(self.y),
            escape(text)
        );
        self.y += 16.0;
    }

    /// A line of text, wrapped to the panel's width.
    fn line(&mut self, text: &str) {
        for part in wrap(text, 36) {
            let _ = writeln!(
                self.out,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                num(self.x),
                num(self.y),
                escape(&part)
            );
            self.y += 16.0;
        }
    }

    fn meeple_icon(&mut self, x: f64, y: f64, colour: &str, scale: f64) {
        let _ = writeln!(
            self.out,
            "<path class=\"icon\" d=\"{MEEPLE_PATH}\" transform=\"translate({},{}) scale({})\" fill=\"{colour}\" stroke=\"{INK}\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/>",
            num(x),
            num(y),
            num(scale)
        );
    }

    fn swatch(&mut self, x: f64, y: f64, fill: &str, stroke: &str) {
        let _ = writeln!(
            self.out,
            "<rect class=\"swatch\" x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1\"/>",
            num(x),
            num(y),
            escape(fill),
            escape(stroke)
        );
    }

    /// Each player: colour, score, supplies and the prisoners they hold.
    fn players(&mut self, players: &[ScenePlayer], palette: &Palette) {
        self.subheading("Players");
        for (p, player) in players.iter().enumerate() {
            let colour = palette.player(p).to_string();
            let y = self.y;
            self.meeple_icon(self.x + 9.0, y + 2.0, &colour, 1.0);
            let _ = writeln!(
                self.out,
                "<text class=\"score\" data-player=\"{p}\" x=\"{}\" y=\"{}\" font-size=\"13\"><tspan font-weight=\"bold\">Player {}</tspan>: {} points</text>",
                num(self.x + 24.0),
                num(y + 2.0),
                p + 1,
                player.score
            );
            let mut line = format!(
                "supply: {} meeple{}",
                player.meeples,
                if player.meeples == 1 { "" } else { "s" }
            );
            if !palette.floors.is_empty() {
                let floors: Vec<String> = palette
                    .floors
                    .iter()
                    .zip(&player.floors)
                    .map(|(d, c)| format!("{c} {}", d.name))
                    .collect();
                line += &format!(", floors {}", floors.join(", "));
            }
            let mut y2 = y + 18.0;
            for part in wrap(&line, 36) {
                let _ = writeln!(
                    self.out,
                    "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>",
                    num(self.x + 24.0),
                    num(y2),
                    escape(&part)
                );
                y2 += 14.0;
            }
            let held = &player.prisoners;
            if !held.is_empty() {
                let _ = writeln!(
                    self.out,
                    "<text x=\"{}\" y=\"{}\" font-size=\"11\">holds prisoners:</text>",
                    num(self.x + 24.0),
                    num(y2)
                );
                let mut x = self.x + 128.0;
                for &(o, c) in held {
                    if x + 50.0 > self.x + PANEL_WIDTH - 8.0 {
                        x = self.x + 128.0;
                        y2 += 16.0;
                    }
                    let _ = writeln!(
                        self.out,
                        "<g class=\"prisoners\" data-captor=\"{p}\" data-owner=\"{o}\" data-count=\"{c}\">"
                    );
                    let colour = palette.player(o).to_string();
                    self.meeple_icon(x, y2 - 4.0, &colour, 0.7);
                    let _ = writeln!(
                        self.out,
                        "<text x=\"{}\" y=\"{}\" font-size=\"11\">×{c} (P{})</text></g>",
                        num(x + 8.0),
                        num(y2),
                        o + 1
                    );
                    x += 52.0;
                }
                y2 += 14.0;
            }
            self.y = y2 + 8.0;
        }
    }

    /// Floor kinds, features and marks.
    fn legend(&mut self, palette: &Palette, range: bool, features: bool) {
        if !palette.floors.is_empty() {
            self.subheading("Floors");
            for d in &palette.floors {
                self.swatch(self.x, self.y - 10.0, &d.colour, INK);
                self.text_at(self.x + 18.0, &d.name);
                self.y += 16.0;
            }
            self.line("a tower: its floors bottom to top, the count beside");
        }
        self.subheading("Board");
        if features {
            for (fill, stroke, name) in [
                (CITY, CITY_WALL, "city"),
                (ROAD, ROAD_EDGE, "road"),
                (FIELD, FIELD_EDGE, "field"),
            ] {
                self.swatch(self.x, self.y - 10.0, fill, stroke);
                self.text_at(self.x + 18.0, name);
                self.y += 16.0;
            }
            let (x, y) = (self.x, self.y);
            let _ = writeln!(
                self.out,
                "<g transform=\"translate({},{}) scale(0.7)\">",
                num(x + 6.0),
                num(y - 5.0)
            );
            draw_cloister(&mut self.out);
            self.out.push_str("</g>\n");
            self.text_at(self.x + 18.0, "cloister");
            self.y += 16.0;
            let _ = writeln!(
                self.out,
                "<path d=\"M-5 -6H5V-1C5 3 2.5 5 0 6.5C-2.5 5 -5 3 -5 -1Z\" transform=\"translate({},{}) scale(0.8)\" fill=\"#2a58b8\" stroke=\"#fff\" stroke-width=\"1.2\"/>",
                num(self.x + 6.0),
                num(self.y - 4.0)
            );
            self.text_at(self.x + 18.0, "pennant");
            self.y += 16.0;
            self.meeple_icon(self.x + 6.0, self.y - 4.0, "#ffffff", 0.7);
            self.text_at(self.x + 18.0, "meeple (lying: a farmer in a field)");
            self.y += 16.0;
        } else {
            self.swatch(self.x, self.y - 10.0, PLAIN, FIELD_EDGE);
            self.text_at(self.x + 18.0, "a tile");
            self.y += 16.0;
        }
        let _ = writeln!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"#a7a29a\" stroke=\"#4b4741\" stroke-width=\"1.5\"/>",
            num(self.x),
            num(self.y - 10.0)
        );
        self.text_at(self.x + 18.0, "tower foundation");
        self.y += 16.0;
        if range {
            let _ = writeln!(
                self.out,
                "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"url(#range-hatch)\" stroke=\"{RANGE_EDGE}\" stroke-width=\"2\"/>",
                num(self.x),
                num(self.y - 10.0)
            );
            self.text_at(self.x + 18.0, "in range (dashed: the tower's tile)");
            self.y += 16.0;
        }
        self.line("x grows east, y north");
    }

    /// The mark of a meeple taken by a capture.
    fn taken_legend(&mut self) {
        let (x, y) = (self.x + 6.0, self.y - 4.0);
        let _ = writeln!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"#fff\" stroke=\"{TAKEN}\" stroke-width=\"2\"/><path d=\"M-4 -4L4 4M4 -4L-4 4\" transform=\"translate({},{})\" stroke=\"{TAKEN}\" stroke-width=\"2\"/>",
            num(x),
            num(y),
            num(x),
            num(y)
        );
        self.text_at(self.x + 18.0, "meeple taken by a capture");
        self.y += 16.0;
    }

    fn text_at(&mut self, x: f64, text: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            num(x),
            num(self.y),
            escape(text)
        );
    }
}

/// The whole document: board, then panel beside it.
fn finish(frame: &Frame, body: String, mut panel: Panel) -> String {
    panel.out.push_str("</g>\n");
    let width = frame.width() + 16.0 + PANEL_WIDTH;
    let height = frame.height().max(panel.y + MARGIN);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">",
        w = num(width),
        h = num(height)
    );
    let _ = writeln!(
        out,
        "<rect class=\"background\" width=\"{}\" height=\"{}\" fill=\"{TABLE}\"/>",
        num(width),
        num(height)
    );
    let _ = writeln!(
        out,
        "<defs><pattern id=\"range-hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"{RANGE_EDGE}\" fill-opacity=\"0.12\"/><rect width=\"3\" height=\"8\" fill=\"{RANGE_EDGE}\" fill-opacity=\"0.3\"/></pattern></defs>"
    );
    out.push_str(&body);
    out.push_str(&panel.out);
    out.push_str("</svg>\n");
    out
}

/// Split `text` into lines of at most about `width` characters, at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// Escape text for XML (and HTML) content and attribute values.
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
