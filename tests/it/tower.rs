//! The tower machinery under the native Tower rules (T1–T12), on hand-built
//! boards. Every board is built turn by turn through the public operations of
//! a game, with an empty deck: the tests place the tiles themselves.

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
        g.end_turn();
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
    g.end_turn();
}

/// On `player`'s turn, place a bare cloister tile at the easternmost spot
/// that takes one, away from the situation under test. Returns where.
fn filler(g: &mut Game, player: usize) -> Pos {
    hand_to(g, player);
    let k = kind(g.tiles(), "base/L");
    let mut spots = Vec::new();
    g.placements(k, &mut spots);
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

// ---- T1 ----------------------------------------------------------------

/// T1: 2 → 10, 3 → 9, 4 → 7, 5 → 6, 6 → 5 floors each.
#[test]
fn t1_floors_per_player_by_player_count() {
    let tiles = tiles();
    let rules = NativeTower::default();
    assert_eq!(rules.floor_kinds().len(), 1, "The Tower has one floor kind");
    for (players, floors) in [(2, 10), (3, 9), (4, 7), (5, 6), (6, 5)] {
        let g = game(&tiles, &rules, players);
        assert_eq!(g.players().len(), players);
        for (i, player) in g.players().iter().enumerate() {
            assert_eq!(
                player.floors,
                vec![floors],
                "player {i} of {players} starts with {floors} floors"
            );
            assert_eq!(player.meeples, MEEPLES_PER_PLAYER);
        }
    }
}

#[test]
fn t1_one_or_seven_players_are_refused() {
    let tiles = tiles();
    let rules = NativeTower::default();
    for players in [0, 1, 7] {
        assert!(Game::with_deck(&tiles, &rules, players, vec![]).is_err());
        assert!(rules.floor_supply(players, 18).is_err());
    }
}

// ---- T2 ----------------------------------------------------------------

/// T2: on every Tower tile, the foundation is a feature of its own, joined to
/// no road, city or field of its tile or the tile it touches, and no meeple
/// goes onto it as onto a feature.
#[test]
fn t2_a_foundation_is_a_feature_of_its_own() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let towers: Vec<usize> = (0..tiles.kinds.len())
        .filter(|&k| tiles.kinds[k].foundation.is_some())
        .collect();
    assert_eq!(towers.len(), 17, "17 kinds of Tower tile");
    for k in towers {
        let name = &tiles.kinds[k].name;
        assert!(name.starts_with("tower/"), "{name}");
        let f = tiles.kinds[k].foundation.unwrap();
        let seg = &tiles.kinds[k].segments[f as usize];
        assert_eq!(seg.kind, SegmentKind::Foundation);
        assert_eq!((seg.edges, seg.halves), (0, 0), "{name}: touches no edge");

        let mut g = game(&tiles, &rules, 2);
        let mut spots = Vec::new();
        g.placements(k as u16, &mut spots);
        let at = spots[0];
        g.place_tile(k as u16, at).unwrap();
        let fid = g.segment_id(at.pos, f).unwrap();
        let root = g.features().root(fid);
        assert_eq!(g.features().kind(root), SegmentKind::Foundation, "{name}");
        assert_eq!(g.features().members(root).count(), 1, "{name}: alone");
        for pos in [at.pos, Pos::ORIGIN] {
            let tile = g.board().tile_at(pos).unwrap();
            let n = tiles.kinds[tile.kind as usize].segments.len() as u8;
            for s in 0..n {
                let id = g.segment_id(pos, s).unwrap();
                if id != fid {
                    assert_ne!(g.features().root(id), root, "{name}: {pos} segment {s}");
                }
            }
        }
        assert!(
            !actions(&g).contains(&Action::Meeple { segment: f }),
            "{name}: a meeple on the foundation is offered"
        );
        assert!(
            g.act(Action::Meeple { segment: f }).is_err(),
            "{name}: a meeple went onto the foundation"
        );
        assert_eq!(on_board(&g, 0), 0);
        assert_eq!(supply(&g, 0), MEEPLES_PER_PLAYER);
    }
}

/// T2: a road that runs into a foundation is not joined to it, and the road
/// through a Tower tile is the same road as on its neighbour.
#[test]
fn t2_the_road_through_a_tower_tile_is_joined_but_the_foundation_is_not() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = game(&tiles, &rules, 2);
    // tower/RCr: city N, road W-E, foundation; its road meets the start's.
    place(&mut g, 0, "tower/RCr", 1, 0, 0);
    let road = segment(&tiles, "tower/RCr", SegmentKind::Road);
    let found = segment(&tiles, "tower/RCr", SegmentKind::Foundation);
    let start_road = segment(&tiles, "base/RCr", SegmentKind::Road);
    let f = g.features();
    let root = |pos, s| f.root(g.segment_id(pos, s).unwrap());
    assert_eq!(root(p(1, 0), road), root(Pos::ORIGIN, start_road));
    assert_ne!(root(p(1, 0), found), root(Pos::ORIGIN, start_road));
    assert_ne!(root(p(1, 0), found), root(p(1, 0), road));
}

