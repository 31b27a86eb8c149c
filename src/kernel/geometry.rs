//! Grid geometry: positions, the four edge directions, the eight half-edges and
//! rotation by quarter turns.
//!
//! x grows east, y grows north; the start tile stands at (0, 0). A half-edge is
//! named as seen from the tile's centre looking out through its edge (see
//! `docs/tiles.md`): NL, NR, EL, ER, SL, SR, WL, WR, which is also their
//! clockwise order, so a quarter turn clockwise adds 1 to a direction and 2 to
//! a half-edge.

use std::fmt;

use serde::{Deserialize, Serialize};

/// No cell, as [`Pos::packed`] writes cells (no cell packs to it).
pub const NO_CELL: i64 = i64::MIN;

/// A cell of the board (`{"x": …, "y": …}` in JSON).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const ORIGIN: Pos = Pos { x: 0, y: 0 };

    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }

    /// The neighbouring cell across edge `dir`.
    pub fn step(self, dir: Dir) -> Pos {
        let (dx, dy) = dir.offset();
        Pos::new(self.x + dx, self.y + dy)
    }

    pub fn offset(self, dx: i32, dy: i32) -> Pos {
        Pos::new(self.x + dx, self.y + dy)
    }

    /// The cell as one number: x in the high 32 bits, y in the low (as
    /// state values and reads keep cells); no cell packs to [`NO_CELL`].
    pub fn packed(self) -> i64 {
        (self.x as i64) << 32 | (self.y as u32) as i64
    }

    /// The cell of [`Pos::packed`]; `None` for [`NO_CELL`].
    pub fn unpacked(packed: i64) -> Option<Pos> {
        (packed != NO_CELL).then(|| Pos::new((packed >> 32) as i32, packed as i32))
    }

    /// The eight cells around this one (cloister neighbourhood, G6).
    pub fn around(self) -> impl Iterator<Item = Pos> {
        const RING: [(i32, i32); 8] = [
            (-1, 1),
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
            (-1, 0),
        ];
        RING.iter().map(move |&(dx, dy)| self.offset(dx, dy))
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// One of the four edges of a tile, in clockwise order from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    N = 0,
    E = 1,
    S = 2,
    W = 3,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    pub fn from_index(i: usize) -> Dir {
        Dir::ALL[i & 3]
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn opposite(self) -> Dir {
        Dir::from_index(self.index() + 2)
    }

    /// The direction after `quarters` quarter turns clockwise.
    pub fn rotated(self, quarters: u8) -> Dir {
        Dir::from_index(self.index() + quarters as usize)
    }

    pub fn offset(self) -> (i32, i32) {
        match self {
            Dir::N => (0, 1),
            Dir::E => (1, 0),
            Dir::S => (0, -1),
            Dir::W => (-1, 0),
        }
    }

    pub fn letter(self) -> char {
        ['N', 'E', 'S', 'W'][self.index()]
    }

    pub fn parse(s: &str) -> Option<Dir> {
        match s {
            "N" => Some(Dir::N),
            "E" => Some(Dir::E),
            "S" => Some(Dir::S),
            "W" => Some(Dir::W),
            _ => None,
        }
    }

    /// The two half-edges of this edge.
    pub fn halves(self) -> [Half; 2] {
        [Half(self as u8 * 2), Half(self as u8 * 2 + 1)]
    }
}

/// A half-edge, 0..8 in the order NL NR EL ER SL SR WL WR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Half(pub u8);

impl Half {
    pub const NAMES: [&'static str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];

    pub fn parse(s: &str) -> Option<Half> {
        Half::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Half(i as u8))
    }

    pub fn dir(self) -> Dir {
        Dir::from_index(self.0 as usize / 2)
    }

    pub fn rotated(self, quarters: u8) -> Half {
        Half((self.0 + 2 * quarters) & 7)
    }

    /// The half-edge of the neighbouring tile that touches this one: NL faces
    /// the neighbour's SR, NR its SL, EL its WR, ER its WL.
    pub fn facing(self) -> Half {
        Half(((self.0 ^ 1) + 4) & 7)
    }
}

/// A rotation in quarter turns clockwise (0..4).
pub fn degrees(quarters: u8) -> u16 {
    quarters as u16 * 90
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_halves_pair_up() {
        let pairs = [("NL", "SR"), ("NR", "SL"), ("EL", "WR"), ("ER", "WL")];
        for (a, b) in pairs {
            let (a, b) = (Half::parse(a).unwrap(), Half::parse(b).unwrap());
            assert_eq!(a.facing(), b);
            assert_eq!(b.facing(), a);
            assert_eq!(a.dir().opposite(), b.dir());
        }
    }

    #[test]
    fn rotation_moves_north_to_east() {
        assert_eq!(Dir::N.rotated(1), Dir::E);
        assert_eq!(Dir::W.rotated(1), Dir::N);
        assert_eq!(
            Half::parse("NL").unwrap().rotated(1),
            Half::parse("EL").unwrap()
        );
        assert_eq!(
            Half::parse("WR").unwrap().rotated(1),
            Half::parse("NR").unwrap()
        );
    }
}
