//! `towerlab check`: load, validate and test-play a pack or a variant.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;

use serde::Serialize;

use super::args::Format;
use super::output::new_table;
use crate::kernel::diag::bad_input;
use crate::play::check::Report;
use crate::play::cost::{CostOptions, CostReport};
use crate::rules::{Home, LoadOptions};

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// A pack (name under rules/ or folder path), a pack list
    /// (`tower,house/no-gaps`, in order) or a variant (name in variants/ or
    /// path to a .toml file).
    pub target: String,
    /// Games to play with random bots once the pack loads.
    #[arg(long, default_value_t = 25, value_parser = super::numbers::check_games, allow_negative_numbers = true)]
    pub games: u64,
    #[command(flatten)]
    pub budget: super::args::BudgetArgs,
    /// Trace every hook call of the packs to FILE (text): the pack, the
    /// arguments, what it read, its `debug(…)` lines and its answer
    /// (bounded; see docs/how-to/debug-a-pack.md)
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// What each pack hook costs: its runs a game, its instructions a run
    /// and its share of a native game's instructions, counted in seeded
    /// two-player games (see docs/explanation/speed.md)
    #[arg(long)]
    pub cost: bool,
    /// Games with random bots --cost plays
    #[arg(long, value_name = "N", default_value_t = 20, requires = "cost", value_parser = super::numbers::check_games)]
    pub cost_random: u64,
    /// Games with greedy bots --cost plays
    #[arg(long, value_name = "N", default_value_t = 2, requires = "cost", value_parser = super::numbers::check_games)]
    pub cost_greedy: u64,
    /// Master seed of the games --cost plays (game i is the i-th game of
    /// `simulate --seed`)
    #[arg(long, value_name = "SEED", default_value_t = 5, requires = "cost", value_parser = super::numbers::index)]
    pub cost_seed: u64,
    /// Output format; `json` writes the check and its cost report as one
    /// JSON object (see docs/commands.md)
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(home: &Home, load: &LoadOptions, args: &CheckArgs) -> Result<()> {
    let cost = args.cost.then_some(CostOptions {
        random_games: args.cost_random,
        greedy_games: args.cost_greedy,
        seed: args.cost_seed,
    });
    let report =
        crate::play::check::run_with_cost(home, load, &args.target, args.games, cost.as_ref())?;
    if args.cost && report.problems.is_empty() && report.cost.is_none() {
        return Err(bad_input(format!(
            "`{}` is native rules: --cost reports what pack hooks cost, and these have none",
            args.target
        )));
    }
    match args.format {
        Format::Text => print_text(&report)?,
        Format::Json => out!("{}", serde_json::to_string(&json(&report))?),
    }
    if report.problems.is_empty() {
        Ok(())
    } else {
        Err(bad_input(format!(
            "{} problem(s) found in `{}`",
            report.problems.len(),
            args.target
        )))
    }
}

/// `check --format json`: what the check found, and the cost report.
#[derive(Serialize)]
struct CheckJson<'a> {
    ok: bool,
    summary: &'a str,
    notes: &'a [String],
    warnings: &'a [String],
    problems: &'a [String],
    cost: Option<&'a CostReport>,
    /// The cost report's sentence when one hook is the bulk of the cost.
    advice: Option<String>,
}

fn json(report: &Report) -> CheckJson<'_> {
    CheckJson {
        ok: report.problems.is_empty(),
        summary: &report.summary,
        notes: &report.notes,
        warnings: &report.warnings,
        problems: &report.problems,
        cost: report.cost.as_ref(),
        advice: report.cost.as_ref().and_then(CostReport::advice),
    }
}

fn print_text(report: &Report) -> Result<()> {
    for line in &report.notes {
        out!("{line}");
    }
    for w in &report.warnings {
        out!("warning: {w}");
    }
    if report.problems.is_empty() {
        out!("ok: {}", report.summary);
    }
    for p in &report.problems {
        out!("problem: {p}");
    }
    if let Some(cost) = &report.cost {
        print_cost(cost)?;
    }
    Ok(())
}

/// The cost report: a row per pack hook, its figures with each kind of
/// bots, then the costliest hook and, when one is the bulk, the advice.
fn print_cost(cost: &CostReport) -> Result<()> {
    out!("");
    out!(
        "What each pack hook costs ({}-player games, seed {}; instructions counted from the \
         operations of its runs, a share of a `{}` game's instructions):",
        cost.players,
        cost.seed,
        cost.against
    );
    let mut header = vec!["pack".to_string(), "hook".to_string()];
    for b in &cost.bots {
        header.push(format!("{} ({} games): runs a game", b.bots, b.games));
        header.push("instr. a run".into());
        header.push("share".into());
    }
    let mut table = new_table(header);
    let rows = cost.bots.first().map_or(0, |b| b.hooks.len());
    for i in 0..rows {
        let first = &cost.bots[0].hooks[i];
        let mut row = vec![first.pack.clone(), first.hook.name().to_string()];
        for b in &cost.bots {
            let h = &b.hooks[i];
            row.push(format!("{:.1}", h.runs_a_game));
            row.push(h.instructions_a_run.to_string());
            row.push(percent(h.share));
        }
        table.add_row(row);
    }
    let mut total = vec!["all hooks".to_string(), String::new()];
    for b in &cost.bots {
        total.extend([String::new(), String::new(), percent(b.share)]);
    }
    table.add_row(total);
    out!("{table}");
    out!("{}", cost.summary());
    if let Some(advice) = cost.advice() {
        out!("{advice}");
    }
    Ok(())
}

fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}
