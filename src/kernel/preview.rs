//! Read-only previews of a placement: what putting a tile down would do to
//! the roads, cities, fields and cloisters it touches, without placing it and
//! without cloning the game.
//!
//! A preview joins the new tile's segments with the roots of the features
//! across its up-to-4 edges (and 8 half-edges, for fields), exactly as
//! placing the tile would, and sums what the roots carry: open edge ends,
//! pennants, meeples; roads and cities also get their tile count. Bots use it
//! to weigh placements (G4–G7) at the cost of a few root lookups per option.

use anyhow::{Result, anyhow, ensure};

use crate::kernel::features::{FeatureId, Features};
use crate::kernel::game::{Game, Placement};
use crate::kernel::geometry::{Dir, Half, Pos};
use crate::kernel::tiles::{EdgeKind, NO_SEGMENT, SegmentKind, TileKind};

/// Most distinct placed features one tile can touch: 4 edges and 8
/// half-edges.
const MAX_JOINS: usize = 12;
/// Local union–find nodes: a tile's segments (at most 32) and the roots it
/// touches.
const NODES: usize = 32 + MAX_JOINS;

/// A road, city or field as it would be after the placement: the new tile's
/// segments that belong to it and the placed features it would join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeaturePreview {
    pub kind: SegmentKind,
    /// The new tile's segments in it (bit `s`: segment `s` of the tile kind).
    pub segments: u32,
    joins: [FeatureId; MAX_JOINS],
    joined: u8,
    /// Roads and cities: open edge ends after the placement (0: complete).
    /// Fields: 0.
    pub open: u32,
    /// Roads and cities: distinct tiles after the placement, the new one
    /// included. Fields: 0 (not counted).
    pub tiles: u32,
    pub pennants: u32,
    /// Meeples standing on the features it joins.
    pub meeples: u32,
}

impl FeaturePreview {
    /// Roots of the placed features it would join (none: a new feature).
    pub fn joins(&self) -> &[FeatureId] {
        &self.joins[..self.joined as usize]
    }

    /// A road or city the placement would complete (G4, G5).
    pub fn complete(&self) -> bool {
        matches!(self.kind, SegmentKind::Road | SegmentKind::City) && self.open == 0
    }
}

/// A cloister on the new tile or around it, as it would be after the
/// placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CloisterPreview {
    pub pos: Pos,
    /// The cloister's feature id; `None` for the new tile's own cloister.
    pub feature: Option<FeatureId>,
    /// Tiles around it after the placement; 8 completes it (G6).
    pub neighbours: u32,
    pub meeples: u32,
}

/// The result of a preview, reusable across calls (it keeps its buffers).
#[derive(Clone, Debug, Default)]
pub struct PlacementPreview {
    features: Vec<FeaturePreview>,
    cloisters: Vec<CloisterPreview>,
    /// One bit per placed tile, for counting distinct tiles.
    seen: Vec<u64>,
    /// Tiles per feature root, 0 when not counted yet: valid for one
    /// position only (see [`Previewer`]).
    tile_counts: Vec<u32>,
}

impl PlacementPreview {
    /// Every road, city and field the new tile's segments would be part of,
    /// each once.
    pub fn features(&self) -> &[FeaturePreview] {
        &self.features
    }

    /// The cloister on the new tile, if any, and every unscored cloister
    /// around it.
    pub fn cloisters(&self) -> &[CloisterPreview] {
        &self.cloisters
    }

    /// The road, city or field that segment `segment` of the new tile would
    /// belong to.
    pub fn feature_of(&self, segment: u8) -> Option<&FeaturePreview> {
        self.features
            .iter()
            .find(|f| f.segments & (1 << segment) != 0)
    }
}

/// Every node its own parent.
const IDENTITY: [u8; NODES] = {
    let mut a = [0u8; NODES];
    let mut i = 0;
    while i < NODES {
        a[i] = i as u8;
        i += 1;
    }
    a
};

/// A tiny union–find over the new tile's segments and the roots it touches.
struct Local {
    parent: [u8; NODES],
}

impl Local {
    fn find(&self, mut i: u8) -> u8 {
        while self.parent[i as usize] != i {
            i = self.parent[i as usize];
        }
        i
    }

    fn union(&mut self, a: u8, b: u8) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
}

impl<'a> Game<'a> {
    /// What placing a tile of `kind` at `at` would do, written into `out`:
    /// the roads, cities and fields its segments would belong to (open ends,
    /// tiles, pennants, meeples, which placed features they join) and the
    /// cloisters on and around it (neighbours after the placement). The game
    /// is not changed. Fails when the tile does not fit there (G1).
    ///
    /// To preview many placements of one position, a [`Previewer`] is
    /// faster: it counts each feature's tiles once.
    pub fn preview_placement(
        &self,
        kind: u16,
        at: Placement,
        out: &mut PlacementPreview,
    ) -> Result<()> {
        self.previewer(out).preview(kind, at).map(|_| ())
    }

