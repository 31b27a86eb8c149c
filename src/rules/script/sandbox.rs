//! The sandbox: the engine every script runs in, its limits, and the budget
//! of operations, CPU time and memory that one hook call (with the hooks it
//! calls) may spend.

use cpu_time::ThreadTime;
use rhai::{Dynamic, Engine, EvalAltResult, Map, Position};

use super::api::{RULES, register_api};
use super::memory::{self, MemoryLimit};
use super::{ScriptRules, limits};

/// A limit that a hook call (with the hooks it calls) broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Limit {
    Operations,
    Time,
    Memory,
}

impl Limit {
    pub(super) fn message(self) -> String {
        match self {
            Limit::Operations => format!(
                "Too many operations, counting the hooks it called (limit: {} operations \
                 per hook call; a runaway loop?)",
                limits::OPERATIONS
            ),
            Limit::Time => format!(
                "Took more than {} s of CPU time (limit per hook call, the hooks it calls included; \
                 a runaway loop over large data?)",
                limits::TIME.as_secs_f64()
            ),
            Limit::Memory => format!(
                "Used more than {} MB of memory (limit per hook call, the hooks it calls \
                 included; data growing without bound?)",
                limits::MEMORY >> 20
            ),
        }
    }
}

/// What the current top-level hook call, with the hooks it calls, has spent.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    operations: u64,
    /// CPU time of this thread when the call began: unlike the wall clock,
    /// it does not run while other processes have the processor, so a busy
    /// machine cannot stop a hook that would finish elsewhere.
    started: std::time::Duration,
    held: isize,
    /// The limit broken, once one is: every later operation of the call stops
    /// too, so that a script cannot catch the error and carry on.
    broken: Option<Limit>,
}

impl Budget {
    pub(super) fn start() -> Budget {
        Budget {
            operations: 0,
            started: ThreadTime::now().as_duration(),
            held: memory::held(),
            broken: None,
        }
    }
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
        .on_debug(|_, _, _| {})
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
    // Rhai checks a map's size when a function returns it, not when a new
    // key is stored (`m[k] = v`, `m.k = v`): check it whenever the map is
    // named again. (`on_var` is marked volatile by Rhai, not deprecated.)
    #[allow(deprecated)]
    engine.on_var(|name, _, context| {
        let too_big = context.scope().get(name).is_some_and(|v| {
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
    register_api(&mut engine);
    engine
}

impl ScriptRules {
    /// Count one operation of the current top-level call; the limit broken,
    /// if any.
    fn spend(&self) -> Option<Limit> {
        let mut b = self.budget.get();
        if b.broken.is_none() {
            b.operations += 1;
            // Memory and time are looked at every 16 operations: one
            // operation takes at most about a megabyte and a millisecond.
            let look = b.operations.is_multiple_of(16);
            b.broken = if b.operations > limits::OPERATIONS {
                Some(Limit::Operations)
            } else if look
                && self.scripts.memory_limit == MemoryLimit::On
                && memory::held().wrapping_sub(b.held) > limits::MEMORY as isize
            {
                Some(Limit::Memory)
            } else if look
                && ThreadTime::now().as_duration().saturating_sub(b.started) > limits::TIME
            {
                Some(Limit::Time)
            } else {
                None
            };
            self.budget.set(b);
        }
        b.broken
    }
}
