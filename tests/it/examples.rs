//! The example house rules of docs/examples: each shown on hand-built
//! situations through the library and the binary, and kept over hundreds of
//! simulated games, alone and with black-tower and house/no-gaps.

use std::path::{Path, PathBuf};

use towerlab::kernel::board::Board;
use towerlab::kernel::geometry::Pos;
use towerlab::kernel::tiles::SegmentKind;
use towerlab::kernel::{
    CaptureOutcome, EndScore, Event, Game, MeepleOn, MeepleSpot, MeepleView, RansomView, Scored,
    Table,
};
use towerlab::play::bots::BotKind;
use towerlab::play::sim::{self, Batch};
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common::{home, stdout, succeeds};

pub(crate) fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/examples")
        .join(name)
}

/// The ruleset of `base` packs followed by the example `name`.
pub(crate) fn ruleset(base: &[&str], name: &str) -> Ruleset {
    let mut packs: Vec<String> = base.iter().map(|s| s.to_string()).collect();
    packs.push(example(name).display().to_string());
    Ruleset::from_packs(&home(), &LoadOptions::default(), &packs)
        .unwrap_or_else(|e| panic!("{name}: {e:#}"))
}

/// A table of two or three players with these scores and prisoners.
fn table<'a>(board: &'a Board, scores: &'a [u32], prisoners: &'a [u8]) -> Table<'a> {
    Table {
        scores,
        prisoners,
        ..Table::bare(board, scores.len())
    }
}

fn ransom(payer: usize, captor: usize, score: u32) -> RansomView {
    RansomView {
        payer,
        captor,
        score,
        paid_this_turn: 0,
    }
}

fn meeple(owner: usize, on: MeepleOn) -> MeepleView {
    MeepleView {
        owner,
        pos: Pos::new(0, 1),
        spot: MeepleSpot::Segment(0),
        on,
    }
}

const COMPOSED: [&str; 3] = ["tower", "black-tower", "house/no-gaps"];

/// Play `games` random games of two players recording events, and hand each
/// to `check`.
pub(crate) fn games(set: &Ruleset, games: u64, mut check: impl FnMut(&Game)) {
    let rules = set.rules();
    for seed in 0..games {
        let bots = [BotKind::RANDOM, BotKind::RANDOM];
        let game = sim::play(set, rules.as_ref(), &bots, seed, true)
            .unwrap_or_else(|e| panic!("seed {seed}: {e:#}"));
        check(&game);
    }
}

// ---- leader-ransom --------------------------------------------------------

#[test]
fn leader_ransom_is_paid_only_to_a_captor_who_leads_and_costs_5() {
    let set = ruleset(&["tower"], "leader-ransom");
    let rules = set.rules();
    let board = Board::new();
    let none = [0u8; 4];
    // Player 1 pays player 0, who leads 9 to 6.
    let t = table(&board, &[9, 6], &none);
    assert_eq!(rules.ransom(&ransom(1, 0, 6), &t).unwrap(), Some(5));
    // Player 0 does not lead: refused.
    let t = table(&board, &[4, 6], &none);
    assert_eq!(rules.ransom(&ransom(1, 0, 6), &t).unwrap(), None);
    // A tie is no lead.
    let t = table(&board, &[6, 6], &none);
    assert_eq!(rules.ransom(&ransom(1, 0, 6), &t).unwrap(), None);
    // The same scores and ransoms paid, another leader: not a cached answer.
    let t = table(&board, &[9, 6], &none);
    assert_eq!(rules.ransom(&ransom(1, 0, 6), &t).unwrap(), Some(5));
    // T11 below: still once a turn.
    let mut second = ransom(1, 0, 6);
    second.paid_this_turn = 1;
    assert_eq!(rules.ransom(&second, &t).unwrap(), None);
}

#[test]
fn leader_ransom_is_never_broken_in_200_games() {
    for base in [&["tower"][..], &COMPOSED[..]] {
        let set = ruleset(base, "leader-ransom");
        let mut paid = 0;
        games(&set, if base.len() == 1 { 200 } else { 40 }, |g| {
            for e in g.events() {
                if let Event::Ransom {
                    player,
                    to,
                    cost,
                    scores,
                } = e
                {
                    paid += 1;
                    assert_eq!(*cost, 5);
                    let mut before = scores.clone();
                    before[*player] += cost;
                    before[*to] -= cost;
                    let lead = (0..before.len()).all(|p| p == *to || before[*to] > before[p]);
                    assert!(lead, "ransom to a captor who did not lead: {before:?}");
                }
            }
        });
        assert!(
            paid > 0,
            "{base:?}: some ransom was paid, so the rule was tried"
        );
    }
}

// ---- knights-only ---------------------------------------------------------

