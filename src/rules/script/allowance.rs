//! What one request may spend on hooks in all, across every game, scenario
//! and ruleset it runs: the server's budget per studio request. A game's
//! own budget (`--hook-budget`) bounds one game; a request can play many
//! (a check's games, a file of scenarios), so the server shares one
//! [`Allowance`] among them all, and a request that spends it ends with an
//! error saying so rather than holding a worker for as long as its games
//! take.
//!
//! It counts operations, as the game's budget does (work done inside one
//! operation charged by its size), so where a request runs its games one
//! after another it ends at the same hook whatever the machine. It can
//! also be stopped from outside ([`Allowance::stop`]): a guard on the
//! server's side, which a hook sees at its next look at the clocks.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Operations shared by the hook calls of one request, and a stop.
#[derive(Debug)]
pub struct Allowance {
    /// Operations the request's hooks may run in all.
    budget: u64,
    /// Operations of the request's hook calls that have ended.
    spent: AtomicU64,
    /// Told to stop (the request's time is up): every hook call ends.
    stopped: AtomicBool,
    /// The time after which the server stops it, for its message.
    time: Duration,
}

impl Allowance {
    /// `budget` operations in all; `time`, what the server allows before it
    /// stops the request (named in the error).
    pub fn new(budget: u64, time: Duration) -> Allowance {
        Allowance {
            budget,
            spent: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
            time,
        }
    }

    /// The operations the request's hooks may run in all.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Operations spent by the hook calls that have ended.
    pub fn spent(&self) -> u64 {
        self.spent.load(Ordering::Relaxed)
    }

    /// Operations left for the next hook call.
    pub(super) fn left(&self) -> u64 {
        self.budget.saturating_sub(self.spent())
    }

    /// A hook call ended, having run `operations`.
    pub(super) fn spend(&self, operations: u64) {
        self.spent.fetch_add(operations, Ordering::Relaxed);
    }

    /// Stop every hook call of the request at its next look at the clocks.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// The server's time per request, in whole seconds.
    pub(super) fn seconds(&self) -> u64 {
        self.time.as_secs()
    }
}
