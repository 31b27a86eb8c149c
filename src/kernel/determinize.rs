//! Determinizations: the order of the deck is the game's hidden information.
//! A player knows the public state and the *multiset* of tiles not yet drawn;
//! a search samples orders of that multiset and plays them out.
//!
//! Everything here depends on the undrawn tiles as a multiset only, never on
//! their real order: [`redeal`] sorts them before it shuffles, so two games
//! that differ only in the order of their undrawn tiles give the same copies
//! from the same stream.

use crate::kernel::game::Game;
use crate::kernel::geometry::Pos;
use crate::kernel::random::Stream;

/// How many tiles of each kind are still to draw, indexed by tile kind.
pub fn undrawn_counts(game: &Game) -> Vec<u32> {
    let mut counts = Vec::new();
    count_undrawn(game, &mut counts);
    counts
}

/// [`undrawn_counts`] into `counts`, a buffer.
pub fn count_undrawn(game: &Game, counts: &mut Vec<u32>) {
    counts.clear();
    counts.resize(game.tiles().kinds.len(), 0);
    for &kind in game.undrawn() {
        counts[kind as usize] += 1;
    }
}

/// How many undrawn tiles fit each neighbour pattern of an empty cell
/// (G1), in one position: the tiles are counted when first asked after
/// [`Fitting::forget`], and each pattern once. The undrawn tiles are public
/// as a multiset (only their order is hidden), so a bot may weigh what they
/// leave possible.
pub struct Fitting {
    counts: Vec<u32>,
    /// Whether `counts` holds the position's undrawn tiles.
    counted: bool,
    /// Per pattern, the tiles fitting it; [`UNASKED`] until asked.
    by_pattern: Box<[u32; 256]>,
}

/// A pattern not yet counted.
const UNASKED: u32 = u32::MAX;

impl Default for Fitting {
    fn default() -> Self {
        Fitting {
            counts: Vec::new(),
            counted: false,
            by_pattern: Box::new([UNASKED; 256]),
        }
    }
}

impl Fitting {
    /// Forget the position: the next question counts the undrawn tiles of
    /// the game it is asked of, and every later one, until the next
    /// `forget`, must be asked of that same position.
    pub fn forget(&mut self) {
        if self.counted {
            self.counted = false;
            self.by_pattern.fill(UNASKED);
        }
    }

    /// How many undrawn tiles could go on a cell whose neighbours require
    /// `pattern` ([`crate::kernel::tiles::pattern_bits`]), in some rotation;
    /// `None` for 0 (no neighbour: nothing constrains the cell).
    pub fn pattern(&mut self, game: &Game, pattern: u8) -> Option<u32> {
        if pattern == 0 {
            return None;
        }
        if !self.counted {
            count_undrawn(game, &mut self.counts);
            self.counted = true;
        }
        let slot = &mut self.by_pattern[pattern as usize];
        if *slot == UNASKED {
            let kinds = &game.tiles().kinds;
            *slot = (self.counts.iter().zip(kinds))
                .filter(|&(&c, kind)| c > 0 && kind.fitting_rotations(pattern) != 0)
                .map(|(&c, _)| c)
                .sum();
        }
        Some(*slot)
    }

    /// [`Fitting::pattern`] of the empty cell `pos` as its neighbours stand.
    pub fn at(&mut self, game: &Game, pos: Pos) -> Option<u32> {
        self.pattern(game, game.board().pattern_at(pos))
    }
}

/// Deal the undrawn tiles of `game` again, in an order drawn from `stream`:
/// the result depends on the undrawn multiset and the stream, not on the
/// order the tiles were in.
pub fn redeal(game: &mut Game, stream: &mut Stream) {
    let undrawn = game.undrawn_mut();
    undrawn.sort_unstable();
    stream.shuffle(undrawn);
}

/// A copy of `game` with its undrawn tiles dealt again from `stream` (see
/// [`redeal`]).
pub fn redealt<'a>(game: &Game<'a>, stream: &mut Stream) -> Game<'a> {
    let mut copy = game.clone();
    redeal(&mut copy, stream);
    copy
}

/// A copy of `game` for a search: it records no events, and its undrawn
/// tiles are sorted by kind, so that it carries nothing of their real order.
pub fn hidden_copy<'a>(game: &Game<'a>) -> Game<'a> {
    let mut copy = game.clone();
    copy.forget_events();
    copy.undrawn_mut().sort_unstable();
    copy
}

/// Make `into` a copy of `game` with its undrawn tiles dealt again from
/// `stream` (see [`redeal`]). A copy of a game costs about a microsecond
/// (docs/bots.md): a search makes one per iteration.
pub fn redeal_into<'a>(into: &mut Game<'a>, game: &Game<'a>, stream: &mut Stream) {
    into.clone_from(game);
    redeal(into, stream);
}

