//! The base game on hand-built boards (G1–G9): tiles are placed where the
//! test says, and every score is worked out by hand from docs/rules.md and the
//! tile data (`rules/base/tiles.toml`, `rules/tower/tiles.toml`).
//!
//! Coordinates: x grows east, y north; the start tile `base/RCr` lies at
//! (0, 0) unrotated: city N, road W–E, a field between road and city (it
//! touches the city) and a field south of the road (it touches no city).
//! A rotation is in quarter turns clockwise: N→E→S→W.

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

/// Place tile `name` at (x, y) turned `rot` for the current player; it must fit.
pub(crate) fn put(g: &mut Game, name: &str, x: i32, y: i32, rot: u8) {
    let k = kind(g.tiles(), name);
    g.place_tile(k, at(x, y, rot))
        .unwrap_or_else(|e| panic!("{name} at ({x}, {y}) turned {rot}: {e}"));
}

/// A whole turn: place a tile, take no action, score.
pub(crate) fn turn(g: &mut Game, name: &str, x: i32, y: i32, rot: u8) {
    put(g, name, x, y, rot);
    g.end_turn();
}

/// A whole turn: place a tile, put a meeple on it (`on`, named as seen on
/// the board, i.e. after rotation), score.
pub(crate) fn turn_meeple(g: &mut Game, name: &str, x: i32, y: i32, rot: u8, on: On) {
    put(g, name, x, y, rot);
    let s = segment(g, Pos::new(x, y), on);
    g.act(Action::Meeple { segment: s })
        .unwrap_or_else(|e| panic!("meeple on {on:?} of {name} at ({x}, {y}): {e}"));
    g.end_turn();
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

// ---- G1 tiles --------------------------------------------------------------

#[test]
fn g1_a_tile_that_does_not_match_an_edge_is_refused() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // base/RFr (edges FRFR) at (0, 1): its S edge (F unrotated, R turned 90°)
    // would face the start tile's city (C) either way.
    let rfr = kind(&tiles, "base/RFr");
    for rot in 0..4 {
        assert!(g.place_tile(rfr, at(0, 1, rot)).is_err(), "rot {rot}");
    }
    // East of the start tile the neighbour shows a road: a city edge is refused.
    let c = kind(&tiles, "base/C");
    let err = g.place_tile(c, at(1, 0, 3)).unwrap_err().to_string();
    assert!(err.contains("does not fit"), "{err}");
    // Nothing was placed by the refusals.
    assert_eq!(g.board().tiles().len(), 1);
    // A matching tile is then accepted: RFr unrotated shows a road on W.
    g.place_tile(rfr, at(1, 0, 0)).unwrap();
    assert_eq!(g.board().tiles().len(), 2);
}

#[test]
fn g1_a_tile_touching_no_tile_is_refused() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    let l = kind(&tiles, "base/L");
    // Far away, and diagonal to the start tile (a corner is not an edge).
    for (x, y) in [(5, 5), (1, 1), (-1, -1), (2, 0)] {
        for rot in 0..4 {
            assert!(g.place_tile(l, at(x, y, rot)).is_err(), "({x}, {y})");
        }
    }
    // On top of the start tile.
    assert!(g.place_tile(l, at(0, 0, 0)).is_err());
    // Below the start tile (its S edge is a field) the cloister fits.
    g.place_tile(l, at(0, -1, 0)).unwrap();
}

#[test]
fn g1_rotating_by_90_degrees_changes_what_fits() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // base/Cc.1 (CFFC, city N-W) at (0, 1) must show a city on S.
    // rot 1: N→E, W→N, so the city is N-E and S is a field: refused.
    // rot 2: N→S, W→E: city S-E: fits.
    let cc = kind(&tiles, "base/Cc.1");
    assert!(g.place_tile(cc, at(0, 1, 1)).is_err());
    assert!(g.place_tile(cc, at(0, 1, 0)).is_err());
    g.place_tile(cc, at(0, 1, 2)).unwrap();
}

#[test]
fn g1_placements_are_exactly_the_fitting_spots_and_rotations() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let g = new_game(&tiles, &rules);
    // base/C (CFFF) next to the start tile (C north, R east and west, F south):
    // (0, 1) needs S = C: rot 2 only. (±1, 0) need a road: none.
    // (0, -1) needs N = F: rot 1, 2, 3 (rot 0 puts the city north).
    let c = kind(&tiles, "base/C");
    let mut out = Vec::new();
    g.placements(c, &mut out);
    let mut got: Vec<(i32, i32, u8)> = out.iter().map(|p| (p.pos.x, p.pos.y, p.rot)).collect();
    got.sort();
    assert_eq!(got, vec![(0, -1, 1), (0, -1, 2), (0, -1, 3), (0, 1, 2)]);
}

