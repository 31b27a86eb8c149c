//! Bots: players behind the kernel's decision interface.

mod greedy;
mod random;
mod roster;

pub use greedy::GreedyBot;
pub use random::RandomBot;
pub use roster::{BotKind, seats};
