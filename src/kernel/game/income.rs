//! What the rules' own `points` effects paid each seat: in all, and turn by
//! turn over the last round. The kernel keeps it for the bots, which
//! project a seat's recent income over the turns left (a rule that pays at
//! every turn's end pays again); no rule reads it. What the rules pay when
//! a tile is drawn is in the total but not in the round's income: it came
//! with a draw no one could foresee, and the bots weigh it by what the
//! undrawn tiles would pay (a toll paid at one draw is no income of every
//! turn to come).

/// Points each seat received from the rules' `points` effects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleIncome {
    /// Per seat, since the game began.
    total: Vec<i64>,
    /// `turns[slot * seats + seat]`: what the seat received during the
    /// turn of `slot`, the last `seats` turns (one round) kept.
    turns: Vec<i64>,
    /// The slot of the turn under way.
    slot: usize,
    /// Whether the rules are answering a draw (`tile_drawn`): what they
    /// pay then is left out of the round's income.
    at_draw: bool,
}

impl RuleIncome {
    /// Nothing received yet, at a table of `seats`.
    pub fn new(seats: usize) -> RuleIncome {
        RuleIncome {
            total: vec![0; seats],
            turns: vec![0; seats * seats],
            slot: 0,
            at_draw: false,
        }
    }

    fn seats(&self) -> usize {
        self.total.len()
    }

    /// `seat` received `points` (negative: lost them) during this turn.
    pub(super) fn receive(&mut self, seat: usize, points: i64) {
        let n = self.seats();
        if seat < n {
            self.total[seat] += points;
            if !self.at_draw {
                self.turns[self.slot * n + seat] += points;
            }
        }
    }

    /// The rules begin (`true`) or end answering a draw: what they pay
    /// meanwhile is no income of the round.
    pub(super) fn at_draw(&mut self, drawing: bool) {
        self.at_draw = drawing;
    }

    /// A turn ended: the next one is counted apart, and the turn a round
    /// ago is forgotten.
    pub(super) fn next_turn(&mut self) {
        let n = self.seats();
        if n == 0 {
            return;
        }
        self.slot = (self.slot + 1) % n;
        self.turns[self.slot * n..(self.slot + 1) * n].fill(0);
    }

    /// What `seat` received since the game began.
    pub fn total(&self, seat: usize) -> i64 {
        self.total.get(seat).copied().unwrap_or(0)
    }

    /// What `seat` received over the last round: the turn under way and
    /// the turns before it, one of every seat's.
    pub fn last_round(&self, seat: usize) -> i64 {
        let n = self.seats();
        if seat >= n {
            return 0;
        }
        (0..n).map(|slot| self.turns[slot * n + seat]).sum()
    }

    pub(super) fn copy_from(&mut self, source: &RuleIncome) {
        self.total.clone_from(&source.total);
        self.turns.clone_from(&source.turns);
        self.slot = source.slot;
        self.at_draw = source.at_draw;
    }
}

#[cfg(test)]
mod tests {
    use super::RuleIncome;

    #[test]
    fn a_round_of_turns_is_kept_and_the_one_before_forgotten() {
        let mut income = RuleIncome::new(2);
        income.receive(0, 3);
        income.receive(1, 1);
        income.next_turn();
        income.receive(0, 2);
        assert_eq!(income.last_round(0), 5, "this turn and the one before");
        assert_eq!(income.last_round(1), 1);
        income.next_turn();
        assert_eq!(income.last_round(0), 2, "the turn a round ago is gone");
        assert_eq!(income.last_round(1), 0);
        assert_eq!(income.total(0), 5, "the total keeps everything");
        income.receive(1, -4);
        assert_eq!(income.last_round(1), -4, "a loss counts against it");
        assert_eq!(income.total(7), 0, "no such seat: nothing");
        assert_eq!(income.last_round(7), 0);
    }

    #[test]
    fn what_a_draw_pays_is_in_the_total_and_no_income_of_the_round() {
        let mut income = RuleIncome::new(2);
        income.receive(0, 1);
        income.at_draw(true);
        income.receive(0, 6);
        income.at_draw(false);
        income.receive(0, 2);
        assert_eq!(income.total(0), 9);
        assert_eq!(income.last_round(0), 3, "the draw's 6 left out");
    }
}
