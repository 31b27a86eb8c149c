//! Threats from towers (T5, T6): the raises opponents could make next turn,
//! the bot's meeples each would put in range, and what losing them costs.

use anyhow::Result;

use super::{Ctx, GreedyBot, Raise};
use crate::kernel::capture::{may_take, reach_of};
use crate::kernel::geometry::Pos;
use crate::kernel::{
    Asking, FloorKind, Game, Holds, MeepleOn, MeepleSpot, MeepleView, StackView, TowerView,
};

impl GreedyBot {
    /// Push onto `raises` every way an opponent could add a floor to tower
    /// `t` standing as `stack` with `meeple` on top, with the range each
    /// floor would give; `now`: the tower stands so now (the game already
    /// holds the rules' answers).
    pub(super) fn list_raises(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        t: usize,
        stack: &[FloorKind],
        meeple: Option<usize>,
        now: bool,
    ) -> Result<()> {
        let rules = game.rules();
        let view = StackView {
            floors: stack,
            topped: meeple.is_some(),
        };
        for k in 0..rules.floor_kinds().len() {
            let k = k as FloorKind;
            let allowed = if now {
                opponent_allowed_now(game, ctx, t, k)?
            } else {
                let pos = game.towers()[t].pos;
                opponent_may_place(game, ctx, &view, meeple, pos, k)?
            };
            if !allowed {
                continue;
            }
            let s0 = self.raise_stacks.len() as u32;
            self.raise_stacks.extend_from_slice(stack);
            self.raise_stacks.push(k);
            let s1 = self.raise_stacks.len() as u32;
            let c0 = self.raise_cells.len() as u32;
            let raised = StackView {
                floors: &self.raise_stacks[s0 as usize..s1 as usize],
                topped: meeple.is_some(),
            };
            rules.capture_range(&raised, &mut self.raise_cells)?;
            let c1 = self.raise_cells.len() as u32;
            let reach = reach_of(&self.raise_cells[c0 as usize..]);
            self.raises.push(Raise {
                tower: t as u16,
                meeple,
                reach,
                stack: (s0, s1),
                cells: (c0, c1),
            });
        }
        Ok(())
    }

    /// Could `raise` capture a meeple of the bot standing at `pos` on `spot`
    /// (`on`: what it stands on), `pos` being within its reach (the callers
    /// look first, with [`in_reach`], inlined)?
    pub(super) fn raise_threatens(
        &self,
        game: &Game,
        raise: &Raise,
        pos: Pos,
        spot: MeepleSpot,
        on: MeepleOn,
    ) -> Result<bool> {
        let tower = &game.towers()[raise.tower as usize];
        let cells = &self.raise_cells[raise.cells.0 as usize..raise.cells.1 as usize];
        let view = TowerView {
            pos: tower.pos,
            floors: &self.raise_stacks[raise.stack.0 as usize..raise.stack.1 as usize],
            meeple: raise.meeple,
        };
        let mv = MeepleView {
            owner: self.me,
            pos,
            spot,
            on,
        };
        game.with_table(|table| may_take(game.rules(), &view, cells, table, &mv))
    }

    /// The bot's meeples (mask over [`Game::meeples`]) that the raises in
    /// `raises[from..]` threaten.
    pub(super) fn threatened_mask(&self, game: &Game, from: usize) -> Result<u64> {
        let mut mask = 0u64;
        for (i, m) in game.meeples().iter().enumerate().take(64) {
            if m.owner as usize != self.me {
                continue;
            }
            let on = self.placed[i].on;
            for r in &self.raises[from..] {
                if in_reach(game, r, m.pos) && self.raise_threatens(game, r, m.pos, m.spot, on)? {
                    mask |= 1 << i;
                    break;
                }
            }
        }
        Ok(mask)
    }

    /// Every raise opponents could make next turn, and the threat per tower.
    pub(super) fn index_threats(&mut self, game: &Game, ctx: &Ctx) -> Result<()> {
        self.raises.clear();
        self.raise_stacks.clear();
        self.raise_cells.clear();
        self.threat.clear();
        for (t, tower) in game.towers().iter().enumerate() {
            let from = self.raises.len();
            let meeple = tower.meeple.map(usize::from);
            self.list_raises(game, ctx, t, &tower.floors, meeple, true)?;
            let mask = self.threatened_mask(game, from)?;
            self.threat.push(mask);
        }
        Ok(())
    }

    /// What each of the bot's meeples would cost it if captured, worked out
    /// (once a decision, after `stake` was cleared) when `mask` threatens
    /// one: [`GreedyBot::threat_loss`] reads stakes only of threatened
    /// meeples, and most decisions have none.
    pub(super) fn stakes_for(&mut self, game: &Game, ctx: &Ctx, mask: u64) {
        if mask == 0 || !self.stake.is_empty() {
            return;
        }
        for i in 0..game.meeples().len() {
            let s = if game.meeples()[i].owner as usize == self.me {
                // As if the next opponent took it.
                let d = self.capture_delta(game, ctx, i, (ctx.me + 1) % ctx.n);
                -Self::net(ctx, &d)
            } else {
                0.0
            };
            self.stake.push(s.max(0.0));
        }
    }

