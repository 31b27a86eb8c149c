//! T3, T4, T7, T8 on one small board.

use super::*;

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
    g.end_turn().unwrap();

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
    g.end_turn().unwrap();

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
    g.end_turn().unwrap();
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
pub(super) fn closed_tower_board<'a>(tiles: &'a TileSet, rules: &'a NativeTower) -> Game<'a> {
    let mut g = game(tiles, rules, 2);
    turn(&mut g, 0, "tower/F", 0, -1, 0, None);
    add_floor(&mut g, 1, p(0, -1));
    g.end_turn().unwrap();
    add_floor(&mut g, 0, p(0, -1));
    g.end_turn().unwrap();
    filler(&mut g, 0);
    let top = top_of(&g, p(0, -1));
    g.act(top).unwrap();
    g.end_turn().unwrap();
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
    g.end_turn().unwrap();

    // Player 0 may build on it or close it again.
    filler(&mut g, 0);
    let offered = actions(&g);
    assert!(offered.contains(&Action::Floor { tower: 0, kind: 0 }));
    assert!(offered.contains(&Action::TowerMeeple { tower: 0 }));
    g.act(Action::Floor { tower: 0, kind: 0 }).unwrap();
    assert_eq!(g.towers()[0].floors.len(), 3);
}
