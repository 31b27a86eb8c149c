//! Rule packs in Rhai: the sandboxed engine, the hooks and how packs compose,
//! and [`ScriptRules`], the scripted implementation of the kernel's
//! [`Rules`] interface.
//!
//! A variant is an ordered list of packs. For each hook, the packs that define
//! it form a chain; the last one answers, and may call `previous(...)` to ask
//! the one before it (the first one's `previous` gives the hook's default).
//!
//! Every question the kernel asks becomes a `Question` (`ask`) and takes one
//! path (`ask`): the answer kept in the memo (`memo`) whose recorded reads
//! agree with the question, or the chain run with the recorder on
//! (`record`), every read a script makes named and given its value by one
//! function (`reads`), the answer then kept under exactly what it read.
//! Hooks are pure, so an answer found again is the answer. Questions about
//! a stack alone (a tower's questions, its capture cells) are looked up by
//! the stack first (`front`), where all of a group's answers read only it.
//!
//! Scripts are untrusted: the engine limits operations, time and memory per
//! hook call (the hooks it calls included), call depth, expression depth and
//! the sizes of strings, arrays and maps; it loads no modules and has no clock,
//! and `print` goes nowhere, `debug(…)` only into a trace when one is
//! kept (`trace`). Hook arguments are registered
//! native types (`tower`, `meeple`, `board`, `game()`) that read the
//! question in place (`api`, `context`).

mod allowance;
mod api;
mod ask;
mod budget;
mod chain;
mod compile;
mod context;
mod counting;
mod effects;
mod errors;
mod figures;
mod fires;
mod front;
mod hooks;
pub mod limits;
mod memo;
pub mod memory;
mod moment;
mod reads;
mod record;
mod runs;
mod sandbox;
mod state;
mod steps;
#[cfg(test)]
mod tests;
mod towers;
mod trace;
mod work;

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use anyhow::Result;
use rhai::{Dynamic, Engine, EvalAltResult, Position};

use crate::kernel::Holds;
use crate::kernel::effects::{Acted, Adjusted, MAX_STRENGTH, Moment, StateVar};
use crate::kernel::features::FeatureId;
use crate::kernel::rules::TowerNow;
use crate::kernel::{
    Answer, Asking, CaptureOutcome, EndScore, FloorKind, HookBudget, MeepleView,
    Question as KernelQuestion, RansomView, Reply, Rules, StackView, Table, TowerView, plain,
};
use ask::Question;
use budget::{Budget, Count, GameSpend};
use memo::{Memo, Value};
use reads::{Facts, Roles};
use sandbox::sandboxed_engine;

pub use allowance::Allowance;
pub use api::{cells_within, path_steps};
pub use compile::{Compiled, ScriptSource, Scripts, compiled_on_this_thread};
pub use fires::{Fire, Fires};
pub use hooks::{HOOKS, Hook, HookSpec};
pub use memory::{CountingAllocator, MemoryLimit, NoCountingAllocator};
pub use runs::HookRuns;
/// The scripted implementation of [`Rules`]: one per thread, sharing the
/// compiled [`Scripts`].
pub struct ScriptRules {
    scripts: Arc<Scripts>,
    engine: Engine,
    /// Every hook's kept answers.
    memo: RefCell<Memo>,
    /// The calls running and what each has read.
    recorder: RefCell<record::Recorder>,
    /// Hook calls in progress: (hook, position in its chain).
    stack: RefCell<Vec<(Hook, usize)>>,
    /// The first error of the current top-level call, described.
    error: RefCell<Option<String>>,
    /// What the current top-level call has spent of the sandbox's limits.
    budget: Cell<Budget>,
    /// Its operations, counted apart ([`Count`]).
    count: Cell<Count>,
    /// What the hooks of the current game have spent.
    game: Cell<GameSpend>,
    /// The game's spending, kept aside while a bot's search spends apart.
    game_aside: Cell<Option<GameSpend>>,
    /// Nested function calls of the hooks that called the running one.
    levels: Cell<usize>,
    /// Capture paths walked on the current board.
    steps: RefCell<steps::StepsMemo>,
    /// Pack functions run on this thread (each `previous` counts).
    runs: Cell<u64>,
    /// Which packs changed their hooks' answers, when counted.
    fires: RefCell<fires::Counter>,
    /// Each pack hook's runs and their operations, when counted.
    run_counter: RefCell<runs::RunCounter>,
    /// Answers about a stack alone, by the stack (`front`).
    front: RefCell<front::Front>,
    /// The calls being traced, when they are.
    tracer: RefCell<trace::Tracer>,
    /// The towers of the moment an event hook answers (`game().towers`).
    towers_now: RefCell<towers::TowersNow>,
    /// Where each effect a script made was made, once per place: (pack,
    /// hook, line, column).
    origins: RefCell<effects::Origins>,
}

