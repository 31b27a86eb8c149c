//! One tile's TOML table compiled into a [`TileKind`], in named steps: the
//! edges, the cities and roads claiming them, the fields claiming the
//! half-edges, then the rotations and the "which rotations fit" table. Each
//! step refuses bad input with the file, line and column.

use std::ops::Range;

use anyhow::Result;
use serde::Deserialize;
use toml::Spanned;

use super::{EdgeKind, NO_SEGMENT, Rotation, Segment, SegmentKind, TileKind};
use crate::kernel::diag::Source;
use crate::kernel::geometry::{Dir, Half};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFile {
    pub(super) set: Spanned<RawSet>,
    #[serde(default)]
    pub(super) tile: Vec<Spanned<RawTile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSet {
    pub(super) name: Spanned<String>,
    pub(super) total: Spanned<u32>,
    pub(super) start: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTile {
    pub(super) name: Spanned<String>,
    count: Spanned<u32>,
    edges: Spanned<String>,
    #[serde(default)]
    cities: Vec<Spanned<RawCity>>,
    #[serde(default)]
    roads: Vec<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    fields: Vec<Spanned<RawField>>,
    #[serde(default)]
    cloister: bool,
    #[serde(default)]
    foundation: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCity {
    edges: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    pennant: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawField {
    halves: Vec<Spanned<String>>,
    #[serde(default)]
    cities: Vec<Spanned<String>>,
}

fn parse_dirs(
    src: &Source,
    tile: &str,
    what: &str,
    list: &Spanned<Vec<Spanned<String>>>,
) -> Result<u8> {
    let mut mask = 0u8;
    for d in list.get_ref() {
        let dir = Dir::parse(d.get_ref()).ok_or_else(|| {
            src.error_at(
                d.span(),
                format!(
                    "tile `{tile}`: `{}` is not an edge (N, E, S or W)",
                    d.get_ref()
                ),
            )
        })?;
        if mask & (1 << dir as u8) != 0 {
            return Err(src.error_at(
                d.span(),
                format!("tile `{tile}`: edge {} named twice", d.get_ref()),
            ));
        }
        mask |= 1 << dir as u8;
    }
    if mask == 0 {
        return Err(src.error_at(
            list.span(),
            format!("tile `{tile}`: a {what} must touch at least one edge"),
        ));
    }
    Ok(mask)
}

/// Compile one tile's table (G1: edges; the segments that touch them).
pub(super) fn compile_tile(src: &Source, set: &str, raw: &RawTile) -> Result<TileKind> {
    let mut b = Builder::new(src, raw)?;
    b.add_cities()?;
    b.add_roads()?;
    b.check_edges_claimed()?;
    for field in &raw.fields {
        b.add_field(field.get_ref())?;
    }
    b.check_halves_claimed()?;
    let cloister = raw.cloister.then(|| b.push_plain(SegmentKind::Cloister));
    let foundation = raw
        .foundation
        .then(|| b.push_plain(SegmentKind::Foundation));
    if b.segments.len() > 32 {
        return Err(b.err(
            raw.name.span(),
            "a tile may have at most 32 segments".into(),
        ));
    }
    let base = Rotation {
        edges: b.edges,
        edge_segment: b.edge_segment,
        half_segment: b.half_segment,
    };
    let segments = b.segments;
    let rotations: [Rotation; 4] = std::array::from_fn(|q| rotate(&base, q as u8));
    let distinct_rotations = distinct_rotations(&segments);
    let fits = fits_table(&rotations, distinct_rotations);
    Ok(TileKind {
        name: format!("{set}/{}", raw.name.get_ref()),
        count: *raw.count.get_ref(),
        segments,
        cloister,
        foundation,
        rotations,
        distinct_rotations,
        fits,
    })
}

/// A tile being compiled: its edges, and the segments claiming them.
struct Builder<'s> {
    src: &'s Source,
    raw: &'s RawTile,
    edges: [EdgeKind; 4],
    segments: Vec<Segment>,
    edge_segment: [u8; 4],
    half_segment: [u8; 8],
}

impl<'s> Builder<'s> {
    /// Check the name and count, and read the four edge letters.
    fn new(src: &'s Source, raw: &'s RawTile) -> Result<Builder<'s>> {
        let mut b = Builder {
            src,
            raw,
            edges: [EdgeKind::Field; 4],
            segments: Vec::new(),
            edge_segment: [NO_SEGMENT; 4],
            half_segment: [NO_SEGMENT; 8],
        };
        let name = raw.name.get_ref();
        if name.is_empty() || name.contains('/') {
            return Err(b.err(
                raw.name.span(),
                "a tile name must be non-empty and contain no `/`".into(),
            ));
        }
        if *raw.count.get_ref() == 0 {
            return Err(b.err(raw.count.span(), "count must be at least 1".into()));
        }
        if *raw.count.get_ref() as usize > super::MAX_DECK {
            return Err(b.err(
                raw.count.span(),
                format!(
                    "count {} is more than {} (the most tiles a game may have)",
                    raw.count.get_ref(),
                    super::MAX_DECK
                ),
            ));
        }
        let letters: Vec<char> = raw.edges.get_ref().chars().collect();
        if letters.len() != 4 {
            return Err(b.err(
                raw.edges.span(),
                format!(
                    "edges must be 4 letters N E S W, got `{}`",
                    raw.edges.get_ref()
                ),
            ));
        }
        for (i, c) in letters.iter().enumerate() {
            b.edges[i] = EdgeKind::parse(*c).ok_or_else(|| {
                b.err(
                    raw.edges.span(),
                    format!("edge letter `{c}` is not C, R or F"),
                )
            })?;
        }
        Ok(b)
    }

    /// An error at `span`, naming the tile.
    fn err(&self, span: Range<usize>, msg: String) -> anyhow::Error {
        self.src
            .error_at(span, format!("tile `{}`: {msg}", self.raw.name.get_ref()))
    }

    /// Claim the edges of `mask` for the next segment, a `want` one.
    fn claim_edges(
        &mut self,
        mask: u8,
        want: EdgeKind,
        span: Range<usize>,
        what: &str,
    ) -> Result<()> {
        for d in Dir::ALL {
            if mask & (1 << d as u8) == 0 {
                continue;
            }
            if self.edges[d.index()] != want {
                return Err(self.err(
                    span.clone(),
                    format!("a {what} touches edge {} which is not {what}", d.letter()),
                ));
            }
            if self.edge_segment[d.index()] != NO_SEGMENT {
                return Err(self.err(
                    span.clone(),
                    format!("edge {} belongs to two segments", d.letter()),
                ));
            }
            self.edge_segment[d.index()] = self.segments.len() as u8;
        }
        Ok(())
    }

    fn add_cities(&mut self) -> Result<()> {
        let name = self.raw.name.get_ref();
        for city in &self.raw.cities {
            let c = city.get_ref();
            let mask = parse_dirs(self.src, name, "city", &c.edges)?;
            self.claim_edges(mask, EdgeKind::City, city.span(), "city")?;
            self.segments.push(Segment {
                kind: SegmentKind::City,
                pennant: c.pennant,
                edges: mask,
                halves: 0,
                cities: Vec::new(),
            });
        }
        Ok(())
    }

    fn add_roads(&mut self) -> Result<()> {
        let name = self.raw.name.get_ref();
        for road in &self.raw.roads {
            let mask = parse_dirs(self.src, name, "road", road)?;
            self.claim_edges(mask, EdgeKind::Road, road.span(), "road")?;
            self.segments.push(Segment {
                kind: SegmentKind::Road,
                pennant: false,
                edges: mask,
                halves: 0,
                cities: Vec::new(),
            });
        }
        Ok(())
    }

    /// Every city and road edge belongs to a segment.
    fn check_edges_claimed(&self) -> Result<()> {
        for d in Dir::ALL {
            let edge = self.edges[d.index()];
            if edge != EdgeKind::Field && self.edge_segment[d.index()] == NO_SEGMENT {
                let what = if edge == EdgeKind::City {
                    "city"
                } else {
                    "road"
                };
                return Err(self.err(
                    self.raw.edges.span(),
                    format!(
                        "edge {} shows a {what} but no {what} segment touches it",
                        d.letter()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A field: its half-edges, claimed, and the cities it borders (G8).
    fn add_field(&mut self, f: &RawField) -> Result<()> {
        let mut halves = 0u8;
        for h in &f.halves {
            let half = self.claim_half(h)?;
            halves |= 1 << half.0;
        }
        let mut cities = Vec::new();
        for c in &f.cities {
            let seg = self.bordered_city(c)?;
            if cities.contains(&seg) {
                return Err(self.err(
                    c.span(),
                    format!("the field names the same city twice ({})", c.get_ref()),
                ));
            }
            cities.push(seg);
        }
        self.segments.push(Segment {
            kind: SegmentKind::Field,
            pennant: false,
            edges: 0,
            halves,
            cities,
        });
        Ok(())
    }

    /// Claim half-edge `h` for the next segment, a field.
    fn claim_half(&mut self, h: &Spanned<String>) -> Result<Half> {
        let half = Half::parse(h.get_ref()).ok_or_else(|| {
            self.err(
                h.span(),
                format!(
                    "`{}` is not a half-edge (NL NR EL ER SL SR WL WR)",
                    h.get_ref()
                ),
            )
        })?;
        if self.edges[half.dir().index()] == EdgeKind::City {
            return Err(self.err(
                h.span(),
                format!("half-edge {} lies on a city edge", h.get_ref()),
            ));
        }
        if self.half_segment[half.0 as usize] != NO_SEGMENT {
            return Err(self.err(
                h.span(),
                format!("half-edge {} belongs to two fields", h.get_ref()),
            ));
        }
        self.half_segment[half.0 as usize] = self.segments.len() as u8;
        Ok(half)
    }

    /// The city segment on edge `c`, which a field says it borders.
    fn bordered_city(&self, c: &Spanned<String>) -> Result<u8> {
        let dir = Dir::parse(c.get_ref()).ok_or_else(|| {
            self.err(
                c.span(),
                format!("`{}` is not an edge (N, E, S or W)", c.get_ref()),
            )
        })?;
        let seg = self.edge_segment[dir.index()];
        if self.edges[dir.index()] != EdgeKind::City || seg == NO_SEGMENT {
            return Err(self.err(
                c.span(),
                format!(
                    "the field touches a city at {} but no city is on that edge",
                    c.get_ref()
                ),
            ));
        }
        Ok(seg)
    }

    /// Every half-edge off a city belongs to a field.
    fn check_halves_claimed(&self) -> Result<()> {
        for h in 0..8u8 {
            let half = Half(h);
            if self.edges[half.dir().index()] != EdgeKind::City
                && self.half_segment[h as usize] == NO_SEGMENT
            {
                return Err(self.err(
                    self.raw.name.span(),
                    format!("half-edge {} belongs to no field", Half::NAMES[h as usize]),
                ));
            }
        }
        Ok(())
    }

    /// A segment touching no edge (a cloister or a foundation); its index.
    fn push_plain(&mut self, kind: SegmentKind) -> u8 {
        self.segments.push(Segment {
            kind,
            pennant: false,
            edges: 0,
            halves: 0,
            cities: Vec::new(),
        });
        (self.segments.len() - 1) as u8
    }
}

/// Which rotations (bit q) look different from every smaller rotation.
fn distinct_rotations(segments: &[Segment]) -> u8 {
    let looks: [Vec<Look>; 4] = std::array::from_fn(|q| look(segments, q as u8));
    let mut distinct = 0u8;
    for q in 0..4 {
        if !looks[..q].contains(&looks[q]) {
            distinct |= 1 << q;
        }
    }
    distinct
}

/// For each neighbour pattern, the distinct rotations whose edges match it.
fn fits_table(rotations: &[Rotation; 4], distinct: u8) -> Box<[u8; 256]> {
    let mut fits = Box::new([0u8; 256]);
    for (pattern, slot) in fits.iter_mut().enumerate() {
        for (q, rot) in rotations.iter().enumerate() {
            if distinct & (1 << q) == 0 {
                continue;
            }
            let ok = Dir::ALL.iter().all(|&d| {
                let need = (pattern >> (2 * d as usize)) & 3;
                need == 0 || need == rot.edges[d.index()] as usize
            });
            if ok {
                *slot |= 1 << q;
            }
        }
    }
    fits
}

/// How one segment looks at a rotation: kind, pennant, the edges and
/// half-edges it touches, and (for a field) the edges of the cities it borders.
type Look = (u8, bool, u8, u8, Vec<u8>);

/// The tile as seen at `q` quarter turns, independent of how its segments are
/// numbered: two rotations with the same look are the same placement (a
/// straight road turned half round, say).
fn look(segments: &[Segment], q: u8) -> Vec<Look> {
    let turn_edges = |m: u8| ((m << q) | (m >> (4 - q))) & 0xF;
    let turn_halves = |m: u8| m.rotate_left(2 * q as u32);
    let mut out: Vec<Look> = segments
        .iter()
        .map(|s| {
            let mut cities: Vec<u8> = s
                .cities
                .iter()
                .map(|&c| turn_edges(segments[c as usize].edges))
                .collect();
            cities.sort_unstable();
            (
                s.kind as u8,
                s.pennant,
                turn_edges(s.edges),
                turn_halves(s.halves),
                cities,
            )
        })
        .collect();
    out.sort();
    out
}

fn rotate(base: &Rotation, q: u8) -> Rotation {
    let mut r = Rotation {
        edges: base.edges,
        edge_segment: base.edge_segment,
        half_segment: base.half_segment,
    };
    for d in Dir::ALL {
        let to = d.rotated(q).index();
        r.edges[to] = base.edges[d.index()];
        r.edge_segment[to] = base.edge_segment[d.index()];
    }
    for h in 0..8u8 {
        r.half_segment[Half(h).rotated(q).0 as usize] = base.half_segment[h as usize];
    }
    r
}
