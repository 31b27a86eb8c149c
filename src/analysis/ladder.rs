//! The skill ladder: a comparison of variants played again at each level of
//! play (every seat the level's bot), on the same seeds at every level, so
//! an author sees which effects of a rule hold under weak and strong play
//! alike and which turn around with skill.
//!
//! Per level: the whole [`Comparison`] (each metric per variant, each paired
//! difference from the baseline). Across levels: each metric's paired
//! difference per level, flagged *depends on skill* when it survives the
//! multiplicity adjustment (over every level's differences) at two levels
//! with opposite signs. Per variant and per step of the ladder:
//! the *skill gap*, the win share of the stronger bot (the later level)
//! against the weaker in an [`arena`] on that variant (paired deals, seats
//! rotated), with its 95% Wilson interval, so it shows whether a rule
//! rewards skill more or less than the baseline does.

use anyhow::Result;
use serde::Serialize;

use crate::analysis::arena::{self, Arena};
use crate::analysis::compare::{self, Comparison, Difference, Plan};
use crate::kernel::diag::bad_input;
use crate::play::bots::BotKind;
use crate::rules::Ruleset;

/// What to play.
pub struct LadderPlan<'a> {
    /// The variants, the first being the baseline.
    pub sets: &'a [Ruleset],
    /// The levels, weakest first: at each, every seat is that bot.
    pub levels: &'a [BotKind],
    pub players: usize,
    /// Games per variant and level, and per skill-gap arena.
    pub games: u64,
    pub seed: u64,
    /// Worker threads; 0 means one per core. Results do not depend on it.
    pub threads: usize,
}

/// The ladder's outcome.
#[derive(Clone, Debug, Serialize)]
pub struct Ladder {
    /// The levels' bots, weakest first.
    pub levels: Vec<String>,
    /// The comparison at each level, in level order.
    pub runs: Vec<Comparison>,
    /// Each metric's difference of each variant from the baseline, level by
    /// level.
    pub across: Vec<Across>,
    /// Per variant and step of the ladder: the stronger bot against the
    /// weaker.
    pub skill_gaps: Vec<SkillGap>,
    /// Each metric of each variant across the levels: its skill trace.
    pub traces: Vec<Trace>,
}

/// One metric of one variant at every level of play, weakest first.
#[derive(Clone, Debug, Serialize)]
pub struct Trace {
    pub metric: String,
    pub variant: String,
    /// The metric's mean at each level, in level order.
    pub means: Vec<f64>,
    /// Its 95% interval at each level.
    pub cis: Vec<[f64; 2]>,
}

/// One metric's paired difference (variant − baseline) at every level.
#[derive(Clone, Debug, Serialize)]
pub struct Across {
    pub metric: String,
    pub variant: String,
    /// One per level, in level order.
    pub diffs: Vec<Difference>,
    /// The difference excludes 0 at two levels with opposite signs.
    pub depends_on_skill: bool,
}

/// The stronger bot's win share against the weaker on one variant.
#[derive(Clone, Debug, Serialize)]
pub struct SkillGap {
    pub variant: String,
    pub stronger: String,
    pub weaker: String,
    /// Games of the arena (deals × seatings).
    pub games: u64,
    pub win_share: f64,
    /// 95% Wilson interval.
    pub ci: [f64; 2],
    /// The stronger bot's share if it were no stronger: 1 / players (it
    /// holds one seat, the weaker bot the others).
    pub even_share: f64,
}

/// Check a ladder's levels: at least two, no level twice.
pub fn check_levels(levels: &[BotKind]) -> Result<()> {
    if levels.len() < 2 {
        return Err(bad_input(format!(
            "--ladder needs at least two levels, weakest first (e.g. `--ladder random,greedy,mcts`), not {}",
            levels.len()
        )));
    }
    for (i, a) in levels.iter().enumerate() {
        if levels[..i].contains(a) {
            return Err(bad_input(format!(
                "--ladder names `{}` twice: give each level once",
                a.label()
            )));
        }
    }
    Ok(())
}

/// Play the ladder. `progress` is called after each game of every run.
pub fn run(plan: &LadderPlan, progress: &(dyn Fn(u64) + Sync)) -> Result<Ladder> {
    check_levels(plan.levels)?;
    let mut runs = plan
        .levels
        .iter()
        .map(|&level| level_run(plan, level, progress))
        .collect::<Result<Vec<_>>>()?;
    // Every level's differences are one family: a star at any level
    // survives the adjustment over all of them.
    compare::adjust(&mut runs.iter_mut().collect::<Vec<_>>());
    let skill_gaps = skill_gaps(plan, progress)?;
    Ok(Ladder {
        levels: plan.levels.iter().map(|b| b.label()).collect(),
        across: across(&runs),
        traces: traces(&runs),
        runs,
        skill_gaps,
    })
}

