//! The command line: argument parsing, output formats, and the only code in
//! towerlab that prints.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::{Parser, Subcommand, ValueEnum};
use comfy_table::{ContentArrangement, Table};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

mod arena;

use crate::analysis::stats;
use crate::kernel::diag::{Source, bad_input};
use crate::kernel::tiles::TileSet;
use crate::play::bots::BotKind;
use crate::play::query::{self, BoardMap};
use crate::play::sim::{self, Batch};
use crate::rules::{Home, Ruleset};
use crate::views::render;

/// `println!` that returns an error instead of panicking when stdout is
/// closed (e.g. piped into `head`); `main` treats a broken pipe as success.
macro_rules! out {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout(), $($arg)*)?
    };
}

/// `print!`, likewise.
macro_rules! outp {
    ($($arg:tt)*) => {
        write!(std::io::stdout(), $($arg)*)?
    };
}

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
    /// Play one game with bots and print the result.
    Play(PlayArgs),
    /// Play many seeded games in parallel and print their metrics and speed.
    Simulate(SimulateArgs),
    /// Play the same seeds under several variants and compare their metrics.
    Compare(CompareArgs),
    /// Replay a game log under its rules and report the first event they
    /// would not allow.
    Replay(ReplayArgs),
    /// Show the cells a tower of given floors captures from.
    Range(RangeArgs),
    /// Draw a board as SVG: a game from a log, or a board file with a tower.
    Render(RenderArgs),
    /// Load, validate and test-play a pack or a variant.
    Check(CheckArgs),
    /// Bots against each other on the same deals, seats rotated: win shares.
    Arena(arena::ArenaArgs),
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
    #[command(flatten)]
    pub seats: SeatArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Who plays: how many players, and which bot in each seat.
#[derive(clap::Args, Debug)]
pub struct SeatArgs {
    /// Number of players, 2 to 6 [default: the (first) variant's, else 2]
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=6))]
    pub players: Option<u8>,
    /// Bots: one name for every seat, or one per seat, comma-separated
    /// (`random`, `greedy`)
    #[arg(
        long,
        value_name = "B1,B2,…",
        value_delimiter = ',',
        default_value = "random"
    )]
    pub bots: Vec<String>,
}

impl SeatArgs {
    /// The bot of each seat, under rules whose default player count is
    /// `set.players`.
    fn bots(&self, set: &Ruleset) -> Result<Vec<BotKind>> {
        let players = self.players.map_or(set.players, usize::from);
        crate::play::bots::seats(&self.bots, players)
    }
}

/// Options shared by `simulate` and `compare`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Number of games to play (per variant).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Master seed: game i plays with a seed derived from (seed, i), the same
    /// in every variant.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub seats: SeatArgs,
    /// Worker threads [default: one per core]. Results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Write every game's events to FILE as JSON Lines (see docs/log.md).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
}

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// Variants to compare, the first being the baseline: names from
    /// variants/, paths to variant files, or comma-separated pack lists
    /// (e.g. `tower,house/no-gaps`).
    #[arg(required = true, num_args = 2.., value_name = "VARIANT")]
    pub variants: Vec<String>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Also write the comparison as one self-contained HTML page to FILE:
    /// the table, charts, and a replay viewer of each variant's game 0.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// A game log written by `--log` (JSON Lines).
    pub log: PathBuf,
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
    /// Output format (`svg`: a picture of the board and the cells in range).
    #[arg(long, value_enum, default_value_t = RangeFormat::Text)]
    pub format: RangeFormat,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeFormat {
    Text,
    Json,
    Svg,
}

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// A game log written by `--log` (JSON Lines): draw one of its games.
    #[arg(long, value_name = "FILE", required_unless_present = "board", conflicts_with_all = ["board", "floors", "variant", "packs"])]
    pub log: Option<PathBuf>,
    /// The game of the log to draw (its `game` index).
    #[arg(long, default_value_t = 0)]
    pub game: u64,
    /// Draw the state after this turn [default: the end, after final scoring;
    /// a turn past the end is the end].
    #[arg(long)]
    pub turn: Option<u32>,
    /// A board file (as for `range`): plain tiles, the tower on `T` at 0,0.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "turn"])]
    pub board: Option<PathBuf>,
    /// With --board: the tower's floors, bottom to top, comma-separated.
    #[arg(
        long,
        value_name = "K1,K2,…",
        value_delimiter = ',',
        requires = "board"
    )]
    pub floors: Vec<String>,
    // With --board: the rules that compute the range (default: tower).
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Mark the capture range of the tower on this cell [default with
    /// --board and --floors: the tower, 0,0].
    #[arg(long, value_name = "X,Y", value_parser = parse_cell, allow_hyphen_values = true)]
    pub range: Option<(i32, i32)>,
    /// Write the SVG to FILE [default: stdout].
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `X,Y` as two integers.
fn parse_cell(text: &str) -> std::result::Result<(i32, i32), String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    match parts[..] {
        [x, y] => match (x.parse(), y.parse()) {
            (Ok(x), Ok(y)) => Ok((x, y)),
            _ => Err(format!("`{text}` is not two integers X,Y")),
        },
        _ => Err(format!("`{text}` is not a cell X,Y (e.g. 2,-1)")),
    }
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

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// A table sized to the terminal.
    #[value(alias = "text")]
    Table,
    Json,
    Csv,
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
        Command::Compare(args) => compare(&home, &args),
        Command::Replay(args) => replay(&home, &args),
        Command::Range(args) => range(&home, &args),
        Command::Render(args) => render(&home, &args),
        Command::Check(args) => check(&home, &args),
        Command::Arena(args) => arena::run(&home, &args),
    }
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
    let bots = args.seats.bots(&set)?;
    let players = bots.len();
    let game = sim::play(&set.tiles, rules.as_ref(), &bots, args.seed, false)?;
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

