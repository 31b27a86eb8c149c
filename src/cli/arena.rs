//! `towerlab arena`: bots against each other on paired deals with the seats
//! rotated (see [`crate::analysis::arena`]); prints each bot's win share with
//! its 95% Wilson interval, mean score and margin, and the seat effect; or
//! one shard of the arena's games as a partial result for `towerlab merge`.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;

use clap::ValueEnum;

use crate::analysis::arena::{self, Arena, ArenaResult};
use crate::analysis::compare::threads_used;
use crate::analysis::partial;
use crate::play::bots::BotKind;
use crate::rules::{Home, LoadOptions};

use super::numbers;
use super::runs::shard_to_play;
use super::{BudgetArgs, Format, RulesArgs};

#[derive(clap::Args, Debug)]
pub struct ArenaArgs {
    /// The bots, at least two: `random`, `greedy`, `mcts` or `mcts:N` (N
    /// iterations per decision); `mcts-baseline[:N]`: the reference the bots
    /// are measured against. A bot's values after `@`: `mcts@defaults`,
    /// `mcts@tuned` (plain: the variant's, tuned where stored), so tuned
    /// values can play the defaults. With more seats than bots, the last bot
    /// takes the remaining seats.
    #[arg(required = true, value_name = "BOT")]
    pub bots: Vec<String>,
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub params: super::args::ParamArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Games to play in all, rounded up to whole deals (one game per
    /// rotation of the seats).
    #[arg(long, default_value_t = 1000, value_parser = numbers::games, allow_negative_numbers = true)]
    pub games: u64,
    /// Master seed: deal i plays with a seed derived from (seed, i).
    #[arg(long, default_value_t = 1, value_parser = numbers::index, allow_negative_numbers = true)]
    pub seed: u64,
    /// Seats per game, 2 to 8 [default: one per bot]
    #[arg(long, value_parser = numbers::players, allow_negative_numbers = true)]
    pub players: Option<u8>,
    /// Worker threads [default: one per core; never more than the address
    /// space holds, see README]. Results do not depend on it.
    #[arg(long, value_parser = numbers::threads, allow_negative_numbers = true)]
    pub threads: Option<u16>,
    /// Output format; `partial` writes this shard's games as a partial
    /// result for `towerlab merge` (see --shard).
    #[arg(long, value_enum, default_value_t = ArenaFormat::Text)]
    pub format: ArenaFormat,
    /// Play only shard K of N (K from 0 to N-1) of the games (whole deals
    /// times seatings, counted from 0), and write it with --format partial;
    /// `auto/N` takes K from $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX.
    /// Merge the shards with `towerlab merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArenaFormat {
    /// A table.
    #[value(alias = "table")]
    Text,
    Json,
    /// This shard's games for `towerlab merge` (JSON).
    Partial,
}

/// Run `towerlab arena`.
pub fn run(home: &Home, load: &LoadOptions, args: &ArenaArgs) -> Result<()> {
    let bots = args
        .bots
        .iter()
        .map(|b| BotKind::parse(b.trim()))
        .collect::<Result<Vec<_>>>()?;
    let players = args.players.map_or(bots.len(), usize::from);
    arena::lineup(bots.len(), players)?;
    let set = args.params.apply(home, args.rules.load(home, load)?)?;
    crate::play::bots::check_values(&bots, &[&set])?;
    let threads = args.threads.map_or(0, usize::from);
    let spec = Arena {
        set: &set,
        bots: &bots,
        players,
        games: args.games,
        master_seed: args.seed,
        threads,
    };
    let partial = args.format == ArenaFormat::Partial;
    let shard = shard_to_play(args.shard.as_deref(), partial, spec.total_games())?;
    let games = shard.map_or(spec.total_games(), |s| {
        let range = s.games(spec.total_games());
        range.end - range.start
    });
    let bar = super::output::progress_bar(games);
    if let Some(shard) = shard {
        let part = partial::play_arena(&spec, shard, &|_| bar.inc(1))?;
        bar.finish_and_clear();
        out!("{}", serde_json::to_string(&part)?);
        return Ok(());
    }
    let start = Instant::now();
    let result = arena::run(&spec, &|_| bar.inc(1))?;
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let format = if args.format == ArenaFormat::Json {
        Format::Json
    } else {
        Format::Text
    };
    print(&result, format, seconds, threads_used(threads))
}

/// Print an arena's result as `format` says (`seconds` on `threads`: the
/// time its games took).
pub fn print(result: &ArenaResult, format: Format, seconds: f64, threads: usize) -> Result<()> {
    let mut out = super::output::stdout();
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string(result)?)?,
        Format::Text => write_text(&mut out, result, seconds, threads)?,
    }
    Ok(())
}

fn write_text(out: &mut impl Write, r: &ArenaResult, seconds: f64, threads: usize) -> Result<()> {
    writeln!(
        out,
        "{} ({}), {} players, {} games ({} deals x {} seatings), seed {}",
        r.variant,
        r.packs.join(" + "),
        r.players,
        r.games,
        r.deals,
        r.players,
        r.seed
    )?;
    writeln!(out, "bot values: {}", r.bot_values)?;
    for b in r.results.iter().filter(|b| b.values != r.bot_values) {
        writeln!(out, "  {} weighs with: {}", b.bot, b.values)?;
    }
    let width = r.bots.iter().map(String::len).max().unwrap_or(3).max(3);
    writeln!(
        out,
        "{:<width$}  seats  win share  95% CI            mean score  mean margin [95% CI]",
        "bot"
    )?;
    for b in &r.results {
        writeln!(
            out,
            "{:<width$}  {:>5}  {:>9.3}  [{:.3}, {:.3}]  {:>10.1}  {:>+11.1} [{:+.1}, {:+.1}]",
            b.bot,
            b.seats,
            b.win_share,
            b.ci[0],
            b.ci[1],
            b.mean_score,
            b.mean_margin,
            b.margin_ci[0],
            b.margin_ci[1]
        )?;
    }
    let seats: Vec<String> = r
        .seats
        .iter()
        .map(|s| {
            format!(
                "seat {} {:.3} [{:.3}, {:.3}]",
                s.seat, s.win_share, s.ci[0], s.ci[1]
            )
        })
        .collect();
    writeln!(out, "seat effect (win share by seat): {}", seats.join(", "))?;
    writeln!(
        out,
        "{:.2} games/s ({:.2} s, {threads} threads)",
        r.games as f64 / seconds.max(1e-9),
        seconds
    )?;
    Ok(())
}
