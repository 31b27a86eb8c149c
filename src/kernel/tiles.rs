//! Tile sets as data: the TOML format of `rules/*/tiles.toml`, its validation,
//! and the compiled form the board uses (every rotation precomputed, and a
//! table from "what the neighbours require" to "which rotations fit").
//!
//! A fan-expansion author adds tiles by writing another file in the same
//! format; nothing here knows any particular tile. The format is documented in
//! `docs/tiles.md`.

use std::path::Path;

use anyhow::Result;
use serde::Deserialize;
use toml::Spanned;

use crate::kernel::diag::{Source, bad_input, did_you_mean};
use crate::kernel::geometry::{Dir, Half};

/// What an edge shows (G1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum EdgeKind {
    City = 1,
    Road = 2,
    Field = 3,
}

impl EdgeKind {
    fn parse(c: char) -> Option<EdgeKind> {
        match c {
            'C' => Some(EdgeKind::City),
            'R' => Some(EdgeKind::Road),
            'F' => Some(EdgeKind::Field),
            _ => None,
        }
    }
}

/// The kind of a segment of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SegmentKind {
    City,
    Road,
    Field,
    Cloister,
    /// A tower foundation: a feature of its own (T2).
    Foundation,
}

impl SegmentKind {
    pub fn name(self) -> &'static str {
        match self {
            SegmentKind::City => "city",
            SegmentKind::Road => "road",
            SegmentKind::Field => "field",
            SegmentKind::Cloister => "cloister",
            SegmentKind::Foundation => "foundation",
        }
    }
}

/// One segment of a tile, in the tile's printed orientation.
#[derive(Clone, Debug)]
pub struct Segment {
    pub kind: SegmentKind,
    pub pennant: bool,
    /// Edges a city or road touches (bit `Dir as u8`).
    pub edges: u8,
    /// Half-edges a field touches (bit `Half.0`).
    pub halves: u8,
    /// For a field: the city segments (indices into the tile's segments) it borders.
    pub cities: Vec<u8>,
}

/// Marks "no segment" in the per-edge tables.
pub const NO_SEGMENT: u8 = u8::MAX;

/// A tile kind seen at one rotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rotation {
    pub edges: [EdgeKind; 4],
    /// The city or road segment on each edge (NO_SEGMENT on a field edge).
    pub edge_segment: [u8; 4],
    /// The field segment on each half-edge (NO_SEGMENT on a city edge).
    pub half_segment: [u8; 8],
}

/// One kind of tile, ready for play.
#[derive(Clone, Debug)]
pub struct TileKind {
    /// `set/name`, e.g. `base/RCr`.
    pub name: String,
    pub count: u32,
    pub segments: Vec<Segment>,
    pub cloister: Option<u8>,
    pub foundation: Option<u8>,
    pub rotations: [Rotation; 4],
    /// Which rotations (bit r) look different from every smaller rotation.
    pub distinct_rotations: u8,
    /// For each neighbour pattern (see [`pattern_bits`]), the distinct
    /// rotations that match it.
    fits: Box<[u8; 256]>,
}

impl TileKind {
    /// The distinct rotations (bit r = r quarter turns) that match a neighbour
    /// pattern.
    #[inline]
    pub fn fitting_rotations(&self, pattern: u8) -> u8 {
        self.fits[pattern as usize]
    }
}

/// The 2-bit code of what a neighbour requires across edge `dir`: 0 for no
/// neighbour, else the neighbour's `EdgeKind`.
#[inline]
pub fn pattern_bits(dir: Dir, edge: EdgeKind) -> u8 {
    (edge as u8) << (2 * dir as u8)
}

/// Every tile kind of the loaded sets, and the start tile.
#[derive(Clone, Debug)]
pub struct TileSet {
    pub kinds: Vec<TileKind>,
    pub start: usize,
    /// Names of the sets loaded, in order.
    pub sets: Vec<String>,
}

impl TileSet {
    /// Load and validate tile-set files; exactly one of them names a start tile.
    pub fn load(paths: &[impl AsRef<Path>]) -> Result<TileSet> {
        let sources = paths
            .iter()
            .map(|p| Source::read(p.as_ref()))
            .collect::<Result<Vec<_>>>()?;
        TileSet::from_sources(&sources)
    }

