//! Features as reads: `game().feature(x, y, segment)` is kept under what
//! it read of the feature, and asked again when that changes; its cells
//! are a whole feature, never kept.

use super::*;
use crate::kernel::Game;

/// A road from (0, 0) south, open at the north: `base/LR` (its road is
/// segment 0) with seat 1's meeple on it, and a one-floor tower at (1, 0).
pub(super) fn road_game<'a>(set: &'a Ruleset, rules: &'a dyn Rules) -> Game<'a> {
    let tiles = set.tiles();
    let lr = tiles.find("base/LR").unwrap() as u16;
    let f = tiles.find("tower/F").unwrap() as u16;
    let mut game = Game::arranged(tiles, rules, 2, 0).unwrap();
    game.set_tile(lr, Pos::ORIGIN, 0).unwrap();
    game.set_tile(f, Pos::new(1, 0), 0).unwrap();
    game.set_floors(Pos::new(1, 0), &[0]).unwrap();
    game.set_meeple(1, Pos::ORIGIN, MeepleSpot::Segment(0))
        .unwrap();
    game
}

/// `may_top` of the one-floor tower, by seat 0: (the answer, pack runs).
fn ask_top(rules: &ScriptRules, game: &Game) -> (bool, u64) {
    let before = rules.hook_runs();
    let yes = game.with_table(|table| {
        let asking = Asking {
            seat: 0,
            owner: None,
            tower: Some(Pos::new(1, 0)),
            table,
        };
        let stack = StackView {
            floors: &[0],
            topped: false,
        };
        rules.may_top(&stack, &asking).unwrap().yes
    });
    (yes, rules.hook_runs() - before)
}

#[test]
fn g4_a_feature_at_a_place_is_kept_by_what_was_read_of_it_and_asked_again_when_it_changes() {
    let (_d, set, rules) = with_pack(
        "fn may_top(tower) {\n\
             let f = game().feature(0, 0, 0);\n\
             f != () && f.kind == \"road\" && f.meeples[1] == 1 && f.open && f.tiles == 1\n\
         }",
    );
    let plain = set.rules();
    let mut game = road_game(&set, plain.as_ref());
    assert_eq!(ask_top(&rules, &game), (true, 1));
    assert_eq!(ask_top(&rules, &game), (true, 0), "the same reads: kept");
    // Another tile on the road: its tiles read 2, so it is asked again.
    let lr = set.tiles().find("base/LR").unwrap() as u16;
    game.set_tile(lr, Pos::new(0, -1), 2).unwrap();
    assert_eq!(ask_top(&rules, &game), (false, 1));
    assert_eq!(ask_top(&rules, &game), (false, 0));
}

#[test]
fn g4_a_feature_s_cells_are_read_whole_and_not_kept() {
    let (_d, set, rules) = with_pack(
        "fn may_top(tower) {\n\
             let f = game().feature(0, 0, 0);\n\
             f.cells == [[0, 0]] && f.segments == [[0, 0, 0]] && game().feature(0, 0, 9) == ()\n\
         }",
    );
    let plain = set.rules();
    let game = road_game(&set, plain.as_ref());
    assert_eq!(ask_top(&rules, &game), (true, 1));
    assert_eq!(
        ask_top(&rules, &game),
        (true, 1),
        "a whole feature: run again"
    );
}

#[test]
fn g3_a_seat_s_meeples_in_supply_are_a_read_kept_until_they_change() {
    let (_d, set, rules) = with_pack("fn may_top(tower) { game().meeples_in_supply(1) == 6 }");
    let plain = set.rules();
    let mut game = road_game(&set, plain.as_ref());
    assert_eq!(ask_top(&rules, &game), (true, 1));
    assert_eq!(ask_top(&rules, &game), (true, 0), "the same supply: kept");
    game.set_meeple(1, Pos::ORIGIN, MeepleSpot::Segment(1))
        .unwrap();
    assert_eq!(ask_top(&rules, &game), (false, 1), "one fewer: asked again");
}

/// A one-floor tower's range (the plain Tower's, T4: its own cell and one
/// step in each straight direction) read by the kernel in one step:
/// `tower.in_range(x, y)` agrees with the variant's `capture_cells`, and
/// `tower.tile_in_range` is kept by whether the turn's tile is in range,
/// not by where it lies.
#[test]
fn t4_a_tower_s_range_holding_a_cell_or_the_turn_s_tile_is_one_read() {
    let (_d, set, rules) = with_pack(
        "fn may_top(tower) {\n\
             let cells = capture_cells(tower);\n\
             for c in [[1, 0], [2, 0], [0, 0], [3, 0], [1, 1], [2, 2]] {\n\
                 if tower.in_range(c[0], c[1]) != cells.contains([c[0] - tower.x, c[1] - tower.y]) {\n\
                     throw `in_range(${c[0]}, ${c[1]}) disagrees`;\n\
                 }\n\
             }\n\
             tower.in_range(0, 0) && !tower.in_range(3, 0)\n\
         }",
    );
    let plain = set.rules();
    let game = road_game(&set, plain.as_ref());
    assert!(ask_top(&rules, &game).0);

    let (_d, set, rules) = with_pack("fn may_top(tower) { tower.tile_in_range }");
    let plain = set.rules();
    let mut game = road_game(&set, plain.as_ref());
    // The first asks the range of the stack too (`reach`, `range`).
    assert!(!ask_top(&rules, &game).0, "no tile this turn");
    game.show_turn_tile(Pos::ORIGIN).unwrap();
    assert_eq!(ask_top(&rules, &game), (true, 1), "the road beside it");
    let lr = set.tiles().find("base/LR").unwrap() as u16;
    game.set_tile(lr, Pos::new(0, -1), 2).unwrap();
    game.show_turn_tile(Pos::new(0, -1)).unwrap();
    assert_eq!(
        ask_top(&rules, &game),
        (false, 1),
        "a diagonal: out of range"
    );
    game.set_tile(lr, Pos::new(1, -1), 0).unwrap();
    game.show_turn_tile(Pos::new(1, -1)).unwrap();
    assert_eq!(
        ask_top(&rules, &game),
        (true, 0),
        "another tile in range: kept, not run"
    );
}
