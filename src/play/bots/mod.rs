//! Bots: players behind the kernel's decision interface.

mod greedy;
mod mcts;
mod random;
mod roster;

pub use greedy::GreedyBot;
pub use mcts::{
    CLASSIC_BUDGET, DEFAULT_BUDGET, Evaluator, INITIATIVE, MctsBot, NARROW_BUDGET, Style, Terms,
    Weighed,
};
pub use random::RandomBot;
pub use roster::{BotKind, seats};
