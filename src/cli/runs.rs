//! Running a comparison from the command line: the part `simulate` and
//! `compare` share (the progress bar, the log file, the plan, shards and
//! sequential stopping, the per-game file).

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::args::{RunArgs, TableFormat};
use super::output::{OutputFile, progress_bar};
use super::pergame;
use crate::analysis::compare::{self, Comparison, Difference, Plan};
use crate::analysis::partial::{self, Shard};
use crate::analysis::sequential::{self, Precision};
use crate::analysis::stats::Thin;
use crate::kernel::diag::bad_input;
use crate::play::bots::BotKind;
use crate::play::log::MAX_LOG;
use crate::play::sim::GameResult;
use crate::rules::Ruleset;

/// What a run printed: a whole comparison to format, or nothing more (a
/// shard's partial result is already written).
pub enum Outcome {
    Whole(Box<Comparison>),
    Written,
}

/// Play `args.games` games of each ruleset on the same seeds with `bots`
/// (or a shard of them, or batches until `precision` is met), writing every
/// game's log to `--log` as it comes and the per-game rows to `--per-game`
/// (with the per-floor-kind metrics when `by_kind`).
pub fn run_all(
    command: &str,
    sets: &[Ruleset],
    bots: &[BotKind],
    args: &RunArgs,
    precision: Option<&Precision>,
    by_kind: bool,
) -> Result<Outcome> {
    let shard = shard_of(args)?;
    if shard.is_some() && precision.is_some() {
        return Err(bad_input(
            "--precision decides the games as they come; it cannot be cut into shards",
        ));
    }
    if shard.is_some() && args.fires {
        return Err(bad_input(
            "--fires counts a whole run: a partial result does not carry the counts",
        ));
    }
    let mut log = open_log(args.log.as_deref())?;
    let total = precision.map_or(args.games, |p| p.max_games);
    let bar = progress_bar(total * sets.len() as u64);
    let plan = Plan {
        sets,
        bots,
        games: args.games,
        seed: args.seed,
        threads: args.threads.map_or(0, usize::from),
        log: log.is_some(),
        fires: args.fires,
    };
    let mut logged = 0usize;
    let each = |r: &GameResult| -> Result<()> {
        if let (Some(out), Some(text)) = (log.as_mut(), &r.log) {
            logged += text.len();
            if logged > MAX_LOG {
                return Err(bad_input(format!(
                    "--log: game {} would take the log past {} MB, the most `replay` reads: log \
                     fewer games (--games), or each shard's to a log of its own (--shard)",
                    r.index,
                    MAX_LOG >> 20
                )));
            }
            out.write_all(text.as_bytes())?;
        }
        Ok(())
    };
    let outcome = match (shard, precision) {
        (Some(shard), _) => {
            let part = partial::play(command, &plan, shard, by_kind, &|_| bar.inc(1), each)?;
            if let Some(path) = &args.per_game {
                pergame::write_partial(path, &part)?;
            }
            out!("{}", serde_json::to_string(&part)?);
            Outcome::Written
        }
        (None, Some(p)) => {
            Outcome::Whole(Box::new(sequential::run(&plan, p, &|_| bar.inc(1), each)?))
        }
        (None, None) => Outcome::Whole(Box::new(compare::run(&plan, &|_| bar.inc(1), each)?)),
    };
    bar.finish_and_clear();
    if let Some(out) = log {
        out.finish()?;
    }
    if let (Outcome::Whole(c), Some(path)) = (&outcome, &args.per_game) {
        pergame::write_comparison(path, c, by_kind)?;
    }
    Ok(outcome)
}

/// The shard to play: `--shard K/N` (or `auto/N`) with `--format partial`;
/// `--format partial` alone is the whole run as one shard.
fn shard_of(args: &RunArgs) -> Result<Option<Shard>> {
    let partial = args.format == TableFormat::Partial;
    shard_to_play(args.shard.as_deref(), partial, args.games)
}

