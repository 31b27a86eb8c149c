//! G1–G3 and G9: tiles that fit and those that do not, one tile and one
//! action a turn, meeples on the tile just placed and on free features only,
//! seven each; the tile set's counts.

use super::*;

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
    g.placements(c, &mut out).unwrap();
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
    g.placements(cccc, &mut out).unwrap();
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(g.draw().unwrap(), Some(rfr));
    assert_eq!(g.stats().discards, 1);
    assert!(g.events().contains(&Event::Discard { kind: cccc }));
    assert_eq!(g.deck_left(), 0);
    assert_eq!(g.draw().unwrap(), None);
}

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
    g.end_turn().unwrap();
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
    g.end_turn().unwrap();
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
