//! `towerlab compare`: several variants on the same seeds, their metrics and
//! paired differences, as a table, JSON, CSV or an HTML page.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use super::args::{RunArgs, TableFormat};
use super::output::{new_table, write_file};
use super::runs::{run_all, threads_used};
use crate::analysis::stats;
use crate::rules::{Home, Ruleset};

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

pub fn run(home: &Home, args: &CompareArgs) -> Result<()> {
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
        write_file(path, &page)?;
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
