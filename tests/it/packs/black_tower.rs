//! B, Black Tower: pieces, setup, floors, range, the white cap, meeples on top, scoring.

use super::*;

/// B2 (and T1 for the regular floors it replaces): floors per player.
#[test]
fn b2_floor_supply_per_player_count() {
    let set = Take::Variant("black-tower").load();
    let rules = set.rules();
    // (players, black, white, regular), from B2's table, and its ruling
    // for 7 and 8 players.
    let table = [
        (2, 4, 2, 8),
        (3, 3, 2, 7),
        (4, 3, 1, 6),
        (5, 2, 1, 5),
        (6, 2, 1, 4),
        (7, 1, 0, 3),
        (8, 1, 0, 3),
    ];
    for (players, black, white, regular) in table {
        let got = supply(&set, rules.as_ref(), players, 18);
        assert_eq!(got, (regular, black, white), "{players} players");
    }
    assert_eq!(set.tiles().foundation_tiles(), 18, "G9: 18 Tower tiles");
    // A game starts with exactly that supply for every player.
    for (players, black, white, regular) in table {
        let game = Game::new(set.tiles(), rules.as_ref(), players, 7).expect("a game starts");
        for p in game.players() {
            let per_kind = |name: &str| p.floors[set.floor_kind(name).unwrap() as usize];
            assert_eq!(
                (per_kind("regular"), per_kind("black"), per_kind("white")),
                (regular, black, white),
                "{players} players in a game"
            );
        }
    }
}

/// B1: 12 black and 6 white floors join The Tower's: the variant's floor
/// kinds are The Tower's `regular`, then `black` and `white`, and no setup
/// hands out more black or white floors than the box holds, six players
/// taking them all.
#[test]
fn b1_twelve_black_and_six_white_floors_join_the_towers() {
    let set = Take::Variant("black-tower").load();
    let names: Vec<&str> = set.floors().iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["regular", "black", "white"]);
    let rules = set.rules();
    for players in 2..=8u32 {
        let (_, black, white) = supply(&set, rules.as_ref(), players as usize, 18);
        assert!(
            black * players <= 12,
            "{players} players: {black} black each"
        );
        assert!(
            white * players <= 6,
            "{players} players: {white} white each"
        );
        if players == 6 {
            assert_eq!((black * players, white * players), (12, 6));
        }
    }
}

/// (regular, black, white) floors per player.
pub(super) fn supply(
    set: &Ruleset,
    rules: &dyn Rules,
    players: usize,
    foundations: usize,
) -> (u32, u32, u32) {
    let s = rules
        .seat_supply(players, foundations, 0)
        .unwrap_or_else(|e| panic!("{e:#}"));
    let of = |name: &str| s[set.floor_kind(name).unwrap() as usize];
    (of("regular"), of("black"), of("white"))
}

/// B3: per 4 extra foundation tiles +1 black and +2 regular; with 8 or more
/// extra, +1 white in a 4–6 player game; never more than 2 white — in the
/// pack and in the native reference alike.
#[test]
fn b3_extra_foundation_tiles_add_floors() {
    for take in [
        Take::Variant("black-tower"),
        Take::Packs(&["native:black-tower"]),
    ] {
        b3_supply_of(&take.load());
    }
}

fn b3_supply_of(set: &Ruleset) {
    let rules = set.rules();
    // (extra, players, regular, black, white)
    let table = [
        (4, 2, 10, 5, 2),
        (4, 3, 9, 4, 2),
        (4, 4, 8, 4, 1),
        (4, 5, 7, 3, 1),
        (4, 6, 6, 3, 1),
        (8, 2, 12, 6, 2),
        (8, 3, 11, 5, 2),
        (8, 4, 10, 5, 2),
        (8, 5, 9, 4, 2),
        (8, 6, 8, 4, 2),
        (12, 2, 14, 7, 2),
        (12, 3, 13, 6, 2),
        (12, 4, 12, 6, 2),
        (12, 5, 11, 5, 2),
        (12, 6, 10, 5, 2),
        // Fewer than 4 extra: B2's table unchanged.
        (3, 2, 8, 4, 2),
        (3, 6, 4, 2, 1),
        (7, 4, 8, 4, 1),
    ];
    for (extra, players, regular, black, white) in table {
        assert_eq!(
            supply(set, rules.as_ref(), players, 18 + extra),
            (regular, black, white),
            "{players} players, {extra} extra foundation tiles"
        );
    }
    for players in 2..=8 {
        for extra in 0..=60 {
            let (_, _, white) = supply(set, rules.as_ref(), players, 18 + extra);
            assert!(
                white <= 2,
                "{players} players, {extra} extra: {white} white"
            );
        }
    }
}

