//! A ruleset's compiled scripts (`Scripts`), shared by every thread: each
//! pack's AST, parameters and hook positions, for each hook the chain of
//! packs that define it, and the settings every game of them plays under
//! (hook budget, table floors, allowance, trace). Compiling them is
//! `compile`'s; this module is what the host holds, and knows neither the
//! engine nor the host.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use rhai::{AST, ImmutableString, Map};

use super::Hook;
use super::allowance::Allowance;
use super::memory::MemoryLimit;
use crate::kernel::effects::StateVar;
use crate::rules::trace::Trace;

#[derive(Clone)]
pub(super) struct ScriptPack {
    /// The pack's reference, as the variant lists it.
    pub(super) name: String,
    /// The name its manifest gives (see `ScriptSource::rule`).
    pub(super) rule: String,
    pub(super) path: PathBuf,
    /// Its script, compiled once and shared by the scripts made from it
    /// with other parameter values.
    pub(super) ast: Arc<AST>,
    pub(super) params: Map,
    /// Where each hook's `fn` stands (line, column), for errors that Rhai
    /// reports without a position (too many operations, stack overflow).
    pub(super) hook_lines: [(usize, usize); Hook::COUNT],
    /// Its state variables: (name, index in [`Scripts::state_vars`], a
    /// bool?).
    pub(super) state: Vec<(String, u16, bool)>,
    /// Its functions whose names look like a misspelt hook, in words with
    /// their place ([`Scripts::near_misses`]).
    pub(super) near_misses: Vec<String>,
    /// The names its `may_place_tile` gives its arguments (none when it
    /// defines no such hook): naming one reads it ([`super::reads::Read::Placement`]).
    pub(super) placement_params: Vec<ImmutableString>,
}

/// Compiled packs, shared by every thread.
#[derive(Clone)]
pub struct Scripts {
    pub(super) packs: Vec<ScriptPack>,
    /// For each hook, the packs (indices) that define it, in order.
    pub(super) chains: [Vec<usize>; Hook::COUNT],
    pub(super) kinds: Vec<String>,
    pub(super) kind_names: Vec<ImmutableString>,
    pub(super) memory_limit: MemoryLimit,
    /// Operations the hooks of one game may run in all.
    pub(super) hook_budget: u64,
    /// What the request these scripts run for may spend in all, if it is
    /// bounded ([`Allowance`]).
    pub(super) allowance: Option<Arc<Allowance>>,
    /// The floor kinds the table holds (bit k).
    pub(super) table_kinds: u64,
    /// Where hook calls are traced, when they are.
    pub(super) trace: Option<Trace>,
    /// Every pack's state variables, named `pack.name`.
    pub(super) state_vars: Vec<StateVar>,
    /// The moments some pack's event hook answers (bit per moment).
    pub(super) listens: u32,
    /// The names packs give `end`'s argument: naming it in a running `end`
    /// reads every tower ([`super::reads::Read::Towers`]).
    pub(super) end_params: Vec<ImmutableString>,
}

impl Scripts {
    /// The same scripts, the hooks of each game allowed `ops` operations in
    /// all (counted as [`GAME_OPERATIONS`](super::limits::GAME_OPERATIONS) says).
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
    pub fn with_trace(mut self, trace: Option<Trace>) -> Scripts {
        self.trace = trace;
        self
    }

    /// The trace the hook calls go to, when they are traced.
    pub fn trace(&self) -> Option<&Trace> {
        self.trace.as_ref()
    }

    /// The same scripts, each pack's reading the parameters `params` holds
    /// for it (by pack reference; a pack not in it keeps its own): nothing
    /// is compiled again.
    pub fn with_params(&self, params: &BTreeMap<String, Map>) -> Scripts {
        let mut with = self.clone();
        for pack in &mut with.packs {
            if let Some(map) = params.get(&pack.name) {
                pack.params = map.clone();
            }
        }
        with
    }

    /// Functions whose names look like a misspelt hook (never called: a
    /// hook is found by its exact name), each with its pack and place.
    pub fn near_misses(&self) -> Vec<String> {
        self.packs
            .iter()
            .flat_map(|p| p.near_misses.iter().cloned())
            .collect()
    }

    /// Which packs define `hook`, in order.
    pub fn chain(&self, hook: Hook) -> impl Iterator<Item = &str> {
        self.chains[hook.index()]
            .iter()
            .map(|&i| self.packs[i].name.as_str())
    }
}
