//! The studio's JSON (docs/studio.md): the packs a page may start from,
//! the reference of what a pack may use, and the requests and answers of
//! checking, asking and testing a pack. Stable as the game's API is
//! ([`super`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::PackFiles;

/// `GET /api/studio/starts`: the packs a studio page may start from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudioStarts {
    pub starts: Vec<Start>,
}

/// A pack to start from: shipped, an example of the docs, or a template of
/// one kind of rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// `shipped`, `example` or `template`.
    pub kind: String,
    pub pack: String,
    pub title: String,
    pub description: String,
    pub files: BTreeMap<String, String>,
}

/// `GET /api/studio/reference`: what a pack may use, from the hook table
/// and the docs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    pub hooks: Vec<HookDoc>,
    /// What a hook can read, one entry each (docs/packs.md, markdown).
    pub reads: Vec<String>,
    /// The effects an event hook may answer (docs/events.md).
    pub effects: Vec<EffectDoc>,
    /// The scenario file's keys, from docs/scenarios.md.
    pub scenario: ScenarioDoc,
    /// The tiles a board may hold (the base game's and The Tower's), for
    /// the studio's board.
    pub tiles: Vec<TileDoc>,
    /// Each seat's colour, seat 0 first: the game's page draws the same.
    pub seat_colours: Vec<String>,
}

/// The keys of a scenario file, each with an example of its entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioDoc {
    /// A whole scenario, as the docs begin with it (TOML).
    pub example: String,
    /// The position's keys.
    pub position: Vec<KeyDoc>,
    /// `[scenario.expect]`'s keys.
    pub expect: Vec<KeyDoc>,
}

/// One key of a file: its name, an entry, and what it says (markdown).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyDoc {
    pub key: String,
    pub entry: String,
    pub does: String,
}

/// A tile kind, as the board offers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileDoc {
    /// `set/name`, as scenario files name it.
    pub name: String,
    /// The tile in words ("a city cap with a straight road").
    pub words: String,
    /// Its picture, unturned: an SVG document one cell wide.
    pub svg: String,
    /// Its segments in the tile file's order (a meeple's `segment`).
    pub segments: Vec<SegmentDoc>,
    /// What its edges are, unturned, north, east, south and west: `city`,
    /// `road` or `field` (a tile fits where the edges it touches are
    /// alike, G1).
    pub edges: Vec<String>,
}

/// One segment of a tile: its kind, and where it lies in words at each
/// turn (0, 90, 180 and 270 degrees clockwise).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentDoc {
    /// `road`, `city`, `field`, `cloister` or `foundation`.
    pub kind: String,
    pub words: Vec<String>,
}

/// One hook, as the hook table says it, with its line of the docs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookDoc {
    pub name: String,
    pub params: Vec<String>,
    /// May it read `game()` and the pack's state?
    pub reads_game: bool,
    /// Is it an event hook (answering effects)?
    pub event: bool,
    /// Its row of the docs' table, markdown.
    pub doc: String,
}

/// One effect function, with what it does and what the kernel refuses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectDoc {
    pub call: String,
    pub does: String,
    pub refused: String,
}

/// `POST /api/studio/check`: check a pack (with the packs it requires) as
/// `towerlab check` does, with `games` test games (at most 25).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudioCheck {
    pub pack_files: Vec<PackFiles>,
    /// The pack checked: one of `pack_files`, or a pack of the catalog.
    pub pack: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u64>,
}

/// What a check found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudioReport {
    pub pack: String,
    pub problems: Vec<StudioProblem>,
    pub warnings: Vec<StudioProblem>,
    pub notes: Vec<String>,
    pub summary: String,
    /// What the pack's hooks cost, in a line (`check --cost`'s costliest
    /// hook and its share of a native game), when test games were asked
    /// for and the check found no problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<String>,
}

/// A problem (or a warning) and the place it names in a file sent, if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudioProblem {
    /// `pack/file`, as sent.
    pub file: Option<String>,
    pub line: Option<usize>,
    pub col: Option<usize>,
    pub message: String,
}

/// `POST /api/studio/ask`: the rules' answers on a board, the position of
/// a scenario file's first scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudioAsk {
    pub pack_files: Vec<PackFiles>,
    pub pack: String,
    /// A scenario file's text (`[[scenario]]`, docs/packs.md).
    pub scenario: String,
}

pub use crate::play::scenario::{Answers, KindSeats, RansomAnswer, TowerAnswers};

/// `POST /api/studio/test`: run a pack's scenarios (its `tests/*.toml`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudioTest {
    pub pack_files: Vec<PackFiles>,
    pub pack: String,
}

/// What running a pack's scenarios found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudioTests {
    pub pack: String,
    pub passed: usize,
    pub total: usize,
    pub files: Vec<TestedFile>,
}

/// One scenario file: its scenarios, or why it cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestedFile {
    pub file: String,
    pub error: Option<StudioProblem>,
    /// With an error: what it means and what to do, in plain words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advice: Option<String>,
    pub scenarios: Vec<ScenarioResult>,
}

/// One scenario: passed, or what was expected and what the rules gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioResult {
    pub name: String,
    /// Its line in the file.
    pub line: usize,
    pub passed: bool,
    /// Expectations checked.
    pub checked: usize,
    pub failures: Vec<ScenarioFailure>,
    /// Why it could not be set up or asked (its place in the file).
    pub error: Option<StudioProblem>,
    /// When it failed: what failed and what to do, in plain words (an
    /// expectation written for another rule, a key of the file to change,
    /// a hook's error to fix in the script).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advice: Option<String>,
}

/// An expectation that did not hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioFailure {
    /// `file:line:col` of the expectation.
    pub at: String,
    pub what: String,
    pub expected: String,
    pub got: String,
}

/// `POST /api/studio/compare`: packs sent (in `packs`, in order, with
/// catalog packs) compared with a variant of the catalog, `games` deals
/// (10 to 500) of `players` seats played by greedy bots under both.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudioCompare {
    pub pack_files: Vec<PackFiles>,
    pub packs: Vec<String>,
    pub against: String,
    pub games: u64,
    pub players: usize,
}

/// A comparison running in the background, or ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompareJob {
    pub id: String,
    /// `running`, `done`, `cancelled` or `failed`.
    pub status: String,
    /// Games played so far, of `total` (every variant's).
    pub done: u64,
    pub total: u64,
    /// Once done: what changed, in a player's words (the first lines the
    /// page shows) ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plain: Option<Vec<String>>,
    /// ... the verdict in words, its numbers and method ...
    pub verdict: Option<String>,
    /// ... and the HTML report (`towerlab compare --html --fires`).
    pub report: Option<String>,
    /// Once failed: why.
    pub error: Option<String>,
}
