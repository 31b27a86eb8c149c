//! The pieces on the board as every part of the kernel names them: a meeple,
//! and where on its tile it stands. The game keeps them; the rules see them
//! through their views.

use serde::{Deserialize, Serialize};

use crate::kernel::geometry::Pos;
use crate::kernel::tiles::SegmentKind;

/// Players in a game, at least (G1).
pub const MIN_PLAYERS: usize = 2;
/// Players in a game, at most (G1).
pub const MAX_PLAYERS: usize = 8;

/// Meeples each player owns (G3).
pub const MEEPLES_PER_PLAYER: u8 = 7;

/// A floor kind: an index into the rules' floor kinds
/// (`Rules::floor_kinds`).
pub type FloorKind = u8;

/// Where on its tile a meeple stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeepleSpot {
    /// On a segment of the tile (an index into the tile kind's segments).
    Segment(u8),
    /// On top of the tile's tower.
    Tower,
}

/// What a meeple stands on: a road, city, field or cloister (the kind of its
/// segment), or a tower. Written as its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "&str", try_from = "String")]
pub enum MeepleOn {
    Feature(SegmentKind),
    Tower,
}

impl MeepleOn {
    /// `road`, `city`, `field`, `cloister` or `tower`, as packs and logs name
    /// it.
    pub fn name(self) -> &'static str {
        match self {
            MeepleOn::Feature(kind) => kind.name(),
            MeepleOn::Tower => "tower",
        }
    }
}

impl From<MeepleOn> for &str {
    fn from(on: MeepleOn) -> &'static str {
        on.name()
    }
}

/// What [`MeepleOn::name`] names `word`, or an error that lists the words.
impl TryFrom<String> for MeepleOn {
    type Error = String;

    fn try_from(word: String) -> Result<MeepleOn, String> {
        let every: Vec<MeepleOn> = (SegmentKind::ALL.into_iter().map(MeepleOn::Feature))
            .chain([MeepleOn::Tower])
            .collect();
        let found = every.iter().find(|on| on.name() == word);
        found.copied().ok_or_else(|| {
            let words: Vec<&str> = every.iter().map(|on| on.name()).collect();
            format!("`{word}` is not one of {}", words.join(", "))
        })
    }
}

/// A meeple on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meeple {
    pub owner: u8,
    pub pos: Pos,
    pub spot: MeepleSpot,
}

/// What becomes of an opponent's meeple that a tower captures (`prisoner`,
/// `home` or `gone` in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaptureOutcome {
    /// The captor holds it (T5).
    Prisoner,
    /// It goes back to its owner's supply.
    Home,
    /// It leaves the game.
    Gone,
}

impl CaptureOutcome {
    pub const ALL: [CaptureOutcome; 3] = [
        CaptureOutcome::Prisoner,
        CaptureOutcome::Home,
        CaptureOutcome::Gone,
    ];

    /// Its word, as hooks answer it and JSON writes it.
    pub fn word(self) -> &'static str {
        match self {
            CaptureOutcome::Prisoner => "prisoner",
            CaptureOutcome::Home => "home",
            CaptureOutcome::Gone => "gone",
        }
    }

    /// The outcome of a word.
    pub fn named(word: &str) -> Option<CaptureOutcome> {
        CaptureOutcome::ALL.into_iter().find(|o| o.word() == word)
    }
}