#[test]
fn g1_a_drawn_tile_that_fits_nowhere_is_discarded() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let cccc = kind(&tiles, "base/Cccc+");
    let rfr = kind(&tiles, "base/RFr");
    let mut g = Game::with_deck(&tiles, &rules, 2, vec![cccc, rfr]).unwrap();
    g.record_events();
    // base/C turned 2 at (0, 1): city S closes the start city; its N, E, W are
    // fields. Then every open spot needs a road or a field on some edge:
    // (0, 2) S=F, (±1, 1) W/E=F, (±1, 0) W/E=R, (0, -1) N=F. Cccc+ (CCCC)
    // fits nowhere.
    turn(&mut g, "base/C", 0, 1, 2);
    let mut out = Vec::new();
    g.placements(cccc, &mut out);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(g.draw(), Some(rfr));
    assert_eq!(g.stats().discards, 1);
    assert!(g.events().contains(&Event::Discard { kind: cccc }));
    assert_eq!(g.deck_left(), 0);
    assert_eq!(g.draw(), None);
}

// ---- G2, G3 turns and meeples -------------------------------------------------

#[test]
fn g2_one_tile_and_one_action_per_turn() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    put(&mut g, "base/RFr", 1, 0, 0);
    // A second tile in the same turn is refused.
    let rfr = kind(&tiles, "base/RFr");
    assert!(g.place_tile(rfr, at(-1, 0, 0)).is_err());
    let road = segment(&g, Pos::new(1, 0), On::Road(Dir::E));
    let field = segment(&g, Pos::new(1, 0), On::Field("NL"));
    g.act(Action::Meeple { segment: road }).unwrap();
    // One action only: the free field is refused, and nothing more is offered.
    let err = g.act(Action::Meeple { segment: field }).unwrap_err();
    assert!(err.to_string().contains("one action per turn"), "{err}");
    assert!(meeple_actions(&g).is_empty());
    assert_eq!(supplies(&g), vec![6, 7]);
    g.end_turn();
    assert_eq!(g.current(), 1);
}

#[test]
fn g3_a_meeple_goes_only_on_the_tile_just_placed() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // Before any tile is placed this turn there is no tile to stand on.
    assert!(meeple_actions(&g).is_empty());
    assert!(g.act(Action::Meeple { segment: 0 }).is_err());
    turn(&mut g, "base/RFr", 1, 0, 0);
    // Player 1's turn, no tile yet: the previous tile is not theirs to use.
    assert!(meeple_actions(&g).is_empty());
    assert!(g.act(Action::Meeple { segment: 0 }).is_err());
    put(&mut g, "base/L", 0, -1, 0);
    // base/L has two segments: its field and its cloister; both are free.
    assert_eq!(meeple_actions(&g), vec![0, 1]);
    // A segment the tile does not have.
    assert!(g.act(Action::Meeple { segment: 2 }).is_err());
    assert_eq!(supplies(&g), vec![7, 7]);
}

#[test]
fn g3_a_meeple_only_on_a_feature_with_no_meeple_across_tiles() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // Player 0: RFr east of the start tile, meeple on the road (which runs
    // on through the start tile).
    turn_meeple(&mut g, "base/RFr", 1, 0, 0, On::Road(Dir::W));
    // Player 1: RFr west of the start tile joins the same road.
    put(&mut g, "base/RFr", -1, 0, 0);
    let road = segment(&g, Pos::new(-1, 0), On::Road(Dir::E));
    let north = segment(&g, Pos::new(-1, 0), On::Field("EL"));
    let south = segment(&g, Pos::new(-1, 0), On::Field("ER"));
    assert_eq!(meeple_actions(&g), vec![north, south]);
    let err = g.act(Action::Meeple { segment: road }).unwrap_err();
    assert!(err.to_string().contains("already holds a meeple"), "{err}");
    // The north field (it joins the start tile's field by the city) is free.
    g.act(Action::Meeple { segment: north }).unwrap();
    g.end_turn();
    assert_eq!(supplies(&g), vec![6, 6]);
    // Player 0: a third RFr, east again; road and north field are both taken
    // (the north field through the start tile), the south field is free.
    put(&mut g, "base/RFr", 2, 0, 0);
    let south2 = segment(&g, Pos::new(2, 0), On::Field("ER"));
    assert_eq!(meeple_actions(&g), vec![south2]);
}

