//! Bots that play what a rule pays: under rules no bot was written for
//! (`tests/packs`: an income a turn, end scores, a payment at a random
//! draw), `greedy` and `mcts` take the option the rule pays for at least as
//! often as `random` does, and `greedy` only through its look at what the
//! rules pay; the evaluation's rules terms agree with the game; and acting
//! rules leave the bots deterministic and blind to the deck's order.

use std::path::Path;

use towerlab::kernel::determinize::undrawn_counts;
use towerlab::kernel::effects::StateAt;
use towerlab::kernel::{Bot, Buffers, Event, Game, Scored, play_game, play_turn};
use towerlab::play::bots::{BotKind, Evaluator, GreedyBot, MctsBot, RandomBot, Sight};
use towerlab::play::seed::game_seed;
use towerlab::rules::{LoadOptions, Ruleset, Worths};

use crate::common::{Twins, home, json, kind, without_timing};

/// Search iterations in these tests: enough to search, few enough for a
/// test build.
const BUDGET: u32 = 16;

/// `tower` and the test pack `name` (a folder of `tests/packs`).
fn over_tower(name: &str) -> Ruleset {
    over_tower_from("tests/packs", name)
}

/// `tower` and the pack `name` of the repository's folder `folder`.
fn over_tower_from(folder: &str, name: &str) -> Ruleset {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(folder)
        .join(name);
    let packs = ["tower".to_string(), dir.to_string_lossy().into_owned()];
    Ruleset::from_packs(&home(), &LoadOptions::default(), &packs).expect("the test pack loads")
}

#[derive(Clone, Copy, Debug)]
enum Player {
    Random,
    /// Greedy weighing its own values alone, without the look.
    Blind,
    Greedy,
    Mcts,
}

fn bot(player: Player, set: &Ruleset, seed: u64, seat: usize) -> Box<dyn Bot> {
    let worths = set.worths().clone();
    match player {
        Player::Random => Box::new(RandomBot::new(seed, seat)),
        Player::Blind => Box::new(GreedyBot::with_sight(seed, seat, worths, Sight::Ahead)),
        Player::Greedy => Box::new(GreedyBot::looking(seed, seat, worths, Sight::Ahead)),
        Player::Mcts => Box::new(MctsBot::with(seed, seat, BUDGET, worths, Sight::Threats)),
    }
}

/// Towers `player`'s seat and the random bot's hold the top of at the
/// game's end, a game, over `games` two-player games between them, seats
/// rotated.
fn tops_against_random(set: &Ruleset, player: Player, games: u64) -> (f64, f64) {
    let rules = set.rules();
    let (mut mine, mut random) = (0, 0);
    for g in 0..games {
        let seed = game_seed(21, g);
        let seat = (g % 2) as usize;
        let mut game = Game::new(set.tiles(), rules.as_ref(), 2, seed).unwrap();
        let mut bots: Vec<Box<dyn Bot>> = (0..2)
            .map(|s| match s == seat {
                true => bot(player, set, seed, s),
                false => bot(Player::Random, set, seed, s),
            })
            .collect();
        play_game(&mut game, &mut bots).unwrap();
        for t in game.towers() {
            match t.meeple {
                Some(owner) if owner as usize == seat => mine += 1,
                Some(_) => random += 1,
                None => {}
            }
        }
    }
    (mine as f64 / games as f64, random as f64 / games as f64)
}

/// A rule that pays a guard (a meeple on top of a tower) is played by the
/// bots: against the random bot, which closes towers by chance, each tops
/// at least as many towers a game; greedy does so only with its look at
/// what the rules pay (blind, its own values count a guard as a meeple
/// lost, and it leaves the towers to the random bot).
#[test]
fn the_bots_take_what_a_rule_pays_a_guard_at_least_as_often_as_random() {
    for pack in ["guard-income", "tower-bounty", "toll"] {
        let set = over_tower(pack);
        for (player, games) in [(Player::Greedy, 4), (Player::Mcts, 8)] {
            let (mine, random) = tops_against_random(&set, player, games);
            assert!(mine >= random, "{pack}: {player:?} {mine}, random {random}");
        }
        if pack == "guard-income" {
            let (blind, random) = tops_against_random(&set, Player::Blind, 4);
            assert!(
                blind < random,
                "{pack}: blind greedy {blind}, random {random}"
            );
        }
    }
}

