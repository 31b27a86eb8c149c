//! Where meeples and pennants stand on a tile kind: a grid of sample points
//! labelled with the segment drawn on top there, each segment's anchor the
//! sample farthest from the others and from the border.

use std::collections::VecDeque;

use crate::kernel::geometry::{Dir, Half};
use crate::kernel::tiles::{NO_SEGMENT, SegmentKind, TileKind};

use super::shape::{Pt, corner, edge_mid, inside, near_polyline};
use super::{CENTRE, CLOISTER_HALF, FOUNDATION_HALF, TILE, TileArt};

/// Sample points per side of the labelling grid.
const GRID: usize = 30;
const CELL: f64 = TILE / GRID as f64;
/// A sample covered by nothing (a pocket no field reaches).
const NOTHING: u8 = 254;
/// A sample not yet given to a field.
const FREE: u8 = 255;

#[derive(Clone, Debug)]
pub(super) struct Spots {
    pub(super) anchors: Vec<Pt>,
    pub(super) pennants: Vec<Pt>,
}

impl TileArt<'_> {
    pub(super) fn spots(&self) -> &Spots {
        self.spots.get_or_init(|| {
            let kind = self.kind;
            let labels = self.labels(kind);
            let clear = clearance(&labels);
            let anchors: Vec<Pt> = (0..kind.segments.len())
                .map(|s| self.anchor(kind, s as u8, &labels, &clear))
                .collect();
            let pennants = kind
                .segments
                .iter()
                .enumerate()
                .filter(|(_, seg)| seg.kind == SegmentKind::City && seg.pennant)
                .map(|(s, _)| pennant_spot(s as u8, anchors[s], &labels, &clear))
                .collect();
            Spots { anchors, pennants }
        })
    }

    /// The segment drawn on top at each sample point (row-major, north row
    /// first), in drawing order reversed: foundation, cloister, through
    /// roads, cities (last drawn first), road ends, then fields grown from
    /// the half-edges they touch.
    fn labels(&self, kind: &TileKind) -> Vec<u8> {
        let mut labels = vec![FREE; GRID * GRID];
        let lines: Vec<(bool, u8, Vec<Pt>)> = self
            .roads
            .iter()
            .map(|r| (r.through, r.segment, r.path.points()))
            .collect();
        for (i, label) in labels.iter_mut().enumerate() {
            let p = sample(i);
            let near =
                |c: Pt, (hx, hy): (f64, f64)| (p.x - c.x).abs() <= hx && (p.y - c.y).abs() <= hy;
            let on_road = |through: bool| {
                lines
                    .iter()
                    .find(|(t, _, line)| *t == through && near_polyline(line, p))
                    .map(|(_, s, _)| *s)
            };
            *label = if let (Some(f), Some(s)) = (self.foundation, kind.foundation)
                && near(f, (FOUNDATION_HALF, FOUNDATION_HALF))
            {
                s
            } else if let (Some(c), Some(s)) = (self.cloister, kind.cloister)
                && near(c, CLOISTER_HALF)
            {
                s
            } else if let Some(s) = on_road(true) {
                s
            } else if let Some(c) = self.cities.iter().rev().find(|c| inside(&c.points, p)) {
                c.segment
            } else if let Some(s) = on_road(false) {
                s
            } else {
                FREE
            };
        }
        // Fields: grown from the samples along each half-edge they touch.
        let base = &kind.rotations[0];
        let mut queue = VecDeque::new();
        for h in 0..8u8 {
            let field = base.half_segment[h as usize];
            if field == NO_SEGMENT {
                continue;
            }
            for i in half_samples(Half(h)) {
                if labels[i] == FREE {
                    labels[i] = field;
                    queue.push_back(i);
                }
            }
        }
        flood(&mut labels, &mut queue);
        // What no half-edge reaches belongs to the fields that touch none
        // (a field enclosed by cities), one pocket each in turn.
        let enclosed: Vec<u8> = kind
            .segments
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind == SegmentKind::Field && s.halves == 0)
            .map(|(i, _)| i as u8)
            .collect();
        let mut next = 0;
        for i in 0..labels.len() {
            if labels[i] != FREE {
                continue;
            }
            let field = enclosed
                .get(next % enclosed.len().max(1))
                .copied()
                .unwrap_or(NOTHING);
            next += 1;
            labels[i] = field;
            queue.push_back(i);
            flood(&mut labels, &mut queue);
        }
        labels
    }

    /// Where a meeple on segment `s` stands: the sample of that segment
    /// farthest from every other segment and from the tile's border (near
    /// the segment's middle when several are as far).
    fn anchor(&self, kind: &TileKind, s: u8, labels: &[u8], clear: &[f64]) -> Pt {
        if Some(s) == kind.cloister {
            return self.cloister.unwrap_or(CENTRE);
        }
        if Some(s) == kind.foundation {
            return self.foundation.unwrap_or(CENTRE);
        }
        let own: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == s).collect();
        if own.is_empty() {
            return fallback_anchor(kind, s);
        }
        let n = own.len() as f64;
        let middle = Pt::new(
            own.iter().map(|&i| sample(i).x).sum::<f64>() / n,
            own.iter().map(|&i| sample(i).y).sum::<f64>() / n,
        );
        let best = own
            .iter()
            .copied()
            .max_by(|&a, &b| {
                let score = |i: usize| clear[i] - 0.05 * sample(i).dist(middle);
                score(a).total_cmp(&score(b))
            })
            .expect("not empty");
        sample(best)
    }
}

