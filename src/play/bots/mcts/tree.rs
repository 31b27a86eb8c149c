//! The search tree: a node per decision point reached (an information set:
//! the public history, the tiles drawn included, but never the order of the
//! tiles still to come), an edge per option, with visit counts and reward
//! sums kept on the edges.
//!
//! Selection is UCB1 over the options a node has *opened*: options are
//! opened one by one in the order of their prior value (the greedy bot's
//! weighing), as the node's visits grow (progressive widening), so the many
//! placements of a tile cost nothing until the search has the visits to
//! tell them apart. A progressive bias adds the prior, fading with visits.
//!
//! The nodes, edges and child links of a search live in three flat arenas,
//! emptied together when a new search begins: a search adds a node or two
//! an iteration, and none of them allocates on its own.

/// No node.
pub const NONE: u32 = u32::MAX;

/// Options opened at a node with `v` visits: `OPEN_BASE + OPEN_RATE·√v`.
const OPEN_BASE: f32 = 2.0;
const OPEN_RATE: f32 = 1.0;
/// The weight of the prior (its gap below the best prior, in points), divided
/// by the edge's visits + 1.
const BIAS: f32 = 1.0;
/// A prior gap counts at most this much.
const BIAS_CAP: f32 = 20.0;

/// One option of a node.
pub struct Edge {
    /// Its index in the kernel's list of options.
    pub option: u16,
    pub prior: f32,
    pub visits: u32,
    /// Sum of the rewards of the player who decides at the node.
    pub total: f32,
    /// The first of the nodes reached through it (a [`Link`]; [`NONE`]:
    /// none yet), keyed by the tiles drawn on the way.
    children: u32,
}

/// A node reached through an edge after the draws `key`; `next`: the
/// edge's next such link.
struct Link {
    key: u64,
    child: u32,
    next: u32,
}

impl Edge {
    /// The mean reward of the iterations through it.
    pub fn mean(&self) -> f32 {
        self.total / self.visits.max(1) as f32
    }
}

/// A decision point.
pub struct Node {
    /// The player deciding.
    pub player: u8,
    pub visits: u32,
    /// Its edges, best prior first: where they start in the tree's edges,
    /// and how many (none: not opened yet).
    edges: (u32, u32),
}

/// The nodes of a search, the root first, with their edges and links.
pub struct Tree {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    links: Vec<Link>,
    pub root: u32,
    /// The exploration constant of UCB1, in points of margin.
    explore: f32,
    /// [`Tree::open`]'s buffer: the options with their priors, best first.
    order: Vec<(f32, u16)>,
}

impl Tree {
    /// An empty tree whose UCB1 explores with `explore`.
    pub fn new(explore: f32) -> Tree {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            links: Vec::new(),
            root: NONE,
            explore,
            order: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.links.clear();
        self.root = NONE;
    }

    pub fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    /// The edges of node `id`, best prior first.
    pub fn edges(&self, id: u32) -> &[Edge] {
        let (start, len) = self.nodes[id as usize].edges;
        &self.edges[start as usize..(start + len) as usize]
    }

    fn edges_mut(&mut self, id: u32) -> &mut [Edge] {
        let (start, len) = self.nodes[id as usize].edges;
        &mut self.edges[start as usize..(start + len) as usize]
    }

    /// A new node for `player`, its options not listed yet ([`Tree::open`]).
    pub fn add(&mut self, player: usize) -> u32 {
        self.nodes.push(Node {
            player: player as u8,
            visits: 0,
            edges: (0, 0),
        });
        (self.nodes.len() - 1) as u32
    }

    /// Whether `node`'s options are listed (a decision point has two or
    /// more).
    pub fn is_open(&self, node: u32) -> bool {
        self.nodes[node as usize].edges.1 > 0
    }

