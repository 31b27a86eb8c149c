//! Bots: players behind the kernel's decision interface.

mod eval;
mod greedy;
mod mcts;
mod random;
mod roster;
mod sight;
mod supply;

pub use eval::{Evaluator, FARM_SHARE, Terms};
pub use greedy::GreedyBot;
pub use mcts::{
    BLEND_FROM, DEFAULT_BUDGET, INITIATIVE, MctsBot, SCHEDULE, STRONGEST, Schedule, Weighed,
};
pub use random::RandomBot;
pub use roster::{BotKind, Level, Values, check_values, seats, values_of};
pub use sight::Sight;
pub use supply::{SCARCE, cell_share, city_supply};
