//! The base game on hand-built boards (G1–G9): tiles are placed where the
//! test says, and every score is worked out by hand from docs/rules.md and the
//! tile data (`rules/base/tiles.toml`, `rules/tower/tiles.toml`).
//!
//! Coordinates: x grows east, y north; the start tile `base/RCr` lies at
//! (0, 0) unrotated: city N, road W–E, a field between road and city (it
//! touches the city) and a field south of the road (it touches no city).
//! A rotation is in quarter turns clockwise: N→E→S→W.
//!
//! Here: games built tile by tile (shared with the feature-read tests); the
//! tests by rule in the modules below.

use towerlab::kernel::geometry::{Dir, Half, Pos};
use towerlab::kernel::tiles::{NO_SEGMENT, SegmentKind, TileSet};
use towerlab::kernel::{Action, Event, Game, MEEPLES_PER_PLAYER, Placement};
use towerlab::rules::native::NativeTower;

use crate::common::{kind, tiles};

pub(crate) fn new_game<'a>(tiles: &'a TileSet, rules: &'a NativeTower) -> Game<'a> {
    Game::with_deck(tiles, rules, 2, vec![]).expect("a two-player game")
}

pub(crate) fn at(x: i32, y: i32, rot: u8) -> Placement {
    Placement {
        pos: Pos::new(x, y),
        rot,
    }
}

mod features;
mod majority;
mod placement;

/// Place tile `name` at (x, y) turned `rot` for the current player; it must fit.
pub(crate) fn put(g: &mut Game, name: &str, x: i32, y: i32, rot: u8) {
    let k = kind(g.tiles(), name);
    g.place_tile(k, at(x, y, rot))
        .unwrap_or_else(|e| panic!("{name} at ({x}, {y}) turned {rot}: {e}"));
}

/// A whole turn: place a tile, take no action, score.
pub(crate) fn turn(g: &mut Game, name: &str, x: i32, y: i32, rot: u8) {
    put(g, name, x, y, rot);
    g.end_turn().unwrap();
}

/// A whole turn: place a tile, put a meeple on it (`on`, named as seen on
/// the board, i.e. after rotation), score.
pub(crate) fn turn_meeple(g: &mut Game, name: &str, x: i32, y: i32, rot: u8, on: On) {
    put(g, name, x, y, rot);
    let s = segment(g, Pos::new(x, y), on);
    g.act(Action::Meeple { segment: s })
        .unwrap_or_else(|e| panic!("meeple on {on:?} of {name} at ({x}, {y}): {e}"));
    g.end_turn().unwrap();
}

/// A segment of a placed tile, named by where it shows on the board.
#[derive(Clone, Copy, Debug)]
pub(crate) enum On {
    City(Dir),
    Road(Dir),
    /// The field on a half-edge (NL NR EL ER SL SR WL WR).
    Field(&'static str),
    Cloister,
}

/// The segment index (into the tile kind's segments) of `on` for the tile at `pos`.
pub(crate) fn segment(g: &Game, pos: Pos, on: On) -> u8 {
    let t = g.board().tile_at(pos).expect("a tile there");
    let k = &g.tiles().kinds[t.kind as usize];
    let r = &k.rotations[t.rot as usize];
    let (s, want) = match on {
        On::City(d) => (r.edge_segment[d.index()], SegmentKind::City),
        On::Road(d) => (r.edge_segment[d.index()], SegmentKind::Road),
        On::Field(h) => (
            r.half_segment[Half::parse(h).expect("a half-edge").0 as usize],
            SegmentKind::Field,
        ),
        On::Cloister => (k.cloister.expect("a cloister"), SegmentKind::Cloister),
    };
    assert_ne!(s, NO_SEGMENT, "{} at {pos} has nothing on {on:?}", k.name);
    assert_eq!(k.segments[s as usize].kind, want, "{} at {pos}", k.name);
    s
}

fn supplies(g: &Game) -> Vec<u8> {
    g.players().iter().map(|p| p.meeples).collect()
}

fn meeple_actions(g: &Game) -> Vec<u8> {
    let mut out = Vec::new();
    g.actions(&mut out).expect("actions");
    out.into_iter()
        .filter_map(|a| match a {
            Action::Meeple { segment } => Some(segment),
            _ => None,
        })
        .collect()
}
