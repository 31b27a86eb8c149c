//! The tower machinery under the native Tower rules (T1–T12), on hand-built
//! boards. Every board is built turn by turn through the public operations of
//! a game, with an empty deck: the tests place the tiles themselves.

mod prisoners;
mod range_board;
mod small_board;
mod turns;

use towerlab::kernel::geometry::Pos;
use towerlab::kernel::tiles::{SegmentKind, TileSet};
use towerlab::kernel::{
    Action, CaptureChoice, Event, Game, MEEPLES_PER_PLAYER, MeepleSpot, Placement, RansomChoice,
    Rules, StackView,
};
use towerlab::rules::native::NativeTower;

use crate::common::{kind, tiles};

// ---- helpers -------------------------------------------------------------

/// A game of `players` with only the start tile on the board.
fn game<'a>(tiles: &'a TileSet, rules: &'a NativeTower, players: usize) -> Game<'a> {
    Game::with_deck(tiles, rules, players, vec![]).expect("a game starts")
}

/// The index of the first segment of `what` on the tile kind `name`.
fn segment(tiles: &TileSet, name: &str, what: SegmentKind) -> u8 {
    let k = &tiles.kinds[kind(tiles, name) as usize];
    k.segments
        .iter()
        .position(|s| s.kind == what)
        .unwrap_or_else(|| panic!("{name} has no {}", what.name())) as u8
}

/// End empty turns until it is `player`'s turn.
fn hand_to(g: &mut Game, player: usize) {
    while g.current() != player {
        g.end_turn().unwrap();
    }
}

/// On `player`'s turn, place `name` at (x, y) turned `rot` quarter turns.
fn place(g: &mut Game, player: usize, name: &str, x: i32, y: i32, rot: u8) {
    hand_to(g, player);
    let k = kind(g.tiles(), name);
    g.place_tile(
        k,
        Placement {
            pos: Pos::new(x, y),
            rot,
        },
    )
    .unwrap_or_else(|e| panic!("{name} at ({x}, {y}): {e}"));
}

/// A whole turn: place a tile, put a meeple on its segment of kind `on` (if
/// any), and end the turn.
fn turn(g: &mut Game, player: usize, name: &str, x: i32, y: i32, rot: u8, on: Option<SegmentKind>) {
    place(g, player, name, x, y, rot);
    if let Some(what) = on {
        let segment = segment(g.tiles(), name, what);
        g.act(Action::Meeple { segment })
            .unwrap_or_else(|e| panic!("meeple on {name}'s {}: {e}", what.name()));
    }
    g.end_turn().unwrap();
}

/// On `player`'s turn, place a bare cloister tile at the easternmost spot
/// that takes one, away from the situation under test. Returns where.
fn filler(g: &mut Game, player: usize) -> Pos {
    hand_to(g, player);
    let k = kind(g.tiles(), "base/L");
    let mut spots = Vec::new();
    g.placements(k, &mut spots).unwrap();
    let at = *spots
        .iter()
        .max_by_key(|p| (p.pos.x, p.pos.y))
        .expect("a cloister tile fits somewhere");
    g.place_tile(k, at).expect("a listed placement");
    at.pos
}

/// The tower on the tile at `pos`.
fn tower(g: &Game, pos: Pos) -> u16 {
    g.tower_at(pos)
        .unwrap_or_else(|| panic!("no tower at {pos}")) as u16
}

fn floor_on(g: &Game, pos: Pos) -> Action {
    Action::Floor {
        tower: tower(g, pos),
        kind: 0,
    }
}

fn top_of(g: &Game, pos: Pos) -> Action {
    Action::TowerMeeple {
        tower: tower(g, pos),
    }
}

/// On `player`'s turn: a filler tile, then a floor on the tower at `pos`.
/// The capture is left pending.
fn add_floor(g: &mut Game, player: usize, pos: Pos) {
    filler(g, player);
    let action = floor_on(g, pos);
    g.act(action)
        .unwrap_or_else(|e| panic!("floor on the tower at {pos}: {e}"));
}

/// The meeples the floor just placed may take: (where, on what, whose).
fn capturable(g: &mut Game) -> Vec<(Pos, &'static str, usize)> {
    let mut choices = Vec::new();
    g.capture_choices(&mut choices).expect("capture choices");
    assert_eq!(choices[0], CaptureChoice::Decline, "declining comes first");
    let mut out: Vec<_> = choices[1..]
        .iter()
        .map(|c| match *c {
            CaptureChoice::Take { meeple } => {
                let m = g.meeples()[meeple as usize];
                (m.pos, g.spot_name(m.pos, m.spot), m.owner as usize)
            }
            CaptureChoice::Decline => panic!("Decline listed twice"),
        })
        .collect();
    out.sort();
    out
}

/// The positions of [`capturable`].
fn capturable_cells(g: &mut Game) -> Vec<Pos> {
    let mut cells: Vec<Pos> = capturable(g).into_iter().map(|(p, _, _)| p).collect();
    cells.dedup();
    cells
}

/// The index in [`Game::meeples`] of the meeple at `pos` standing on `on`.
fn meeple_at(g: &Game, pos: Pos, on: &str) -> usize {
    g.meeples()
        .iter()
        .position(|m| m.pos == pos && g.spot_name(m.pos, m.spot) == on)
        .unwrap_or_else(|| panic!("no meeple on a {on} at {pos}"))
}

fn on_board(g: &Game, player: usize) -> usize {
    g.meeples()
        .iter()
        .filter(|m| m.owner as usize == player)
        .count()
}

fn supply(g: &Game, player: usize) -> u8 {
    g.players()[player].meeples
}

/// The turn's legal actions.
fn actions(g: &Game) -> Vec<Action> {
    let mut out = Vec::new();
    g.actions(&mut out).expect("actions");
    out
}

fn ransoms(g: &Game) -> Vec<RansomChoice> {
    let mut out = Vec::new();
    g.ransom_choices(&mut out).expect("ransom choices");
    out
}

/// The same actions, in any order.
fn assert_same_actions(got: &[Action], want: &[Action]) {
    assert_eq!(got.len(), want.len(), "got {got:?}, want {want:?}");
    for a in want {
        assert!(got.contains(a), "{a:?} missing from {got:?}");
    }
}

fn p(x: i32, y: i32) -> Pos {
    Pos::new(x, y)
}

#[allow(unused_imports)]
use prisoners::*;
#[allow(unused_imports)]
use range_board::*;
#[allow(unused_imports)]
use small_board::*;
#[allow(unused_imports)]
use turns::*;
