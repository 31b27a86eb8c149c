//! Bots by name, as `--bots` gives them: one name for every seat, or one per
//! seat.

use anyhow::Result;

use crate::kernel::Bot;
use crate::kernel::diag::{bad_input, did_you_mean};

use super::{GreedyBot, RandomBot};

/// A kind of bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotKind {
    /// Uniform over the legal options of every decision.
    Random,
    /// One-ply: the best immediate gain over the best opponent.
    Greedy,
}

impl BotKind {
    pub const ALL: &'static [BotKind] = &[BotKind::Random, BotKind::Greedy];

    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
        }
    }

    pub fn parse(name: &str) -> Result<BotKind> {
        BotKind::ALL
            .iter()
            .copied()
            .find(|b| b.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = BotKind::ALL.iter().map(|b| b.name()).collect();
                bad_input(format!(
                    "unknown bot `{name}` (bots: {}){}",
                    names.join(", "),
                    did_you_mean(name, names.iter().copied())
                ))
            })
    }

    /// The bot for `seat` in the game with seed `game_seed`, on its own
    /// random stream.
    pub fn make(self, game_seed: u64, seat: usize) -> Box<dyn Bot> {
        match self {
            BotKind::Random => Box::new(RandomBot::new(game_seed, seat)),
            BotKind::Greedy => Box::new(GreedyBot::new(game_seed, seat)),
        }
    }
}

/// The bot of each seat: `names` holds one name (every seat) or one per seat.
pub fn seats(names: &[String], players: usize) -> Result<Vec<BotKind>> {
    let kinds = names
        .iter()
        .map(|n| BotKind::parse(n.trim()))
        .collect::<Result<Vec<_>>>()?;
    match kinds.len() {
        0 => Ok(vec![BotKind::Random; players]),
        1 => Ok(vec![kinds[0]; players]),
        n if n == players => Ok(kinds),
        n => Err(bad_input(format!(
            "--bots names {n} bots for {players} players: give one name, or one per seat"
        ))),
    }
}