#[test]
fn knights_only_towers_take_only_meeples_in_cities() {
    let set = ruleset(&["tower"], "knights-only");
    let rules = set.rules();
    let board = Board::new();
    let t = Table::bare(&board, 2);
    let tower = towerlab::kernel::TowerView {
        pos: Pos::ORIGIN,
        floors: &[0],
        meeple: None,
    };
    let city = meeple(1, MeepleOn::Feature(SegmentKind::City));
    let road = meeple(1, MeepleOn::Feature(SegmentKind::Road));
    assert!(rules.may_capture(&tower, &city, &t).unwrap());
    assert!(!rules.may_capture(&tower, &road, &t).unwrap());
    assert!(
        !rules
            .may_capture(&tower, &meeple(1, MeepleOn::Tower), &t)
            .unwrap()
    );
}

#[test]
fn knights_only_range_through_the_binary_takes_no_thief() {
    // `range` stands a thief (a meeple on a road) on every cell it asks about.
    let plain = stdout(&succeeds(&[
        "range", "--packs", "tower", "--floors", "regular",
    ]));
    assert!(plain.contains(": 5 cells"), "{plain}");
    let packs = format!("tower,{}", example("knights-only").display());
    let knights = stdout(&succeeds(&[
        "range", "--packs", &packs, "--floors", "regular",
    ]));
    assert!(knights.contains(": 0 cells"), "{knights}");
}

#[test]
fn knights_only_is_never_broken_in_200_games() {
    for base in [&["tower"][..], &COMPOSED[..]] {
        let set = ruleset(base, "knights-only");
        let mut captures = 0;
        games(&set, if base.len() == 1 { 200 } else { 40 }, |g| {
            for e in g.events() {
                if let Event::Capture { on, .. } = e {
                    captures += 1;
                    assert_eq!(*on, MeepleOn::Feature(SegmentKind::City));
                }
            }
        });
        assert!(captures > 0, "{base:?}: knights were captured");
    }
}

// ---- prisoners-pay --------------------------------------------------------

#[test]
fn prisoners_pay_2_each_to_their_captor_at_the_end() {
    let set = ruleset(&["tower"], "prisoners-pay");
    let rules = set.rules();
    let board = Board::new();
    // Player 0 holds 2 of player 1's, player 1 holds 1 of player 0's.
    let t = table(&board, &[10, 10], &[0, 2, 1, 0]);
    let mut out = Vec::new();
    rules.end_scores(&[], &t, &mut out).unwrap();
    let score = |player, points| EndScore {
        player,
        points,
        feature: "prisoners".to_string(),
    };
    assert_eq!(out, vec![score(0, 4), score(1, 2)]);
}

#[test]
fn prisoners_pay_is_never_broken_in_200_games() {
    for base in [&["tower"][..], &COMPOSED[..]] {
        let set = ruleset(base, "prisoners-pay");
        let mut paid = 0;
        games(&set, if base.len() == 1 { 200 } else { 40 }, |g| {
            let n = g.players().len();
            let mut running = vec![0i64; n];
            for e in g.events() {
                match e {
                    Event::Score {
                        player,
                        points,
                        feature: Scored::Feature(_),
                        ..
                    } => running[*player] += *points,
                    Event::Ransom { scores, .. } => {
                        running = scores.iter().map(|&s| s as i64).collect();
                    }
                    Event::Score {
                        player,
                        points,
                        feature: Scored::Rule(feature),
                        ..
                    } => {
                        assert_eq!(feature, "prisoners");
                        let held: u32 = (0..n).map(|o| g.prisoners(*player, o)).sum();
                        assert_eq!(*points, 2 * held as i64);
                        running[*player] += points;
                        paid += 1;
                    }
                    Event::End { scores } => {
                        let end: Vec<i64> = scores.iter().map(|&s| s as i64).collect();
                        assert_eq!(end, running);
                    }
                    _ => {}
                }
            }
        });
        assert!(paid > 0, "{base:?}: some prisoners were still held");
    }
}

// ---- home-not-prison ------------------------------------------------------

#[test]
fn home_not_prison_sends_a_captured_meeple_home() {
    let set = ruleset(&["tower"], "home-not-prison");
    let rules = set.rules();
    let board = Board::new();
    let t = Table::bare(&board, 2);
    let city = meeple(1, MeepleOn::Feature(SegmentKind::City));
    assert_eq!(
        rules.capture_outcome(&city, &t).unwrap(),
        CaptureOutcome::Home
    );
}