// ---- T3, T4, T7, T8 on one small board ---------------------------------------

/// T3: the action list after a Tower tile: pass, a meeple on one of its
/// features (never on its foundation), or a floor on its foundation; no
/// meeple on the bare foundation (T4).
#[test]
fn t3_the_actions_after_a_tower_tile() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = game(&tiles, &rules, 2);
    place(&mut g, 0, "tower/F", 0, -1, 0);
    let field = segment(&tiles, "tower/F", SegmentKind::Field);
    assert_same_actions(
        &actions(&g),
        &[
            Action::Pass,
            Action::Meeple { segment: field },
            Action::Floor { tower: 0, kind: 0 },
        ],
    );
}

/// T3 (A): a floor may go on the foundation of a tile placed earlier, not
/// only on the one just placed; T3 (C): a meeple onto an open tower.
#[test]
fn t3_a_floor_on_an_earlier_foundation_then_a_meeple_on_the_tower() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = game(&tiles, &rules, 2);
    turn(&mut g, 0, "tower/F", 0, -1, 0, None);

    // Player 1 places a plain cloister tile; the earlier foundation is offered.
    place(&mut g, 1, "base/L", 1, -1, 0);
    let field = segment(&tiles, "base/L", SegmentKind::Field);
    let cloister = segment(&tiles, "base/L", SegmentKind::Cloister);
    assert_same_actions(
        &actions(&g),
        &[
            Action::Pass,
            Action::Meeple { segment: field },
            Action::Meeple { segment: cloister },
            Action::Floor { tower: 0, kind: 0 },
        ],
    );
    g.act(Action::Floor { tower: 0, kind: 0 }).unwrap();
    assert_eq!(g.towers()[0].floors.len(), 1);
    assert_eq!(g.players()[1].floors, vec![9], "10 - 1");
    assert_eq!(g.players()[0].floors, vec![10]);
    g.end_turn();

    // Player 0: the tower is open, so both a floor and a meeple are offered.
    place(&mut g, 0, "base/L", -1, -1, 0);
    let offered = actions(&g);
    assert!(offered.contains(&Action::Floor { tower: 0, kind: 0 }));
    assert!(offered.contains(&Action::TowerMeeple { tower: 0 }));
    g.act(Action::TowerMeeple { tower: 0 }).unwrap();
    assert_eq!(g.towers()[0].meeple, Some(0));
    assert_eq!(supply(&g, 0), MEEPLES_PER_PLAYER - 1);
    let i = meeple_at(&g, p(0, -1), "tower");
    assert_eq!(g.meeples()[i].spot, MeepleSpot::Tower);
    assert_eq!(g.meeples()[i].owner, 0);
    assert_eq!(g.towers()[0].floors.len(), 1, "a meeple is not a floor");
}

/// T3: exactly one action after the tile: a second is neither offered nor
/// accepted, whichever the first was.
#[test]
fn t3_only_one_action_per_turn() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let cloister = segment(&tiles, "base/L", SegmentKind::Cloister);
    let field = segment(&tiles, "base/L", SegmentKind::Field);
    let mut g = game(&tiles, &rules, 2);
    turn(&mut g, 0, "tower/F", 0, -1, 0, None);
    turn(&mut g, 1, "base/L", 0, -2, 0, None);
    // A tower with one floor, so that every kind of action is possible.
    add_floor(&mut g, 0, p(0, -1));
    g.end_turn();

    // Passing is choosing no action: it closes the action too.
    let firsts = [
        Action::Pass,
        Action::Meeple { segment: cloister },
        Action::Floor { tower: 0, kind: 0 },
        Action::TowerMeeple { tower: 0 },
    ];
    for first in firsts {
        let mut g = g.clone();
        place(&mut g, 1, "base/L", -1, -1, 0);
        assert!(actions(&g).contains(&first), "{first:?} is offered");
        g.act(first).unwrap();
        assert_eq!(actions(&g), vec![Action::Pass], "after {first:?}");
        let floors = g.towers()[0].floors.len();
        let out = on_board(&g, 1);
        for second in [
            Action::Meeple { segment: field },
            Action::Floor { tower: 0, kind: 0 },
            Action::TowerMeeple { tower: 0 },
        ] {
            assert!(g.act(second).is_err(), "{second:?} after {first:?}");
        }
        assert_eq!(g.towers()[0].floors.len(), floors);
        assert_eq!(on_board(&g, 1), out);
    }
}

