//! The exact merge of a run's shards: checked to be of one run, each shard
//! once, then their rows in index order made into what one process would
//! have printed.

use anyhow::Result;

use super::{Partial, RunId};
use crate::analysis::arena::{self, ArenaInfo, ArenaResult};
use crate::analysis::compare::{self, Comparison, RunInfo, Tally};
use crate::kernel::diag::bad_input;

/// What a merge gives: what the run's command prints.
pub enum Merged {
    /// A `simulate` or `compare` run.
    Comparison(Box<Comparison>),
    /// An `arena` run, with the seconds its shards took and their threads
    /// added up.
    Arena {
        result: ArenaResult,
        seconds: f64,
        threads: usize,
    },
}

/// Merge the partials of one run (named for messages) into what one process
/// would have made, with the variant `baseline` as the baseline when one is
/// named (else the run's). Every shard must be there exactly once.
pub fn merge(parts: Vec<(String, Partial)>, baseline: Option<&str>) -> Result<(RunId, Merged)> {
    let Some((first_name, first)) = parts.first() else {
        return Err(bad_input("merge needs at least one partial result"));
    };
    let run = first.run.clone();
    for (name, p) in &parts[1..] {
        if let Some((field, a, b)) = run.difference(&p.run) {
            return Err(bad_input(format!(
                "{name} is from another run than {first_name}: {field} `{b}`, not `{a}`"
            )));
        }
    }
    let ordered = order(&run, parts)?;
    let merged = if run.command == "arena" {
        let seconds = ordered.iter().map(|p| p.seconds).sum();
        let threads = ordered.iter().map(|p| p.threads).sum();
        let result = merge_arena(&run, ordered)?;
        Merged::Arena {
            result,
            seconds,
            threads,
        }
    } else {
        Merged::Comparison(Box::new(merge_comparison(&run, ordered, baseline)?))
    };
    Ok((run, merged))
}

/// The comparison of a `simulate` or `compare` run's shards, in order.
fn merge_comparison(
    run: &RunId,
    ordered: Vec<Partial>,
    baseline: Option<&str>,
) -> Result<Comparison> {
    let mut tally = Tally::default();
    let mut threads = 0;
    for p in ordered {
        same_kinds(&tally, &p)?;
        threads += p.threads;
        tally.extend(Tally {
            rows: p.rows,
            kinds: p.kinds,
            first_games: Vec::new(),
            seconds: p.seconds,
            threads: 0,
            fires: Vec::new(),
        });
    }
    tally.threads = threads;
    let info = RunInfo {
        variants: run.variants.clone(),
        packs: run.packs.clone(),
        decks: None,
        games: run.games,
        bots: run.bots.clone(),
        bot_values: run.bot_values.clone(),
        seed: run.seed,
    };
    let b = baseline
        .map(|name| compare::baseline_index(&info.variants, name))
        .transpose()?
        .unwrap_or(0);
    Ok(compare::summarise(
        &info.with_baseline(b),
        tally.with_baseline(b),
    ))
}

/// The arena of an `arena` run's shards, in order.
fn merge_arena(run: &RunId, ordered: Vec<Partial>) -> Result<ArenaResult> {
    let info = ArenaInfo {
        variant: run.variants.first().cloned().unwrap_or_default(),
        packs: run.packs.first().cloned().unwrap_or_default(),
        bots: run.bots.clone(),
        bot_values: run.bot_values.first().cloned().unwrap_or_default(),
        players: run.seats(),
        seed: run.seed,
    };
    let scores: Vec<Vec<u32>> = ordered.into_iter().flat_map(|p| p.seat_scores).collect();
    arena::summarise(&info, &scores)
}

/// A shard's floor kinds are the ones of the shards before it.
fn same_kinds(before: &Tally, p: &Partial) -> Result<()> {
    for (k, (a, b)) in before.kinds.iter().zip(&p.kinds).enumerate() {
        if a.kinds != b.kinds {
            return Err(bad_input(format!(
                "shard {}/{} counts the floor kinds {} of `{}`, the shards before it {}",
                p.shard,
                p.run.shards,
                b.kinds.join(","),
                p.run.variants[k],
                a.kinds.join(",")
            )));
        }
    }
    Ok(())
}

/// The partials in shard order; a shard given twice or missing is refused.
fn order(run: &RunId, parts: Vec<(String, Partial)>) -> Result<Vec<Partial>> {
    let mut slots: Vec<Option<(String, Partial)>> = (0..run.shards).map(|_| None).collect();
    for (name, p) in parts {
        let slot = &mut slots[p.shard as usize];
        if let Some((other, _)) = slot {
            return Err(bad_input(format!(
                "shard {}/{} is given twice: {other} and {name}",
                p.shard, run.shards
            )));
        }
        *slot = Some((name, p));
    }
    let missing: Vec<String> = (0..run.shards)
        .filter(|&k| slots[k as usize].is_none())
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(bad_input(format!(
            "missing shard{} {} of {}",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            run.shards
        )));
    }
    Ok(slots.into_iter().flatten().map(|(_, p)| p).collect())
}
