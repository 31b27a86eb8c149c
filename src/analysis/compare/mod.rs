//! A comparison of variants: every variant plays the same seeds with the same
//! bots, and the result is one value — the run's parameters, each metric's
//! mean with its 95% interval per variant, and each variant's paired
//! difference from the first (the baseline: `--baseline` puts the one it
//! names first), its p-value adjusted over the run's differences. A
//! simulation is a comparison of one variant.
//!
//! The value serializes as `compare --format json` prints it; the CLI's
//! CSV, table and simulate outputs and the HTML report are formatters of it.
//! The value and its adjustment are `value`'s; playing the games and
//! summarising them, `play`'s.

mod play;
mod value;

pub use play::{Tally, by_kind, check, play_range, run, summarise, threads_used};
pub use value::*;
