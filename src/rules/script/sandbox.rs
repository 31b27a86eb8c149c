//! The sandbox: the engine every script runs in, its limits, and the budget
//! of operations, CPU time, wall time and memory that one hook call (with the
//! hooks it calls) may spend; and the operations the hooks of a whole game
//! may run, cached answers charged at what they cost when worked out (the
//! budget's types are in `super::budget`).
//!
//! Rhai is built without closures (`no_closure`): no value is shared between
//! variables, so there is no lock a script could wait on, no reference cycle
//! that outlives a call, and no chain of captured closures to drop. What a
//! call allocates is freed when it returns. `sleep`, which would block the
//! thread, is an error.

use rhai::{Dynamic, Engine, EvalAltResult, Map, Position};

use super::api::register_api;
use super::budget::{Budget, CLOCK_EVERY, Count, GameSpend, LOOK_EVERY, Limit};
use super::effects::register_effects;
use super::hooks::Hook;
use super::host::ScriptRules;
use super::limits;
use super::memory::{self, MemoryLimit};
use super::running::{RULES, rt_error};
use super::work::{FREE_SIZE, WORK_PER_OPERATION, charge, size_of};
use crate::kernel::diag::{BudgetSpent, bad_input};

/// What Rhai's `sleep`, which would block the thread, does in packs.
fn blocking() -> Result<(), Box<EvalAltResult>> {
    Err(rt_error(
        "`sleep` is not available to packs: it would block the thread",
    ))
}

pub(super) fn sandboxed_engine() -> Engine {
    let mut engine = Engine::new();
    engine
        .set_max_operations(limits::OPERATIONS)
        .set_max_call_levels(limits::CALL_LEVELS)
        .set_max_expr_depths(limits::EXPR_DEPTH, limits::EXPR_DEPTH)
        .set_max_string_size(limits::STRING_SIZE)
        .set_max_array_size(limits::ARRAY_SIZE)
        .set_max_map_size(limits::MAP_SIZE)
        .set_max_modules(0)
        .set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new())
        .on_print(|_| {})
        // `debug(…)` goes into a trace, when one is kept.
        .on_debug(|text, _, pos| {
            if RULES.is_set() {
                RULES.with(|r| r.debug_line(text, pos));
            }
        })
        // A broken limit ends the script with the `Limit` as its token.
        .on_progress(|_| {
            if RULES.is_set() {
                RULES.with(ScriptRules::spend).map(Dynamic::from)
            } else {
                None
            }
        })
        .disable_symbol("eval")
        .disable_symbol("import");
    // Rhai's `sleep` blocks the thread, where no operation is counted: the
    // engine's own functions are found before the standard library's.
    engine
        .register_fn("sleep", |_: rhai::INT| blocking())
        .register_fn("sleep", |_: rhai::FLOAT| blocking());
    // Rhai checks a map's size when a function returns it, not when a new
    // key is stored (`m[k] = v`, `m.k = v`): check it whenever the map is
    // named again. (`on_var` is marked volatile by Rhai, not deprecated.)
    //
    // A value named is also charged by its size (`size_of`): a copy, a
    // comparison, a concatenation or a scan of it is one operation of
    // Rhai's whatever its size, and every one of them names it first. So
    // the operation budget bounds CPU time, not only operations; the
    // alternatives Rhai offers do not: `on_progress` sees no sizes, and the
    // size limits (`max_array_size`…) bound one value, not how often it is
    // copied. Values of at most `FREE_SIZE` cost nothing more.
    #[allow(deprecated)]
    engine.on_var(|name, _, context| {
        let size = context.scope().get(name).map_or(0, size_of);
        if size > FREE_SIZE {
            charge(size);
        }
        if RULES.is_set() {
            RULES.with(|r| r.named(name));
        }
        let too_big = size > limits::MAP_SIZE * 8
            && context.scope().get(name).is_some_and(|v| {
                v.read_lock::<Map>()
                    .is_some_and(|m| m.len() > limits::MAP_SIZE)
            });
        if too_big {
            Err(
                EvalAltResult::ErrorDataTooLarge("Size of object map".into(), Position::NONE)
                    .into(),
            )
        } else {
            Ok(None)
        }
    });
    register_pad(&mut engine);
    register_api(&mut engine);
    register_effects(&mut engine);
    super::state::register_state(&mut engine);
    super::figures::register_figures(&mut engine);
    super::trace::register_debug(&mut engine);
    engine
}