/// The centre of sample `i`.
fn sample(i: usize) -> Pt {
    Pt::new(
        (i % GRID) as f64 * CELL + CELL / 2.0,
        (i / GRID) as f64 * CELL + CELL / 2.0,
    )
}

/// The samples along half-edge `h`, just inside the tile.
fn half_samples(h: Half) -> Vec<usize> {
    let dir = h.dir();
    let first = corner(dir.index());
    let last = corner(dir.index() + 1);
    let (from, to) = if h.0.is_multiple_of(2) {
        (0.0, 0.5)
    } else {
        (0.5, 1.0)
    };
    let mut out = Vec::new();
    let steps = GRID / 2;
    for k in 0..steps {
        let t = from + (to - from) * (k as f64 + 0.5) / steps as f64;
        let mut p = first.lerp(last, t);
        // One sample inwards from the border.
        let (dx, dy) = match dir {
            Dir::N => (0.0, 1.0),
            Dir::E => (-1.0, 0.0),
            Dir::S => (0.0, -1.0),
            Dir::W => (1.0, 0.0),
        };
        p = Pt::new(p.x + dx * CELL / 2.0, p.y + dy * CELL / 2.0);
        let col = ((p.x / CELL).floor() as usize).min(GRID - 1);
        let row = ((p.y / CELL).floor() as usize).min(GRID - 1);
        out.push(row * GRID + col);
    }
    out
}

/// Give the label of each queued sample to the free samples it reaches.
fn flood(labels: &mut [u8], queue: &mut VecDeque<usize>) {
    while let Some(i) = queue.pop_front() {
        let (r, c) = (i / GRID, i % GRID);
        let mut next = Vec::with_capacity(4);
        if r > 0 {
            next.push(i - GRID);
        }
        if r + 1 < GRID {
            next.push(i + GRID);
        }
        if c > 0 {
            next.push(i - 1);
        }
        if c + 1 < GRID {
            next.push(i + 1);
        }
        for j in next {
            if labels[j] == FREE {
                labels[j] = labels[i];
                queue.push_back(j);
            }
        }
    }
}

/// How far each sample is from the nearest sample of another segment and
/// from the tile's border (up to a cap: only the nearby matters).
fn clearance(labels: &[u8]) -> Vec<f64> {
    const REACH: i64 = 8;
    (0..labels.len())
        .map(|i| {
            let p = sample(i);
            let border = p.x.min(p.y).min(TILE - p.x).min(TILE - p.y);
            // In grid steps, squared: the nearest sample of another label.
            let mut nearest = i64::MAX;
            let (r, c) = ((i / GRID) as i64, (i % GRID) as i64);
            for rr in (r - REACH).max(0)..=(r + REACH).min(GRID as i64 - 1) {
                let row = rr as usize * GRID;
                for cc in (c - REACH).max(0)..=(c + REACH).min(GRID as i64 - 1) {
                    if labels[row + cc as usize] != labels[i] {
                        nearest = nearest.min((rr - r).pow(2) + (cc - c).pow(2));
                    }
                }
            }
            let other = if nearest == i64::MAX {
                f64::INFINITY
            } else {
                (nearest as f64).sqrt() * CELL - CELL / 2.0
            };
            border.min(other).max(0.0)
        })
        .collect()
}

