//! The look: what the rules pay for an option, seen by playing the option's
//! turn to its end on a copy. The greedy bot's own values weigh what the
//! kernel derives for every variant (features, meeples, floors, threats);
//! a rule that pays through its own effects (`points` at a moment, its
//! `end` scores, an income turn after turn, a payment at a draw) is seen
//! only by the evaluation's rules value ([`Evaluator::rules_value`]), which
//! the look asks of the position after the option's turn. So greedy tops
//! a tower where a guard is paid each turn, though nothing in the base
//! game's values says so.
//!
//! The look costs nothing where the rules pay nothing of their own (no
//! moment hooks, no end scores: The Tower, Black Tower; or moment hooks
//! that pay no points and change nothing the values weigh). A turn is finished
//! by the bot's own values without the look; no tile is drawn, so the deck's
//! order is never read (the copy's undrawn tiles are sorted besides).

use anyhow::Result;

use crate::kernel::rules::asks;
use crate::kernel::{Bot, Buffers, Decision, Game, Turn};
use crate::play::bots::Evaluator;
use crate::play::bots::eval::Values;
use crate::rules::Worths;

/// Placements looked at: the best this many by the bot's own values (a
/// tile's placements are many; what the rules pay is mostly in the action).
const PLACEMENTS: usize = 6;

/// Whether the rules may pay anything the bot's own values cannot see,
/// weighed with `worths`: they give end scores, or they act at a moment
/// and either pay points there or do something `worths` weighs in the
/// rules' value (a guard, the packs' state). Rules that act without paying
/// (they place a meeple, set a state no value weighs) add the same
/// nothing to every option, so their options' turns are not played out.
pub(super) fn rules_pay(game: &Game, worths: &Worths) -> bool {
    let listens = game.rules().listens();
    let acting_pays = listens & asks::PAYS_POINTS != 0 || worths.weighs_holdings();
    listens & asks::END_SCORES != 0 || (listens & asks::MOMENTS != 0 && acting_pays)
}

/// What the look keeps between decisions.
pub(super) struct Look {
    eval: Evaluator,
    /// Plays the rest of a looked-at turn (the bot's own values alone).
    finish: Box<dyn Bot>,
    buf: Buffers,
    /// The options looked at, best own value first.
    order: Vec<usize>,
}

impl Look {
    pub(super) fn new(eval: Evaluator, finish: Box<dyn Bot>) -> Look {
        Look {
            eval,
            finish,
            buf: Buffers::default(),
            order: Vec::new(),
        }
    }

    /// The options of `decision` to look at, given the bot's own `values`
    /// of them: the best first, every one with a value, but only the best
    /// few of a placement's. Hand the list back with [`Look::done_with`].
    pub(super) fn options(&mut self, decision: Decision, values: &[f32]) -> Vec<usize> {
        let cap = match decision {
            Decision::Placement { .. } => PLACEMENTS,
            _ => usize::MAX,
        };
        self.order.clear();
        self.order
            .extend((0..values.len()).filter(|&i| values[i].is_finite()));
        self.order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        self.order.truncate(cap);
        std::mem::take(&mut self.order)
    }

    /// The list [`Look::options`] gave, kept for the next decision's.
    pub(super) fn done_with(&mut self, options: Vec<usize>) {
        self.order = options;
    }

    /// What the rules pay each seat ([`Evaluator::rules_value`]) once
    /// option `i` of `decision` is taken on a copy of `base` and its turn
    /// played to the end. The copy is made in `copy`, which the options of
    /// one decision share: copying into it again reuses its lists, where a
    /// new copy would allocate each of them (a fifth of a search's work
    /// under a rule that acts).
    pub(super) fn turn<'g>(
        &mut self,
        (base, copy): (&Game<'g>, &mut Option<Game<'g>>),
        decision: Decision,
        i: usize,
    ) -> Result<Values> {
        let g = match copy {
            Some(g) => {
                g.clone_from(base);
                g
            }
            None => copy.insert(base.clone()),
        };
        let mut turn = Turn::at(decision, &mut self.buf);
        let mut over = turn.choose(g, &mut self.buf, i)?;
        while !over {
            let next = turn.decision(&self.buf);
            let j = self.finish.decide(g, next)?;
            over = turn.choose(g, &mut self.buf, j)?;
        }
        self.eval.rules_value(g)
    }
}
