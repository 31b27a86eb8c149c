//! The greedy bot: one ply. Every option of every decision (placement,
//! ransom, action, capture) gets a value — the change it makes at once to the
//! bot's own standing minus the change to the best-placed opponent's — and
//! the bot takes the best, breaking ties on its own random stream.
//!
//! A player's standing is their score plus rough values for what they hold:
//! the features they lead (a share of what those would score, G4–G8),
//! meeples in supply (the last ones are worth most), prisoners held, and a
//! penalty for their meeples that an opponent could capture next turn by
//! raising an open tower (T5, T6).
//!
//! A placement is weighed with a [`Previewer`] (what the tile would complete
//! or join, and for whom) plus the best action it would leave: a meeple on
//! the new tile, or a floor and the capture it allows, whichever is worth
//! more. Towers are seen only through the [`Rules`] interface
//! (`may_place_floor`, `capture_range`, `may_capture`), so the bot plays any
//! pack's floors without knowing their names.
//!
//! [`Previewer`]: crate::kernel::Previewer
//! [`Rules`]: crate::kernel::Rules

use crate::kernel::geometry::Pos;
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{
    Action, Bot, CaptureChoice, Decision, FeatureId, FeaturePreview, FloorKind, Game, MeepleSpot,
    MeepleView, Placement, PlacementPreview, RansomChoice, TowerView,
};
use crate::play::seed::{Stream, bot_stream};

/// At most this many players (the kernel allows 2 to 6).
const SEATS: usize = 8;

/// What the k-th meeple in supply is worth (index k − 1) early in the game:
/// the last one most, as without it the player can take no feature.
const MEEPLE_WORTH: [f32; 7] = [7.0, 4.0, 2.8, 2.2, 1.8, 1.5, 1.3];
/// Holding an opponent's meeple: ransom income or an exchange to come.
const PRISONER_WORTH: f32 = 1.0;
/// A floor in supply: spent only for a capture (or to protect meeples).
const FLOOR_WORTH: f32 = 0.5;
/// Taking back one's own meeple must gain at least this much.
const OWN_CAPTURE_MARGIN: f32 = 1.0;
/// Expected growth per open end of an open road and city.
const ROAD_GROWTH: f32 = 0.5;
const CITY_GROWTH: f32 = 0.6;
/// The share of an open feature's value its leader counts on: it may be
/// stolen, blocked or left unfinished.
const OPEN_SHARE: f32 = 0.8;
/// Two values closer than this are a tie.
const TIE: f32 = 1e-4;

/// Per-player changes of standing.
type Delta = [f32; SEATS];

/// One way an opponent could raise a tower next turn: the tower and the
/// floors it would have (cells and stack stored in the bot's flat buffers).
#[derive(Clone, Copy)]
struct Raise {
    tower: u16,
    meeple: Option<usize>,
    /// The largest |dx| or |dy| of its cells.
    reach: i32,
    stack: (u32, u32),
    cells: (u32, u32),
}

/// A meeple on the board as the bot indexes it.
#[derive(Clone, Copy)]
struct Placed {
    /// The root of its road, city, field or cloister (`FeatureId::MAX` on a
    /// tower).
    root: FeatureId,
    owner: u8,
    on: &'static str,
}

/// The greedy bot. See the module documentation.
pub struct GreedyBot {
    /// The player deciding: the current player of the game asked.
    me: usize,
    rng: Stream,
    preview: PlacementPreview,
    /// Every meeple's feature, parallel to [`Game::meeples`].
    placed: Vec<Placed>,
    tile_counts: Vec<(FeatureId, u32)>,
    field_counts: Vec<(FeatureId, u32)>,
    fields: Vec<FeatureId>,
    scratch: Vec<u16>,
    values: Vec<f32>,
    range: Vec<(i32, i32)>,
    stack: Vec<FloorKind>,
    hyp: Vec<FloorKind>,
    /// Raises opponents could make next turn, with their stacks and cells.
    raises: Vec<Raise>,
    raise_stacks: Vec<FloorKind>,
    raise_cells: Vec<(i32, i32)>,
    /// Per tower: the bot's meeples (bit = index in [`Game::meeples`]) some
    /// opponent could capture by raising it.
    threat: Vec<u64>,
    /// Per meeple of the bot: what it would lose if captured.
    stake: Vec<f32>,
    /// Floor stacks (and whether a meeple tops them) whose range the rules
    /// failed to give.
    failed: Vec<(Vec<FloorKind>, bool)>,
}