/// B4: a black floor goes on a foundation, on a regular or black top, never
/// on a white tower nor on a closed one.
#[test]
fn b4_black_floor_on_foundation_regular_black_not_white() {
    let set = Take::Variant("black-tower").load();
    let rules = set.rules();
    let black = set.floor_kind("black").unwrap();
    for (below, allowed) in [
        (&[][..], true),
        (&["regular"][..], true),
        (&["black"][..], true),
        (&["regular", "black", "regular"][..], true),
        (&["regular", "white"][..], false),
        (&["black", "white"][..], false),
    ] {
        let floors = stack(&set, below);
        assert_eq!(
            may_place(rules.as_ref(), &view(&floors), black),
            allowed,
            "black on {below:?}"
        );
        let mut with_black = below.to_vec();
        with_black.push("black");
        assert_eq!(
            query::check_stack(rules.as_ref(), &stack(&set, &with_black)).is_ok(),
            allowed,
            "check_stack {with_black:?}"
        );
    }
}

/// B8: a meeple may go on a black tower, and closes it as on a regular one
/// (T8): no floor of any kind goes on it after.
#[test]
fn b8_meeple_on_a_black_tower_is_allowed_and_closes_it() {
    let set = Take::Variant("black-tower").load();
    let rules = set.rules();
    for below in [&["black"][..], &["regular", "black"], &["black", "black"]] {
        let floors = stack(&set, below);
        assert!(
            may_top(rules.as_ref(), &view(&floors)),
            "a meeple on {below:?}"
        );
        let closed = StackView {
            floors: &floors,
            topped: true,
        };
        for kind in ["regular", "black", "white"] {
            let k = set.floor_kind(kind).unwrap();
            assert!(
                !may_place(rules.as_ref(), &closed, k),
                "{kind} on {below:?} closed by a meeple"
            );
        }
    }
}

#[test]
fn b5_regular_floor_on_black_tower_restores_orthogonal_capture() {
    check_library(B5_CASES);
}

#[test]
fn b6_two_floor_black_top_reaches_own_tile_and_eight_diagonals() {
    check_library(&B6_CASES[..2]);
}

#[test]
fn b6_regular_floor_under_black_top_still_counts() {
    check_library(&B6_CASES[2..]);
}

/// B7: a white cap takes no floor and no meeple, captures nothing, and never
/// goes on a bare foundation.
#[test]
fn b7_white_cap_closes_the_tower_for_good() {
    check_library(B7_CASES);
    for take in [
        Take::Variant("black-tower"),
        Take::Variant("black-tower-no-gaps"),
    ] {
        let set = take.load();
        let rules = set.rules();
        let white = set.floor_kind("white").unwrap();
        for below in [&["regular"][..], &["black"], &["black", "regular"]] {
            let floors = stack(&set, below);
            assert!(
                may_place(rules.as_ref(), &view(&floors), white),
                "{take:?}: white on {below:?} (a tower under construction)"
            );
            let mut capped = below.to_vec();
            capped.push("white");
            let capped = stack(&set, &capped);
            query::check_stack(rules.as_ref(), &capped).expect("a capped stack builds");
            for kind in ["regular", "black", "white"] {
                let k = set.floor_kind(kind).unwrap();
                assert!(
                    !may_place(rules.as_ref(), &view(&capped), k),
                    "{take:?}: {kind} on {below:?} + white"
                );
            }
            assert!(
                !may_top(rules.as_ref(), &view(&capped)),
                "{take:?}: a meeple on {below:?} + white"
            );
            let mut range = Vec::new();
            rules.capture_range(&view(&capped), &mut range).unwrap();
            assert!(range.is_empty(), "{take:?}: range of {below:?} + white");
        }
        // Never on a bare foundation.
        assert!(!may_place(rules.as_ref(), &view(&[]), white));
        let err = query::check_stack(rules.as_ref(), &[white]).unwrap_err();
        assert!(
            format!("{err:#}").contains("`white` floor on a bare foundation"),
            "{err:#}"
        );
        // Nor is a bare foundation's meeple allowed (T4, unchanged).
        assert!(!may_top(rules.as_ref(), &view(&[])), "T4");
    }
}

/// B9: Black Tower changes no scoring: its games score features as the
/// base game does and give no end-of-game points of their own, and a
/// ransom costs what it costs under The Tower.
#[test]
fn b9_black_tower_changes_no_scoring() {
    let set = Take::Variant("black-tower").load();
    let tower = Take::Variant("tower").load();
    let (rules, tower_rules) = (set.rules(), tower.rules());
    for score in [0, 2, 3, 4, 10, 250] {
        for paid in [0, 1, 2] {
            assert_eq!(
                crate::common::ransom_of(&*rules, score, paid).unwrap(),
                crate::common::ransom_of(&*tower_rules, score, paid).unwrap(),
                "ransom at {score} points, {paid} paid"
            );
        }
    }
    let mut scored = 0;
    for i in 0..12 {
        let seed = game_seed(0xB9, i);
        let game = play_recorded(&set, rules.as_ref(), 2 + (i as usize % 5), seed);
        for e in game.events() {
            match e {
                Event::Score {
                    feature: towerlab::kernel::Scored::Rule(_),
                    ..
                } => panic!("seed {seed}: the rules scored: {e:?}"),
                Event::Score { .. } => scored += 1,
                _ => {}
            }
        }
    }
    assert!(
        scored > 100,
        "too few features scored ({scored}) to mean anything"
    );
}