/// The comparison with every seat `level`.
fn level_run(
    plan: &LadderPlan,
    level: BotKind,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Comparison> {
    let bots = vec![level; plan.players];
    let level_plan = Plan {
        sets: plan.sets,
        bots: &bots,
        games: plan.games,
        seed: plan.seed,
        threads: plan.threads,
        log: false,
        fires: false,
    };
    compare::run(&level_plan, progress, |_| Ok(()))
}

/// Every metric's difference of every variant, across the levels.
fn across(runs: &[Comparison]) -> Vec<Across> {
    let Some(first) = runs.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (m, metric) in first.metrics.iter().enumerate() {
        for v in 1..first.variants.len() {
            let diffs: Vec<Difference> = runs
                .iter()
                .filter_map(|r| r.metrics[m].values[v].diff)
                .collect();
            out.push(Across {
                metric: metric.name.clone(),
                variant: first.variants[v].clone(),
                depends_on_skill: turns_around(&diffs),
                diffs,
            });
        }
    }
    out
}

/// Every metric of every variant, level by level.
fn traces(runs: &[Comparison]) -> Vec<Trace> {
    let Some(first) = runs.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (m, metric) in first.metrics.iter().enumerate() {
        for (v, variant) in first.variants.iter().enumerate() {
            let values = runs.iter().map(|r| &r.metrics[m].values[v]);
            out.push(Trace {
                metric: metric.name.clone(),
                variant: variant.clone(),
                means: values.clone().map(|x| x.mean).collect(),
                cis: values.map(|x| x.ci).collect(),
            });
        }
    }
    out
}

/// Two differences that survive the adjustment have opposite signs.
pub fn turns_around(diffs: &[Difference]) -> bool {
    let up = diffs.iter().any(|d| d.survives && d.mean > 0.0);
    let down = diffs.iter().any(|d| d.survives && d.mean < 0.0);
    up && down
}

/// An arena per variant and step of the ladder: the later level's bot in
/// one seat against the earlier level's in the others.
fn skill_gaps(plan: &LadderPlan, progress: &(dyn Fn(u64) + Sync)) -> Result<Vec<SkillGap>> {
    let mut gaps = Vec::new();
    for set in plan.sets {
        for step in plan.levels.windows(2) {
            let bots = [step[1], step[0]];
            let result = arena::run(
                &Arena {
                    set,
                    bots: &bots,
                    players: plan.players,
                    games: plan.games,
                    master_seed: plan.seed,
                    threads: plan.threads,
                },
                progress,
            )?;
            let stronger = &result.results[0];
            gaps.push(SkillGap {
                variant: set.name().clone(),
                stronger: step[1].label(),
                weaker: step[0].label(),
                games: result.games,
                win_share: stronger.win_share,
                ci: stronger.ci,
                even_share: 1.0 / plan.players as f64,
            });
        }
    }
    Ok(gaps)
}

/// Games a ladder plays in all, for a progress bar: every level's
/// comparison and every skill-gap arena (rounded up to whole deals).
pub fn total_games(plan: &LadderPlan) -> u64 {
    let sets = plan.sets.len() as u64;
    let levels = plan.levels.len() as u64;
    let p = plan.players.max(1) as u64;
    let arena = plan.games.div_ceil(p).max(1) * p;
    sets * levels * plan.games + sets * (levels.saturating_sub(1)) * arena
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(mean: f64, survives: bool) -> Difference {
        Difference {
            mean,
            ci: [mean - 1.0, mean + 1.0],
            sd: 1.0,
            significant: survives,
            no_interval: None,
            p: if survives { 0.001 } else { 0.5 },
            p_adjusted: if survives { 0.01 } else { 0.9 },
            survives,
        }
    }

    #[test]
    fn only_opposite_signs_that_exclude_zero_depend_on_skill() {
        assert!(turns_around(&[diff(0.5, true), diff(-6.6, true)]));
        assert!(turns_around(&[
            diff(0.5, true),
            diff(0.1, false),
            diff(-2.0, true)
        ]));
        assert!(!turns_around(&[diff(0.5, true), diff(-6.6, false)]));
        assert!(!turns_around(&[diff(0.5, true), diff(3.0, true)]));
        assert!(!turns_around(&[]));
    }

    #[test]
    fn a_ladder_has_two_distinct_levels() {
        assert!(check_levels(&[BotKind::GREEDY]).is_err());
        assert!(check_levels(&[BotKind::GREEDY, BotKind::GREEDY]).is_err());
        assert!(check_levels(&[BotKind::mcts(5), BotKind::mcts(50)]).is_ok());
        assert!(check_levels(&[BotKind::RANDOM, BotKind::GREEDY]).is_ok());
    }
}
