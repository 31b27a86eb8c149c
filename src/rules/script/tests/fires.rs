//! Did a rule fire? Each pack's answers that changed what the packs
//! before it would answer, counted by hand.

use super::*;

/// `may_place_floor` of kind 0 by seat 0 about bare stacks of these
/// heights, in order: the answers, and what the game's hooks spent.
fn floors_for_heights(rules: &ScriptRules, heights: &[usize]) -> (Vec<bool>, u64) {
    let board = Board::new();
    let table = Table::bare(&board, 2);
    let asking = Asking {
        seat: 0,
        owner: None,
        tower: None,
        table: &table,
    };
    let answers = heights
        .iter()
        .map(|&h| {
            let floors = vec![0; h];
            let stack = StackView {
                floors: &floors,
                topped: false,
            };
            rules.may_place_floor(&stack, 0, &asking).unwrap().yes
        })
        .collect();
    (answers, rules.spent())
}

#[test]
fn fires_count_for_each_pack_the_answers_it_changed_by_hand() {
    let script = "fn may_place_floor(tower, kind) { tower.height != 1 && previous(tower, kind) }";
    let heights = [0, 1, 2, 1, 3];
    let (_d, _, plain) = with_pack(script);
    plain.begin_game(Some(1));
    let (_d2, _, counted) = with_pack(script);
    counted.count_fires();
    counted.begin_game(Some(1));
    let (answers, spent) = floors_for_heights(&counted, &heights);
    assert_eq!(
        (answers.clone(), spent),
        floors_for_heights(&plain, &heights),
        "counting changes no answer and no budget"
    );
    assert_eq!(answers, [true, false, true, false, true]);
    let crate::rules::script::Fires {
        games,
        hooks: fires,
    } = counted.fires();
    assert_eq!(games, 1);
    // The probe pack is named by its folder's path.
    let floor = |tower: bool| {
        fires
            .iter()
            .find(|f| {
                (f.pack == "tower") == tower && f.hook == crate::rules::script::Hook::MayPlaceFloor
            })
            .map(|f| (f.asked, f.changed, f.games_changed, f.unknown))
            .unwrap()
    };
    // The Tower allows every open stack where the default allows none;
    // the pack takes back heights of 1 (twice, the second from the memo).
    assert_eq!(floor(true), (5, 5, 1, 0));
    assert_eq!(floor(false), (5, 2, 1, 0));
    assert!(
        plain.fires().hooks.iter().all(|f| f.asked == 0),
        "off by default"
    );
}

#[test]
fn fires_of_a_pack_that_never_applies_and_one_that_always_does() {
    let (_d, _, rules) = with_pack(
        "fn may_place_floor(tower, kind) { if tower.height > 50 { false } else { previous(tower, kind) } }\n\
         fn may_top(tower) { !previous(tower) }",
    );
    rules.count_fires();
    for game in 0..2 {
        rules.begin_game(Some(game));
        floors_for_heights(&rules, &[0, 1, 2, 3]);
        let stack = StackView {
            floors: &[0, 0],
            topped: false,
        };
        Asking::outside_game(2, |a| rules.may_top(&stack, a).unwrap());
    }
    let crate::rules::script::Fires {
        games,
        hooks: fires,
    } = rules.fires();
    let probe = |hook| {
        fires
            .iter()
            .find(|f| f.pack != "tower" && f.hook == hook)
            .map(|f| (f.asked, f.changed, f.games_changed))
            .unwrap()
    };
    assert_eq!(games, 2);
    assert_eq!(
        probe(crate::rules::script::Hook::MayPlaceFloor),
        (8, 0, 0),
        "never"
    );
    assert_eq!(
        probe(crate::rules::script::Hook::MayTop),
        (2, 2, 2),
        "always"
    );
}
