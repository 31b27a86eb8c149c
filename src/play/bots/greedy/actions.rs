//! Weighing the turn's one action (T3): a meeple on the new tile, a floor
//! (its capture and the threats it ends), or a meeple closing a tower.

use anyhow::Result;

use super::value::neighbours;
use super::{Ctx, GreedyBot, TIE};
use crate::kernel::game::CLOISTER_NEIGHBOURS;
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{Action, FloorKind, Game, MeepleSpot};
use crate::play::bots::Sight;

impl GreedyBot {
    pub(super) fn value_actions(&mut self, game: &Game, actions: &[Action]) -> Result<()> {
        let ctx = self.ctx(game);
        self.index_meeples(game);
        self.index_threats(game, &ctx)?;
        self.stake.clear();
        let threatened = self.threat.iter().fold(0, |all, &m| all | m);
        self.stakes_for(game, &ctx, threatened);
        let me = &game.players()[ctx.me];
        let supply = me.meeples as u32;
        let base = self.threat_loss(&ctx, usize::MAX, 0);
        self.values.clear();
        // The best value so far: a tower option whose upper bound falls
        // short of it is not worked out in full — unless the look adds
        // what the rules pay, which may lift any option.
        let mut best = f32::NEG_INFINITY;
        let prune = !self.exact;
        for &action in actions {
            let v = match action {
                Action::Pass => 0.0,
                Action::Meeple { segment } => {
                    self.value_meeple(game, &ctx, segment, supply, base)?
                }
                Action::Floor { tower, kind } => {
                    let t = tower as usize;
                    let capture = self.best_capture(game, &ctx, t, kind)?;
                    let later = self.later_capture(game, &ctx, t, kind)?;
                    let cost = ctx.w.floor(kind as usize) * ctx.meeple_future;
                    // At best the floor ends every threat from this tower.
                    let bound = capture + later + base - self.threat_loss(&ctx, t, 0) - cost;
                    if bound < best - TIE {
                        self.values.push(f32::NEG_INFINITY);
                        continue;
                    }
                    let mask = self.threat_after_floor(game, &ctx, t, kind)?;
                    let protect = base - self.threat_loss(&ctx, t, mask);
                    capture + later + protect - cost
                }
                Action::TowerMeeple { tower } => {
                    let t = tower as usize;
                    let cost = Self::meeple(&ctx, supply);
                    if base - self.threat_loss(&ctx, t, 0) - cost < best - TIE {
                        self.values.push(f32::NEG_INFINITY);
                        continue;
                    }
                    let tw = &game.towers()[t];
                    let mask = self.threat_if(game, &ctx, t, &tw.floors, Some(ctx.me))?;
                    self.stakes_for(game, &ctx, mask);
                    let mut loss = self.threat_loss(&ctx, t, mask);
                    if self.spot_threatened(game, tw.pos, MeepleSpot::Tower, t)? {
                        loss = loss.max(ctx.threat_chance * cost);
                    }
                    base - loss - cost
                }
            };
            if prune {
                best = best.max(v);
            }
            self.values.push(v);
        }
        Ok(())
    }

    /// The threat on tower `t` once the bot's floor of `kind` is on it: none
    /// when no opponent could add a floor then; else the threat of the stack
    /// it would then be (what the next floor could capture, as the rules
    /// answer it), or with [`Sight::Baseline`] the threat as it stands.
    fn threat_after_floor(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        t: usize,
        kind: FloorKind,
    ) -> Result<u64> {
        let tw = &game.towers()[t];
        let meeple = tw.meeple.map(usize::from);
        let mut stack = std::mem::take(&mut self.hyp);
        stack.clear();
        stack.extend_from_slice(&tw.floors);
        stack.push(kind);
        let mask = match self.raisable(game, ctx, t, &stack, meeple) {
            Ok(false) => Ok(0),
            Ok(true) if self.sight == Sight::Baseline => Ok(self.threat[t]),
            Ok(true) => self.threat_if(game, ctx, t, &stack, meeple),
            Err(e) => Err(e),
        };
        self.hyp = stack;
        let mask = mask?;
        self.stakes_for(game, ctx, mask);
        Ok(mask)
    }

    /// A meeple on segment `segment` of the tile just placed.
    /// `base`: the expected loss from the threats as they stand.
    pub(super) fn value_meeple(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        segment: u8,
        supply: u32,
        base: f32,
    ) -> Result<f32> {
        let Some(pos) = game.board().tiles().last().map(|t| t.pos) else {
            return Ok(0.0);
        };
        let Some(id) = game.segment_id(pos, segment) else {
            return Ok(0.0);
        };
        let fs = game.features();
        let root = fs.root(id);
        let value = self.feature_value(ctx, game, root);
        let complete = match fs.kind(root) {
            SegmentKind::Road | SegmentKind::City => fs.is_complete(root),
            SegmentKind::Cloister => neighbours(game, pos) >= CLOISTER_NEIGHBOURS,
            _ => false,
        };
        if complete {
            // Scored this turn; the meeple comes straight back (G7).
            return Ok(value);
        }
        let cost = Self::meeple(ctx, supply);
        let exposed =
            if self.spot_threatened(game, pos, MeepleSpot::Segment(segment), usize::MAX)? {
                (ctx.threat_chance * (value + Self::meeple(ctx, supply)) - base).max(0.0)
            } else {
                0.0
            };
        Ok(value - cost - exposed)
    }
}
