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
    /// What the cells around the last position previewed hold: valid for
    /// one position of the game only (see [`Previewer`]).
    around: Surroundings,
}

/// What the cells around one empty position hold, as every preview there
/// reads it: a decision lists each position's rotations together, so the
/// neighbours' roots and cloisters are looked up once per position, not
/// once per rotation.
#[derive(Clone, Debug, Default)]
struct Surroundings {
    /// The position described; `None`: nothing yet.
    pos: Option<Pos>,
    /// Per edge: the root of the placed road or city across it.
    edge_root: [Option<FeatureId>; 4],
    /// Per half-edge: the root of the placed field facing it.
    half_root: [Option<FeatureId>; 8],
    /// Tiles around the position: the neighbours of a cloister placed there.
    neighbours: u32,
    /// The unscored cloisters around the position, a tile there counted.
    cloisters: Vec<CloisterPreview>,
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

    /// A node's parent is never after it (a union hangs the later root
    /// under the earlier).
    fn union(&mut self, a: u8, b: u8) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }

    /// The root of each of the first nodes, in `group`: in one pass from the
    /// first, as a node's parent comes before it and so has its root found.
    fn groups(&self, group: &mut [u8]) {
        for i in 0..group.len() {
            let p = self.parent[i];
            group[i] = if p as usize == i {
                p
            } else {
                group[p as usize]
            };
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
        buffers.around.pos = None;
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
        if out.around.pos != Some(at.pos) {
            out.around.describe(game, at.pos);
        }
        let joins = Joins::across_edges(k, at, &out.around);
        let leaders = Leaders::of(k, &joins);
        push_features(&mut out.features, &joins, &leaders, game.features(), k);
        count_tiles(out, game);
        push_cloisters(out, k, at);
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
    #[inline]
    fn across_edges(k: &TileKind, at: Placement, around: &Surroundings) -> Joins {
        let rotation = &k.rotations[at.rot as usize];
        let mut local = Local { parent: IDENTITY };
        let mut joins = Joins {
            nseg: k.segments.len(),
            roots: [0; MAX_JOINS],
            nroots: 0,
            connections: [0; 32],
            group: [0; NODES],
        };
        // Edges and half-edges in the order placing the tile joins them, so
        // the roots come in the same order (the previews' `joins`).
        for d in Dir::ALL {
            if matches!(rotation.edges[d.index()], EdgeKind::City | EdgeKind::Road)
                && let Some(r) = around.edge_root[d.index()]
            {
                let s = rotation.edge_segment[d.index()];
                local.union(s, joins.node_of(r));
                joins.connections[s as usize] += 1;
            }
            for h in d.halves() {
                let mine = rotation.half_segment[h.0 as usize];
                if mine != NO_SEGMENT
                    && let Some(r) = around.half_root[h.0 as usize]
                {
                    local.union(mine, joins.node_of(r));
                }
            }
        }
        local.groups(&mut joins.group[..joins.nseg + joins.nroots]);
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
}

/// One group of the local forest per road, city or field of the new tile,
/// in the order of their first segment.
struct Leaders {
    count: usize,
    /// Each group's place among the leaders (`u8::MAX`: not a road, city
    /// or field).
    slot: [u8; NODES],
}

impl Leaders {
    fn of(k: &TileKind, joins: &Joins) -> Leaders {
        let mut out = Leaders {
            count: 0,
            slot: [u8::MAX; NODES],
        };
        for (s, seg) in k.segments.iter().enumerate() {
            if matches!(
                seg.kind,
                SegmentKind::Road | SegmentKind::City | SegmentKind::Field
            ) {
                let g = joins.group[s] as usize;
                if out.slot[g] == u8::MAX {
                    out.slot[g] = out.count as u8;
                    out.count += 1;
                }
            }
        }
        out
    }
}

/// The road, city or field of every leader's group as it would be, in the
/// leaders' order (their tile counts come later): the new tile's segments
/// and the placed features joined, summed in one pass over each.
fn push_features(
    out: &mut Vec<FeaturePreview>,
    joins: &Joins,
    leaders: &Leaders,
    features: &Features,
    k: &TileKind,
) {
    const EMPTY: FeaturePreview = FeaturePreview {
        kind: SegmentKind::Field,
        segments: 0,
        joins: [0; MAX_JOINS],
        joined: 0,
        open: 0,
        tiles: 0,
        pennants: 0,
        meeples: 0,
    };
    out.clear();
    out.resize(leaders.count, EMPTY);
    let mut closed = [0u32; 32];
    for (s, seg) in k.segments.iter().enumerate() {
        let slot = leaders.slot[joins.group[s] as usize];
        if slot == u8::MAX {
            continue;
        }
        let f = &mut out[slot as usize];
        f.kind = seg.kind;
        f.segments |= 1 << s;
        f.open += seg.edges.count_ones();
        f.pennants += u32::from(seg.pennant);
        closed[slot as usize] += 2 * joins.connections[s] as u32;
    }
    for (j, &root) in joins.roots[..joins.nroots].iter().enumerate() {
        let slot = leaders.slot[joins.group[joins.nseg + j] as usize];
        if slot == u8::MAX {
            continue;
        }
        let f = &mut out[slot as usize];
        f.joins[f.joined as usize] = root;
        f.joined += 1;
        f.open += features.open_ends(root);
        f.pennants += features.pennants(root);
        f.meeples += features.meeples(root);
    }
    for (f, &closed) in out.iter_mut().zip(&closed) {
        f.open = if f.kind == SegmentKind::Field {
            0
        } else {
            f.open.saturating_sub(closed)
        };
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
fn push_cloisters(out: &mut PlacementPreview, k: &TileKind, at: Placement) {
    if k.cloister.is_some() {
        out.cloisters.push(CloisterPreview {
            pos: at.pos,
            feature: None,
            neighbours: out.around.neighbours,
            meeples: 0,
        });
    }
    out.cloisters.extend_from_slice(&out.around.cloisters);
}

impl Surroundings {
    /// Describe the cells around `pos` in `game`.
    fn describe(&mut self, game: &Game, pos: Pos) {
        let (tiles, board, features) = (game.tiles(), game.board(), game.features());
        // Each cell around looked at once: the ring holds the four
        // neighbours across the edges too.
        let mut ring = [None; 8];
        for (cell, q) in ring.iter_mut().zip(pos.around()) {
            *cell = board.tile_at(q).map(|t| (q, *t));
        }
        self.pos = Some(pos);
        self.edge_root = [None; 4];
        self.half_root = [None; 8];
        for d in Dir::ALL {
            let Some((q, other)) = ring[ring_index(d)] else {
                continue;
            };
            debug_assert_eq!(q, pos.step(d));
            let ok = &tiles.kinds[other.kind as usize].rotations[other.rot as usize];
            let root = |segment: u8| features.root(other.first_segment + segment as u32);
            let theirs = ok.edge_segment[d.opposite().index()];
            if matches!(
                ok.edges[d.opposite().index()],
                EdgeKind::City | EdgeKind::Road
            ) {
                self.edge_root[d.index()] = Some(root(theirs));
            }
            for h in d.halves() {
                let theirs = ok.half_segment[Half::facing(h).0 as usize];
                if theirs != NO_SEGMENT {
                    self.half_root[h.0 as usize] = Some(root(theirs));
                }
            }
        }
        let around = |p: Pos| p.around().filter(|&q| board.has_tile(q)).count() as u32;
        self.neighbours = ring.iter().flatten().count() as u32;
        self.cloisters.clear();
        for &(q, t) in ring.iter().flatten() {
            let Some(c) = tiles.kinds[t.kind as usize].cloister else {
                continue;
            };
            let id = t.first_segment + c as u32;
            if features.is_done(id) {
                continue;
            }
            self.cloisters.push(CloisterPreview {
                pos: q,
                feature: Some(id),
                neighbours: around(q) + 1,
                meeples: features.meeples(id),
            });
        }
    }
}

/// Where the cell across edge `d` comes in [`Pos::around`]'s ring.
fn ring_index(d: Dir) -> usize {
    2 * d.index() + 1
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
