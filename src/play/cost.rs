//! `towerlab check --cost`: what each pack's hooks cost a game. A few
//! seeded two-player games are played with random bots and a few with
//! greedy bots, every run of a pack's function counted with the operations
//! it spent ([`crate::rules::script::ScriptRules::count_runs`]); each hook's runs a game, its
//! instructions a run and its share of a native game follow from constants
//! calibrated once against callgrind. Counts, not clocks: the same figures
//! on every run, machine and thread count (the games are played one after
//! the other on one rules instance, as `simulate --threads 1` plays them).

use anyhow::{Context, Result};
use serde::Serialize;

use crate::kernel::diag::bad_input;
use crate::play::bots::BotKind;
use crate::play::seed::game_seed;
use crate::play::sim;
use crate::rules::Ruleset;
use crate::rules::script::{Hook, HookRuns};

/// Instructions the host spends on a run of a question hook's function
/// beyond its operations: building its arguments, recording its reads,
/// keeping its answer.
///
/// Calibrated against callgrind on a release build (x86-64), once: the
/// instructions a game of `towerlab simulate --packs P --bots random,random
/// --games G --threads 1 --seed 5` (the count of 100 games less the count
/// of one, over 99, as `benches/instructions.sh` counts), less the native
/// game's ([`NATIVE_TOWER`], or [`NATIVE_BLACK_TOWER`] for the last), for
/// P = `tower,` then `./docs/examples/bell`, `warden`, `tithe`, `shadow`,
/// `quarry`, and `tower,black-tower,./benches/packs/raw-scores`, fitted by
/// least squares to the question runs, event runs and operations a game
/// `check --cost --cost-random 100` counts in the same games. Every row is
/// then within 9%; fitted without the Bell (or without the Warden), the
/// pack left out is still within 5%. `tests/it/cost.rs` holds the Bell and
/// the Warden to 10% (`benches/cost.sh` runs it).
pub const HOST_A_QUESTION_RUN: u64 = 11_000;
/// The same of an event hook's run, its effects carried out by the kernel
/// included.
pub const HOST_AN_EVENT_RUN: u64 = 28_000;
/// Instructions an operation of Rhai's costs (an expression evaluated, a
/// value looked up by name, work charged in bulk), calibrated with
/// [`HOST_A_QUESTION_RUN`].
pub const INSTRUCTIONS_AN_OPERATION: u64 = 610;

/// Instructions of a two-player game of `native:tower` (The Tower in Rust)
/// with random bots and with greedy bots: callgrind's count of
/// `towerlab simulate --packs native:tower --bots B --games G --threads 1
/// --seed 5`, a game as [`HOST_A_QUESTION_RUN`] says (G = 100 random, 10
/// greedy).
pub const NATIVE_TOWER: NativeGame = NativeGame {
    rules: "native:tower",
    random: 760_000,
    greedy: 9_250_000,
};
/// The same of `native:black-tower`, the baseline of packs over Black
/// Tower.
pub const NATIVE_BLACK_TOWER: NativeGame = NativeGame {
    rules: "native:black-tower",
    random: 806_000,
    greedy: 11_840_000,
};

/// A native game's instructions, by the bots that play it.
#[derive(Clone, Copy, Debug)]
pub struct NativeGame {
    pub rules: &'static str,
    pub random: u64,
    pub greedy: u64,
}

/// The games the report plays.
#[derive(Clone, Copy, Debug)]
pub struct CostOptions {
    /// Two-player games with random bots.
    pub random_games: u64,
    /// Two-player games with greedy bots.
    pub greedy_games: u64,
    /// The master seed: game `i` is the game `simulate --seed` plays `i`-th.
    pub seed: u64,
}

impl Default for CostOptions {
    fn default() -> CostOptions {
        CostOptions {
            random_games: 20,
            greedy_games: 2,
            seed: 5,
        }
    }
}