impl ScriptRules {
    /// Count one operation of the current top-level call; the limit broken,
    /// if any. Between two looks at the limits, an add and a compare.
    fn spend(&self) -> Option<Limit> {
        let mut count = self.count.get();
        if count.operations + 1 < count.check_at {
            count.operations += 1;
            self.count.set(count);
            return None;
        }
        self.spend_looking()
    }

    /// [`ScriptRules::spend`] at a look, or once a limit is broken (no
    /// operation is counted then).
    fn spend_looking(&self) -> Option<Limit> {
        let mut b = self.budget.get();
        if b.broken.is_none() {
            let operations = self.add_operations(1);
            // Memory is looked at every LOOK_EVERY operations, the clocks
            // every CLOCK_EVERY: the work one operation does beyond a few
            // microseconds is charged as operations of its own (`charge_work`),
            // so the limits hold within a few percent.
            b.broken = if operations > b.limit {
                Some(self.over(operations))
            } else if operations >= b.next_look {
                b.next_look = operations + LOOK_EVERY;
                if self.scripts.memory_limit == MemoryLimit::On
                    && memory::held().wrapping_sub(b.held) > limits::MEMORY as isize
                {
                    Some(Limit::Memory)
                } else if operations >= b.next_clock {
                    b.next_clock = operations + CLOCK_EVERY;
                    self.stopped().or_else(|| b.clocks_broken())
                } else {
                    None
                }
            } else {
                None
            };
            self.set_budget(b);
        }
        b.broken
    }

    /// The call's budget changed: kept, with when the next operation must
    /// look at it.
    pub(super) fn set_budget(&self, b: Budget) {
        self.budget.set(b);
        let mut count = self.count.get();
        count.check_at = b.check_at();
        self.count.set(count);
    }
}

/// An array's `pad`, as Rhai's (the same size checks, made before the
/// array grows), charged by the elements it makes: one operation of Rhai's
/// that can make ten thousand values.
fn register_pad(engine: &mut Engine) {
    engine.register_fn(
        "pad",
        |array: &mut rhai::Array,
         len: rhai::INT,
         item: Dynamic|
         -> Result<(), Box<EvalAltResult>> {
            let Ok(len) = usize::try_from(len) else {
                return Ok(());
            };
            if len <= array.len() {
                return Ok(());
            }
            let pad = len - array.len();
            let (a, m, s) = array_sizes(array);
            let (ax, mx, sx) = sizes(&item);
            charge(pad.saturating_mul(1 + ax + mx + sx / 8));
            let too_large = |what: &str| {
                Err(EvalAltResult::ErrorDataTooLarge(what.into(), Position::NONE).into())
            };
            let grown = |n: usize, each: usize| n.saturating_add(each.saturating_mul(pad));
            if grown(s, sx) > limits::STRING_SIZE {
                return too_large("Length of string");
            }
            if grown(a + pad, ax) > limits::ARRAY_SIZE {
                return too_large("Size of array/BLOB");
            }
            if grown(m, mx) > limits::MAP_SIZE {
                return too_large("Size of object map");
            }
            array.resize(len, item);
            Ok(())
        },
    );
}

/// The elements of the arrays, the entries of the maps and the bytes of
/// the strings `v` holds, nested ones included, as Rhai counts them for
/// its size limits.
fn sizes(v: &Dynamic) -> (usize, usize, usize) {
    if let Some(arr) = v.read_lock::<rhai::Array>() {
        array_sizes(&arr)
    } else if let Some(map) = v.read_lock::<Map>() {
        map.values()
            .fold((0, map.len(), 0), |sum, x| added(sum, sizes(x)))
    } else if let Some(st) = v.read_lock::<rhai::ImmutableString>() {
        (0, 0, st.len())
    } else if let Some(b) = v.read_lock::<rhai::Blob>() {
        (b.len(), 0, 0)
    } else {
        (0, 0, 0)
    }
}

fn array_sizes(arr: &[Dynamic]) -> (usize, usize, usize) {
    arr.iter()
        .fold((arr.len(), 0, 0), |sum, x| added(sum, sizes(x)))
}

fn added(
    (a, m, s): (usize, usize, usize),
    (x, y, z): (usize, usize, usize),
) -> (usize, usize, usize) {
    (a + x, m + y, s + z)
}

