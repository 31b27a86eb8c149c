//! The server's JSON, as types: every request body the routes read and every
//! answer they send, the studio's in `studio` (docs/serve.md and
//! docs/studio.md, whose examples a test parses into these types and writes
//! back unchanged). The routes read bodies only through
//! these types and answer only with them; field names are a stable format
//! (fields are added, never renamed or removed).
//!
//! Requests refuse unknown fields, so a misspelt field is an error rather
//! than a default. An answer's optional parts are `null` when absent (the
//! page tests them so), except a capture option's `owner`, which only a
//! meeple to take has.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

mod studio;

pub use studio::*;

/// The packs a studio page sends with a request: each pack's files by name
/// relative to its folder, as a game log carries them (docs/log.md,
/// `pack_files`).
pub use crate::rules::PackFiles;

/// `POST /api/games`: a new game as the browser asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A variant from the catalog's list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Or packs from the catalog's list, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packs: Option<Vec<String>>,
    /// `person` or a bot's name, one per seat.
    pub seats: Vec<String>,
    /// The deal [default: a random one, below 2^32].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// A name per seat, as the page shows it ("waiting for Ana (seat 2)")
    /// [default: `player N`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub names: Option<Vec<String>>,
    /// Whether the people may ask for hints [default: true].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hints: Option<bool>,
    /// Pack parameters, by pack and name (`{"tower": {"ransom_cost": 2}}`),
    /// over the variant's; each a parameter the pack declares (the
    /// catalog's `params`), of its default's type, and set once (a key
    /// given twice is refused, as a file or the command line refuses it).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "once::params"
    )]
    pub params: Option<BTreeMap<String, BTreeMap<String, serde_json::Value>>>,
    /// Packs written in the studio, with their files (as a log carries
    /// them), which `packs` may name besides the catalog's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pack_files: Option<Vec<PackFiles>>,
}

/// Maps whose keys are each given once: JSON allows a key twice (the last
/// winning, silently); a setting given twice is refused instead.
mod once {
    use std::collections::BTreeMap;
    use std::fmt;
    use std::marker::PhantomData;

    use serde::de::{Deserialize, Deserializer, Error, MapAccess, Visitor};

    /// A map of `V`, each key once.
    struct Once<V>(BTreeMap<String, V>);

    impl<'de, V: Deserialize<'de>> Deserialize<'de> for Once<V> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Keys<V>(PhantomData<V>);
            impl<'de, V: Deserialize<'de>> Visitor<'de> for Keys<V> {
                type Value = Once<V>;

                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an object")
                }

                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Once<V>, A::Error> {
                    let mut out = BTreeMap::new();
                    while let Some((key, value)) = map.next_entry::<String, V>()? {
                        if out.contains_key(&key) {
                            return Err(A::Error::custom(format!(
                                "`{key}` is given twice: set it once"
                            )));
                        }
                        out.insert(key, value);
                    }
                    Ok(Once(out))
                }
            }
            d.deserialize_map(Keys(PhantomData))
        }
    }

    /// Parameters by pack then name, every key once.
    #[allow(clippy::type_complexity)]
    pub fn params<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<BTreeMap<String, BTreeMap<String, serde_json::Value>>>, D::Error> {
        let packs = Option::<Once<Once<serde_json::Value>>>::deserialize(d)?;
        Ok(packs.map(|Once(packs)| packs.into_iter().map(|(k, Once(v))| (k, v)).collect()))
    }
}

/// `POST /api/games/{id}/choose`: a person's answer to the question waiting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choose {
    /// The kind of question answered.
    pub decision: DecisionKind,
    /// The question's token.
    pub token: u64,
    /// The index of one of the question's options.
    pub option: usize,
    /// The key of the seat deciding (given when the game was made).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `true`: the state answered says "you" for the key's seat, as
    /// `view` does [default: false, every seat by its name].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub you: bool,
}

/// `POST /api/games/{id}/view`: the state as a seat's person sees it, its
/// words saying "you" for the seat; refused (403) for a key of no seat,
/// among them a key the maker replaced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// The seat's key.
    pub key: String,
}

/// `POST /api/games/{id}/advance`: the bot to play plays its turn, or
/// one step of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Advance {
    /// The question's token.
    pub token: u64,
    /// The key of one of the game's person seats (none is needed when
    /// every seat is a bot's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `true`: the bot answers only the question its turn waits for (the
    /// tile's place, a ransom, an action, a capture), so that a page shows
    /// its turn step by step [default: false, the whole turn].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub step: bool,
    /// `true`: the state answered says "you" for the key's seat, as
    /// `view` does [default: false].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub you: bool,
}

/// `POST /api/games/{id}/hint`: the person deciding asks what a bot would
/// play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AskHint {
    /// The question's token.
    pub token: u64,
    /// The key of the seat deciding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// `true`: the hint's words say "you" for the seat deciding [default:
    /// false].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub you: bool,
}

/// `POST /api/games/{id}/reissue`: the game's maker gives a person seat a
/// new key; its old key stops working. Answered with the new [`SeatKey`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reissue {
    /// The seat, counted from 0 (as `keys` count them).
    pub seat: usize,
    /// The maker's key (`maker_key`, given when the game was made).
    pub key: String,
}

