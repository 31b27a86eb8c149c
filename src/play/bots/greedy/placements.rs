//! Weighing placements: what the tile would complete or join, for whom, and
//! the best meeple or floor it would leave the bot.

use anyhow::Result;

use super::{Ctx, Delta, GreedyBot, SEATS};
use crate::kernel::game::{CLOISTER_NEIGHBOURS, FARM_CITY_POINTS, cloister_points};
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{
    CloisterPreview, FeaturePreview, FloorKind, Game, Placement, PlacementPreview,
};
use crate::play::bots::Sight;

impl GreedyBot {
    pub(super) fn value_placements(
        &mut self,
        game: &Game,
        tile: u16,
        options: &[Placement],
    ) -> Result<()> {
        let ctx = self.ctx(game);
        self.index_meeples(game);
        let mut supply = [0u32; SEATS];
        for (s, p) in supply.iter_mut().zip(game.players()) {
            *s = p.meeples as u32;
        }
        let tower_option = self.best_floor_option(game, &ctx, true)?;
        let blocks = self.sight != Sight::Baseline;
        if blocks {
            self.fitting.forget();
            self.index_led_cells(game);
        }
        let mut buffers = std::mem::take(&mut self.preview);
        let mut previewer = game.previewer(&mut buffers);
        self.values.clear();
        for &at in options {
            let Ok(preview) = previewer.preview(tile, at) else {
                self.values.push(f32::NEG_INFINITY);
                continue;
            };
            let mut d = [0f32; SEATS];
            // The best meeple the bot could then put on the new tile.
            let mut follow = 0f32;
            for f in preview.features() {
                let v = if f.kind == SegmentKind::Field {
                    self.farmer_value(game, &ctx, tile, preview, f, &supply)
                } else {
                    self.line_change(game, &ctx, tile, preview, f, &supply, &mut d)
                };
                follow = follow.max(v);
            }
            for c in preview.cloisters() {
                follow = follow.max(self.cloister_change(&ctx, c, &supply, &mut d));
            }
            if blocks {
                self.blocks(game, &ctx, tile, at, preview, &mut d);
            }
            self.values
                .push(Self::net(&ctx, &d) + follow.max(tower_option));
        }
        self.preview = buffers;
        Ok(())
    }

    /// The best floor the bot could place whatever the tile: a meeple on the
    /// tile only counts where it would beat it. `later`: a floor counts its
    /// later worth too ([`GreedyBot::later_capture`]).
    pub(super) fn best_floor_option(&mut self, game: &Game, ctx: &Ctx, later: bool) -> Result<f32> {
        let mut best = 0f32;
        let me = &game.players()[ctx.me];
        for t in 0..game.towers().len() {
            // Of the kinds the bot holds.
            let allowed = game.floors_allowed(t, ctx.me)?;
            for k in 0..me.floors.len() {
                if allowed & (1 << k) != 0 {
                    let mut v = self.best_capture(game, ctx, t, k as FloorKind)?
                        - ctx.w.floor(k) * ctx.meeple_future;
                    if later {
                        v += self.later_capture(game, ctx, t, k as FloorKind)?;
                    }
                    best = best.max(v);
                }
            }
        }
        Ok(best)
    }

    /// A farmer the bot could put on field `f` of the new tile: the completed
    /// cities it would touch (G8), those the tile itself completes included,
    /// less the meeple; 0 when it cannot.
    fn farmer_value(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        tile: u16,
        preview: &PlacementPreview,
        f: &FeaturePreview,
        supply: &[u32; SEATS],
    ) -> f32 {
        if f.meeples != 0 || supply[ctx.me] == 0 {
            return 0.0;
        }
        let mut cities = 0;
        for &root in f.joins() {
            cities += self.field_cities(game, root);
        }
        let kind = &game.tiles().kinds[tile as usize];
        for (s, seg) in kind.segments.iter().enumerate() {
            if f.segments & (1 << s) != 0 {
                cities += seg
                    .cities
                    .iter()
                    .filter(|&&c| preview.feature_of(c).is_some_and(|g| g.complete()))
                    .count() as u32;
            }
        }
        ctx.w.open_share * FARM_CITY_POINTS as f32 * cities as f32
            - Self::meeple(ctx, supply[ctx.me])
    }