#[test]
fn home_not_prison_is_never_broken_in_200_games() {
    for base in [&["tower"][..], &COMPOSED[..]] {
        let set = ruleset(base, "home-not-prison");
        let mut captures = 0;
        games(&set, if base.len() == 1 { 200 } else { 40 }, |g| {
            let n = g.players().len();
            for e in g.events() {
                match e {
                    Event::Capture {
                        player,
                        owner,
                        outcome,
                        ..
                    } => {
                        captures += 1;
                        // An own meeple goes home whatever the rules say.
                        let changed = (owner != player).then_some(CaptureOutcome::Home);
                        assert_eq!(*outcome, changed);
                    }
                    Event::Ransom { .. } | Event::Exchange { .. } => {
                        panic!("no prisoners, so no {e:?}")
                    }
                    _ => {}
                }
            }
            for c in 0..n {
                for o in 0..n {
                    assert_eq!(g.prisoners(c, o), 0);
                }
            }
            // Every meeple is on the board or in its owner's supply.
            for p in 0..n {
                let on_board = g.meeples().iter().filter(|m| m.owner as usize == p).count();
                assert_eq!(on_board + g.players()[p].meeples as usize, 7);
            }
        });
        assert!(captures > 0, "{base:?}: meeples were captured");
    }
}

// ---- underdog-floors ------------------------------------------------------

#[test]
fn underdog_floors_give_the_last_seat_one_more_regular_floor() {
    let set = ruleset(&["tower"], "underdog-floors");
    let rules = set.rules();
    assert_eq!(rules.seat_supply(2, 18, 0).unwrap(), vec![10]);
    assert_eq!(rules.seat_supply(2, 18, 1).unwrap(), vec![11]);
    assert_eq!(rules.seat_supply(3, 18, 1).unwrap(), vec![9]);
    assert_eq!(rules.seat_supply(3, 18, 2).unwrap(), vec![10]);
    let game = Game::new(set.tiles(), rules.as_ref(), 2, 1).unwrap();
    assert_eq!(game.players()[1].floors, vec![11]);
}

#[test]
fn underdog_floors_hold_in_200_games() {
    for base in [&["tower"][..], &COMPOSED[..]] {
        let set = ruleset(base, "underdog-floors");
        let regular = set.floor_kind("regular").unwrap();
        let rules = set.rules();
        let start = Game::new(set.tiles(), rules.as_ref(), 2, 0).unwrap();
        let supply = |seat: usize| start.players()[seat].floors[regular as usize];
        assert_eq!(supply(1), supply(0) + 1);
        games(&set, if base.len() == 1 { 200 } else { 40 }, |g| {
            for seat in 0..2 {
                let placed = g
                    .events()
                    .iter()
                    .filter(|e| matches!(e, Event::Floor { player, kind, .. } if *player == seat && *kind == regular))
                    .count() as u32;
                let left = g.players()[seat].floors[regular as usize];
                assert_eq!(placed + left, supply(seat), "seat {seat}");
            }
        });
    }
}

// ---- the same metrics on 1 and 2 threads ----------------------------------

#[test]
fn examples_give_the_same_results_on_1_and_2_threads() {
    for name in ["leader-ransom", "prisoners-pay", "home-not-prison"] {
        let set = ruleset(&COMPOSED, name);
        let run = |threads| {
            let batch = Batch {
                set: &set,
                bots: &[BotKind::RANDOM, BotKind::RANDOM],
                games: 40,
                master_seed: 3,
                threads,
                log: false,
            };
            sim::simulate(&batch, &|_| {}, |_| Ok(())).unwrap()
        };
        assert_eq!(run(1), run(2), "{name}");
    }
}

// ---- through the binary ---------------------------------------------------

#[test]
fn examples_run_as_packs_and_as_variants_through_the_binary() {
    for name in [
        "leader-ransom",
        "knights-only",
        "prisoners-pay",
        "home-not-prison",
        "underdog-floors",
    ] {
        let packs = format!("tower,{}", example(name).display());
        let out = succeeds(&["simulate", "--packs", &packs, "--games", "5"]);
        assert!(stdout(&out).contains("balance"), "{name}");
        let variant = example(name).join("variant.toml");
        succeeds(&["check", variant.to_str().unwrap(), "--games", "3"]);
    }
}

#[test]
fn a_log_of_an_example_variant_replays_from_another_folder() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("games.jsonl");
    let variant = example("home-not-prison").join("variant.toml");
    succeeds(&[
        "simulate",
        "--variant",
        variant.to_str().unwrap(),
        "--games",
        "4",
        "--log",
        log.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("\"outcome\":\"home\""), "a capture sent home");
    let out = crate::common::towerlab()
        .current_dir(dir.path())
        .args(["replay", log.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "replay from another folder: {}",
        crate::common::stderr(&out)
    );
    assert!(stdout(&out).contains("the rules allow every event"));
}
