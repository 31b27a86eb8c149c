//! Paired draws (the `mcts` module documentation): which tile an
//! iteration's d-th draw deals, given the visits the root option it took
//! has had — the same tile for every root option's v-th visit, and the
//! kinds in proportion over one option's visits.

use crate::kernel::Game;
use crate::kernel::determinize::put_first_at;
use crate::play::seed::Stream;

/// The step of the quantiles of paired draws between one visit of a root
/// option and the next: the golden ratio's fraction, whose multiples
/// spread most evenly over `[0, 1)` however many there are (a Weyl
/// sequence).
const VISIT_STEP: f64 = 0.618_033_988_749_894_9;

/// The step between the draws of one iteration (the plastic number's
/// inverse fraction), so a visit's second and third draws are not the
/// first one's quantile again.
const DRAW_STEP: f64 = 0.754_877_666_246_692_7;

/// The sequence of quantiles of one decision's search.
#[derive(Default)]
pub(super) struct Pairing {
    /// Where this decision's sequence starts, in `[0, 1)`.
    start: f64,
    /// A buffer of the undrawn tiles' counts by kind.
    counts: Vec<u32>,
}

impl Pairing {
    /// Start a decision's sequence anew, from the bot's stream.
    pub(super) fn restart(&mut self, rng: &mut Stream) {
        self.start = rng.next_unit();
    }

    /// Make the next tile of `g` the one paired with the `d`-th draw of a
    /// root option's visit number `visit`.
    pub(super) fn deal(&mut self, g: &mut Game, visit: u32, d: u32) {
        let q = (self.start + f64::from(d) * DRAW_STEP + f64::from(visit) * VISIT_STEP).fract();
        put_first_at(g, q, &mut self.counts);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::determinize::{redealt, undrawn_counts};
    use crate::play::bots::mcts::{MctsBot, eval};
    use crate::rules::{Home, LoadOptions, Ruleset};

    /// Paired draws: the v-th visit of every root option draws the same
    /// tile, however the deck was dealt, and the visits of one option draw
    /// the kinds about in proportion to how many of each are left.
    #[test]
    fn every_root_option_meets_the_same_draws_at_the_same_visit() {
        let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        let set = Ruleset::from_variant(&home, &LoadOptions::unit_tests(), "tower")
            .expect("the shipped variant loads");
        let rules = set.rules();
        let game = Game::new(set.tiles(), rules.as_ref(), 2, 7).unwrap();
        let left = undrawn_counts(&game);
        let visits: usize = left.iter().sum::<u32>() as usize;
        let mut bot = MctsBot::new(7, 0, 8);
        let root = bot.tree.add(0);
        bot.tree.open(root, &[1.0, 0.5, 0.0]);
        bot.tree.root = root;
        bot.pairing.start = 0.3;
        let mut drawn = vec![0u32; left.len()];
        for v in 0..visits as u64 {
            let tiles: Vec<u16> = (0..3)
                .map(|edge| {
                    let mut g = redealt(&game, &mut Stream::new(v * 3 + edge as u64, 1));
                    bot.path.clear();
                    bot.path.push((root, edge));
                    bot.pair_draw(&mut g, 0);
                    bot.tree.backup(&bot.path, &[0.0; eval::SEATS]);
                    g.draw().unwrap().expect("the deck is full")
                })
                .collect();
            assert!(tiles.iter().all(|&t| t == tiles[0]), "visit {v}: {tiles:?}");
            drawn[tiles[0] as usize] += 1;
        }
        for (kind, (&n, &want)) in drawn.iter().zip(&left).enumerate() {
            assert!(
                n.abs_diff(want) <= 1,
                "kind {kind}: drawn {n} times, {want} left"
            );
        }
    }
}