/// The shard `spec` of a run of `games` to write as a partial result when
/// `partial` (the whole run when no `spec`); none without `partial`.
pub fn shard_to_play(spec: Option<&str>, partial: bool, games: u64) -> Result<Option<Shard>> {
    match (spec, partial) {
        (None, false) => Ok(None),
        (None, true) => Ok(Some(Shard::new(0, 1, games)?)),
        (Some(spec), false) => Err(bad_input(format!(
            "--shard {spec} plays part of a run: add --format partial, then join the parts with `towerlab merge`"
        ))),
        (Some(spec), true) => parse_shard(spec, games, &|name| std::env::var(name).ok()).map(Some),
    }
}

/// `K/N`, or `auto/N` with K from $SLURM_ARRAY_TASK_ID, else
/// $JOB_COMPLETION_INDEX (as `env` reads them).
pub fn parse_shard(spec: &str, games: u64, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard> {
    let bad = |why: &str| bad_input(format!("--shard {spec}: {why}"));
    let (k, n) = spec
        .split_once('/')
        .ok_or_else(|| bad("expected K/N (e.g. 0/4) or auto/N"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| bad("N is not a whole number"))?;
    let k = if k.trim() == "auto" {
        let (var, value) = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]
            .into_iter()
            .find_map(|v| env(v).map(|x| (v, x)))
            .ok_or_else(|| bad("auto needs $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX"))?;
        value
            .trim()
            .parse()
            .map_err(|_| bad(&format!("${var} is `{value}`, not a whole number")))?
    } else {
        k.trim()
            .parse()
            .map_err(|_| bad("K is not a whole number"))?
    };
    Shard::new(k, n, games)
}

/// The `--log` file, begun before the games (a path that cannot be
/// written is refused before any work) and put in place after the last.
fn open_log(path: Option<&Path>) -> Result<Option<OutputFile>> {
    path.map(OutputFile::create).transpose()
}

/// The columns of an estimate in every CSV of estimates (`compare`, its
/// ladder, `sweep`), after the columns that say which estimate: the mean and
/// its interval, the paired difference from the baseline with its interval,
/// and whether that interval excludes 0 (empty for the baseline). An
/// interval too few games cannot give ([`Thin`]) is two empty cells. A row is
/// the tuple `(which, EstimateCells::new(…))`: csv writes the header of
/// both.
#[derive(Serialize)]
pub struct EstimateCells {
    #[serde(serialize_with = "plain_f64")]
    mean: f64,
    #[serde(serialize_with = "plain_opt_f64")]
    ci_low: Option<f64>,
    #[serde(serialize_with = "plain_opt_f64")]
    ci_high: Option<f64>,
    #[serde(serialize_with = "plain_opt_f64")]
    diff: Option<f64>,
    #[serde(serialize_with = "plain_opt_f64")]
    diff_low: Option<f64>,
    #[serde(serialize_with = "plain_opt_f64")]
    diff_high: Option<f64>,
    significant: Option<bool>,
    #[serde(serialize_with = "plain_opt_f64")]
    p: Option<f64>,
    #[serde(serialize_with = "plain_opt_f64")]
    p_adjusted: Option<f64>,
    survives: Option<bool>,
}

impl EstimateCells {
    /// The cells of a mean, its interval (none when `thin`) and its
    /// difference from the baseline (none for the baseline).
    pub fn new(
        mean: f64,
        ci: [f64; 2],
        thin: Option<Thin>,
        diff: Option<&Difference>,
    ) -> EstimateCells {
        let [ci_low, ci_high] = interval_cells(ci, thin);
        let [diff_low, diff_high] = diff.map_or([None; 2], |d| interval_cells(d.ci, d.no_interval));
        EstimateCells {
            mean,
            ci_low,
            ci_high,
            diff: diff.map(|d| d.mean),
            diff_low,
            diff_high,
            significant: diff.map(|d| d.significant),
            p: diff.map(|d| d.p),
            p_adjusted: diff.map(|d| d.p_adjusted),
            survives: diff.map(|d| d.survives),
        }
    }
}

/// An interval's two CSV cells: empty when too few games give none.
pub fn interval_cells(ci: [f64; 2], thin: Option<Thin>) -> [Option<f64>; 2] {
    match thin {
        Some(_) => [None; 2],
        None => ci.map(Some),
    }
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