/// What every valuation of one decision shares.
struct Ctx {
    me: usize,
    n: usize,
    /// 1 early in the game, falling to 0 as the deck runs out: how much
    /// future value (growth, completion, a meeple's next use) still counts.
    future: f32,
    /// The same for meeples: how many more turns a meeple could serve.
    meeple_future: f32,
    /// The chance that a meeple an opponent could capture is captured.
    threat_chance: f32,
}

impl GreedyBot {
    /// The bot in `seat` of the game with seed `game_seed`, on its own stream.
    pub fn new(game_seed: u64, seat: usize) -> GreedyBot {
        GreedyBot {
            me: seat,
            rng: Stream::new(game_seed, bot_stream(seat)),
            preview: PlacementPreview::default(),
            placed: Vec::new(),
            tile_counts: Vec::new(),
            field_counts: Vec::new(),
            fields: Vec::new(),
            scratch: Vec::new(),
            values: Vec::new(),
            range: Vec::new(),
            stack: Vec::new(),
            hyp: Vec::new(),
            raises: Vec::new(),
            raise_stacks: Vec::new(),
            raise_cells: Vec::new(),
            threat: Vec::new(),
            stake: Vec::new(),
            failed: Vec::new(),
        }
    }

    /// The best value's index, ties broken on the bot's stream.
    fn choose(&mut self) -> usize {
        let best = self
            .values
            .iter()
            .copied()
            .fold(f32::NEG_INFINITY, f32::max);
        let ties = self.values.iter().filter(|&&v| v >= best - TIE).count();
        let pick = if ties > 1 { self.rng.below(ties) } else { 0 };
        self.values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v >= best - TIE)
            .nth(pick)
            .map_or(0, |(i, _)| i)
    }

    // ---- context and the value of things -----------------------------

    fn ctx(&self, game: &Game) -> Ctx {
        let n = game.players().len();
        let left = game.deck_left() as f32;
        Ctx {
            me: game.current(),
            n,
            future: (left / 10.0).min(1.0),
            meeple_future: (left / (6.0 * n as f32)).min(1.0),
            threat_chance: (0.25 + 0.1 * (n - 1) as f32).min(0.8),
        }
    }

    /// Roots of the features every meeple stands on, as the game is now.
    fn index_meeples(&mut self, game: &Game) {
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
                on: game.spot_name(m.pos, m.spot),
            });
        }
    }

    /// Meeples per player on the feature with root `root`.
    fn counts(&self, root: FeatureId) -> [u8; SEATS] {
        let mut c = [0u8; SEATS];
        for m in &self.placed {
            if m.root == root {
                c[m.owner as usize] += 1;
            }
        }
        c
    }

    /// Completed cities a field touches (G8), counted once per decision.
    fn field_cities(&mut self, game: &Game, root: FeatureId) -> u32 {
        if let Some(&(_, c)) = self.field_counts.iter().find(|(r, _)| *r == root) {
            return c;
        }
        let c = game.completed_cities_touching(root);
        self.field_counts.push((root, c));
        c
    }

    fn tile_count(&mut self, game: &Game, root: FeatureId) -> u32 {
        if let Some(&(_, t)) = self.tile_counts.iter().find(|(r, _)| *r == root) {
            return t;
        }
        let t = game.features().tile_count(root, &mut self.scratch);
        self.tile_counts.push((root, t));
        t
    }

    /// What the k-th meeple in supply is worth now.
    fn meeple(ctx: &Ctx, k: u32) -> f32 {
        if k == 0 {
            return 0.0;
        }
        MEEPLE_WORTH[(k as usize - 1).min(MEEPLE_WORTH.len() - 1)] * ctx.meeple_future
    }

    /// What a road or city is worth to a player who leads it: its points
    /// when complete (G4, G5), else its end-of-game points raised by likely
    /// growth and, for cities, by the chance of completing.
    fn line_value(ctx: &Ctx, kind: SegmentKind, open: u32, tiles: u32, pennants: u32) -> f32 {
        let (t, p, o) = (tiles as f32, pennants as f32, open as f32);
        match kind {
            SegmentKind::Road if open == 0 => t,
            SegmentKind::Road => OPEN_SHARE * (t + ROAD_GROWTH * o * ctx.future),
            SegmentKind::City if open == 0 => 2.0 * (t + p),
            SegmentKind::City => {
                let chance = match open {
                    1 => 0.7,
                    2 => 0.5,
                    3 => 0.35,
                    4 => 0.25,
                    _ => 0.2,
                } * ctx.future;
                OPEN_SHARE * (t + p + CITY_GROWTH * o * ctx.future) * (1.0 + chance)
            }
            _ => 0.0,
        }
    }

    /// A cloister with `neighbours` tiles around it (G6).
    fn cloister_value(ctx: &Ctx, neighbours: u32) -> f32 {
        if neighbours >= 8 {
            return 9.0;
        }
        let missing = (8 - neighbours) as f32;
        let chance = (0.9 - 0.05 * missing) * ctx.future;
        OPEN_SHARE * (1.0 + neighbours as f32 + missing * chance)
    }

    /// What the feature with root `root` is worth to a player who leads it.
    fn feature_value(&mut self, ctx: &Ctx, game: &Game, root: FeatureId) -> f32 {
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
            SegmentKind::Field => OPEN_SHARE * 3.0 * self.field_cities(game, root) as f32,
            SegmentKind::Foundation => 0.0,
        }
    }

    /// Add `value` to every player with the most meeples in `counts` (G7).
    fn award(counts: &[u8; SEATS], value: f32, d: &mut Delta) {
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
    fn net(ctx: &Ctx, d: &Delta) -> f32 {
        let best = (0..ctx.n)
            .filter(|&p| p != ctx.me)
            .map(|p| d[p])
            .fold(f32::NEG_INFINITY, f32::max);
        d[ctx.me] - best
    }

    // ---- placements --------------------------------------------------

    fn value_placements(&mut self, game: &Game, tile: u16, options: &[Placement]) {
        let ctx = self.ctx(game);
        self.index_meeples(game);
        let mut supply = [0u32; SEATS];
        for (s, p) in supply.iter_mut().zip(game.players()) {
            *s = p.meeples as u32;
        }
        // The best floor the bot could place whatever the tile: a meeple on
        // the tile only counts where it would beat it.
        let mut tower_option = 0f32;
        let me = &game.players()[ctx.me];
        for (t, tower) in game.towers().iter().enumerate() {
            for (k, &left) in me.floors.iter().enumerate() {
                if left > 0 && tower.allows_floor(k as FloorKind) {
                    let v = self.best_capture(game, &ctx, t, k as FloorKind)
                        - FLOOR_WORTH * ctx.meeple_future;
                    tower_option = tower_option.max(v);
                }
            }
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
            let fs = game.features();
            for f in preview.features() {
                if f.kind == SegmentKind::Field {
                    if f.meeples == 0 && supply[ctx.me] > 0 {
                        // A farmer: completed cities it would touch (G8),
                        // those the tile itself completes included.
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
                                    .filter(|&&c| {
                                        preview.feature_of(c).is_some_and(|g| g.complete())
                                    })
                                    .count() as u32;
                            }
                        }
                        let v =
                            OPEN_SHARE * 3.0 * cities as f32 - Self::meeple(&ctx, supply[ctx.me]);
                        follow = follow.max(v);
                    }
                    continue;
                }
                if f.complete() && f.kind == SegmentKind::City {
                    self.farm_bonus(game, tile, preview, f, &mut d);
                }
                let after = if f.complete() {
                    Self::line_value(&ctx, f.kind, 0, f.tiles, f.pennants)
                } else {
                    Self::line_value(&ctx, f.kind, f.open, f.tiles, f.pennants)
                };
                if f.meeples > 0 {
                    let mut merged = [0u8; SEATS];
                    for &root in f.joins() {
                        if fs.meeples(root) == 0 {
                            continue;
                        }
                        let c = self.counts(root);
                        let before = self.feature_value(&ctx, game, root);
                        Self::award(&c, -before, &mut d);
                        for (m, x) in merged.iter_mut().zip(c) {
                            *m += x;
                        }
                    }
                    Self::award(&merged, after, &mut d);
                    if f.complete() {
                        // G7: the meeples go home.
                        for p in 0..ctx.n {
                            for i in 1..=merged[p] as u32 {
                                d[p] += Self::meeple(&ctx, supply[p] + i);
                            }
                        }
                    }
                } else if supply[ctx.me] > 0 {
                    let v = if f.complete() {
                        after
                    } else {
                        after - Self::meeple(&ctx, supply[ctx.me])
                    };
                    follow = follow.max(v);
                }
            }
            for c in preview.cloisters() {
                match c.feature {
                    None if supply[ctx.me] > 0 => {
                        let v = if c.neighbours >= 8 {
                            9.0
                        } else {
                            Self::cloister_value(&ctx, c.neighbours)
                                - Self::meeple(&ctx, supply[ctx.me])
                        };
                        follow = follow.max(v);
                    }
                    Some(id) if c.meeples > 0 => {
                        let counts = self.counts(id);
                        let gain = Self::cloister_value(&ctx, c.neighbours)
                            - Self::cloister_value(&ctx, c.neighbours - 1);
                        Self::award(&counts, gain, &mut d);
                        if c.neighbours >= 8 {
                            for p in 0..ctx.n {
                                if counts[p] > 0 {
                                    d[p] += Self::meeple(&ctx, supply[p] + 1);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            self.values
                .push(Self::net(&ctx, &d) + follow.max(tower_option));
        }
        self.preview = buffers;
    }

    /// G8: a city the tile would complete adds 3 points at game end to
    /// every farm beside it; the farms' leaders count a share of that.
    fn farm_bonus(
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
            Self::award(&counts, OPEN_SHARE * 3.0, d);
        }
    }

    // ---- threats from towers (T5, T6) ---------------------------------

    /// Push onto `raises` every way an opponent could add a floor to tower
    /// `t` standing as `stack` with `meeple` on top, with the range each
    /// floor would give; `now`: the tower stands so now (the game already
    /// holds the rules' answers).
    fn list_raises(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        t: usize,
        stack: &[FloorKind],
        meeple: Option<usize>,
        now: bool,
    ) {
        let rules = game.rules();
        let pos = game.towers()[t].pos;
        let view = TowerView {
            pos,
            floors: stack,
            meeple,
        };
        for k in 0..rules.floor_kinds().len() {
            let held = (0..ctx.n)
                .any(|p| p != ctx.me && game.players()[p].floors.get(k).copied().unwrap_or(0) > 0);
            let allowed = if now {
                game.towers()[t].allows_floor(k as FloorKind)
            } else {
                rules
                    .may_place_floor(&view, k as FloorKind)
                    .unwrap_or(false)
            };
            if !held || !allowed {
                continue;
            }
            let s0 = self.raise_stacks.len() as u32;
            self.raise_stacks.extend_from_slice(stack);
            self.raise_stacks.push(k as FloorKind);
            let s1 = self.raise_stacks.len() as u32;
            let c0 = self.raise_cells.len() as u32;
            let raised = TowerView {
                pos,
                floors: &self.raise_stacks[s0 as usize..s1 as usize],
                meeple,
            };
            range_of(&mut self.failed, game, &raised, &mut self.raise_cells);
            let c1 = self.raise_cells.len() as u32;
            let reach = self.raise_cells[c0 as usize..]
                .iter()
                .map(|&(x, y)| x.abs().max(y.abs()))
                .max()
                .unwrap_or(-1);
            self.raises.push(Raise {
                tower: t as u16,
                meeple,
                reach,
                stack: (s0, s1),
                cells: (c0, c1),
            });
        }
    }

    /// Could `raise` capture a meeple of the bot standing at `pos` on `spot`
    /// (`on`: what it stands on)?
    fn raise_threatens(
        &self,
        game: &Game,
        raise: &Raise,
        pos: Pos,
        spot: MeepleSpot,
        on: &'static str,
    ) -> bool {
        let tower = &game.towers()[raise.tower as usize];
        let d = (pos.x - tower.pos.x, pos.y - tower.pos.y);
        if d.0.abs().max(d.1.abs()) > raise.reach {
            return false;
        }
        let cells = &self.raise_cells[raise.cells.0 as usize..raise.cells.1 as usize];
        if !cells.contains(&d) {
            return false;
        }
        let view = TowerView {
            pos: tower.pos,
            floors: &self.raise_stacks[raise.stack.0 as usize..raise.stack.1 as usize],
            meeple: raise.meeple,
        };
        let mv = MeepleView {
            owner: self.me,
            pos,
            spot,
            on,
        };
        game.rules()
            .may_capture(&view, &mv, game.board())
            .unwrap_or(false)
    }

    /// The bot's meeples (mask over [`Game::meeples`]) that the raises in
    /// `raises[from..]` threaten.
    fn threatened_mask(&self, game: &Game, from: usize) -> u64 {
        let mut mask = 0u64;
        for (i, m) in game.meeples().iter().enumerate().take(64) {
            if m.owner as usize != self.me {
                continue;
            }
            let on = self.placed[i].on;
            if self.raises[from..]
                .iter()
                .any(|r| self.raise_threatens(game, r, m.pos, m.spot, on))
            {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// Every raise opponents could make next turn, and the threat per tower.
    fn index_threats(&mut self, game: &Game, ctx: &Ctx) {
        self.raises.clear();
        self.raise_stacks.clear();
        self.raise_cells.clear();
        self.threat.clear();
        for (t, tower) in game.towers().iter().enumerate() {
            let from = self.raises.len();
            let meeple = tower.meeple.map(usize::from);
            self.list_raises(game, ctx, t, &tower.floors, meeple, true);
            let mask = self.threatened_mask(game, from);
            self.threat.push(mask);
        }
    }

    /// What each of the bot's meeples would cost it if captured.
    fn index_stakes(&mut self, game: &Game, ctx: &Ctx) {
        self.stake.clear();
        for i in 0..game.meeples().len() {
            let s = if game.meeples()[i].owner as usize == self.me {
                // As if the next opponent took it.
                let d = self.capture_delta(game, ctx, i, (ctx.me + 1) % ctx.n);
                -Self::net(ctx, &d)
            } else {
                0.0
            };
            self.stake.push(s.max(0.0));
        }
    }

    /// The expected loss from the threats, with tower `t`'s mask replaced by
    /// `mask_t`.
    fn threat_loss(&self, ctx: &Ctx, t: usize, mask_t: u64) -> f32 {
        let mut all = mask_t;
        for (u, &m) in self.threat.iter().enumerate() {
            if u != t {
                all |= m;
            }
        }
        // An opponent takes one meeple a turn: the one that hurts most.
        let mut most = 0f32;
        while all != 0 {
            let i = all.trailing_zeros() as usize;
            all &= all - 1;
            most = most.max(self.stake.get(i).copied().unwrap_or(0.0));
        }
        ctx.threat_chance * most
    }

    /// The threat on tower `t` if it stood as `stack` with `meeple` on top.
    fn threat_if(
        &mut self,
        game: &Game,
        ctx: &Ctx,
        t: usize,
        stack: &[FloorKind],
        meeple: Option<usize>,
    ) -> u64 {
        if !game.meeples().iter().any(|m| m.owner as usize == self.me) {
            return 0;
        }
        let (r, s, c) = (
            self.raises.len(),
            self.raise_stacks.len(),
            self.raise_cells.len(),
        );
        self.list_raises(game, ctx, t, stack, meeple, false);
        let mask = self.threatened_mask(game, r);
        self.raises.truncate(r);
        self.raise_stacks.truncate(s);
        self.raise_cells.truncate(c);
        mask
    }

    /// Could an opponent add a floor to tower `t` standing as `stack` with
    /// `meeple` on top?
    fn raisable(
        &self,
        game: &Game,
        ctx: &Ctx,
        t: usize,
        stack: &[FloorKind],
        meeple: Option<usize>,
    ) -> bool {
        let rules = game.rules();
        let view = TowerView {
            pos: game.towers()[t].pos,
            floors: stack,
            meeple,
        };
        (0..rules.floor_kinds().len()).any(|k| {
            (0..ctx.n)
                .any(|p| p != ctx.me && game.players()[p].floors.get(k).copied().unwrap_or(0) > 0)
                && rules
                    .may_place_floor(&view, k as FloorKind)
                    .unwrap_or(false)
        })
    }

    /// Is a meeple of the bot at `pos` on `spot` threatened by a raise of
    /// any tower but `except`?
    fn spot_threatened(&self, game: &Game, pos: Pos, spot: MeepleSpot, except: usize) -> bool {
        let on = game.spot_name(pos, spot);
        self.raises
            .iter()
            .any(|r| r.tower as usize != except && self.raise_threatens(game, r, pos, spot, on))
    }

    // ---- captures (T5, T9, T10) --------------------------------------

    /// The change per player if `captor` took meeple `i` (T5, T10).
    fn capture_delta(&mut self, game: &Game, ctx: &Ctx, i: usize, captor: usize) -> Delta {
        let m = game.meeples()[i];
        let owner = m.owner as usize;
        let mut d = [0f32; SEATS];
        let root = self.placed[i].root;
        if root != FeatureId::MAX {
            let before = self.counts(root);
            let mut after = before;
            after[owner] -= 1;
            let v = self.feature_value(ctx, game, root);
            Self::award(&before, -v, &mut d);
            Self::award(&after, v, &mut d);
        }
        let supply = |p: usize| game.players()[p].meeples as u32;
        if owner == captor {
            d[owner] += Self::meeple(ctx, supply(owner) + 1);
        } else if game.prisoners(owner, captor) > 0 {
            // T10: exchanged at once; both meeples go home.
            d[owner] += Self::meeple(ctx, supply(owner) + 1) - PRISONER_WORTH * ctx.meeple_future;
            d[captor] += Self::meeple(ctx, supply(captor) + 1);
        } else {
            d[captor] += PRISONER_WORTH * ctx.meeple_future;
        }
        d
    }

    /// The value to the bot of taking meeple `i` itself; taking back its own
    /// meeple must clear a margin.
    fn capture_value(&mut self, game: &Game, ctx: &Ctx, i: usize) -> f32 {
        let d = self.capture_delta(game, ctx, i, ctx.me);
        let v = Self::net(ctx, &d);
        if game.meeples()[i].owner as usize == ctx.me {
            v - OWN_CAPTURE_MARGIN
        } else {
            v
        }
    }

    /// The best capture a floor of `kind` on tower `t` would allow.
    fn best_capture(&mut self, game: &Game, ctx: &Ctx, t: usize, kind: FloorKind) -> f32 {
        let tower = &game.towers()[t];
        self.stack.clear();
        self.stack.extend_from_slice(&tower.floors);
        self.stack.push(kind);
        let view = TowerView {
            pos: tower.pos,
            floors: &self.stack,
            meeple: tower.meeple.map(usize::from),
        };
        self.range.clear();
        if !range_of(&mut self.failed, game, &view, &mut self.range) {
            return 0.0;
        }
        let reach = self
            .range
            .iter()
            .map(|&(x, y)| x.abs().max(y.abs()))
            .max()
            .unwrap_or(-1);
        let mut best = 0f32;
        for (i, m) in game.meeples().iter().enumerate() {
            let d = (m.pos.x - tower.pos.x, m.pos.y - tower.pos.y);
            if d.0.abs().max(d.1.abs()) > reach || !self.range.contains(&d) {
                continue;
            }
            let view = TowerView {
                pos: tower.pos,
                floors: &self.stack,
                meeple: tower.meeple.map(usize::from),
            };
            let mv = MeepleView {
                owner: m.owner as usize,
                pos: m.pos,
                spot: m.spot,
                on: self.placed[i].on,
            };
            if !game
                .rules()
                .may_capture(&view, &mv, game.board())
                .unwrap_or(false)
            {
                continue;
            }
            best = best.max(self.capture_value(game, ctx, i));
        }
        best
    }

    // ---- actions (T3) -------------------------------------------------

    fn value_actions(&mut self, game: &Game, actions: &[Action]) {
        let ctx = self.ctx(game);
        self.index_meeples(game);
        self.index_threats(game, &ctx);
        self.index_stakes(game, &ctx);
        let me = &game.players()[ctx.me];
        let supply = me.meeples as u32;
        let base = self.threat_loss(&ctx, usize::MAX, 0);
        self.values.clear();
        // The best value so far: a tower option whose upper bound falls
        // short of it is not worked out in full.
        let mut best = f32::NEG_INFINITY;
        for &action in actions {
            let v = match action {
                Action::Pass => 0.0,
                Action::Meeple { segment } => self.value_meeple(game, &ctx, segment, supply, base),
                Action::Floor { tower, kind } => {
                    let t = tower as usize;
                    let capture = self.best_capture(game, &ctx, t, kind);
                    let cost = FLOOR_WORTH * ctx.meeple_future;
                    // At best the floor ends every threat from this tower.
                    let bound = capture + base - self.threat_loss(&ctx, t, 0) - cost;
                    if bound < best - TIE {
                        self.values.push(f32::NEG_INFINITY);
                        continue;
                    }
                    // A floor that leaves the tower open leaves its threat
                    // (grown, but that is not worked out: the rules are
                    // asked only about stacks a game may reach next); one
                    // that closes it to opponents' floors ends it.
                    let tw = &game.towers()[t];
                    let mut stack = std::mem::take(&mut self.hyp);
                    stack.clear();
                    stack.extend_from_slice(&tw.floors);
                    stack.push(kind);
                    let open = self.raisable(game, &ctx, t, &stack, tw.meeple.map(usize::from));
                    self.hyp = stack;
                    let mask = if open { self.threat[t] } else { 0 };
                    let protect = base - self.threat_loss(&ctx, t, mask);
                    capture + protect - cost
                }
                Action::TowerMeeple { tower } => {
                    let t = tower as usize;
                    let cost = Self::meeple(&ctx, supply);
                    if base - self.threat_loss(&ctx, t, 0) - cost < best - TIE {
                        self.values.push(f32::NEG_INFINITY);
                        continue;
                    }
                    let tw = &game.towers()[t];
                    let mask = self.threat_if(game, &ctx, t, &tw.floors, Some(ctx.me));
                    let mut loss = self.threat_loss(&ctx, t, mask);
                    if self.spot_threatened(game, tw.pos, MeepleSpot::Tower, t) {
                        loss = loss.max(ctx.threat_chance * cost);
                    }
                    base - loss - cost
                }
            };
            best = best.max(v);
            self.values.push(v);
        }
    }

    /// A meeple on segment `segment` of the tile just placed.
    /// `base`: the expected loss from the threats as they stand.
    fn value_meeple(&mut self, game: &Game, ctx: &Ctx, segment: u8, supply: u32, base: f32) -> f32 {
        let Some(pos) = game.board().tiles().last().map(|t| t.pos) else {
            return 0.0;
        };
        let Some(id) = game.segment_id(pos, segment) else {
            return 0.0;
        };
        let fs = game.features();
        let root = fs.root(id);
        let value = self.feature_value(ctx, game, root);
        let complete = match fs.kind(root) {
            SegmentKind::Road | SegmentKind::City => fs.is_complete(root),
            SegmentKind::Cloister => neighbours(game, pos) >= 8,
            _ => false,
        };
        if complete {
            // Scored this turn; the meeple comes straight back (G7).
            return value;
        }
        let cost = Self::meeple(ctx, supply);
        let exposed = if self.spot_threatened(game, pos, MeepleSpot::Segment(segment), usize::MAX) {
            (ctx.threat_chance * (value + Self::meeple(ctx, supply)) - base).max(0.0)
        } else {
            0.0
        };
        value - cost - exposed
    }
}

/// Append the capture range of `tower` (T6) to `out`; `false`, with nothing
/// appended, when the rules fail to answer. Failures are remembered in
/// `failed` (by stack and whether a meeple tops it) and not asked again: a
/// pack whose hook runs out of operations would otherwise run it to its limit
/// at every ask.
fn range_of(
    failed: &mut Vec<(Vec<FloorKind>, bool)>,
    game: &Game,
    tower: &TowerView,
    out: &mut Vec<(i32, i32)>,
) -> bool {
    let topped = tower.meeple.is_some();
    if failed
        .iter()
        .any(|(s, m)| *m == topped && s.as_slice() == tower.floors)
    {
        return false;
    }
    let start = out.len();
    if game.rules().capture_range(tower, game.board(), out).is_ok() {
        return true;
    }
    out.truncate(start);
    failed.push((tower.floors.to_vec(), topped));
    false
}

/// Tiles around `pos` (G6).
fn neighbours(game: &Game, pos: Pos) -> u32 {
    pos.around().filter(|&q| game.board().has_tile(q)).count() as u32
}

impl GreedyBot {
    /// The value of every option of `decision`, as the bot weighs them
    /// (higher is better; one value per option): for bots that search.
    pub fn values(&mut self, game: &Game, decision: Decision) -> &[f32] {
        self.weigh(game, decision);
        if self.values.len() != decision.len() {
            self.values.clear();
            self.values.resize(decision.len(), 0.0);
        }
        &self.values
    }

    fn weigh(&mut self, game: &Game, decision: Decision) {
        self.me = game.current();
        match decision {
            Decision::Placement { tile, options } => self.value_placements(game, tile, options),
            Decision::Ransom(options) => {
                let ctx = self.ctx(game);
                let supply = game.players()[ctx.me].meeples as u32;
                self.values.clear();
                for &o in options {
                    let v = match o {
                        RansomChoice::Decline => 0.0,
                        RansomChoice::Pay { captor, cost } => {
                            let mut d = [0f32; SEATS];
                            d[ctx.me] = Self::meeple(&ctx, supply + 1) - cost as f32;
                            d[captor as usize] = cost as f32 - PRISONER_WORTH * ctx.meeple_future;
                            Self::net(&ctx, &d)
                        }
                    };
                    self.values.push(v);
                }
            }
            Decision::Action(options) => self.value_actions(game, options),
            Decision::Capture(options) => {
                let ctx = self.ctx(game);
                self.index_meeples(game);
                self.values.clear();
                for &o in options {
                    let v = match o {
                        CaptureChoice::Decline => 0.0,
                        CaptureChoice::Take { meeple } => {
                            self.capture_value(game, &ctx, meeple as usize)
                        }
                    };
                    self.values.push(v);
                }
            }
        }
    }
}

impl Bot for GreedyBot {
    fn decide(&mut self, game: &Game, decision: Decision) -> usize {
        self.weigh(game, decision);
        if self.values.len() != decision.len() {
            return 0;
        }
        self.choose()
    }
}