/// T3: no action before a tile is placed.
#[test]
fn t3_no_action_before_the_tile() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = game(&tiles, &rules, 2);
    turn(&mut g, 0, "tower/F", 0, -1, 0, None);
    hand_to(&mut g, 1);
    assert_eq!(actions(&g), vec![Action::Pass]);
    assert!(g.act(Action::Floor { tower: 0, kind: 0 }).is_err());
}

/// T4: no meeple on a bare foundation: not offered, and refused.
#[test]
fn t4_no_meeple_on_a_bare_foundation() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = game(&tiles, &rules, 2);
    place(&mut g, 0, "tower/F", 0, -1, 0);
    assert!(!actions(&g).contains(&Action::TowerMeeple { tower: 0 }));
    assert!(g.act(Action::TowerMeeple { tower: 0 }).is_err());
    g.end_turn();
    // Nor later, from another tile.
    place(&mut g, 1, "base/L", 1, -1, 0);
    assert!(!actions(&g).contains(&Action::TowerMeeple { tower: 0 }));
    assert!(g.act(Action::TowerMeeple { tower: 0 }).is_err());
    assert_eq!(g.towers()[0].meeple, None);
    assert_eq!(supply(&g, 1), MEEPLES_PER_PLAYER);
    assert!(g.meeples().is_empty());
}

/// A tower of two floors at (0,-1), closed by player 0's meeple; player 1 then
/// lays a foundation at (0,-2), whose one floor reaches it.
fn closed_tower_board<'a>(tiles: &'a TileSet, rules: &'a NativeTower) -> Game<'a> {
    let mut g = game(tiles, rules, 2);
    turn(&mut g, 0, "tower/F", 0, -1, 0, None);
    add_floor(&mut g, 1, p(0, -1));
    g.end_turn();
    add_floor(&mut g, 0, p(0, -1));
    g.end_turn();
    filler(&mut g, 0);
    let top = top_of(&g, p(0, -1));
    g.act(top).unwrap();
    g.end_turn();
    assert_eq!(g.towers()[0].floors.len(), 2);
    assert_eq!(g.towers()[0].meeple, Some(0));
    g
}

/// T8: a closed tower takes no floor and no second meeple.
#[test]
fn t8_a_closed_tower_takes_no_floor() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = closed_tower_board(&tiles, &rules);
    filler(&mut g, 1);
    let offered = actions(&g);
    assert!(!offered.contains(&Action::Floor { tower: 0, kind: 0 }));
    assert!(!offered.contains(&Action::TowerMeeple { tower: 0 }));
    assert!(g.act(Action::Floor { tower: 0, kind: 0 }).is_err());
    assert!(g.act(Action::TowerMeeple { tower: 0 }).is_err());
    assert_eq!(g.towers()[0].floors.len(), 2);
    assert_eq!(g.towers()[0].meeple, Some(0));
}

/// T7: a tower of one floor captures the meeple on top of a tower of two;
/// T8: that tower is open again.
#[test]
fn t7_a_low_tower_captures_the_top_of_a_higher_one_which_reopens() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = closed_tower_board(&tiles, &rules);
    place(&mut g, 1, "tower/F", 0, -2, 0);
    let low = floor_on(&g, p(0, -2));
    g.act(low).unwrap();
    assert_eq!(g.towers()[tower(&g, p(0, -2)) as usize].floors.len(), 1);
    assert_eq!(capturable(&mut g), vec![(p(0, -1), "tower", 0)]);
    let i = meeple_at(&g, p(0, -1), "tower");
    g.capture(i).unwrap();
    assert_eq!(g.towers()[0].meeple, None, "T8: reopened");
    assert_eq!(g.prisoners(1, 0), 1);
    assert!(g.meeples().is_empty());
    g.end_turn();

    // Player 0 may build on it or close it again.
    filler(&mut g, 0);
    let offered = actions(&g);
    assert!(offered.contains(&Action::Floor { tower: 0, kind: 0 }));
    assert!(offered.contains(&Action::TowerMeeple { tower: 0 }));
    g.act(Action::Floor { tower: 0, kind: 0 }).unwrap();
    assert_eq!(g.towers()[0].floors.len(), 3);
}

// ---- T5, T6, T10 on the range board -------------------------------------------

/// The tower under test.
const T: Pos = Pos::new(0, -3);

