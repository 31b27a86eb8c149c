//! Plane geometry of a tile in SVG coordinates (x east, y south, the tile
//! the square `[0, TILE]²`): points, corners, paths of lines and quadratic
//! curves, and the tests of a point against a polygon or a road.

use super::{ROAD_HALF_WIDTH, TILE};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    pub x: f64,
    pub y: f64,
}

impl Pt {
    pub const fn new(x: f64, y: f64) -> Pt {
        Pt { x, y }
    }

    pub(super) fn lerp(self, to: Pt, t: f64) -> Pt {
        Pt::new(self.x + (to.x - self.x) * t, self.y + (to.y - self.y) * t)
    }

    pub(super) fn dist(self, o: Pt) -> f64 {
        (self.x - o.x).hypot(self.y - o.y)
    }

    /// This point seen on a tile turned `quarters` quarter turns clockwise.
    pub fn rotated(self, quarters: u8) -> Pt {
        let c = TILE / 2.0;
        let (mut dx, mut dy) = (self.x - c, self.y - c);
        for _ in 0..quarters % 4 {
            // Clockwise on screen (y down): north (0, -1) goes east (1, 0).
            (dx, dy) = (-dy, dx);
        }
        Pt::new(c + dx, c + dy)
    }
}

/// Corner `i` (0 NW, 1 NE, 2 SE, 3 SW): edge `d` runs clockwise from corner
/// `d` to corner `d + 1`.
pub(super) fn corner(i: usize) -> Pt {
    match i % 4 {
        0 => Pt::new(0.0, 0.0),
        1 => Pt::new(TILE, 0.0),
        2 => Pt::new(TILE, TILE),
        _ => Pt::new(0.0, TILE),
    }
}

pub(super) fn edge_mid(d: usize) -> Pt {
    corner(d).lerp(corner(d + 1), 0.5)
}

/// A path: straight lines and quadratic curves.
#[derive(Clone, Debug)]
pub struct Path {
    start: Pt,
    steps: Vec<Step>,
    pub(super) closed: bool,
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Line(Pt),
    Quad(Pt, Pt),
}

impl Path {
    pub(super) fn new(start: Pt) -> Path {
        Path {
            start,
            steps: Vec::new(),
            closed: false,
        }
    }

    pub(super) fn line(&mut self, to: Pt) {
        self.steps.push(Step::Line(to));
    }

    pub(super) fn quad(&mut self, control: Pt, to: Pt) {
        self.steps.push(Step::Quad(control, to));
    }

    /// The SVG `d` attribute.
    pub fn d(&self) -> String {
        let mut d = format!("M{} {}", num(self.start.x), num(self.start.y));
        for s in &self.steps {
            match s {
                Step::Line(p) => d += &format!(" L{} {}", num(p.x), num(p.y)),
                Step::Quad(c, p) => {
                    d += &format!(" Q{} {} {} {}", num(c.x), num(c.y), num(p.x), num(p.y))
                }
            }
        }
        if self.closed {
            d.push_str(" Z");
        }
        d
    }

    /// The path as a polyline (curves cut into short lines).
    pub(super) fn points(&self) -> Vec<Pt> {
        let mut out = vec![self.start];
        let mut at = self.start;
        for s in &self.steps {
            match *s {
                Step::Line(p) => {
                    out.push(p);
                    at = p;
                }
                Step::Quad(c, p) => {
                    for i in 1..=16 {
                        let t = i as f64 / 16.0;
                        out.push(at.lerp(c, t).lerp(c.lerp(p, t), t));
                    }
                    at = p;
                }
            }
        }
        out
    }
}

/// A number for SVG: at most two decimals, no trailing zeros.
pub fn num(v: f64) -> String {
    // Most numbers are whole or have few decimals: hundredths counted
    // exactly, written without float formatting (the same text).
    let hundredths = v * 100.0;
    if hundredths.fract() == 0.0 && hundredths.abs() < 1e15 {
        return hundredths_text(hundredths as i64);
    }
    let s = format!("{:.2}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// `h` hundredths as [`num`] writes them: `-1.5`, `0.05`, `12`.
fn hundredths_text(h: i64) -> String {
    let (whole, part) = (h.unsigned_abs() / 100, h.unsigned_abs() % 100);
    let sign = if h < 0 { "-" } else { "" };
    match part {
        0 => format!("{sign}{whole}"),
        p if p % 10 == 0 => format!("{sign}{whole}.{}", p / 10),
        p => format!("{sign}{whole}.{p:02}"),
    }
}

/// Is `p` inside the closed polygon `poly` (even-odd)?
pub(super) fn inside(poly: &[Pt], p: Pt) -> bool {
    let mut inside = false;
    let mut j = poly.len() - 1;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[j]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// Is `p` on a road drawn along `line`?
pub(super) fn near_polyline(line: &[Pt], p: Pt) -> bool {
    line.windows(2).any(|w| {
        let (a, b) = (w[0], w[1]);
        let (vx, vy) = (b.x - a.x, b.y - a.y);
        let len2 = vx * vx + vy * vy;
        let t = if len2 == 0.0 {
            0.0
        } else {
            (((p.x - a.x) * vx + (p.y - a.y) * vy) / len2).clamp(0.0, 1.0)
        };
        p.dist(a.lerp(b, t)) <= ROAD_HALF_WIDTH + 0.5
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path writes what two-decimal formatting writes.
    #[test]
    fn num_writes_what_formatting_writes() {
        let slow = |v: f64| {
            let s = format!("{v:.2}");
            let s = s.trim_end_matches('0').trim_end_matches('.');
            if s == "-0" {
                "0".to_string()
            } else {
                s.to_string()
            }
        };
        for i in -20_000..20_000 {
            for v in [
                i as f64 / 100.0,
                i as f64 / 8.0,
                i as f64 * 0.37,
                i as f64 / 3.0,
            ] {
                assert_eq!(num(v), slow(v), "{v}");
            }
        }
        assert_eq!(num(-0.0), "0");
        assert_eq!(num(1e300), slow(1e300));
    }
}
