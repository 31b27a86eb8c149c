//! Sequential halving at the root: how a decision's budget is
//! shared among the root's options. Every option is a candidate (`mcts`
//! weighs up to one per iteration, the reference at most two fifths of the
//! budget of them; the best priors first); round by round each
//! candidate still in is visited equally often, then the better half by
//! [`Tree::root_score`](super::tree::Tree::root_score) stays in, until one
//! is left. With paired draws every candidate of a round meets the same
//! tiles at the same visit, so a round compares them on the same draws;
//! UCB1 instead spends most visits on the few options its priors rank
//! first, and never weighs the rest (measured in docs/bots.md).
//!
//! This schedule is written here rather than taken from a crate: it is a
//! dozen lines over the tree's own edges, and no crate offers it over a
//! search tree of ours.

use anyhow::Result;

use crate::kernel::determinize::redeal_into;
use crate::kernel::{Game, Turn};

use super::MctsBot;

/// The candidates still in, and the iterations the schedule has left. The
/// rounds to play are ⌈log₂ candidates⌉: each round halves them, rounded up.
#[derive(Default)]
pub(super) struct Halving {
    /// Root edges still in, best first after each [`Halving::narrow`].
    candidates: Vec<usize>,
    /// The `(score, edge)` pairs a narrowing sorts.
    scored: Vec<(f32, usize)>,
    /// Iterations not yet spent.
    left: u32,
}

impl Halving {
    /// A schedule for `budget` iterations over a root of `options` edges
    /// (best prior first): the first `min(options, most)` are the
    /// candidates (at least 2), and there are ⌈log₂ candidates⌉ rounds.
    /// Each round visits every candidate at least once and halves them
    /// (rounded up) while the budget lasts; a round it cannot pay for is
    /// not played, and the best of the last round is taken.
    pub(super) fn start(&mut self, options: usize, budget: u32, most: usize) {
        let m = options.min(most.max(2));
        self.candidates.clear();
        self.candidates.extend(0..m);
        self.left = budget;
    }

    /// The candidates still in.
    pub(super) fn candidates(&self) -> &[usize] {
        &self.candidates
    }

    /// The visits each candidate gets in the next round: an even share of
    /// what is left for the rounds to come, at least one; `None` once one
    /// candidate is left or the budget cannot visit them all once more.
    pub(super) fn next_round(&self) -> Option<u32> {
        let n = self.candidates.len() as u32;
        if n <= 1 || self.left < n {
            return None;
        }
        let rounds = n.next_power_of_two().trailing_zeros();
        Some((self.left / (rounds * n)).max(1))
    }

    /// A round of `each` visits per candidate was played: keep the better
    /// half (rounded up) by `score`, ties to the better prior.
    pub(super) fn narrow(&mut self, each: u32, score: impl Fn(usize) -> f32) {
        self.left -= each * self.candidates.len() as u32;
        self.scored.clear();
        self.scored
            .extend(self.candidates.iter().map(|&e| (score(e), e)));
        self.scored
            .sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let keep = self.candidates.len().div_ceil(2);
        self.candidates.clear();
        self.candidates
            .extend(self.scored[..keep].iter().map(|&(_, e)| e));
    }

    /// The candidate to take: the one left, or the best of the last round
    /// (the best prior when no round was played).
    pub(super) fn best(&self) -> usize {
        self.candidates[0]
    }
}

