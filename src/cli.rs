//! The command line: argument parsing, output formats, and the only code in
//! towerlab that prints.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::{Parser, Subcommand, ValueEnum};
use serde::Serialize;

use crate::diag::{Source, bad_input};
use crate::packs::{Home, Ruleset};
use crate::query::{self, BoardMap};
use crate::sim::{self, Batch};
use crate::tiles::TileSet;

/// towerlab: play, simulate and compare rule variants of Carcassonne's Tower.
#[derive(Parser, Debug)]
#[command(name = "towerlab", version, about, long_about = None)]
pub struct Cli {
    /// Folder holding rules/ (tile sets and packs) and variants/ [default:
    /// $TOWERLAB_HOME, else the current folder if it has rules/, else the
    /// source tree towerlab was built from]
    #[arg(long, global = true, value_name = "DIR")]
    pub home: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play one game with random bots and print the result.
    Play(PlayArgs),
    /// Play many seeded games in parallel and print mean scores and speed.
    Simulate(SimulateArgs),
    /// Show the cells a tower of given floors captures from.
    Range(RangeArgs),
    /// Load, validate and test-play a pack or a variant.
    Check(CheckArgs),
}

/// Which rules to play: a variant file, or packs in order.
#[derive(clap::Args, Debug, Clone)]
pub struct RulesArgs {
    /// A variant: a name from variants/ (e.g. `black-tower`) or a path to a
    /// TOML file [default: tower]
    #[arg(long, value_name = "NAME|PATH", conflicts_with = "packs")]
    pub variant: Option<String>,
    /// An ad-hoc variant: packs in order, comma-separated (e.g.
    /// `tower,black-tower,house/no-gaps`, a folder path, or `native:tower`);
    /// the base game is always in
    #[arg(long, value_name = "P1,P2,…", value_delimiter = ',')]
    pub packs: Option<Vec<String>>,
}

