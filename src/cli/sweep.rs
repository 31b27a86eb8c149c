//! `towerlab sweep`: one variant at several values of a pack parameter (or
//! of the number of players), on the same seeds, as a table, JSON, CSV or
//! an HTML page of response curves.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use super::args::{BudgetArgs, RulesArgs, SweepFormat};
use super::numbers;
use super::output::{new_table, progress_bar, write_reported};
use super::pergame::{self, Games};
use super::runs::EstimateCells;
use crate::analysis::stats;
use crate::analysis::sweep::{self, Dimension, Sweep, SweepPlan};
use crate::kernel::diag::bad_input;
use crate::rules::{Home, LoadOptions};
use crate::views::report;

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("dimension").required(true).args(["param", "players"]))]
pub struct SweepArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// The parameter to sweep and its values: PACK.NAME=A..B[:STEP] (an
    /// inclusive range; STEP defaults to 1 for integers) or
    /// PACK.NAME=v1,v2,… (e.g. tower.ransom_cost=0..6)
    // Help text, not a link.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[arg(long, value_name = "PACK.NAME=VALUES")]
    pub param: Option<String>,
    /// Sweep the number of players instead: A..B or a,b,… from 2 to 8
    #[arg(long, value_name = "A..B")]
    pub players: Option<String>,
    /// Games per value.
    #[arg(long, default_value_t = 1000, value_parser = numbers::games, allow_negative_numbers = true)]
    pub games: u64,
    /// Master seed: game i of every value plays the seed of (seed, i).
    #[arg(long, default_value_t = 1, value_parser = numbers::index, allow_negative_numbers = true)]
    pub seed: u64,
    /// Bots: one name for every seat, or one per seat, comma-separated
    /// (`random`, `greedy`, `mcts`, or `mcts:N` for N iterations per decision;
    /// `mcts-baseline[:N]`: the reference the bots are measured against; a
    /// bot's values after `@`: `greedy@defaults`, `mcts:50@tuned`)
    #[arg(
        long,
        value_name = "B1,B2,…",
        value_delimiter = ',',
        default_value = "random"
    )]
    pub bots: Vec<String>,
    /// Worker threads [default: one per core; never more than the address
    /// space holds, see README]. Results do not depend on it.
    #[arg(long, value_parser = numbers::threads, allow_negative_numbers = true)]
    pub threads: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SweepFormat::Text)]
    pub format: SweepFormat,
    /// Also write the sweep as an HTML page to FILE: the table and a
    /// response curve per metric with its interval band.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write one CSV row per game and value to FILE.
    #[arg(long, value_name = "FILE")]
    pub per_game: Option<PathBuf>,
}

/// Which estimate a row of `sweep --format csv` holds: one metric at one
/// value.
#[derive(Serialize)]
struct CsvRow<'a> {
    metric: &'a str,
    value: &'a str,
}

pub fn run(home: &Home, load: &LoadOptions, args: &SweepArgs) -> Result<()> {
    let base = args.rules.load(home, load)?;
    let dimension = match (&args.param, &args.players) {
        (Some(p), None) => sweep::parse_param(p, &base)?,
        (None, Some(p)) => sweep::parse_players(p)?,
        _ => return Err(bad_input("give either --param or --players")),
    };
    let points = sweep::points(home, &base, &dimension, &args.bots)?;
    let bar = progress_bar(args.games * points.len() as u64);
    let plan = SweepPlan {
        base: &base,
        dimension: &dimension,
        points: &points,
        games: args.games,
        seed: args.seed,
        threads: args.threads.map_or(0, usize::from),
    };
    let s = sweep::run(&plan, &|_| bar.inc(1), |_| Ok(()))?;
    bar.finish_and_clear();
    if let Some(path) = &args.per_game {
        write_per_game(path, &s, &dimension)?;
    }
    if let Some(path) = &args.html {
        let page = report::sweep::html(&s);
        write_reported(path, &page)?;
    }
    match args.format {
        SweepFormat::Json => out!("{}", serde_json::to_string(&s)?),
        SweepFormat::Csv => csv(&s)?,
        SweepFormat::Text => table(&s)?,
    }
    Ok(())
}

