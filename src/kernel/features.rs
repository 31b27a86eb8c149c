//! Features: roads, cities, fields, cloisters and foundations as connected
//! across tiles (G4–G8, T2).
//!
//! Every segment of every placed tile is a node of a union–find forest; a
//! feature is a tree, and its root carries what scoring needs, updated as tiles
//! arrive: open edge ends (a road or city is complete at zero), pennants, and
//! how many meeples stand on it. Members of a feature form a circular list so
//! that scoring can visit them without a board scan.

use crate::kernel::board::{Board, CLOISTER_NEIGHBOURS};
use crate::kernel::tiles::{SegmentKind, TileKind};

/// A feature (segment) id: `PlacedTile::first_segment + segment index`.
pub type FeatureId = u32;

#[derive(Clone, Debug)]
struct Node {
    parent: u32,
    next: u32,
    size: u32,
    tile: u16,
    segment: u8,
    kind: SegmentKind,
    pennants: u16,
    /// Open edge ends (roads and cities); meaningful at the root.
    open: u16,
    meeples: u8,
    /// Scored as complete; meaningful at the root.
    done: bool,
}

#[derive(Default)]
pub struct Features {
    nodes: Vec<Node>,
}

impl Clone for Features {
    fn clone(&self) -> Self {
        Features {
            nodes: self.nodes.clone(),
        }
    }

    /// Reuses the copy's buffer (a search copies a game every iteration).
    fn clone_from(&mut self, source: &Self) {
        self.nodes.clone_from(&source.nodes);
    }
}

impl Features {
    /// Add the segments of a tile just placed; returns the first id.
    pub fn add_tile(&mut self, tile: u16, kind: &TileKind) -> FeatureId {
        let first = self.nodes.len() as u32;
        for (i, seg) in kind.segments.iter().enumerate() {
            let id = first + i as u32;
            self.nodes.push(Node {
                parent: id,
                next: id,
                size: 1,
                tile,
                segment: i as u8,
                kind: seg.kind,
                pennants: u16::from(seg.pennant),
                open: seg.edges.count_ones() as u16,
                meeples: 0,
                done: false,
            });
        }
        first
    }

    /// The root of `id`'s feature (no path compression: callable on `&self`;
    /// union by size keeps trees shallow).
    #[inline]
    pub fn root(&self, mut id: FeatureId) -> FeatureId {
        while self.nodes[id as usize].parent != id {
            id = self.nodes[id as usize].parent;
        }
        id
    }

    /// Join the edge end of `a` with the edge end of `b` across a shared edge.
    /// Each such join closes two open ends.
    pub fn connect(&mut self, a: FeatureId, b: FeatureId) {
        let (ra, rb) = (self.root(a), self.root(b));
        let root = if ra == rb { ra } else { self.merge(ra, rb) };
        let node = &mut self.nodes[root as usize];
        node.open = node.open.saturating_sub(2);
    }

