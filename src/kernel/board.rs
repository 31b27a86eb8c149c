//! The board: which tile lies on which cell, and the open positions where a
//! tile could go next, each with what its neighbours require (G1).
//!
//! Cells live in a dense grid that grows (doubling) when a tile lands near its
//! edge, so a lookup is an index computation. The open positions are kept
//! incrementally as tiles arrive; nothing scans the whole board per turn.

use crate::kernel::geometry::{Dir, Pos};
use crate::kernel::tiles::{TileKind, pattern_bits};

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    /// Index of the tile kind in the tile set.
    pub kind: u16,
    /// Quarter turns clockwise.
    pub rot: u8,
    pub pos: Pos,
    /// Feature id of the tile's first segment; segment `s` is `first_segment + s`.
    pub first_segment: u32,
}

/// Tiles around a complete cloister (G6): every cell around one.
pub const CLOISTER_NEIGHBOURS: u32 = 8;

/// An empty cell next to at least one tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenSpot {
    pub pos: Pos,
    /// What the neighbours require, 2 bits per edge (see `tiles::pattern_bits`).
    pub pattern: u8,
}

#[derive(Clone, Copy, Default)]
struct Cell {
    /// Placed-tile index + 1; 0 when empty.
    tile: u16,
    /// Open-spot index + 1; 0 when not open.
    open: u16,
}

pub struct Board {
    min: Pos,
    width: i32,
    height: i32,
    cells: Vec<Cell>,
    tiles: Vec<PlacedTile>,
    open: Vec<OpenSpot>,
    /// See [`Board::stamp`].
    stamp: u64,
}

/// The [`Board::stamp`] of a board with no tile.
const EMPTY_STAMP: u64 = 0x9E37_79B9_7F4A_7C15;

/// What one placed tile adds to a [`Board::stamp`] (Zobrist hashing: the
/// stamp is the XOR of its tiles' keys, so it is a function of the board's
/// content alone — no counter shared by the process — and two boards of
/// different content share one with a chance of 2^-64): splitmix64's
/// finaliser over the cell, then over the kind and rotation.
fn tile_key(kind: u16, p: Pos, rot: u8) -> u64 {
    let cell = u64::from(p.x as u32) | u64::from(p.y as u32) << 32;
    mix(mix(cell) ^ (u64::from(kind) << 2 | u64::from(rot & 3)))
}