    pub fn from_sources(sources: &[Source]) -> Result<TileSet> {
        let mut kinds = Vec::new();
        let mut sets = Vec::new();
        let mut start = None;
        // Where a missing start tile is reported: the first set's `[set]`.
        let mut first_set = None;
        for src in sources {
            let file: RawFile = src.parse_toml()?;
            first_set.get_or_insert_with(|| (src, file.set.span()));
            let set = file.set.get_ref();
            let set_name = set.name.get_ref().clone();
            if set_name.is_empty() || set_name.contains('/') {
                return Err(src.error_at(
                    set.name.span(),
                    "a set name must be non-empty and contain no `/`",
                ));
            }
            if sets.contains(&set_name) {
                return Err(src.error_at(
                    set.name.span(),
                    format!("tile set `{set_name}` is loaded twice"),
                ));
            }
            let first = kinds.len();
            // u64: counts up to u32::MAX each must not overflow the sum.
            let mut total = 0u64;
            for raw in &file.tile {
                let kind = compile_tile(src, &set_name, raw.get_ref())?;
                if kinds[first..]
                    .iter()
                    .any(|k: &TileKind| k.name == kind.name)
                {
                    return Err(src.error_at(
                        raw.get_ref().name.span(),
                        format!("tile `{}` is defined twice", raw.get_ref().name.get_ref()),
                    ));
                }
                total += u64::from(kind.count);
                kinds.push(kind);
            }
            if total != u64::from(*set.total.get_ref()) {
                return Err(src.error_at(
                    set.total.span(),
                    format!(
                        "the set declares {} tiles but its counts add up to {total}",
                        set.total.get_ref()
                    ),
                ));
            }
            if let Some(name) = &set.start {
                let full = format!("{set_name}/{}", name.get_ref());
                let Some(i) = kinds[first..].iter().position(|k| k.name == full) else {
                    let names: Vec<&str> = file
                        .tile
                        .iter()
                        .map(|t| t.get_ref().name.get_ref().as_str())
                        .collect();
                    return Err(src.error_at(
                        name.span(),
                        format!(
                            "start tile `{}` is not in this set{}",
                            name.get_ref(),
                            did_you_mean(name.get_ref(), names)
                        ),
                    ));
                };
                if start.is_some() {
                    return Err(src.error_at(
                        name.span(),
                        "a second start tile: only one loaded set may name one",
                    ));
                }
                start = Some(first + i);
            }
            sets.push(set_name);
        }
        let start = start.ok_or_else(|| {
            let msg = "no loaded tile set names a start tile (`start = \"…\"` under `[set]`)";
            match first_set {
                Some((src, span)) => src.error_at(span, msg),
                None => bad_input(msg),
            }
        })?;
        Ok(TileSet { kinds, start, sets })
    }

    /// The kind called `name` (`set/name`, or a bare name when unambiguous).
    pub fn find(&self, name: &str) -> Result<usize> {
        if let Some(i) = self.kinds.iter().position(|k| k.name == name) {
            return Ok(i);
        }
        let bare: Vec<usize> = (0..self.kinds.len())
            .filter(|&i| self.kinds[i].name.rsplit('/').next() == Some(name))
            .collect();
        match bare.as_slice() {
            [one] => Ok(*one),
            [] => Err(bad_input(format!(
                "unknown tile `{name}`{}",
                did_you_mean(name, self.kinds.iter().map(|k| k.name.as_str()))
            ))),
            _ => Err(bad_input(format!(
                "tile name `{name}` is ambiguous: use `set/{name}`"
            ))),
        }
    }

    /// The tiles to shuffle: every copy of every kind, less the start tile.
    pub fn deck(&self) -> Vec<u16> {
        let mut deck = Vec::new();
        for (i, k) in self.kinds.iter().enumerate() {
            let n = k.count - u32::from(i == self.start);
            deck.extend(std::iter::repeat_n(i as u16, n as usize));
        }
        deck
    }

    /// How many tiles of the whole set carry a foundation.
    pub fn foundation_tiles(&self) -> usize {
        self.kinds
            .iter()
            .filter(|k| k.foundation.is_some())
            .map(|k| k.count as usize)
            .sum()
    }

