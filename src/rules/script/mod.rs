//! Rule packs in Rhai: the sandboxed engine, the hooks and how packs compose,
//! and [`ScriptRules`], the scripted implementation of the kernel's
//! [`Rules`] interface.
//!
//! A variant is an ordered list of packs. For each hook, the packs that define
//! it form a chain; the last one answers, and may call `previous(...)` to ask
//! the one before it (the first one's `previous` gives the hook's default).
//! Hooks are pure, so answers are cached: per floor stack for the tower
//! hooks (`may_place_floor` and `may_top` under what the call read beyond
//! it: the seat asking, the top meeple's owner), per (score, ransoms paid)
//! for the ransom, per (stack, what the meeple stands on, whose it is) for
//! `may_capture`, under what the call read beyond that (positions, the
//! board's tiles, capture paths: `reads`). A call that read what no trace
//! records (`game()`'s scores and turn, a feature) is not kept.
//! The hooks added for house rules (`seat`, `captured`, `exchange`, `end`)
//! are in `house`, `game()` in `context`.
//!
//! Scripts are untrusted: the engine limits operations, time and memory per
//! hook call (the hooks it calls included), call depth, expression depth and
//! the sizes of strings, arrays and maps; it loads no modules and has no clock,
//! and `print`/`debug` go nowhere. Hook arguments are registered
//! native types (`tower`, `meeple`, `board`) that read the game in place.

mod api;
mod cache;
mod chain;
mod compile;
mod context;
mod errors;
mod house;
pub mod limits;
pub mod memory;
mod reads;
mod sandbox;
mod shapes;
mod steps;

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use anyhow::Result;
use rhai::{Dynamic, Engine, EvalAltResult, Position};

use crate::kernel::{
    Answer, Asking, CaptureOutcome, EndScore, FloorKind, MeepleOn, MeepleView, RansomView, Rules,
    StackView, Table, TowerView,
};
use api::{BoardRef, Placed};
use cache::Cache;
use sandbox::{Budget, GameSpend, sandboxed_engine};

pub use api::{cells_within, path_steps};
pub use compile::{ScriptSource, Scripts};
pub use memory::{CountingAllocator, MemoryLimit, NoCountingAllocator};
/// The hooks a pack may define. See `docs/packs.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hook {
    Setup,
    MayPlaceFloor,
    MayTop,
    Reach,
    Range,
    MayCapture,
    Ransom,
    Seat,
    Captured,
    Exchange,
    End,
}

impl Hook {
    pub const COUNT: usize = 11;

