//! The scenario file format (`tests/*.toml` of a pack, docs/packs.md) as it
//! is read: every value that an error may point at is kept with its place
//! in the file. Names (tiles, floor kinds) are resolved against the rules
//! when a scenario runs (`super::position`), since they depend on them.

use serde::Deserialize;
use toml::Spanned;

/// A scenario file: one or more `[[scenario]]` tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    #[serde(default)]
    pub scenario: Vec<Spanned<RawScenario>>,
}

/// A cell, `[x, y]`: `x` grows east, `y` north, as in logs.
pub type At = Spanned<[i64; 2]>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: Spanned<String>,
    /// The rule IDs the scenario checks (`T6`, `B4`…).
    #[serde(default)]
    pub rules: Vec<Spanned<String>>,
    /// Other rules than the target's for this scenario: packs in order.
    pub packs: Option<Vec<Spanned<String>>>,
    /// Parameter values, by pack then name, as a variant file sets them.
    #[serde(default)]
    pub params: std::collections::BTreeMap<String, std::collections::BTreeMap<String, toml::Value>>,
    pub players: Option<Spanned<i64>>,
    /// The seat to act (0 first).
    pub current: Option<Spanned<i64>>,
    /// Tiles placed so far (the rules' `game().turn`).
    pub turn: Option<Spanned<i64>>,
    pub tiles_left: Option<Spanned<i64>>,
    pub scores: Option<Spanned<Vec<Spanned<i64>>>>,
    #[serde(default)]
    pub tiles: Vec<Spanned<RawTile>>,
    #[serde(default)]
    pub towers: Vec<Spanned<RawTower>>,
    #[serde(default)]
    pub meeples: Vec<Spanned<RawMeeple>>,
    #[serde(default)]
    pub prisoners: Vec<Spanned<RawPrisoners>>,
    /// Floors in supply, for the seats named (the others keep what the
    /// rules give them).
    #[serde(default)]
    pub supply: Vec<Spanned<RawSupply>>,
    /// The table's floors, per kind (kinds not named: 0), when given.
    pub table: Option<Spanned<std::collections::BTreeMap<String, Spanned<i64>>>>,
    /// Decisions played from the position, in order.
    #[serde(default)]
    pub steps: Vec<Spanned<RawStep>>,
    /// Values of the packs' state in the position (the rest at their
    /// defaults).
    #[serde(default)]
    pub state: Vec<Spanned<RawStateValue>>,
    #[serde(default)]
    pub expect: RawExpect,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTile {
    /// `set/name` or a bare name, as tile files and logs name tiles.
    pub tile: Spanned<String>,
    pub at: At,
    /// Degrees clockwise: 0, 90, 180 or 270.
    pub rot: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTower {
    pub at: At,
    /// Floor kinds, bottom to top.
    #[serde(default)]
    pub floors: Vec<Spanned<String>>,
    /// The seat whose meeple stands on top.
    pub top: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMeeple {
    pub owner: Spanned<i64>,
    pub at: At,
    /// The segment of the tile's kind (`towerlab tiles --segments`); or
    /// `on`, when the tile has one segment of that kind.
    pub segment: Option<Spanned<i64>>,
    pub on: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPrisoners {
    pub captor: Spanned<i64>,
    pub owner: Spanned<i64>,
    #[serde(default = "one")]
    pub count: Spanned<i64>,
}

fn one() -> Spanned<i64> {
    Spanned::new(0..0, 1)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSupply {
    pub seat: Spanned<i64>,
    /// Count per floor kind; kinds not named: 0.
    pub floors: Spanned<std::collections::BTreeMap<String, Spanned<i64>>>,
}

/// One decision: exactly one of its keys says which.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStep {
    /// Place this tile (`at`, `rot`); a turn already begun ends first.
    pub tile: Option<Spanned<String>>,
    pub at: Option<At>,
    pub rot: Option<Spanned<i64>>,
    /// Pay a ransom to this captor.
    pub ransom: Option<Spanned<i64>>,
    /// A meeple on this segment of the turn's tile.
    pub meeple: Option<Spanned<i64>>,
    /// A floor of this kind on the tower at `at`.
    pub floor: Option<Spanned<String>>,
    /// A meeple on top of the tower at this cell.
    pub top: Option<At>,
    /// Capture the meeple at this cell (`on` picks one of several there).
    pub capture: Option<At>,
    pub on: Option<Spanned<String>>,
    /// No action this turn.
    pub pass: Option<Spanned<bool>>,
    /// `"turn"`: end the turn (score what it completed); `"game"`: end the
    /// turn and score the end of the game.
    pub end: Option<Spanned<String>>,
    /// The game must refuse this decision (and the steps go on without it).
    #[serde(default)]
    pub refused: bool,
}

/// What must hold once the steps are played (or in the position as set up).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawExpect {
    #[serde(default)]
    pub range: Vec<Spanned<RawRange>>,
    #[serde(default)]
    pub capturable: Vec<Spanned<RawCapturable>>,
    /// Which seats may put a floor of a kind on a tower.
    #[serde(default)]
    pub floors: Vec<Spanned<RawMay>>,
    /// Which seats may put a meeple on top of a tower.
    #[serde(default)]
    pub top: Vec<Spanned<RawMay>>,
    #[serde(default)]
    pub ransom: Vec<Spanned<RawRansom>>,
    /// The table's floors now, per kind (kinds not named: 0).
    pub table: Option<Spanned<std::collections::BTreeMap<String, Spanned<i64>>>>,
    /// A seat's supply at the start of a game, as the rules give it.
    #[serde(default)]
    pub supply: Vec<Spanned<RawSupply>>,
    /// Every seat's score now.
    pub scores: Option<Spanned<Vec<Spanned<i64>>>>,
    /// Every seat's score after the end of the game is scored from here.
    pub end_scores: Option<Spanned<Vec<Spanned<i64>>>>,
    /// Prisoners held now.
    #[serde(default)]
    pub prisoners: Vec<Spanned<RawPrisoners>>,
    /// The log records the steps wrote, of the events these name, in order;
    /// each with the fields it gives.
    pub events: Option<Spanned<Vec<Spanned<toml::Table>>>>,
    /// Log records the steps wrote, in this order, with any others before,
    /// between and after them.
    pub events_include: Option<Spanned<Vec<Spanned<toml::Table>>>>,
    /// Events the steps must not log.
    #[serde(default)]
    pub no_events: Vec<Spanned<String>>,
    /// Values of the packs' state now.
    #[serde(default)]
    pub state: Vec<Spanned<RawStateValue>>,
}

/// A value of a pack's state: the variable (`name`, or `pack.name`), the
/// seat or cell for one kept per seat or per tower or cell, the value; or
/// where a neutral figure stands (`at`; none: off the board).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStateValue {
    pub name: Spanned<String>,
    pub seat: Option<Spanned<i64>>,
    pub at: Option<At>,
    /// A whole number, or true/false for a bool; none for a figure.
    pub value: Option<Spanned<toml::Value>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRange {
    pub tower: At,
    /// `[[dx, dy], …]` relative to the tower, or a picture as `towerlab
    /// range` draws one: `T` the tower in range, `t` the tower out of it,
    /// `X` a cell in range, `.` or `#` one out of it; north up.
    pub cells: Spanned<Cells>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Cells {
    List(Vec<[i64; 2]>),
    Picture(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCapturable {
    pub tower: At,
    /// The cells of the meeples a floor just placed there may take.
    pub meeples: Spanned<Vec<At>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMay {
    pub tower: At,
    /// The floor kind (for `floors`).
    pub kind: Option<Spanned<String>>,
    /// The seats allowed.
    pub seats: Spanned<Vec<Spanned<i64>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRansom {
    /// The seat paying (default: the seat to act).
    pub payer: Option<Spanned<i64>>,
    pub captor: Spanned<i64>,
    /// Points, or `"none"` for no ransom allowed.
    pub cost: Spanned<toml::Value>,
}
