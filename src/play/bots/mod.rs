//! Bots: players behind the kernel's decision interface.

mod greedy;
mod mcts;
mod random;
mod roster;

pub use greedy::GreedyBot;
pub use mcts::{DEFAULT_BUDGET, Evaluator, INITIATIVE, MctsBot, Terms, Weighed};
pub use random::RandomBot;
pub use roster::{BotKind, seats};
