//! The command line: argument parsing, output formats, and the only code in
//! towerlab that prints. One module per command; `args` holds the argument
//! types they share, `output` the printing helpers.

#[macro_use]
mod output;
mod arena;
mod args;
mod check;
mod compare;
mod files;
mod fires;
mod info;
mod ladder;
mod list;
mod merge;
mod numbers;
mod pergame;
mod play;
mod range;
mod render;
mod replay;
mod runs;
mod serve;
mod simulate;
mod sweep;
mod test;
mod tiles;
mod trace;
mod tune;

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{Parser, Subcommand};

use crate::kernel::tiles::TileSet;
use crate::rules::{Home, LoadOptions};
use files::Files;

pub use args::{
    BudgetArgs, Format, ParamArgs, RulesArgs, RunArgs, SeatArgs, SweepFormat, TableFormat,
};
pub use check::CheckArgs;
pub use compare::CompareArgs;
pub use info::InfoArgs;
pub use list::ListArgs;
pub use merge::MergeArgs;
pub use play::PlayArgs;
pub use range::{RangeArgs, RangeFormat};
pub use render::RenderArgs;
pub use replay::ReplayArgs;
pub use serve::ServeArgs;
pub use simulate::SimulateArgs;
pub use sweep::SweepArgs;
pub use test::TestArgs;
pub use tiles::TilesArgs;
pub use tune::TuneArgs;

/// towerlab: play, simulate and compare rule variants of Carcassonne's Tower.
#[derive(Parser, Debug)]
#[command(name = "towerlab", version, about, long_about = None)]
pub struct Cli {
    /// Folder whose rules/ (tile sets and packs) and variants/ are layered
    /// over the shipped ones; its names win [default: $TOWERLAB_HOME, else
    /// the current folder if it has rules/, variants/ or tuned/, else the shipped
    /// files alone]
    #[arg(long, global = true, value_name = "DIR")]
    pub home: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play one game with bots and print the result.
    Play(PlayArgs),
    /// Play many seeded games in parallel and print their metrics and speed.
    Simulate(SimulateArgs),
    /// Play the same seeds under several variants and compare their metrics.
    Compare(CompareArgs),
    /// Join the partial results of a run's shards into what one run prints.
    Merge(MergeArgs),
    /// Play one variant at several values of a pack parameter (or player
    /// count) on the same seeds, and compare each value with the first.
    Sweep(SweepArgs),
    /// Replay a game log under its rules and report the first event they
    /// would not allow.
    Replay(ReplayArgs),
    /// Show the cells a tower of given floors captures from.
    Range(RangeArgs),
    /// Draw a board as SVG: a game from a log, or a board file with a tower.
    Render(RenderArgs),
    /// Load, validate and test-play a pack or a variant.
    Check(CheckArgs),
    /// Run the scenario tests of packs or variants: positions set up by
    /// hand and what their rules must answer there.
    Test(TestArgs),
    /// List the variants and packs there are, shipped and the home folder's.
    List(ListArgs),
    /// Describe a pack or variant: floor kinds, parameters, tiles, hooks.
    Info(InfoArgs),
    /// Draw a tile set as SVG: each tile, named, in every distinct rotation.
    Tiles(TilesArgs),
    /// Play a variant in the browser, against bots or other people at the
    /// same screen: a local web server; prints its address.
    Serve(ServeArgs),
    /// Bots against each other on the same deals, seats rotated: win shares.
    Arena(arena::ArenaArgs),
    /// Learn a variant's bot values from its self-play games and keep them
    /// in the home folder, for every later run of that variant.
    Tune(TuneArgs),
}

/// The base game's and The Tower's tiles (G9), from a home folder.
pub fn load_tiles(home: &Home) -> Result<TileSet> {
    crate::rules::reference_tiles(home)
}

impl Command {
    /// How the command loads packs: held to the memory limit (the
    /// `towerlab` binary installs the counting allocator it needs), with
    /// `--hook-budget` where the command plays games. [`trace::traced`]
    /// adds `--trace` ([`Command::trace`]), and writes the trace out.
    fn load_options(&self) -> LoadOptions {
        let load = LoadOptions::default();
        match self.budget() {
            Some(b) => load.with_hook_budget(b.hook_budget),
            None => load,
        }
    }

    /// `--trace FILE`, for the commands that trace hook calls.
    fn trace(&self) -> Option<&Path> {
        match self {
            Command::Play(a) => a.trace.as_deref(),
            Command::Check(a) => a.trace.as_deref(),
            Command::Test(a) => a.trace.as_deref(),
            Command::Simulate(_)
            | Command::Compare(_)
            | Command::Merge(_)
            | Command::Sweep(_)
            | Command::Replay(_)
            | Command::Range(_)
            | Command::Render(_)
            | Command::List(_)
            | Command::Info(_)
            | Command::Tiles(_)
            | Command::Serve(_)
            | Command::Arena(_)
            | Command::Tune(_) => None,
        }
    }

    /// `--hook-budget`, for the commands that play games.
    fn budget(&self) -> Option<BudgetArgs> {
        match self {
            Command::Play(a) => Some(a.budget),
            Command::Simulate(a) => Some(a.run.budget),
            Command::Compare(a) => Some(a.run.budget),
            Command::Replay(a) => Some(a.budget),
            Command::Render(a) => Some(a.budget),
            Command::Check(a) => Some(a.budget),
            Command::Test(a) => Some(a.budget),
            Command::Serve(a) => Some(a.budget),
            Command::Merge(a) => Some(a.budget),
            Command::Sweep(a) => Some(a.budget),
            Command::Arena(a) => Some(a.budget),
            Command::Tune(a) => Some(a.budget),
            Command::Range(_) | Command::List(_) | Command::Info(_) | Command::Tiles(_) => None,
        }
    }
}