/// A field of cloister tiles south of the start tile, three players. Player 0
/// owns the tower `T` (a cloister tower, own monk on it); players 1 and 2 have
/// monks around it. `.` is no tile.
///
/// ```text
///  y=-1   .    .    A1   .    .    .
///  y=-2   .    c    B2   J1   .    .
///  y=-3   I2   .    T0   F2   G1   K2
///  y=-4   .    .    C2   .    .    .
///        x=-2 x=-1 x=0  x=1  x=2  x=3
/// ```
///
/// `F` is a second cloister tower with one floor (player 2's). From `T`: `B`,
/// `C`, `F` are one tile away; `A` two north; `G` two east, over the tower
/// `F`; `I` two west, over the gap at (-1,-3); `K` three east; `J` is a
/// diagonal neighbour.
fn range_board<'a>(tiles: &'a TileSet, rules: &'a NativeTower) -> Game<'a> {
    use SegmentKind::Cloister;
    let mut g = game(tiles, rules, 3);
    turn(&mut g, 1, "base/L", 0, -1, 0, Some(Cloister)); // A
    turn(&mut g, 2, "base/L", 0, -2, 0, Some(Cloister)); // B
    turn(&mut g, 0, "tower/L", 0, -3, 0, Some(Cloister)); // T
    turn(&mut g, 2, "base/L", 0, -4, 0, Some(Cloister)); // C
    turn(&mut g, 1, "base/L", 1, -2, 0, Some(Cloister)); // J
    turn(&mut g, 2, "tower/L", 1, -3, 0, Some(Cloister)); // F
    turn(&mut g, 1, "base/L", 2, -3, 0, Some(Cloister)); // G
    turn(&mut g, 2, "base/L", 3, -3, 0, Some(Cloister)); // K
    turn(&mut g, 0, "base/L", -1, -2, 0, None); // c
    turn(&mut g, 0, "base/L", -2, -2, 0, None);
    turn(&mut g, 2, "base/L", -2, -3, 0, Some(Cloister)); // I
    add_floor(&mut g, 2, p(1, -3)); // F gets a floor; no capture
    g.end_turn();
    assert!(!g.board().has_tile(p(-1, -3)), "the gap");
    assert_eq!(
        (on_board(&g, 0), on_board(&g, 1), on_board(&g, 2)),
        (1, 3, 5)
    );
    assert_eq!(g.scores(), vec![0, 0, 0]);
    g
}

/// T6: a tower's tile and, from it, as many tiles as floors in each
/// orthogonal direction: 1 floor → 5 cells, 2 → 9, 3 → 13; never a diagonal.
#[test]
fn t6_range_cells_by_height() {
    let rules = NativeTower::default();
    for (floors, cells) in [(1usize, 5usize), (2, 9), (3, 13), (7, 29)] {
        let stack = vec![0u8; floors];
        let view = StackView {
            floors: &stack,
            topped: false,
        };
        let mut range = Vec::new();
        rules.capture_range(&view, &mut range).unwrap();
        range.sort();
        range.dedup();
        assert_eq!(range.len(), cells, "{floors} floors");
        assert!(range.contains(&(0, 0)));
        let f = floors as i32;
        for (dx, dy) in [(0, f), (f, 0), (0, -f), (-f, 0)] {
            assert!(
                range.contains(&(dx, dy)),
                "{floors} floors reach ({dx},{dy})"
            );
        }
        for &(dx, dy) in &range {
            assert!(dx == 0 || dy == 0, "({dx},{dy}) is off the lines");
            assert!(dx.abs() + dy.abs() <= f, "({dx},{dy}) is too far");
        }
    }
}

/// T6: one floor reaches the tower's own tile and one tile each way, and in
/// a game the meeples there are the ones it may capture.
#[test]
fn t6_one_floor_captures_meeples_on_its_five_tiles_in_a_game() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = range_board(&tiles, &rules);
    add_floor(&mut g, 0, T);
    // Own tile (player 0's monk), B north, C south, F east (on a tower);
    // west is empty. A (two north), J (diagonal), G, I and K are out.
    assert_eq!(
        capturable(&mut g),
        vec![
            (p(0, -4), "cloister", 2),
            (p(0, -3), "cloister", 0),
            (p(0, -2), "cloister", 2),
            (p(1, -3), "cloister", 2),
        ]
    );
    for out in [p(0, -1), p(1, -2), p(2, -3), p(-2, -3), p(3, -3)] {
        let i = meeple_at(&g, out, "cloister");
        assert!(g.capture(i).is_err(), "{out} is out of range");
    }
    assert_eq!(g.meeples().len(), 9, "nothing was taken");
}

