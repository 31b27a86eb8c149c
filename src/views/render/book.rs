//! Tile art worked out and drawn once: a [`TileBook`] holds, for one tile
//! set, each kind's [`TileArt`] (its shapes and meeple spots, computed when
//! first needed) and each (kind, rotation) drawn once as an SVG `<symbol>`,
//! which every placed tile of that kind and rotation `<use>`s.
//!
//! A symbol's id is a hash of its markup, so equal art has one id in every
//! book: pictures of several tile sets (the report's variants) share their
//! symbols on one page. A picture drawn with a book that lives across many
//! pictures (a game served move by move, the turns of a sample game) draws
//! each kind's art once, not once per tile and picture.

use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use maud::{Markup, PreEscaped, html};
use rustc_hash::FxHashMap;

use crate::kernel::tiles::TileSet;

use super::tile::TileArt;
use super::tile::draw::draw_tile;

/// One tile kind at one rotation, drawn: its id and its `<symbol>` element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub id: String,
    pub markup: String,
}

/// The art of a tile set's kinds, worked out and drawn when first asked for.
pub struct TileBook<'k> {
    tiles: &'k TileSet,
    arts: Vec<OnceCell<TileArt<'k>>>,
    symbols: RefCell<FxHashMap<(u16, u8), Rc<Symbol>>>,
}

impl<'k> TileBook<'k> {
    pub fn new(tiles: &'k TileSet) -> TileBook<'k> {
        TileBook {
            tiles,
            arts: tiles.kinds.iter().map(|_| OnceCell::new()).collect(),
            symbols: RefCell::new(FxHashMap::default()),
        }
    }

    /// The tile set the book draws.
    pub fn tiles(&self) -> &'k TileSet {
        self.tiles
    }

    /// The art of kind `k`.
    pub(super) fn art(&self, k: u16) -> &TileArt<'k> {
        self.arts[k as usize].get_or_init(|| TileArt::new(&self.tiles.kinds[k as usize]))
    }

    /// The id of the symbol of kind `k` turned `rot` quarter turns, drawn
    /// the first time it is asked for.
    pub(super) fn symbol_id(&self, k: u16, rot: u8) -> String {
        self.symbol(k, rot).id.clone()
    }

    fn symbol(&self, k: u16, rot: u8) -> Rc<Symbol> {
        if let Some(s) = self.symbols.borrow().get(&(k, rot)) {
            return s.clone();
        }
        let symbol = Rc::new(draw_symbol(self.art(k), rot));
        self.symbols.borrow_mut().insert((k, rot), symbol.clone());
        symbol
    }

    /// The symbols of these (kind, rotation) pairs, each once, in the
    /// order first named.
    pub fn symbols(&self, used: impl IntoIterator<Item = (u16, u8)>) -> Vec<Symbol> {
        self.distinct(used)
            .iter()
            .map(|s| Symbol::clone(s))
            .collect()
    }

    /// The symbols of these pairs, each once, in the order first named.
    fn distinct(&self, used: impl IntoIterator<Item = (u16, u8)>) -> Vec<Rc<Symbol>> {
        let mut seen = rustc_hash::FxHashSet::default();
        used.into_iter()
            .filter(|&pair| seen.insert(pair))
            .map(|(k, rot)| self.symbol(k, rot))
            .fold(Vec::new(), |mut out: Vec<Rc<Symbol>>, s| {
                if !out.iter().any(|o| o.id == s.id) {
                    out.push(s);
                }
                out
            })
    }

    /// The symbols of these pairs as `<defs>` children (see [`defs`]).
    pub fn defs_of(&self, used: impl IntoIterator<Item = (u16, u8)>) -> Markup {
        let symbols = self.distinct(used);
        defs(symbols.iter().map(|s| s.as_ref()))
    }
}

/// The `<symbol>` of one tile art at one rotation. It draws in the cell's
/// own units (no viewBox) and does not clip, so a `<use>` of it looks the
/// same as the art drawn in place.
fn draw_symbol(art: &TileArt, rot: u8) -> Symbol {
    let inner = draw_tile(art, rot).into_string();
    let id = format!("tile-{:016x}", fnv1a(inner.as_bytes()));
    let markup = html! {
        symbol id=(id) overflow="visible" { (PreEscaped(&inner)) }
    }
    .into_string();
    Symbol { id, markup }
}

/// Symbols as the `<defs>` children of a picture or page.
pub fn defs<'a>(symbols: impl IntoIterator<Item = &'a Symbol>) -> Markup {
    html! {
        @for s in symbols { (PreEscaped(&s.markup)) }
    }
}

/// The 64-bit FNV-1a hash: fixed by its definition, so ids stay the same
/// across builds and versions.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> TileSet {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        TileSet::load(&[dir.join("base/tiles.toml"), dir.join("tower/tiles.toml")]).unwrap()
    }

    #[test]
    fn equal_art_has_one_id_in_every_book() {
        let set = shipped();
        let (a, b) = (TileBook::new(&set), TileBook::new(&set));
        assert_eq!(a.symbol_id(3, 1), b.symbol_id(3, 1));
        assert_ne!(a.symbol_id(3, 1), a.symbol_id(3, 2));
        let used = a.symbols([(3, 1), (4, 0), (3, 1)]);
        assert_eq!(used.len(), 2);
        assert!(
            used[0]
                .markup
                .starts_with(&format!("<symbol id=\"{}\"", used[0].id))
        );
    }

    #[test]
    fn fnv1a_matches_its_definition() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
