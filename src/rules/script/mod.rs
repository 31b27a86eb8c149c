//! Rule packs in Rhai: the sandboxed engine, the hooks and how packs compose,
//! and [`ScriptRules`], the scripted implementation of the kernel's
//! [`Rules`](crate::kernel::Rules) interface.
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
//!
//! The modules import one way, in three ranks. The parts know nothing of
//! the host: the compiled scripts (`scripts`), the memo, the recorder's
//! frames (`record::frames`), the budget, the walked paths (`steps`), the
//! fire and run counters, the front's kept groups (`front::kept`), the
//! towers of the moment (`towers::now`), the tracer (`trace::tracer`), and
//! what they share (`hooks`, `reads`, `limits`). The host (`host`:
//! [`ScriptRules`], a field for each part) imports only the parts, and
//! `running` (the host whose hook runs on this thread) only the host. The
//! behaviour — the host's methods over each part, the script API, compiling,
//! the kernel's questions (`questions`) — imports both, and nothing below
//! imports it. This module lists and re-exports, and makes the host with
//! its sandboxed engine.

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
mod host;
pub mod limits;
mod memo;
pub mod memory;
mod moment;
mod questions;
mod reads;
mod record;
mod running;
mod runs;
mod sandbox;
mod scripts;
mod state;
mod steps;
#[cfg(test)]
mod tests;
mod towers;
mod trace;
mod work;

use std::sync::Arc;

use sandbox::sandboxed_engine;

pub use allowance::Allowance;
pub use api::{cells_within, path_steps};
pub use compile::{Compiled, ScriptSource, compiled_on_this_thread};
pub use fires::{Fire, Fires};
pub use hooks::{HOOKS, Hook, HookSpec};
pub use host::ScriptRules;
pub use memory::{CountingAllocator, MemoryLimit, NoCountingAllocator};
pub use runs::HookRuns;
pub use scripts::Scripts;
impl ScriptRules {
    /// The host of `scripts` for this thread, its engine sandboxed and the
    /// script API registered.
    pub fn new(scripts: Arc<Scripts>) -> ScriptRules {
        ScriptRules::owning(scripts, sandboxed_engine())
    }
}
