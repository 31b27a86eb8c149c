//! Bots: players behind the kernel's decision interface.

mod random;

pub use random::RandomBot;