    pub fn total_tiles(&self) -> usize {
        self.kinds.iter().map(|k| k.count as usize).sum()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    set: Spanned<RawSet>,
    #[serde(default)]
    tile: Vec<Spanned<RawTile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    name: Spanned<String>,
    total: Spanned<u32>,
    start: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTile {
    name: Spanned<String>,
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

fn compile_tile(src: &Source, set: &str, raw: &RawTile) -> Result<TileKind> {
    let name = raw.name.get_ref();
    let here = |span: std::ops::Range<usize>, msg: String| {
        src.error_at(span, format!("tile `{name}`: {msg}"))
    };
    if name.is_empty() || name.contains('/') {
        return Err(here(
            raw.name.span(),
            "a tile name must be non-empty and contain no `/`".into(),
        ));
    }
    if *raw.count.get_ref() == 0 {
        return Err(here(raw.count.span(), "count must be at least 1".into()));
    }
    let letters: Vec<char> = raw.edges.get_ref().chars().collect();
    if letters.len() != 4 {
        return Err(here(
            raw.edges.span(),
            format!(
                "edges must be 4 letters N E S W, got `{}`",
                raw.edges.get_ref()
            ),
        ));
    }
    let mut edges = [EdgeKind::Field; 4];
    for (i, c) in letters.iter().enumerate() {
        edges[i] = EdgeKind::parse(*c).ok_or_else(|| {
            here(
                raw.edges.span(),
                format!("edge letter `{c}` is not C, R or F"),
            )
        })?;
    }

    let mut segments = Vec::new();
    let mut edge_segment = [NO_SEGMENT; 4];
    let mut half_segment = [NO_SEGMENT; 8];
    let mut claim_edges = |segments: &Vec<Segment>,
                           mask: u8,
                           want: EdgeKind,
                           span: std::ops::Range<usize>,
                           what: &str|
     -> Result<()> {
        for d in Dir::ALL {
            if mask & (1 << d as u8) == 0 {
                continue;
            }
            if edges[d.index()] != want {
                return Err(here(
                    span.clone(),
                    format!("a {what} touches edge {} which is not {what}", d.letter()),
                ));
            }
            if edge_segment[d.index()] != NO_SEGMENT {
                return Err(here(
                    span.clone(),
                    format!("edge {} belongs to two segments", d.letter()),
                ));
            }
            edge_segment[d.index()] = segments.len() as u8;
        }
        Ok(())
    };
    for city in &raw.cities {
        let c = city.get_ref();
        let mask = parse_dirs(src, name, "city", &c.edges)?;
        claim_edges(&segments, mask, EdgeKind::City, city.span(), "city")?;
        segments.push(Segment {
            kind: SegmentKind::City,
            pennant: c.pennant,
            edges: mask,
            halves: 0,
            cities: Vec::new(),
        });
    }
    for road in &raw.roads {
        let mask = parse_dirs(src, name, "road", road)?;
        claim_edges(&segments, mask, EdgeKind::Road, road.span(), "road")?;
        segments.push(Segment {
            kind: SegmentKind::Road,
            pennant: false,
            edges: mask,
            halves: 0,
            cities: Vec::new(),
        });
    }
    for d in Dir::ALL {
        if edges[d.index()] != EdgeKind::Field && edge_segment[d.index()] == NO_SEGMENT {
            let what = if edges[d.index()] == EdgeKind::City {
                "city"
            } else {
                "road"
            };
            return Err(here(
                raw.edges.span(),
                format!(
                    "edge {} shows a {what} but no {what} segment touches it",
                    d.letter()
                ),
            ));
        }
    }
    for field in &raw.fields {
        let f = field.get_ref();
        let mut halves = 0u8;
        for h in &f.halves {
            let half = Half::parse(h.get_ref()).ok_or_else(|| {
                here(
                    h.span(),
                    format!(
                        "`{}` is not a half-edge (NL NR EL ER SL SR WL WR)",
                        h.get_ref()
                    ),
                )
            })?;
            if edges[half.dir().index()] == EdgeKind::City {
                return Err(here(
                    h.span(),
                    format!("half-edge {} lies on a city edge", h.get_ref()),
                ));
            }
            if half_segment[half.0 as usize] != NO_SEGMENT {
                return Err(here(
                    h.span(),
                    format!("half-edge {} belongs to two fields", h.get_ref()),
                ));
            }
            half_segment[half.0 as usize] = segments.len() as u8;
            halves |= 1 << half.0;
        }
        let mut cities = Vec::new();
        for c in &f.cities {
            let dir = Dir::parse(c.get_ref()).ok_or_else(|| {
                here(
                    c.span(),
                    format!("`{}` is not an edge (N, E, S or W)", c.get_ref()),
                )
            })?;
            let seg = edge_segment[dir.index()];
            if edges[dir.index()] != EdgeKind::City || seg == NO_SEGMENT {
                return Err(here(
                    c.span(),
                    format!(
                        "the field touches a city at {} but no city is on that edge",
                        c.get_ref()
                    ),
                ));
            }
            if cities.contains(&seg) {
                return Err(here(
                    c.span(),
                    format!("the field names the same city twice ({})", c.get_ref()),
                ));
            }
            cities.push(seg);
        }
        segments.push(Segment {
            kind: SegmentKind::Field,
            pennant: false,
            edges: 0,
            halves,
            cities,
        });
    }
    for h in 0..8u8 {
        let half = Half(h);
        if edges[half.dir().index()] != EdgeKind::City && half_segment[h as usize] == NO_SEGMENT {
            return Err(here(
                raw.name.span(),
                format!("half-edge {} belongs to no field", Half::NAMES[h as usize]),
            ));
        }
    }
    let mut cloister = None;
    if raw.cloister {
        cloister = Some(segments.len() as u8);
        segments.push(Segment {
            kind: SegmentKind::Cloister,
            pennant: false,
            edges: 0,
            halves: 0,
            cities: Vec::new(),
        });
    }
    let mut foundation = None;
    if raw.foundation {
        foundation = Some(segments.len() as u8);
        segments.push(Segment {
            kind: SegmentKind::Foundation,
            pennant: false,
            edges: 0,
            halves: 0,
            cities: Vec::new(),
        });
    }
    if segments.len() > 32 {
        return Err(here(
            raw.name.span(),
            "a tile may have at most 32 segments".into(),
        ));
    }

    let base = Rotation {
        edges,
        edge_segment,
        half_segment,
    };
    let rotations: [Rotation; 4] = std::array::from_fn(|q| rotate(&base, q as u8));
    let looks: [Vec<Look>; 4] = std::array::from_fn(|q| look(&segments, q as u8));
    let mut distinct_rotations = 0u8;
    for q in 0..4 {
        if !looks[..q].contains(&looks[q]) {
            distinct_rotations |= 1 << q;
        }
    }
    let mut fits = Box::new([0u8; 256]);
    for (pattern, slot) in fits.iter_mut().enumerate() {
        for (q, rot) in rotations.iter().enumerate() {
            if distinct_rotations & (1 << q) == 0 {
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
    Ok(TileKind {
        name: format!("{set}/{name}"),
        count: *raw.count.get_ref(),
        segments,
        cloister,
        foundation,
        rotations,
        distinct_rotations,
        fits,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> TileSet {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        TileSet::load(&[dir.join("base/tiles.toml"), dir.join("tower/tiles.toml")]).unwrap()
    }

    #[test]
    fn g1_symmetric_tiles_offer_each_distinct_rotation_once() {
        let set = shipped();
        let distinct = |name: &str| {
            set.kinds[set.find(name).unwrap()]
                .distinct_rotations
                .count_ones()
        };
        assert_eq!(
            distinct("base/L"),
            1,
            "a cloister in a field looks the same every way"
        );
        assert_eq!(distinct("base/Cccc+"), 1);
        assert_eq!(
            distinct("base/RFr"),
            2,
            "a straight road: half a turn looks the same"
        );
        assert_eq!(distinct("base/CFC.2"), 2, "two cities facing each other");
        assert_eq!(distinct("base/RRRR"), 1);
        assert_eq!(distinct("base/RCr"), 4);
        assert_eq!(distinct("tower/RrRr.2"), 2);
    }
}
