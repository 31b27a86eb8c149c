//! The plain Tower (T1–T12) written natively against the kernel's
//! [`Rules`] interface. It makes games playable without any script, it is the
//! oracle the scripted `tower` pack is tested against, and the speed baseline
//! for packs. It is named `native:tower` wherever a pack is taken.

use anyhow::Result;

use crate::kernel::diag::bad_input;
use crate::kernel::{
    Answer, Asking, CaptureOutcome, EndScore, FloorKind, HookBudget, MeepleView, RansomView, Rules,
    StackView, Table, TowerView, plain,
};

/// The native reference rules of The Tower.
pub struct NativeTower {
    kinds: Vec<String>,
}

impl Default for NativeTower {
    fn default() -> Self {
        NativeTower {
            kinds: vec!["regular".to_string()],
        }
    }
}

/// T11: a ransom always costs 3 points.
pub const RANSOM_COST: u32 = 3;

/// Native rules run no hooks: nothing to count.
impl HookBudget for NativeTower {
    fn begin_game(&self, _seed: Option<u64>) {}

    fn searching(&self, _on: bool) {}
}

impl Rules for NativeTower {
    fn floor_kinds(&self) -> &[String] {
        &self.kinds
    }

    /// T1: floors per player by player count, the same for every seat.
    fn seat_supply(
        &self,
        players: usize,
        _foundation_tiles: usize,
        _seat: usize,
    ) -> Result<Vec<u32>> {
        let floors = match players {
            2 => 10,
            3 => 9,
            4 => 7,
            5 => 6,
            6 => 5,
            n => {
                return Err(bad_input(format!(
                    "The Tower is for 2 to 6 players, not {n}"
                )));
            }
        };
        Ok(vec![floors])
    }

    /// T3 (A, B), T8: onto a foundation or an open tower, no height limit (T6).
    fn may_place_floor(&self, stack: &StackView, _kind: FloorKind, _: &Asking) -> Result<Answer> {
        Ok(Answer::lasting(!stack.topped))
    }

    /// T4: only a tower of at least one floor can be closed.
    fn may_top(&self, stack: &StackView, _: &Asking) -> Result<Answer> {
        Ok(Answer::lasting(!stack.floors.is_empty()))
    }

    /// T6: the tower's tile, and as many tiles as floors in each orthogonal
    /// direction, over gaps and other towers (T7: height does nothing else).
    fn capture_range(&self, stack: &StackView, out: &mut Vec<(i32, i32)>) -> Result<()> {
        out.push((0, 0));
        let reach = stack.floors.len() as i32;
        for step in 1..=reach {
            out.extend([(0, step), (step, 0), (0, -step), (-step, 0)]);
        }
        Ok(())
    }

    /// T9: any meeple on the board, on any feature or on a tower.
    fn may_capture(
        &self,
        _tower: &TowerView,
        _meeple: &MeepleView,
        _table: &Table,
    ) -> Result<bool> {
        Ok(true)
    }

    /// T11: 3 points, once per turn.
    fn ransom(&self, ransom: &RansomView, _table: &Table) -> Result<Option<u32>> {
        Ok((ransom.paid_this_turn == 0).then_some(RANSOM_COST))
    }

    /// T5: a prisoner.
    fn capture_outcome(&self, _meeple: &MeepleView, _table: &Table) -> Result<CaptureOutcome> {
        Ok(plain::CAPTURE)
    }

    /// T10: exchanged at once.
    fn exchange(&self, _a: usize, _b: usize, _table: &Table) -> Result<bool> {
        Ok(plain::EXCHANGE)
    }

    /// T12: nothing at the end beyond the features.
    fn end_scores(&self, _: &[TowerView], _: &Table, _: &mut Vec<EndScore>) -> Result<()> {
        Ok(())
    }
}
