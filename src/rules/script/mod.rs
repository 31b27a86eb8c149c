//! Rule packs in Rhai: the sandboxed engine, the hooks and how packs compose,
//! and [`ScriptRules`], the scripted implementation of the kernel's
//! [`Rules`] interface.
//!
//! A variant is an ordered list of packs. For each hook, the packs that define
//! it form a chain; the last one answers, and may call `previous(...)` to ask
//! the one before it (the first one's `previous` gives the hook's default).
//! Hooks are pure, so every answer is cached: per floor stack for the tower
//! hooks, per (score, ransoms paid) for the ransom. Only `may_capture`, which
//! may read the board, is asked afresh, and only when some pack defines it.
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
mod errors;
pub mod limits;
pub mod memory;
mod sandbox;

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use anyhow::Result;
use rhai::{Dynamic, Engine, EvalAltResult, ImmutableString, Map, Position};

use crate::kernel::diag::{bad_input, did_you_mean};
use crate::kernel::{Board, FloorKind, MeepleView, Rules, StackView, TowerView};
use api::{BoardRef, MeepleInfo, Placed};
use cache::Cache;
use sandbox::{Budget, sandboxed_engine};

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
}

impl Hook {
    pub const ALL: [Hook; 7] = [
        Hook::Setup,
        Hook::MayPlaceFloor,
        Hook::MayTop,
        Hook::Reach,
        Hook::Range,
        Hook::MayCapture,
        Hook::Ransom,
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
}

impl ScriptRules {
    pub fn new(scripts: Arc<Scripts>) -> ScriptRules {
        ScriptRules {
            scripts,
            engine: sandboxed_engine(),
            cache: RefCell::new(Cache::default()),
            stack: RefCell::new(Vec::new()),
            error: RefCell::new(None),
            budget: Cell::new(Budget::start()),
        }
    }

    pub fn scripts(&self) -> &Scripts {
        &self.scripts
    }

    /// Does any pack define `may_capture`?
    fn filters_captures(&self) -> bool {
        !self.scripts.chains[Hook::MayCapture.index()].is_empty()
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

    fn floor_supply(&self, players: usize, foundation_tiles: usize) -> Result<Vec<u32>> {
        if let Some(s) = self.cache.borrow().setup.get(&(players, foundation_tiles)) {
            return Ok(s.clone());
        }
        let v = self.call(
            Hook::Setup,
            vec![
                Dynamic::from(players as i64),
                Dynamic::from(foundation_tiles as i64),
            ],
            None,
        )?;
        let expected = "a map from floor kind to a count, e.g. #{ regular: 10 }";
        let map = v
            .read_lock::<Map>()
            .map(|m| m.clone())
            .ok_or_else(|| self.wrong_type(Hook::Setup, &v, v.type_name(), expected))?;
        let mut supply = vec![0u32; self.scripts.kinds.len()];
        for (name, count) in &map {
            let Some(k) = self.scripts.kinds.iter().position(|k| k == name.as_str()) else {
                return Err(bad_input(format!(
                    "hook `setup` of {} gave floors of kind `{name}`, which no pack declares{}",
                    self.answering_pack(Hook::Setup),
                    did_you_mean(name, self.scripts.kinds.iter().map(String::as_str))
                )));
            };
            let n = count
                .as_int()
                .ok()
                .filter(|n| (0..=1000).contains(n))
                .ok_or_else(|| {
                    self.wrong_type(Hook::Setup, &v, v.type_name(), "counts from 0 to 1000")
                })?;
            supply[k] = n as u32;
        }
        self.cache
            .borrow_mut()
            .setup
            .insert((players, foundation_tiles), supply.clone());
        Ok(supply)
    }

    fn may_place_floor(&self, stack: &StackView, kind: FloorKind) -> Result<bool> {
        let k = kind as usize;
        let meeple = stack.topped;
        if let Some(a) = self.entry(stack.floors, meeple, |e| {
            e.may_place.get(k).copied().flatten()
        }) {
            return Ok(a);
        }
        let info = self.tower_info(stack.floors, meeple, None);
        let name = Dynamic::from(self.scripts.kind_names[k].clone());
        let a = self.ask_bool(Hook::MayPlaceFloor, vec![Dynamic::from(info), name], None)?;
        let n = self.scripts.kinds.len();
        self.entry(stack.floors, meeple, |e| {
            e.may_place.resize(n, None);
            e.may_place[k] = Some(a);
        });
        Ok(a)
    }

    fn may_top(&self, stack: &StackView) -> Result<bool> {
        let meeple = stack.topped;
        if let Some(a) = self.entry(stack.floors, meeple, |e| e.may_top) {
            return Ok(a);
        }
        let info = self.tower_info(stack.floors, meeple, None);
        let a = self.ask_bool(Hook::MayTop, vec![Dynamic::from(info)], None)?;
        self.entry(stack.floors, meeple, |e| e.may_top = Some(a));
        Ok(a)
    }

    fn capture_range(&self, stack: &StackView, out: &mut Vec<(i32, i32)>) -> Result<()> {
        out.extend_from_slice(&self.cached_range(stack.floors, stack.topped)?);
        Ok(())
    }

    fn may_capture(&self, tower: &TowerView, meeple: &MeepleView, board: &Board) -> Result<bool> {
        if !self.filters_captures() {
            return Ok(true);
        }
        let placed = Placed {
            pos: tower.pos,
            owner: tower.meeple.map(|m| m as i64),
        };
        let info = self.tower_info(tower.floors, tower.meeple.is_some(), Some(placed));
        let m = MeepleInfo {
            owner: meeple.owner as i64,
            pos: meeple.pos,
            tower: tower.pos,
            on: ImmutableString::from(meeple.on.name()),
        };
        self.ask_bool(
            Hook::MayCapture,
            vec![
                Dynamic::from(info),
                Dynamic::from(m),
                Dynamic::from(BoardRef),
            ],
            Some(board),
        )
    }

    fn ransom_cost(&self, score: u32, paid_this_turn: u32) -> Result<Option<u32>> {
        if let Some(&c) = self.cache.borrow().ransom.get(&(score, paid_this_turn)) {
            return Ok(c);
        }
        let v = self.call(
            Hook::Ransom,
            vec![
                Dynamic::from(score as i64),
                Dynamic::from(paid_this_turn as i64),
            ],
            None,
        )?;
        let cost = if v.is_unit() {
            None
        } else {
            let n = v
                .as_int()
                .ok()
                .filter(|n| (0..=u32::MAX as i64).contains(n))
                .ok_or_else(|| {
                    self.wrong_type(
                        Hook::Ransom,
                        &v,
                        v.type_name(),
                        "a cost of 0 or more points, or () for no ransom",
                    )
                })?;
            Some(n as u32)
        };
        self.cache
            .borrow_mut()
            .ransom
            .insert((score, paid_this_turn), cost);
        Ok(cost)
    }
}