/// splitmix64's finaliser: every bit of the result depends on every bit of
/// `z`.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Clone for Board {
    fn clone(&self) -> Self {
        Board {
            min: self.min,
            width: self.width,
            height: self.height,
            cells: self.cells.clone(),
            tiles: self.tiles.clone(),
            open: self.open.clone(),
            stamp: self.stamp,
        }
    }

    /// Reuses the copy's buffers (a search copies a board every iteration).
    fn clone_from(&mut self, source: &Self) {
        let Board {
            min,
            width,
            height,
            cells,
            tiles,
            open,
            stamp,
        } = source;
        self.min = *min;
        self.width = *width;
        self.height = *height;
        self.cells.clone_from(cells);
        self.tiles.clone_from(tiles);
        self.open.clone_from(open);
        self.stamp = *stamp;
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    pub fn new() -> Board {
        let size = 32;
        Board {
            min: Pos::new(-size / 2, -size / 2),
            width: size,
            height: size,
            cells: vec![Cell::default(); (size * size) as usize],
            tiles: Vec::new(),
            open: Vec::new(),
            stamp: EMPTY_STAMP,
        }
    }

    /// A number that names this board's content: the same for boards with
    /// the same tiles (however placed, in any game or thread), another for
    /// boards with other tiles (but for a chance of 2^-64). What rules read
    /// from a board can be kept under it.
    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    #[inline]
    fn slot(&self, p: Pos) -> Option<usize> {
        let (x, y) = (p.x - self.min.x, p.y - self.min.y);
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            None
        } else {
            Some((y * self.width + x) as usize)
        }
    }

    /// The index (placement order) of the tile at `p`.
    #[inline]
    pub fn tile_index(&self, p: Pos) -> Option<usize> {
        let cell = self.cells[self.slot(p)?];
        (cell.tile != 0).then(|| cell.tile as usize - 1)
    }

    #[inline]
    pub fn has_tile(&self, p: Pos) -> bool {
        self.tile_index(p).is_some()
    }

    /// How many of the [`CLOISTER_NEIGHBOURS`] cells around `p` hold a
    /// tile.
    pub fn neighbours(&self, p: Pos) -> u32 {
        p.around().filter(|&q| self.has_tile(q)).count() as u32
    }

    pub fn tile_at(&self, p: Pos) -> Option<&PlacedTile> {
        self.tile_index(p).map(|i| &self.tiles[i])
    }

    /// Tiles in placement order.
    pub fn tiles(&self) -> &[PlacedTile] {
        &self.tiles
    }

    /// The open positions, in a deterministic order.
    pub fn open_spots(&self) -> &[OpenSpot] {
        &self.open
    }

    /// The neighbour pattern at an empty cell (0 when nothing touches it).
    pub fn pattern_at(&self, p: Pos) -> u8 {
        self.slot(p)
            .map(|s| self.cells[s].open)
            .filter(|&o| o != 0)
            .map_or(0, |o| self.open[o as usize - 1].pattern)
    }

    /// May a tile of `kind` go at `p` turned by `rot` (G1)? The first tile may
    /// go anywhere; later ones must touch a tile and match every shared edge.
    pub fn fits(&self, kind: &TileKind, p: Pos, rot: u8) -> bool {
        if self.tiles.is_empty() {
            return true;
        }
        if self.has_tile(p) {
            return false;
        }
        let pattern = self.pattern_at(p);
        if pattern == 0 {
            return false;
        }
        let rotation = &kind.rotations[rot as usize & 3];
        Dir::ALL.iter().all(|&d| {
            let need = (pattern >> (2 * d as u8)) & 3;
            need == 0 || need == rotation.edges[d.index()] as u8
        })
    }

    /// Put a tile down. The caller has checked [`Board::fits`].
    pub fn place(&mut self, kind_index: u16, kind: &TileKind, p: Pos, rot: u8, first_segment: u32) {
        self.ensure(p);
        self.stamp ^= tile_key(kind_index, p, rot);
        let index = self.tiles.len();
        self.tiles.push(PlacedTile {
            kind: kind_index,
            rot,
            pos: p,
            first_segment,
        });
        let slot = self.slot(p).expect("ensured");
        self.cells[slot].tile = index as u16 + 1;
        self.close_spot(slot);
        let rotation = &kind.rotations[rot as usize];
        for d in Dir::ALL {
            let q = p.step(d);
            let qs = self.slot(q).expect("ensured");
            if self.cells[qs].tile != 0 {
                continue;
            }
            let bits = pattern_bits(d.opposite(), rotation.edges[d.index()]);
            if self.cells[qs].open == 0 {
                self.open.push(OpenSpot { pos: q, pattern: 0 });
                self.cells[qs].open = self.open.len() as u16;
            }
            self.open[self.cells[qs].open as usize - 1].pattern |= bits;
        }
    }

    fn close_spot(&mut self, slot: usize) {
        let o = self.cells[slot].open;
        if o == 0 {
            return;
        }
        self.cells[slot].open = 0;
        let i = o as usize - 1;
        self.open.swap_remove(i);
        if i < self.open.len() {
            let moved = self.open[i].pos;
            let ms = self.slot(moved).expect("open spots are on the grid");
            self.cells[ms].open = i as u16 + 1;
        }
    }

    /// Grow the grid so that `p` and its neighbours are on it.
    fn ensure(&mut self, p: Pos) {
        let covers = |min: Pos, width: i32, height: i32| {
            p.x > min.x && p.y > min.y && p.x + 1 < min.x + width && p.y + 1 < min.y + height
        };
        if covers(self.min, self.width, self.height) {
            return;
        }
        let (mut min, mut width, mut height) = (self.min, self.width, self.height);
        while !covers(min, width, height) {
            min = Pos::new(min.x - width / 2, min.y - height / 2);
            width *= 2;
            height *= 2;
        }
        let mut cells = vec![Cell::default(); (width * height) as usize];
        for y in 0..self.height {
            for x in 0..self.width {
                let old = self.cells[(y * self.width + x) as usize];
                let (nx, ny) = (x + self.min.x - min.x, y + self.min.y - min.y);
                cells[(ny * width + nx) as usize] = old;
            }
        }
        self.min = min;
        self.width = width;
        self.height = height;
        self.cells = cells;
    }

    /// The smallest rectangle holding every tile: (min, max) corners.
    pub fn bounds(&self) -> Option<(Pos, Pos)> {
        let first = self.tiles.first()?.pos;
        Some(self.tiles.iter().fold((first, first), |(lo, hi), t| {
            (
                Pos::new(lo.x.min(t.pos.x), lo.y.min(t.pos.y)),
                Pos::new(hi.x.max(t.pos.x), hi.y.max(t.pos.y)),
            )
        }))
    }
}
