//! The order a game's deck is drawn in, from the game's seed, such that tile
//! sets that share tiles deal the shared ones in the same relative order.
//!
//! A tile *copy* is named by its kind's name and its index among that kind's
//! copies in the deck (`base/RCr` copy 2). A [`Dealing`] is made against a
//! *reference* tile set, the same for every tile set that is to be paired
//! with another (the rules layer gives the base game's and The Tower's
//! tiles):
//!
//! 1. the reference deck ([`TileSet::deck`]) is shuffled by the seed's deck
//!    stream exactly as a lone set's deck is, so a set that holds exactly the
//!    reference's copies deals what it always dealt;
//! 2. the reference copies this set lacks are left out, which keeps the
//!    others' order;
//! 3. when this set has copies the reference lacks, every copy gets a 64-bit
//!    place: the reference copies the sorted draws of their own stream
//!    ([`PLACES_STREAM`]) in their shuffled order, each extra copy a value
//!    of that stream's first draw and the copy's name alone. The deck is the
//!    copies sorted by place. Every place is a function of the seed and the
//!    copy (never of the other copies of the set), so any two sets put the
//!    copies they share in the same order; and the places are, together,
//!    independent uniform draws, so the deck is a uniform shuffle.

use rustc_hash::{FxHashMap, FxHashSet};

use super::TileSet;
use crate::kernel::random::{DECK_STREAM, Stream, mix64};

/// The stream that places the copies a set has beyond its reference (and
/// the reference copies among them). Bots draw from small stream ids
/// (`1 + seat`), the deck from [`DECK_STREAM`].
pub const PLACES_STREAM: u64 = u64::MAX;

/// How a tile set's deck is dealt from a seed: see the module's text.
#[derive(Clone, Debug)]
pub struct Dealing {
    /// Per copy of the reference deck, in its order: this set's kind of the
    /// copy, when this set holds it.
    reference: Vec<Option<u16>>,
    /// Per copy of the reference deck: its name's hash (ties of places).
    reference_ids: Vec<u64>,
    /// The copies this set holds beyond the reference: (name's hash, kind).
    extra: Vec<(u64, u16)>,
}

impl Dealing {
    /// Nothing to deal: a placeholder while a set is built.
    pub(super) fn empty() -> Dealing {
        Dealing {
            reference: Vec::new(),
            reference_ids: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// A set dealt on its own: its deck shuffled by the deck stream.
    pub fn own(set: &TileSet) -> Dealing {
        Dealing::against(set, set)
    }

    /// `set` dealt against `reference`: the copies both hold in the order
    /// the reference deals them, `set`'s others placed among them.
    pub fn against(set: &TileSet, reference: &TileSet) -> Dealing {
        let reference_ids: Vec<u64> = copies(reference).map(|(id, _)| id).collect();
        let known: FxHashSet<u64> = reference_ids.iter().copied().collect();
        let mine: FxHashMap<u64, u16> = copies(set).collect();
        Dealing {
            reference: reference_ids
                .iter()
                .map(|id| mine.get(id).copied())
                .collect(),
            extra: copies(set).filter(|(id, _)| !known.contains(id)).collect(),
            reference_ids,
        }
    }

    /// The deck of the game of `seed`, first draw first.
    pub fn deal(&self, seed: u64) -> Vec<u16> {
        let mut order: Vec<usize> = (0..self.reference.len()).collect();
        Stream::new(seed, DECK_STREAM).shuffle(&mut order);
        if self.extra.is_empty() {
            return order.iter().filter_map(|&i| self.reference[i]).collect();
        }
        let mut places = Stream::new(seed, PLACES_STREAM);
        let salt = places.next_u64();
        let mut drawn: Vec<u64> = order.iter().map(|_| places.next_u64()).collect();
        drawn.sort_unstable();
        let mut placed: Vec<(u64, u64, u16)> = order
            .iter()
            .zip(drawn)
            .filter_map(|(&i, place)| Some((place, self.reference_ids[i], self.reference[i]?)))
            .chain(
                self.extra
                    .iter()
                    .map(|&(id, kind)| (mix64(salt ^ id), id, kind)),
            )
            .collect();
        placed.sort_unstable();
        placed.into_iter().map(|(_, _, kind)| kind).collect()
    }

    /// How many copies this set holds that the reference does not.
    pub fn extra_copies(&self) -> usize {
        self.extra.len()
    }
}

/// Every copy of `set`'s deck, in [`TileSet::deck`]'s order: its name's
/// hash and its kind.
fn copies(set: &TileSet) -> impl Iterator<Item = (u64, u16)> + '_ {
    set.kinds.iter().enumerate().flat_map(move |(k, kind)| {
        let n = kind.count - u32::from(k == set.start);
        let name = name_hash(&kind.name);
        (0..n).map(move |copy| (mix64(name ^ mix64(u64::from(copy))), k as u16))
    })
}

/// A kind's name as 64 bits: FNV-1a, finished by SplitMix64. Written here
/// rather than taken from a hashing crate because the value decides deck
/// orders, so it must never change with a dependency's version.
fn name_hash(name: &str) -> u64 {
    let fnv = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    mix64(fnv)
}
