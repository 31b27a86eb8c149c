//! `towerlab play`: one game with bots, its result as text or JSON.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use super::args::{BudgetArgs, Format, RulesArgs, SeatArgs};
use super::output::write_file;
use crate::kernel::Game;
use crate::play::log;
use crate::play::sim;
use crate::rules::{Home, LoadOptions};

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub params: super::args::ParamArgs,
    /// The game's seed: the same seed plays the same game.
    #[arg(long, default_value_t = 1, value_parser = super::numbers::index, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub seats: SeatArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the game's events to FILE as JSON Lines (see docs/log.md), for
    /// `render --log` and `replay`.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Trace every hook call of the packs to FILE (text): the pack, the
    /// arguments, what it read, its `debug(…)` lines and its answer
    /// (bounded; see docs/how-to/debug-a-pack.md)
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
}

#[derive(Serialize)]
struct PlayReport {
    variant: String,
    packs: Vec<String>,
    seed: u64,
    players: usize,
    /// The values the bots weighed positions with.
    bot_values: String,
    scores: Vec<u32>,
    turns: u32,
    discards: u32,
    captures: u32,
    own_captures: u32,
    exchanges: u32,
    ransoms: u32,
    floors_placed: u32,
    towers: usize,
}

pub fn run(home: &Home, load: &LoadOptions, args: &PlayArgs) -> Result<()> {
    let set = args.params.apply(home, args.rules.load(home, load)?)?;
    let rules = set.rules();
    let bots = args.seats.bots(&set)?;
    let players = bots.len();
    let game = sim::play(&set, rules.as_ref(), &bots, args.seed, args.log.is_some())?;
    if let Some(path) = &args.log {
        write_log(path, &game, &set, args.seed)?;
    }
    let s = game.stats();
    let report = PlayReport {
        variant: set.name().clone(),
        packs: set.pack_names().clone(),
        seed: args.seed,
        players,
        bot_values: set.bot_values(),
        scores: game.scores(),
        turns: s.turns,
        discards: s.discards,
        captures: s.captures,
        own_captures: s.own_captures,
        exchanges: s.exchanges,
        ransoms: s.ransoms,
        floors_placed: s.floors_placed,
        towers: game
            .towers()
            .iter()
            .filter(|t| !t.floors.is_empty())
            .count(),
    };
    match args.format {
        Format::Json => out!("{}", serde_json::to_string(&report)?),
        Format::Text => {
            out!(
                "{} ({}), seed {}, {} players, {} turns",
                report.variant,
                report.packs.join(" + "),
                report.seed,
                report.players,
                report.turns
            );
            out!("bot values: {}", report.bot_values);
            for (p, score) in report.scores.iter().enumerate() {
                out!("  player {}: {score} points", p + 1);
            }
            out!(
                "captures {} (own {}), exchanges {}, ransoms {}, floors {}, towers {}, discarded tiles {}",
                report.captures,
                report.own_captures,
                report.exchanges,
                report.ransoms,
                report.floors_placed,
                report.towers,
                report.discards
            );
        }
    }
    Ok(())
}

/// The game's log, as game 0 of a run with its seed.
fn write_log(path: &Path, game: &Game, set: &crate::rules::Ruleset, seed: u64) -> Result<()> {
    write_file(path, &log::game_log(set, 0, seed, game)?)
}