/// T6: two floors reach nine tiles, over the gap at (-1,-3) and over the
/// tower at (1,-3); a diagonal neighbour and a tile three away stay out.
#[test]
fn t6_two_floors_reach_nine_tiles_over_gaps_and_towers() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = range_board(&tiles, &rules);
    add_floor(&mut g, 0, T);
    g.end_turn();
    add_floor(&mut g, 0, T);
    assert_eq!(g.towers()[tower(&g, T) as usize].floors.len(), 2);
    assert_eq!(
        capturable_cells(&mut g),
        vec![
            p(-2, -3), // I, over the gap
            p(0, -4),
            p(0, -3),
            p(0, -2),
            p(0, -1), // A
            p(1, -3),
            p(2, -3), // G, over the tower F
        ]
    );
    for out in [p(1, -2), p(3, -3)] {
        let i = meeple_at(&g, out, "cloister");
        assert!(g.capture(i).is_err(), "{out} is out of range");
    }
    let i = meeple_at(&g, p(-2, -3), "cloister");
    g.capture(i).unwrap();
    assert_eq!(g.prisoners(0, 2), 1);
}

/// T6: no height limit; a third floor reaches three tiles, so `K` now.
#[test]
fn t6_a_third_floor_reaches_three_tiles() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = range_board(&tiles, &rules);
    for _ in 0..2 {
        add_floor(&mut g, 0, T);
        g.end_turn();
    }
    add_floor(&mut g, 0, T);
    assert_eq!(g.towers()[tower(&g, T) as usize].floors.len(), 3);
    let cells = capturable_cells(&mut g);
    assert!(cells.contains(&p(3, -3)), "K at distance 3: {cells:?}");
    assert!(
        !cells.contains(&p(1, -2)),
        "J is still a diagonal neighbour"
    );
}

/// T5: an opponent's meeple taken by a floor becomes the captor's prisoner.
#[test]
fn t5_a_captured_opponent_becomes_a_prisoner() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = range_board(&tiles, &rules);
    add_floor(&mut g, 0, T);
    let i = meeple_at(&g, p(0, -2), "cloister");
    g.capture(i).unwrap();
    assert_eq!(g.prisoners(0, 2), 1);
    assert_eq!(on_board(&g, 2), 4);
    assert_eq!(supply(&g, 2), MEEPLES_PER_PLAYER - 5, "not back in supply");
    assert_eq!(supply(&g, 0), MEEPLES_PER_PLAYER - 1);
    assert_eq!((g.stats().captures, g.stats().own_captures), (1, 0));
    // B's cloister is free again.
    let id = g.segment_id(p(0, -2), segment(&tiles, "base/L", SegmentKind::Cloister));
    assert_eq!(g.features().meeples(g.features().root(id.unwrap())), 0);
    // One capture per floor.
    assert!(capturable(&mut g).is_empty());
    let j = meeple_at(&g, p(0, -4), "cloister");
    assert!(g.capture(j).is_err());
}

/// T5: a player may take their own meeple; it goes back to their supply.
#[test]
fn t5_a_captured_own_meeple_returns_to_supply() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = range_board(&tiles, &rules);
    add_floor(&mut g, 0, T);
    let i = meeple_at(&g, T, "cloister");
    g.capture(i).unwrap();
    assert_eq!(supply(&g, 0), MEEPLES_PER_PLAYER);
    assert_eq!(on_board(&g, 0), 0);
    for captor in 0..3 {
        for owner in 0..3 {
            assert_eq!(g.prisoners(captor, owner), 0);
        }
    }
    assert_eq!((g.stats().captures, g.stats().own_captures), (0, 1));
}

/// T5: capturing is optional; a declined capture is gone with the turn.
#[test]
fn t5_a_capture_may_be_declined() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = range_board(&tiles, &rules);
    let before = g.meeples().to_vec();
    add_floor(&mut g, 0, T);
    assert_eq!(capturable(&mut g).len(), 4);
    g.end_turn();
    assert_eq!(g.meeples(), &before[..]);
    assert_eq!(g.stats().captures + g.stats().own_captures, 0);
    // Player 1's turn: no floor is pending, so nothing can be taken.
    filler(&mut g, 1);
    assert!(capturable(&mut g).is_empty());
    assert!(g.capture(meeple_at(&g, T, "cloister")).is_err());
}

/// T5: a meeple is captured only by a floor: a meeple placed on a tower or
/// on a tile takes nothing.
#[test]
fn t5_no_capture_without_a_floor() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = range_board(&tiles, &rules);
    filler(&mut g, 0);
    g.act(top_of(&g, p(1, -3))).unwrap();
    assert!(capturable(&mut g).is_empty());
    assert!(g.capture(meeple_at(&g, T, "cloister")).is_err());
}

