//! `towerlab simulate`: many seeded games of one ruleset, their metrics and
//! speed. The run is a comparison of one variant; this module formats it.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use super::args::{RulesArgs, RunArgs, TableFormat};
use super::output::{new_table, speed_line};
use super::runs::{Outcome, interval_cells, plain_f64, plain_opt_f64, run_all};
use crate::analysis::compare::{Comparison, VariantFires};
use crate::analysis::stats::{self, Estimate, Thin};
use crate::play::bots::values_of;
use crate::rules::{Home, LoadOptions};

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub params: super::args::ParamArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Also the per-floor-kind metrics: floors placed, captures and towers
    /// by the top floor's kind (after the other metrics; JSON: `by_kind`).
    #[arg(long)]
    pub by_kind: bool,
}

/// `simulate --format json`: one variant's run, its metrics flat.
#[derive(Serialize)]
struct SimulateJson<'a> {
    variant: &'a str,
    packs: &'a [String],
    games: u64,
    players: usize,
    bots: &'a [String],
    /// The values the bots weighed positions with (`defaults`, or the
    /// tuned file).
    bot_values: &'a str,
    /// The values each seat's bot weighed with (its `@values`, else
    /// `bot_values`).
    seat_values: Vec<String>,
    seed: u64,
    threads: usize,
    mean_scores: Vec<f64>,
    seconds: f64,
    games_per_sec: f64,
    metrics: Vec<MetricJson<'a>>,
    /// Only with `--by-kind`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    by_kind: Vec<MetricJson<'a>>,
    /// Only with `--fires`.
    #[serde(skip_serializing_if = "Option::is_none")]
    fires: Option<&'a VariantFires>,
}

#[derive(Serialize)]
struct MetricJson<'a> {
    name: &'a str,
    mean: f64,
    ci: [f64; 2],
    /// Why there is no interval: too few games.
    #[serde(skip_serializing_if = "Option::is_none")]
    no_interval: Option<Thin>,
}

/// A row of `simulate --format csv`.
#[derive(Serialize)]
struct CsvRow<'a> {
    variant: &'a str,
    metric: &'a str,
    #[serde(serialize_with = "plain_f64")]
    mean: f64,
    /// Empty when too few games give no interval.
    #[serde(serialize_with = "plain_opt_f64")]
    ci_low: Option<f64>,
    #[serde(serialize_with = "plain_opt_f64")]
    ci_high: Option<f64>,
}

pub fn run(home: &Home, load: &LoadOptions, args: &SimulateArgs) -> Result<()> {
    let set = args.params.apply(home, args.rules.load(home, load)?)?;
    let bots = args.run.seats.bots(&set)?;
    match run_all(
        "simulate",
        std::slice::from_ref(&set),
        &bots,
        &args.run,
        None,
        args.by_kind,
    )? {
        Outcome::Whole(run) => print(&run, args.run.format, args.by_kind),
        Outcome::Written => Ok(()),
    }
}

/// Print a simulation (a comparison of one variant) as `format` asks, with
/// its per-floor-kind metrics after the others when `by_kind`.
pub fn print(run: &Comparison, format: TableFormat, by_kind: bool) -> Result<()> {
    let by_kind: Vec<(String, Estimate)> = match run.kinds.first() {
        Some(kinds) if by_kind => kinds.summary(),
        _ => Vec::new(),
    };
    match format {
        TableFormat::Json => out!("{}", serde_json::to_string(&json(run, &by_kind))?),
        TableFormat::Csv => csv(run, &by_kind)?,
        TableFormat::Table | TableFormat::Partial => table(run, &by_kind)?,
    }
    Ok(())
}

