//! `towerlab compare`: several variants on the same seeds, their metrics and
//! paired differences, as a table, JSON, CSV or an HTML page.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use super::args::{RunArgs, TableFormat};
use super::output::{new_table, speed_line, write_file};
use super::runs::{plain_f64, plain_opt_f64, run_all, run_all_with};
use crate::analysis::compare::{self, Comparison};
use crate::analysis::stats;
use crate::play::bots::BotKind;
use crate::play::sample;
use crate::rules::{Home, Ruleset};
use crate::views::report;

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
    /// Also the per-floor-kind metrics of every variant's kinds: floors
    /// placed, captures and towers by the top floor's kind (after the other
    /// metrics; JSON: `by_kind`).
    #[arg(long)]
    pub by_kind: bool,
}

/// A row of `compare --format csv`: one metric of one variant.
#[derive(Serialize)]
struct CsvRow<'a> {
    metric: &'a str,
    variant: &'a str,
    #[serde(serialize_with = "plain_f64")]
    mean: f64,
    #[serde(serialize_with = "plain_f64")]
    ci_low: f64,
    #[serde(serialize_with = "plain_f64")]
    ci_high: f64,
    #[serde(serialize_with = "plain_opt_f64")]
    diff: Option<f64>,
    #[serde(serialize_with = "plain_opt_f64")]
    diff_low: Option<f64>,
    #[serde(serialize_with = "plain_opt_f64")]
    diff_high: Option<f64>,
    significant: Option<bool>,
}

/// A variant as `compare` names it: a pack list when it has a comma or is
/// `native:tower` (as `--packs` takes it), else a variant name or file.
fn load_compared(home: &Home, name: &str) -> Result<Ruleset> {
    if name.contains(',') || name.trim() == crate::rules::NATIVE_TOWER {
        let packs: Vec<String> = name.split(',').map(|p| p.trim().to_string()).collect();
        Ruleset::from_packs(home, &packs)
    } else {
        Ruleset::from_variant(home, name)
    }
}

pub fn run(home: &Home, args: &CompareArgs) -> Result<()> {
    let sets = args
        .variants
        .iter()
        .map(|v| load_compared(home, v))
        .collect::<Result<Vec<_>>>()?;
    let bots = args.run.seats.bots(&sets[0])?;
    let comparison = if args.by_kind {
        with_kinds(&sets, &bots, &args.run)?
    } else {
        run_all(&sets, &bots, &args.run)?
    };
    if let Some(path) = &args.html {
        write_html(path, &comparison, &sets, &bots)?;
    }
    match args.run.format {
        TableFormat::Json => out!("{}", serde_json::to_string(&comparison)?),
        TableFormat::Csv => csv(&comparison)?,
        TableFormat::Table => table(&comparison)?,
    }
    Ok(())
}

/// The comparison with its per-floor-kind metrics (`--by-kind`).
fn with_kinds(sets: &[Ruleset], bots: &[BotKind], run: &RunArgs) -> Result<Comparison> {
    let kinds: Vec<Vec<String>> = sets
        .iter()
        .map(|s| s.floors.iter().map(|f| f.name.clone()).collect())
        .collect();
    let mut rows: Vec<Vec<Vec<f64>>> = vec![Vec::new(); sets.len()];
    let mut comparison = run_all_with(sets, bots, run, |v, r| {
        rows[v].push(stats::per_kind(r, kinds[v].len()));
    })?;
    comparison.by_kind = compare::by_kind(&comparison.variants, &kinds, &rows);
    Ok(comparison)
}

/// The HTML report, with each variant's game 0 replayed for its viewer.
fn write_html(path: &Path, c: &Comparison, sets: &[Ruleset], bots: &[BotKind]) -> Result<()> {
    let samples = sets
        .iter()
        .zip(&c.first_games)
        .map(|(set, first)| {
            let pictures =
                sample::sample_game_within(set, bots, first.index, first.seed, first.bounds)?;
            Ok(report::SampleGame::draw(&pictures, &set.tiles))
        })
        .collect::<Result<Vec<_>>>()?;
    let page = report::html(c, &samples);
    write_file(path, &page)?;
    writeln!(
        std::io::stderr(),
        "wrote {} ({} KB)",
        path.display(),
        page.len().div_ceil(1024)
    )?;
    Ok(())
}

