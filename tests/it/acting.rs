//! Who is acting, and who tops the tower, in `may_place_floor` and
//! `may_top`: a pack that lets only seat 0 build, one that keeps the leader
//! off tower tops, one that keeps seats holding prisoners from building
//! (answers kept until the standings change), through the library and the
//! binary; and the kernel
//! asking once for every seat when an answer did not read the seat, and
//! never asking a seat about floors it does not hold; rules that act say
//! whether they pay points, and the kernel holds them to it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;
use towerlab::kernel::board::Board;
use towerlab::kernel::rules::asks;
use towerlab::kernel::{
    Answer, Asking, Event, Game, Holds, MeepleSpot, Question, Reply, Rules, StackView, Table,
};
use towerlab::play::bots::BotKind;
use towerlab::play::sim;
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common::{TowerPack, home, listening, stdout, succeeds};

const SEAT_0_BUILDS: &str =
    "fn may_place_floor(tower, kind) { game().actor == 0 && previous(tower, kind) }\n";

const NO_LEADER_ON_TOP: &str =
    "fn may_top(tower) { game().leader != game().actor && previous(tower) }\n";

/// Play `games` games of `bots` recording events, and hand each to `check`.
fn games(set: &Ruleset, bots: &[BotKind], games: u64, mut check: impl FnMut(&Game)) {
    let rules = set.rules();
    for seed in 0..games {
        let game = sim::play(set, rules.as_ref(), bots, seed, true)
            .unwrap_or_else(|e| panic!("seed {seed}: {e:#}"));
        check(&game);
    }
}

/// The floors each seat placed.
fn floors_by_seat(game: &Game, out: &mut [u32]) {
    for e in game.events() {
        if let Event::Floor { player, .. } = e {
            out[*player] += 1;
        }
    }
}

#[test]
fn only_seat_0_places_floors_when_may_place_floor_allows_only_actor_0() {
    let dir = TowerPack::new("who", SEAT_0_BUILDS);
    let set = dir.ruleset();
    let random = [BotKind::RANDOM; 3];
    let greedy = [BotKind::GREEDY; 3];
    for (bots, n) in [(&random[..], 100), (&greedy[..], 10)] {
        let mut placed = [0u32; 3];
        games(&set, bots, n, |g| floors_by_seat(g, &mut placed));
        assert!(placed[0] > 0, "{bots:?}: seat 0 builds: {placed:?}");
        assert_eq!(placed[1..], [0, 0], "{bots:?}: only seat 0 builds");
    }
    // Without the pack, every seat builds: the test could fail.
    let set =
        Ruleset::from_packs(&home(), &LoadOptions::default(), &["tower".to_string()]).unwrap();
    let mut placed = [0u32; 3];
    games(&set, &random, 20, |g| floors_by_seat(g, &mut placed));
    assert!(placed.iter().all(|&n| n > 0), "{placed:?}");
}

#[test]
fn only_seat_0_places_floors_through_the_binary_on_1_and_2_threads() {
    let dir = TowerPack::new("who", SEAT_0_BUILDS);
    let packs = dir.packs();
    let run = |threads: &str| {
        let log = dir.dir.path().join(format!("games-{threads}.jsonl"));
        let args = [
            "simulate",
            "--packs",
            &packs,
            "--games",
            "60",
            "--players",
            "3",
            "--threads",
            threads,
            "--format",
            "json",
            "--log",
        ];
        let mut args = args.to_vec();
        let path = log.display().to_string();
        args.push(&path);
        let out: Value = serde_json::from_str(&stdout(&succeeds(&args))).unwrap();
        (out, std::fs::read_to_string(&log).unwrap())
    };
    let (one, log) = run("1");
    let (two, log2) = run("2");
    assert_eq!(one["metrics"], two["metrics"]);
    assert_eq!(one["mean_scores"], two["mean_scores"]);
    assert_eq!(log, log2, "the same games on 1 and 2 threads");
    let floors: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["event"] == "floor")
        .collect();
    assert!(!floors.is_empty());
    assert!(
        floors.iter().all(|r| r["player"] == 0),
        "a floor by seat 1 or 2"
    );
}

/// A table of players with these scores, before any tile.
fn table<'a>(board: &'a Board, scores: &'a [u32]) -> Table<'a> {
    Table {
        scores,
        ..Table::bare(board, scores.len())
    }
}

