//! How one tile kind is drawn, computed from its data alone: city shapes over
//! the edges they touch, roads between their edges or from an edge to the
//! centre, a cloister and a foundation; and where a meeple stands on each
//! segment, found on a grid of sample points labelled with the segment drawn
//! on top there.
//!
//! Everything here is in the tile's printed orientation (rotation 0), in SVG
//! coordinates: x east, y *south*, the tile the square `[0, TILE]²`.

pub mod draw;
mod shape;
mod spots;

use std::cell::OnceCell;

use crate::kernel::tiles::{EdgeKind, SegmentKind, TileKind};

pub use shape::{Path, Pt, num};
use shape::{corner, edge_mid, inside};
use spots::Spots;

/// The side of a tile, in pixels.
pub const TILE: f64 = 60.0;
/// Half the width of a road.
pub const ROAD_HALF_WIDTH: f64 = 4.5;
/// Half the side of a foundation's square.
pub const FOUNDATION_HALF: f64 = 8.0;
/// Half the width and height of a cloister.
pub const CLOISTER_HALF: (f64, f64) = (9.0, 8.0);

pub const CENTRE: Pt = Pt::new(TILE / 2.0, TILE / 2.0);

/// A road as drawn: through roads (two edges) go over cities, roads ending
/// in the tile go under them (a city gate).
#[derive(Clone, Debug)]
pub struct RoadArt {
    pub segment: u8,
    pub path: Path,
    pub through: bool,
}

/// A city as drawn.
#[derive(Clone, Debug)]
pub struct CityArt {
    pub segment: u8,
    pub path: Path,
    points: Vec<Pt>,
}

/// Everything needed to draw a tile kind and stand meeples on it.
#[derive(Clone, Debug)]
pub struct TileArt<'k> {
    kind: &'k TileKind,
    pub cities: Vec<CityArt>,
    pub roads: Vec<RoadArt>,
    /// Where the cloister stands, if any.
    pub cloister: Option<Pt>,
    /// Where the foundation (and so the tower) stands, if any.
    pub foundation: Option<Pt>,
    /// A straight road that passes under the foundation, by one of its two
    /// edges (0 north … 3 west): drawn across the foundation's square so it
    /// is seen to go through rather than end there.
    pub road_under_foundation: Option<usize>,
    /// A junction mark at the centre, where road ends meet on open ground.
    pub junction: bool,
    /// Meeple and pennant spots, worked out when first asked for.
    spots: OnceCell<Spots>,
}

impl<'k> TileArt<'k> {
    pub fn new(kind: &'k TileKind) -> TileArt<'k> {
        let base = &kind.rotations[0];
        let has = |mask: u8, d: usize| mask & (1 << d) != 0;
        let mut cities = Vec::new();
        let mut roads = Vec::new();
        let mut stubs = 0;
        let mut straight = None;
        for (s, seg) in kind.segments.iter().enumerate() {
            match seg.kind {
                SegmentKind::City => {
                    let path = city_path(seg.edges, |d| base.edges[d] == EdgeKind::City);
                    let points = path.points();
                    cities.push(CityArt {
                        segment: s as u8,
                        path,
                        points,
                    });
                }
                SegmentKind::Road => {
                    let edges: Vec<usize> = (0..4).filter(|&d| has(seg.edges, d)).collect();
                    if let [a, b] = edges[..] {
                        let mut path = Path::new(edge_mid(a));
                        if (a + 2) % 4 == b {
                            path.line(edge_mid(b));
                            straight = Some(a);
                        } else {
                            // The corner the two edges share.
                            let k = if (a + 1) % 4 == b { b } else { a };
                            path.quad(CENTRE.lerp(corner(k), 0.3), edge_mid(b));
                        }
                        roads.push(RoadArt {
                            segment: s as u8,
                            path,
                            through: true,
                        });
                    } else {
                        for d in edges {
                            let mut path = Path::new(edge_mid(d));
                            path.line(CENTRE);
                            stubs += 1;
                            roads.push(RoadArt {
                                segment: s as u8,
                                path,
                                through: false,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        let (cloister, foundation) = match (kind.cloister, kind.foundation) {
            (Some(_), Some(_)) => (Some(Pt::new(22.0, 37.0)), Some(Pt::new(41.0, 19.0))),
            (c, f) => (c.map(|_| CENTRE), f.map(|_| CENTRE)),
        };
        let centre_taken = cloister == Some(CENTRE) || foundation == Some(CENTRE);
        // A straight road runs through the centre, so under a foundation there.
        let road_under_foundation = straight.filter(|_| foundation == Some(CENTRE));
        let in_city = cities.iter().any(|c| inside(&c.points, CENTRE));
        let junction = !centre_taken && (stubs >= 2 || (stubs == 1 && !in_city));
        TileArt {
            kind,
            cities,
            roads,
            cloister,
            foundation,
            road_under_foundation,
            junction,
            spots: OnceCell::new(),
        }
    }

    /// Where a meeple stands, per segment (printed orientation).
    pub fn anchors(&self) -> &[Pt] {
        &self.spots().anchors
    }

    /// Where a pennant is drawn, per city with one (printed orientation).
    pub fn pennants(&self) -> &[Pt] {
        if self.kind.segments.iter().any(|s| s.pennant) {
            &self.spots().pennants
        } else {
            &[]
        }
    }
}

/// The outline of a city touching the edges in `mask`: along each of its
/// edges, and across the tile, curving inwards, over each run of edges it
/// does not touch. `is_city(d)`: edge `d` shows a city (another one, when
/// this city does not touch it), which pushes the curve deeper to leave room.
fn city_path(mask: u8, is_city: impl Fn(usize) -> bool) -> Path {
    let has = |d: usize| mask & (1 << (d % 4)) != 0;
    if mask & 0xF == 0xF {
        let mut p = Path::new(corner(0));
        for i in 1..4 {
            p.line(corner(i));
        }
        p.closed = true;
        return p;
    }
    let start = (0..4).find(|&d| has(d) && !has(d + 3)).unwrap_or(0);
    let mut path = Path::new(corner(start));
    let mut i = 0;
    while i < 4 {
        let d = start + i;
        if has(d) {
            path.line(corner(d + 1));
            i += 1;
            continue;
        }
        let mut gap = 0;
        while i + gap < 4 && !has(d + gap) {
            gap += 1;
        }
        let control = match gap {
            1 => {
                let m = edge_mid(d % 4);
                m.lerp(CENTRE, if is_city(d % 4) { 1.75 } else { 1.2 })
            }
            2 => CENTRE.lerp(corner(d + 1), 0.2),
            _ => {
                // A city on one edge: a cap over it.
                let m = edge_mid((d + 3) % 4);
                m.lerp(CENTRE, 1.2)
            }
        };
        path.quad(control, corner(d + gap));
        i += gap;
    }
    path.closed = true;
    path
}
