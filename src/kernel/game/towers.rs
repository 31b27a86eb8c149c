//! Towers (T5, T6, T8–T11): the rules' answers kept per tower, the capture
//! by a floor just placed, the exchange of prisoners, and ransom.

use anyhow::{Result, bail, ensure};

use super::{CaptureChoice, Event, Game, MAX_PLAYERS, RansomChoice, meeple_on};
use crate::kernel::capture::capturable;
use crate::kernel::diag::bad_input;
use crate::kernel::pieces::MeepleSpot;
use crate::kernel::rules::{
    Answer, Asking, CaptureOutcome, FloorKind, Holds, MeepleView, RansomView,
};

impl Game<'_> {
    /// Ask the rules again about a tower that changed: every answer for
    /// seat 0 (each floor kind, then the top), then the other seats for the
    /// answers that were seat 0's own — once for all when the answer says
    /// it holds for all (as the shipped packs' do).
    pub(super) fn refresh_tower(&mut self, t: usize) -> Result<()> {
        let n = self.players.len();
        let mut first = std::mem::take(&mut self.tower_answers);
        let tower = &self.towers[t];
        let (stack, owner) = (tower.stack(), tower.meeple.map(usize::from));
        let answers = self.with_table(|table| {
            let asking = |seat| Asking { seat, owner, table };
            first.clear();
            for k in 0..self.rules.floor_kinds().len() {
                first.push(
                    self.rules
                        .may_place_floor(&stack, k as FloorKind, &asking(0))?,
                );
            }
            let top = self.rules.may_top(&stack, &asking(0))?;
            let floors = spread(n, &first, |seat, k| {
                self.rules.may_place_floor(&stack, k, &asking(seat))
            })?;
            // The top is one question more: bit 0 of each seat's answers.
            let (tops, now_top) = spread(n, &[top], |seat, _| {
                self.rules.may_top(&stack, &asking(seat))
            })?;
            let seats = (0..n).fold(0u8, |seats, s| seats | ((tops[s] & 1) as u8) << s);
            Ok::<_, anyhow::Error>((floors, (seats, now_top != 0)))
        });
        self.tower_answers = first;
        let ((allowed, now_floors), (may_top, now_top)) = answers?;
        self.towers[t].answers = super::TowerAnswers {
            allowed_floors: allowed,
            may_top,
            now_floors,
            now_top,
        };
        Ok(())
    }

    /// The floor kinds (bit k) `seat` may put on tower `t` now: the answers
    /// kept since the tower last changed, those that hold only now asked
    /// again. One call per tower where a turn lists its actions.
    pub fn floors_allowed(&self, t: usize, seat: usize) -> Result<u32> {
        let answers = &self.towers[t].answers;
        let mut allowed = answers.allowed_floors[seat] & !answers.now_floors;
        let mut now = answers.now_floors;
        while now != 0 {
            let kind = now.trailing_zeros() as FloorKind;
            now &= now - 1;
            if self.allows_floor(t, kind, seat)? {
                allowed |= 1 << kind;
            }
        }
        Ok(allowed)
    }

    /// May `seat` put a floor of `kind` on tower `t` now? The answer kept
    /// since the tower last changed, or the rules asked again when theirs
    /// holds only now.
    pub fn allows_floor(&self, t: usize, kind: FloorKind, seat: usize) -> Result<bool> {
        let tower = &self.towers[t];
        if tower.answers.now_floors & (1 << kind) == 0 {
            return Ok(tower.answers.allowed_floors[seat] & (1 << kind) != 0);
        }
        let owner = tower.meeple.map(usize::from);
        self.with_table(|table| {
            let asking = Asking { seat, owner, table };
            Ok(self
                .rules
                .may_place_floor(&tower.stack(), kind, &asking)?
                .yes)
        })
    }

    /// May `seat` put a meeple on top of tower `t` now (none stands there,
    /// and the rules allow it)?
    pub fn allows_meeple(&self, t: usize, seat: usize) -> Result<bool> {
        let tower = &self.towers[t];
        if tower.meeple.is_some() {
            return Ok(false);
        }
        if !tower.answers.now_top {
            return Ok((tower.answers.may_top >> seat) & 1 != 0);
        }
        self.with_table(|table| {
            let asking = Asking {
                seat,
                owner: None,
                table,
            };
            Ok(self.rules.may_top(&tower.stack(), &asking)?.yes)
        })
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
            if let Some(cost) = self.ransom_to(captor)?
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

    /// The rules' ransom for the current player's meeple held by `captor`.
    fn ransom_to(&self, captor: usize) -> Result<Option<u32>> {
        let ransom = RansomView {
            payer: self.current,
            captor,
            score: self.players[self.current].score,
            paid_this_turn: self.ransoms_paid,
        };
        self.with_table(|t| self.rules.ransom(&ransom, t))
    }

    /// The current player buys back one meeple held by `captor` (T11).
    pub fn pay_ransom(&mut self, captor: usize) -> Result<()> {
        let me = self.current;
        ensure!(
            captor < self.players.len() && captor != me && self.prisoners(captor, me) > 0,
            "player {captor} holds no prisoner of player {me}"
        );
        let score = self.players[me].score;
        let Some(cost) = self.ransom_to(captor)? else {
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
        let (mut range, mut found) = (
            std::mem::take(&mut self.range),
            std::mem::take(&mut self.capturable),
        );
        let (tiles, board) = (self.tiles, &self.board);
        let result = self.with_table(|table| {
            capturable(
                self.rules,
                &self.towers[t].view(),
                table,
                &self.meeples,
                |_, m| meeple_on(tiles, board, m.pos, m.spot),
                &mut range,
                &mut found,
            )
        });
        self.range = range;
        self.capturable = found;
        result?;
        self.capturable_known = true;
        Ok(())
    }

    /// Capture the meeple at index `meeple` of [`Game::meeples`] with the
    /// floor just placed (T5): an opponent's becomes what the rules say (a
    /// prisoner by default), one's own goes back to supply; then prisoners
    /// are exchanged if both sides hold one and the rules agree (T10).
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
        let me = self.current;
        let m = self.meeples[meeple];
        let owner = m.owner as usize;
        let on = self.meeple_on(m.pos, m.spot);
        let outcome = if owner == me {
            CaptureOutcome::Home
        } else {
            let view = MeepleView {
                owner,
                pos: m.pos,
                spot: m.spot,
                on,
            };
            self.with_table(|t| self.rules.capture_outcome(&view, t))?
        };
        let t = self.capture_tower.take().expect("checked");
        self.meeples.swap_remove(meeple);
        self.lift_meeple(m.pos, m.spot)?;
        if let Some(&top) = self.towers[t].floors.last() {
            super::count_kind(&mut self.stats.captures_by_top, top);
        }
        self.emit(|g| Event::Capture {
            player: me,
            tower: g.towers[t].pos,
            floors: g.towers[t].floors.clone(),
            at: m.pos,
            spot: m.spot,
            on,
            owner,
            outcome,
        });
        if owner == me {
            self.players[me].meeples += 1;
            self.stats.own_captures += 1;
            return Ok(());
        }
        self.stats.captures += 1;
        match outcome {
            CaptureOutcome::Prisoner => {
                let n = self.players.len();
                self.prisoners[me * n + owner] += 1;
                self.exchange(me, owner)?;
            }
            CaptureOutcome::Home => self.players[owner].meeples += 1,
            CaptureOutcome::Gone => {}
        }
        Ok(())
    }

    /// Take a captured meeple's place off its feature or tower.
    fn lift_meeple(&mut self, pos: crate::kernel::geometry::Pos, spot: MeepleSpot) -> Result<()> {
        match spot {
            MeepleSpot::Segment(s) => {
                let id = self.segment_id(pos, s).expect("meeples stand on tiles");
                self.features.remove_meeple(id);
            }
            MeepleSpot::Tower => {
                let other = self.tower_at(pos).expect("tower meeples stand on towers");
                self.towers[other].meeple = None;
                self.refresh_tower(other)?;
            }
        }
        Ok(())
    }

    /// T10: when two players each hold a prisoner of the other, one of each
    /// goes home at once, unless the rules say otherwise. A player's meeples
    /// are interchangeable, so the owner's choice of which one comes back
    /// changes nothing here.
    fn exchange(&mut self, a: usize, b: usize) -> Result<()> {
        let n = self.players.len();
        if self.prisoners[a * n + b] == 0 || self.prisoners[b * n + a] == 0 {
            return Ok(());
        }
        if !self.with_table(|t| self.rules.exchange(a, b, t))? {
            return Ok(());
        }
        self.prisoners[a * n + b] -= 1;
        self.prisoners[b * n + a] -= 1;
        self.players[a].meeples += 1;
        self.players[b].meeples += 1;
        self.stats.exchanges += 1;
        self.emit(|_| Event::Exchange { players: [a, b] });
        Ok(())
    }

    /// The rules' points at the end of the game (after the features), each
    /// logged as a score; no score may go below 0.
    pub(super) fn score_end_rules(&mut self) -> Result<()> {
        let mut out = Vec::new();
        let towers: Vec<_> = self.towers.iter().map(|t| t.view()).collect();
        self.with_table(|t| self.rules.end_scores(&towers, t, &mut out))?;
        drop(towers);
        let n = self.players.len();
        for e in out {
            if e.player >= n {
                return Err(bad_input(format!(
                    "the rules' end scores name player {}, but seats are 0 to {}",
                    e.player,
                    n - 1
                )));
            }
            let score = self.players[e.player].score as i64 + e.points;
            if !(0..=u32::MAX as i64).contains(&score) {
                return Err(bad_input(format!(
                    "the rules' end score `{}` of {} points would make player {}'s score {score}: \
                     a score never goes below 0",
                    e.feature, e.points, e.player
                )));
            }
            self.players[e.player].score = score as u32;
            self.emit(|_| Event::RuleScore {
                player: e.player,
                points: e.points,
                feature: e.feature,
            });
        }
        Ok(())
    }
}

