//! Layer 3, analysis: the metrics of played games, means with confidence
//! intervals and paired differences between variants, and the comparison
//! of variants on the same seeds as one value.

pub mod arena;
pub mod compare;
pub mod ladder;
pub mod stats;