    /// List `node`'s options, one edge per prior (option `i` has prior
    /// `priors[i]`). A node is opened once.
    pub fn open(&mut self, node: u32, priors: &[f32]) {
        // Stable: equal priors keep the kernel's order. The options are
        // sorted as (prior, index) pairs (a node has many, an edge is
        // large), then made into edges in that order.
        let order = &mut self.order;
        order.clear();
        order.extend(priors.iter().enumerate().map(|(i, &p)| {
            let p = if p.is_nan() { f32::NEG_INFINITY } else { p };
            (p, i as u16)
        }));
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
        debug_assert!(
            self.nodes[node as usize].edges.1 == 0,
            "a node is opened once"
        );
        let start = self.edges.len() as u32;
        self.edges.extend(order.iter().map(|&(prior, option)| Edge {
            option,
            prior,
            visits: 0,
            total: 0.0,
            children: NONE,
        }));
        self.nodes[node as usize].edges = (start, self.edges.len() as u32 - start);
    }

    /// The node reached from `edge` of `node` after the draws `key`.
    pub fn child(&self, node: u32, edge: usize, key: u64) -> Option<u32> {
        let mut at = self.edges(node)[edge].children;
        while at != NONE {
            let link = &self.links[at as usize];
            if link.key == key {
                return Some(link.child);
            }
            at = link.next;
        }
        None
    }

    /// Record `child` as the node reached from `edge` of `node` after the
    /// draws `key` (not reached so before: each key is linked once, so the
    /// links' order does not matter).
    pub fn link(&mut self, node: u32, edge: usize, key: u64, child: u32) {
        let at = self.links.len() as u32;
        let e = &mut self.edges_mut(node)[edge];
        let next = std::mem::replace(&mut e.children, at);
        self.links.push(Link { key, child, next });
    }

    /// The edge to follow from `node`: the first opened option never tried,
    /// else the best by UCB1 with the progressive bias.
    pub fn select(&self, node: u32) -> usize {
        let n = &self.nodes[node as usize];
        let all = self.edges(node);
        let opened =
            ((OPEN_BASE + OPEN_RATE * (n.visits as f32).sqrt()) as usize).clamp(1, all.len());
        let edges = &all[..opened];
        if let Some(i) = edges.iter().position(|e| e.visits == 0) {
            return i;
        }
        let log = (n.visits.max(1) as f32).ln();
        let best_prior = edges[0].prior;
        let score = |e: &Edge| {
            e.mean() + self.explore * (log / e.visits as f32).sqrt() + prior_bias(e, best_prior)
        };
        // Each edge's score is worked out once: the same operations, so the
        // same values, as comparing scores worked out anew.
        let (mut best, mut top) = (0, score(&edges[0]));
        for (i, e) in edges.iter().enumerate().skip(1) {
            let s = score(e);
            if s > top {
                (best, top) = (i, s);
            }
        }
        best
    }

    /// How sequential halving ranks the root's `edge`: its mean reward
    /// with the progressive bias of its prior (as [`Tree::select`] weighs
    /// it, without UCB1's exploration).
    pub fn root_score(&self, edge: usize) -> f32 {
        let edges = self.edges(self.root);
        let e = &edges[edge];
        e.mean() + prior_bias(e, edges[0].prior)
    }

    /// Add one visit with the players' `rewards` to every edge of `path`,
    /// each edge taking the reward of the player who chose it.
    pub fn backup(&mut self, path: &[(u32, usize)], rewards: &[f32]) {
        for &(node, edge) in path {
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            let r = rewards[n.player as usize];
            let e = &mut self.edges_mut(node)[edge];
            e.visits += 1;
            e.total += r;
        }
    }
}

/// The progressive bias of edge `e`: its prior's gap below the node's best
/// prior `best_prior` (at most [`BIAS_CAP`]), times [`BIAS`], fading with
/// its visits.
fn prior_bias(e: &Edge, best_prior: f32) -> f32 {
    let gap = (e.prior - best_prior).max(-BIAS_CAP);
    let gap = if gap.is_finite() { gap } else { -BIAS_CAP };
    BIAS * gap / (e.visits + 1) as f32
}
