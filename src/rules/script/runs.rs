//! What each pack's hooks cost: when switched on
//! ([`super::ScriptRules::count_runs`]), every run of a pack's function is
//! counted under its pack and hook, with the operations the run itself
//! spent — Rhai's, and work charged in bulk — but not those of the hooks
//! it called (`previous`, `capture_cells`: each counted as a run of its
//! own) nor the cost charged for answers it was given from the memo.
//!
//! Unlike [`super::Fires`], which asks every shorter chain too and so runs
//! more, counting changes nothing: which hooks run, and how often, is what
//! the games would run anyway. A count of operations, not a clock, so the
//! same games give the same figures on any machine.

use serde::Serialize;

use super::hooks::Hook;

/// One pack's hook: how often it ran and what its runs spent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HookRuns {
    /// The pack's name, as the variant lists it.
    pub pack: String,
    #[serde(serialize_with = "hook_name")]
    pub hook: Hook,
    /// Runs of the pack's function (answers from the memo run nothing).
    pub runs: u64,
    /// Operations those runs spent themselves.
    pub operations: u64,
}

fn hook_name<S: serde::Serializer>(hook: &Hook, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(hook.name())
}

/// The counts of one thread, per hook and position in its chain, and the
/// runs under way ([`super::ScriptRules::count_runs`]).
#[derive(Default)]
pub(super) struct RunCounter {
    on: bool,
    /// Per hook (by index), per position in its chain: runs, operations.
    counts: Vec<Vec<(u64, u64)>>,
    /// For each run under way: the call's operations when it began, and
    /// those spent since that were not its own (hooks it called, answers
    /// charged to it).
    frames: Vec<(u64, u64)>,
}

impl RunCounter {
    /// Count from now on, with `chains[h]` packs in hook `h`'s chain.
    pub(super) fn start(&mut self, chains: impl Iterator<Item = usize>) {
        self.on = true;
        self.counts = chains.map(|n| vec![(0, 0); n]).collect();
    }

    /// Runs and operations of the hook of index `hook`, at `pos` in its
    /// chain.
    pub(super) fn count(&self, hook: usize, pos: usize) -> (u64, u64) {
        self.counts
            .get(hook)
            .and_then(|h| h.get(pos))
            .copied()
            .unwrap_or_default()
    }

    /// A pack's function begins to run; its call has spent `now`.
    pub(super) fn begins(&mut self, now: u64) {
        if self.on {
            self.frames.push((now, 0));
        }
    }

    /// The function at `pos` of the chain of the hook of index `hook`,
    /// begun last, has ended; its call has spent `now`.
    pub(super) fn ends(&mut self, hook: usize, pos: usize, now: u64) {
        let Some((start, not_own)) = self.frames.pop() else {
            return;
        };
        let spent = now.saturating_sub(start);
        if let Some(parent) = self.frames.last_mut() {
            parent.1 += spent;
        }
        if let Some(count) = self.counts.get_mut(hook).and_then(|h| h.get_mut(pos)) {
            count.0 += 1;
            count.1 += spent.saturating_sub(not_own);
        }
    }

    /// An answer from the memo charged `cost` to the running call: not
    /// work of the function running.
    pub(super) fn charged(&mut self, cost: u64) {
        if let Some(frame) = self.frames.last_mut() {
            frame.1 += cost;
        }
    }
}
