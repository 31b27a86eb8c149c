//! Bots by name, as `--bots` gives them: one name for every seat, or one per
//! seat. The searching bot takes its budget after a colon: `mcts:600` is
//! `mcts` with 600 iterations per decision, plain `mcts` its default.
//! `mcts-baseline` is the reference the bots are measured against; the
//! names of search designs no longer offered are answered with what to use.
//! A bot that weighs positions takes the values it weighs them with after
//! an `@`: `mcts@defaults`, `greedy:…@tuned` (plain: the variant's, tuned
//! when stored), so one run can put tuned values against the defaults.

use std::num::IntErrorKind;
use std::sync::Arc;

use anyhow::Result;

use crate::kernel::Bot;
use crate::kernel::diag::{bad_input, did_you_mean};
use crate::rules::{Ruleset, Worths, worths};

use super::{DEFAULT_BUDGET, GreedyBot, MctsBot, RandomBot, Sight};

/// A level of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Uniform over the legal options of every decision.
    Random,
    /// One ply: the best gain over the best opponent, with threats and a
    /// floor's later worth.
    Greedy,
    /// Information-set Monte Carlo tree search with this many iterations per
    /// decision on average (its schedule, `SCHEDULE`), valued a round ahead.
    Mcts(u32),
    /// The reference the bots are measured against: the search as it was
    /// before its priors and playouts weighed threats, at this many
    /// iterations per decision.
    Baseline(u32),
}

/// Which table of values a bot weighs positions with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Values {
    /// The variant's: its tuned values where the home folder holds them,
    /// else the defaults.
    #[default]
    Variant,
    /// The defaults, even where tuned values are stored (`@defaults`).
    Defaults,
    /// The variant's tuned values (`@tuned`): refused where none are stored.
    Tuned,
}

impl Values {
    const SUFFIXES: [(&'static str, Values); 2] =
        [("defaults", Values::Defaults), ("tuned", Values::Tuned)];

    fn suffix(self) -> Option<&'static str> {
        Self::SUFFIXES
            .iter()
            .find(|(_, v)| *v == self)
            .map(|(s, _)| *s)
    }
}

/// A bot: its level of play and the values it weighs positions with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotKind {
    pub level: Level,
    pub values: Values,
}

/// Names of search designs no longer offered.
const RETIRED: &[&str] = &["mcts-narrow", "mcts-classic"];

impl BotKind {
    pub const RANDOM: BotKind = BotKind::of(Level::Random);
    pub const GREEDY: BotKind = BotKind::of(Level::Greedy);