#[test]
fn may_top_refuses_the_seat_that_leads_and_holds_until_the_standings_change() {
    let dir = TowerPack::new("who", NO_LEADER_ON_TOP);
    let set = dir.ruleset();
    let rules = set.rules();
    let board = Board::new();
    let floors = [set.floor_kind("regular").unwrap()];
    let stack = StackView {
        floors: &floors,
        topped: false,
    };
    let top = |scores: &[u32], seat| {
        let t = table(&board, scores);
        let asking = Asking {
            seat,
            owner: None,
            tower: None,
            table: &t,
        };
        rules.may_top(&stack, &asking).unwrap()
    };
    let standing = |yes| Answer {
        yes,
        holds: Holds::Standings,
    };
    assert_eq!(top(&[9, 3, 4], 0), standing(false), "seat 0 leads");
    assert_eq!(top(&[9, 3, 4], 1), standing(true));
    assert_eq!(top(&[9, 3, 4], 2), standing(true));
    assert_eq!(top(&[3, 9, 4], 0), standing(true), "the lead changed");
    assert_eq!(top(&[3, 9, 4], 1), standing(false));
    assert_eq!(top(&[5, 5, 4], 0), standing(true), "a tie is no lead");
    // T4 still holds through `previous`: no meeple on a bare foundation.
    let bare = StackView {
        floors: &[],
        topped: false,
    };
    let t = table(&board, &[0, 9, 0]);
    let asking = Asking {
        seat: 0,
        owner: None,
        tower: None,
        table: &t,
    };
    assert!(!rules.may_top(&bare, &asking).unwrap().yes);
}

/// The scores after each event, as the events tell them.
fn follow_scores(scores: &mut [u32], e: &Event) {
    match e {
        Event::Score { player, points, .. } => {
            scores[*player] = (scores[*player] as i64 + points) as u32
        }
        Event::Ransom { scores: after, .. } => scores.copy_from_slice(after),
        _ => {}
    }
}

/// Is `seat` alone at the top of `scores`?
fn leads(scores: &[u32], seat: usize) -> bool {
    (0..scores.len()).all(|p| p == seat || scores[seat] > scores[p])
}

#[test]
fn no_leader_ever_tops_a_tower_in_simulated_games() {
    let dir = TowerPack::new("who", NO_LEADER_ON_TOP);
    let set = dir.ruleset();
    let (mut topped, mut by_leader_without) = (0, 0);
    let mut check = |g: &Game, pack: bool| {
        let mut scores = vec![0u32; g.players().len()];
        for e in g.events() {
            if let Event::Meeple {
                player,
                spot: MeepleSpot::Tower,
                ..
            } = e
            {
                if pack {
                    assert!(!leads(&scores, *player), "the leader topped a tower");
                    topped += 1;
                } else if leads(&scores, *player) {
                    by_leader_without += 1;
                }
            }
            follow_scores(&mut scores, e);
        }
    };
    games(&set, &[BotKind::RANDOM; 2], 150, |g| check(g, true));
    games(&set, &[BotKind::GREEDY; 3], 10, |g| check(g, true));
    let plain =
        Ruleset::from_packs(&home(), &LoadOptions::default(), &["tower".to_string()]).unwrap();
    games(&plain, &[BotKind::RANDOM; 2], 150, |g| check(g, false));
    assert!(topped > 0, "towers were topped under the pack");
    assert!(
        by_leader_without > 0,
        "without it leaders top towers: the check could fail"
    );
}

/// Answers that read the standings hold until they change: the kernel
/// asks again after every capture, exchange and ransom, whatever the bots.
const NO_FLOOR_WHILE_HOLDING: &str =
    "fn may_place_floor(tower, kind) { game().held(game().actor) == 0 && previous(tower, kind) }\n";

/// The prisoners each seat holds after each event, as the events tell them.
fn follow_prisoners(held: &mut [u32], e: &Event) {
    match e {
        Event::Capture {
            player,
            owner,
            outcome: None,
            ..
        } if player != owner => held[*player] += 1,
        Event::Ransom { to, .. } => held[*to] -= 1,
        Event::Exchange { players } => players.iter().for_each(|&p| held[p] -= 1),
        _ => {}
    }
}

