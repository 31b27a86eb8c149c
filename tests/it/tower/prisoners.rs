//! T9, T11, T12: exchange, ransom and the end of the game.

use super::*;

// ---- T9 -----------------------------------------------------------------------

/// Three players. A road tower at (1,0) reaching a road
/// meeple on its own tile (player 1), a city meeple north (player 2), a monk
/// east (player 1), and to the south another tower with a farmer (player 2)
/// and a meeple on top (player 1). Player 0 has just placed a floor on (1,0).
pub(super) fn every_kind_board<'a>(tiles: &'a TileSet, rules: &'a NativeTower) -> Game<'a> {
    use SegmentKind::*;
    let mut g = game(tiles, rules, 3);
    turn(&mut g, 1, "tower/RCr", 1, 0, 0, Some(Road));
    turn(&mut g, 2, "base/CFc.1", 1, 1, 1, Some(City)); // city N-S
    turn(&mut g, 1, "base/LR", 2, 0, 1, Some(Cloister)); // road W ends here
    turn(&mut g, 2, "tower/F", 1, -1, 0, Some(Field));
    add_floor(&mut g, 1, p(1, -1));
    g.end_turn().unwrap();
    filler(&mut g, 1);
    g.act(top_of(&g, p(1, -1))).unwrap();
    g.end_turn().unwrap();
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
    g.end_turn().unwrap();
    place(&mut g, 1, "base/RFr", -1, 0, 0);
    assert!(!actions(&g).contains(&Action::Meeple { segment: road }));
    assert!(g.act(Action::Meeple { segment: road }).is_err());

    let mut g = board;
    g.capture(meeple_at(&g, p(1, 0), "road")).unwrap();
    g.end_turn().unwrap();
    place(&mut g, 1, "base/RFr", -1, 0, 0);
    assert!(actions(&g).contains(&Action::Meeple { segment: road }));
    g.act(Action::Meeple { segment: road }).unwrap();
}

// ---- T11 ------------------------------------------------------------------------

/// Two players. Player 1 scores a 3-tile road (3 points, with `road`) and a
/// 2-tile city (4 points, with `city`) north of the start tile; then player
/// 0's tower at (0,-2) takes player 1's monks at (0,-1) and (0,-3). It is then
/// player 1's turn, before their tile.
pub(super) fn ransom_board<'a>(
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
    g.end_turn().unwrap();
    turn(&mut g, 1, "base/L", 0, -3, 0, Some(Cloister));
    add_floor(&mut g, 0, p(0, -2));
    g.capture(meeple_at(&g, p(0, -3), "cloister")).unwrap();
    g.end_turn().unwrap();
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
    g.end_turn().unwrap();
    g.end_turn().unwrap();
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
    g.end_turn().unwrap();
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
        g.end_turn().unwrap();
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
    kept.end_turn().unwrap();
    kept.final_scoring().unwrap();

    let mut taken = board;
    taken.capture(meeple_at(&taken, p(1, 0), "road")).unwrap();
    taken.end_turn().unwrap();
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