    /// The bots offered to players, weakest first.
    pub const ALL: &'static [BotKind] = &[
        BotKind::RANDOM,
        BotKind::GREEDY,
        BotKind::mcts(DEFAULT_BUDGET),
    ];

    /// Every bot a name reaches: those offered, and the reference.
    const NAMED: &'static [BotKind] = &[
        BotKind::RANDOM,
        BotKind::GREEDY,
        BotKind::mcts(DEFAULT_BUDGET),
        BotKind::baseline(DEFAULT_BUDGET),
    ];

    /// The bot of `level` weighing with the variant's values.
    pub const fn of(level: Level) -> BotKind {
        BotKind {
            level,
            values: Values::Variant,
        }
    }

    /// `mcts:n`.
    pub const fn mcts(n: u32) -> BotKind {
        BotKind::of(Level::Mcts(n))
    }

    /// `mcts-baseline:n`.
    pub const fn baseline(n: u32) -> BotKind {
        BotKind::of(Level::Baseline(n))
    }

    /// Its search budget, for the bots that search.
    pub fn budget(self) -> Option<u32> {
        match self.level {
            Level::Mcts(n) | Level::Baseline(n) => Some(n),
            Level::Random | Level::Greedy => None,
        }
    }

    /// The bot's name, without its budget or values.
    pub fn name(self) -> &'static str {
        match self.level {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Mcts(_) => "mcts",
            Level::Baseline(_) => "mcts-baseline",
        }
    }

    /// The name `parse` reads back: with the budget when it is not the
    /// default (`mcts:600`), and the values when they are not the
    /// variant's (`mcts@defaults`).
    pub fn label(self) -> String {
        let mut label = match self.budget() {
            Some(n) if n != DEFAULT_BUDGET => format!("{}:{n}", self.name()),
            _ => self.name().to_string(),
        };
        if let Some(values) = self.values.suffix() {
            label.push('@');
            label.push_str(values);
        }
        label
    }

    /// A bot by name: `random`, `greedy`, `mcts`, `mcts:N`, `mcts-baseline`
    /// or `mcts-baseline:N` (N ≥ 1 iterations per decision), any but
    /// `random` with `@defaults` or `@tuned`.
    pub fn parse(text: &str) -> Result<BotKind> {
        let (named, values) = match text.split_once('@') {
            Some((named, values)) => (named, parse_values(text, values)?),
            None => (text, Values::Variant),
        };
        let (name, budget) = match named.split_once(':') {
            Some((name, budget)) => (name, Some(budget)),
            None => (named, None),
        };
        let mut kind = BotKind::by_name(name)?;
        kind.level = match (kind.level, budget) {
            (level, None) => level,
            (Level::Mcts(_), Some(b)) => Level::Mcts(parse_budget(text, b)?),
            (Level::Baseline(_), Some(b)) => Level::Baseline(parse_budget(text, b)?),
            (_, Some(_)) => {
                return Err(bad_input(format!(
                    "bot `{name}` takes no budget (in `{text}`); only `mcts:N` and `mcts-baseline:N` do"
                )));
            }
        };
        if kind.level == Level::Random && values != Values::Variant {
            return Err(bad_input(format!(
                "`{text}`: the random bot weighs nothing, so it takes no values"
            )));
        }
        kind.values = values;
        Ok(kind)
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

    /// Refuse `@tuned` where `set` has no tuned values.
    pub fn check_values(self, set: &Ruleset) -> Result<()> {
        if self.values == Values::Tuned && set.tuned().is_none() {
            return Err(bad_input(format!(
                "`{}`: no tuned values are stored for these rules ({}/{}.toml in the home folder); \
                 run `towerlab tune` for them first",
                self.label(),
                worths::TUNED_DIR,
                set.fingerprint()
            )));
        }
        Ok(())
    }

    /// The values this bot weighs positions with, as outputs name them
    /// ([`worths::bot_values`]), under a variant whose bots' values are
    /// named `variant` (`Ruleset::bot_values`); `random`'s are its
    /// variant's, unused.
    pub fn values_name(self, variant: &str) -> String {
        match self.values {
            Values::Defaults => worths::bot_values(None),
            Values::Variant | Values::Tuned => variant.to_string(),
        }
    }

    /// The bot for `seat` in the game with seed `game_seed`, on its own
    /// random stream, weighing things with `worths` (the variant's values,
    /// `Ruleset::worths`: tuned where stored, as
    /// [`BotKind::check_values`] requires of `@tuned`) or the defaults.
    pub fn make(self, game_seed: u64, seat: usize, worths: &Arc<Worths>) -> Box<dyn Bot> {
        let worths = match self.values {
            Values::Defaults => Arc::default(),
            Values::Variant | Values::Tuned => worths.clone(),
        };
        match self.level {
            Level::Random => Box::new(RandomBot::new(game_seed, seat)),
            Level::Greedy => Box::new(GreedyBot::looking(game_seed, seat, worths, Sight::Ahead)),
            Level::Mcts(n) => Box::new(MctsBot::with(game_seed, seat, n, worths, Sight::Threats)),
            Level::Baseline(n) => {
                Box::new(MctsBot::with(game_seed, seat, n, worths, Sight::Baseline))
            }
        }
    }
}

/// The values of `bot@values`.
fn parse_values(text: &str, values: &str) -> Result<Values> {
    Values::SUFFIXES
        .iter()
        .find(|(s, _)| *s == values)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            bad_input(format!(
                "`{text}`: unknown values `@{values}` (a bot weighs with `@defaults` or `@tuned`; \
                 plain: the variant's, tuned where stored){}",
                did_you_mean(values, Values::SUFFIXES.iter().map(|(s, _)| *s))
            ))
        })
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

/// The values each bot of `labels` (as [`BotKind::label`] writes them)
/// weighs with, under a variant whose bots' values are named `variant`.
pub fn values_of(labels: &[String], variant: &str) -> Vec<String> {
    labels
        .iter()
        .map(|l| BotKind::parse(l).map_or_else(|_| variant.to_string(), |b| b.values_name(variant)))
        .collect()
}

/// Refuse a bot of `bots` that asks for tuned values where a ruleset of
/// `sets` has none ([`BotKind::check_values`]).
pub fn check_values(bots: &[BotKind], sets: &[&Ruleset]) -> Result<()> {
    for set in sets {
        for bot in bots {
            bot.check_values(set)?;
        }
    }
    Ok(())
}

/// The bot of each seat: `names` holds one name (every seat) or one per seat.
pub fn seats(names: &[String], players: usize) -> Result<Vec<BotKind>> {
    let kinds = names
        .iter()
        .map(|n| BotKind::parse(n.trim()))
        .collect::<Result<Vec<_>>>()?;
    match kinds.len() {
        0 => Ok(vec![BotKind::RANDOM; players]),
        1 => Ok(vec![kinds[0]; players]),
        n if n == players => Ok(kinds),
        n => Err(bad_input(format!(
            "--bots names {n} bots for {players} players: give one name, or one per seat"
        ))),
    }
}