#[test]
fn g3_each_player_has_seven_meeples() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    assert_eq!(MEEPLES_PER_PLAYER, 7);
    assert_eq!(supplies(&g), vec![7, 7]);
    // A row of cloisters under the start tile, x = 0, 1, -1, 2, -2, ...:
    // player 0 puts a meeple on each of theirs, player 1 passes. No cloister
    // can be complete (the row below stays empty).
    let xs = [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7];
    for (i, &x) in xs.iter().enumerate() {
        if i % 2 == 0 {
            turn_meeple(&mut g, "base/L", x, -1, 0, On::Cloister);
        } else {
            turn(&mut g, "base/L", x, -1, 0);
        }
    }
    assert_eq!(supplies(&g), vec![0, 7]);
    assert_eq!(g.meeples().len(), 7);
    // Player 0's eighth cloister: no meeple left to put on it.
    put(&mut g, "base/L", -7, -1, 0);
    assert!(meeple_actions(&g).is_empty());
    let cloister = segment(&g, Pos::new(-7, -1), On::Cloister);
    let err = g.act(Action::Meeple { segment: cloister }).unwrap_err();
    assert!(err.to_string().contains("no meeple"), "{err}");
}

// ---- G5 cities -----------------------------------------------------------------

#[test]
fn g5_two_tile_city_scores_4() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // base/C turned 2 at (0, 1) shows its city on S, closing the start tile's
    // city N: 2 tiles, no pennant: 2 × 2 = 4.
    turn_meeple(&mut g, "base/C", 0, 1, 2, On::City(Dir::S));
    assert_eq!(g.scores(), vec![4, 0]);
    assert_eq!(supplies(&g), vec![7, 7]);
    assert!(g.meeples().is_empty());
    // Scored once: final scoring adds nothing for it.
    g.final_scoring().unwrap();
    assert_eq!(g.scores(), vec![4, 0]);
}

#[test]
fn g5_completed_city_with_a_pennant() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // base/Cc+ (CFFC, city N-W + pennant) turned 2 at (0, 1): city S-E.
    turn_meeple(&mut g, "base/Cc+", 0, 1, 2, On::City(Dir::S));
    assert_eq!(g.scores(), vec![0, 0]);
    assert_eq!(supplies(&g), vec![6, 7]);
    // Player 1: base/C turned 3 (city W) at (1, 1) closes the city's E end.
    // 3 tiles and 1 pennant: 2 × 3 + 2 × 1 = 8, for player 0, on player 1's turn.
    turn(&mut g, "base/C", 1, 1, 3);
    assert_eq!(g.scores(), vec![8, 0]);
    assert_eq!(supplies(&g), vec![7, 7]);
    g.final_scoring().unwrap();
    assert_eq!(g.scores(), vec![8, 0]);
}

#[test]
fn g5_incomplete_city_at_game_end_scores_1_per_tile_and_pennant() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // As above but never closed: start tile + Cc+, one pennant: 2 + 1 = 3.
    turn_meeple(&mut g, "base/Cc+", 0, 1, 2, On::City(Dir::S));
    // Player 1 places a road tile that leaves the city alone.
    turn(&mut g, "base/RFr", 1, 0, 0);
    assert_eq!(g.scores(), vec![0, 0]);
    g.final_scoring().unwrap();
    assert_eq!(g.scores(), vec![3, 0]);
}

// ---- G4 roads ------------------------------------------------------------------

#[test]
fn g4_completed_road_scores_1_per_tile() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // Player 0: RFr east of the start, meeple on the road.
    turn_meeple(&mut g, "base/RFr", 1, 0, 0, On::Road(Dir::W));
    // Player 1: base/LR (road S to a cloister) turned 1 shows its road on W,
    // ending the road at (2, 0).
    turn(&mut g, "base/LR", 2, 0, 1);
    assert_eq!(g.scores(), vec![0, 0]);
    // Player 0: LR turned 3 (road E) ends it at (-1, 0): tiles x = -1..=2, 4 points.
    turn(&mut g, "base/LR", -1, 0, 3);
    assert_eq!(g.scores(), vec![4, 0]);
    assert_eq!(supplies(&g), vec![7, 7]);
}