    /// A previewer for the game as it stands, using `buffers`. While it
    /// lives the game cannot change, so it may keep what it learns (each
    /// feature's tile count) from one preview to the next.
    pub fn previewer<'g>(&'g self, buffers: &'g mut PlacementPreview) -> Previewer<'g, 'a> {
        buffers.tile_counts.clear();
        buffers.tile_counts.resize(self.features().len(), 0);
        Previewer {
            game: self,
            out: buffers,
        }
    }
}

/// Previews placements on one position of a game (see
/// [`Game::previewer`]).
pub struct Previewer<'g, 'a> {
    game: &'g Game<'a>,
    out: &'g mut PlacementPreview,
}

impl Previewer<'_, '_> {
    /// What placing a tile of `kind` at `at` would do (see
    /// [`Game::preview_placement`]).
    pub fn preview(&mut self, kind: u16, at: Placement) -> Result<&PlacementPreview> {
        let out = &mut *self.out;
        let game = self.game;
        out.features.clear();
        out.cloisters.clear();
        let k = fitting_kind(game, kind, at)?;
        let joins = Joins::across_edges(game, k, at);
        let leaders = Leaders::of(k, &joins);
        for &g in leaders.groups() {
            out.features.push(joins.feature(game.features(), k, g));
        }
        count_tiles(out, game);
        push_cloisters(out, game, k, at);
        Ok(out)
    }
}

/// The kind of tile `kind`, when it fits at `at` (G1).
fn fitting_kind<'a>(game: &Game<'a>, kind: u16, at: Placement) -> Result<&'a TileKind> {
    let k = game
        .tiles()
        .kinds
        .get(kind as usize)
        .ok_or_else(|| anyhow!("no tile kind {kind}"))?;
    ensure!(
        at.rot < 4 && game.board().fits(k, at.pos, at.rot),
        "tile {} does not fit at {} turned {}°",
        k.name,
        at.pos,
        at.rot as u16 * 90
    );
    Ok(k)
}

/// The new tile's segments joined, in a local forest, with the roots of the
/// placed features across its edges and half-edges, as placing it would.
struct Joins {
    /// Segments of the new tile: nodes `0..nseg`; the roots it touches follow.
    nseg: usize,
    roots: [FeatureId; MAX_JOINS],
    nroots: usize,
    /// Edge joins per segment of the new tile: each closes two open ends.
    connections: [u8; 32],
    /// Each node's group: its root in the local forest.
    group: [u8; NODES],
}

impl Joins {
    fn across_edges(game: &Game, k: &TileKind, at: Placement) -> Joins {
        let (tiles, board, features) = (game.tiles(), game.board(), game.features());
        let rotation = &k.rotations[at.rot as usize];
        let mut local = Local { parent: IDENTITY };
        let mut joins = Joins {
            nseg: k.segments.len(),
            roots: [0; MAX_JOINS],
            nroots: 0,
            connections: [0; 32],
            group: [0; NODES],
        };
        for d in Dir::ALL {
            let Some(other) = board.tile_at(at.pos.step(d)) else {
                continue;
            };
            let ok = &tiles.kinds[other.kind as usize].rotations[other.rot as usize];
            let back = d.opposite();
            if matches!(rotation.edges[d.index()], EdgeKind::City | EdgeKind::Road) {
                let s = rotation.edge_segment[d.index()];
                let r = features.root(other.first_segment + ok.edge_segment[back.index()] as u32);
                local.union(s, joins.node_of(r));
                joins.connections[s as usize] += 1;
            }
            for h in d.halves() {
                let mine = rotation.half_segment[h.0 as usize];
                let theirs = ok.half_segment[Half::facing(h).0 as usize];
                if mine != NO_SEGMENT && theirs != NO_SEGMENT {
                    let r = features.root(other.first_segment + theirs as u32);
                    local.union(mine, joins.node_of(r));
                }
            }
        }
        for i in 0..joins.nseg + joins.nroots {
            joins.group[i] = local.find(i as u8);
        }
        joins
    }

    /// The local node of a placed feature's root, added on first sight.
    fn node_of(&mut self, root: FeatureId) -> u8 {
        let i = self.roots[..self.nroots]
            .iter()
            .position(|&r| r == root)
            .unwrap_or_else(|| {
                self.roots[self.nroots] = root;
                self.nroots += 1;
                self.nroots - 1
            });
        (self.nseg + i) as u8
    }

