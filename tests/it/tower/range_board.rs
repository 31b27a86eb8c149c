//! T5, T6, T10 on the range board.

use super::*;

/// The tower under test.
pub(super) const T: Pos = Pos::new(0, -3);

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
pub(super) fn range_board<'a>(tiles: &'a TileSet, rules: &'a NativeTower) -> Game<'a> {
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
    g.end_turn().unwrap();
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
    g.end_turn().unwrap();
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
        g.end_turn().unwrap();
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
    g.end_turn().unwrap();
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
    g.end_turn().unwrap();
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
    g.end_turn().unwrap();
    add_floor(&mut g, 0, T);
    g.capture(meeple_at(&g, p(0, -4), "cloister")).unwrap();
    g.end_turn().unwrap();
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
    g.end_turn().unwrap();
    add_floor(&mut g, 0, T); // two floors: A (player 1's) is in range
    g.capture(meeple_at(&g, p(0, -1), "cloister")).unwrap();
    g.end_turn().unwrap();
    add_floor(&mut g, 2, p(1, -3));
    g.capture(meeple_at(&g, T, "cloister")).unwrap();
    assert_eq!((g.prisoners(0, 1), g.prisoners(2, 0)), (1, 1));
    assert_eq!(g.stats().exchanges, 0);
}