/// A progress bar on stderr when it is a terminal; nothing otherwise.
fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The games of one variant, played and summarised.
struct Run {
    set: Ruleset,
    results: Vec<sim::GameResult>,
    seconds: f64,
}

/// Play `args.games` games of each ruleset on the same seeds; write the log.
fn run_all(sets: Vec<Ruleset>, args: &RunArgs) -> Result<Vec<Run>> {
    let bots = args.seats.bots(&sets[0])?;
    let mut log = match &args.log {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| {
                bad_input(format!("cannot write the log `{}`: {e}", path.display()))
            })?,
        )),
        None => None,
    };
    let bar = progress_bar(args.games * sets.len() as u64);
    let mut runs = Vec::new();
    for set in sets {
        let batch = Batch {
            set: &set,
            bots: &bots,
            games: args.games,
            master_seed: args.seed,
            threads: args.threads.map_or(0, usize::from),
            log: log.is_some(),
        };
        let start = Instant::now();
        let results = sim::simulate(&batch, &|_| bar.inc(1), |r| {
            if let (Some(out), Some(text)) = (log.as_mut(), &r.log) {
                out.write_all(text.as_bytes())?;
            }
            Ok(())
        })?;
        let seconds = start.elapsed().as_secs_f64();
        runs.push(Run {
            set,
            results,
            seconds,
        });
    }
    bar.finish_and_clear();
    if let Some(mut out) = log {
        out.flush()?;
    }
    Ok(runs)
}

fn threads_used(flag: Option<u16>) -> usize {
    flag.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    )
}

#[derive(Serialize)]
struct MetricReport {
    name: String,
    mean: f64,
    ci: [f64; 2],
}

#[derive(Serialize)]
struct SimulateReport {
    variant: String,
    packs: Vec<String>,
    games: u64,
    players: usize,
    bots: Vec<String>,
    seed: u64,
    threads: usize,
    mean_scores: Vec<f64>,
    seconds: f64,
    games_per_sec: f64,
    metrics: Vec<MetricReport>,
}