#[test]
fn no_seat_holding_a_prisoner_ever_builds_in_simulated_games() {
    let dir = TowerPack::new("who", NO_FLOOR_WHILE_HOLDING);
    let set = dir.ruleset();
    let (mut floors, mut holding_without) = (0, 0);
    let mut check = |g: &Game, pack: bool| {
        let mut held = vec![0u32; g.players().len()];
        for e in g.events() {
            if let Event::Floor { player, .. } = e {
                if pack {
                    assert_eq!(held[*player], 0, "a seat holding a prisoner built");
                    floors += 1;
                } else if held[*player] > 0 {
                    holding_without += 1;
                }
            }
            follow_prisoners(&mut held, e);
        }
    };
    games(&set, &[BotKind::RANDOM; 2], 100, |g| check(g, true));
    games(&set, &[BotKind::GREEDY; 3], 8, |g| check(g, true));
    let plain =
        Ruleset::from_packs(&home(), &LoadOptions::default(), &["tower".to_string()]).unwrap();
    games(&plain, &[BotKind::RANDOM; 2], 100, |g| check(g, false));
    assert!(floors > 0, "floors were placed under the pack");
    assert!(
        holding_without > 0,
        "without it seats holding prisoners build: the check could fail"
    );
}

// ---- the kernel asks once for every seat ----------------------------------

/// Rules that count the `may_place_floor` questions they are asked, per
/// seat asking; and the counts.
fn counting(inner: Box<dyn Rules>) -> (impl Rules, Arc<[AtomicU64; 6]>) {
    let asked: Arc<[AtomicU64; 6]> = Arc::default();
    let counts = asked.clone();
    let rules = crate::common::asking(inner, move |inner, question| {
        match &question {
            // Asked one by one, so that each is counted.
            Question::TowerAnswers { .. } => return Ok(Reply::OneByOne),
            Question::MayPlaceFloor { asking, .. } => {
                asked[asking.seat].fetch_add(1, Ordering::Relaxed);
            }
            _ => {}
        }
        inner.ask(question)
    });
    (rules, counts)
}

fn total(counts: &[AtomicU64]) -> u64 {
    counts.iter().map(|c| c.load(Ordering::Relaxed)).sum()
}

/// `may_place_floor` questions and the final scores of 20 random games of
/// three under tower and a pack whose `may_place_floor` is `body`.
fn questions(body: &str) -> (u64, Vec<Vec<u32>>) {
    let dir = TowerPack::new(
        "who",
        &format!("fn may_place_floor(tower, kind) {{ {body} }}\n"),
    );
    let set = dir.ruleset();
    let (rules, asked) = counting(set.rules());
    let scores = (0..20)
        .map(|seed| {
            let game = sim::play(&set, &rules, &[BotKind::RANDOM; 3], seed, false).unwrap();
            game.scores()
        })
        .collect();
    (total(&asked[..]), scores)
}

#[test]
fn the_kernel_asks_once_for_every_seat_unless_the_answer_read_the_seat() {
    let (plain, scores) = questions("previous(tower, kind)");
    let (by_seat, same) = questions("game().actor >= 0 && previous(tower, kind)");
    assert_eq!(scores, same, "the same answers, so the same games");
    assert!(plain > 0);
    assert_eq!(
        by_seat,
        3 * plain,
        "three seats asked where one answer served all"
    );
}

/// The seats `may_place_floor` was asked for over 20 random games of two
/// under tower and a pack whose `seat` hook gives seat 1 `floors` floors
/// and whose `may_place_floor` reads the standings (so each seat is asked
/// only when it needs an answer).
fn floor_questions_by_seat(floors: u32) -> [u64; 2] {
    let dir = TowerPack::new(
        "poor",
        &format!(
            "fn seat(seat, players, supply) {{ if seat == 1 {{ #{{ regular: {floors} }} }} else {{ supply }} }}\n\
             fn may_place_floor(tower, kind) {{ game().rank(game().actor) > 0 && previous(tower, kind) }}\n"
        ),
    );
    let set = dir.ruleset();
    let (rules, asked) = counting(set.rules());
    for seed in 0..20 {
        sim::play(&set, &rules, &[BotKind::RANDOM; 2], seed, false).unwrap();
    }
    [0, 1].map(|seat| asked[seat].load(Ordering::Relaxed))
}

#[test]
fn a_seat_holding_no_floor_is_never_asked_whether_it_may_place_one() {
    let [rich, poor] = floor_questions_by_seat(0);
    assert!(rich > 0, "seat 0 holds floors and is asked");
    assert_eq!(poor, 0, "seat 1 holds none: nothing it could use is asked");
    // With floors of its own, it is asked: the test could fail.
    let [_, poor] = floor_questions_by_seat(3);
    assert!(poor > 0, "seat 1 with floors is asked");
}

