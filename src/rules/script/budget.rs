//! What a hook call and a game's hooks may spend, and what they have: the
//! limits a call can break ([`Limit`]), the game's operations
//! ([`GameSpend`]), the running call's budget ([`Budget`]) and its
//! operation count ([`Count`]). The sandbox (`super::sandbox`) counts and
//! charges against them.

use std::time::Instant;

use cpu_time::ThreadTime;

use super::limits;
use super::memory;

/// A limit that a hook call (with the hooks it calls) broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Limit {
    Operations,
    Time,
    WallTime,
    Memory,
    /// Hooks called into each other (`previous`, `capture_cells`…) with more
    /// nested function calls in all than one hook may make.
    Depth,
    /// The hooks of one game ran more operations in all than its budget
    /// (`--hook-budget`); the game dealt from `seed`, when it was.
    Game {
        budget: u64,
        seed: Option<u64>,
    },
    /// The hooks of the request the game runs for (a studio request's
    /// games and scenarios together) ran more operations in all than its
    /// [`super::Allowance`].
    Request {
        budget: u64,
    },
    /// The request's time ran out: the server stopped it.
    Stopped {
        seconds: u64,
    },
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
            Limit::WallTime => format!(
                "Took more than {} s of wall time (limit per hook call, the hooks it calls \
                 included)",
                limits::WALL_TIME.as_secs_f64()
            ),
            Limit::Depth => format!(
                "Function calls nested more than {} deep, counting the calls of every hook \
                 that called this one (`previous`, `capture_cells`…; runaway recursion?)",
                limits::CALL_LEVELS
            ),
            Limit::Memory => format!(
                "Used more than {} MB of memory (limit per hook call, the hooks it calls \
                 included; data growing without bound?)",
                limits::MEMORY >> 20
            ),
            Limit::Game { budget, seed } => format!(
                "The hooks of this game{} ran more than {budget} operations in all, cached \
                 answers counted at what they cost (the per-game hook budget; a pack too slow \
                 to play? `--hook-budget OPS` raises it)",
                seed.map(|s| format!(" (seed {s})")).unwrap_or_default()
            ),
            Limit::Request { budget } => format!(
                "The hooks of this request ran more than {budget} operations in all, every game \
                 and scenario it ran counted (the server's budget per request, docs/serve.md; \
                 on the command line, `towerlab check` and `towerlab test` have none)"
            ),
            Limit::Stopped { seconds } => format!(
                "This request ran past the {seconds} s the server gives one request, and was \
                 stopped (docs/serve.md; on the command line, `towerlab check` and `towerlab \
                 test` have no such limit)"
            ),
        }
    }
}

/// What the hooks of the current game have spent.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct GameSpend {
    /// Operations of the game's hook calls that have ended, and of the
    /// cached answers given outside a call.
    pub(super) operations: u64,
    pub(super) seed: Option<u64>,
}

impl GameSpend {
    pub(super) fn new(seed: Option<u64>) -> GameSpend {
        GameSpend {
            operations: 0,
            seed,
        }
    }
}

/// What the current top-level hook call, with the hooks it calls, has spent.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    /// Operations this call may reach: [`limits::OPERATIONS`], or less when
    /// that is all the game's budget has left.
    pub(super) limit: u64,
    /// CPU time of this thread when the call's clocks were first read
    /// (at its first [`CLOCK_EVERY`] operations; most calls end sooner and
    /// read none — reading the thread's CPU clock is a system call):
    /// unlike the wall clock, it does not run while other processes have
    /// the processor, so a busy machine cannot stop a hook that would
    /// finish elsewhere.
    pub(super) started: Option<std::time::Duration>,
    /// The wall clock then: CPU time does not run while a thread waits, so
    /// this bounds what CPU time cannot.
    pub(super) wall: Option<Instant>,
    pub(super) held: isize,
    /// The operation count at which memory is looked at next, and the clocks:
    /// a count, not a multiple, so that work charged in bulk (a large value,
    /// a bulk native) brings the next look forward rather than skipping it.
    pub(super) next_look: u64,
    pub(super) next_clock: u64,
    /// The limit broken, once one is: every later operation of the call stops
    /// too, so that a script cannot catch the error and carry on.
    pub(super) broken: Option<Limit>,
}

/// The current top-level call's operation count, apart from the rest of
/// its [`Budget`]: the one thing every operation changes, kept small so
/// that an operation counted between two looks is an add and a compare.
#[derive(Clone, Copy, Debug)]
pub(super) struct Count {
    /// Operations run, and charged for the cached answers the call was
    /// given; zero between top-level calls.
    pub(super) operations: u64,
    /// [`Budget::check_at`] of the call's budget.
    pub(super) check_at: u64,
}

impl Count {
    pub(super) fn start(budget: &Budget) -> Count {
        Count {
            operations: 0,
            check_at: budget.check_at(),
        }
    }
}

/// Operations between two looks at the memory held.
pub(super) const LOOK_EVERY: u64 = 16;
/// Operations between two looks at the clocks (the first look starts them).
pub(super) const CLOCK_EVERY: u64 = 256;

impl Budget {
    /// The time limit the call has broken, if any; the clocks start at the
    /// first look.
    pub(super) fn clocks_broken(&mut self) -> Option<Limit> {
        let cpu = ThreadTime::now().as_duration();
        let started = *self.started.get_or_insert(cpu);
        let wall = *self.wall.get_or_insert_with(Instant::now);
        if cpu.saturating_sub(started) > limits::TIME {
            Some(Limit::Time)
        } else if wall.elapsed() > limits::WALL_TIME {
            Some(Limit::WallTime)
        } else {
            None
        }
    }

    /// The operation count at which [`ScriptRules::spend`] must look at
    /// the limits (its next look, or the limit's first operation past it):
    /// every operation does once one is broken.
    pub(super) fn check_at(&self) -> u64 {
        match self.broken {
            Some(_) => 0,
            None => self.next_look.min(self.limit.saturating_add(1)),
        }
    }

    pub(super) fn start(limit: u64) -> Budget {
        Budget {
            limit,
            started: None,
            wall: None,
            held: memory::held(),
            next_look: LOOK_EVERY,
            next_clock: CLOCK_EVERY,
            broken: None,
        }
    }
}
