//! Bots: players behind the kernel's decision interface.

mod random;
mod roster;

pub use random::RandomBot;
pub use roster::{BotKind, seats};
