//! Blocks: what a placement takes from the open cities it does not join by
//! constraining a cell they need, so that fewer of the undrawn tiles fit
//! there (G1, G5). A city whose cell no undrawn tile fits can no longer
//! complete; its leaders lose its chance to, as the search's evaluation
//! weighs it ([`city_supply`]).

use super::{Ctx, Delta, GreedyBot};
use crate::kernel::geometry::{Dir, Pos};
use crate::kernel::tiles::{Rotation, SegmentKind, pattern_bits};
use crate::kernel::{FeatureId, Game, Placement, PlacementPreview};
use crate::play::bots::{cell_share, city_supply};

impl GreedyBot {
    /// Index, for a placement decision, the empty cells the open cities
    /// with meeples on them face, with each city's root (the meeples are
    /// indexed: [`GreedyBot::index_meeples`]).
    pub(super) fn index_led_cells(&mut self, game: &Game) {
        self.led_cells.clear();
        let fs = game.features();
        for i in 0..self.placed.len() {
            let root = self.placed[i].root;
            let city = root != FeatureId::MAX && fs.kind(root) == SegmentKind::City;
            if city && !fs.is_complete(root) && !self.led_cells.iter().any(|&(_, r)| r == root) {
                game.open_cells(root, |cell| self.led_cells.push((cell, root)));
            }
        }
    }

    /// Add to `d` what placing `tile` at `at` takes from the leaders of
    /// the open cities it does not join whose cells it constrains
    /// ([`GreedyBot::index_led_cells`] indexed them for the decision).
    pub(super) fn blocks(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        tile: u16,
        at: Placement,
        preview: &PlacementPreview,
        d: &mut Delta,
    ) {
        let rotation = &game.tiles().kinds[tile as usize].rotations[at.rot as usize & 3];
        self.blocked.clear();
        for i in 0..self.led_cells.len() {
            let (cell, root) = self.led_cells[i];
            let Some(dir) = side_of(at.pos, cell) else {
                continue;
            };
            let joined = || preview.features().iter().any(|f| f.joins().contains(&root));
            if !self.blocked.contains(&root) && !joined() && self.narrows(game, cell, dir, rotation)
            {
                self.blocked.push(root);
            }
        }
        for i in 0..self.blocked.len() {
            let root = self.blocked[i];
            let board = game.board();
            let now = city_supply(game, &mut self.fitting, root, |c| board.pattern_at(c));
            let then = city_supply(game, &mut self.fitting, root, |c| {
                pattern_after(game, at, rotation, c)
            });
            if then < now {
                let fs = game.features();
                let (open, pennants) = (fs.open_ends(root), fs.pennants(root));
                let tiles = self.tile_count(game, root);
                let value = |s| Self::city_value(ctx, open, tiles, pennants, s);
                Self::award(&self.counts(root), value(then) - value(now), d);
            }
        }
    }

    /// Whether the tile (turned as `rotation`) beside the empty `cell`,
    /// across `dir` from it, lowers the share a city needing the cell is
    /// left ([`cell_share`]).
    fn narrows(&mut self, game: &Game, cell: Pos, dir: Dir, rotation: &Rotation) -> bool {
        let before = game.board().pattern_at(cell);
        let after = before | pattern_bits(dir.opposite(), rotation.edges[dir.index()]);
        cell_share(self.fitting.pattern(game, after))
            < cell_share(self.fitting.pattern(game, before))
    }
}

/// The side of `pos` the cell `cell` lies on, if it is beside it.
fn side_of(pos: Pos, cell: Pos) -> Option<Dir> {
    let (dx, dy) = (cell.x - pos.x, cell.y - pos.y);
    if dx.abs() + dy.abs() != 1 {
        return None;
    }
    Dir::ALL.into_iter().find(|d| d.offset() == (dx, dy))
}

/// The neighbour pattern of the empty cell `cell` once the tile turned as
/// `rotation` lies at `at` (G1).
fn pattern_after(game: &Game, at: Placement, rotation: &Rotation, cell: Pos) -> u8 {
    let now = game.board().pattern_at(cell);
    side_of(at.pos, cell).map_or(now, |d| {
        now | pattern_bits(d.opposite(), rotation.edges[d.index()])
    })
}

