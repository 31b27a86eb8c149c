//! Captures (T5, T9, T10): what taking a meeple changes for each player, the
//! best capture a floor would allow, and the best one the floor after it
//! would, through the kernel's capture question.

use anyhow::Result;

use super::{Ctx, Delta, GreedyBot, OWN_CAPTURE_MARGIN, Placed, SEATS};
use crate::kernel::capture::{capturable, reach_of};
use crate::kernel::geometry::Pos;
use crate::kernel::{Asking, FeatureId, FloorKind, Game, StackView, TowerView};
use crate::play::bots::Sight;

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

    /// What a floor of `kind` on tower `t` is worth later (with
    /// [`Sight::Ahead`]; 0 otherwise): [`Worths::later_capture`] times the best capture of an
    /// opponent's meeple the bot could make with its next floor there, of a
    /// kind it would still have at hand (its own or the table's) and the
    /// rules would let it place — not the
    /// meeple the floor itself would take ([`GreedyBot::best_capture`] for
    /// the same floor, asked just before).
    ///
    /// [`Worths::later_capture`]: crate::rules::Worths::later_capture
    pub(super) fn later_capture(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        t: usize,
        kind: FloorKind,
    ) -> Result<f32> {
        if self.sight != Sight::Ahead || ctx.w.later_capture <= 0.0 {
            return Ok(0.0);
        }
        let mut stack = std::mem::take(&mut self.later);
        let best = self.best_next_capture(game, ctx, t, kind, &mut stack);
        self.later = stack;
        Ok(ctx.w.later_capture * best?)
    }

    /// [`GreedyBot::later_capture`]'s best capture, `stack` its buffer.
    fn best_next_capture(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        t: usize,
        kind: FloorKind,
        stack: &mut Vec<FloorKind>,
    ) -> Result<f32> {
        let tower = &game.towers()[t];
        let meeple = tower.meeple.map(usize::from);
        let h = tower.floors.len() + 1;
        stack.clear();
        stack.extend_from_slice(&tower.floors);
        stack.push(kind);
        let mut best = 0f32;
        let own = &game.players()[ctx.me].floors;
        for (j, &n) in own.iter().enumerate() {
            // Its own and the table's, less the floor about to be placed.
            let at_hand = n + game.table_floors().get(j).copied().unwrap_or(0);
            if at_hand <= u32::from(j == kind as usize) {
                continue;
            }
            // Whether an opponent's meeple stands within the next floor's
            // reach first (the stack's range is kept by the rules), then
            // whether the rules let the bot build, then the captures: most
            // stacks reach nothing, and a rule's `may_place_floor` may read
            // what makes it dear to ask (every score, say).
            stack.truncate(h);
            stack.push(j as FloorKind);
            let next = StackView {
                floors: stack,
                topped: meeple.is_some(),
            };
            self.range.clear();
            game.rules().capture_range(&next, &mut self.range)?;
            if !self.theirs_within(game, ctx, tower.pos, reach_of(&self.range)) {
                continue;
            }
            let below = StackView {
                floors: &stack[..h],
                topped: meeple.is_some(),
            };
            let may = game.with_table(|table| {
                let asking = Asking {
                    seat: ctx.me,
                    owner: meeple,
                    tower: Some(tower.pos),
                    table,
                };
                game.rules()
                    .may_place_floor(&below, j as FloorKind, &asking)
            })?;
            if !may.yes {
                continue;
            }
            let view = TowerView {
                pos: tower.pos,
                floors: stack,
                meeple,
            };
            list_capturable(
                game,
                &view,
                &self.placed,
                &mut self.range,
                &mut self.capturable,
            )?;
            for c in 0..self.capturable.len() {
                let i = self.capturable[c] as usize;
                if game.meeples()[i].owner as usize != ctx.me && self.taken != Some(i) {
                    best = best.max(self.capture_value(game, ctx, i));
                }
            }
        }
        Ok(best)
    }

    /// Does a meeple of an opponent (other than the one the floor about to
    /// be placed takes) stand within `reach` of `tower`?
    fn theirs_within(&self, game: &Game, ctx: &Ctx, tower: Pos, reach: i32) -> bool {
        game.meeples().iter().enumerate().any(|(i, m)| {
            m.owner as usize != ctx.me
                && self.taken != Some(i)
                && (m.pos.x - tower.x).abs().max((m.pos.y - tower.y).abs()) <= reach
        })
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
        list_capturable(
            game,
            &view,
            &self.placed,
            &mut self.range,
            &mut self.capturable,
        )?;
        let mut best = 0f32;
        self.taken = None;
        for j in 0..self.capturable.len() {
            let i = self.capturable[j] as usize;
            let v = self.capture_value(game, ctx, i);
            if v > best {
                best = v;
                self.taken = Some(i);
            }
        }
        Ok(best)
    }
}

/// The meeples (indices into [`Game::meeples`], into `out`) a floor just
/// placed on the tower `view` would let the player to move take, the kernel's
/// capture question asked with what each meeple stands on (`placed`);
/// `range`: its buffer for the tower's range.
fn list_capturable(
    game: &Game,
    view: &TowerView,
    placed: &[Placed],
    range: &mut Vec<(i32, i32)>,
    out: &mut Vec<u16>,
) -> Result<()> {
    game.with_table(|table| {
        capturable(
            game.rules(),
            view,
            table,
            game.meeples(),
            |i, _| placed[i].on,
            range,
            out,
        )
    })
}
