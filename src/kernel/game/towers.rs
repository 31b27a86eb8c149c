//! Towers (T5, T6, T8–T11): the rules' answers kept per tower, the capture
//! by a floor just placed, the exchange of prisoners, and ransom.

use anyhow::{Result, bail, ensure};

use super::{CaptureChoice, Event, Game, RansomChoice, meeple_on};
use crate::kernel::capture::capturable;
use crate::kernel::pieces::MeepleSpot;
use crate::kernel::rules::FloorKind;

impl Game<'_> {
    /// Ask the rules again about a tower that changed.
    pub(super) fn refresh_tower(&mut self, t: usize) -> Result<()> {
        let view = self.towers[t].stack();
        let mut allowed = 0u32;
        for k in 0..self.rules.floor_kinds().len() {
            if self.rules.may_place_floor(&view, k as FloorKind)? {
                allowed |= 1 << k;
            }
        }
        let may_top = self.rules.may_top(&view)?;
        let tower = &mut self.towers[t];
        tower.allowed_floors = allowed;
        tower.may_top = may_top;
        Ok(())
    }

    // ---- ransom (T11) -------------------------------------------------

    /// The ransoms the current player may pay now, after `Decline`.
    pub fn ransom_choices(&self, out: &mut Vec<RansomChoice>) -> Result<()> {
        out.clear();
        out.push(RansomChoice::Decline);
        let me = self.current;
        let n = self.players.len();
        let score = self.players[me].score;
        for captor in 0..n {
            if captor == me || self.prisoners(captor, me) == 0 {
                continue;
            }
            if let Some(cost) = self.rules.ransom_cost(score, self.ransoms_paid)?
                && cost <= score
            {
                out.push(RansomChoice::Pay {
                    captor: captor as u8,
                    cost,
                });
            }
        }
        Ok(())
    }

    /// The current player buys back one meeple held by `captor` (T11).
    pub fn pay_ransom(&mut self, captor: usize) -> Result<()> {
        let me = self.current;
        ensure!(
            captor < self.players.len() && captor != me && self.prisoners(captor, me) > 0,
            "player {captor} holds no prisoner of player {me}"
        );
        let score = self.players[me].score;
        let Some(cost) = self.rules.ransom_cost(score, self.ransoms_paid)? else {
            bail!("no ransom is allowed now");
        };
        ensure!(
            cost <= score,
            "a ransom of {cost} would take the score of {score} below 0"
        );
        let n = self.players.len();
        self.prisoners[captor * n + me] -= 1;
        self.players[me].meeples += 1;
        self.players[me].score -= cost;
        self.players[captor].score += cost;
        self.ransoms_paid += 1;
        self.stats.ransoms += 1;
        self.stats.ransom_points += cost;
        self.emit(|g| Event::Ransom {
            player: me,
            to: captor,
            cost,
            scores: g.scores(),
        });
        Ok(())
    }

    // ---- capture and exchange (T5, T9, T10) -----------------------------

    /// The meeples the floor just placed may capture, after `Decline`; only
    /// `Decline` when no floor awaits its capture.
    pub fn capture_choices(&mut self, out: &mut Vec<CaptureChoice>) -> Result<()> {
        out.clear();
        out.push(CaptureChoice::Decline);
        self.find_capturable()?;
        out.extend(
            self.capturable
                .iter()
                .map(|&meeple| CaptureChoice::Take { meeple }),
        );
        Ok(())
    }

    /// Ask the rules which meeples the floor just placed may take (T5, T6,
    /// T9), unless already asked this turn.
    fn find_capturable(&mut self) -> Result<()> {
        let Some(t) = self.capture_tower else {
            self.capturable.clear();
            return Ok(());
        };
        if self.capturable_known {
            return Ok(());
        }
        let tower = self.towers[t].view();
        let (tiles, board) = (self.tiles, &self.board);
        capturable(
            self.rules,
            &tower,
            board,
            &self.meeples,
            |_, m| meeple_on(tiles, board, m.pos, m.spot),
            &mut self.range,
            &mut self.capturable,
        )?;
        self.capturable_known = true;
        Ok(())
    }

    /// Capture the meeple at index `meeple` of [`Game::meeples`] with the
    /// floor just placed (T5): an opponent's becomes a prisoner, one's own goes
    /// back to supply; then prisoners are exchanged if both sides hold one
    /// (T10).
    pub fn capture(&mut self, meeple: usize) -> Result<()> {
        ensure!(
            self.capture_tower.is_some(),
            "no floor was just placed (T5)"
        );
        self.find_capturable()?;
        ensure!(
            self.capturable.contains(&(meeple as u16)),
            "that meeple is not in the tower's range, or the rules protect it"
        );
        let t = self.capture_tower.take().expect("checked");
        let me = self.current;
        let m = self.meeples.swap_remove(meeple);
        let on = self.meeple_on(m.pos, m.spot);
        match m.spot {
            MeepleSpot::Segment(s) => {
                let id = self.segment_id(m.pos, s).expect("meeples stand on tiles");
                self.features.remove_meeple(id);
            }
            MeepleSpot::Tower => {
                let other = self.tower_at(m.pos).expect("tower meeples stand on towers");
                self.towers[other].meeple = None;
                self.refresh_tower(other)?;
            }
        }
        let owner = m.owner as usize;
        self.emit(|g| Event::Capture {
            player: me,
            tower: g.towers[t].pos,
            floors: g.towers[t].floors.clone(),
            at: m.pos,
            spot: m.spot,
            on,
            owner,
        });
        if owner == me {
            self.players[me].meeples += 1;
            self.stats.own_captures += 1;
        } else {
            let n = self.players.len();
            self.prisoners[me * n + owner] += 1;
            self.stats.captures += 1;
            self.exchange(me, owner);
        }
        Ok(())
    }

    /// T10: when two players each hold a prisoner of the other, one of each
    /// goes home at once. A player's meeples are interchangeable, so the
    /// owner's choice of which one comes back changes nothing here.
    fn exchange(&mut self, a: usize, b: usize) {
        let n = self.players.len();
        if self.prisoners[a * n + b] > 0 && self.prisoners[b * n + a] > 0 {
            self.prisoners[a * n + b] -= 1;
            self.prisoners[b * n + a] -= 1;
            self.players[a].meeples += 1;
            self.players[b].meeples += 1;
            self.stats.exchanges += 1;
            self.emit(|_| Event::Exchange { players: [a, b] });
        }
    }
}