/// A seat's secret key: whoever holds it plays the seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatKey {
    pub seat: usize,
    pub key: String,
}

/// `GET /api/games/{id}/poll`: what the game waits for, cheaply (no board
/// drawn), for a page that waits for others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Poll {
    pub token: u64,
    pub status: Status,
    /// The seat to play.
    pub current: usize,
}

/// `POST /api/games/{id}/hint`'s answer: the option a bot would take, and
/// why, seeing only what the person may see.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hint {
    /// The token of the question it answers.
    pub token: u64,
    pub decision: DecisionKind,
    /// The option's index in the question's list.
    pub option: usize,
    pub label: String,
    /// The bot asked, as a seat names it (`mcts:300`).
    pub bot: String,
    /// Why, in one line.
    pub reason: String,
    /// The margin over the strongest opponent the bot expects a round on
    /// (from four players on, half over the strongest and half over
    /// the opponents' mean), in points (`null` when the rules leave one option).
    pub value: Option<f64>,
    /// The options the search weighed, the one advised first, then by
    /// the searches each got.
    pub weighed: Vec<Weighed>,
}

/// An option as a hint's search weighed it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weighed {
    pub option: usize,
    pub label: String,
    /// The margin expected after it, in points.
    pub value: f64,
    /// How many of the search's iterations went through it.
    pub searches: u32,
}

/// Every refusal's body: `{"error": "…"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    pub error: String,
}

/// `GET /api/catalog`: what the new-game form offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Catalog {
    /// The home folder's variants, by name.
    pub variants: Vec<String>,
    /// Its packs, and the native ones (`native:tower`…).
    pub packs: Vec<String>,
    /// The bots' names.
    pub bots: Vec<String>,
    /// What a seat may be: `person`, then the bots.
    pub seats: Vec<String>,
    pub players: PlayerCount,
    /// A bot's search budget per decision, at most (`mcts:N`).
    pub max_budget: u32,
    /// The page's address as other devices on the network reach it
    /// (seats' links and the watch link start with it); `null` when the
    /// server listens on this machine only.
    pub network: Option<String>,
    /// The parameters the packs declare, which a new game may set.
    pub params: Vec<PackParam>,
    /// Each variant's packs, in order (whose parameters it takes).
    pub variant_packs: BTreeMap<String, Vec<String>>,
}

/// A parameter a pack declares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackParam {
    pub pack: String,
    pub name: String,
    /// Its value unless a game sets it; its type is the parameter's.
    pub default: serde_json::Value,
    pub description: String,
}

/// The number of seats a game has, at least and at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerCount {
    pub min: usize,
    pub max: usize,
}

/// A game's state as the page shows it: the answer of every route that
/// starts, reads or plays a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    pub id: String,
    /// The token of the question waiting (`choose` and `advance` send it).
    pub token: u64,
    pub variant: String,
    pub packs: Vec<String>,
    /// The deal, `null` until the game has ended: it fixes the order of
    /// the tiles to come.
    pub seed: Option<u64>,
    /// Each seat's kind: `person` or a bot's name.
    pub seats: Vec<String>,
    /// The seat to play.
    pub current: usize,
    pub turn: u32,
    pub tiles_left: usize,
    /// The tile kind drawn this turn.
    pub drawn: Option<String>,
    pub status: Status,
    /// Why the game failed.
    pub error: Option<String>,
    pub players: Vec<Player>,
    /// The question waiting for a person.
    pub question: Option<Question>,
    pub board: Board,
    /// Every event so far, oldest first.
    pub events: Vec<EventLine>,
    /// Each seat's name.
    pub names: Vec<String>,
    /// Whether the people may ask for hints.
    pub hints: bool,
    /// The person seats' keys: only in the answer that made the game, to
    /// its maker (`null` in every other answer).
    pub keys: Option<Vec<SeatKey>>,
    /// The question answered last (by a person or a bot), in words; `null`
    /// before the first.
    pub last: Option<Answered>,
    /// The maker's key, which gives a seat a new key (`reissue`): only in
    /// the answer that made the game (`null` in every other answer).
    pub maker_key: Option<String>,
    /// The seat whose person the state's words address as "you" (`view`,
    /// or an answer asked with `you`); `null`: every seat by its name.
    pub you: Option<usize>,
}

/// A question answered: by which seat, of what kind, and the option taken
/// in words, as the question listed it (`Pass`, `Take no prisoner`, …).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answered {
    pub seat: usize,
    pub decision: DecisionKind,
    pub label: String,
}

/// What a game waits for: a person's answer to a kind of question, or
/// something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Status {
    Person(DecisionKind),
    Game(Progress),
}

/// A game waiting for no person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Progress {
    /// A bot is to play (call `advance`).
    Bot,
    /// Final scoring is done.
    Over,
    /// The rules failed; the game ended.
    Failed,
}

/// The kinds of question a person answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DecisionKind {
    Placement,
    Ransom,
    Action,
    Capture,
}