impl ScriptRules {
    /// Charge `units` of work done inside one operation (a large value
    /// named, a bulk native's walk) to the running call, as operations:
    /// the operation budget then bounds the call's CPU time, and the next
    /// operation looks at the limits and the clocks at once.
    pub(super) fn charge_work(&self, units: usize) {
        let cost = (units / WORK_PER_OPERATION) as u64;
        if cost == 0 || self.stack.borrow().is_empty() {
            return;
        }
        let operations = self.add_operations(cost);
        let mut b = self.budget.get();
        b.next_look = b.next_look.min(operations);
        b.next_clock = b.next_clock.min(operations);
        if b.broken.is_none() && operations > b.limit {
            b.broken = Some(self.over(operations));
        }
        self.set_budget(b);
    }

    /// Add `cost` operations to the running call's: its count then.
    fn add_operations(&self, cost: u64) -> u64 {
        let mut count = self.count.get();
        count.operations += cost;
        self.count.set(count);
        count.operations
    }

    /// Which limit `operations` in the current call break: the call's own,
    /// or the game's.
    fn over(&self, operations: u64) -> Limit {
        if operations > limits::OPERATIONS {
            Limit::Operations
        } else if let Some(a) = &self.scripts.allowance
            && operations > a.left()
        {
            Limit::Request { budget: a.budget() }
        } else {
            let game = self.game.get();
            Limit::Game {
                budget: self.scripts.hook_budget,
                seed: game.seed,
            }
        }
    }

    /// A new game: its hooks have spent nothing yet.
    pub(super) fn begin_spending(&self, seed: Option<u64>) {
        self.game.set(GameSpend::new(seed));
    }

    /// A bot's search begins (`true`): the game's spending is kept aside and
    /// the search spends from a budget of its own, as large as a game's; or
    /// ends (`false`): the game's spending comes back as it was. The
    /// search's budget names no seed: what it plays is the game with its
    /// undrawn tiles dealt again, not the seed's deal, and a hint, which
    /// searches a game whose seed stays hidden until it ends, must not
    /// tell it.
    pub(super) fn spend_apart(&self, on: bool) {
        if on {
            let game = self.game.get();
            self.game_aside.set(Some(game));
            self.game.set(GameSpend::new(None));
        } else if let Some(game) = self.game_aside.take() {
            self.game.set(game);
        }
    }

    /// Operations the game's hooks have spent so far, the running call's
    /// included: what a cached answer cost is the difference of two readings.
    pub(super) fn spent(&self) -> u64 {
        self.game.get().operations + self.count.get().operations
    }

    /// Operations the current top-level call has spent (and been charged)
    /// so far.
    pub(super) fn call_operations(&self) -> u64 {
        self.count.get().operations
    }

    /// The budget of a new top-level call: what is left of the game's, at
    /// most [`limits::OPERATIONS`].
    pub(super) fn start_call(&self) {
        let left = self
            .scripts
            .hook_budget
            .saturating_sub(self.game.get().operations);
        let request = self
            .scripts
            .allowance
            .as_ref()
            .map_or(u64::MAX, |a| a.left());
        let b = Budget::start(left.min(limits::OPERATIONS).min(request));
        self.budget.set(b);
        self.count.set(Count::start(&b));
    }

    /// A top-level call ended: its operations go to the game's; the limit it
    /// broke, if any (a cached answer charged at its end can break one with
    /// no operation left to stop it).
    pub(super) fn end_call(&self) -> Option<Limit> {
        let mut count = self.count.get();
        let mut game = self.game.get();
        game.operations += count.operations;
        self.game.set(game);
        if let Some(a) = &self.scripts.allowance {
            a.spend(count.operations);
        }
        count.operations = 0;
        self.count.set(count);
        self.budget.get().broken
    }

    /// The request's time is up, when the server stopped it.
    fn stopped(&self) -> Option<Limit> {
        let a = self.scripts.allowance.as_ref()?;
        a.stopped().then(|| Limit::Stopped {
            seconds: a.seconds(),
        })
    }

    /// Give kept answers, each charged what it cost when it was worked out
    /// (`each`: its hook and that cost; `total`: their sum), whichever
    /// store kept them (the memo, the front's groups, its recent ranges):
    /// the one place a kept answer is charged. To the running call, which
    /// then stops at its next operation if that breaks a limit, or outside
    /// a call to the game: at once where that breaks no limit, else answer
    /// by answer, so that the hook named is the one that breaks it.
    ///
    /// Reading a kept answer's value again to look up another
    /// (`ScriptRules::known_range`, for a read of a range's cells) is not
    /// giving it: inside a call, the range was charged when the script
    /// asked for it; in a lookup, it is in the cost of the answer found.
    pub(super) fn charge_kept(
        &self,
        total: u64,
        each: impl IntoIterator<Item = (Hook, u64)>,
    ) -> anyhow::Result<()> {
        if self.charged_within_budget(total) {
            return Ok(());
        }
        self.charge_each(each)
    }

