//! Metrics of simulated games and their statistics: per-variant means with 95%
//! confidence intervals, and paired differences between variants that played
//! the same seeds (common random numbers: the same deal in every variant).
//!
//! Means and paired differences have Student's t intervals and tests (mean
//! ± t(n−1) s/√n, [`student`]), which hold their level over a handful of
//! games as over thousands (the normal approximation's 1.96 is far too
//! narrow below about 30). A sample with no spread — every game, or every
//! paired difference, the same — has the bound its count of games allows
//! (the rule of three: at most about 3/n of games may differ), never an
//! interval of zero width. Intervals are kept within the values a metric
//! may take (0 and up; a share within [0, 1]). Balance is a property of a
//! whole set of games, not of one game, so its intervals come from a seeded
//! bootstrap (paired for differences), from 30 games on.
//!
//! Here: a game's row and its metrics are `game`'s; estimates, their
//! intervals and tests, `interval`'s; their text, `text`'s. A run's
//! columns of metrics, with balance's bootstrap, are [`columns`]; what each
//! metric means is [`glossary`].

pub mod columns;
mod game;
pub mod glossary;
mod interval;
pub mod student;
mod text;

pub use game::{
    GameRow, kind_metric_names, kind_summary, metric_names, per_game, per_kind, win_shares,
};
pub use interval::{
    ALPHA, Estimate, MIN_SAMPLE, Scale, Thin, Z95, difference, estimate, games_to_detect, mean_in,
    sign_test, unseen_share,
};
pub use text::{diff_text, mean_text, number, signed, thin_note};
// What `columns` shares with these, beyond the paths above.
use game::GAME_METRICS;
use interval::{alike, clipped};
