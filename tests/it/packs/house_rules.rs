//! H, the house rules: no gaps, eye for an eye, no surprises, diagonal steps.

use super::*;

#[test]
fn h1_no_gaps_cuts_each_line_at_its_first_gap() {
    check_library(&H1_CASES[..4]);
}

#[test]
fn h1_no_gaps_cuts_black_diagonals_at_their_first_gap() {
    check_library(&H1_CASES[4..]);
}

/// H2: no ransom is ever offered; The Tower's own is 3 points once a turn.
#[test]
fn h2_eye_for_an_eye_offers_no_ransom() {
    let eye = Take::Variant("tower-eye-for-an-eye").load();
    let tower = Take::Variant("tower").load();
    let (eye, tower) = (eye.rules(), tower.rules());
    for score in [0, 2, 3, 4, 10, 250] {
        for paid in [0, 1, 2] {
            assert_eq!(
                crate::common::ransom_of(&*eye, score, paid).unwrap(),
                None,
                "{score}, {paid}"
            );
        }
        // T11 for contrast: 3 points, once per turn.
        assert_eq!(
            crate::common::ransom_of(&*tower, score, 0).unwrap(),
            Some(3)
        );
        assert_eq!(crate::common::ransom_of(&*tower, score, 1).unwrap(), None);
    }
}

/// H2 in play: prisoners are taken, yet no ransom is ever paid.
#[test]
fn h2_eye_for_an_eye_games_pay_no_ransom() {
    let set = Take::Variant("tower-eye-for-an-eye").load();
    let rules = set.rules();
    let mut captures = 0;
    for i in 0..40 {
        let seed = game_seed(0x00E7_E4E7, i);
        let game = play_recorded(&set, rules.as_ref(), 2 + (i as usize % 3), seed);
        captures += game.stats().captures;
        assert_eq!(game.stats().ransoms, 0, "seed {seed}");
        assert!(
            !game
                .events()
                .iter()
                .any(|e| matches!(e, Event::Ransom { .. })),
            "seed {seed}"
        );
    }
    assert!(
        captures > 20,
        "too few prisoners taken ({captures}) to mean anything"
    );
}

#[test]
fn h3_one_floor_captures_on_own_tile_only() {
    check_library(&H3_CASES[..1]);
}

#[test]
fn h3_each_further_floor_adds_one_tile_each_way() {
    check_library(&H3_CASES[1..]);
}

#[test]
fn h4_two_floors_reach_thirteen_tiles() {
    check_library(&H4_CASES[1..2]);
    check_library(&H4_CASES[2..]);
}

/// H4: a diagonal neighbour is 2 steps away: in range at 2 floors, not at 1.
#[test]
fn h4_diagonal_neighbour_needs_two_floors() {
    check_library(&H4_CASES[..1]);
    let set = Take::Variant("tower-diagonal-steps").load();
    assert!(!library_cells(&set, &["regular"], None).contains(&(1, 1)));
    assert!(library_cells(&set, &["regular", "regular"], None).contains(&(1, 1)));
}

/// H1 + H3 on a black tower: diagonals of floors - 1, cut at gaps, in
/// either order of the house rules.
#[test]
fn h1_h3_black_tower_no_gaps_no_surprises() {
    check_library(&COMBO_CASES[..5]);
}

/// H1 + H4 (H1's Ruling): a tile is in range only through a path of
/// orthogonal steps over tiles no longer than the range; a longer detour
/// leaves it out.
#[test]
fn h1_h4_detour_longer_than_the_reach_is_out() {
    check_library(&COMBO_CASES[5..]);
}