fn json<'a>(run: &'a Comparison, by_kind: &'a [(String, Estimate)]) -> SimulateJson<'a> {
    let mean_scores = (1..=run.players)
        .filter_map(|s| run.metric(&format!("score.seat{s}")))
        .map(|m| m.values[0].mean)
        .collect();
    SimulateJson {
        variant: &run.variants[0],
        packs: &run.packs[0],
        games: run.games,
        players: run.players,
        bots: &run.bots,
        bot_values: run.bot_values.first().map_or("defaults", String::as_str),
        seat_values: values_of(
            &run.bots,
            run.bot_values.first().map_or("defaults", String::as_str),
        ),
        seed: run.seed,
        threads: run.threads,
        mean_scores,
        seconds: run.seconds,
        games_per_sec: run.games_per_sec,
        metrics: run
            .metrics
            .iter()
            .map(|m| MetricJson {
                name: &m.name,
                mean: m.values[0].mean,
                ci: m.values[0].ci,
                no_interval: m.values[0].no_interval,
            })
            .collect(),
        by_kind: by_kind
            .iter()
            .map(|(name, e)| MetricJson {
                name,
                mean: e.mean,
                ci: [e.low, e.high],
                no_interval: e.thin,
            })
            .collect(),
        fires: run.fires.as_ref().and_then(|f| f.first()),
    }
}

fn csv(run: &Comparison, by_kind: &[(String, Estimate)]) -> Result<()> {
    let mut w = csv::Writer::from_writer(super::output::stdout());
    let metrics = run.metrics.iter().map(|m| {
        let v = &m.values[0];
        (m.name.as_str(), v.mean, v.ci, v.no_interval)
    });
    let kinds = by_kind
        .iter()
        .map(|(name, e)| (name.as_str(), e.mean, [e.low, e.high], e.thin));
    for (metric, mean, ci, thin) in metrics.chain(kinds) {
        let [ci_low, ci_high] = interval_cells(ci, thin);
        w.serialize(CsvRow {
            variant: &run.variants[0],
            metric,
            mean,
            ci_low,
            ci_high,
        })
        .map_err(std::io::Error::from)?;
    }
    w.flush()?;
    Ok(())
}

fn table(run: &Comparison, by_kind: &[(String, Estimate)]) -> Result<()> {
    out!(
        "{} ({}): {} games, {} players, bots {}, seed {}",
        run.variants[0],
        run.packs[0].join(" + "),
        run.games,
        run.players,
        run.bots.join(","),
        run.seed
    );
    out!(
        "{}",
        crate::rules::worths::bot_values_line(&run.variants, &run.bot_values)
    );
    let variant = run.bot_values.first().map_or("defaults", String::as_str);
    for (seat, values) in values_of(&run.bots, variant).iter().enumerate() {
        if values != variant {
            out!("  seat {} weighs with: {values}", seat + 1);
        }
    }
    let mut table = new_table(["metric", "mean", "95% CI", "what it is"]);
    for m in &run.metrics {
        let v = &m.values[0];
        table.add_row([
            m.name.clone(),
            format!("{:.2}", v.mean),
            interval_cell(v.ci, v.no_interval),
            stats::glossary::describe(&m.name).to_string(),
        ]);
    }
    for (name, e) in by_kind {
        table.add_row([
            name.clone(),
            format!("{:.2}", e.mean),
            interval_cell([e.low, e.high], e.thin),
            stats::glossary::describe(name).to_string(),
        ]);
    }
    out!("{table}");
    let thins = run.metrics.iter().map(|m| m.values[0].no_interval);
    if let Some(note) = stats::thin_note(thins.chain(by_kind.iter().map(|(_, e)| e.thin))) {
        out!("{note}");
    }
    out!(
        "{}",
        speed_line(run.games_per_sec, run.seconds, run.threads)
    );
    if let Some(fires) = &run.fires {
        super::fires::print(fires)?;
    }
    Ok(())
}

/// An interval, or "(no CI)" when the sample is too thin for one, as
/// `compare`'s cells say it (the note under the table says why).
fn interval_cell(ci: [f64; 2], thin: Option<Thin>) -> String {
    match thin {
        Some(_) => "(no CI)".to_string(),
        None => format!("[{:.2}, {:.2}]", ci[0], ci[1]),
    }
}
