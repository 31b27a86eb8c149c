//! What a board picture shows, as plain data: placed tiles, meeples, towers
//! with their floors, the players' scores, an optional range overlay, the
//! panel's captions, and the palette to draw them in. `build` makes scenes
//! (from a game, a logged game's state or a board file) and `sample` a game
//! pictured turn by turn; `render` and `report` draw them, knowing no
//! ruleset.

pub mod build;
pub mod sample;

pub use build::{SceneOptions, board_scene, game_scene, palette};
pub use sample::{sample_game, sample_game_within, sample_games};

use crate::kernel::geometry::Pos;
use crate::kernel::{FloorKind, MeepleSpot};

/// Meeple colours by seat, the default of a [`Palette`].
pub const PLAYER_COLOURS: [&str; 8] = [
    "#e0302b", "#2f6fe0", "#f5c518", "#9a4fd6", "#f4f4f4", "#1fb3a3", "#ff80c0", "#66d9ef",
];

/// One picture of a board.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// The heading of the side panel.
    pub title: String,
    /// Lines under the heading, in order.
    pub captions: Vec<String>,
    /// The tiles, in the order they are drawn.
    pub tiles: Vec<SceneTile>,
    /// The meeples standing on segments of tiles (a tower's top is
    /// [`SceneTower::top`]).
    pub meeples: Vec<SceneMeeple>,
    /// The towers to draw: with floors or a meeple on top.
    pub towers: Vec<SceneTower>,
    /// Each seat's score, supply and prisoners; `None` for a board file,
    /// which has plain tiles and no players.
    pub players: Option<Vec<ScenePlayer>>,
    /// A tower's capture range, marked on the board.
    pub range: Option<SceneRange>,
    /// Meeples a capture took off the board, marked where they stood.
    pub taken: Vec<SceneMeeple>,
    /// The rules' neutral figures on the board.
    pub figures: Vec<SceneFigure>,
    /// Draw at least the cells from the first corner to the second, so the
    /// pictures of one game's turns share one frame.
    pub bounds: Option<(Pos, Pos)>,
}

/// How a tile looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileLook {
    /// A kind of the tile set, drawn from its data.
    Kind(u16),
    /// A plain tile of a board file (`#`).
    Plain,
    /// The tower's tile of a board file (`T`): plain, with a foundation.
    Foundation,
}

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneTile {
    pub pos: Pos,
    pub look: TileLook,
    /// Quarter turns clockwise.
    pub rot: u8,
}

/// A meeple and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneMeeple {
    /// The owner's seat.
    pub owner: u8,
    pub pos: Pos,
    pub spot: MeepleSpot,
}

/// A tower: its floors bottom to top and the meeple on top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneTower {
    pub pos: Pos,
    pub floors: Vec<FloorKind>,
    /// The seat of the meeple on top.
    pub top: Option<u8>,
    /// Blocked by a rule: no floor, no meeple on top.
    pub blocked: bool,
}

/// A neutral figure of the rules and the cell it stands on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneFigure {
    /// Its name as the pack declares it (`warden`).
    pub name: String,
    pub pos: Pos,
}

/// One seat in the panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenePlayer {
    /// The seat's name: `player N` unless the scene was given names.
    pub name: String,
    pub score: u32,
    /// Meeples in the supply.
    pub meeples: u32,
    /// Floors in the supply, by floor kind.
    pub floors: Vec<u32>,
    /// Prisoners held: (the prisoner's owner, how many), owners ascending.
    pub prisoners: Vec<(usize, u32)>,
}

/// The cells a tower captures from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneRange {
    /// The tower's cell.
    pub at: Pos,
    /// The cells in range, relative to the tower: where it could take a
    /// meeple (tested as one on a road).
    pub cells: Vec<(i32, i32)>,
    /// The cells with a tile the tower reaches, relative to it, as the
    /// rules give its range: `cells`, and those where the rules let it
    /// take nothing (a house rule that spares road meeples, say), which a
    /// picture marks apart.
    pub reach: Vec<(i32, i32)>,
}

impl SceneRange {
    /// The cells the tower reaches where it could take nothing.
    pub fn spared(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.reach
            .iter()
            .copied()
            .filter(|c| !self.cells.contains(c))
    }
}

/// The colours and names a scene is drawn with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Meeple colours by seat (repeated when there are more seats).
    pub players: Vec<String>,
    /// Floor kinds, by index.
    pub floors: Vec<FloorStyle>,
}

/// How a floor kind is named and coloured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloorStyle {
    pub name: String,
    /// A CSS colour.
    pub colour: String,
}

impl Palette {
    /// The default seat colours and these floor kinds.
    pub fn new(floors: Vec<FloorStyle>) -> Palette {
        Palette {
            players: PLAYER_COLOURS.iter().map(|c| c.to_string()).collect(),
            floors,
        }
    }

    /// The colour of seat `p`.
    pub fn player(&self, p: usize) -> &str {
        match self.players.len() {
            0 => PLAYER_COLOURS[p % PLAYER_COLOURS.len()],
            n => &self.players[p % n],
        }
    }

    /// The name of floor kind `k` (`?` for an unknown kind).
    pub fn floor_name(&self, k: FloorKind) -> &str {
        self.floors.get(k as usize).map_or("?", |f| f.name.as_str())
    }

    /// Names of a stack of floors, joined by `sep`.
    pub fn floor_names(&self, floors: &[FloorKind], sep: &str) -> String {
        floors
            .iter()
            .map(|&k| self.floor_name(k))
            .collect::<Vec<_>>()
            .join(sep)
    }
}

/// A game pictured turn by turn: what the report's replay viewer shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Pictures {
    /// The game's index in its run.
    pub game: u64,
    /// The game's own seed.
    pub seed: u64,
    /// Final scores, by seat.
    pub scores: Vec<u32>,
    pub palette: Palette,
    /// The start tile, each turn, then final scoring.
    pub frames: Vec<Picture>,
}

/// One picture of a game pictured turn by turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    pub scene: Scene,
    /// `start`, `turn N` or `end`.
    pub label: String,
    /// What happened since the previous picture, one line per event.
    pub events: Vec<String>,
    /// A meeple was captured in this turn.
    pub capture: bool,
}
