//! `towerlab simulate`: many seeded games of one ruleset, their metrics and
//! speed.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use super::args::{RulesArgs, RunArgs, TableFormat};
use super::output::new_table;
use super::runs::{run_all, threads_used};
use crate::analysis::stats;
use crate::play::sim;
use crate::rules::Home;

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    #[command(flatten)]
    pub run: RunArgs,
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

pub fn run(home: &Home, args: &SimulateArgs) -> Result<()> {
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
