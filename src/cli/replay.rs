//! `towerlab replay`: play a log again under its rules.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;

use super::output::plural;
use crate::rules::{Home, LoadOptions};

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// A game log written by `--log` (JSON Lines).
    pub log: PathBuf,
    #[command(flatten)]
    pub budget: super::args::BudgetArgs,
}

pub fn run(home: &Home, load: &LoadOptions, args: &ReplayArgs) -> Result<()> {
    let done = crate::play::replay::replay(home, load, &args.log)?;
    out!(
        "{}: {}, {} replayed; the rules allow every event",
        args.log.display(),
        plural(done.games, "game"),
        plural(done.events, "event")
    );
    Ok(())
}