impl MctsBot {
    /// Share this decision's `budget` of iterations among the root's
    /// options by sequential halving (this module's documentation); the
    /// root edge to take.
    pub(super) fn halve<'a>(
        &mut self,
        g: &mut Game<'a>,
        root_game: &Game<'a>,
        root: Turn,
        budget: u32,
    ) -> Result<usize> {
        let mut h = std::mem::take(&mut self.halving);
        let most = self.schedule.most_candidates(budget);
        h.start(self.tree.edges(self.tree.root).len(), budget, most);
        let result = self.play_rounds(&mut h, g, root_game, root);
        let best = h.best();
        self.halving = h;
        result.map(|()| best)
    }

    /// The rounds of the schedule `h`: each candidate visited equally often
    /// (in turn, so their v-th visits meet the same paired draws), then the
    /// better half kept.
    fn play_rounds<'a>(
        &mut self,
        h: &mut Halving,
        g: &mut Game<'a>,
        root_game: &Game<'a>,
        root: Turn,
    ) -> Result<()> {
        while let Some(each) = h.next_round() {
            for _ in 0..each {
                for &edge in h.candidates() {
                    redeal_into(g, root_game, &mut self.rng);
                    self.iterate(g, root, edge)?;
                }
            }
            h.narrow(each, |edge| self.tree.root_score(edge));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Play a schedule of `budget` iterations weighing at most `most`
    /// options with `score`, returning the visits each edge got and the
    /// edge taken.
    fn play(
        options: usize,
        budget: u32,
        most: usize,
        score: impl Fn(usize) -> f32,
    ) -> (Vec<u32>, usize) {
        let mut h = Halving::default();
        h.start(options, budget, most);
        let mut visits = vec![0u32; options];
        while let Some(each) = h.next_round() {
            for &e in h.candidates() {
                visits[e] += each;
            }
            h.narrow(each, &score);
        }
        (visits, h.best())
    }

    #[test]
    fn the_best_scored_candidate_survives_every_round_and_the_budget_holds() {
        for (options, budget) in [
            (40, 100),
            (3, 100),
            (60, 448),
            (7, 20),
            (2, 2),
            (90, 12),
            (200, 1000),
            (90, 100),
            (150, 150),
        ] {
            // `mcts`'s schedule weighs every option, up to one per
            // iteration; the reference's two fifths of the budget.
            for most in [budget as usize, 2 * budget as usize / 5] {
                // Edge 5 (or the last candidate) scores best; priors rank
                // it lower.
                let candidates = options.min(most.max(2));
                let star = 5.min(candidates - 1);
                let (visits, best) =
                    play(options, budget, most, |e| if e == star { 1.0 } else { 0.0 });
                let case = format!("{options} options, budget {budget}, most {most}");
                assert_eq!(best, star, "{case}");
                let spent: u32 = visits.iter().sum();
                assert!(spent <= budget, "{spent} spent of {budget}: {case}");
                assert!(
                    spent * 2 >= budget,
                    "only {spent} spent of {budget}: {case}"
                );
                // The winner has at least as many visits as any other.
                assert!(visits.iter().all(|&v| v <= visits[star]), "{case}");
            }
        }
    }

    /// The schedule docs/explanation/search.md gives: a placement of 40
    /// options searched 150 iterations (`mcts`'s default budget times its
    /// placement share), every option weighed.
    #[test]
    fn a_placement_s_hundred_and_fifty_iterations_over_forty_options() {
        let (visits, best) = play(40, 150, 150, |e| -((e as f32) - 7.0).abs());
        assert_eq!(best, 7);
        assert_eq!(visits.iter().sum::<u32>(), 150);
        assert!(visits.iter().all(|&v| v >= 1), "every option weighed");
        assert_eq!(visits[7], 29);
        assert_eq!(visits.iter().filter(|&&v| v == 29).count(), 2);
    }

    #[test]
    fn candidates_are_the_best_priors_and_at_most_the_most_asked() {
        let (visits, _) = play(60, 40, 16, |e| -(e as f32));
        assert!(visits[..16].iter().all(|&v| v >= 1));
        assert!(visits[16..].iter().all(|&v| v == 0));
        // Ties keep the better prior (the lower edge).
        let (_, best) = play(30, 100, 100, |_| 0.0);
        assert_eq!(best, 0);
    }

    /// The reference's cut is its two fifths of the budget, exactly, at
    /// every budget a server allows: its schedule does not move.
    #[test]
    fn the_reference_weighs_two_fifths_of_the_budget_and_mcts_every_option() {
        use super::super::{REFERENCE_SCHEDULE, SCHEDULE};
        for budget in 1..=5_000u32 {
            let two_fifths = 2 * budget as usize / 5;
            assert_eq!(REFERENCE_SCHEDULE.most_candidates(budget), two_fifths);
            assert_eq!(SCHEDULE.most_candidates(budget), budget as usize);
        }
    }

    #[test]
    fn a_budget_too_small_for_a_round_takes_the_best_prior() {
        let mut h = Halving::default();
        h.start(10, 1, 1);
        assert_eq!(h.next_round(), None);
        assert_eq!(h.best(), 0);
        assert_eq!(h.left, 1);
    }
}