    /// The expected loss from the threats, with tower `t`'s mask replaced by
    /// `mask_t`.
    pub(super) fn threat_loss(&self, ctx: &Ctx, t: usize, mask_t: u64) -> f32 {
        let mut all = mask_t;
        for (u, &m) in self.threat.iter().enumerate() {
            if u != t {
                all |= m;
            }
        }
        // An opponent takes one meeple a turn: the one that hurts most.
        let mut most = 0f32;
        while all != 0 {
            let i = all.trailing_zeros() as usize;
            all &= all - 1;
            most = most.max(self.stake.get(i).copied().unwrap_or(0.0));
        }
        ctx.threat_chance * most
    }

    /// The threat on tower `t` if it stood as `stack` with `meeple` on top.
    pub(super) fn threat_if(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        t: usize,
        stack: &[FloorKind],
        meeple: Option<usize>,
    ) -> Result<u64> {
        if !game.meeples().iter().any(|m| m.owner as usize == self.me) {
            return Ok(0);
        }
        let (r, s, c) = (
            self.raises.len(),
            self.raise_stacks.len(),
            self.raise_cells.len(),
        );
        self.list_raises(game, ctx, t, stack, meeple, false)?;
        let mask = self.threatened_mask(game, r);
        self.raises.truncate(r);
        self.raise_stacks.truncate(s);
        self.raise_cells.truncate(c);
        mask
    }

    /// Could an opponent add a floor to a tower standing as `stack` with
    /// `meeple` on top?
    pub(super) fn raisable(
        &self,
        game: &Game,
        ctx: &Ctx,
        t: usize,
        stack: &[FloorKind],
        meeple: Option<usize>,
    ) -> Result<bool> {
        let pos = game.towers()[t].pos;
        let view = StackView {
            floors: stack,
            topped: meeple.is_some(),
        };
        for k in 0..game.rules().floor_kinds().len() {
            if opponent_holds(game, ctx, k)
                && opponent_may_place(game, ctx, &view, meeple, pos, k as FloorKind)?
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Is a meeple of the bot at `pos` on `spot` threatened by a raise of
    /// any tower but `except`?
    pub(super) fn spot_threatened(
        &self,
        game: &Game,
        pos: Pos,
        spot: MeepleSpot,
        except: usize,
    ) -> Result<bool> {
        let on = game.meeple_on(pos, spot);
        for r in &self.raises {
            if r.tower as usize != except
                && in_reach(game, r, pos)
                && self.raise_threatens(game, r, pos, spot, on)?
            {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Is `pos` within `raise`'s reach of its tower? Inlined: most meeples are
/// out of reach of most raises, and the bot asks for every pair.
#[inline(always)]
fn in_reach(game: &Game, raise: &Raise, pos: Pos) -> bool {
    let tower = &game.towers()[raise.tower as usize];
    let d = (pos.x - tower.pos.x, pos.y - tower.pos.y);
    d.0.abs().max(d.1.abs()) <= raise.reach
}

/// Does some opponent of the bot hold a floor of kind `k`?
fn opponent_holds(game: &Game, ctx: &Ctx, k: usize) -> bool {
    opponents(ctx).any(|p| holds(game, p, k))
}

/// Could `seat` build with a floor of kind `k` (its own or the table's)?
fn holds(game: &Game, seat: usize, k: usize) -> bool {
    game.floors_at_hand(seat) & 1 << k != 0
}

/// The bot's opponents, the next seat first.
fn opponents(ctx: &Ctx) -> impl Iterator<Item = usize> + use<> {
    let (me, n) = (ctx.me, ctx.n);
    (1..n).map(move |i| (me + i) % n)
}

/// Could an opponent holding a floor of kind `k` put it on tower `t` as it
/// stands now (the game holds the rules' answers for each seat)?
fn opponent_allowed_now(game: &Game, ctx: &Ctx, t: usize, k: FloorKind) -> Result<bool> {
    for p in opponents(ctx) {
        if holds(game, p, k as usize) && game.allows_floor(t, k, p)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Could an opponent holding a floor of kind `k` put it on a tower standing
/// as `view` with `meeple` on top? The next seat is asked first, whether it
/// holds one or not: an answer that holds for every seat settles it.
fn opponent_may_place(
    game: &Game,
    ctx: &Ctx,
    view: &StackView,
    meeple: Option<usize>,
    tower: Pos,
    k: FloorKind,
) -> Result<bool> {
    let rules = game.rules();
    game.with_table(|table| {
        for (i, p) in opponents(ctx).enumerate() {
            let held = holds(game, p, k as usize);
            if i > 0 && !held {
                continue;
            }
            let asking = Asking {
                seat: p,
                owner: meeple,
                tower: Some(tower),
                table,
            };
            let a = rules.may_place_floor(view, k, &asking)?;
            if a.holds == Holds::Tower {
                return Ok(a.yes && opponent_holds(game, ctx, k as usize));
            }
            if held && a.yes {
                return Ok(true);
            }
        }
        Ok(false)
    })
}
