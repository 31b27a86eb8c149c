//! Towers (T5, T6, T8–T11): the rules' answers kept per tower, the capture
//! by a floor just placed, the exchange of prisoners, and ransom.

use std::cell::Cell;

use anyhow::{Result, bail, ensure};

use super::scoring::refused_score;
use super::{CaptureChoice, Event, Game, MAX_PLAYERS, RansomChoice, Scored, meeple_on};
use crate::kernel::capture::capturable;
use crate::kernel::diag::bad_input;
use crate::kernel::effects::Moment;
use crate::kernel::pieces::MeepleSpot;
use crate::kernel::rules::{
    Answer, Asking, CaptureOutcome, FloorKind, Holds, MeepleView, RansomView, TOP_QUESTION,
};

/// The bit of the question "may a meeple go on top?".
pub(super) const TOP: u64 = 1 << TOP_QUESTION;

/// A seat's answers about a tower that hold until the standings change, as
/// asked so far at the standings `at`. Each word in a cell of its own, so
/// that the kept answers are read without copying the whole (the path of
/// almost every turn under a rule that reads the standings).
#[derive(Clone, Debug, Default)]
pub(super) struct StandingAnswers {
    at: Cell<u32>,
    /// Per seat, bit q: question q asked.
    asked: [Cell<u64>; MAX_PLAYERS],
    /// Per seat, bit q: its answer was yes.
    yes: [Cell<u64>; MAX_PLAYERS],
}

impl StandingAnswers {
    /// Nothing asked yet at the standings `at`.
    fn forget(&self, at: u32) {
        self.at.set(at);
        self.asked.iter().chain(&self.yes).for_each(|c| c.set(0));
    }
}

