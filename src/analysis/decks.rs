//! How the decks of a comparison's variants differ: the tiles each adds to
//! the baseline's deck or leaves out of it, and how many tiles every deck
//! shares. The shared tiles are dealt in the same relative order in every
//! variant for a seed (`kernel::tiles::Dealing`), so paired games differ in
//! their decks only by the tiles some variant adds or leaves out.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::kernel::tiles::TileSet;
use crate::rules::Ruleset;

/// The decks of a comparison, against its baseline (the first variant).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decks {
    /// Tiles every variant's deck holds (the same copies of the same kinds,
    /// by name): they keep their relative order in every variant's deck of a
    /// seed.
    pub shared: usize,
    /// Each variant's deck, in the comparison's order (the baseline first).
    pub variants: Vec<DeckChange>,
}

/// One variant's deck against the baseline's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DeckChange {
    pub variant: String,
    /// Tiles in the deck (the start tile is not).
    pub tiles: usize,
    /// Kinds the baseline's deck has none of.
    pub added_kinds: usize,
    /// Tiles beyond the baseline's copies of their kind.
    pub added_tiles: usize,
    /// Kinds of the baseline's deck this one has none of.
    pub removed_kinds: usize,
    /// The baseline's tiles beyond this deck's copies of their kind.
    pub removed_tiles: usize,
}

/// Copies in the deck, per kind name.
fn counts(tiles: &TileSet) -> BTreeMap<&str, usize> {
    let mut n = BTreeMap::new();
    for k in tiles.deck() {
        *n.entry(tiles.kinds[k as usize].name.as_str()).or_insert(0) += 1;
    }
    n
}

/// What `more` has beyond `less`: (kinds `less` has none of, copies).
fn beyond(more: &BTreeMap<&str, usize>, less: &BTreeMap<&str, usize>) -> (usize, usize) {
    more.iter().fold((0, 0), |(kinds, tiles), (name, &n)| {
        let had = less.get(name).copied().unwrap_or(0);
        (kinds + usize::from(had == 0), tiles + n.saturating_sub(had))
    })
}

impl Decks {
    /// The decks of `sets`, the first being the baseline.
    pub fn of(sets: &[Ruleset]) -> Decks {
        let all: Vec<BTreeMap<&str, usize>> = sets.iter().map(|s| counts(s.tiles())).collect();
        let base = &all[0];
        let shared = base
            .iter()
            .map(|(name, &n)| {
                all.iter()
                    .map(|c| c.get(name).copied().unwrap_or(0))
                    .fold(n, usize::min)
            })
            .sum();
        let variants = sets
            .iter()
            .zip(&all)
            .map(|(set, c)| {
                let (added_kinds, added_tiles) = beyond(c, base);
                let (removed_kinds, removed_tiles) = beyond(base, c);
                DeckChange {
                    variant: set.name().clone(),
                    tiles: c.values().sum(),
                    added_kinds,
                    added_tiles,
                    removed_kinds,
                    removed_tiles,
                }
            })
            .collect();
        Decks { shared, variants }
    }

    /// Every deck holds the same tiles.
    pub fn same(&self) -> bool {
        self.variants.iter().all(|v| v.tiles == self.shared)
    }

    /// The decks in a sentence: what each variant after the baseline adds
    /// and leaves out, and the tiles whose order every deck keeps.
    pub fn sentence(&self) -> String {
        let base = &self.variants[0];
        let mut parts: Vec<String> = self.variants[1..]
            .iter()
            .map(|v| {
                let mut says = Vec::new();
                if v.added_tiles > 0 || v.removed_tiles == 0 {
                    says.push(format!("adds {}", amount(v.added_kinds, v.added_tiles)));
                }
                if v.removed_tiles > 0 {
                    says.push(format!(
                        "leaves out {}",
                        amount(v.removed_kinds, v.removed_tiles)
                    ));
                }
                format!("{} {}", v.variant, says.join(" and "))
            })
            .collect();
        parts.push(format!(
            "the {} shared tiles keep their order per seed",
            self.shared
        ));
        format!(
            "Decks against the baseline {} ({} tiles): {}.",
            base.variant,
            base.tiles,
            parts.join("; ")
        )
    }
}

/// "3 kinds, 5 tiles", or "2 tiles" when no kind is new (or gone).
fn amount(kinds: usize, tiles: usize) -> String {
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    if kinds == 0 {
        plural(tiles, "tile")
    } else {
        format!("{}, {}", plural(kinds, "kind"), plural(tiles, "tile"))
    }
}
