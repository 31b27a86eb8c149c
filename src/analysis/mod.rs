//! Layer 3, analysis: the metrics of played games, means with confidence
//! intervals and paired differences between variants.

pub mod arena;
pub mod stats;
