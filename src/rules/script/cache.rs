//! The answers a thread has had from its hooks: per (floor stack, meeple on
//! top) for the tower hooks, per arguments for `setup`, `seat` and `ransom`
//! (a `ransom` answer that read `game()` is not kept). Hooks are pure, so an
//! answer is asked for once.
//!
//! Each answer is kept with the operations it cost (the hooks it asked
//! included) and charged at that cost every time it is given: what a game's
//! hooks spend is then the same whichever games its thread played before.

use std::sync::Arc;

use anyhow::Result;
use rhai::{Array, Dynamic, EvalAltResult};
use rustc_hash::FxHashMap;

use super::api::{TowerInfo, cell_of};
use super::reads::{Moment, Node};
use super::{Hook, ScriptRules, rt_error};
use crate::kernel::FloorKind;

/// An answer kept, with the operations working it out cost.
#[derive(Clone, Copy, Debug)]
pub(super) struct Kept<T> {
    pub(super) answer: T,
    pub(super) cost: u64,
}

/// Capture cells, as offsets from the tower.
pub(super) type Cells = Arc<[(i32, i32)]>;

/// What the cache keeps per (floor stack, meeple on top).
#[derive(Default)]
pub(super) struct StackAnswers {
    pub(super) may_place: Vec<Option<Kept<bool>>>,
    pub(super) may_top: Option<Kept<bool>>,
    pub(super) reach: Option<Kept<i64>>,
    pub(super) range: Option<Kept<Cells>>,
    /// `may_capture` answers per (stands on, owner), kept under what each
    /// call read beyond that (see `reads`).
    pub(super) captures: Vec<(u8, u8, Node<Kept<bool>>)>,
}

/// Floor kinds are below 32, so these marks never clash with a floor.
const NO_MEEPLE_MARK: u8 = 0xF0;
const MEEPLE_MARK: u8 = 0xF1;

#[derive(Default)]
pub(super) struct Cache {
    /// Keyed by the floor stack followed by a meeple mark.
    pub(super) stacks: FxHashMap<Vec<u8>, StackAnswers>,
    pub(super) ransom: FxHashMap<(u32, u32), Kept<Option<u32>>>,
    pub(super) setup: FxHashMap<(usize, usize), Kept<Vec<u32>>>,
    /// Per (players, foundation tiles, seat).
    pub(super) seats: FxHashMap<(usize, usize, usize), Kept<Vec<u32>>>,
}

impl ScriptRules {
    /// A kept answer of `hook`, charged at what it cost.
    pub(super) fn hit<T>(&self, hook: Hook, kept: Kept<T>) -> Result<T> {
        self.charge(hook, kept.cost)?;
        Ok(kept.answer)
    }

    /// `answer`, to keep, with what it cost since the game's hooks had
    /// spent `before` (a reading of [`ScriptRules::spent`]).
    pub(super) fn kept<T>(&self, answer: T, before: u64) -> Kept<T> {
        Kept {
            answer,
            cost: self.spent() - before,
        }
    }

    /// Run `f` on the cached answers for a floor stack (and whether a meeple
    /// stands on top). The key is built on the stack: a cache hit allocates
    /// nothing.
    pub(super) fn entry<T>(
        &self,
        floors: &[FloorKind],
        meeple: bool,
        f: impl FnOnce(&mut StackAnswers) -> T,
    ) -> T {
        let mut cache = self.cache.borrow_mut();
        let marker = if meeple { MEEPLE_MARK } else { NO_MEEPLE_MARK };
        let mut small = [0u8; 32];
        let heap;
        let key: &[u8] = if floors.len() < small.len() {
            small[..floors.len()].copy_from_slice(floors);
            small[floors.len()] = marker;
            &small[..=floors.len()]
        } else {
            heap = [floors, &[marker]].concat();
            &heap
        };
        if let Some(e) = cache.stacks.get_mut(key) {
            return f(e);
        }
        f(cache.stacks.entry(key.to_vec()).or_default())
    }

