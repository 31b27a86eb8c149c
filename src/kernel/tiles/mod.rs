//! Tile sets as data: the TOML format of `rules/*/tiles.toml`, its validation,
//! and the compiled form the board uses (every rotation precomputed, and a
//! table from "what the neighbours require" to "which rotations fit").
//!
//! A fan-expansion author adds tiles by writing another file in the same
//! format; nothing here knows any particular tile. The format is documented in
//! `docs/tiles.md`.
//!
//! This file holds the compiled form and the loading of whole sets;
//! `compile` turns one tile's TOML table into a [`TileKind`].

use std::path::Path;

use anyhow::Result;

mod compile;
mod deal;

use compile::{RawFile, compile_tile};
pub use deal::{Dealing, PLACES_STREAM};

use crate::kernel::diag::{Source, bad_input, did_you_mean};
use crate::kernel::geometry::Dir;

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
    /// Every kind, in the order of the enum.
    pub const ALL: [SegmentKind; 5] = [
        SegmentKind::City,
        SegmentKind::Road,
        SegmentKind::Field,
        SegmentKind::Cloister,
        SegmentKind::Foundation,
    ];

    /// The kind [`SegmentKind::name`] names `name`, if any.
    pub fn named(name: &str) -> Option<SegmentKind> {
        SegmentKind::ALL.into_iter().find(|k| k.name() == name)
    }

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
    /// How a game's deck is dealt from its seed: on its own when loaded,
    /// against a reference set once [`TileSet::deal_against`] names one.
    dealing: Dealing,
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

    /// Validate and compile tile-set sources; exactly one of them names a
    /// start tile.
    pub fn from_sources(sources: &[Source]) -> Result<TileSet> {
        let mut kinds = Vec::new();
        let mut sets = Vec::new();
        let mut start = None;
        // Where a missing start tile is reported: the first set's `[set]`.
        let mut first_set = None;
        for src in sources {
            let file: RawFile = src.parse_toml()?;
            first_set.get_or_insert_with(|| (src, file.set.span()));
            let set_name = set_name(src, &file, &sets)?;
            let first = kinds.len();
            compile_set(src, &file, &set_name, &mut kinds)?;
            if let Some(i) = start_of(src, &file, &set_name, &kinds[first..])? {
                if start.is_some() {
                    let name = file.set.get_ref().start.as_ref().expect("named");
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
        let mut set = TileSet {
            kinds,
            start,
            sets,
            dealing: Dealing::empty(),
        };
        set.dealing = Dealing::own(&set);
        Ok(set)
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

    /// Deal this set's decks against `reference` from now on, so that the
    /// tiles the two share keep their relative order for every seed, as
    /// they do with any other set dealt against the same reference
    /// (`deal`'s module text).
    pub fn deal_against(&mut self, reference: &TileSet) {
        self.dealing = Dealing::against(self, reference);
    }

    /// The deck of the game of `seed`, first draw first.
    pub fn deal(&self, seed: u64) -> Vec<u16> {
        self.dealing.deal(seed)
    }

    /// How many tiles of the deck its reference set does not hold.
    pub fn extra_tiles(&self) -> usize {
        self.dealing.extra_copies()
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

/// The most tile kinds the loaded sets may have together (tile kinds are
/// numbered by `u16`; see docs/tiles.md).
pub const MAX_KINDS: usize = 1_000;
/// The most tiles the loaded sets may count together: a game's deck, so
/// also its board. What a bot's search spends grows as the square of the
/// deck (each decision plays games out to their end), so the deck is
/// bounded by what a search can play: 4,910 tiles with `mcts:5` ran past
/// 100 s a game; 1,000 tiles ask about 1/24 of that work.
pub const MAX_DECK: usize = 1_000;

/// The set's name, checked: non-empty, no `/`, not loaded before.
fn set_name(src: &Source, file: &RawFile, loaded: &[String]) -> Result<String> {
    let set = file.set.get_ref();
    let name = set.name.get_ref().clone();
    if name.is_empty() || name.contains('/') {
        return Err(src.error_at(
            set.name.span(),
            "a set name must be non-empty and contain no `/`",
        ));
    }
    if loaded.contains(&name) {
        return Err(src.error_at(
            set.name.span(),
            format!("tile set `{name}` is loaded twice"),
        ));
    }
    Ok(name)
}

/// Compile every tile of the set onto `kinds`; names are unique within the
/// set, and the counts add up to the declared total.
fn compile_set(
    src: &Source,
    file: &RawFile,
    set_name: &str,
    kinds: &mut Vec<TileKind>,
) -> Result<()> {
    let set = file.set.get_ref();
    // u64: counts up to u32::MAX each must not overflow the sum.
    let mut total = 0u64;
    let mut names = rustc_hash::FxHashSet::default();
    let mut deck: u64 = kinds.iter().map(|k| u64::from(k.count)).sum();
    for raw in &file.tile {
        let kind = compile_tile(src, set_name, raw.get_ref())?;
        let at = raw.get_ref().name.span();
        if !names.insert(kind.name.clone()) {
            return Err(src.error_at(
                at,
                format!("tile `{}` is defined twice", raw.get_ref().name.get_ref()),
            ));
        }
        if kinds.len() >= MAX_KINDS {
            return Err(src.error_at(
                at,
                format!("more than {MAX_KINDS} tile kinds in the loaded sets (the limit)"),
            ));
        }
        deck += u64::from(kind.count);
        if deck > MAX_DECK as u64 {
            return Err(src.error_at(
                at,
                format!("more than {MAX_DECK} tiles in the loaded sets (the limit for a game)"),
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
    Ok(())
}

/// The index (among the set's own `kinds`) of the start tile the set names,
/// if it names one.
fn start_of(
    src: &Source,
    file: &RawFile,
    set_name: &str,
    kinds: &[TileKind],
) -> Result<Option<usize>> {
    let Some(name) = &file.set.get_ref().start else {
        return Ok(None);
    };
    let full = format!("{set_name}/{}", name.get_ref());
    match kinds.iter().position(|k| k.name == full) {
        Some(i) => Ok(Some(i)),
        None => {
            let names: Vec<&str> = file
                .tile
                .iter()
                .map(|t| t.get_ref().name.get_ref().as_str())
                .collect();
            Err(src.error_at(
                name.span(),
                format!(
                    "start tile `{}` is not in this set{}",
                    name.get_ref(),
                    did_you_mean(name.get_ref(), names)
                ),
            ))
        }
    }
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