impl ScriptRules {
    pub fn new(scripts: Arc<Scripts>) -> ScriptRules {
        // A traced call sees each question: none is answered by the front.
        let front = match scripts.trace {
            Some(_) => front::Front::turned_off(),
            None => front::Front::default(),
        };
        ScriptRules {
            scripts,
            engine: sandboxed_engine(),
            memo: RefCell::new(Memo::default()),
            recorder: RefCell::new(record::Recorder::default()),
            stack: RefCell::new(Vec::new()),
            error: RefCell::new(None),
            budget: Cell::new(Budget::start(limits::OPERATIONS)),
            count: Cell::new(Count::start(&Budget::start(limits::OPERATIONS))),
            game: Cell::new(GameSpend::default()),
            game_aside: Cell::new(None),
            levels: Cell::new(0),
            steps: RefCell::new(steps::StepsMemo::default()),
            runs: Cell::new(0),
            fires: RefCell::new(fires::Counter::default()),
            run_counter: RefCell::default(),
            front: RefCell::new(front),
            tracer: RefCell::new(trace::Tracer::default()),
            towers_now: RefCell::new(towers::TowersNow::default()),
            origins: RefCell::default(),
        }
    }

    /// Pack functions run on this thread so far, each `previous` counted:
    /// answers given from the memo run none.
    pub fn hook_runs(&self) -> u64 {
        self.runs.get()
    }

    /// Operations the hooks of the current game have spent so far, each
    /// answer given from a cache at what it cost.
    pub fn operations_spent(&self) -> u64 {
        self.spent()
    }

    pub fn scripts(&self) -> &Scripts {
        &self.scripts
    }

    /// Does any pack define `hook`?
    fn defines(&self, hook: Hook) -> bool {
        !self.scripts.chains[hook.index()].is_empty()
    }

    /// The answer to `q` as `take` reads it (the shape [`ask`] converted it
    /// to for its hook), and how long it holds.
    fn asked<T>(&self, q: &Question, take: fn(&Value) -> Option<T>) -> Result<(T, Holds)> {
        let (v, holds) = self.ask(q)?;
        // The text of the error is made only when there is one.
        match take(&v) {
            Some(answer) => Ok((answer, holds)),
            None => anyhow::bail!(
                "hook `{}` was answered {v:?}, of another shape",
                q.hook.name()
            ),
        }
    }

    /// `may_place_floor` (of `kind`) or `may_top` about a stack, for a seat.
    fn ask_tower(
        &self,
        hook: Hook,
        stack: &StackView,
        kind: i64,
        asking: &Asking,
    ) -> Result<Answer> {
        let facts = Facts {
            stack: Some((stack.floors, stack.topped)),
            tower: asking.tower,
            owner: Some(asking.owner),
            table: Some(*asking.table),
            roles: Roles {
                actor: Some(asking.seat),
                ..Roles::default()
            },
            ..Facts::default()
        };
        let (yes, holds) = self.asked(&Question::new(hook, [kind, 0, 0], facts), Value::bool)?;
        Ok(Answer { yes, holds })
    }

    /// The reach of a stack (`reach`).
    fn reach(&self, floors: &[FloorKind], topped: bool) -> Result<i64> {
        Ok(self.asked_reach(floors, topped)?.0)
    }

