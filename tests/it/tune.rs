//! `towerlab tune`: values learned from self-play are the same for a seed,
//! stored under the ruleset's fingerprint, found again by every run of the
//! variant (never by other rules), shown by `info`, and used by the bots: a
//! tuned value changes a decision.

use std::sync::Arc;

use towerlab::play::bots::BotKind;
use towerlab::play::sim;
use towerlab::play::tune::{TunePlan, tune};
use towerlab::rules::worths::store;
use towerlab::rules::{Home, Ruleset, Worths};

use crate::common::{home, run, stdout, succeeds, temp_dir};

const PLAN: TunePlan = TunePlan {
    games: 3,
    seed: 5,
    players: 2,
};

#[test]
fn tuning_is_the_same_for_a_seed_and_another_seed_learns_otherwise() {
    let set = Ruleset::from_variant(&home(), "black-tower").unwrap();
    let a = tune(&set, &PLAN).unwrap();
    let b = tune(&set, &PLAN).unwrap();
    assert_eq!(a, b);
    let c = tune(&set, &TunePlan { seed: 6, ..PLAN }).unwrap();
    assert_ne!(a.worths, c.worths);
    assert_eq!(
        a.worths.floor.len(),
        set.floors.len(),
        "a value per floor kind"
    );
    assert_eq!(a.fingerprint, set.fingerprint);
}

/// The scores of a greedy game of `set` with its values.
fn greedy_game(set: &Ruleset, seed: u64) -> (Vec<u32>, u32) {
    let rules = set.rules();
    let game = sim::play(set, rules.as_ref(), &[BotKind::Greedy; 2], seed, false).unwrap();
    (game.scores(), game.stats().floors_placed)
}

#[test]
fn stored_values_are_found_by_the_variant_and_change_the_bots_decisions() {
    let dir = temp_dir("tuned");
    let at = Home::at(dir.path());
    let plain = Ruleset::from_variant(&at, "tower").unwrap();
    assert!(plain.tuned.is_none());
    assert_eq!(*plain.worths, Worths::default());
    // Floors so dear that greedy keeps them: a tuned value decides.
    let mut tuned = tune(&plain, &TunePlan { games: 1, ..PLAN }).unwrap();
    tuned.worths.floor = vec![500.0; plain.floors.len()];
    store(dir.path(), &tuned).unwrap();
    let set = Ruleset::from_variant(&at, "tower").unwrap();
    assert_eq!(set.tuned.as_ref(), Some(&tuned));
    assert_eq!(set.worths, Arc::new(tuned.worths.clone()));
    let (_, floors_default) = greedy_game(&plain, 9);
    let (_, floors_tuned) = greedy_game(&set, 9);
    assert!(
        floors_tuned < floors_default,
        "floors placed: {floors_tuned} tuned, {floors_default} by default"
    );
    // Other rules (another variant) do not find them.
    let other = Ruleset::from_variant(&at, "black-tower").unwrap();
    assert!(other.tuned.is_none());
}

#[test]
fn the_tune_command_stores_values_that_info_shows() {
    let dir = temp_dir("tune-cli");
    let home = dir.path().to_str().unwrap();
    let out = succeeds(&["tune", "tower", "--games", "2", "--home", home]);
    let text = stdout(&out);
    assert!(
        text.contains("values learned from 2 self-play games"),
        "{text}"
    );
    assert!(text.contains("floor "), "{text}");
    let files: Vec<_> = std::fs::read_dir(dir.path().join("tuned"))
        .unwrap()
        .collect();
    assert_eq!(files.len(), 1);
    let info = stdout(&succeeds(&["info", "tower", "--home", home]));
    assert!(
        info.contains("bot values: tuned from 2 self-play games (seed 1, 2 players"),
        "{info}"
    );
    let plain = stdout(&run(&["info", "tower"]));
    assert!(plain.contains("bot values: the defaults"), "{plain}");
}