/// T10: two players who each hold a prisoner of the other get them back at
/// once, without being asked.
#[test]
fn t10_prisoners_are_exchanged_at_once() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = range_board(&tiles, &rules);
    g.record_events();
    add_floor(&mut g, 0, T);
    g.capture(meeple_at(&g, p(0, -2), "cloister")).unwrap();
    g.end_turn();
    assert_eq!(g.prisoners(0, 2), 1);
    let (s0, s2) = (supply(&g, 0), supply(&g, 2));

    // Player 2 builds on F and takes player 0's monk on T.
    add_floor(&mut g, 2, p(1, -3));
    g.capture(meeple_at(&g, T, "cloister")).unwrap();
    assert_eq!((g.prisoners(0, 2), g.prisoners(2, 0)), (0, 0));
    assert_eq!(supply(&g, 0), s0 + 1, "player 0's monk came home");
    assert_eq!(supply(&g, 2), s2 + 1, "player 2's monk came home");
    assert_eq!(g.stats().exchanges, 1);
    assert_eq!(g.stats().captures, 2);
    assert!(g.events().iter().any(
        |e| matches!(e, Event::Exchange { players } if players.contains(&0) && players.contains(&2))
    ));
}

/// T10: if one holds several of the other's, exactly one of each comes back
/// and the rest stay prisoners.
#[test]
fn t10_one_of_several_prisoners_comes_back() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = range_board(&tiles, &rules);
    add_floor(&mut g, 0, T);
    g.capture(meeple_at(&g, p(0, -2), "cloister")).unwrap();
    g.end_turn();
    add_floor(&mut g, 0, T);
    g.capture(meeple_at(&g, p(0, -4), "cloister")).unwrap();
    g.end_turn();
    assert_eq!(g.prisoners(0, 2), 2);
    let (s0, s2) = (supply(&g, 0), supply(&g, 2));

    add_floor(&mut g, 2, p(1, -3));
    g.capture(meeple_at(&g, T, "cloister")).unwrap();
    assert_eq!(g.prisoners(0, 2), 1, "one of player 2's stays");
    assert_eq!(g.prisoners(2, 0), 0);
    assert_eq!(supply(&g, 0), s0 + 1);
    assert_eq!(supply(&g, 2), s2 + 1);
    assert_eq!(g.stats().exchanges, 1);
    for p in 0..3 {
        let held: u32 = (0..3).map(|c| g.prisoners(c, p)).sum();
        assert_eq!(
            on_board(&g, p) as u32 + supply(&g, p) as u32 + held,
            MEEPLES_PER_PLAYER as u32
        );
    }
}

/// T10: no exchange with a third player: holding player 1's meeple does not
/// release player 0's meeple held by player 2.
#[test]
fn t10_no_exchange_between_different_pairs() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = range_board(&tiles, &rules);
    add_floor(&mut g, 0, T);
    g.end_turn();
    add_floor(&mut g, 0, T); // two floors: A (player 1's) is in range
    g.capture(meeple_at(&g, p(0, -1), "cloister")).unwrap();
    g.end_turn();
    add_floor(&mut g, 2, p(1, -3));
    g.capture(meeple_at(&g, T, "cloister")).unwrap();
    assert_eq!((g.prisoners(0, 1), g.prisoners(2, 0)), (1, 1));
    assert_eq!(g.stats().exchanges, 0);
}

// ---- T9 -----------------------------------------------------------------------

/// Three players. A road tower at (1,0) reaching a road
/// meeple on its own tile (player 1), a city meeple north (player 2), a monk
/// east (player 1), and to the south another tower with a farmer (player 2)
/// and a meeple on top (player 1). Player 0 has just placed a floor on (1,0).
fn every_kind_board<'a>(tiles: &'a TileSet, rules: &'a NativeTower) -> Game<'a> {
    use SegmentKind::*;
    let mut g = game(tiles, rules, 3);
    turn(&mut g, 1, "tower/RCr", 1, 0, 0, Some(Road));
    turn(&mut g, 2, "base/CFc.1", 1, 1, 1, Some(City)); // city N-S
    turn(&mut g, 1, "base/LR", 2, 0, 1, Some(Cloister)); // road W ends here
    turn(&mut g, 2, "tower/F", 1, -1, 0, Some(Field));
    add_floor(&mut g, 1, p(1, -1));
    g.end_turn();
    filler(&mut g, 1);
    g.act(top_of(&g, p(1, -1))).unwrap();
    g.end_turn();
    add_floor(&mut g, 0, p(1, 0));
    g
}

