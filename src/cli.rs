//! The command line: argument parsing, output formats, and the only code in
//! towerlab that prints.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use clap::{Parser, Subcommand, ValueEnum};
use serde::Serialize;

use crate::diag::bad_input;
use crate::native::NativeTower;
use crate::sim::{self, Batch};
use crate::tiles::TileSet;

/// towerlab: play, simulate and compare rule variants of Carcassonne's Tower.
#[derive(Parser, Debug)]
#[command(name = "towerlab", version, about, long_about = None)]
pub struct Cli {
    /// Folder holding the tile sets and rule packs [default: $TOWERLAB_RULES,
    /// else ./rules, else the rules/ folder of the source tree]
    #[arg(long, global = true, value_name = "DIR")]
    pub rules_dir: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play one game with random bots and print the result.
    Play(PlayArgs),
    /// Play many seeded games in parallel and print mean scores and speed.
    Simulate(SimulateArgs),
}

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The game's seed: the same seed plays the same game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of players (2 to 6).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: u8,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// Number of games to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Master seed: game i plays with a seed derived from (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of players (2 to 6).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: u8,
    /// Worker threads [default: one per core]. Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Where the tile sets and packs live.
pub fn rules_dir(flag: Option<&Path>) -> PathBuf {
    if let Some(dir) = flag {
        return dir.to_path_buf();
    }
    if let Some(dir) = std::env::var_os("TOWERLAB_RULES") {
        return PathBuf::from(dir);
    }
    let local = PathBuf::from("rules");
    if local.join("base").join("tiles.toml").is_file() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// The base game's and The Tower's tiles (G9).
pub fn load_tiles(dir: &Path) -> Result<TileSet> {
    let base = dir.join("base").join("tiles.toml");
    if !base.is_file() {
        return Err(bad_input(format!(
            "no tile set at `{}`: pass --rules-dir or set TOWERLAB_RULES",
            base.display()
        )));
    }
    TileSet::load(&[base, dir.join("tower").join("tiles.toml")])
}

/// Run the command line; the error, if any, is for `main` to report.
pub fn run(cli: Cli) -> Result<()> {
    let dir = rules_dir(cli.rules_dir.as_deref());
    match cli.command {
        Command::Play(args) => play(&dir, &args),
        Command::Simulate(args) => simulate(&dir, &args),
    }
}

#[derive(Serialize)]
struct PlayReport {
    seed: u64,
    players: usize,
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

fn play(dir: &Path, args: &PlayArgs) -> Result<()> {
    let tiles = load_tiles(dir)?;
    let rules = NativeTower::default();
    let game = sim::play_random(&tiles, &rules, args.players as usize, args.seed)?;
    let s = game.stats();
    let report = PlayReport {
        seed: args.seed,
        players: game.players().len(),
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
        Format::Json => println!("{}", serde_json::to_string(&report)?),
        Format::Text => {
            println!(
                "seed {}, {} players, {} turns",
                report.seed, report.players, report.turns
            );
            for (p, score) in report.scores.iter().enumerate() {
                println!("  player {}: {score} points", p + 1);
            }
            println!(
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

#[derive(Serialize)]
struct SimulateReport {
    games: u64,
    players: usize,
    seed: u64,
    threads: usize,
    mean_scores: Vec<f64>,
    mean_turns: f64,
    mean_captures: f64,
    mean_ransoms: f64,
    seconds: f64,
    games_per_sec: f64,
}

fn simulate(dir: &Path, args: &SimulateArgs) -> Result<()> {
    let tiles = load_tiles(dir)?;
    let players = args.players as usize;
    let threads = args.threads.map_or(0, usize::from);
    let batch = Batch {
        tiles: &tiles,
        players,
        games: args.games,
        master_seed: args.seed,
        threads,
    };
    let start = Instant::now();
    let results = sim::simulate(&batch, NativeTower::default)?;
    let seconds = start.elapsed().as_secs_f64();
    let n = results.len().max(1) as f64;
    let mean =
        |f: &dyn Fn(&sim::GameResult) -> u32| results.iter().map(|r| f(r) as f64).sum::<f64>() / n;
    let report = SimulateReport {
        games: args.games,
        players,
        seed: args.seed,
        threads: if threads == 0 {
            rayon::current_num_threads()
        } else {
            threads
        },
        mean_scores: sim::mean_scores(&results, players),
        mean_turns: mean(&|r| r.stats.turns),
        mean_captures: mean(&|r| r.stats.captures + r.stats.own_captures),
        mean_ransoms: mean(&|r| r.stats.ransoms),
        seconds,
        games_per_sec: args.games as f64 / seconds.max(1e-9),
    };
    match args.format {
        Format::Json => println!("{}", serde_json::to_string(&report)?),
        Format::Text => {
            println!(
                "{} games, {} players, seed {}, {} threads",
                report.games, report.players, report.seed, report.threads
            );
            for (p, s) in report.mean_scores.iter().enumerate() {
                println!("  player {}: mean score {s:.2}", p + 1);
            }
            println!(
                "mean turns {:.1}, captures {:.2}, ransoms {:.2}",
                report.mean_turns, report.mean_captures, report.mean_ransoms
            );
            println!(
                "{:.0} games/s ({:.2} s)",
                report.games_per_sec, report.seconds
            );
        }
    }
    Ok(())
}