fn write_per_game(path: &std::path::Path, s: &Sweep, dim: &Dimension) -> Result<()> {
    let labels: Vec<String> = s
        .values
        .iter()
        .map(|v| format!("{}={v}", dim.name()))
        .collect();
    let games: Vec<Games> = s
        .runs
        .iter()
        .zip(&labels)
        .map(|(r, label)| Games {
            variant: label,
            players: r.players,
            rows: &r.per_game[0],
            kinds: None,
        })
        .collect();
    pergame::write(path, s.seed, 0, &games)
}

fn csv(s: &Sweep) -> Result<()> {
    let mut w = csv::Writer::from_writer(super::output::stdout());
    for m in &s.metrics {
        for p in &m.points {
            let row = CsvRow {
                metric: &m.name,
                value: &p.value,
            };
            w.serialize((
                row,
                EstimateCells::new(p.mean, p.ci, p.no_interval, p.diff.as_ref()),
            ))
            .map_err(std::io::Error::from)?;
        }
    }
    w.flush()?;
    Ok(())
}

/// The width the text table and its notes are laid out for: 100 columns
/// (a terminal's usual, and what a file gets).
const WIDTH: usize = 100;

fn table(s: &Sweep) -> Result<()> {
    let head = format!(
        "{} ({}) over {}: {} games per value on the same seeds (seed {}), bots {}",
        s.variant,
        s.packs.join(" + "),
        s.dimension,
        s.games,
        s.seed,
        s.bots.first().map(|b| b.join(",")).unwrap_or_default()
    );
    for line in super::compare::wrap(&head, WIDTH) {
        out!("{line}");
    }
    let values: Vec<String> = s
        .values
        .iter()
        .map(|v| format!("{}={v}", s.dimension))
        .collect();
    let bot_values = crate::rules::worths::bot_values_line(&values, &s.bot_values);
    for line in super::compare::wrap(&bot_values, WIDTH) {
        out!("{line}");
    }
    let first = &s.values[0];
    // Values down, one row each under its metric, so the table keeps four
    // columns however many values are swept and reads at 100 columns.
    let mut table = new_table([
        "metric".to_string(),
        s.dimension.clone(),
        "mean [95% CI]".to_string(),
        format!("- {}={first}", s.dimension),
    ]);
    for m in &s.metrics {
        for (i, p) in m.points.iter().enumerate() {
            table.add_row([
                if i == 0 {
                    m.name.clone()
                } else {
                    String::new()
                },
                p.value.clone(),
                stats::mean_text(p.mean, p.ci, p.no_interval),
                p.diff.map_or(String::new(), |d| {
                    stats::diff_text(d.mean, d.ci, d.survives, d.no_interval)
                }),
            ]);
        }
    }
    table.set_width(WIDTH as u16);
    out!("{table}");
    let legend = format!(
        "values: mean ± 95% CI half-width, or [low, high]; differences: paired by seed against {}={first}, raw 95% CI, * when it survives Holm's adjustment over the sweep's {} differences with an interval (adjusted p < 0.05)",
        s.dimension,
        s.metrics
            .iter()
            .flat_map(|m| &m.points)
            .filter_map(|p| p.diff)
            .filter(|d| d.no_interval.is_none())
            .count()
    );
    for line in super::compare::wrap(&legend, WIDTH) {
        out!("{line}");
    }
    let thins = s.metrics.iter().flat_map(|m| {
        m.points
            .iter()
            .flat_map(|p| [p.no_interval, p.diff.and_then(|d| d.no_interval)])
    });
    if let Some(note) = stats::thin_note(thins) {
        for line in super::compare::wrap(&note, WIDTH) {
            out!("{line}");
        }
    }
    out!("{:.2} s", s.seconds);
    Ok(())
}
