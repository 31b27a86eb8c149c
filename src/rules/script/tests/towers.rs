//! `game().towers` as one read: an event hook that loops over every tower
//! is kept under the towers' content, found again wherever the towers are
//! the same (another tile's draw, another turn), and run again when one
//! tower changes.

use super::features::road_game;
use super::*;
use crate::kernel::Game;
use crate::kernel::rules::asks;

/// Each guard is paid its tower's height when a tile is drawn; `extra`
/// is added to the hook's body.
fn guard_pay(extra: &str) -> String {
    format!(
        "fn on_tile_drawn(event) {{\n\
             {extra}\n\
             let effects = [];\n\
             for t in game().towers {{\n\
                 if t.has_meeple {{ effects.push(points(t.meeple_owner, t.height, \"guard\")); }}\n\
             }}\n\
             effects\n\
         }}"
    )
}

/// [`road_game`]'s tower at (1, 0) two floors high and topped by seat 1.
fn guarded<'a>(set: &'a Ruleset, rules: &'a dyn Rules) -> Game<'a> {
    let mut game = road_game(set, rules);
    game.set_floors(Pos::new(1, 0), &[0, 0]).unwrap();
    game.set_meeple(1, Pos::new(1, 0), MeepleSpot::Tower)
        .unwrap();
    game
}

/// What a draw of `name` would pay each of two seats, and the pack runs.
fn draw(rules: &ScriptRules, game: &Game, name: &str) -> ([f32; 2], u64) {
    let kind = game.tiles().find(name).unwrap() as u16;
    let before = rules.hook_runs();
    let mut paid = [0f32; 2];
    game.draw_points(kind, &mut paid).unwrap();
    (paid, rules.hook_runs() - before)
}

#[test]
fn t8_a_hook_looping_over_every_tower_is_kept_by_the_towers_and_run_again_when_one_changes() {
    let (_d, set, rules) = with_pack(&guard_pay(""));
    let mut game = guarded(&set, &rules);
    assert_eq!(draw(&rules, &game, "base/LR"), ([0.0, 2.0], 1));
    assert_eq!(
        draw(&rules, &game, "base/C"),
        ([0.0, 2.0], 0),
        "another tile, the same towers: kept"
    );
    let f = set.tiles().find("tower/F").unwrap() as u16;
    game.set_tile(f, Pos::new(-1, 0), 0).unwrap();
    game.set_floors(Pos::new(-1, 0), &[0]).unwrap();
    game.set_meeple(0, Pos::new(-1, 0), MeepleSpot::Tower)
        .unwrap();
    assert_eq!(
        draw(&rules, &game, "base/LR"),
        ([1.0, 2.0], 1),
        "a tower more"
    );
    assert_eq!(draw(&rules, &game, "base/C"), ([1.0, 2.0], 0));
}

#[test]
fn a_hook_reading_the_drawn_tile_is_asked_for_each_and_says_so_to_the_bots() {
    let (_d, set, rules) = with_pack(&guard_pay("if event.tile == \"base/C\" { return (); }"));
    assert_ne!(rules.listens() & asks::DRAWN_TILE, 0);
    let game = guarded(&set, &rules);
    assert_eq!(draw(&rules, &game, "base/LR"), ([0.0, 2.0], 1));
    assert_eq!(draw(&rules, &game, "base/C"), ([0.0, 0.0], 1));
    let (_d, _set, blind) = with_pack(&guard_pay("if !event.foundation { return (); }"));
    assert_eq!(
        blind.listens() & asks::DRAWN_TILE,
        0,
        "a hook that reads only the foundation tells kinds apart by it alone"
    );
}

/// What `end` would give each of two seats as the game stands, and the
/// pack runs.
fn end_now(rules: &ScriptRules, game: &Game) -> ([f32; 2], u64) {
    let before = rules.hook_runs();
    let mut paid = [0f32; 2];
    game.end_rule_points(&mut paid).unwrap();
    (paid, rules.hook_runs() - before)
}

/// [`guarded`] with one more tower, of one floor, topped by seat 0.
fn add_tower(set: &Ruleset, game: &mut Game) {
    let f = set.tiles().find("tower/F").unwrap() as u16;
    game.set_tile(f, Pos::new(-1, 0), 0).unwrap();
    game.set_floors(Pos::new(-1, 0), &[0]).unwrap();
    game.set_meeple(0, Pos::new(-1, 0), MeepleSpot::Tower)
        .unwrap();
}

#[test]
fn an_end_that_names_its_towers_is_kept_by_them_and_run_again_when_one_changes() {
    // The count reaches the towers through a function of the pack's own.
    let (_d, set, rules) = with_pack(
        "fn count(list) { list.len() }\n\
         fn end(towers) { [#{ player: 0, points: count(towers), feature: \"towers\" }] }",
    );
    let mut game = guarded(&set, &rules);
    assert_eq!(end_now(&rules, &game), ([1.0, 0.0], 1));
    assert_eq!(
        end_now(&rules, &game),
        ([1.0, 0.0], 0),
        "the same towers: kept"
    );
    add_tower(&set, &mut game);
    assert_eq!(end_now(&rules, &game), ([2.0, 0.0], 1), "a tower more");
}

#[test]
fn an_end_that_never_names_its_towers_is_kept_whatever_they_are() {
    let (_d, set, rules) = with_pack(
        "fn end(stacks) { [#{ player: 1, points: game().players * 2, feature: \"flat\" }] }",
    );
    let mut game = guarded(&set, &rules);
    assert_eq!(end_now(&rules, &game), ([0.0, 4.0], 1));
    add_tower(&set, &mut game);
    assert_eq!(
        end_now(&rules, &game),
        ([0.0, 4.0], 0),
        "kept: it read no tower"
    );
    let (_d, set, rules) = with_pack(
        "fn end(towers) { let n = 0; for t in game().towers { n += t.height; } \
         [#{ player: 0, points: n, feature: \"floors\" }] }",
    );
    let mut game = guarded(&set, &rules);
    assert_eq!(
        end_now(&rules, &game),
        ([2.0, 0.0], 1),
        "`game().towers` in `end`"
    );
    add_tower(&set, &mut game);
    assert_eq!(end_now(&rules, &game), ([3.0, 0.0], 1));
}
