//! Bots by name, as `--bots` gives them: one name for every seat, or one per
//! seat. The searching bot takes its budget after a colon: `mcts:600` is
//! `mcts` with 600 iterations per decision, plain `mcts` its default.
//! `mcts-baseline` is the reference the bots are measured against; the
//! names of search designs no longer offered are answered with what to use.

use std::num::IntErrorKind;
use std::sync::Arc;

use anyhow::Result;

use crate::kernel::Bot;
use crate::kernel::diag::{bad_input, did_you_mean};
use crate::rules::Worths;

use super::{DEFAULT_BUDGET, GreedyBot, MctsBot, RandomBot, Sight};

/// A kind of bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotKind {
    /// Uniform over the legal options of every decision.
    Random,
    /// One-ply: the best immediate gain over the best opponent.
    Greedy,
    /// Information-set Monte Carlo tree search with this many iterations per
    /// decision, valued a round ahead.
    Mcts(u32),
    /// The reference the bots are measured against: the search as it was
    /// before it weighed threats and a floor's later worth, at this many
    /// iterations per decision.
    Baseline(u32),
}

/// Names of search designs no longer offered.
const RETIRED: &[&str] = &["mcts-narrow", "mcts-classic"];

impl BotKind {
    /// The bots offered to players, weakest first.
    pub const ALL: &'static [BotKind] = &[
        BotKind::Random,
        BotKind::Greedy,
        BotKind::Mcts(DEFAULT_BUDGET),
    ];

    /// Every bot a name reaches: those offered, and the reference.
    const NAMED: &'static [BotKind] = &[
        BotKind::Random,
        BotKind::Greedy,
        BotKind::Mcts(DEFAULT_BUDGET),
        BotKind::Baseline(DEFAULT_BUDGET),
    ];

    /// The bot's name, without its budget.
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Mcts(_) => "mcts",
            BotKind::Baseline(_) => "mcts-baseline",
        }
    }

    /// The name `parse` reads back: with the budget when it is not the
    /// default (`mcts:600`).
    pub fn label(self) -> String {
        match self {
            BotKind::Mcts(n) if n != DEFAULT_BUDGET => format!("mcts:{n}"),
            BotKind::Baseline(n) if n != DEFAULT_BUDGET => format!("mcts-baseline:{n}"),
            b => b.name().to_string(),
        }
    }

    /// A bot by name: `random`, `greedy`, `mcts`, `mcts:N`, `mcts-baseline`
    /// or `mcts-baseline:N` (N ≥ 1 iterations per decision).
    pub fn parse(text: &str) -> Result<BotKind> {
        let (name, budget) = match text.split_once(':') {
            Some((name, budget)) => (name, Some(budget)),
            None => (text, None),
        };
        let kind = BotKind::by_name(name)?;
        match (kind, budget) {
            (_, None) => Ok(kind),
            (BotKind::Mcts(_), Some(b)) => parse_budget(text, b).map(BotKind::Mcts),
            (BotKind::Baseline(_), Some(b)) => parse_budget(text, b).map(BotKind::Baseline),
            (_, Some(_)) => Err(bad_input(format!(
                "bot `{name}` takes no budget (in `{text}`); only `mcts:N` and `mcts-baseline:N` do"
            ))),
        }
    }

    fn by_name(name: &str) -> Result<BotKind> {
        if RETIRED.contains(&name) {
            return Err(bad_input(format!(
                "bot `{name}` is no longer offered: the search has one design, `mcts` \
                 (`mcts:N` for N iterations per decision); `mcts-baseline` is the reference \
                 it is measured against"
            )));
        }
        BotKind::NAMED
            .iter()
            .copied()
            .find(|b| b.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = BotKind::NAMED.iter().map(|b| b.name()).collect();
                bad_input(format!(
                    "unknown bot `{name}` (bots: {}){}",
                    names.join(", "),
                    did_you_mean(name, names.iter().copied())
                ))
            })
    }

    /// The bot for `seat` in the game with seed `game_seed`, on its own
    /// random stream, weighing things with `worths` (the variant's values,
    /// `Ruleset::worths`).
    pub fn make(self, game_seed: u64, seat: usize, worths: &Arc<Worths>) -> Box<dyn Bot> {
        let worths = worths.clone();
        match self {
            BotKind::Random => Box::new(RandomBot::new(game_seed, seat)),
            BotKind::Greedy => Box::new(GreedyBot::with_worths(game_seed, seat, worths)),
            BotKind::Mcts(n) => Box::new(MctsBot::with(game_seed, seat, n, worths, Sight::Threats)),
            BotKind::Baseline(n) => {
                Box::new(MctsBot::with(game_seed, seat, n, worths, Sight::Baseline))
            }
        }
    }
}

/// The budget of `mcts:N`: a whole number of iterations, at least 1.
fn parse_budget(text: &str, budget: &str) -> Result<u32> {
    match budget.parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err(bad_input(format!(
            "`{text}`: a budget of 0 iterations cannot decide anything; give at least 1"
        ))),
        Err(e) if matches!(e.kind(), IntErrorKind::PosOverflow) => Err(bad_input(format!(
            "`{text}`: a budget of at most {} iterations per decision can be given",
            u32::MAX
        ))),
        Err(_) => Err(bad_input(format!(
            "`{text}`: the budget must be a whole number of iterations per decision, like `mcts:{DEFAULT_BUDGET}`"
        ))),
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