#[cfg(test)]
mod tests {
    use super::super::SEATS;
    use super::*;
    use crate::kernel::determinize::undrawn_counts;
    use crate::kernel::{Bot, Buffers, play_turn};
    use crate::play::bots::Sight;
    use crate::rules::{Home, LoadOptions, Ruleset};

    /// What a placement takes from the cities it blocks, as the bot works it
    /// out without placing the tile, is what placing it does: the same
    /// cities, with the chance the board then leaves them (G1, G5).
    #[test]
    fn g5_a_block_weighs_what_placing_the_tile_leaves_the_cities_it_does_not_join() {
        let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        let set = Ruleset::from_variant(&home, &LoadOptions::unit_tests(), "tower").unwrap();
        let rules = set.rules();
        let (mut weighed, mut blocks) = (0, 0);
        for seed in 1..=3 {
            let mut game = Game::new(set.tiles(), rules.as_ref(), 2, seed).unwrap();
            let mut players: Vec<Box<dyn Bot>> = (0..2)
                .map(|s| Box::new(GreedyBot::new(seed, s)) as Box<dyn Bot>)
                .collect();
            let mut bot = GreedyBot::with_sight(seed, 0, Default::default(), Sight::Ahead);
            let mut buf = Buffers::default();
            while play_turn(&mut game, &mut players, &mut buf).unwrap() {
                let (w, b) = check_every_placement(&mut bot, &game);
                (weighed, blocks) = (weighed + w, blocks + b);
            }
        }
        assert!(weighed > 10_000, "only {weighed} placements weighed");
        assert!(blocks > 20, "only {blocks} placements blocked a city");
    }

    /// Check [`GreedyBot::blocks`] on every placement of every undrawn kind
    /// in `game` against the tile placed on a copy; the placements weighed
    /// and those that blocked a city.
    fn check_every_placement(bot: &mut GreedyBot, game: &Game) -> (usize, usize) {
        bot.me = game.current();
        let ctx = bot.ctx(game);
        bot.index_meeples(game);
        bot.fitting.forget();
        bot.index_led_cells(game);
        let (mut weighed, mut blocked) = (0, 0);
        let mut options = Vec::new();
        let mut buffers = PlacementPreview::default();
        let left = undrawn_counts(game);
        for kind in (0..left.len() as u16).filter(|&k| left[k as usize] > 0) {
            game.placements(kind, &mut options).unwrap();
            for &at in &options {
                let mut previewer = game.previewer(&mut buffers);
                let preview = previewer.preview(kind, at).unwrap();
                let mut d = [0f32; SEATS];
                bot.blocks(game, &ctx, kind, at, preview, &mut d);
                let expected = placed_for_real(bot, game, &ctx, kind, at, preview);
                for p in 0..SEATS {
                    assert!(
                        (d[p] - expected[p]).abs() < 1e-4,
                        "{at:?}: {d:?} {expected:?}"
                    );
                }
                weighed += 1;
                blocked += usize::from(d.iter().any(|&x| x < 0.0));
            }
        }
        (weighed, blocked)
    }

    /// What placing `kind` at `at` on a copy of `game` takes from the led
    /// open cities the placement does not join, per player.
    fn placed_for_real(
        bot: &mut GreedyBot,
        game: &Game,
        ctx: &Ctx,
        kind: u16,
        at: Placement,
        preview: &PlacementPreview,
    ) -> [f32; SEATS] {
        let mut after = game.clone();
        after.place_tile(kind, at).unwrap();
        let fs = game.features();
        let mut roots: Vec<FeatureId> = bot.led_cells.iter().map(|&(_, r)| r).collect();
        roots.dedup();
        let mut d = [0f32; SEATS];
        for root in roots {
            if preview.features().iter().any(|f| f.joins().contains(&root)) {
                continue;
            }
            let now = city_supply(game, &mut bot.fitting, root, |c| game.board().pattern_at(c));
            let mut fitting = crate::kernel::determinize::Fitting::default();
            let then = city_supply(&after, &mut fitting, root, |c| after.board().pattern_at(c));
            let tiles = bot.tile_count(game, root);
            let value =
                |s| GreedyBot::city_value(ctx, fs.open_ends(root), tiles, fs.pennants(root), s);
            GreedyBot::award(&bot.counts(root), value(then) - value(now), &mut d);
        }
        d
    }
}