fn csv(c: &Comparison) -> Result<()> {
    let mut w = csv::Writer::from_writer(std::io::stdout());
    for m in c.metrics.iter().chain(&c.by_kind) {
        for v in &m.values {
            w.serialize(CsvRow {
                metric: &m.name,
                variant: &v.variant,
                mean: v.mean,
                ci_low: v.ci[0],
                ci_high: v.ci[1],
                diff: v.diff.map(|d| d.mean),
                diff_low: v.diff.map(|d| d.ci[0]),
                diff_high: v.diff.map(|d| d.ci[1]),
                significant: v.diff.map(|d| d.significant),
            })
            .map_err(std::io::Error::from)?;
        }
    }
    w.flush()?;
    Ok(())
}

fn table(c: &Comparison) -> Result<()> {
    out!(
        "{} games per variant on the same seeds (seed {}), {} players, bots {}",
        c.games,
        c.seed,
        c.players,
        c.bots.join(",")
    );
    let wide = wide_table(c);
    let fits = wide
        .width()
        .is_none_or(|w| natural_width(&wide) <= usize::from(w));
    if fits || c.variants.len() < 2 {
        out!("{wide}");
    } else {
        // Too wide for the terminal: one table per variant against the
        // baseline, so no cell is broken mid-word.
        for i in 1..c.variants.len() {
            out!("{} against the baseline {}:", c.variants[i], c.variants[0]);
            out!("{}", pair_table(c, i));
        }
    }
    out!(
        "values: mean ± 95% CI half-width; differences: paired by seed, 95% CI, * when it excludes 0"
    );
    out!("{}", speed_line(c.games_per_sec, c.seconds, c.threads));
    Ok(())
}

/// The width a table takes with no cell wrapped: its columns' widest
/// contents, one space of padding each side, and the borders.
fn natural_width(table: &comfy_table::Table) -> usize {
    let widths = table.column_max_content_widths();
    widths.iter().map(|&w| usize::from(w) + 3).sum::<usize>() + 1
}

fn value_cell(v: &crate::analysis::compare::VariantValue) -> String {
    format!("{:.2} ± {:.2}", v.mean, (v.ci[1] - v.ci[0]) / 2.0)
}

fn diff_cell(d: &crate::analysis::compare::Difference) -> String {
    format!(
        "{:+.2} [{:+.2}, {:+.2}]{}",
        d.mean,
        d.ci[0],
        d.ci[1],
        if d.significant { " *" } else { "" }
    )
}

/// Every variant and its difference against the baseline, side by side.
fn wide_table(c: &Comparison) -> comfy_table::Table {
    let mut header = vec!["metric".to_string()];
    for (i, v) in c.variants.iter().enumerate() {
        header.push(v.clone());
        if i > 0 {
            header.push(format!("{v} - {}", c.variants[0]));
        }
    }
    let mut table = new_table(header);
    for m in c.metrics.iter().chain(&c.by_kind) {
        let mut row = vec![m.name.clone()];
        for v in &m.values {
            row.push(value_cell(v));
            if let Some(d) = &v.diff {
                row.push(diff_cell(d));
            }
        }
        table.add_row(row);
    }
    table
}

/// Variant `i` against the baseline: metric, baseline, variant, difference,
/// under a line that names them (the names are not headers, which would
/// widen the columns).
fn pair_table(c: &Comparison, i: usize) -> comfy_table::Table {
    let mut table = new_table(["metric", "baseline", "variant", "variant - baseline"]);
    for m in c.metrics.iter().chain(&c.by_kind) {
        let diff = m.values[i].diff.as_ref().map_or(String::new(), diff_cell);
        table.add_row([
            m.name.clone(),
            value_cell(&m.values[0]),
            value_cell(&m.values[i]),
            diff,
        ]);
    }
    table
}