// ---- check ------------------------------------------------------------------

#[test]
fn check_plays_packs_that_read_the_actor_and_flags_none_of_their_rules_dead() {
    let dir = TowerPack::new("who", &format!("{SEAT_0_BUILDS}{NO_LEADER_ON_TOP}"));
    let path = dir.path.clone();
    let out = succeeds(&["check", &path, "--games", "5"]);
    let text = format!("{}{}", stdout(&out), crate::common::stderr(&out));
    assert!(text.contains("ok:"), "{text}");
    assert!(!text.contains("never"), "a rule flagged dead: {text}");
    // A refusal for every seat is still flagged.
    let dir = TowerPack::new("who", "fn may_top(tower) { game().actor < 0 }\n");
    let path = dir.path.clone();
    let out = succeeds(&["check", &path, "--games", "5"]);
    let text = format!("{}{}", stdout(&out), crate::common::stderr(&out));
    assert!(
        text.contains("hook `may_top` never allowed a meeple on a tower"),
        "{text}"
    );
}

// ---- range ------------------------------------------------------------------

#[test]
fn a_stack_only_one_seat_may_build_is_a_stack_range_accepts() {
    let dir = TowerPack::new(
        "who",
        "fn may_place_floor(tower, kind) { game().actor == 5 && previous(tower, kind) }\n",
    );
    let set = dir.ruleset();
    let regular = set.floor_kind("regular").unwrap();
    let rules = set.rules();
    towerlab::play::query::check_stack(rules.as_ref(), &[regular, regular])
        .expect("seat 5 of six may build it");
    let dir = TowerPack::new(
        "who",
        "fn may_place_floor(tower, kind) { game().actor == 8 }\n",
    );
    let set = dir.ruleset();
    let err = towerlab::play::query::check_stack(set.rules().as_ref(), &[regular]).unwrap_err();
    assert!(
        format!("{err:#}").contains("do not allow a `regular` floor on a bare foundation"),
        "{err:#}"
    );
}

// ---- rules that say they pay no points -------------------------------------

/// A pack paying a point at every turn's end.
const PAYS_EACH_TURN: &str = "fn on_turn_end(event) { [points(event.seat, 1, \"turn\")] }\n";

#[test]
fn a_script_naming_points_says_its_rules_pay_and_one_that_does_not_says_they_do_not() {
    let paying = TowerPack::new("paying", PAYS_EACH_TURN).ruleset();
    assert_ne!(paying.rules().listens() & asks::PAYS_POINTS, 0);
    // Acting without naming `points`, over `tower`, whose script names
    // it but acts at no moment (only an acting pack's effects are carried
    // out).
    assert!(
        std::fs::read_to_string(crate::common::rules_dir().join("tower/tower.rhai"))
            .unwrap()
            .contains("points")
    );
    let quiet = TowerPack::new("quiet", "fn on_turn_end(event) { [] }\n").ruleset();
    assert_eq!(quiet.rules().listens() & asks::PAYS_POINTS, 0);
    // A comment is read as a mention; `Fn` could name `points` in a string.
    for script in [
        "// no points here\nfn on_turn_end(event) { [] }\n",
        "fn on_turn_end(event) { let f = Fn(\"po\" + \"ints\"); [f.call(event.seat, 1, \"x\")] }\n",
    ] {
        let set = TowerPack::new("mention", script).ruleset();
        assert_ne!(set.rules().listens() & asks::PAYS_POINTS, 0, "{script}");
    }
}

#[test]
fn the_kernel_refuses_points_from_rules_that_said_they_pay_none() {
    let set = TowerPack::new("paying", PAYS_EACH_TURN).ruleset();
    let bots = [BotKind::RANDOM; 2];
    sim::play(&set, set.rules().as_ref(), &bots, 1, false).expect("paid as it said");
    // The same rules, hiding `asks::PAYS_POINTS`: they say they pay none.
    let silent = listening(set.rules(), |bits| bits & !asks::PAYS_POINTS);
    let Err(err) = sim::play(&set, &silent, &bots, 1, false) else {
        panic!("points paid by rules that said they pay none were carried out");
    };
    let message = format!("{err:#}");
    assert!(message.contains("pay no points"), "{message}");
}