    pub const ALL: [Hook; Hook::COUNT] = [
        Hook::Setup,
        Hook::MayPlaceFloor,
        Hook::MayTop,
        Hook::Reach,
        Hook::Range,
        Hook::MayCapture,
        Hook::Ransom,
        Hook::Seat,
        Hook::Captured,
        Hook::Exchange,
        Hook::End,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Hook::Setup => "setup",
            Hook::MayPlaceFloor => "may_place_floor",
            Hook::MayTop => "may_top",
            Hook::Reach => "reach",
            Hook::Range => "range",
            Hook::MayCapture => "may_capture",
            Hook::Ransom => "ransom",
            Hook::Seat => "seat",
            Hook::Captured => "captured",
            Hook::Exchange => "exchange",
            Hook::End => "end",
        }
    }

    /// The hook's parameters, as documented.
    pub fn params(self) -> &'static [&'static str] {
        match self {
            Hook::Setup => &["players", "foundations"],
            Hook::MayPlaceFloor => &["tower", "kind"],
            Hook::MayTop => &["tower"],
            Hook::Reach => &["tower"],
            Hook::Range => &["tower", "reach"],
            Hook::MayCapture => &["tower", "meeple", "board"],
            Hook::Ransom => &["score", "paid"],
            Hook::Seat => &["seat", "players", "supply"],
            Hook::Captured => &["meeple"],
            Hook::Exchange => &["a", "b"],
            Hook::End => &["towers"],
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// The scripted implementation of [`Rules`]: one per thread, sharing the
/// compiled [`Scripts`].
pub struct ScriptRules {
    scripts: Arc<Scripts>,
    engine: Engine,
    cache: RefCell<Cache>,
    /// Hook calls in progress: (hook, position in its chain).
    stack: RefCell<Vec<(Hook, usize)>>,
    /// The first error of the current top-level call, described.
    error: RefCell<Option<String>>,
    /// What the current top-level call has spent of the sandbox's limits.
    budget: Cell<Budget>,
    /// What the hooks of the current game have spent.
    game: Cell<GameSpend>,
    /// The game's spending, kept aside while a bot's search spends apart.
    game_aside: Cell<Option<GameSpend>>,
    /// The game as `game()` reads it, while a hook that may read it runs.
    context: RefCell<context::Context>,
    /// Did the hook being asked read anything its cache key does not cover
    /// (`game()`, the board, where a tower or meeple stands)? Then its answer
    /// is not kept.
    read_context: Cell<bool>,
    /// Nested function calls of the hooks that called the running one.
    levels: Cell<usize>,
    /// What the `may_capture` call running reads, and the board walks kept.
    reads: RefCell<reads::Recorder>,
    /// Tower hook answers kept by what their calls read of the stack, and
    /// what the running call has read.
    shapes: RefCell<shapes::Shapes>,
    /// Pack functions run on this thread (each `previous` counts).
    runs: Cell<u64>,
}

impl ScriptRules {
    pub fn new(scripts: Arc<Scripts>) -> ScriptRules {
        ScriptRules {
            scripts,
            engine: sandboxed_engine(),
            cache: RefCell::new(Cache::default()),
            stack: RefCell::new(Vec::new()),
            error: RefCell::new(None),
            budget: Cell::new(Budget::start(limits::OPERATIONS)),
            game: Cell::new(GameSpend::default()),
            game_aside: Cell::new(None),
            context: RefCell::new(context::Context::default()),
            read_context: Cell::new(false),
            levels: Cell::new(0),
            reads: RefCell::new(reads::Recorder::default()),
            shapes: RefCell::new(shapes::Shapes::default()),
            runs: Cell::new(0),
        }
    }

    /// Pack functions run on this thread so far, each `previous` counted:
    /// answers given from the cache run none.
    pub fn hook_runs(&self) -> u64 {
        self.runs.get()
    }

    pub fn scripts(&self) -> &Scripts {
        &self.scripts
    }

    /// Does any pack define `may_capture`?
    fn filters_captures(&self) -> bool {
        !self.scripts.chains[Hook::MayCapture.index()].is_empty()
    }
}

impl Scripts {
    /// The same scripts, the hooks of each game allowed `ops` operations in
    /// all (counted as [`limits::GAME_OPERATIONS`] says).
    pub fn with_hook_budget(mut self, ops: u64) -> Scripts {
        self.hook_budget = ops;
        self
    }

    /// Operations the hooks of one game may run in all.
    pub fn hook_budget(&self) -> u64 {
        self.hook_budget
    }
}

pub(super) fn with_rules<T>(f: impl FnOnce(&ScriptRules) -> T) -> Result<T, Box<EvalAltResult>> {
    if api::RULES.is_set() {
        Ok(api::RULES.with(f))
    } else {
        Err(rt_error("this function is only available inside a hook"))
    }
}

/// What a meeple stands on, as a byte of a cache key.
fn on_code(on: MeepleOn) -> u8 {
    match on {
        MeepleOn::Feature(kind) => kind as u8,
        MeepleOn::Tower => u8::MAX,
    }
}

/// A script error with `message` and no position of its own.
fn rt_error(message: impl Into<String>) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(Dynamic::from(message.into()), Position::NONE).into()
}

impl Rules for ScriptRules {
    fn floor_kinds(&self) -> &[String] {
        &self.scripts.kinds
    }

    fn begin_game(&self, seed: Option<u64>) {
        self.begin_spending(seed);
    }

    fn searching(&self, on: bool) {
        self.spend_apart(on);
    }

    fn floor_supply(&self, players: usize, foundation_tiles: usize) -> Result<Vec<u32>> {
        let kept = self
            .cache
            .borrow()
            .setup
            .get(&(players, foundation_tiles))
            .cloned();
        if let Some(s) = kept {
            return self.hit(Hook::Setup, s);
        }
        let before = self.spent();
        let v = self.call(
            Hook::Setup,
            vec![
                Dynamic::from(players as i64),
                Dynamic::from(foundation_tiles as i64),
            ],
            None,
        )?;
        let supply = self.supply_of(Hook::Setup, &v)?;
        let kept = self.kept(supply.clone(), before);
        self.cache
            .borrow_mut()
            .setup
            .insert((players, foundation_tiles), kept);
        Ok(supply)
    }

    fn may_place_floor(
        &self,
        stack: &StackView,
        kind: FloorKind,
        asking: &Asking,
    ) -> Result<Answer> {
        self.ask_tower(Hook::MayPlaceFloor, stack, Some(kind), asking)
    }

    fn tower_answers(
        &self,
        stack: &StackView,
        asking: &Asking,
        floors: &mut Vec<Answer>,
    ) -> Result<Answer> {
        self.ask_tower_all(stack, asking, floors)
    }

    fn may_top(&self, stack: &StackView, asking: &Asking) -> Result<Answer> {
        self.ask_tower(Hook::MayTop, stack, None, asking)
    }

    fn capture_range(&self, stack: &StackView, out: &mut Vec<(i32, i32)>) -> Result<()> {
        out.extend_from_slice(&self.cached_range(stack.floors, stack.topped)?);
        Ok(())
    }

    fn may_capture(&self, tower: &TowerView, meeple: &MeepleView, table: &Table) -> Result<bool> {
        if !self.filters_captures() {
            return Ok(true);
        }
        let key = (on_code(meeple.on), meeple.owner as u8);
        let moment = reads::Moment {
            tower: tower.pos,
            floors: tower.floors,
            topped: tower.meeple.is_some(),
            owner: tower.meeple,
            meeple: meeple.pos,
            board: table.board,
        };
        if let Some(a) = self.kept_capture(&moment, key) {
            return self.hit(Hook::MayCapture, a);
        }
        let before = self.spent();
        self.read_context.set(false);
        let placed = Placed {
            pos: tower.pos,
            owner: tower.meeple.map(|m| m as i64),
        };
        let info = self.tower_info(tower.floors, tower.meeple.is_some(), Some(placed));
        let m = self.meeple_info(meeple, tower.pos);
        let args = vec![
            Dynamic::from(info),
            Dynamic::from(m),
            Dynamic::from(BoardRef),
        ];
        let roles = context::Roles {
            captor: Some(table.current),
            ..Default::default()
        };
        let a = self.recording(&moment, || {
            self.with_context(table, roles, || {
                self.ask_bool(Hook::MayCapture, args, Some(table.board))
            })
        })?;
        let kept = self.kept(a, before);
        self.keep_capture(&moment, key, kept);
        Ok(a)
    }

    fn ransom_cost(&self, score: u32, paid_this_turn: u32) -> Result<Option<u32>> {
        self.ask_ransom(score, paid_this_turn, None)
    }

    fn ransom(&self, ransom: &RansomView, table: &Table) -> Result<Option<u32>> {
        self.ask_ransom(ransom.score, ransom.paid_this_turn, Some((ransom, table)))
    }

    fn seat_supply(
        &self,
        players: usize,
        foundation_tiles: usize,
        seat: usize,
    ) -> Result<Vec<u32>> {
        self.ask_seat(players, foundation_tiles, seat)
    }

    fn capture_outcome(&self, meeple: &MeepleView, table: &Table) -> Result<CaptureOutcome> {
        self.ask_captured(meeple, table)
    }

    fn exchange(&self, a: usize, b: usize, table: &Table) -> Result<bool> {
        self.ask_exchange(a, b, table)
    }

    fn end_scores(
        &self,
        towers: &[TowerView],
        table: &Table,
        out: &mut Vec<EndScore>,
    ) -> Result<()> {
        self.ask_end(towers, table, out)
    }
}