#[test]
fn g4_incomplete_road_at_game_end_scores_1_per_tile() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    turn_meeple(&mut g, "base/RFr", 1, 0, 0, On::Road(Dir::W));
    // base/Rr (FFRR, road W-S) unrotated at (2, 0): the road bends south, open
    // there and at the start tile's W end. Tiles (0,0), (1,0), (2,0): 3 points.
    turn(&mut g, "base/Rr", 2, 0, 0);
    g.final_scoring().unwrap();
    assert_eq!(g.scores(), vec![3, 0]);
}

#[test]
fn g4_a_road_loop_through_one_tile_twice_counts_the_tile_once() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // A figure of eight through tower/RrRr.2 (RRRR, roads N-W and S-E) at
    // (0, -2), made of base/Rr curves (W-S unrotated; turned 1: N-W,
    // 2: E-N, 3: S-E):
    //
    //   y=-1   A(0,-1) S-E   B(1,-1) W-S
    //   y=-2   F(-1,-2) S-E  T(0,-2)       C(1,-2) N-W
    //   y=-3   E(-1,-3) E-N  D(0,-3) N-W
    //
    // A–T.N (seg N-W), A–B, B–C, C–T.E (seg S-E), T.S–D, D–E, E–F, F–T.W:
    // one closed road of 8 segments on 7 tiles: 7 points, not 8.
    turn_meeple(&mut g, "base/Rr", 0, -1, 3, On::Road(Dir::S)); // A, player 0
    turn(&mut g, "base/Rr", 1, -1, 0); // B
    turn(&mut g, "base/Rr", 1, -2, 1); // C
    turn(&mut g, "tower/RrRr.2", 0, -2, 0); // T
    turn(&mut g, "base/Rr", 0, -3, 1); // D
    turn(&mut g, "base/Rr", -1, -3, 2); // E
    assert_eq!(g.scores(), vec![0, 0]);
    // Both road segments of T are in the one road already.
    let nw = g.segment_id(Pos::new(0, -2), 0).unwrap();
    let se = g.segment_id(Pos::new(0, -2), 1).unwrap();
    assert_eq!(g.features().root(nw), g.features().root(se));
    turn(&mut g, "base/Rr", -1, -2, 3); // F closes the loop
    assert_eq!(g.scores(), vec![7, 0]);
    assert_eq!(supplies(&g), vec![7, 7]);
}

// ---- G6 cloisters --------------------------------------------------------------

#[test]
fn g6_completed_cloister_scores_9() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // A cloister at (0, -1), then its 8 neighbours; the start tile is one.
    // Top row: RFr east and west of the start (roads meet). Other cells:
    // base/C with its city turned outwards, so every inner edge is a field.
    turn_meeple(&mut g, "base/L", 0, -1, 0, On::Cloister);
    turn(&mut g, "base/RFr", 1, 0, 0);
    turn(&mut g, "base/RFr", -1, 0, 0);
    turn(&mut g, "base/C", 1, -1, 1); // city E
    turn(&mut g, "base/C", -1, -1, 3); // city W
    turn(&mut g, "base/C", 0, -2, 2); // city S
    turn(&mut g, "base/C", 1, -2, 2);
    // 7 of 8 neighbours: not yet complete.
    assert_eq!(g.scores(), vec![0, 0]);
    assert_eq!(supplies(&g), vec![6, 7]);
    turn(&mut g, "base/C", -1, -2, 2);
    assert_eq!(g.scores(), vec![9, 0]);
    assert_eq!(supplies(&g), vec![7, 7]);
    g.final_scoring().unwrap();
    assert_eq!(g.scores(), vec![9, 0]);
}

#[test]
fn g6_incomplete_cloister_at_game_end_scores_1_plus_neighbours() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // Cloister at (0, -1); neighbours placed: start (0, 0), (1, 0), (1, -1).
    // 1 + 3 = 4.
    turn_meeple(&mut g, "base/L", 0, -1, 0, On::Cloister);
    turn(&mut g, "base/RFr", 1, 0, 0);
    turn(&mut g, "base/C", 1, -1, 1);
    // Not a neighbour: two cells east of the cloister.
    turn(&mut g, "base/RFr", 2, 0, 0);
    g.final_scoring().unwrap();
    assert_eq!(g.scores(), vec![4, 0]);
}

// ---- G7 majority ---------------------------------------------------------------