/// Where a city's pennant goes: well inside the city, away from where its
/// meeple stands.
fn pennant_spot(s: u8, anchor: Pt, labels: &[u8], clear: &[f64]) -> Pt {
    let own = || (0..labels.len()).filter(move |&i| labels[i] == s);
    let pick = |min_clear: f64, min_away: f64| {
        own()
            .filter(|&i| clear[i] >= min_clear && sample(i).dist(anchor) >= min_away)
            .max_by(|&a, &b| {
                let score =
                    |i: usize| clear[i].min(9.0) - 0.1 * (sample(i).dist(anchor) - 15.0).abs();
                score(a).total_cmp(&score(b))
            })
            .map(sample)
    };
    pick(6.0, 13.0)
        .or_else(|| pick(3.0, 9.0))
        .unwrap_or(Pt::new(anchor.x + 10.0, anchor.y))
}

/// A segment that no sample shows (covered entirely): its edges' and
/// half-edges' middle, pulled towards the centre.
fn fallback_anchor(kind: &TileKind, s: u8) -> Pt {
    let seg = &kind.segments[s as usize];
    let mut pts: Vec<Pt> = (0..4)
        .filter(|d| seg.edges & (1 << d) != 0)
        .map(edge_mid)
        .collect();
    for h in 0..8u8 {
        if seg.halves & (1 << h) != 0 {
            let d = h as usize / 2;
            let t = if h.is_multiple_of(2) { 0.25 } else { 0.75 };
            pts.push(corner(d).lerp(corner(d + 1), t));
        }
    }
    if pts.is_empty() {
        return CENTRE;
    }
    let n = pts.len() as f64;
    let mean = Pt::new(
        pts.iter().map(|p| p.x).sum::<f64>() / n,
        pts.iter().map(|p| p.y).sum::<f64>() / n,
    );
    mean.lerp(CENTRE, 0.35)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::tiles::TileSet;

    fn shipped() -> TileSet {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        TileSet::load(&[dir.join("base/tiles.toml"), dir.join("tower/tiles.toml")]).unwrap()
    }

    /// Every segment a meeple may stand on has its anchor on that segment
    /// (the label at the anchor is the segment itself), on every shipped tile.
    #[test]
    fn anchors_lie_on_their_segments() {
        let set = shipped();
        for kind in &set.kinds {
            let art = TileArt::new(kind);
            let labels = art.labels(kind);
            for (s, seg) in kind.segments.iter().enumerate() {
                if matches!(seg.kind, SegmentKind::Cloister | SegmentKind::Foundation) {
                    continue;
                }
                let a = art.anchors()[s];
                let i = (a.y / CELL) as usize * GRID + (a.x / CELL) as usize;
                assert_eq!(
                    labels[i], s as u8,
                    "{}: segment {s} ({:?}) anchored at {a:?}",
                    kind.name, seg.kind
                );
            }
        }
    }

    /// Two fields of a tile never share an anchor, and each field's own
    /// half-edges are labelled with it.
    #[test]
    fn fields_start_from_their_half_edges() {
        let set = shipped();
        let kind = &set.kinds[set.find("base/RCr").unwrap()];
        let art = TileArt::new(kind);
        // RCr: the field north of the road (EL, WR) and the one south of it.
        let north = art.anchors()[2];
        let south = art.anchors()[3];
        assert!(
            north.y < CENTRE.y && south.y > CENTRE.y,
            "{north:?} {south:?}"
        );
    }

    #[test]
    fn a_point_turned_moves_from_north_to_east_on_the_picture() {
        let n = Pt::new(TILE / 2.0, 0.0);
        assert_eq!(n.rotated(1), Pt::new(TILE, TILE / 2.0));
        assert_eq!(n.rotated(2), Pt::new(TILE / 2.0, TILE));
        assert_eq!(n.rotated(4), n);
    }
}