    /// Join two fields (no open ends involved).
    pub fn join(&mut self, a: FeatureId, b: FeatureId) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra != rb {
            self.merge(ra, rb);
        }
    }

    fn merge(&mut self, ra: FeatureId, rb: FeatureId) -> FeatureId {
        let (big, small) = if self.nodes[ra as usize].size >= self.nodes[rb as usize].size {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let s = self.nodes[small as usize].clone();
        let b = &mut self.nodes[big as usize];
        b.size += s.size;
        b.pennants += s.pennants;
        b.open += s.open;
        b.meeples += s.meeples;
        b.done |= s.done;
        // Splice the two circular member lists.
        let big_next = b.next;
        b.next = s.next;
        let sm = &mut self.nodes[small as usize];
        sm.next = big_next;
        sm.parent = big;
        big
    }

    pub fn kind(&self, id: FeatureId) -> SegmentKind {
        self.nodes[id as usize].kind
    }

    /// The placed-tile index and segment index of a node.
    pub fn place_of(&self, id: FeatureId) -> (usize, usize) {
        let n = &self.nodes[id as usize];
        (n.tile as usize, n.segment as usize)
    }

    pub fn is_complete(&self, root: FeatureId) -> bool {
        self.nodes[root as usize].open == 0
    }

    pub fn is_done(&self, root: FeatureId) -> bool {
        self.nodes[root as usize].done
    }

    pub fn mark_done(&mut self, root: FeatureId) {
        self.nodes[root as usize].done = true;
    }

    /// Open edge ends of a road or city (0 when complete); meaningful at the
    /// root.
    pub fn open_ends(&self, root: FeatureId) -> u32 {
        self.nodes[root as usize].open as u32
    }

    pub fn pennants(&self, root: FeatureId) -> u32 {
        self.nodes[root as usize].pennants as u32
    }

    pub fn meeples(&self, root: FeatureId) -> u32 {
        self.nodes[root as usize].meeples as u32
    }

    pub fn add_meeple(&mut self, id: FeatureId) {
        let r = self.root(id);
        self.nodes[r as usize].meeples += 1;
    }

    pub fn remove_meeple(&mut self, id: FeatureId) {
        let r = self.root(id);
        let n = &mut self.nodes[r as usize];
        n.meeples = n.meeples.saturating_sub(1);
    }

    /// All meeples have left the feature (it was scored as complete).
    pub fn clear_meeples(&mut self, root: FeatureId) {
        self.nodes[root as usize].meeples = 0;
    }

    /// Every node of the feature whose root is `root`.
    pub fn members(&self, root: FeatureId) -> Members<'_> {
        Members {
            features: self,
            start: root,
            next: Some(root),
        }
    }

    /// The number of distinct tiles the feature covers (a road loop through
    /// one tile twice counts it once, G4).
    pub fn tile_count(&self, root: FeatureId, scratch: &mut Vec<u16>) -> u32 {
        scratch.clear();
        scratch.extend(self.members(root).map(|m| self.nodes[m as usize].tile));
        scratch.sort_unstable();
        scratch.dedup();
        scratch.len() as u32
    }

    /// How far the feature whose root is `root` has grown on `board`, for
    /// every kind of feature: a road or city counts its distinct tiles and
    /// is complete when closed (G4, G5); a cloister counts its own tile and
    /// the placed tiles around it, complete with all eight (G6); a field
    /// (G7) and a tower foundation (T2) count their tiles and are never
    /// complete: they are scored only at the end, or never.
    pub fn extent(&self, board: &Board, root: FeatureId, scratch: &mut Vec<u16>) -> Extent {
        match self.kind(root) {
            SegmentKind::Cloister => {
                let (tile, _) = self.place_of(root);
                let around = board.neighbours(board.tiles()[tile].pos);
                Extent {
                    tiles: 1 + around,
                    complete: around == CLOISTER_NEIGHBOURS,
                }
            }
            SegmentKind::City | SegmentKind::Road => Extent {
                tiles: self.tile_count(root, scratch),
                complete: self.is_complete(root),
            },
            SegmentKind::Field | SegmentKind::Foundation => Extent {
                tiles: self.tile_count(root, scratch),
                complete: false,
            },
        }
    }

    /// Roots of every feature, in id order.
    pub fn roots(&self) -> impl Iterator<Item = FeatureId> + '_ {
        (0..self.nodes.len() as u32).filter(|&i| self.nodes[i as usize].parent == i)
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// How far a feature has grown: see [`Features::extent`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    /// The distinct tiles it covers (a cloister: its own and its placed
    /// neighbours).
    pub tiles: u32,
    pub complete: bool,
}

pub struct Members<'a> {
    features: &'a Features,
    start: FeatureId,
    next: Option<FeatureId>,
}

impl Iterator for Members<'_> {
    type Item = FeatureId;

    fn next(&mut self) -> Option<FeatureId> {
        let cur = self.next?;
        let after = self.features.nodes[cur as usize].next;
        self.next = (after != self.start).then_some(after);
        Some(cur)
    }
}