/// A road of 8 tiles along y = 0, x = -1..=6, built from three pieces that
/// join late: X (start + RFr at (1, 0), player 0's meeple), Y (RFr at (3, 0),
/// player 1's meeple) and Z (RFr at (5, 0), player 0's meeple when
/// `z_meeple`). RFr at (2, 0) joins X and Y, at (4, 0) joins Z; LR at (-1, 0)
/// and (6, 0) end the road. A row of base/C (city S) at y = -1 carries Y and
/// Z before they join. Plays steps `from..to` (1-based, `1..13` for all).
fn road_of_eight(g: &mut Game, z_meeple: bool, steps: std::ops::Range<usize>) {
    let plan: [(&str, i32, i32, u8); 12] = [
        ("base/RFr", 1, 0, 0), // 1, player 0: X
        ("base/C", 1, -1, 2),
        ("base/C", 2, -1, 2),
        ("base/C", 3, -1, 2),
        ("base/C", 4, -1, 2),
        ("base/C", 5, -1, 2),
        ("base/RFr", 5, 0, 0), // 7, player 0: Z
        ("base/RFr", 3, 0, 0), // 8, player 1: Y
        ("base/RFr", 2, 0, 0), // 9, joins X and Y
        ("base/RFr", 4, 0, 0), // 10, joins Z
        ("base/LR", -1, 0, 3), // 11, road end (E)
        ("base/LR", 6, 0, 1),  // 12, road end (W): complete
    ];
    for step in steps {
        let (name, x, y, rot) = plan[step - 1];
        let meeple = matches!(step, 1 | 8) || (step == 7 && z_meeple);
        if meeple {
            turn_meeple(g, name, x, y, rot, On::Road(Dir::W));
        } else {
            put(g, name, x, y, rot);
            if (9..=10).contains(&step) {
                // The joined road holds meeples: not offered again (G3).
                let road = segment(g, Pos::new(x, y), On::Road(Dir::W));
                assert!(!meeple_actions(g).contains(&road), "step {step}");
            }
            g.end_turn();
        }
    }
}

#[test]
fn g7_tied_majority_both_players_score_in_full() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    g.record_events();
    road_of_eight(&mut g, false, 1..12);
    assert_eq!(g.scores(), vec![0, 0]);
    assert_eq!(supplies(&g), vec![6, 6]);
    road_of_eight(&mut g, false, 12..13);
    // One meeple each: both have the most, both score all 8 tiles.
    assert_eq!(g.scores(), vec![8, 8]);
    for p in 0..2 {
        assert!(g.events().contains(&Event::Score {
            player: p,
            points: 8,
            feature: towerlab::kernel::tiles::SegmentKind::Road
        }));
    }
    // G7: meeples on a completed road go home.
    assert_eq!(supplies(&g), vec![7, 7]);
    assert!(g.meeples().is_empty());
}

#[test]
fn g7_larger_majority_wins_alone() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    road_of_eight(&mut g, true, 1..13);
    // Player 0 has 2 meeples on the road, player 1 has 1: 8 points to player 0 only.
    assert_eq!(g.scores(), vec![8, 0]);
    // All three meeples go back, the loser's included.
    assert_eq!(supplies(&g), vec![7, 7]);
    assert!(g.meeples().is_empty());
}

#[test]
fn g7_tied_majority_at_game_end_scores_both() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // After 10 steps the road runs x = 0..=5, open at both ends: 6 tiles,
    // one meeple each.
    road_of_eight(&mut g, false, 1..11);
    g.final_scoring().unwrap();
    assert_eq!(g.scores(), vec![6, 6]);
}

#[test]
fn g7_a_meeple_on_the_completing_tile_scores_and_returns_the_same_turn() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // Player 0: LR turned 1 (road W) at (1, 0) ends the start road east.
    turn(&mut g, "base/LR", 1, 0, 1);
    // Player 1: LR turned 3 (road E) at (-1, 0) ends it west, and puts a
    // meeple on that very road: 3 tiles, 3 points, meeple back at once.
    put(&mut g, "base/LR", -1, 0, 3);
    let road = segment(&g, Pos::new(-1, 0), On::Road(Dir::E));
    g.act(Action::Meeple { segment: road }).unwrap();
    assert_eq!(supplies(&g), vec![7, 6]);
    g.end_turn();
    assert_eq!(g.scores(), vec![0, 3]);
    assert_eq!(supplies(&g), vec![7, 7]);
    assert!(g.meeples().is_empty());
}