impl Command {
    /// The files the command reads and writes, as its flags name them.
    fn files(&self) -> Files {
        let files = Files::default();
        match self {
            Command::Play(a) => files
                .rules(&a.rules)
                .output("--log", a.log.as_deref())
                .output("--trace", a.trace.as_deref()),
            Command::Simulate(a) => run_files(files.rules(&a.rules), &a.run),
            Command::Compare(a) => {
                let files = a.variants.iter().fold(files, |f, v| {
                    f.input_if_file("VARIANT", Some(v))
                        .input_packs("VARIANT", v.split(','))
                });
                run_files(files, &a.run).output("--html", a.html.as_deref())
            }
            Command::Merge(a) => a
                .parts
                .iter()
                .fold(files, |f, p| f.input("PART", Some(p)))
                .output("--html", a.html.as_deref())
                .output("--per-game", a.per_game.as_deref()),
            Command::Sweep(a) => files
                .rules(&a.rules)
                .output("--html", a.html.as_deref())
                .output("--per-game", a.per_game.as_deref()),
            Command::Range(a) => files
                .rules(&a.rules)
                .input("--board", a.board.as_deref())
                .output("--output", a.output.as_deref()),
            Command::Render(a) => files
                .rules(&a.rules)
                .input("--log", a.log.as_deref())
                .input("--board", a.board.as_deref())
                .output("--output", a.output.as_deref()),
            Command::Tiles(a) => files
                .input_if_file("TARGET", Some(&a.target))
                .output("--output", a.output.as_deref()),
            Command::Tune(a) => files.input_if_file("VARIANT", Some(&a.variant)),
            Command::Test(a) => {
                let files = a
                    .targets
                    .iter()
                    .fold(files, |f, t| target_files(f, "PACK|VARIANT", t));
                a.files
                    .iter()
                    .fold(files, |f, p| f.input("--file", Some(p)))
                    .output("--trace", a.trace.as_deref())
            }
            Command::Check(a) => {
                target_files(files, "TARGET", &a.target).output("--trace", a.trace.as_deref())
            }
            Command::Replay(_)
            | Command::List(_)
            | Command::Info(_)
            | Command::Serve(_)
            | Command::Arena(_) => files,
        }
    }
}

impl Files {
    /// The files of `--variant` or `--packs`.
    fn rules(self, rules: &RulesArgs) -> Files {
        let packs = rules.packs.iter().flatten().map(String::as_str);
        self.input_if_file("--variant", rules.variant.as_deref())
            .input_packs("--packs", packs)
    }
}

/// The files of a pack, pack list or variant named by `target`.
fn target_files(files: Files, flag: &'static str, target: &str) -> Files {
    files
        .input_if_file(flag, Some(target))
        .input_packs(flag, target.split(','))
}

/// The files of `simulate` and `compare`'s shared options.
fn run_files(files: Files, run: &RunArgs) -> Files {
    files
        .output("--log", run.log.as_deref())
        .output("--per-game", run.per_game.as_deref())
}

/// Run the command line; the error, if any, is for `main` to report.
/// A command that would write over one of its inputs, or two of its outputs
/// over each other, is refused before any work.
pub fn run(cli: Cli) -> Result<()> {
    let files = cli.command.files();
    files.check()?;
    let home = Home::locate(cli.home.as_deref())?;
    files.outside_library(home.folder())?;
    let trace = cli.command.trace().map(Path::to_path_buf);
    let load = cli.command.load_options();
    trace::traced(trace.as_deref(), load, |load| cli.command.run(&home, load))
}

/// Run the command line as [`run`] does, on a thread with the hooks'
/// stack, and return what it prints on stdout instead of printing it: the
/// entry of a program that calls towerlab as a library (the Python
/// package reads `--format json` this way).
pub fn run_captured(cli: Cli) -> Result<String> {
    let (ran, text) = crate::play::sim::on_hook_stack(|| output::captured(|| run(cli)));
    ran?;
    Ok(String::from_utf8_lossy(&text).into_owned())
}

impl Command {
    /// Run the command, finding its rules in `home` and loading their packs
    /// under `load`.
    fn run(self, home: &Home, load: &LoadOptions) -> Result<()> {
        match self {
            Command::Play(args) => play::run(home, load, &args),
            Command::Simulate(args) => simulate::run(home, load, &args),
            Command::Compare(args) => match &args.ladder {
                Some(levels) if !args.explain => {
                    ladder::run(&args, &compare::load_all(home, load, &args)?, levels)
                }
                _ => compare::run(home, load, &args),
            },
            Command::Merge(args) => merge::run(home, load, &args),
            Command::Sweep(args) => sweep::run(home, load, &args),
            Command::Replay(args) => replay::run(home, load, &args),
            Command::Range(args) => range::run(home, load, &args),
            Command::Render(args) => render::run(home, load, &args),
            Command::Check(args) => check::run(home, load, &args),
            Command::Test(args) => test::run(home, load, &args),
            Command::List(args) => list::run(home, &args),
            Command::Info(args) => info::run(home, load, &args),
            Command::Tiles(args) => tiles::run(home, &args),
            Command::Serve(args) => serve::run(home, load, &args),
            Command::Arena(args) => arena::run(home, load, &args),
            Command::Tune(args) => tune::run(home, load, &args),
        }
    }
}