/// Random play of `set` for `turns` turns from `seed`; `check` sees the game
/// after every turn.
fn after_turns(set: &Ruleset, seed: u64, turns: usize, mut check: impl FnMut(&Game)) -> Game<'_> {
    let rules = Box::leak(set.rules());
    let mut game = Game::new(set.tiles(), rules, 2, seed).unwrap();
    game.record_events();
    let mut bots: Vec<Box<dyn Bot>> = (0..2)
        .map(|s| Box::new(RandomBot::new(seed, s)) as Box<dyn Bot>)
        .collect();
    let mut buf = Buffers::default();
    for _ in 0..turns {
        if !play_turn(&mut game, &mut bots, &mut buf).unwrap() {
            break;
        }
        check(&game);
    }
    game
}

/// The points the log gives `seat` from the rules' effects.
fn logged_rule_points(game: &Game, seat: usize) -> i64 {
    game.events()
        .iter()
        .filter_map(|e| match e {
            Event::Score {
                player,
                points,
                feature: Scored::Rule(_),
                rule: Some(_),
            } if *player == seat => Some(*points),
            _ => None,
        })
        .sum()
}

/// The game's ledger of the rules' points agrees with the log's score
/// records, and the evaluation projects the last round's income over the
/// rounds left.
#[test]
fn the_rules_income_is_what_their_effects_paid_projected_over_the_rounds_left() {
    let set = over_tower("guard-income");
    let mut eval = Evaluator::new(set.worths().clone(), Sight::Threats);
    let mut paid = 0;
    let game = after_turns(&set, 5, 60, |game| {
        let terms = eval.terms(game).unwrap().to_vec();
        for (p, t) in terms.iter().enumerate() {
            let last = game.rule_income().last_round(p) as f32;
            let rounds_left = game.deck_left() as f32 / 2.0;
            assert_eq!(t.income, last * rounds_left, "seat {p}");
            paid += usize::from(last > 0.0);
        }
    });
    assert!(paid > 0, "some guard was paid in 60 random turns");
    for p in 0..2 {
        assert_eq!(game.rule_income().total(p), logged_rule_points(&game, p));
    }
}

/// What the undrawn tiles would pay is asked of the rules as the position
/// stands: under the Toll, 3 points a guard for each cloister tile
/// left to draw.
#[test]
fn what_draws_would_pay_is_three_a_guard_for_every_cloister_left() {
    let set = over_tower("toll");
    let mut eval = Evaluator::new(set.worths().clone(), Sight::Threats);
    let cloisters = [kind(set.tiles(), "base/L"), kind(set.tiles(), "base/LR")];
    let mut guarded = 0;
    after_turns(&set, 9, 70, |game| {
        let left = undrawn_counts(game);
        let pilgrims: u32 = cloisters.iter().map(|&k| left[k as usize]).sum();
        let terms = eval.terms(game).unwrap().to_vec();
        for (p, t) in terms.iter().enumerate() {
            let guards = game.towers().iter().filter(|t| t.meeple == Some(p as u8));
            let expected = 3 * guards.count() as u32 * pilgrims;
            assert_eq!(t.draws, expected as f32, "seat {p}");
            guarded += usize::from(expected > 0);
        }
    });
    assert!(guarded > 0, "a guard stood while cloisters were left");
}

/// The rules' end scores as the game stands, unscored: under Tower Bounty,
/// 3 points a floor of every tower a seat's meeple tops.
#[test]
fn end_scores_as_the_game_stands_are_the_bounty_of_every_topped_tower() {
    let set = over_tower("tower-bounty");
    let mut seen = 0;
    after_turns(&set, 4, 80, |game| {
        let mut end = [0f32; 8];
        game.end_rule_points(&mut end).unwrap();
        for (p, &points) in end.iter().enumerate().take(2) {
            let topped = game.towers().iter().filter(|t| t.meeple == Some(p as u8));
            let bounty: usize = topped.map(|t| 3 * t.floors.len()).sum();
            assert_eq!(points, bounty as f32, "seat {p}");
            seen += usize::from(bounty > 0);
        }
    });
    assert!(seen > 0, "some tower was topped in 80 random turns");
}

