//! `towerlab merge`: the partial results of a run's shards joined into what
//! one process would have printed (the JSON `metrics` byte for byte).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::ValueEnum;

use super::args::{BudgetArgs, TableFormat};
use super::output::write_reported;
use super::{Format, arena, compare, pergame, simulate};
use crate::analysis::arena::ArenaResult;
use crate::analysis::compare::Comparison;
use crate::analysis::partial::{self, Merged, RunId};
use crate::kernel::diag::{Source, bad_input};
use crate::rules::{Home, LoadOptions, Ruleset};

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Partial results (`--shard K/N --format partial`), every shard of one
    /// run once, in any order.
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<PathBuf>,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Output format: what the run's command prints (`html`: the report;
    /// an arena prints text or json only).
    #[arg(long, value_enum, default_value_t = MergeFormat::Text)]
    pub format: MergeFormat,
    /// Also write the HTML report to FILE (the viewer's first games are
    /// played again, under the packs as they are now, which must be
    /// unchanged).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write one CSV row per game and variant to FILE.
    #[arg(long, value_name = "FILE")]
    pub per_game: Option<PathBuf>,
    /// The variant a compare run's others are compared with [default: the
    /// run's baseline], as `compare --baseline`.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Lay the text table out for this many columns [default: the
    /// terminal's, or 100], as `compare --width`.
    #[arg(long, value_name = "N", value_parser = super::numbers::width, allow_negative_numbers = true)]
    pub width: Option<u16>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeFormat {
    /// The run's table.
    #[value(alias = "table")]
    Text,
    Json,
    Csv,
    Html,
}

pub fn run(home: &Home, load: &LoadOptions, args: &MergeArgs) -> Result<()> {
    let parts = args
        .parts
        .iter()
        .map(|path| {
            // Bounded like every input file: an endless or huge one is
            // refused once the limit is read.
            let source = Source::read(path)?;
            let name = path.display().to_string();
            Ok((name.clone(), partial::parse(&name, &source.text)?))
        })
        .collect::<Result<Vec<_>>>()?;
    match partial::merge(parts, args.baseline.as_deref())? {
        (run, Merged::Comparison(c)) => comparison(home, load, args, &run, *c),
        (
            _,
            Merged::Arena {
                result,
                seconds,
                threads,
            },
        ) => arena(args, &result, seconds, threads),
    }
}

/// Print a merged `simulate` or `compare` run (and write its files).
fn comparison(
    home: &Home,
    load: &LoadOptions,
    args: &MergeArgs,
    run: &RunId,
    mut c: Comparison,
) -> Result<()> {
    if run.command == "simulate" {
        if args.baseline.is_some() {
            return Err(bad_input(
                "--baseline: a simulate run has no baseline to choose (one variant); it is for the parts of a `compare` run",
            ));
        }
        if args.width.is_some() {
            return Err(bad_input(
                "--width: a simulate run's table fits the terminal; --width is for the parts of a `compare` run",
            ));
        }
    }
    if run.command == "compare" && run.by_kind {
        c.add_by_kind();
    }
    if let Some(path) = &args.per_game {
        pergame::write_comparison(path, &c, run.by_kind)?;
    }
    if let Some(path) = &args.html {
        let page = html(home, load, run, &c)?;
        write_reported(path, &page)?;
    }
    let table = match args.format {
        MergeFormat::Html => {
            out!("{}", html(home, load, run, &c)?);
            return Ok(());
        }
        MergeFormat::Text => TableFormat::Table,
        MergeFormat::Json => TableFormat::Json,
        MergeFormat::Csv => TableFormat::Csv,
    };
    if run.command == "simulate" {
        simulate::print(&c, table, run.by_kind)
    } else {
        compare::print(&c, table, compare::table_width(args.width))
    }
}

/// Print a merged arena, as `towerlab arena` does (text or JSON only).
fn arena(args: &MergeArgs, a: &ArenaResult, seconds: f64, threads: usize) -> Result<()> {
    let refused = |what: &str| {
        Err(bad_input(format!(
            "{what}: an arena's merge prints text or JSON, as `towerlab arena` does"
        )))
    };
    if args.html.is_some() {
        return refused("--html");
    }
    if args.per_game.is_some() {
        return refused("--per-game");
    }
    if args.baseline.is_some() {
        return refused("--baseline");
    }
    let format = match args.format {
        MergeFormat::Text => Format::Text,
        MergeFormat::Json => Format::Json,
        MergeFormat::Csv => return refused("--format csv"),
        MergeFormat::Html => return refused("--format html"),
    };
    arena::print(a, format, seconds, threads)
}

/// The report of a merged run, its rules loaded again and checked against
/// the hashes the shards recorded.
fn html(home: &Home, load: &LoadOptions, run: &RunId, c: &Comparison) -> Result<String> {
    // In the comparison's order (its baseline first), each checked against
    // the hash the shards recorded for it.
    let sets = c
        .variants
        .iter()
        .map(|name| {
            let at = run.variants.iter().position(|v| v == name).unwrap_or(0);
            (name, &run.content[at])
        })
        .map(|(name, hash)| {
            let set: Ruleset = compare::load_compared(home, load, name)?;
            let now = partial::content_hash(&set);
            if &now != hash {
                return Err(bad_input(format!(
                    "the packs of `{name}` changed since the run (content {now}, the run's {hash}): the report's sample game would not be the run's"
                )));
            }
            Ok(set)
        })
        .collect::<Result<Vec<_>>>()?;
    let bots = crate::play::bots::seats(&run.bots, run.bots.len())?;
    let count = crate::views::report::VIEWER_GAMES.min(c.games);
    compare::html_page(c, &sets, &bots, None, count)
}
