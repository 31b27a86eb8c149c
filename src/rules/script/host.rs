//! The host: [`ScriptRules`], one per thread, and the parts it owns — the
//! compiled scripts, the engine, the memo, the recorder, the sandbox's
//! budget, the walked paths, the counters of fires and runs, the front, the
//! tracer, the towers of the moment and the effects' origins. Each part is
//! a module of its own that knows nothing of the host; the host's behaviour
//! (`impl ScriptRules` in `ask`, `chain`, `sandbox`, `record`, `front`,
//! `towers`, `trace`, `counting`, `effects`, `reads::value`, `questions`…) and the script
//! API (`api`, `context`, `state`, `figures`) import the host, and the host
//! imports none of them: its engine is made above it (`ScriptRules::new`).

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use rhai::Engine;
use rustc_hash::FxHashMap;

use super::budget::{Budget, Count, GameSpend};
use super::fires::Counter as FireCounter;
use super::front::kept::Front;
use super::hooks::Hook;
use super::limits;
use super::memo::Memo;
use super::record::frames::Recorder;
use super::runs::RunCounter;
use super::scripts::Scripts;
use super::steps::StepsMemo;
use super::towers::now::TowersNow;
use super::trace::tracer::Tracer;
use crate::kernel::effects::Origin;

/// Where each effect a script made was made, once per place: (pack, hook,
/// line, column).
pub(super) type Origins = FxHashMap<(usize, Hook, usize, usize), Arc<Origin>>;

/// The scripted implementation of [`Rules`](crate::kernel::Rules): one per
/// thread, sharing the compiled [`Scripts`]. Each field is a part it owns.
pub struct ScriptRules {
    pub(super) scripts: Arc<Scripts>,
    pub(super) engine: Engine,
    /// Every hook's kept answers.
    pub(super) memo: RefCell<Memo>,
    /// The calls running and what each has read.
    pub(super) recorder: RefCell<Recorder>,
    /// Hook calls in progress: (hook, position in its chain).
    pub(super) stack: RefCell<Vec<(Hook, usize)>>,
    /// The first error of the current top-level call, described.
    pub(super) error: RefCell<Option<String>>,
    /// What the current top-level call has spent of the sandbox's limits.
    pub(super) budget: Cell<Budget>,
    /// Its operations, counted apart ([`Count`]).
    pub(super) count: Cell<Count>,
    /// What the hooks of the current game have spent.
    pub(super) game: Cell<GameSpend>,
    /// The game's spending, kept aside while a bot's search spends apart.
    pub(super) game_aside: Cell<Option<GameSpend>>,
    /// Nested function calls of the hooks that called the running one.
    pub(super) levels: Cell<usize>,
    /// Capture paths walked on the current board.
    pub(super) steps: RefCell<StepsMemo>,
    /// Pack functions run on this thread (each `previous` counts).
    pub(super) runs: Cell<u64>,
    /// Which packs changed their hooks' answers, when counted.
    pub(super) fires: RefCell<FireCounter>,
    /// Each pack hook's runs and their operations, when counted.
    pub(super) run_counter: RefCell<RunCounter>,
    /// Answers about a stack alone, by the stack (`front`).
    pub(super) front: RefCell<Front>,
    /// The calls being traced, when they are.
    pub(super) tracer: RefCell<Tracer>,
    /// The towers of the moment an event hook answers (`game().towers`).
    pub(super) towers_now: RefCell<TowersNow>,
    /// Where each effect a script made was made, once per place: (pack,
    /// hook, line, column).
    pub(super) origins: RefCell<Origins>,
}

impl ScriptRules {
    /// The host of `scripts`, running them on `engine` (the sandboxed one,
    /// the script API registered: `ScriptRules::new`), every part empty.
    pub(super) fn owning(scripts: Arc<Scripts>, engine: Engine) -> ScriptRules {
        // A traced call sees each question: none is answered by the front.
        let front = match scripts.trace {
            Some(_) => Front::turned_off(),
            None => Front::default(),
        };
        ScriptRules {
            scripts,
            engine,
            memo: RefCell::new(Memo::default()),
            recorder: RefCell::new(Recorder::default()),
            stack: RefCell::new(Vec::new()),
            error: RefCell::new(None),
            budget: Cell::new(Budget::start(limits::OPERATIONS)),
            count: Cell::new(Count::start(&Budget::start(limits::OPERATIONS))),
            game: Cell::new(GameSpend::default()),
            game_aside: Cell::new(None),
            levels: Cell::new(0),
            steps: RefCell::new(StepsMemo::default()),
            runs: Cell::new(0),
            fires: RefCell::new(FireCounter::default()),
            run_counter: RefCell::default(),
            front: RefCell::new(front),
            tracer: RefCell::new(Tracer::default()),
            towers_now: RefCell::new(TowersNow::default()),
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
    pub(super) fn defines(&self, hook: Hook) -> bool {
        !self.scripts.chains[hook.index()].is_empty()
    }
}