    /// [`ScriptRules::charge_kept`] answer by answer. Kept apart from the
    /// lookups, which it would otherwise slow.
    #[cold]
    #[inline(never)]
    fn charge_each(&self, each: impl IntoIterator<Item = (Hook, u64)>) -> anyhow::Result<()> {
        for (hook, cost) in each {
            self.charge(hook, cost)?;
        }
        Ok(())
    }

    /// Charge `cost` to the game's hooks where that is all there is to do
    /// (outside any hook, within the budget): whether it was charged.
    /// Otherwise nothing is, and [`ScriptRules::charge`] must be asked,
    /// answer by answer, for the limit and the hook that broke it.
    fn charged_within_budget(&self, cost: u64) -> bool {
        let mut game = self.game.get();
        if game.operations + cost > self.scripts.hook_budget || !self.stack.borrow().is_empty() {
            return false;
        }
        game.operations += cost;
        self.game.set(game);
        true
    }

    /// Charge one kept answer of `hook` what it cost when it was worked
    /// out (see [`ScriptRules::charge_kept`]).
    fn charge(&self, hook: Hook, cost: u64) -> anyhow::Result<()> {
        if cost == 0 {
            return Ok(());
        }
        if !self.stack.borrow().is_empty() {
            self.run_charged(cost);
            let operations = self.add_operations(cost);
            let mut b = self.budget.get();
            if b.broken.is_none() && operations > b.limit {
                b.broken = Some(self.over(operations));
            }
            self.set_budget(b);
            return Ok(());
        }
        let mut game = self.game.get();
        game.operations += cost;
        self.game.set(game);
        if game.operations > self.scripts.hook_budget {
            return Err(self.limit_error(hook, self.over(0)));
        }
        Ok(())
    }

    /// The error of `hook` (its answering pack's `fn`) having broken `limit`
    /// outside any operation of a script.
    pub(super) fn limit_error(&self, hook: Hook, limit: Limit) -> anyhow::Error {
        let at = self.scripts.chains[hook.index()].last().map(|&i| {
            let p = &self.scripts.packs[i];
            let (line, col) = p.hook_lines[hook.index()];
            format!(
                "pack `{}`, hook `{}`: {}:{line}:{col}: ",
                p.name,
                hook.name(),
                p.path.display()
            )
        });
        limit_broken(
            Some(limit),
            format!(
                "{}{}",
                at.unwrap_or_else(|| format!("hook `{}`: ", hook.name())),
                limit.message()
            ),
        )
    }
}

/// The error `message` of a hook call that broke `limit` (if it broke one):
/// bad input, and a spent game budget typed apart
/// ([`crate::kernel::diag::BudgetSpent`]).
pub(super) fn limit_broken(limit: Option<Limit>, message: String) -> anyhow::Error {
    match limit {
        Some(Limit::Game { .. } | Limit::Request { .. } | Limit::Stopped { .. }) => {
            anyhow::Error::new(BudgetSpent(message))
        }
        _ => bad_input(message),
    }
}

impl ScriptRules {
    /// Run a hook called from a script whose function calls were nested
    /// `levels` deep: nested function calls are counted across the hooks
    /// that call each other, so the deepest stack of frames a hook call can
    /// build is bounded by [`limits::CALL_LEVELS`] (plus one hook's own
    /// levels), whatever the nesting of hooks.
    pub(super) fn nested<T>(
        &self,
        levels: usize,
        run: impl FnOnce() -> Result<T, Box<EvalAltResult>>,
    ) -> Result<T, Box<EvalAltResult>> {
        let outer = self.levels.get();
        let total = outer + levels;
        if total > limits::CALL_LEVELS {
            let mut b = self.budget.get();
            b.broken.get_or_insert(Limit::Depth);
            self.set_budget(b);
            return Err(EvalAltResult::ErrorTerminated(
                Dynamic::from(Limit::Depth),
                Position::NONE,
            )
            .into());
        }
        self.levels.set(total);
        let result = run();
        self.levels.set(outer);
        result
    }
}
