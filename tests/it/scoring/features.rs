//! G4–G6: roads, cities and cloisters scored when completed and at the end of
//! the game.

use super::*;

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