    pub(super) fn cached_reach(&self, floors: &[FloorKind], meeple: bool) -> Result<i64> {
        if let Some(r) = self.entry(floors, meeple, |e| e.reach) {
            return self.hit(Hook::Reach, r);
        }
        let before = self.spent();
        let tower = self.tower_info(floors, meeple, None);
        let v = self.call(Hook::Reach, vec![Dynamic::from(tower)], None)?;
        let reach = v
            .as_int()
            .map_err(|t| self.wrong_type(Hook::Reach, &v, t, "an integer"))?;
        let kept = self.kept(reach, before);
        self.entry(floors, meeple, |e| e.reach = Some(kept));
        Ok(reach)
    }

    pub(super) fn cached_range(
        &self,
        floors: &[FloorKind],
        meeple: bool,
    ) -> Result<Arc<[(i32, i32)]>> {
        if let Some(r) = self.entry(floors, meeple, |e| e.range.clone()) {
            return self.hit(Hook::Range, r);
        }
        let before = self.spent();
        let reach = self.cached_reach(floors, meeple)?;
        let tower = self.tower_info(floors, meeple, None);
        let v = self.call(
            Hook::Range,
            vec![Dynamic::from(tower), Dynamic::from(reach)],
            None,
        )?;
        let cells: Arc<[(i32, i32)]> = v
            .read_lock::<Array>()
            .and_then(|a| a.iter().map(cell_of).collect::<Option<Vec<_>>>())
            .ok_or_else(|| {
                self.wrong_type(
                    Hook::Range,
                    &v,
                    v.type_name(),
                    "an array of [dx, dy] pairs of integers",
                )
            })?
            .into();
        let kept = self.kept(cells.clone(), before);
        self.entry(floors, meeple, |e| e.range = Some(kept));
        Ok(cells)
    }

    /// The variant's whole range for this tower's stack, from the cache.
    pub(super) fn range_of_stack(
        &self,
        tower: &TowerInfo,
    ) -> Result<Arc<[(i32, i32)]>, Box<EvalAltResult>> {
        let floors = self.stack_of(tower)?;
        self.cached_range(&floors, tower.has_meeple)
            .map_err(|e| rt_error(format!("{e:#}")))
    }

    pub(super) fn cells_of_stack(&self, tower: &TowerInfo) -> Result<Array, Box<EvalAltResult>> {
        let cells = self.range_of_stack(tower)?;
        Ok(cells
            .iter()
            .map(|&(x, y)| Dynamic::from(vec![Dynamic::from(x as i64), Dynamic::from(y as i64)]))
            .collect())
    }

    pub(super) fn reach_of_stack(&self, tower: &TowerInfo) -> Result<i64, Box<EvalAltResult>> {
        let floors = self.stack_of(tower)?;
        self.cached_reach(&floors, tower.has_meeple)
            .map_err(|e| rt_error(format!("{e:#}")))
    }
}

/// `may_capture` answers, kept under what each call read (see `reads`).
impl ScriptRules {
    /// The answer kept for `m` with key `(on, owner)`, if every read of its
    /// trace gives the same value now.
    pub(super) fn kept_capture(&self, m: &Moment, key: (u8, u8)) -> Option<Kept<bool>> {
        self.entry(m.floors, m.topped, |e| {
            let range = e.range.as_ref().map(|k| &k.answer);
            let (_, _, tree) = e.captures.iter().find(|c| (c.0, c.1) == key)?;
            tree.find(|r| self.read_now(m, range, r))
        })
    }

    /// Keep `answer` for `m` under the trace just recorded, unless the call
    /// read beyond what a trace records.
    pub(super) fn keep_capture(&self, m: &Moment, key: (u8, u8), answer: Kept<bool>) {
        let trace = std::mem::take(&mut self.reads.borrow_mut().trace);
        if !self.read_context.get() {
            self.entry(m.floors, m.topped, |e| {
                match e.captures.iter_mut().find(|c| (c.0, c.1) == key) {
                    Some((_, _, tree)) => tree.add(&trace, answer),
                    None => e.captures.push((key.0, key.1, Node::of(&trace, answer))),
                }
            });
        }
        self.reads.borrow_mut().trace = trace;
    }
}