// ---- G8 farms ------------------------------------------------------------------

#[test]
fn g8_farm_touching_two_completed_cities_and_one_incomplete_scores_6() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // Player 0: base/RrC (CFRR, city N, road S-W) at (1, 0). Its field
    // WR/EL/ER/SL touches its city; WR meets the start tile's field EL/WR,
    // which touches the start's city. Farmer on it.
    turn_meeple(&mut g, "base/RrC", 1, 0, 0, On::Field("WR"));
    // Player 1: base/CRr (CRRF, city N, road E-S) at (-1, 0). Its field
    // EL/WL/WR/SR touches its city and joins the same farm through EL; its
    // field ER/SL joins the start's field south of the road, which touches
    // no city. Farmer on that one.
    turn_meeple(&mut g, "base/CRr", -1, 0, 0, On::Field("ER"));
    // base/C turned 2 (city S) closes the start's city, then the city of (1, 0).
    turn(&mut g, "base/C", 0, 1, 2);
    turn(&mut g, "base/C", 1, 1, 2);
    // Farmers are not scored or returned when cities complete.
    assert_eq!(g.scores(), vec![0, 0]);
    assert_eq!(supplies(&g), vec![6, 6]);
    let farm = g.segment_id(Pos::new(1, 0), segment(&g, Pos::new(1, 0), On::Field("WR")));
    let south = g.segment_id(
        Pos::new(-1, 0),
        segment(&g, Pos::new(-1, 0), On::Field("ER")),
    );
    let (farm, south) = (
        g.features().root(farm.unwrap()),
        g.features().root(south.unwrap()),
    );
    assert_eq!(g.completed_cities_touching(farm), 2);
    assert_eq!(g.completed_cities_touching(south), 0);
    g.final_scoring().unwrap();
    // Player 0: 2 completed cities × 3 = 6; the city of (-1, 0) is open and
    // counts nothing. Player 1: the field beyond the road touches no city: 0.
    assert_eq!(g.scores(), vec![6, 0]);
    // Farmers stay on the board.
    assert_eq!(g.meeples().len(), 2);
    assert_eq!(supplies(&g), vec![6, 6]);
}

#[test]
fn g8_a_completed_city_touched_from_two_tiles_counts_once() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // Player 0: base/RCr at (1, 0); its field EL/WR (touching its city N)
    // joins the start tile's field by the city. Farmer on it.
    turn_meeple(&mut g, "base/RCr", 1, 0, 0, On::Field("WR"));
    // base/Cc.1 (CFFC, city N-W) turned 2 (city S-E) at (0, 1), then turned 3
    // (city W-S) at (1, 1): one city over (0,0), (0,1), (1,1), (1,0), complete.
    turn(&mut g, "base/Cc.1", 0, 1, 2);
    turn(&mut g, "base/Cc.1", 1, 1, 3);
    g.final_scoring().unwrap();
    // The farm touches that one city on two tiles: 3 points, not 6.
    assert_eq!(g.scores(), vec![3, 0]);
}

// ---- G9 tile set ---------------------------------------------------------------

#[test]
fn g9_72_base_tiles_18_tower_tiles_and_a_deck_of_89() {
    let tiles = tiles();
    let count = |set: &str| -> u32 {
        tiles
            .kinds
            .iter()
            .filter(|k| k.name.starts_with(&format!("{set}/")))
            .map(|k| k.count)
            .sum()
    };
    assert_eq!(count("base"), 72);
    assert_eq!(count("tower"), 18);
    assert_eq!(tiles.total_tiles(), 90);
    for k in &tiles.kinds {
        let tower = k.name.starts_with("tower/");
        assert_eq!(k.foundation.is_some(), tower, "{}", k.name);
    }
    assert_eq!(tiles.foundation_tiles(), 18);
    assert_eq!(tiles.kinds[tiles.start].name, "base/RCr");
    // The start tile is on the board, not in the deck: 90 - 1.
    let deck = tiles.deck();
    assert_eq!(deck.len(), 89);
    let rcr = kind(&tiles, "base/RCr");
    assert_eq!(deck.iter().filter(|&&k| k == rcr).count(), 3);
    let rules = NativeTower::default();
    let g = Game::new(&tiles, &rules, 2, 7).unwrap();
    assert_eq!(g.deck_left(), 89);
    assert_eq!(g.board().tiles().len(), 1);
}
