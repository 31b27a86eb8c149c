//! Games of one or more rulesets played on the same seeds, with their log:
//! the part `simulate` and `compare` share.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;

use super::args::RunArgs;
use super::output::progress_bar;
use crate::kernel::diag::bad_input;
use crate::play::sim::{self, Batch};
use crate::rules::Ruleset;

/// The games of one variant, played and summarised.
pub struct Run {
    pub set: Ruleset,
    pub results: Vec<sim::GameResult>,
    pub seconds: f64,
}

/// Play `args.games` games of each ruleset on the same seeds; write the log.
pub fn run_all(sets: Vec<Ruleset>, args: &RunArgs) -> Result<Vec<Run>> {
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

pub fn threads_used(flag: Option<u16>) -> usize {
    flag.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    )
}
