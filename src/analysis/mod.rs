//! Layer 3, analysis: the metrics of played games, means with confidence
//! intervals and paired differences between variants (their stars
//! adjusted for multiplicity), the comparison of variants on the same seeds
//! as one value and its verdict in words; shards of a comparison and
//! their exact merge, sequential stopping, and parameter sweeps.

pub mod arena;
pub mod compare;
pub mod decks;
pub mod kinds;
pub mod ladder;
pub mod multiplicity;
pub mod partial;
pub mod practical;
pub mod sequential;
pub mod stats;
pub mod sweep;
pub mod verdict;
