//! The report's sample game: the scenes of a game pictured turn by turn,
//! drawn and merged into one SVG (see [`super::timeline`]), with each
//! turn's events for the viewer.

use serde::Serialize;

use crate::kernel::geometry::Pos;
use crate::kernel::tiles::TileSet;
use crate::views::render::locate::Locator;
use crate::views::render::{self, TileBook, book::Symbol};
use crate::views::scene::{Pictures, Scene, TileLook};

use super::timeline::Timeline;

/// A game pictured turn by turn.
#[derive(Clone, Debug)]
pub struct SampleGame {
    /// The game's index in its run.
    pub game: u64,
    /// The game's own seed.
    pub seed: u64,
    /// Every picture merged into one SVG; an element with `data-t` is shown
    /// only in the pictures (indices of `frames`) it names. Its tiles `<use>`
    /// the `symbols`, which the page holds once for all its games.
    pub svg: String,
    /// The tile art the pictures use, each kind and rotation once.
    pub symbols: Vec<Symbol>,
    /// One per picture: the start tile, each turn, then final scoring.
    pub frames: Vec<Frame>,
    /// Final scores, by seat.
    pub scores: Vec<u32>,
}

/// One picture of a sample game.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// `start`, `turn N` or `end`.
    pub label: String,
    /// Tiles on the board.
    pub tiles: usize,
    /// What happened since the previous picture, one line per event.
    pub events: Vec<String>,
    /// A meeple was captured in this turn (its tower's range and the taken
    /// meeple are marked in the picture).
    pub capture: bool,
    /// The part of the board the viewer frames, `[x, y, width, height]` in
    /// the picture's units: the game so far (its tiles, a capture's range)
    /// with a cell around, at least [`VIEW_CELLS`] cells each way, never
    /// smaller than the frame before (so the game opens framed on its
    /// first tiles, and the frame only grows).
    pub view: [f64; 4],
}

/// The fewest cells each way a frame of the viewer shows.
pub const VIEW_CELLS: i32 = 5;

impl SampleGame {
    /// Draw every picture of `game` (its tiles kinds of `tiles`) and merge
    /// them.
    pub fn draw(game: &Pictures, tiles: &TileSet) -> SampleGame {
        SampleGame::draw_with(game, &TileBook::new(tiles))
    }

    /// [`SampleGame::draw`] with the tile art of `book`, which several
    /// games of one tile set share.
    pub fn draw_with(game: &Pictures, book: &TileBook) -> SampleGame {
        let mut timeline = Timeline::default();
        for picture in &game.frames {
            let mut scene = picture.scene.clone();
            scene.title = readable_title(&scene.title);
            timeline.add(render::board(&scene, book, &game.palette));
        }
        let used = game.frames.iter().flat_map(|p| &p.scene.tiles);
        let symbols = book.symbols(used.filter_map(|t| match t.look {
            TileLook::Kind(k) => Some((k, t.rot)),
            _ => None,
        }));
        let mut view: Option<[f64; 4]> = None;
        SampleGame {
            game: game.game,
            seed: game.seed,
            svg: timeline.svg(),
            symbols,
            frames: game
                .frames
                .iter()
                .map(|p| {
                    let here = framed(&p.scene, book);
                    let grown = view.map_or(here, |v| union(v, here));
                    view = Some(grown);
                    Frame {
                        label: p.label.clone(),
                        tiles: p.scene.tiles.len(),
                        events: p.events.clone(),
                        capture: p.capture,
                        view: grown,
                    }
                })
                .collect(),
            scores: game.scores.clone(),
        }
    }
}

/// The part of a picture that shows its game: its tiles, range and taken
/// meeples with a cell around, at least [`VIEW_CELLS`] cells each way.
fn framed(scene: &Scene, book: &TileBook) -> [f64; 4] {
    let mut cells: Vec<Pos> = scene.tiles.iter().map(|t| t.pos).collect();
    if let Some(r) = &scene.range {
        cells.extend(r.cells.iter().map(|&(dx, dy)| r.at.offset(dx, dy)));
    }
    cells.extend(scene.taken.iter().map(|t| t.pos));
    let (mut low, mut high) = (Pos::ORIGIN, Pos::ORIGIN);
    if let Some(first) = cells.first() {
        (low, high) = (*first, *first);
    }
    for p in &cells {
        low = Pos::new(low.x.min(p.x), low.y.min(p.y));
        high = Pos::new(high.x.max(p.x), high.y.max(p.y));
    }
    let (low, high) = (low.offset(-1, -1), high.offset(1, 1));
    let widen = |lo: i32, hi: i32| {
        let short = (VIEW_CELLS - (hi - lo + 1)).max(0);
        (lo - short / 2, hi + short - short / 2)
    };
    let (x0, x1) = widen(low.x, high.x);
    let (y0, y1) = widen(low.y, high.y);
    Locator::new(scene, book).area(Pos::new(x0, y0), Pos::new(x1, y1))
}

/// The smallest box holding both.
fn union(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let x = a[0].min(b[0]);
    let y = a[1].min(b[1]);
    let right = (a[0] + a[2]).max(b[0] + b[2]);
    let bottom = (a[1] + a[3]).max(b[1] + b[3]);
    [x, y, right - x, bottom - y]
}

/// A picture's heading, `VARIANT · game N`, with a pack-list variant's packs
/// by name, as the page names the variant.
fn readable_title(title: &str) -> String {
    match title.split_once(" · ") {
        Some((variant, rest)) => format!("{} · {rest}", super::names::readable_variant(variant)),
        None => title.to_string(),
    }
}