impl Game<'_> {
    /// Ask the rules again about a tower that changed: every question some
    /// seat could use for seat 0 (each floor kind a seat holds, then the top
    /// while no meeple stands there), then the other seats for the answers
    /// that were seat 0's own — once for all when the answer says it holds
    /// for all (as the shipped packs' do). A question no seat could use is
    /// asked when it is needed, if ever (a floor supply only shrinks).
    pub(super) fn refresh_tower(&mut self, t: usize) -> Result<()> {
        let n = self.players.len();
        let wanted = self.questions_in_use(t);
        let mut first = std::mem::take(&mut self.tower_answers);
        first.clear();
        let asked = self.with_table(|table| {
            let tower = &self.towers[t];
            let asking = Asking {
                seat: 0,
                owner: tower.meeple.map(usize::from),
                tower: Some(tower.pos),
                table,
            };
            self.rules
                .tower_answers(&tower.stack(), &asking, wanted, &mut first)
        });
        let spread =
            asked.and_then(|()| spread_answers(n, &first, |seat, q| self.ask_tower(t, q, seat)));
        self.tower_answers = first;
        let spread = spread?;
        let standing = (spread.by_standings != 0).then(|| {
            Box::new(StandingAnswers {
                at: Cell::new(self.standings),
                asked: spread.asked.map(|a| Cell::new(a & spread.by_standings)),
                yes: spread.yes.map(|y| Cell::new(y & spread.by_standings)),
            })
        });
        self.towers[t].answers = super::TowerAnswers {
            lasting: spread.yes,
            now: spread.now,
            by_standings: spread.by_standings,
            standing,
        };
        Ok(())
    }

    /// The questions about tower `t` some seat could use now or later: each
    /// floor kind a seat holds, and the top while no meeple stands there.
    fn questions_in_use(&self, t: usize) -> u64 {
        let floors = (0..self.players.len()).fold(0, |bits, p| bits | self.floors_at_hand(p));
        let top = if self.towers[t].meeple.is_none() {
            TOP
        } else {
            0
        };
        floors | top
    }

    /// The rules' answer to question `q` (a floor kind's bit, or the top's)
    /// about tower `t`, for `seat`.
    fn ask_tower(&self, t: usize, q: u32, seat: usize) -> Result<Answer> {
        let tower = &self.towers[t];
        let owner = tower.meeple.map(usize::from);
        self.with_table(|table| {
            let asking = Asking {
                seat,
                owner,
                tower: Some(tower.pos),
                table,
            };
            if q == TOP_QUESTION {
                self.rules.may_top(&tower.stack(), &asking)
            } else {
                self.rules
                    .may_place_floor(&tower.stack(), q as FloorKind, &asking)
            }
        })
    }

    /// `seat`'s answers (bit q: yes) to the questions `questions` about
    /// tower `t` now: those kept since the tower last changed (or, for
    /// answers that hold until the standings change, since they last
    /// changed), the others asked again.
    // Inlined: the kept answers are the path of almost every call, a few
    // instructions that a call would double.
    #[inline(always)]
    pub(super) fn answers(&self, t: usize, seat: usize, questions: u64) -> Result<u64> {
        let tower = &self.towers[t];
        if tower.blocked {
            return Ok(0);
        }
        let kept = &tower.answers;
        let not_lasting = questions & (kept.now | kept.by_standings);
        if not_lasting == 0 {
            return Ok(kept.lasting[seat] & questions);
        }
        // Under a rule that reads the standings, most calls: every answer
        // kept at the standings of the moment.
        if let Some(s) = kept.standing.as_deref()
            && not_lasting & kept.now == 0
            && s.at.get() == self.standings
            && not_lasting & !s.asked[seat].get() == 0
        {
            return Ok(
                kept.lasting[seat] & questions & !not_lasting | s.yes[seat].get() & not_lasting
            );
        }
        self.answers_asked(t, seat, questions)
    }

    /// [`Game::answers`] where some must be asked again.
    #[inline(never)]
    fn answers_asked(&self, t: usize, seat: usize, questions: u64) -> Result<u64> {
        let kept = &self.towers[t].answers;
        let mut yes = kept.lasting[seat] & questions & !(kept.now | kept.by_standings);
        let standings = questions & kept.by_standings;
        let standing = kept.standing.as_deref().filter(|_| standings != 0);
        // Those asked at other standings are asked again.
        if let Some(s) = standing
            && s.at.get() != self.standings
        {
            s.forget(self.standings);
        }
        let (mut asked, mut said) =
            standing.map_or((0, 0), |s| (s.asked[seat].get(), s.yes[seat].get()));
        yes |= said & standings;
        let mut ask = questions & kept.now | standings & !asked;
        while ask != 0 {
            let q = ask.trailing_zeros();
            let bit = ask & ask.wrapping_neg();
            ask &= ask - 1;
            let answer = self.ask_tower(t, q, seat)?;
            yes |= if answer.yes { bit } else { 0 };
            if standings & bit != 0 && answer.holds <= Holds::Standings {
                asked |= bit;
                said |= if answer.yes { bit } else { 0 };
            }
        }
        if let Some(s) = standing {
            s.asked[seat].set(asked);
            s.yes[seat].set(said);
        }
        Ok(yes)
    }

    /// The floor kinds (bit k) `seat` may put on tower `t` now: of those it
    /// holds, the rules allow. One call per tower where a turn lists its
    /// actions.
    pub fn floors_allowed(&self, t: usize, seat: usize) -> Result<u32> {
        Ok(self.answers(t, seat, self.floors_at_hand(seat))? as u32)
    }

    /// May `seat` put a floor of `kind` on tower `t` now?
    pub fn allows_floor(&self, t: usize, kind: FloorKind, seat: usize) -> Result<bool> {
        Ok(self.answers(t, seat, 1 << kind)? != 0)
    }

    /// May `seat` put a meeple on top of tower `t` now (none stands there,
    /// and the rules allow it)?
    pub fn allows_meeple(&self, t: usize, seat: usize) -> Result<bool> {
        Ok(self.towers[t].meeple.is_none() && self.answers(t, seat, TOP)? != 0)
    }

    /// A score or a prisoner count changed: the answers that hold until the
    /// standings change are asked again when next needed.
    pub(super) fn standings_changed(&mut self) {
        self.standings = self.standings.wrapping_add(1);
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
        let to = self.players[captor].score;
        let Some(received) = to.checked_add(cost) else {
            let why = refused_score(captor, i128::from(to) + i128::from(cost));
            return Err(bad_input(format!(
                "a ransom of {cost} {}",
                why.unwrap_or_default()
            )));
        };
        let Some(paid) = self.stats.ransom_points.checked_add(cost) else {
            return Err(bad_input(format!(
                "a ransom of {cost} would take the points paid in ransoms this game past {}",
                u32::MAX
            )));
        };
        let n = self.players.len();
        self.prisoners[captor * n + me] -= 1;
        self.players[me].meeples += 1;
        self.players[me].score -= cost;
        self.players[captor].score = received;
        self.standings_changed();
        self.ransoms_paid += 1;
        self.stats.ransoms += 1;
        self.stats.ransom_points = paid;
        let tally = &mut self.history.tallies;
        tally[me].ransoms_paid = tally[me].ransoms_paid.saturating_add(1);
        tally[me].ransom_points_paid = tally[me].ransom_points_paid.saturating_add(cost);
        let received = &mut tally[captor].ransom_points_received;
        *received = received.saturating_add(cost);
        self.emit(|g| Event::Ransom {
            player: me,
            to: captor,
            cost,
            scores: g.scores(),
        });
        self.happen(Moment::Ransom {
            payer: me,
            captor,
            cost,
        })
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
            outcome: (owner != me && outcome != CaptureOutcome::Prisoner).then_some(outcome),
        });
        let tower = self.towers[t].pos;
        if owner == me {
            self.players[me].meeples += 1;
            self.stats.own_captures += 1;
        } else {
            self.stats.captures += 1;
            self.history.tallies[me].captures += 1;
            match outcome {
                CaptureOutcome::Prisoner => {
                    let n = self.players.len();
                    self.prisoners[me * n + owner] += 1;
                    self.standings_changed();
                }
                CaptureOutcome::Home => self.players[owner].meeples += 1,
                CaptureOutcome::Gone => {}
            }
        }
        self.happen(Moment::Capture {
            captor: me,
            owner,
            tower,
            at: m.pos,
            on,
            outcome,
        })?;
        match outcome {
            CaptureOutcome::Prisoner if owner != me => self.exchange(me, owner),
            _ => Ok(()),
        }
    }

    /// Take a captured meeple's place off its feature or tower.
    pub(super) fn lift_meeple(
        &mut self,
        pos: crate::kernel::geometry::Pos,
        spot: MeepleSpot,
    ) -> Result<()> {
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
    pub(super) fn exchange(&mut self, a: usize, b: usize) -> Result<()> {
        let n = self.players.len();
        if self.prisoners[a * n + b] == 0 || self.prisoners[b * n + a] == 0 {
            return Ok(());
        }
        if !self.with_table(|t| self.rules.exchange(a, b, t))? {
            return Ok(());
        }
        self.prisoners[a * n + b] -= 1;
        self.prisoners[b * n + a] -= 1;
        self.standings_changed();
        self.players[a].meeples += 1;
        self.players[b].meeples += 1;
        self.stats.exchanges += 1;
        self.emit(|_| Event::Exchange { players: [a, b] });
        self.happen(Moment::Exchange { a, b })
    }

    /// The rules' points at the end of the game (after the features), each
    /// logged as a score; no score may go below 0.
    pub(super) fn score_end_rules(&mut self) -> Result<()> {
        let out = self.end_rule_scores()?;
        let n = self.players.len();
        for e in out {
            if e.player >= n {
                return Err(bad_input(format!(
                    "the rules' end scores name player {}, but seats are 0 to {}",
                    e.player,
                    n - 1
                )));
            }
            let score = i128::from(self.players[e.player].score) + i128::from(e.points);
            let score = match u32::try_from(score) {
                Ok(s) if refused_score(e.player, score).is_none() => s,
                _ => {
                    let why = refused_score(e.player, score).unwrap_or_default();
                    return Err(bad_input(format!(
                        "the rules' end score `{}` of {} points {why}",
                        e.feature, e.points
                    )));
                }
            };
            self.players[e.player].score = score;
            self.standings_changed();
            self.emit(|_| Event::Score {
                player: e.player,
                points: e.points,
                feature: Scored::Rule(e.feature),
                rule: None,
            });
        }
        Ok(())
    }
}