/// Seat 0's answer to each question (`first`: a floor kind's at k, or the
/// top's alone), spread to the seats `0..n` as [`refresh_tower`] keeps them:
/// the questions each seat is allowed (bit k), and those whose answer holds
/// only now (then nothing is kept, and it is asked again when needed). A
/// lasting answer serves every seat; one that was seat 0's own is asked of
/// each other seat (`ask(seat, k)`).
///
/// [`refresh_tower`]: Game::refresh_tower
fn spread(
    n: usize,
    first: &[Answer],
    mut ask: impl FnMut(usize, FloorKind) -> Result<Answer>,
) -> Result<([u32; MAX_PLAYERS], u32)> {
    let mut allowed = [0u32; MAX_PLAYERS];
    let mut now = 0u32;
    for (k, a) in first.iter().enumerate() {
        let bit = 1u32 << k;
        match a.holds {
            Holds::Tower if a.yes => allowed[..n].iter_mut().for_each(|s| *s |= bit),
            Holds::Tower => {}
            Holds::Now => now |= bit,
            Holds::Seat => {
                allowed[0] |= if a.yes { bit } else { 0 };
                for (seat, allows) in allowed.iter_mut().enumerate().take(n).skip(1) {
                    let a = ask(seat, k as FloorKind)?;
                    if a.holds == Holds::Now {
                        now |= bit;
                        break;
                    }
                    *allows |= if a.yes { bit } else { 0 };
                }
            }
        }
    }
    Ok((allowed, now))
}
