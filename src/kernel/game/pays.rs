//! What the rules pay, asked without carrying anything out: each seat's
//! points from their effects so far (kept as they are paid), their end
//! scores as the game stands, and what a tile drawn now would pay. The
//! bots weigh a position with these; the game's own scoring uses the end
//! scores alone.

use anyhow::Result;

use super::{Game, RuleIncome};
use crate::kernel::effects::{Effect, Moment};
use crate::kernel::rules::EndScore;
use crate::kernel::rules::asks;

impl Game<'_> {
    /// What the rules' `points` effects paid each seat ([`RuleIncome`]).
    pub fn rule_income(&self) -> &RuleIncome {
        &self.income
    }

    /// The rules' end scores as the game stands (`Rules::end_scores`).
    pub(super) fn end_rule_scores(&self) -> Result<Vec<EndScore>> {
        let mut out = Vec::new();
        let towers = self.towers_now();
        self.with_table(|t| self.rules.end_scores(&towers, t, &mut out))?;
        Ok(out)
    }

    /// What the rules' end scores would give each seat if the game ended
    /// now, added to `out` (one per seat), without scoring them: a bot
    /// weighs a position's end with it. Asked only of rules that answer
    /// end scores (`asks::END_SCORES`).
    pub fn end_rule_points(&self, out: &mut [f32]) -> Result<()> {
        if self.listens & asks::END_SCORES == 0 {
            return Ok(());
        }
        for e in self.end_rule_scores()? {
            if let Some(v) = out.get_mut(e.player) {
                *v += e.points as f32;
            }
        }
        Ok(())
    }

    /// The points the rules' `points` effects would pay each seat, added to
    /// `out`, were a tile of `kind` drawn now by the seat to move
    /// (`tile_drawn`), without carrying anything out: a bot weighs a rule
    /// that pays at a draw by what the undrawn tiles would pay. The effects'
    /// own cascades are not followed.
    pub fn draw_points(&self, kind: u16, out: &mut [f32]) -> Result<()> {
        let moment = Moment::TileDrawn {
            seat: self.current,
            tile: kind,
        };
        if self.listens & moment.bit() == 0 {
            return Ok(());
        }
        let mut effects = Vec::new();
        self.rules_act_at(&moment, &mut effects)?;
        for a in &effects {
            if let Effect::Points { seat, points, .. } = a.effect
                && let Some(v) = out.get_mut(seat)
            {
                *v += points as f32;
            }
        }
        Ok(())
    }
}