/// T9: road, city, field, cloister and tower-top meeples can all be taken.
#[test]
fn t9_every_kind_of_meeple_can_be_captured() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = every_kind_board(&tiles, &rules);
    assert_eq!(
        capturable(&mut g),
        vec![
            (p(1, -1), "field", 2),
            (p(1, -1), "tower", 1),
            (p(1, 0), "road", 1),
            (p(1, 1), "city", 2),
            (p(2, 0), "cloister", 1),
        ]
    );
    for (pos, on, owner) in capturable(&mut g) {
        let mut g = g.clone();
        let i = meeple_at(&g, pos, on);
        let spot = g.meeples()[i].spot;
        g.capture(i).unwrap();
        assert_eq!(g.prisoners(0, owner), 1, "{on} at {pos}");
        assert_eq!(g.meeples().len(), 4, "{on} at {pos}");
        match spot {
            MeepleSpot::Tower => assert_eq!(g.towers()[tower(&g, pos) as usize].meeple, None),
            MeepleSpot::Segment(s) => {
                let root = g.features().root(g.segment_id(pos, s).unwrap());
                assert_eq!(g.features().meeples(root), 0, "{on} at {pos} is free");
            }
        }
    }
}

/// T9, G3: a road freed by a capture takes a new meeple.
#[test]
fn t9_a_freed_feature_takes_a_new_meeple() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let road = segment(&tiles, "base/RFr", SegmentKind::Road);
    let board = every_kind_board(&tiles, &rules);

    // Uncaptured, the road is taken: extending it west offers no meeple on it.
    let mut g = board.clone();
    g.end_turn();
    place(&mut g, 1, "base/RFr", -1, 0, 0);
    assert!(!actions(&g).contains(&Action::Meeple { segment: road }));
    assert!(g.act(Action::Meeple { segment: road }).is_err());

    let mut g = board;
    g.capture(meeple_at(&g, p(1, 0), "road")).unwrap();
    g.end_turn();
    place(&mut g, 1, "base/RFr", -1, 0, 0);
    assert!(actions(&g).contains(&Action::Meeple { segment: road }));
    g.act(Action::Meeple { segment: road }).unwrap();
}

// ---- T11 ------------------------------------------------------------------------

/// Two players. Player 1 scores a 3-tile road (3 points, with `road`) and a
/// 2-tile city (4 points, with `city`) north of the start tile; then player
/// 0's tower at (0,-2) takes player 1's monks at (0,-1) and (0,-3). It is then
/// player 1's turn, before their tile.
fn ransom_board<'a>(
    tiles: &'a TileSet,
    rules: &'a NativeTower,
    road: bool,
    city: bool,
) -> Game<'a> {
    use SegmentKind::*;
    let mut g = game(tiles, rules, 2);
    if road {
        // Cloister tiles whose roads end at the start tile's road, W and E.
        turn(&mut g, 1, "base/LR", -1, 0, 3, Some(Road));
        turn(&mut g, 1, "base/LR", 1, 0, 1, None);
    }
    if city {
        turn(&mut g, 1, "base/C", 0, 1, 2, Some(City)); // city S closes the start's
    }
    let points = 3 * u32::from(road) + 4 * u32::from(city);
    assert_eq!(g.scores(), vec![0, points], "G4, G5 by hand");
    assert_eq!(
        supply(&g, 1),
        MEEPLES_PER_PLAYER,
        "scored meeples came back"
    );
    turn(&mut g, 1, "base/L", 0, -1, 0, Some(Cloister));
    place(&mut g, 0, "tower/F", 0, -2, 0);
    g.act(floor_on(&g, p(0, -2))).unwrap();
    g.capture(meeple_at(&g, p(0, -1), "cloister")).unwrap();
    g.end_turn();
    turn(&mut g, 1, "base/L", 0, -3, 0, Some(Cloister));
    add_floor(&mut g, 0, p(0, -2));
    g.capture(meeple_at(&g, p(0, -3), "cloister")).unwrap();
    g.end_turn();
    assert_eq!(g.prisoners(0, 1), 2);
    assert_eq!(g.scores(), vec![0, points]);
    assert_eq!(g.current(), 1);
    g
}

/// T11: a ransom costs 3: the payer loses 3, the captor gains 3, and the
/// meeple goes back to the payer's supply.
#[test]
fn t11_a_ransom_costs_three_points() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = ransom_board(&tiles, &rules, true, true);
    filler(&mut g, 1);
    assert_eq!(
        ransoms(&g),
        vec![
            RansomChoice::Decline,
            RansomChoice::Pay { captor: 0, cost: 3 }
        ]
    );
    let before = supply(&g, 1);
    g.pay_ransom(0).unwrap();
    assert_eq!(g.scores(), vec![3, 4]);
    assert_eq!(g.prisoners(0, 1), 1);
    assert_eq!(supply(&g, 1), before + 1);
    assert_eq!((g.stats().ransoms, g.stats().ransom_points), (1, 3));
}

/// T11: exactly 3 points is enough (the score goes to 0, not below).
#[test]
fn t11_a_score_of_three_pays_to_zero() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = ransom_board(&tiles, &rules, true, false);
    filler(&mut g, 1);
    assert_eq!(ransoms(&g).len(), 2);
    g.pay_ransom(0).unwrap();
    assert_eq!(g.scores(), vec![3, 0]);
}