    /// The reach of a stack, and how long it holds.
    fn asked_reach(&self, floors: &[FloorKind], topped: bool) -> Result<(i64, Holds)> {
        let facts = Facts {
            stack: Some((floors, topped)),
            ..Facts::default()
        };
        self.asked(&Question::new(Hook::Reach, [0; 3], facts), Value::int)
    }
}

impl Scripts {
    /// The same scripts, the hooks of each game allowed `ops` operations in
    /// all (counted as [`limits::GAME_OPERATIONS`] says).
    pub fn with_hook_budget(mut self, ops: u64) -> Scripts {
        self.hook_budget = ops;
        self
    }

    /// The same scripts, the floor kinds of `table` (bit k) held by the
    /// table: `setup`'s counts of them are the table's stock.
    pub fn with_table_kinds(mut self, table: u64) -> Scripts {
        self.table_kinds = table;
        self
    }

    /// The same scripts, the hook calls of every game they play also
    /// spending from `allowance` (one request's, shared by all it runs).
    pub fn with_allowance(mut self, allowance: Option<Arc<Allowance>>) -> Scripts {
        self.allowance = allowance;
        self
    }

    /// Operations the hooks of one game may run in all.
    pub fn hook_budget(&self) -> u64 {
        self.hook_budget
    }

    /// The same scripts, their hook calls traced into `trace` (none: not
    /// traced).
    pub fn with_trace(mut self, trace: Option<crate::rules::trace::Trace>) -> Scripts {
        self.trace = trace;
        self
    }

    /// The trace the hook calls go to, when they are traced.
    pub fn trace(&self) -> Option<&crate::rules::trace::Trace> {
        self.trace.as_ref()
    }
}

pub(super) fn with_rules<T>(f: impl FnOnce(&ScriptRules) -> T) -> Result<T, Box<EvalAltResult>> {
    if record::RULES.is_set() {
        Ok(record::RULES.with(f))
    } else {
        Err(rt_error("this function is only available inside a hook"))
    }
}

/// A script error with `message` and no position of its own.
fn rt_error(message: impl Into<String>) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(Dynamic::from(message.into()), Position::NONE).into()
}

/// The game as a question's facts: the table, and who the question is
/// about.
fn at_table<'a>(table: &Table<'a>, roles: Roles) -> Facts<'a> {
    Facts {
        table: Some(*table),
        roles,
        ..Facts::default()
    }
}

/// The game as a capture's questions see it: the current player captures.
fn captured_at<'a>(table: &Table<'a>) -> Facts<'a> {
    at_table(
        table,
        Roles {
            captor: Some(table.current),
            ..Roles::default()
        },
    )
}

impl HookBudget for ScriptRules {
    fn begin_game(&self, seed: Option<u64>) {
        self.begin_spending(seed);
        self.fires_new_game();
    }

    fn searching(&self, on: bool) {
        self.spend_apart(on);
    }
}

impl ScriptRules {
    /// Keep in `supply` the counts of the kinds the table holds (`table`)
    /// or those the seats hold; the others 0.
    fn held_by(&self, supply: &mut [u32], table: bool) {
        for (k, n) in supply.iter_mut().enumerate() {
            if (self.scripts.table_kinds & 1 << k != 0) != table {
                *n = 0;
            }
        }
    }

    /// `setup`: the floors every seat starts with.
    pub fn floor_supply(&self, players: usize, foundation_tiles: usize) -> Result<Vec<u32>> {
        let key = [players as i64, foundation_tiles as i64, 0];
        Ok(self
            .asked(
                &Question::new(Hook::Setup, key, Facts::default()),
                Value::supply,
            )?
            .0)
    }
}

impl Rules for ScriptRules {
    fn floor_kinds(&self) -> &[String] {
        &self.scripts.kinds
    }