    /// The roots of the placed features in group `g`.
    fn joined(&self, g: u8) -> impl Iterator<Item = FeatureId> + '_ {
        self.roots[..self.nroots]
            .iter()
            .enumerate()
            .filter(move |&(j, _)| self.group[self.nseg + j] == g)
            .map(|(_, &r)| r)
    }

    /// The road, city or field of group `g` as it would be, summed in
    /// locals and built whole (its tile count comes later).
    fn feature(&self, features: &Features, k: &TileKind, g: u8) -> FeaturePreview {
        let mut kind = SegmentKind::Field;
        let (mut segments, mut open, mut closed, mut pennants) = (0u32, 0u32, 0u32, 0u32);
        for (s, seg) in k.segments.iter().enumerate() {
            if seg.kind == SegmentKind::Cloister
                || seg.kind == SegmentKind::Foundation
                || self.group[s] != g
            {
                continue;
            }
            kind = seg.kind;
            segments |= 1 << s;
            open += seg.edges.count_ones();
            pennants += u32::from(seg.pennant);
            closed += 2 * self.connections[s] as u32;
        }
        let mut joins = [0; MAX_JOINS];
        let (mut meeples, mut joined) = (0u32, 0usize);
        for root in self.joined(g) {
            joins[joined] = root;
            joined += 1;
            open += features.open_ends(root);
            pennants += features.pennants(root);
            meeples += features.meeples(root);
        }
        FeaturePreview {
            kind,
            segments,
            joins,
            joined: joined as u8,
            open: if kind == SegmentKind::Field {
                0
            } else {
                open.saturating_sub(closed)
            },
            tiles: 0,
            pennants,
            meeples,
        }
    }
}

/// One group of the local forest per road, city or field of the new tile,
/// in the order of their first segment.
struct Leaders {
    leaders: [u8; 32],
    count: usize,
}

impl Leaders {
    fn of(k: &TileKind, joins: &Joins) -> Leaders {
        let mut group_of = [u8::MAX; NODES];
        let mut out = Leaders {
            leaders: [0; 32],
            count: 0,
        };
        for (s, seg) in k.segments.iter().enumerate() {
            if matches!(
                seg.kind,
                SegmentKind::Road | SegmentKind::City | SegmentKind::Field
            ) {
                let g = joins.group[s] as usize;
                if group_of[g] == u8::MAX {
                    group_of[g] = out.count as u8;
                    out.leaders[out.count] = g as u8;
                    out.count += 1;
                }
            }
        }
        out
    }

    fn groups(&self) -> &[u8] {
        &self.leaders[..self.count]
    }
}

/// The tile count of every previewed road and city: the distinct tiles of the
/// features it joins, plus the new one. A lone joined feature's count is kept
/// for the next preview of the same position.
fn count_tiles(out: &mut PlacementPreview, game: &Game) {
    let features = game.features();
    let seen = &mut out.seen;
    seen.resize(game.board().tiles().len() / 64 + 1, 0);
    for f in out.features.iter_mut() {
        if f.kind == SegmentKind::Field {
            continue;
        }
        if let [root] = *f.joins() {
            let cached = &mut out.tile_counts[root as usize];
            if *cached == 0 {
                *cached = distinct_tiles(features, &[root], seen);
            }
            f.tiles = *cached + 1;
        } else {
            f.tiles = distinct_tiles(features, f.joins(), seen) + 1;
        }
    }
}

/// Cloisters: the tile's own, and those it would add a neighbour to.
fn push_cloisters(out: &mut PlacementPreview, game: &Game, k: &TileKind, at: Placement) {
    let (tiles, board, features) = (game.tiles(), game.board(), game.features());
    let around = |p: Pos| p.around().filter(|&q| board.has_tile(q)).count() as u32;
    if k.cloister.is_some() {
        out.cloisters.push(CloisterPreview {
            pos: at.pos,
            feature: None,
            neighbours: around(at.pos),
            meeples: 0,
        });
    }
    for q in at.pos.around() {
        let Some(t) = board.tile_at(q) else {
            continue;
        };
        let Some(c) = tiles.kinds[t.kind as usize].cloister else {
            continue;
        };
        let id = t.first_segment + c as u32;
        if features.is_done(id) {
            continue;
        }
        out.cloisters.push(CloisterPreview {
            pos: q,
            feature: Some(id),
            neighbours: around(q) + 1,
            meeples: features.meeples(id),
        });
    }
}

/// The distinct tiles of the features with roots `roots`, taken together (a
/// feature may cross one tile twice, G4; two features may share a tile).
/// `seen` is all zeros, one bit per placed tile, and is left so.
fn distinct_tiles(features: &Features, roots: &[FeatureId], seen: &mut [u64]) -> u32 {
    let mut count = 0;
    for &root in roots {
        for m in features.members(root) {
            let t = features.place_of(m).0;
            let bit = 1u64 << (t % 64);
            if seen[t / 64] & bit == 0 {
                seen[t / 64] |= bit;
                count += 1;
            }
        }
    }
    for &root in roots {
        for m in features.members(root) {
            seen[features.place_of(m).0 / 64] = 0;
        }
    }
    count
}
