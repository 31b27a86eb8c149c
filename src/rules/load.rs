//! How packs are loaded: the limits their hooks run under and whether their
//! hook calls are traced. A [`Home`](super::Home) says where packs are
//! found; [`LoadOptions`] say how the packs found are compiled and run:
//!
//! - the memory limit ([`MemoryLimit`]): on by default, which needs the
//!   program to install [`CountingAllocator`](super::script::CountingAllocator)
//!   (the `towerlab` binary does); a program that keeps its own allocator
//!   loads with it off;
//! - the hook budget: the operations the hooks of one game may run in all
//!   (`--hook-budget`, [`limits::GAME_OPERATIONS`] by default);
//! - the trace (`--trace`): where every hook call is written down, if
//!   anywhere (none by default);
//! - the allowance: what one request may spend on hooks in all, across
//!   every game it plays ([`Allowance`]; the server's, none by default);
//! - the scripts compiled before ([`Compiled`]): a load that would compile
//!   a script again takes it from there (`check`'s, which compiles each
//!   pack alone, then the ruleset; none kept by default).
//!
//! Every way in that loads packs — a [`Ruleset`](super::Ruleset)'s
//! constructors, `check`, scenario runs, replay, the server — takes them;
//! a ruleset keeps the options it was loaded with, so the rules made from
//! it (other parameter values, a scenario's own packs) load as it did. The
//! command line builds them, from its flags, in one place (`cli::run`).

use std::sync::Arc;

use anyhow::Result;

use super::script::{Allowance, Compiled, MemoryLimit, ScriptSource, Scripts, limits};
use super::trace::Trace;

/// How packs are loaded: memory limit, hook budget, trace. The default
/// holds hooks to the memory limit and the default budget, untraced.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    memory_limit: MemoryLimit,
    /// Operations the hooks of one game may run in all.
    hook_budget: u64,
    /// Where hook calls are traced, when they are.
    trace: Option<Trace>,
    /// What the request loading these packs may spend in all, if bounded.
    allowance: Option<Arc<Allowance>>,
    /// The scripts compiled before, when they are kept.
    compiled: Option<Arc<Compiled>>,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            memory_limit: MemoryLimit::On,
            hook_budget: limits::GAME_OPERATIONS,
            trace: None,
            allowance: None,
            compiled: None,
        }
    }
}

impl LoadOptions {
    /// The same options, the packs held to the memory limit or not: a
    /// program that does not install
    /// [`CountingAllocator`](super::script::CountingAllocator) loads them
    /// with [`MemoryLimit::Off`].
    pub fn with_memory_limit(mut self, limit: MemoryLimit) -> LoadOptions {
        self.memory_limit = limit;
        self
    }

    /// The same options, the hooks of each game allowed `ops` operations in
    /// all.
    pub fn with_hook_budget(mut self, ops: u64) -> LoadOptions {
        self.hook_budget = ops;
        self
    }

    /// The same options, the hook calls traced into `trace`.
    pub fn with_trace(mut self, trace: Trace) -> LoadOptions {
        self.trace = Some(trace);
        self
    }

    /// The same options, every hook call of the rulesets loaded with them
    /// (and of every game they play) spending from `allowance` too.
    pub fn with_allowance(mut self, allowance: Arc<Allowance>) -> LoadOptions {
        self.allowance = Some(allowance);
        self
    }

    /// The same options, the scripts they compile kept and taken again
    /// when the same script (file and text) is compiled again; those kept
    /// already stay kept.
    pub fn keeping_compiled(mut self) -> LoadOptions {
        self.compiled.get_or_insert_with(Arc::default);
        self
    }

    /// Compile the scripts of `sources` (floor kinds `kinds`) under these
    /// options.
    pub(super) fn compile(&self, sources: &[ScriptSource], kinds: &[String]) -> Result<Scripts> {
        Ok(
            Scripts::compile(sources, kinds, self.memory_limit, self.compiled.as_deref())?
                .with_hook_budget(self.hook_budget)
                .with_allowance(self.allowance.clone())
                .with_trace(self.trace.clone()),
        )
    }
}

#[cfg(test)]
impl LoadOptions {
    /// The options of the library's own unit tests, which run on the system
    /// allocator, as a program that embeds the library without installing
    /// the counting one: the memory limit off.
    pub(crate) fn unit_tests() -> LoadOptions {
        LoadOptions::default().with_memory_limit(MemoryLimit::Off)
    }
}