    fn ask(&self, question: KernelQuestion) -> Result<Reply> {
        Ok(match question {
            KernelQuestion::SeatSupply {
                players,
                foundation_tiles,
                seat,
            } => Reply::Supply(self.seat_floors(players, foundation_tiles, seat)?),
            KernelQuestion::TableSupply {
                players,
                foundation_tiles,
            } => Reply::Supply(self.table_floors(players, foundation_tiles)?),
            KernelQuestion::MayPlaceFloor {
                stack,
                kind,
                asking,
            } => Reply::Answer(self.ask_tower(Hook::MayPlaceFloor, stack, kind as i64, asking)?),
            KernelQuestion::MayTop { stack, asking } => {
                Reply::Answer(self.ask_tower(Hook::MayTop, stack, 0, asking)?)
            }
            KernelQuestion::TowerAnswers {
                stack,
                asking,
                questions,
                out,
            } => {
                self.tower_group(stack, asking, questions, out)?;
                Reply::Written
            }
            KernelQuestion::CaptureRange { stack, out } => {
                self.extend_range(stack.floors, stack.topped, out)?;
                Reply::Written
            }
            KernelQuestion::MayCapture {
                tower,
                meeple,
                table,
            } => Reply::Yes(self.capture_allowed(tower, meeple, table)?),
            KernelQuestion::Ransom { ransom, table } => {
                Reply::Cost(self.ransom_cost(ransom, table)?)
            }
            KernelQuestion::CaptureOutcome { meeple, table } => {
                Reply::Outcome(self.outcome(meeple, table)?)
            }
            KernelQuestion::Exchange { a, b, table } => Reply::Yes(self.exchanged(a, b, table)?),
            KernelQuestion::EndScores { towers, table, out } => {
                self.end_points(towers, table, out)?;
                Reply::Written
            }
            KernelQuestion::FeaturePoints {
                feature,
                plain,
                table,
            } => Reply::Adjusted(self.points_of(feature, plain, table)?),
            KernelQuestion::MeepleStrength {
                meeple,
                table,
                towers,
            } => Reply::Adjusted(self.strength_of(meeple, table, towers)?),
            KernelQuestion::MayPlaceTile {
                tile,
                pos,
                rot,
                table,
            } => {
                // The current player places: `game().actor`.
                let roles = Roles {
                    actor: Some(table.current),
                    ..Roles::default()
                };
                let key = [
                    pos.x.into(),
                    pos.y.into(),
                    i64::from(tile) << 2 | i64::from(rot),
                ];
                let q = Question::new(Hook::MayPlaceTile, key, at_table(table, roles));
                Reply::Yes(self.asked(&q, Value::bool)?.0)
            }
        })
    }

    fn listens(&self) -> u32 {
        self.scripts.listens
    }

    fn on_event(
        &self,
        moment: &Moment,
        table: &Table,
        towers: &[TowerNow],
        out: &mut Vec<Acted>,
    ) -> Result<()> {
        let hook = Hook::on(moment);
        if !self.defines(hook) {
            return Ok(());
        }
        let facts = Facts {
            moment: Some(*moment),
            towers: Some(towers),
            ..at_table(table, Roles::default())
        };
        let q = Question::new(hook, [0; 3], facts);
        out.extend(self.asked(&q, Value::effects)?.0.iter().cloned());
        Ok(())
    }

    fn state_vars(&self) -> &[StateVar] {
        &self.scripts.state_vars
    }
}

/// The kernel's questions, each asked of its hook.
impl ScriptRules {
    fn capture_allowed(
        &self,
        tower: &TowerView,
        meeple: &MeepleView,
        table: &Table,
    ) -> Result<bool> {
        if !self.defines(Hook::MayCapture) {
            return Ok(true);
        }
        let facts = Facts {
            stack: Some((tower.floors, tower.meeple.is_some())),
            tower: Some(tower.pos),
            owner: Some(tower.meeple),
            meeple: Some((*meeple, tower.pos)),
            ..captured_at(table)
        };
        Ok(self
            .asked(&Question::new(Hook::MayCapture, [0; 3], facts), Value::bool)?
            .0)
    }