/// A seat's guards and its own values of the packs' per-seat state are
/// terms of the evaluation (`tune` may weigh them), weighed by the values'
/// `guard` and `state`: 0 by default, so untuned bots weigh neither. Under
/// docs/examples/quarry, the stone floors each seat took.
#[test]
fn guards_and_a_seat_s_own_state_are_terms_weighed_only_where_tuned() {
    let set = over_tower_from("docs/examples", "quarry");
    let defaults = set.worths().clone();
    assert_eq!((defaults.guard, defaults.state(0)), (0.0, 0.0));
    let weighed = std::sync::Arc::new(Worths {
        guard: 2.0,
        state: vec![0.5],
        ..(*defaults).clone()
    });
    let mut plain = Evaluator::new(defaults.clone(), Sight::Threats);
    let mut eval = Evaluator::new(weighed.clone(), Sight::Threats);
    let (mut guarded, mut quarried) = (0, 0);
    after_turns(&set, 3, 90, |game| {
        let quarried_var = game
            .rules()
            .state_vars()
            .iter()
            .position(|v| v.name == "quarry.quarried");
        let var = quarried_var.expect("quarry keeps its floors taken per seat") as u16;
        let base = plain.terms(game).unwrap().to_vec();
        for (p, t) in eval.terms(game).unwrap().iter().enumerate() {
            let guards = game.towers().iter().filter(|t| t.meeple == Some(p as u8));
            assert_eq!(t.guards, guards.count() as f32, "seat {p}");
            let own = game.state().get(var, StateAt::Seat(p as u8)).unwrap();
            assert_eq!(t.state[var as usize], own as f32, "seat {p}");
            let more = 2.0 * t.guards + 0.5 * t.state[var as usize];
            let gap = t.total(&weighed) - base[p].total(&defaults);
            assert!((gap - more).abs() < 1e-3, "seat {p}: {gap} against {more}");
            guarded += usize::from(t.guards > 0.0);
            quarried += usize::from(own > 0);
        }
    });
    assert!(
        guarded > 0 && quarried > 0,
        "{guarded} guards, {quarried} quarried seen"
    );
}

/// Under a rule that pays at a draw and one that keeps state at a draw
/// (docs/examples/bell), greedy's look and the search decide the same
/// whatever the order of the undrawn tiles.
#[test]
fn the_look_and_the_search_never_read_the_deck_order_under_acting_rules() {
    let bell = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/bell");
    let packs = ["tower".to_string(), bell.to_string_lossy().into_owned()];
    let bell = Ruleset::from_packs(&home(), &LoadOptions::default(), &packs).unwrap();
    for (set, player) in [(over_tower("toll"), Player::Greedy), (bell, Player::Mcts)] {
        let rules = set.rules();
        let seed = 17;
        let mut game = Game::new(set.tiles(), rules.as_ref(), 2, seed).unwrap();
        let mut twins = Twins::new(bot(player, &set, seed, 0), bot(player, &set, seed, 0), seed);
        {
            let mut bots: Vec<Box<dyn Bot + '_>> = vec![Box::new(&mut twins)];
            bots.push(bot(Player::Greedy, &set, seed, 1));
            play_game(&mut game, &mut bots).unwrap();
        }
        assert!(twins.decisions > 40, "{player:?}: {}", twins.decisions);
    }
}

/// Acting rules and the search: the same games on one thread and on two.
#[test]
fn acting_rules_with_the_search_play_the_same_games_on_one_and_two_threads() {
    let pack = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/guard-income");
    let packs = format!("tower,{}", pack.display());
    let run = |threads: &str| {
        without_timing(json(&[
            "simulate",
            "--packs",
            &packs,
            "--bots",
            "mcts:8,greedy",
            "--games",
            "4",
            "--seed",
            "3",
            "--threads",
            threads,
            "--format",
            "json",
        ]))
    };
    assert_eq!(run("1"), run("2"));
}

/// The Pilgrims (docs/examples/pilgrims) act at a completed road but pay
/// no points: every option would gain the same nothing from the rules, so
/// greedy plays out no option's turn, and its hook runs only at the game's
/// own completed features. The same pack with a comment naming `points`
/// may pay, and greedy looks: its hook runs several times more (fewer
/// than the options looked at, as a run that finds no seat to send a
/// pilgrim is kept).
#[test]
fn greedy_plays_out_no_option_s_turn_where_the_rules_act_but_pay_no_points() {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/pilgrims");
    let dir = crate::common::temp_dir("pilgrims-named");
    crate::common::copy_dir(&from, dir.path());
    let script = dir.path().join("pilgrims.rhai");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("{text}// points: none\n")).unwrap();
    let runs = |set: &Ruleset| -> u64 {
        let counted = towerlab::play::cost::count(set, BotKind::GREEDY, 2, 5).unwrap();
        counted.iter().map(|r| r.runs).sum()
    };
    let quiet = over_tower_from("docs/examples", "pilgrims");
    let packs = [
        "tower".to_string(),
        dir.path().to_string_lossy().into_owned(),
    ];
    let named = Ruleset::from_packs(&home(), &LoadOptions::default(), &packs).unwrap();
    let (quiet_runs, named_runs) = (runs(&quiet), runs(&named));
    assert!(quiet_runs > 0, "the hook ran at the games' completed roads");
    assert!(
        named_runs > 2 * quiet_runs,
        "looked at: {named_runs} runs, not: {quiet_runs}"
    );
}