/// The answers to a tower's questions, spread to the seats as
/// [`Game::refresh_tower`] keeps them.
struct Spread {
    /// Per seat, bit q: the answer to question q was yes.
    yes: [u64; MAX_PLAYERS],
    /// Per seat, bit q: question q is answered for the seat.
    asked: [u64; MAX_PLAYERS],
    /// The questions whose answer holds only now.
    now: u64,
    /// The questions whose answer holds until the standings change.
    by_standings: u64,
}

/// The question of the `i`th of a tower's answers as
/// [`crate::kernel::rules::Rules::tower_answers`] lists them: each floor kind, then the top.
fn question_at(i: usize, answers: usize) -> u32 {
    if i + 1 == answers {
        TOP_QUESTION
    } else {
        i as u32
    }
}

/// Seat 0's answer to each question (`first`, as
/// [`crate::kernel::rules::Rules::tower_answers`] lists them), spread
/// to the seats `0..n`: a lasting answer serves every seat; one that was
/// seat 0's own is asked of each other seat (`ask(seat, question)`), the
/// shortest-lived answer of a question saying how long all of its seats'
/// hold; one that holds until the standings change is asked of another
/// seat only when that seat needs it ([`Game::answers`]), since the next
/// change of the tower or the standings may come first.
fn spread_answers(
    n: usize,
    first: &[Answer],
    mut ask: impl FnMut(usize, u32) -> Result<Answer>,
) -> Result<Spread> {
    let mut out = Spread {
        yes: [0; MAX_PLAYERS],
        asked: [0; MAX_PLAYERS],
        now: 0,
        by_standings: 0,
    };
    for (i, &a) in first.iter().enumerate() {
        let q = question_at(i, first.len());
        let bit = 1u64 << q;
        let mut note = |seat: usize, a: Answer| {
            out.asked[seat] |= bit;
            out.yes[seat] |= if a.yes { bit } else { 0 };
        };
        let mut holds = a.holds;
        if holds == Holds::Tower {
            (0..n).for_each(|seat| note(seat, a));
            continue;
        }
        if holds == Holds::Standings {
            note(0, a);
            out.by_standings |= bit;
            continue;
        }
        if holds != Holds::Now {
            note(0, a);
            for seat in 1..n {
                let a = ask(seat, q)?;
                holds = holds.max(a.holds);
                if holds == Holds::Now {
                    break;
                }
                note(seat, a);
            }
        }
        match holds {
            Holds::Now => out.now |= bit,
            Holds::Standings => out.by_standings |= bit,
            Holds::Tower | Holds::Seat => {}
        }
    }
    Ok(out)
}