    fn ransom_cost(&self, ransom: &RansomView, table: &Table) -> Result<Option<u32>> {
        let key = [ransom.score as i64, ransom.paid_this_turn as i64, 0];
        let roles = Roles {
            payer: Some(ransom.payer),
            captor: Some(ransom.captor),
            actor: None,
        };
        let q = Question::new(Hook::Ransom, key, at_table(table, roles));
        Ok(self.asked(&q, Value::cost)?.0)
    }

    fn table_floors(&self, players: usize, foundation_tiles: usize) -> Result<Vec<u32>> {
        if self.scripts.table_kinds == 0 {
            return Ok(vec![0; self.scripts.kinds.len()]);
        }
        let mut stock = self.floor_supply(players, foundation_tiles)?;
        self.held_by(&mut stock, true);
        Ok(stock)
    }

    fn seat_floors(
        &self,
        players: usize,
        foundation_tiles: usize,
        seat: usize,
    ) -> Result<Vec<u32>> {
        let mut base = self.floor_supply(players, foundation_tiles)?;
        self.held_by(&mut base, false);
        if !self.defines(Hook::Seat) {
            return Ok(base);
        }
        let key = [seat as i64, players as i64, foundation_tiles as i64];
        let q = Question {
            supply: &base,
            ..Question::new(Hook::Seat, key, Facts::default())
        };
        Ok(self.asked(&q, Value::supply)?.0)
    }

    fn outcome(&self, meeple: &MeepleView, table: &Table) -> Result<CaptureOutcome> {
        if !self.defines(Hook::Captured) {
            return Ok(plain::CAPTURE);
        }
        let facts = Facts {
            meeple: Some((*meeple, meeple.pos)),
            ..captured_at(table)
        };
        Ok(self
            .asked(
                &Question::new(Hook::Captured, [0; 3], facts),
                Value::outcome,
            )?
            .0)
    }

    fn exchanged(&self, a: usize, b: usize, table: &Table) -> Result<bool> {
        if !self.defines(Hook::Exchange) {
            return Ok(plain::EXCHANGE);
        }
        let key = [a as i64, b as i64, 0];
        let q = Question::new(Hook::Exchange, key, at_table(table, Roles::default()));
        Ok(self.asked(&q, Value::bool)?.0)
    }

    fn end_points(
        &self,
        towers: &[TowerNow],
        table: &Table,
        out: &mut Vec<EndScore>,
    ) -> Result<()> {
        if !self.defines(Hook::End) {
            return Ok(());
        }
        let facts = Facts {
            towers: Some(towers),
            ..at_table(table, Roles::default())
        };
        let q = Question::new(Hook::End, [0; 3], facts);
        out.extend(self.asked(&q, Value::end)?.0.iter().cloned());
        Ok(())
    }

    fn points_of(&self, feature: FeatureId, plain: u32, table: &Table) -> Result<Option<Adjusted>> {
        if !self.defines(Hook::FeaturePoints) {
            return Ok(None);
        }
        let facts = Facts {
            feature: Some(feature),
            ..at_table(table, Roles::default())
        };
        let q = Question::new(Hook::FeaturePoints, [plain.into(), 0, 0], facts);
        let points = self.asked(&q, Value::int)?.0;
        self.adjusted(Hook::FeaturePoints, points, u32::MAX.into(), plain)
    }

    fn strength_of(
        &self,
        meeple: &MeepleView,
        table: &Table,
        towers: &[TowerNow],
    ) -> Result<Option<Adjusted>> {
        if !self.defines(Hook::MeepleStrength) {
            return Ok(None);
        }
        let facts = Facts {
            meeple: Some((*meeple, meeple.pos)),
            towers: Some(towers),
            ..at_table(table, Roles::default())
        };
        let q = Question::new(Hook::MeepleStrength, [0; 3], facts);
        let strength = self.asked(&q, Value::int)?.0;
        self.adjusted(Hook::MeepleStrength, strength, MAX_STRENGTH.into(), 1)
    }
}
