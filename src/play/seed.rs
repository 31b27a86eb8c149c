//! Seeds for runs of many games: per-game seeds derived from a master seed,
//! and the stream id of each bot.
//!
//! The deck's stream ([`DECK_STREAM`]) is separate from the bots' so that a
//! rule change, which changes what the bots do, never reshuffles the tiles.
//! Decks are dealt against one reference (the base game's and The Tower's
//! tiles): tiles a variant adds are placed by a stream of their own, by
//! their names, so the tiles variants share keep one order per seed
//! ([`crate::kernel::tiles::Dealing`]; comparisons pair games by seed).

pub use crate::kernel::random::{DECK_STREAM, Stream, mix64};

/// The stream of the bot in `seat`.
pub fn bot_stream(seat: usize) -> u64 {
    1 + seat as u64
}

/// The seed of game `index` of a run with master seed `master`.
pub fn game_seed(master: u64, index: u64) -> u64 {
    mix64(master ^ mix64(index.wrapping_add(0x5EED)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_seeds_differ_per_index() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(9, 3), game_seed(9, 3));
    }
}
