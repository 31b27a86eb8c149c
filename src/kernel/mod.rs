//! The board kernel: tiles on a grid, features, the base game's scoring, and
//! the machinery of towers, floors, prisoners and ransom — with every question
//! about *tower rules* asked through the [`rules::Rules`] trait.
//!
//! Layer 0: it imports nothing else from the crate.
//!
//! Invariant: nothing in this module names a floor kind or a variant.

pub mod board;
pub mod capture;
pub mod decision;
pub mod determinize;
pub mod diag;
pub mod effects;
pub mod features;
pub mod game;
pub mod geometry;
pub mod pieces;
pub mod preview;
pub mod random;
pub mod rules;
pub mod tiles;

pub use board::{Board, OpenSpot, PlacedTile};
pub use decision::{Bot, Buffers, Decision, Step, Turn, play_game, play_turn};
pub use features::FeatureId;
pub use game::{
    Action, CaptureChoice, Event, Game, MEEPLES_PER_PLAYER, Placement, Player, RansomChoice,
    Scored, Stats, Tower,
};
pub use pieces::{MAX_PLAYERS, MIN_PLAYERS, Meeple, MeepleOn, MeepleSpot};
pub use preview::{CloisterPreview, FeaturePreview, PlacementPreview, Previewer};
pub use rules::{
    Answer, Asking, CaptureOutcome, EndScore, FloorKind, Holds, HookBudget, MeepleView, Question,
    RansomView, Reply, Rules, StackView, TOP_QUESTION, Table, TowerView, plain,
};
