//! The random bot: uniform over the legal options of every decision.

use anyhow::Result;

use crate::kernel::{Bot, Decision, Game};
use crate::play::seed::{Stream, bot_stream};

pub struct RandomBot {
    rng: Stream,
}

impl RandomBot {
    /// The bot in `seat` of the game with seed `game_seed`, on its own stream.
    pub fn new(game_seed: u64, seat: usize) -> RandomBot {
        RandomBot {
            rng: Stream::new(game_seed, bot_stream(seat)),
        }
    }
}

impl Bot for RandomBot {
    fn decide(&mut self, _game: &Game, decision: Decision) -> Result<usize> {
        Ok(self.rng.below(decision.len()))
    }
}
