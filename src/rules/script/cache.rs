//! The answers a thread has had from its hooks: per (floor stack, meeple on
//! top) for the tower hooks, per arguments for `setup`, `seat` and `ransom`
//! (a `ransom` answer that read `game()` is not kept). Hooks are pure, so an
//! answer is asked for once.

use std::sync::Arc;

use anyhow::Result;
use rhai::{Array, Dynamic, EvalAltResult};
use rustc_hash::FxHashMap;

use super::api::{TowerInfo, cell_of};
use super::reads::Node;
use super::{Hook, ScriptRules, rt_error};
use crate::kernel::FloorKind;

/// What the cache keeps per (floor stack, meeple on top).
#[derive(Default)]
pub(super) struct StackAnswers {
    pub(super) may_place: Vec<Option<bool>>,
    pub(super) may_top: Option<bool>,
    pub(super) reach: Option<i64>,
    pub(super) range: Option<Arc<[(i32, i32)]>>,
    /// `may_capture` answers per (stands on, owner), kept under what each
    /// call read beyond that (see `reads`).
    pub(super) captures: Vec<(u8, u8, Node)>,
}

/// Floor kinds are below 32, so these marks never clash with a floor.
const NO_MEEPLE_MARK: u8 = 0xF0;
const MEEPLE_MARK: u8 = 0xF1;

#[derive(Default)]
pub(super) struct Cache {
    /// Keyed by the floor stack followed by a meeple mark.
    pub(super) stacks: FxHashMap<Vec<u8>, StackAnswers>,
    pub(super) ransom: FxHashMap<(u32, u32), Option<u32>>,
    pub(super) setup: FxHashMap<(usize, usize), Vec<u32>>,
    /// Per (players, foundation tiles, seat).
    pub(super) seats: FxHashMap<(usize, usize, usize), Vec<u32>>,
}

impl ScriptRules {
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
            return Ok(r);
        }
        let tower = self.tower_info(floors, meeple, None);
        let v = self.call(Hook::Reach, vec![Dynamic::from(tower)], None)?;
        let reach = v
            .as_int()
            .map_err(|t| self.wrong_type(Hook::Reach, &v, t, "an integer"))?;
        self.entry(floors, meeple, |e| e.reach = Some(reach));
        Ok(reach)
    }

    pub(super) fn cached_range(
        &self,
        floors: &[FloorKind],
        meeple: bool,
    ) -> Result<Arc<[(i32, i32)]>> {
        if let Some(r) = self.entry(floors, meeple, |e| e.range.clone()) {
            return Ok(r);
        }
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
        self.entry(floors, meeple, |e| e.range = Some(cells.clone()));
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