/// Put first among `game`'s undrawn tiles one of the kind at `quantile`
/// (in `[0, 1)`) of the undrawn multiset sorted by kind: the next tile
/// drawn is of that kind, and the quantiles of a well-spread sequence draw
/// the kinds in proportion to how many of each are left (a stratified
/// draw). Which kind depends on the multiset only; the tile moved is the
/// first of its kind in the order the tiles were dealt, which changes
/// nothing else. `counts` is a buffer.
pub fn put_first_at(game: &mut Game, quantile: f64, counts: &mut Vec<u32>) {
    if game.deck_left() < 2 {
        return;
    }
    count_undrawn(game, counts);
    let undrawn = game.undrawn_mut();
    let at = ((quantile.clamp(0.0, 1.0) * undrawn.len() as f64) as usize).min(undrawn.len() - 1);
    let mut seen = 0usize;
    let kind = counts.iter().position(|&c| {
        seen += c as usize;
        seen > at
    });
    if let Some(i) = kind.and_then(|k| undrawn.iter().position(|&t| t as usize == k)) {
        undrawn.swap(0, i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::rules::{Answer, At, HookBudget, Question, Reply, Rules};
    use crate::kernel::tiles::TileSet;

    /// Rules with no floors at all: enough for a deck.
    struct NoTowers;

    impl HookBudget for NoTowers {
        fn begin_game(&self, _: Option<u64>) {}
        fn searching(&self, _: bool) {}
    }

    impl Rules for NoTowers {
        fn floor_kinds(&self) -> &[String] {
            &[]
        }
        fn ask(&self, question: Question) -> anyhow::Result<Reply> {
            Ok(match question {
                Question::SeatSupply { .. } | Question::TableSupply { .. } => {
                    Reply::Supply(Vec::new())
                }
                Question::MayPlaceFloor { .. } | Question::MayTop { .. } => {
                    Reply::Answer(Answer::lasting(false))
                }
                Question::MayCapture { .. } => Reply::Yes(false),
                Question::Ransom { .. } => Reply::Cost(None),
                Question::CaptureRange { .. } => Reply::Written,
                q => q.plain()?,
            })
        }
        fn listens(&self) -> u32 {
            0
        }
        fn on_event(
            &self,
            _: At,
            _: &mut Vec<crate::kernel::effects::Acted>,
        ) -> anyhow::Result<()> {
            Ok(())
        }
        fn state_vars(&self) -> &[crate::kernel::effects::StateVar] {
            &[]
        }
    }

    fn tiles() -> TileSet {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        TileSet::load(&[
            root.join("base").join("tiles.toml"),
            root.join("tower").join("tiles.toml"),
        ])
        .expect("shipped tiles")
    }

    fn draws(mut game: Game) -> Vec<u16> {
        std::iter::from_fn(|| {
            let t = game.draw().ok()??;
            let mut options = Vec::new();
            game.placements(t, &mut options).ok()?;
            game.place_tile(t, options[0]).ok()?;
            game.end_turn().ok()?;
            Some(t)
        })
        .collect()
    }

    #[test]
    fn a_quantile_draws_its_kind_whatever_the_order() {
        let tiles = tiles();
        let rules = NoTowers;
        let sorted = tiles.deck();
        let mut deck = sorted.clone();
        deck.reverse();
        let mut counts = Vec::new();
        for q in [0.0, 0.13, 0.5, 0.77, 0.999, 1.0] {
            let at = ((q * sorted.len() as f64) as usize).min(sorted.len() - 1);
            let mut a = Game::with_deck(&tiles, &rules, 2, deck.clone()).unwrap();
            put_first_at(&mut a, q, &mut counts);
            let mut b = redealt(&a, &mut Stream::new(3, 4));
            put_first_at(&mut b, q, &mut counts);
            assert_eq!(a.undrawn()[0], sorted[at], "quantile {q}");
            assert_eq!(b.undrawn()[0], sorted[at], "quantile {q}, dealt again");
            assert_eq!(undrawn_counts(&a), undrawn_counts(&b));
        }
    }

    #[test]
    fn a_redeal_depends_on_the_multiset_not_the_order() {
        let tiles = tiles();
        let rules = NoTowers;
        let mut deck = tiles.deck();
        let a = Game::with_deck(&tiles, &rules, 2, deck.clone()).unwrap();
        deck.reverse();
        let b = Game::with_deck(&tiles, &rules, 2, deck).unwrap();
        assert_eq!(undrawn_counts(&a), undrawn_counts(&b));
        let ra = redealt(&a, &mut Stream::new(5, 9));
        let rb = redealt(&b, &mut Stream::new(5, 9));
        assert_eq!(draws(ra.clone()), draws(rb));
        let other = redealt(&a, &mut Stream::new(6, 9));
        assert_ne!(draws(ra), draws(other));
    }
}
