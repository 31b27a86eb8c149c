//! The value of things to the greedy bot: the features players lead, a
//! meeple in supply, and per-player changes of standing.

use super::{Ctx, Delta, GreedyBot, Placed, SEATS};
use crate::kernel::game::{CLOISTER_NEIGHBOURS, FARM_CITY_POINTS, cloister_points, line_points};
use crate::kernel::geometry::Pos;
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{FeatureId, Game, MeepleSpot};

impl GreedyBot {
    /// Roots of the features every meeple stands on, as the game is now.
    pub(super) fn index_meeples(&mut self, game: &Game) {
        self.placed.clear();
        self.tile_counts.clear();
        self.field_counts.clear();
        for m in game.meeples() {
            let root = match m.spot {
                MeepleSpot::Segment(s) => game
                    .segment_id(m.pos, s)
                    .map_or(FeatureId::MAX, |id| game.features().root(id)),
                MeepleSpot::Tower => FeatureId::MAX,
            };
            self.placed.push(Placed {
                root,
                owner: m.owner,
                on: game.meeple_on(m.pos, m.spot),
            });
        }
    }

    /// Meeples per player on the feature with root `root`.
    pub(super) fn counts(&self, root: FeatureId) -> [u8; SEATS] {
        let mut c = [0u8; SEATS];
        for m in &self.placed {
            if m.root == root {
                c[m.owner as usize] += 1;
            }
        }
        c
    }

    /// Completed cities a field touches (G8), counted once per decision.
    pub(super) fn field_cities(&mut self, game: &Game, root: FeatureId) -> u32 {
        if let Some(&(_, c)) = self.field_counts.iter().find(|(r, _)| *r == root) {
            return c;
        }
        let c = game.completed_cities_touching(root);
        self.field_counts.push((root, c));
        c
    }

    pub(super) fn tile_count(&mut self, game: &Game, root: FeatureId) -> u32 {
        if let Some(&(_, t)) = self.tile_counts.iter().find(|(r, _)| *r == root) {
            return t;
        }
        let t = game.features().tile_count(root, &mut self.scratch);
        self.tile_counts.push((root, t));
        t
    }

    /// What the k-th meeple in supply is worth now.
    pub(super) fn meeple(ctx: &Ctx, k: u32) -> f32 {
        if k == 0 {
            return 0.0;
        }
        let m = &ctx.w.meeple;
        m[(k as usize - 1).min(m.len() - 1)] * ctx.meeple_future
    }

    /// What a road or city is worth to a player who leads it: its points
    /// when complete (G4, G5), else its end-of-game points raised by likely
    /// growth and, for cities, by the chance of completing (the points as
    /// the kernel scores them).
    pub(super) fn line_value(
        ctx: &Ctx,
        kind: SegmentKind,
        open: u32,
        tiles: u32,
        pennants: u32,
    ) -> f32 {
        let complete = open == 0;
        let points = line_points(kind, tiles, pennants, complete) as f32;
        let o = open as f32;
        let w = &ctx.w;
        match kind {
            SegmentKind::Road | SegmentKind::City if complete => points,
            SegmentKind::Road => w.open_share * (points + w.road_growth * o * ctx.future),
            SegmentKind::City => Self::city_value(ctx, open, tiles, pennants, 1.0),
            _ => 0.0,
        }
    }

    /// An open city's worth to a player who leads it ([`GreedyBot::line_value`]),
    /// its chance to complete taken at `supply`, the share the undrawn
    /// tiles leave it ([`crate::play::bots::city_supply`]).
    pub(super) fn city_value(ctx: &Ctx, open: u32, tiles: u32, pennants: u32, supply: f32) -> f32 {
        let points = line_points(SegmentKind::City, tiles, pennants, false) as f32;
        let w = &ctx.w;
        let chance = w.city_chance(open) * ctx.future * supply;
        w.open_share * (points + w.city_growth * open as f32 * ctx.future) * (1.0 + chance)
    }

    /// A cloister with `neighbours` tiles around it (G6).
    pub(super) fn cloister_value(ctx: &Ctx, neighbours: u32) -> f32 {
        if neighbours >= CLOISTER_NEIGHBOURS {
            return cloister_points(CLOISTER_NEIGHBOURS) as f32;
        }
        let missing = (CLOISTER_NEIGHBOURS - neighbours) as f32;
        let chance = ctx.w.cloister_chance(CLOISTER_NEIGHBOURS - neighbours) * ctx.future;
        ctx.w.open_share * (cloister_points(neighbours) as f32 + missing * chance)
    }

    /// What the feature with root `root` is worth to a player who leads it.
    pub(super) fn feature_value(&mut self, ctx: &Ctx, game: &Game, root: FeatureId) -> f32 {
        let fs = game.features();
        match fs.kind(root) {
            kind @ (SegmentKind::Road | SegmentKind::City) => {
                let tiles = self.tile_count(game, root);
                Self::line_value(ctx, kind, fs.open_ends(root), tiles, fs.pennants(root))
            }
            SegmentKind::Cloister => {
                let (tile, _) = fs.place_of(root);
                let pos = game.board().tiles()[tile].pos;
                Self::cloister_value(ctx, neighbours(game, pos))
            }
            // G8: 3 per completed city, for good: farmers stay.
            SegmentKind::Field => {
                ctx.w.open_share * FARM_CITY_POINTS as f32 * self.field_cities(game, root) as f32
            }
            SegmentKind::Foundation => 0.0,
        }
    }

    /// Add `value` to every player with the most meeples in `counts` (G7).
    pub(super) fn award(counts: &[u8; SEATS], value: f32, d: &mut Delta) {
        let most = *counts.iter().max().expect("seats");
        if most == 0 {
            return;
        }
        for (p, &c) in counts.iter().enumerate() {
            if c == most {
                d[p] += value;
            }
        }
    }

    /// The bot's change minus the best opponent's.
    pub(super) fn net(ctx: &Ctx, d: &Delta) -> f32 {
        let best = (0..ctx.n)
            .filter(|&p| p != ctx.me)
            .map(|p| d[p])
            .fold(f32::NEG_INFINITY, f32::max);
        d[ctx.me] - best
    }
}

/// Tiles around `pos` (G6).
pub(super) fn neighbours(game: &Game, pos: Pos) -> u32 {
    pos.around().filter(|&q| game.board().has_tile(q)).count() as u32
}