fn simulate(home: &Home, args: &SimulateArgs) -> Result<()> {
    let set = args.rules.load(home)?;
    let run = run_all(vec![set], &args.run)?.remove(0);
    let players = run.results[0].scores.len();
    let names = stats::metric_names(players);
    let summary = stats::Columns::of(&run.results).summary();
    let report = SimulateReport {
        variant: run.set.name.clone(),
        packs: run.set.pack_names.clone(),
        games: args.run.games,
        players,
        bots: crate::play::bots::seats(&args.run.seats.bots, players)?
            .iter()
            .map(|b| b.name().to_string())
            .collect(),
        seed: args.run.seed,
        threads: threads_used(args.run.threads),
        mean_scores: sim::mean_scores(&run.results, players),
        seconds: run.seconds,
        games_per_sec: args.run.games as f64 / run.seconds.max(1e-9),
        metrics: names
            .iter()
            .zip(&summary.values)
            .map(|(n, e)| MetricReport {
                name: n.clone(),
                mean: e.mean,
                ci: [e.low, e.high],
            })
            .collect(),
    };
    match args.run.format {
        TableFormat::Json => out!("{}", serde_json::to_string(&report)?),
        TableFormat::Csv => {
            let mut w = csv::Writer::from_writer(std::io::stdout());
            w.write_record(["variant", "metric", "mean", "ci_low", "ci_high"])
                .map_err(std::io::Error::from)?;
            for m in &report.metrics {
                w.write_record([
                    report.variant.clone(),
                    m.name.clone(),
                    m.mean.to_string(),
                    m.ci[0].to_string(),
                    m.ci[1].to_string(),
                ])
                .map_err(std::io::Error::from)?;
            }
            w.flush()?;
        }
        TableFormat::Table => {
            out!(
                "{} ({}): {} games, {} players, bots {}, seed {}",
                report.variant,
                report.packs.join(" + "),
                report.games,
                report.players,
                report.bots.join(","),
                report.seed
            );
            let mut table = new_table(["metric", "mean", "95% CI", "what it is"]);
            for m in &report.metrics {
                table.add_row([
                    m.name.clone(),
                    format!("{:.2}", m.mean),
                    format!("[{:.2}, {:.2}]", m.ci[0], m.ci[1]),
                    stats::describe(&m.name).to_string(),
                ]);
            }
            out!("{table}");
            out!(
                "{:.0} games/s ({:.2} s, {} threads)",
                report.games_per_sec,
                report.seconds,
                report.threads
            );
        }
    }
    Ok(())
}