    /// What the tile does to road or city `f`, added to `d`: its leaders'
    /// change, farms beside a city it completes, meeples coming home (G7).
    /// Returns the value of the bot's meeple on it, when it is free.
    #[allow(clippy::too_many_arguments)]
    fn line_change(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        tile: u16,
        preview: &PlacementPreview,
        f: &FeaturePreview,
        supply: &[u32; SEATS],
        d: &mut Delta,
    ) -> f32 {
        if f.complete() && f.kind == SegmentKind::City {
            self.farm_bonus(game, tile, preview, f, d);
        }
        let after = if f.complete() {
            Self::line_value(ctx, f.kind, 0, f.tiles, f.pennants)
        } else {
            Self::line_value(ctx, f.kind, f.open, f.tiles, f.pennants)
        };
        if f.meeples == 0 {
            return match supply[ctx.me] {
                0 => 0.0,
                _ if f.complete() => after,
                n => after - Self::meeple(ctx, n),
            };
        }
        let fs = game.features();
        let mut merged = [0u8; SEATS];
        for &root in f.joins() {
            if fs.meeples(root) == 0 {
                continue;
            }
            let c = self.counts(root);
            let before = self.feature_value(ctx, game, root);
            Self::award(&c, -before, d);
            for (m, x) in merged.iter_mut().zip(c) {
                *m += x;
            }
        }
        Self::award(&merged, after, d);
        if f.complete() {
            // G7: the meeples go home.
            for p in 0..ctx.n {
                for i in 1..=merged[p] as u32 {
                    d[p] += Self::meeple(ctx, supply[p] + i);
                }
            }
        }
        0.0
    }

    /// What the tile does to cloister `c` (its own, or one it neighbours),
    /// added to `d`; returns the value of the bot's meeple on its own.
    fn cloister_change(
        &mut self,
        ctx: &Ctx,
        c: &CloisterPreview,
        supply: &[u32; SEATS],
        d: &mut Delta,
    ) -> f32 {
        match c.feature {
            None if supply[ctx.me] > 0 => {
                if c.neighbours >= CLOISTER_NEIGHBOURS {
                    cloister_points(CLOISTER_NEIGHBOURS) as f32
                } else {
                    Self::cloister_value(ctx, c.neighbours) - Self::meeple(ctx, supply[ctx.me])
                }
            }
            Some(id) if c.meeples > 0 => {
                let counts = self.counts(id);
                let gain = Self::cloister_value(ctx, c.neighbours)
                    - Self::cloister_value(ctx, c.neighbours - 1);
                Self::award(&counts, gain, d);
                if c.neighbours >= CLOISTER_NEIGHBOURS {
                    for p in 0..ctx.n {
                        if counts[p] > 0 {
                            d[p] += Self::meeple(ctx, supply[p] + 1);
                        }
                    }
                }
                0.0
            }
            _ => 0.0,
        }
    }

    /// G8: a city the tile would complete adds 3 points at game end to
    /// every farm beside it; the farms' leaders count a share of that.
    pub(super) fn farm_bonus(
        &mut self,
        game: &Game,
        tile: u16,
        preview: &PlacementPreview,
        city: &FeaturePreview,
        d: &mut Delta,
    ) {
        let fs = game.features();
        self.fields.clear();
        for &root in city.joins() {
            for m in fs.members(root) {
                let (t, seg) = fs.place_of(m);
                let placed = game.board().tiles()[t];
                let kind = &game.tiles().kinds[placed.kind as usize];
                for (i, s) in kind.segments.iter().enumerate() {
                    if s.kind == SegmentKind::Field && s.cities.contains(&(seg as u8)) {
                        let r = fs.root(placed.first_segment + i as u32);
                        if fs.meeples(r) > 0 && !self.fields.contains(&r) {
                            self.fields.push(r);
                        }
                    }
                }
            }
        }
        let kind = &game.tiles().kinds[tile as usize];
        for (i, s) in kind.segments.iter().enumerate() {
            if s.kind != SegmentKind::Field
                || !s.cities.iter().any(|&c| city.segments & (1 << c) != 0)
            {
                continue;
            }
            if let Some(field) = preview.feature_of(i as u8) {
                for &r in field.joins() {
                    if fs.meeples(r) > 0 && !self.fields.contains(&r) {
                        self.fields.push(r);
                    }
                }
            }
        }
        for i in 0..self.fields.len() {
            let counts = self.counts(self.fields[i]);
            Self::award(&counts, self.worths.open_share * FARM_CITY_POINTS as f32, d);
        }
    }
}