impl RulesArgs {
    fn load(&self, home: &Home) -> Result<Ruleset> {
        Ruleset::select(home, self.variant.as_deref(), self.packs.as_deref())
    }
}

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The game's seed: the same seed plays the same game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of players, 2 to 6 [default: the variant's, else 2]
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: Option<u8>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Number of games to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Master seed: game i plays with a seed derived from (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Number of players, 2 to 6 [default: the variant's, else 2]
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: Option<u8>,
    /// Worker threads [default: one per core]. Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(clap::Args, Debug)]
pub struct RangeArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The tower's floors, bottom to top, comma-separated (e.g. `regular,black`).
    #[arg(long, value_name = "K1,K2,…", value_delimiter = ',', required = true)]
    pub floors: Vec<String>,
    /// A board file: lines of `#` (tile), `.` (no tile) and one `T` (the
    /// tower's tile), northernmost row first [default: every cell holds a tile]
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// A pack (name under rules/ or folder path) or a variant (name in
    /// variants/ or path to a .toml file).
    pub target: String,
    /// Games to play with random bots once the pack loads.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    pub games: u64,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// The base game's and The Tower's tiles (G9), from a home folder.
pub fn load_tiles(home: &Home) -> Result<TileSet> {
    let base = home.base_tiles()?;
    TileSet::load(&[base, home.rules.join("tower").join("tiles.toml")])
}

/// Run the command line; the error, if any, is for `main` to report.
pub fn run(cli: Cli) -> Result<()> {
    let home = Home::locate(cli.home.as_deref());
    match cli.command {
        Command::Play(args) => play(&home, &args),
        Command::Simulate(args) => simulate(&home, &args),
        Command::Range(args) => range(&home, &args),
        Command::Check(args) => check(&home, &args),
    }
}

fn players_of(flag: Option<u8>, set: &Ruleset) -> usize {
    flag.map_or(set.players, usize::from)
}

#[derive(Serialize)]
struct PlayReport {
    variant: String,
    packs: Vec<String>,
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

fn play(home: &Home, args: &PlayArgs) -> Result<()> {
    let set = args.rules.load(home)?;
    let rules = set.rules();
    let players = players_of(args.players, &set);
    let game = sim::play_random(&set.tiles, rules.as_ref(), players, args.seed)?;
    let s = game.stats();
    let report = PlayReport {
        variant: set.name.clone(),
        packs: set.pack_names.clone(),
        seed: args.seed,
        players,
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
                "{} ({}), seed {}, {} players, {} turns",
                report.variant,
                report.packs.join(" + "),
                report.seed,
                report.players,
                report.turns
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
    variant: String,
    packs: Vec<String>,
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

fn simulate(home: &Home, args: &SimulateArgs) -> Result<()> {
    let set = args.rules.load(home)?;
    let players = players_of(args.players, &set);
    let threads = args.threads.map_or(0, usize::from);
    let batch = Batch {
        tiles: &set.tiles,
        players,
        games: args.games,
        master_seed: args.seed,
        threads,
    };
    let start = Instant::now();
    let results = sim::simulate(&batch, || set.rules())?;
    let seconds = start.elapsed().as_secs_f64();
    let n = results.len().max(1) as f64;
    let mean =
        |f: &dyn Fn(&sim::GameResult) -> u32| results.iter().map(|r| f(r) as f64).sum::<f64>() / n;
    let report = SimulateReport {
        variant: set.name.clone(),
        packs: set.pack_names.clone(),
        games: args.games,
        players,
        seed: args.seed,
        threads: if threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
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
                "{} ({}): {} games, {} players, seed {}, {} threads",
                report.variant,
                report.packs.join(" + "),
                report.games,
                report.players,
                report.seed,
                report.threads
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

#[derive(Serialize)]
struct RangeReport {
    cells: Vec<[i32; 2]>,
}

fn range(home: &Home, args: &RangeArgs) -> Result<()> {
    let set = args.rules.load(home)?;
    let rules = set.rules();
    let floors = args
        .floors
        .iter()
        .map(|f| set.floor_kind(f.trim()))
        .collect::<Result<Vec<_>>>()?;
    let map = match &args.board {
        Some(path) => Some(BoardMap::parse(&Source::read(path)?)?),
        None => None,
    };
    let cells = query::capture_cells(rules.as_ref(), &set.tiles, &floors, map.as_ref())?;
    match args.format {
        Format::Json => {
            let report = RangeReport {
                cells: cells.iter().map(|&(x, y)| [x, y]).collect(),
            };
            println!("{}", serde_json::to_string(&report)?);
        }
        Format::Text => {
            println!(
                "{} with floors {} (bottom to top): {} cells",
                set.name,
                args.floors.join(", "),
                cells.len()
            );
            print!("{}", draw_range(&cells, map.as_ref()));
            println!("T tower  X in range  # tile out of range  . no tile");
        }
    }
    Ok(())
}

/// The board as text: `T` the tower, `X` a cell in range, `#` a tile out of
/// range, `.` no tile; north up.
fn draw_range(cells: &[(i32, i32)], map: Option<&BoardMap>) -> String {
    let tiles: Vec<(i32, i32)> = match map {
        Some(m) => m.tiles.clone(),
        None => cells.to_vec(),
    };
    let all = tiles.iter().chain(cells).chain([&(0, 0)]);
    let (mut x0, mut x1, mut y0, mut y1) = (0, 0, 0, 0);
    for &(x, y) in all {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    let mut out = String::new();
    for y in (y0..=y1).rev() {
        for x in x0..=x1 {
            out.push(if (x, y) == (0, 0) {
                'T'
            } else if cells.contains(&(x, y)) {
                'X'
            } else if tiles.contains(&(x, y)) {
                '#'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

fn check(home: &Home, args: &CheckArgs) -> Result<()> {
    let report = crate::packs::check::run(home, &args.target, args.games)?;
    for line in &report.notes {
        println!("{line}");
    }
    for w in &report.warnings {
        println!("warning: {w}");
    }
    if report.problems.is_empty() {
        println!("ok: {}", report.summary);
        Ok(())
    } else {
        for p in &report.problems {
            println!("problem: {p}");
        }
        Err(bad_input(format!(
            "{} problem(s) found in `{}`",
            report.problems.len(),
            args.target
        )))
    }
}
