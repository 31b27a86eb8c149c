//! G7 and G8: who scores a shared feature (ties score in full), meeples
//! returned the turn they score; farms scored by the completed cities they
//! touch.

use super::*;

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
            g.end_turn().unwrap();
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
            feature: towerlab::kernel::Scored::Feature(towerlab::kernel::tiles::SegmentKind::Road),
            rule: None,
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
    g.end_turn().unwrap();
    assert_eq!(g.scores(), vec![0, 3]);
    assert_eq!(supplies(&g), vec![7, 7]);
    assert!(g.meeples().is_empty());
}

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
    // The farm borders three open cities: the start's, (1, 0)'s and
    // (-1, 0)'s, each listed once.
    let farm_at = |g: &Game| {
        let id = g.segment_id(Pos::new(1, 0), segment(g, Pos::new(1, 0), On::Field("WR")));
        g.features().root(id.unwrap())
    };
    let mut open = Vec::new();
    g.open_cities_touching(farm_at(&g), &mut open);
    assert_eq!(open.len(), 3, "{open:?}");
    // base/C turned 2 (city S) closes the start's city, then the city of (1, 0).
    turn(&mut g, "base/C", 0, 1, 2);
    turn(&mut g, "base/C", 1, 1, 2);
    g.open_cities_touching(farm_at(&g), &mut open);
    assert_eq!(open.len(), 1, "only (-1, 0)'s city is still open");
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