impl fmt::Display for DecisionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DecisionKind::Placement => "placement",
            DecisionKind::Ransom => "ransom",
            DecisionKind::Action => "action",
            DecisionKind::Capture => "capture",
        })
    }
}

/// A seat's player: score, pieces and prisoners.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub seat: usize,
    pub colour: String,
    pub score: u32,
    /// Meeples in the player's supply.
    pub meeples: u8,
    /// Floors in the supply, by kind.
    pub floors: Vec<FloorCount>,
    /// Other players' meeples this player holds, by owner.
    pub prisoners: Vec<Prisoners>,
    /// The top-left corner, on the board picture, of the cell of the tile
    /// this player placed last (none before the first).
    pub last_tile: Option<Point>,
    /// Where the score came from so far, by source (`roads`, `cities`,
    /// `cloisters`, `fields`, `ransoms`, or a name the rules gave a score),
    /// in that order; sources that gave nothing left out.
    pub breakdown: Vec<ScorePart>,
}

/// Points from one source: ransoms paid count against the payer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScorePart {
    pub source: String,
    pub points: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FloorCount {
    pub name: String,
    pub colour: String,
    pub count: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prisoners {
    /// The seat whose meeples they are.
    pub owner: usize,
    pub count: u32,
}

/// The question waiting for a person, by kind, with its options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Question {
    Placement {
        /// The tile kind to place.
        tile: String,
        /// The tile in words (`a city cap with a straight road`).
        tile_words: String,
        /// The tile drawn at each rotation an option has.
        tiles: Vec<TileArt>,
        options: Vec<PlacementOption>,
    },
    Ransom {
        options: Vec<RansomOption>,
    },
    Action {
        options: Vec<ActionOption>,
    },
    Capture {
        options: Vec<CaptureOption>,
    },
}

impl Question {
    pub fn kind(&self) -> DecisionKind {
        match self {
            Question::Placement { .. } => DecisionKind::Placement,
            Question::Ransom { .. } => DecisionKind::Ransom,
            Question::Action { .. } => DecisionKind::Action,
            Question::Capture { .. } => DecisionKind::Capture,
        }
    }
}

/// A point on the board picture, in its units.
pub type Point = [f64; 2];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileArt {
    /// Degrees clockwise.
    pub rot: u32,
    pub svg: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacementOption {
    pub index: usize,
    pub x: i32,
    pub y: i32,
    /// Degrees clockwise.
    pub rot: u32,
    pub label: String,
    /// The cell's top-left corner on the board picture.
    pub cell: Point,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RansomOption {
    pub index: usize,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionOption {
    pub index: usize,
    pub kind: ActionKind,
    pub label: String,
    /// Where the segment or tower is on the board picture.
    pub at: Option<Point>,
    /// For a floor: what it would do, before it is committed (`null` for
    /// other actions).
    pub preview: Option<FloorPreview>,
}

/// What a floor would do, as the rules answer it: the tower's height with
/// it, the cells it would reach then and the meeples it could capture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FloorPreview {
    /// Floors on the tower with this one.
    pub height: u32,
    /// The top-left corner, on the board picture, of each cell in range:
    /// where the rules let the tower capture (as `towerlab range` answers).
    pub range: Vec<Point>,
    /// The cells the rules' range reaches where they let the tower take
    /// nothing (a cell past a gap under no-gaps), as pictures dot them.
    #[serde(default)]
    pub takes_nothing: Vec<Point>,
    pub captures: Vec<Capturable>,
    /// The meeples it would reach that a rule spares, each with why.
    #[serde(default)]
    pub spared: Vec<SparedMeeple>,
}

/// A meeple a floor would reach but a rule lets it not capture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SparedMeeple {
    /// The seat whose meeple it is.
    pub owner: usize,
    /// Where it stands on the board picture.
    pub at: Option<Point>,
    /// The pack whose `may_capture` spared it, when the rules are packs.
    pub pack: Option<String>,
    /// In words: "the tower reaches Bo's meeple (on the road …), but
    /// no-road-captures spares it".
    pub says: String,
}

/// A meeple a floor could capture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capturable {
    /// The seat whose meeple it is.
    pub owner: usize,
    /// Where it stands on the board picture.
    pub at: Option<Point>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionKind {
    Pass,
    Meeple,
    Floor,
    TowerMeeple,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaptureOption {
    pub index: usize,
    /// The seat whose meeple is taken; absent for declining.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<usize>,
    pub label: String,
    /// Where the meeple stands on the board picture.
    pub at: Option<Point>,
}

/// The board picture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Board {
    pub svg: String,
    /// A cell's size in the picture's units.
    pub cell: f64,
}

/// An event in words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventLine {
    pub turn: u32,
    /// The ID of the rule behind it (docs/rules.md).
    pub rule: String,
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind of question reads the same in messages as in JSON.
    #[test]
    fn a_decision_kind_is_written_as_it_is_named_in_json() {
        use DecisionKind::*;
        for kind in [Placement, Ransom, Action, Capture] {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json.as_str(), Some(kind.to_string().as_str()));
            let status = serde_json::to_value(Status::Person(kind)).unwrap();
            assert_eq!(status, json);
        }
    }
}