/// A table that fits the terminal's width when stdout is one.
fn new_table<S: ToString>(header: impl IntoIterator<Item = S>) -> Table {
    let mut table = Table::new();
    table
        .load_style(comfy_table::presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(
            header
                .into_iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>(),
        );
    table
}

#[derive(Serialize)]
struct CompareEntry {
    variant: String,
    mean: f64,
    ci: [f64; 2],
    /// Paired difference against the first variant (absent for it).
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<DiffReport>,
}

#[derive(Serialize)]
struct DiffReport {
    mean: f64,
    ci: [f64; 2],
    sd: f64,
    significant: bool,
}

#[derive(Serialize)]
struct CompareMetric {
    name: String,
    values: Vec<CompareEntry>,
}

#[derive(Serialize)]
struct CompareReport {
    variants: Vec<String>,
    packs: Vec<Vec<String>>,
    games: u64,
    players: usize,
    bots: Vec<String>,
    seed: u64,
    threads: usize,
    seconds: f64,
    games_per_sec: f64,
    metrics: Vec<CompareMetric>,
}

fn load_compared(home: &Home, name: &str) -> Result<Ruleset> {
    if name.contains(',') {
        let packs: Vec<String> = name.split(',').map(|p| p.trim().to_string()).collect();
        Ruleset::from_packs(home, &packs)
    } else {
        Ruleset::from_variant(home, name)
    }
}

fn compare(home: &Home, args: &CompareArgs) -> Result<()> {
    let sets = args
        .variants
        .iter()
        .map(|v| load_compared(home, v))
        .collect::<Result<Vec<_>>>()?;
    let runs = run_all(sets, &args.run)?;
    let players = runs[0].results[0].scores.len();
    let names = stats::metric_names(players);
    let columns: Vec<stats::Columns> = runs
        .iter()
        .map(|r| stats::Columns::of(&r.results))
        .collect();
    let summaries: Vec<stats::Summary> = columns.iter().map(|c| c.summary()).collect();
    let diffs: Vec<Vec<stats::Estimate>> = columns
        .iter()
        .map(|c| columns[0].paired_difference(c))
        .collect();
    let seconds: f64 = runs.iter().map(|r| r.seconds).sum();
    let label = |i: usize| runs[i].set.name.clone();
    if let Some(path) = &args.html {
        let bots = crate::play::bots::seats(&args.run.seats.bots, players)?;
        let variants = (0..runs.len())
            .map(|v| {
                Ok(crate::views::report::Variant {
                    name: label(v),
                    packs: runs[v].set.pack_names.clone(),
                    summary: summaries[v].values.clone(),
                    diff: (v > 0).then(|| diffs[v].clone()),
                    per_game: runs[v].results.iter().map(stats::per_game).collect(),
                    sample: Some(crate::views::report::sample_game(
                        &runs[v].set,
                        &bots,
                        0,
                        runs[v].results[0].seed,
                    )?),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let page = crate::views::report::html(&crate::views::report::Report {
            games: args.run.games,
            seed: args.run.seed,
            players,
            bots: bots.iter().map(|b| b.name().to_string()).collect(),
            metrics: names.clone(),
            variants,
        });
        std::fs::write(path, &page)
            .map_err(|e| bad_input(format!("cannot write `{}`: {e}", path.display())))?;
        writeln!(
            std::io::stderr(),
            "wrote {} ({} KB)",
            path.display(),
            page.len().div_ceil(1024)
        )?;
    }
    let report = CompareReport {
        variants: (0..runs.len()).map(label).collect(),
        packs: runs.iter().map(|r| r.set.pack_names.clone()).collect(),
        games: args.run.games,
        players,
        bots: crate::play::bots::seats(&args.run.seats.bots, players)?
            .iter()
            .map(|b| b.name().to_string())
            .collect(),
        seed: args.run.seed,
        threads: threads_used(args.run.threads),
        seconds,
        games_per_sec: (args.run.games * runs.len() as u64) as f64 / seconds.max(1e-9),
        metrics: names
            .iter()
            .enumerate()
            .map(|(m, name)| CompareMetric {
                name: name.clone(),
                values: (0..runs.len())
                    .map(|v| {
                        let e = summaries[v].values[m];
                        CompareEntry {
                            variant: label(v),
                            mean: e.mean,
                            ci: [e.low, e.high],
                            diff: (v > 0).then(|| {
                                let d = diffs[v][m];
                                DiffReport {
                                    mean: d.mean,
                                    ci: [d.low, d.high],
                                    sd: d.sd,
                                    significant: d.excludes_zero(),
                                }
                            }),
                        }
                    })
                    .collect(),
            })
            .collect(),
    };
    match args.run.format {
        TableFormat::Json => out!("{}", serde_json::to_string(&report)?),
        TableFormat::Csv => {
            let mut w = csv::Writer::from_writer(std::io::stdout());
            w.write_record([
                "metric",
                "variant",
                "mean",
                "ci_low",
                "ci_high",
                "diff",
                "diff_low",
                "diff_high",
                "significant",
            ])
            .map_err(std::io::Error::from)?;
            for m in &report.metrics {
                for e in &m.values {
                    let (d, dl, dh, sig) = match &e.diff {
                        Some(d) => (
                            d.mean.to_string(),
                            d.ci[0].to_string(),
                            d.ci[1].to_string(),
                            d.significant.to_string(),
                        ),
                        None => Default::default(),
                    };
                    w.write_record([
                        m.name.clone(),
                        e.variant.clone(),
                        e.mean.to_string(),
                        e.ci[0].to_string(),
                        e.ci[1].to_string(),
                        d,
                        dl,
                        dh,
                        sig,
                    ])
                    .map_err(std::io::Error::from)?;
                }
            }
            w.flush()?;
        }
        TableFormat::Table => {
            out!(
                "{} games per variant on the same seeds (seed {}), {} players, bots {}",
                report.games,
                report.seed,
                report.players,
                report.bots.join(",")
            );
            let mut header = vec!["metric".to_string()];
            for (i, v) in report.variants.iter().enumerate() {
                header.push(v.clone());
                if i > 0 {
                    header.push(format!("{v} - {}", report.variants[0]));
                }
            }
            let mut table = new_table(header);
            for m in &report.metrics {
                let mut row = vec![m.name.clone()];
                for e in &m.values {
                    row.push(format!("{:.2} ± {:.2}", e.mean, (e.ci[1] - e.ci[0]) / 2.0));
                    if let Some(d) = &e.diff {
                        row.push(format!(
                            "{:+.2} [{:+.2}, {:+.2}]{}",
                            d.mean,
                            d.ci[0],
                            d.ci[1],
                            if d.significant { " *" } else { "" }
                        ));
                    }
                }
                table.add_row(row);
            }
            out!("{table}");
            out!(
                "values: mean ± 95% CI half-width; differences: paired by seed, 95% CI, * when it excludes 0"
            );
            out!(
                "{:.0} games/s ({:.2} s, {} threads)",
                report.games_per_sec,
                report.seconds,
                report.threads
            );
        }
    }
    Ok(())
}

fn replay(home: &Home, args: &ReplayArgs) -> Result<()> {
    let done = crate::play::replay::replay(home, &args.log)?;
    out!(
        "{}: {} games, {} events replayed; the rules allow every event",
        args.log.display(),
        done.games,
        done.events
    );
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
        RangeFormat::Svg => {
            // Without a board file: every cell around the range holds a tile.
            let map = match map {
                Some(m) => m,
                None => {
                    let all = cells.iter().chain([&(0, 0)]);
                    let (x0, x1) = all
                        .clone()
                        .fold((0, 0), |(a, b), c| (a.min(c.0), b.max(c.0)));
                    let (y0, y1) = all.fold((0, 0), |(a, b), c| (a.min(c.1), b.max(c.1)));
                    BoardMap {
                        tiles: (y0 - 1..=y1 + 1)
                            .flat_map(|y| (x0 - 1..=x1 + 1).map(move |x| (x, y)))
                            .collect(),
                    }
                }
            };
            let options = render::RenderOptions {
                range: Some(crate::kernel::geometry::Pos::ORIGIN),
                ..Default::default()
            };
            outp!("{}", render::map_svg(&map, &set, &floors, &options)?);
        }
        RangeFormat::Json => {
            let report = RangeReport {
                cells: cells.iter().map(|&(x, y)| [x, y]).collect(),
            };
            out!("{}", serde_json::to_string(&report)?);
        }
        RangeFormat::Text => {
            out!(
                "{} with floors {} (bottom to top): {} cells",
                set.name,
                args.floors.join(", "),
                cells.len()
            );
            outp!("{}", draw_range(&cells, map.as_ref()));
            out!("T tower  X in range  # tile out of range  . no tile");
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

fn render(home: &Home, args: &RenderArgs) -> Result<()> {
    let range = args
        .range
        .map(|(x, y)| crate::kernel::geometry::Pos::new(x, y));
    let svg = match (&args.log, &args.board) {
        (Some(log), _) => {
            crate::play::replay::state_at(home, log, args.game, args.turn, |game, set| {
                if let Some(at) = range {
                    render::tower_range(game, at)?;
                }
                let turn = args
                    .turn
                    .map_or("the end".to_string(), |t| format!("turn {t}"));
                let options = render::RenderOptions {
                    range,
                    title: Some(format!("game {} at {turn}", args.game)),
                    notes: vec![log.display().to_string()],
                    ..Default::default()
                };
                Ok(render::board_svg(game, set, &options))
            })?
        }
        (None, Some(board)) => {
            let set = args.rules.load(home)?;
            let map = BoardMap::parse(&Source::read(board)?)?;
            let floors = args
                .floors
                .iter()
                .map(|f| set.floor_kind(f.trim()))
                .collect::<Result<Vec<_>>>()?;
            let options = render::RenderOptions {
                range: range
                    .or((!floors.is_empty()).then_some(crate::kernel::geometry::Pos::ORIGIN)),
                notes: vec![board.display().to_string()],
                ..Default::default()
            };
            render::map_svg(&map, &set, &floors, &options)?
        }
        (None, None) => return Err(bad_input("give --log FILE or --board FILE")),
    };
    match &args.output {
        Some(path) => std::fs::write(path, svg)
            .map_err(|e| bad_input(format!("cannot write `{}`: {e}", path.display())))?,
        None => outp!("{svg}"),
    }
    Ok(())
}

fn check(home: &Home, args: &CheckArgs) -> Result<()> {
    let report = crate::play::check::run(home, &args.target, args.games)?;
    for line in &report.notes {
        out!("{line}");
    }
    for w in &report.warnings {
        out!("warning: {w}");
    }
    if report.problems.is_empty() {
        out!("ok: {}", report.summary);
        Ok(())
    } else {
        for p in &report.problems {
            out!("problem: {p}");
        }
        Err(bad_input(format!(
            "{} problem(s) found in `{}`",
            report.problems.len(),
            args.target
        )))
    }
}
