//! The report's sample game: the scenes of a game pictured turn by turn,
//! drawn and merged into one SVG (see [`super::timeline`]), with each
//! turn's events for the viewer.

use serde::Serialize;

use crate::kernel::tiles::TileSet;
use crate::views::render::{self, TileBook, book::Symbol};
use crate::views::scene::{Pictures, TileLook};

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
}

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
        SampleGame {
            game: game.game,
            seed: game.seed,
            svg: timeline.svg(),
            symbols,
            frames: game
                .frames
                .iter()
                .map(|p| Frame {
                    label: p.label.clone(),
                    tiles: p.scene.tiles.len(),
                    events: p.events.clone(),
                    capture: p.capture,
                })
                .collect(),
            scores: game.scores.clone(),
        }
    }
}

/// A picture's heading, `VARIANT · game N`, with a pack-list variant's packs
/// by name, as the page names the variant.
fn readable_title(title: &str) -> String {
    match title.split_once(" · ") {
        Some((variant, rest)) => format!("{} · {rest}", super::readable_variant(variant)),
        None => title.to_string(),
    }
}
