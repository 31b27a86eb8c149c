//! `towerlab check`: load, validate and test-play a pack or a variant.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;

use crate::kernel::diag::bad_input;
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
}

pub fn run(home: &Home, load: &LoadOptions, args: &CheckArgs) -> Result<()> {
    let report = crate::play::check::run(home, load, &args.target, args.games)?;
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
