//! Running a comparison from the command line: the part `simulate` and
//! `compare` share (the progress bar, the log file, the plan).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::Result;

use super::args::RunArgs;
use super::output::progress_bar;
use crate::analysis::compare::{self, Comparison, Plan};
use crate::kernel::diag::bad_input;
use crate::play::bots::BotKind;
use crate::play::sim::GameResult;
use crate::rules::Ruleset;

/// Play `args.games` games of each ruleset on the same seeds with `bots`,
/// writing every game's log to `--log` as it comes.
pub fn run_all(sets: &[Ruleset], bots: &[BotKind], args: &RunArgs) -> Result<Comparison> {
    run_all_with(sets, bots, args, |_, _| {})
}

/// [`run_all`], handing every game's result to `each` with the index of its
/// ruleset.
pub fn run_all_with(
    sets: &[Ruleset],
    bots: &[BotKind],
    args: &RunArgs,
    mut each: impl FnMut(usize, &GameResult),
) -> Result<Comparison> {
    let mut seen = 0u64;
    let mut log = open_log(args.log.as_deref())?;
    let bar = progress_bar(args.games * sets.len() as u64);
    let plan = Plan {
        sets,
        bots,
        games: args.games,
        seed: args.seed,
        threads: args.threads.map_or(0, usize::from),
        log: log.is_some(),
    };
    let comparison = compare::run(&plan, &|_| bar.inc(1), |r| {
        each((seen / args.games) as usize, r);
        seen += 1;
        if let (Some(out), Some(text)) = (log.as_mut(), &r.log) {
            out.write_all(text.as_bytes())?;
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    if let Some(mut out) = log {
        out.flush()?;
    }
    Ok(comparison)
}

fn open_log(path: Option<&Path>) -> Result<Option<BufWriter<File>>> {
    let Some(path) = path else { return Ok(None) };
    let file = File::create(path)
        .map_err(|e| bad_input(format!("cannot write the log `{}`: {e}", path.display())))?;
    Ok(Some(BufWriter::new(file)))
}

/// Serialize an `f64` as Rust prints it (`109`, not `109.0`), as the CSV
/// outputs always have.
pub fn plain_f64<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// [`plain_f64`] for an optional value; `None` is an empty field.
pub fn plain_opt_f64<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}