/// What each hook of a ruleset's packs costs.
#[derive(Clone, Debug, Serialize)]
pub struct CostReport {
    /// The packs, in order.
    pub packs: Vec<String>,
    /// The native rules each share is of.
    pub against: &'static str,
    pub players: usize,
    pub seed: u64,
    /// The calibrated constants the instructions are counted with:
    /// [`HOST_A_QUESTION_RUN`], [`HOST_AN_EVENT_RUN`] and
    /// [`INSTRUCTIONS_AN_OPERATION`].
    pub host_a_question_run: u64,
    pub host_an_event_run: u64,
    pub instructions_an_operation: u64,
    /// One entry for each kind of bots the games were played with.
    pub bots: Vec<BotsCost>,
    /// The hook that is the bulk of the cost, if one is.
    pub bulk: Option<Bulk>,
}

/// The games of one kind of bots, and what each hook cost in them.
#[derive(Clone, Debug, Serialize)]
pub struct BotsCost {
    pub bots: &'static str,
    pub games: u64,
    /// Instructions of a native game with these bots.
    pub native_instructions: u64,
    /// Instructions of every pack hook's runs, a game.
    pub hooks_instructions: u64,
    /// `hooks_instructions` over `native_instructions`.
    pub share: f64,
    /// Per pack and hook, in the order of hooks, then of the chain.
    pub hooks: Vec<HookCost>,
}

/// One pack's hook in the games of one kind of bots.
#[derive(Clone, Debug, Serialize)]
pub struct HookCost {
    pub pack: String,
    #[serde(serialize_with = "hook_name")]
    pub hook: Hook,
    /// Runs in all the games.
    pub runs: u64,
    /// Operations of those runs.
    pub operations: u64,
    pub runs_a_game: f64,
    /// Instructions a run: the host's and its operations'.
    pub instructions_a_run: u64,
    /// Its runs' instructions a game over a native game's.
    pub share: f64,
}

/// The hook that is most of the packs' cost.
#[derive(Clone, Debug, Serialize)]
pub struct Bulk {
    pub pack: String,
    #[serde(serialize_with = "hook_name")]
    pub hook: Hook,
    pub bots: &'static str,
    /// Its part of all the hooks' instructions with those bots.
    pub part: f64,
}

fn hook_name<S: serde::Serializer>(hook: &Hook, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(hook.name())
}

/// A hook is the bulk of the cost when its runs are at least this part of
/// every hook's, and at least [`BULK_SHARE`] of a native game.
const BULK_PART: f64 = 0.5;
const BULK_SHARE: f64 = 0.1;

/// The native game the shares of `set`'s packs are of: Black Tower's when
/// the packs include it, else The Tower's.
pub fn baseline(set: &Ruleset) -> NativeGame {
    if set.packs().iter().any(|p| p.name == "black-tower") {
        NATIVE_BLACK_TOWER
    } else {
        NATIVE_TOWER
    }
}

/// Play the games `options` says under `set` and report what each pack
/// hook cost; bad input for native rules (no hooks to count).
pub fn report(set: &Ruleset, options: &CostOptions) -> Result<CostReport> {
    if set.script_rules().is_none() {
        return Err(bad_input(format!(
            "`{}` is native rules: no pack hooks to count (--cost reports what packs cost)",
            set.name()
        )));
    }
    let native = baseline(set);
    let mut bots = Vec::new();
    for (kind, games, native_instructions) in [
        (BotKind::RANDOM, options.random_games, native.random),
        (BotKind::GREEDY, options.greedy_games, native.greedy),
    ] {
        if games == 0 {
            continue;
        }
        let runs = count(set, kind, games, options.seed)?;
        bots.push(bots_cost(kind.name(), games, native_instructions, runs));
    }
    let bulk = bulk(&bots);
    Ok(CostReport {
        packs: set.pack_names().clone(),
        against: native.rules,
        players: PLAYERS,
        seed: options.seed,
        host_a_question_run: HOST_A_QUESTION_RUN,
        host_an_event_run: HOST_AN_EVENT_RUN,
        instructions_an_operation: INSTRUCTIONS_AN_OPERATION,
        bots,
        bulk,
    })
}

/// The games are of two players, as the calibration's.
pub const PLAYERS: usize = 2;