/// T11: below 3 points no ransom is offered, and paying one is refused.
#[test]
fn t11_no_ransom_below_three_points() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = ransom_board(&tiles, &rules, false, false);
    filler(&mut g, 1);
    assert_eq!(ransoms(&g), vec![RansomChoice::Decline]);
    assert!(g.pay_ransom(0).is_err());
    assert_eq!(g.scores(), vec![0, 0]);
    assert_eq!(g.prisoners(0, 1), 2);
    assert_eq!(g.stats().ransoms, 0);
}

/// T11: one ransom per turn, even with points and prisoners to spare; the
/// next turn another may be paid.
#[test]
fn t11_only_one_ransom_per_turn() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = ransom_board(&tiles, &rules, true, true);
    filler(&mut g, 1);
    g.pay_ransom(0).unwrap();
    assert_eq!(g.scores(), vec![3, 4], "4 points and a prisoner left");
    assert_eq!(ransoms(&g), vec![RansomChoice::Decline]);
    assert!(g.pay_ransom(0).is_err());
    assert_eq!(g.scores(), vec![3, 4]);
    assert_eq!(g.prisoners(0, 1), 1);
    g.end_turn();
    g.end_turn();
    filler(&mut g, 1);
    assert_eq!(ransoms(&g).len(), 2, "a new turn");
    g.pay_ransom(0).unwrap();
    assert_eq!(g.scores(), vec![6, 1]);
    assert_eq!(g.prisoners(0, 1), 0);
}

/// T11: no ransom to a player who holds none of one's meeples, nor to oneself.
#[test]
fn t11_no_ransom_without_a_prisoner() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = ransom_board(&tiles, &rules, true, true);
    g.end_turn();
    filler(&mut g, 0);
    assert_eq!(ransoms(&g), vec![RansomChoice::Decline]);
    assert!(g.pay_ransom(1).is_err());
    assert!(g.pay_ransom(0).is_err());
}

/// T11: the freed meeple may be placed in the same turn, here when it is the
/// player's only meeple.
#[test]
fn t11_the_freed_meeple_plays_the_same_turn() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = ransom_board(&tiles, &rules, true, true);
    // Player 1 puts their 5 other meeples on far-away cloisters.
    let cloister = segment(&tiles, "base/L", SegmentKind::Cloister);
    for _ in 0..5 {
        filler(&mut g, 1);
        g.act(Action::Meeple { segment: cloister }).unwrap();
        g.end_turn();
    }
    assert_eq!(supply(&g, 1), 0);
    filler(&mut g, 1);
    let before = actions(&g);
    assert!(
        !before
            .iter()
            .any(|a| matches!(a, Action::Meeple { .. } | Action::TowerMeeple { .. })),
        "no meeple to place: {before:?}"
    );
    g.pay_ransom(0).unwrap();
    assert!(actions(&g).contains(&Action::Meeple { segment: cloister }));
    g.act(Action::Meeple { segment: cloister }).unwrap();
    assert_eq!(supply(&g, 1), 0);
    assert_eq!(on_board(&g, 1), 6);
}

// ---- T12 ------------------------------------------------------------------------

/// T12: a prisoner still held at the end stays out of play: the road it stood
/// on scores nothing for its owner, the captor gains nothing for holding it,
/// and it is not returned.
#[test]
fn t12_prisoners_held_at_the_end_stay_out_of_play() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let board = every_kind_board(&tiles, &rules);

    let mut kept = board.clone();
    kept.end_turn();
    kept.final_scoring().unwrap();

    let mut taken = board;
    taken.capture(meeple_at(&taken, p(1, 0), "road")).unwrap();
    taken.end_turn();
    taken.final_scoring().unwrap();

    // By hand (G4–G8): the road start–(1,0)–(2,0) is open at the start tile's
    // west end: 3 points for player 1. Player 1's monk at (2,0) has 4
    // neighbours ((1,1), (1,0), (1,-1) and the first filler at (3,0)): 5
    // points. Player 2's city (1,0)+(1,1) is open: 2 points; their farmer
    // touches no completed city: 0. Player 1's meeple on the tower scores
    // nothing (T8).
    assert_eq!(kept.scores(), vec![0, 8, 2]);
    assert_eq!(taken.scores(), vec![0, 5, 2], "the road went unscored");
    assert_eq!(taken.prisoners(0, 1), 1);
    assert_eq!(
        supply(&taken, 1),
        MEEPLES_PER_PLAYER - 3,
        "unchanged by the end"
    );
    assert_eq!(on_board(&taken, 1), 2);
}
