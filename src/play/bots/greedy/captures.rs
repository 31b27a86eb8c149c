//! Captures (T5, T9, T10): what taking a meeple changes for each player, and
//! the best capture a floor would allow, through the kernel's capture
//! question.

use anyhow::Result;

use super::{Ctx, Delta, GreedyBot, OWN_CAPTURE_MARGIN, SEATS};
use crate::kernel::capture::capturable;
use crate::kernel::{FeatureId, FloorKind, Game, TowerView};

impl GreedyBot {
    /// The change per player if `captor` took meeple `i` (T5, T10).
    pub(super) fn capture_delta(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        i: usize,
        captor: usize,
    ) -> Delta {
        let m = game.meeples()[i];
        let owner = m.owner as usize;
        let mut d = [0f32; SEATS];
        let root = self.placed[i].root;
        if root != FeatureId::MAX {
            let before = self.counts(root);
            let mut after = before;
            after[owner] -= 1;
            let v = self.feature_value(ctx, game, root);
            Self::award(&before, -v, &mut d);
            Self::award(&after, v, &mut d);
        }
        let supply = |p: usize| game.players()[p].meeples as u32;
        if owner == captor {
            d[owner] += Self::meeple(ctx, supply(owner) + 1);
        } else if game.prisoners(owner, captor) > 0 {
            // T10: exchanged at once; both meeples go home.
            d[owner] += Self::meeple(ctx, supply(owner) + 1) - ctx.w.prisoner * ctx.meeple_future;
            d[captor] += Self::meeple(ctx, supply(captor) + 1);
        } else {
            d[captor] += ctx.w.prisoner * ctx.meeple_future;
        }
        d
    }

    /// The value to the bot of taking meeple `i` itself; taking back its own
    /// meeple must clear a margin.
    pub(super) fn capture_value(&mut self, game: &Game, ctx: &Ctx, i: usize) -> f32 {
        let d = self.capture_delta(game, ctx, i, ctx.me);
        let v = Self::net(ctx, &d);
        if game.meeples()[i].owner as usize == ctx.me {
            v - OWN_CAPTURE_MARGIN
        } else {
            v
        }
    }

    /// The best capture a floor of `kind` on tower `t` would allow.
    pub(super) fn best_capture(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        t: usize,
        kind: FloorKind,
    ) -> Result<f32> {
        let tower = &game.towers()[t];
        self.stack.clear();
        self.stack.extend_from_slice(&tower.floors);
        self.stack.push(kind);
        let view = TowerView {
            pos: tower.pos,
            floors: &self.stack,
            meeple: tower.meeple.map(usize::from),
        };
        let placed = &self.placed;
        game.with_table(|table| {
            capturable(
                game.rules(),
                &view,
                table,
                game.meeples(),
                |i, _| placed[i].on,
                &mut self.range,
                &mut self.capturable,
            )
        })?;
        let mut best = 0f32;
        for j in 0..self.capturable.len() {
            let i = self.capturable[j] as usize;
            best = best.max(self.capture_value(game, ctx, i));
        }
        Ok(best)
    }
}