/// Every pack hook's runs in `games` games of `kind` bots, played in
/// order on one rules instance.
pub fn count(set: &Ruleset, kind: BotKind, games: u64, seed: u64) -> Result<Vec<HookRuns>> {
    let rules = set
        .script_rules()
        .ok_or_else(|| bad_input(format!("`{}` is native rules", set.name())))?;
    rules.count_runs();
    let bots = [kind; PLAYERS];
    for index in 0..games {
        let game_seed = game_seed(seed, index);
        sim::play(set, &rules, &bots, game_seed, false).with_context(|| {
            format!(
                "--cost: game {index} ({} bots, seed {game_seed})",
                kind.name()
            )
        })?;
    }
    Ok(rules.runs())
}

/// The host's instructions a run of `hook`, beyond its operations.
pub fn host_a_run(hook: Hook) -> u64 {
    if hook.acts() {
        HOST_AN_EVENT_RUN
    } else {
        HOST_A_QUESTION_RUN
    }
}

/// Instructions of `runs` runs of `hook` that spent `operations` in all,
/// by the calibrated constants.
pub fn instructions(hook: Hook, runs: u64, operations: u64) -> u64 {
    host_a_run(hook) * runs + INSTRUCTIONS_AN_OPERATION * operations
}

fn bots_cost(bots: &'static str, games: u64, native: u64, runs: Vec<HookRuns>) -> BotsCost {
    let a_game = |n: u64| n as f64 / games as f64;
    let hooks: Vec<HookCost> = runs
        .into_iter()
        .map(|r| HookCost {
            runs_a_game: a_game(r.runs),
            instructions_a_run: instructions(r.hook, r.runs, r.operations)
                .checked_div(r.runs)
                .unwrap_or(0),
            share: a_game(instructions(r.hook, r.runs, r.operations)) / native as f64,
            pack: r.pack,
            hook: r.hook,
            runs: r.runs,
            operations: r.operations,
        })
        .collect();
    let all: u64 = hooks
        .iter()
        .map(|h| instructions(h.hook, h.runs, h.operations))
        .sum();
    let hooks_instructions = all / games;
    BotsCost {
        bots,
        games,
        native_instructions: native,
        hooks_instructions,
        share: hooks_instructions as f64 / native as f64,
        hooks,
    }
}

/// The costliest hook of any kind of bots, if it is most of what the
/// hooks cost and a good part of a native game.
fn bulk(bots: &[BotsCost]) -> Option<Bulk> {
    bots.iter()
        .filter_map(|b| {
            let top = b.hooks.iter().max_by(|x, y| x.share.total_cmp(&y.share))?;
            let part = top.share / b.share;
            (part >= BULK_PART && top.share >= BULK_SHARE).then(|| Bulk {
                pack: top.pack.clone(),
                hook: top.hook,
                bots: b.bots,
                part,
            })
        })
        .max_by(|x, y| x.part.total_cmp(&y.part))
}

impl CostReport {
    /// The costliest hook and its share of a native game, in a line (the
    /// studio's check shows it).
    pub fn summary(&self) -> String {
        let costliest = self.bots.iter().find_map(|b| {
            let top = b
                .hooks
                .iter()
                .filter(|h| h.runs > 0)
                .max_by(|x, y| x.share.total_cmp(&y.share))?;
            Some(format!(
                "costliest hook with {} bots: pack `{}`, `{}`: {:.1} runs a game at about {} \
                 instructions a run, {:.0}% of a `{}` game (all hooks: {:.0}%)",
                b.bots,
                top.pack,
                top.hook.name(),
                top.runs_a_game,
                top.instructions_a_run,
                top.share * 100.0,
                self.against,
                b.share * 100.0
            ))
        });
        costliest.unwrap_or_else(|| "no pack hook ran in the games played".to_string())
    }

    /// When one hook is the bulk of the cost, what to do about it.
    pub fn advice(&self) -> Option<String> {
        let b = self.bulk.as_ref()?;
        Some(format!(
            "pack `{}`, hook `{}` is {:.0}% of what the hooks cost with {} bots: a run costs \
             little when it returns before reading what changes, reads the least that decides \
             (a rank, not every score) and lets the kernel loop (`game().in_range`, \
             `capture_cells`, `cells_within`, the tallies) — see {}",
            b.pack,
            b.hook.name(),
            b.part * 100.0,
            b.bots,
            GUIDE
        ))
    }
}

/// The guide's section on what a rule's runs cost.
pub const GUIDE: &str = "docs/explanation/speed.md#what-a-rules-runs-cost";
