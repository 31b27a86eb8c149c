//! The `mcts` bot: it never reads the order of the tiles still to draw, every
//! decision it returns is one of the kernel's options (under every shipped
//! variant and a pack it was never written for), a seed replays the same
//! game, a failing rules hook stops it with that hook's error, and it beats
//! the greedy bot by more than chance allows.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use towerlab::analysis::arena::{self, Arena};
use towerlab::kernel::tiles::TileSet;
use towerlab::kernel::{Bot, Buffers, Decision, Game, Question, Rules, play_game, play_turn};
use towerlab::play::bots::{BotKind, DEFAULT_BUDGET, GreedyBot, MctsBot, RandomBot, SCHEDULE};
use towerlab::rules::native::NativeTower;
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common::{Twins, home};

/// Iterations per decision in these tests: enough to search, few enough for
/// a debug build.
const BUDGET: u32 = 12;

fn no_peeking(variant: &str, players: usize, seed: u64) {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), variant)
        .expect("the variant loads");
    let rules = set.rules();
    let mut game = Game::new(set.tiles(), rules.as_ref(), players, seed).unwrap();
    let mut twins = Twins::new(
        Box::new(MctsBot::new(seed, 0, BUDGET)),
        Box::new(MctsBot::new(seed, 0, BUDGET)),
        seed,
    );
    {
        let mut bots: Vec<Box<dyn Bot + '_>> = vec![Box::new(&mut twins)];
        bots.extend((1..players).map(|s| Box::new(GreedyBot::new(seed, s)) as Box<dyn Bot>));
        play_game(&mut game, &mut bots).unwrap();
    }
    assert!(twins.decisions > 40, "{}", twins.decisions);
    assert!(
        twins.differing * 2 > twins.decisions,
        "the twin's deck should differ: {} of {}",
        twins.differing,
        twins.decisions
    );
}

#[test]
fn mcts_decides_the_same_whatever_the_order_of_the_undrawn_tiles() {
    no_peeking("tower", 2, 11);
}

#[test]
fn mcts_decides_the_same_whatever_the_order_of_the_undrawn_tiles_in_black_tower() {
    no_peeking("black-tower", 3, 12);
}

/// Asks the `mcts` bot every decision and checks its answer against the
/// options the kernel listed.
struct Checked(MctsBot, usize);

impl Bot for Checked {
    fn decide(&mut self, game: &Game, decision: Decision) -> anyhow::Result<usize> {
        let i = self.0.decide(game, decision)?;
        assert!(i < decision.len(), "option {i} of {}", decision.len());
        self.1 += 1;
        Ok(i)
    }
}

/// The shipped variants, two of the docs' example packs (red floors,
/// floors for the player behind) and the ring floor of `tests/packs/`, a
/// range shape no shipped pack has: none of them named by the bot.
fn rulesets() -> Vec<Ruleset> {
    let mut sets: Vec<Ruleset> = [
        "tower",
        "black-tower",
        "tower-no-gaps",
        "tower-eye-for-an-eye",
        "tower-diagonal-steps",
        "tower-no-surprises",
        "black-tower-no-gaps",
    ]
    .iter()
    .map(|v| {
        Ruleset::from_variant(&home(), &LoadOptions::default(), v).expect("a shipped variant loads")
    })
    .collect();
    for example in [
        "docs/examples/red-floor",
        "docs/examples/underdog-floors",
        "tests/packs/ring-floor",
        "tests/packs/second-floor",
    ] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(example);
        let packs = ["tower".to_string(), dir.to_string_lossy().into_owned()];
        sets.push(
            Ruleset::from_packs(&home(), &LoadOptions::default(), &packs)
                .expect("the docs' example loads"),
        );
    }
    sets
}

/// From a random state (random bots for `prefix` turns), `mcts` plays the
/// next `turns` turns in every seat: every answer is one of the kernel's
/// options and the kernel accepts it.
fn legal_from(set: &Ruleset, players: usize, seed: u64, prefix: usize, turns: usize) -> usize {
    let rules = set.rules();
    let mut game = Game::new(set.tiles(), rules.as_ref(), players, seed).unwrap();
    let mut buf = Buffers::default();
    let mut random: Vec<Box<dyn Bot>> = (0..players)
        .map(|s| Box::new(RandomBot::new(seed, s)) as Box<dyn Bot>)
        .collect();
    for _ in 0..prefix {
        if !play_turn(&mut game, &mut random, &mut buf).unwrap() {
            return 0;
        }
    }
    let mut checked: Vec<Checked> = (0..players)
        .map(|s| Checked(MctsBot::new(seed, s, 6), 0))
        .collect();
    {
        let mut bots: Vec<Box<dyn Bot + '_>> = checked
            .iter_mut()
            .map(|c| Box::new(c) as Box<dyn Bot + '_>)
            .collect();
        for _ in 0..turns {
            if !play_turn(&mut game, &mut bots, &mut buf).unwrap() {
                break;
            }
        }
    }
    checked.iter().map(|c| c.1).sum()
}

#[test]
fn every_mcts_decision_is_a_listed_option_under_every_variant() {
    let sets = rulesets();
    let mut runner = TestRunner::new(Config {
        cases: 40,
        ..Config::default()
    });
    let strategy = (0..sets.len(), 2usize..=6, any::<u64>(), 0usize..70);
    runner
        .run(&strategy, |(v, players, seed, prefix)| {
            legal_from(&sets[v], players, seed, prefix, 2 * players);
            Ok(())
        })
        .unwrap();
    // Every ruleset at least once, from the start and late in the game.
    for set in &sets {
        assert!(legal_from(set, 2, 5, 0, 4) > 0, "{}", set.name());
        let _ = legal_from(set, 4, 6, 50, 8);
    }
}

#[test]
fn mcts_same_seed_same_game() {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "tower")
        .expect("the variant loads");
    let rules = set.rules();
    let run = |seed: u64| {
        let mut g = Game::new(set.tiles(), rules.as_ref(), 2, seed).unwrap();
        g.record_events();
        let mut bots: Vec<Box<dyn Bot>> = vec![
            BotKind::mcts(BUDGET).make(seed, 0, &Default::default()),
            BotKind::GREEDY.make(seed, 1, &Default::default()),
        ];
        play_game(&mut g, &mut bots).unwrap();
        (g.events().to_vec(), g.scores())
    };
    let (a, b) = (run(3), run(3));
    assert!(a.0.len() > 100);
    assert_eq!(a, b);
    assert_ne!(a.1, run(4).1);
}

/// The Tower, except that no capture range can be given.
fn broken_range() -> impl Rules {
    crate::common::asking(
        Box::new(NativeTower::default()),
        |inner, question| match question {
            Question::CaptureRange { .. } => {
                anyhow::bail!("hook `capture_range` broke on purpose")
            }
            q => inner.ask(q),
        },
    )
}

/// A hook that fails in a playout stops the search with that error: the
/// bot does not play on as if nothing happened.
#[test]
fn a_failing_hook_stops_the_search_with_its_error() {
    let tiles: TileSet = crate::common::tiles();
    let rules = broken_range();
    let mut bot = MctsBot::new(1, 0, 50);
    let mut game = Game::new(&tiles, &rules, 2, 1).unwrap();
    let mut options = Vec::new();
    let mut found = None;
    for _ in 0..40 {
        let Some(tile) = game.draw().unwrap() else {
            break;
        };
        game.placements(tile, &mut options).unwrap();
        let answer = bot.search(
            &game,
            Decision::Placement {
                tile,
                options: &options,
            },
        );
        if let Err(e) = answer {
            found = Some(format!("{e:#}"));
            break;
        }
        game.place_tile(tile, options[0]).unwrap();
        game.end_turn().unwrap();
    }
    let message = found.expect("a floor is placed in some playout, and its capture fails");
    assert!(message.contains("broke on purpose"), "{message}");
}

/// Through the turn loop too: a game of `mcts` bots under rules whose
/// hook fails ends with the hook's error, not with a made-up answer.
#[test]
fn a_failing_hook_ends_an_mcts_game_with_its_error() {
    let tiles: TileSet = crate::common::tiles();
    let rules = broken_range();
    let mut game = Game::new(&tiles, &rules, 2, 3).unwrap();
    let mut bots: Vec<Box<dyn Bot>> = (0..2)
        .map(|s| BotKind::mcts(8).make(3, s, &Default::default()))
        .collect();
    let err = play_game(&mut game, &mut bots).expect_err("the hook fails");
    assert!(format!("{err:#}").contains("broke on purpose"), "{err:#}");
}

/// With a fixed seed and a small budget, `mcts` wins more often than chance
/// could make it: the lower end of its 95% interval is above one half.
#[test]
fn mcts_beats_greedy_beyond_chance() {
    wins_beyond_chance([BotKind::mcts(16), BotKind::GREEDY], 24, 5);
}

/// Plays `games` 2-player Tower games of the first bot against the second as
/// `towerlab arena` does (paired deals from `seed`, seats rotated) and
/// checks that the first wins more often than chance could make it: the low
/// end of its 95% Wilson interval is above one half, and its mean margin is
/// positive.
fn wins_beyond_chance(bots: [BotKind; 2], games: u64, seed: u64) {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "tower")
        .expect("the variant loads");
    let result = arena::run(
        &Arena {
            set: &set,
            bots: &bots,
            players: 2,
            games,
            master_seed: seed,
            threads: 0,
        },
        &|_| {},
    )
    .unwrap();
    let first = &result.results[0];
    assert_eq!(result.games, games);
    assert!(first.ci[0] > 0.5, "{first:?}");
    assert!(first.mean_margin > 0.0, "{first:?}");
}

/// One search is offered (`BotKind::ALL`: random, greedy, mcts); the
/// reference is reached by its name, with a budget; the names of designs
/// no longer offered are refused with what to use.
#[test]
fn one_search_is_offered_and_the_baseline_is_named_with_its_budget() {
    let offered: Vec<&str> = BotKind::ALL.iter().map(|b| b.name()).collect();
    assert_eq!(offered, ["random", "greedy", "mcts"]);
    let baseline = BotKind::parse("mcts-baseline").unwrap();
    assert_eq!(baseline, BotKind::baseline(DEFAULT_BUDGET));
    assert_eq!(baseline.label(), "mcts-baseline");
    let small = BotKind::parse("mcts-baseline:7").unwrap();
    assert_eq!(small, BotKind::baseline(7));
    assert_eq!(small.label(), "mcts-baseline:7");
    assert!(BotKind::parse("mcts-baseline:0").is_err());
    assert_eq!(BotKind::parse("mcts:5").unwrap().label(), "mcts:5");
    for old in ["mcts-narrow", "mcts-classic:5"] {
        let err = BotKind::parse(old).unwrap_err().to_string();
        assert!(err.contains("is no longer offered"), "{err}");
        assert!(
            err.contains("`mcts`") && err.contains("`mcts-baseline`"),
            "{err}"
        );
    }
    let err = BotKind::parse("mcts-basline").unwrap_err().to_string();
    assert!(err.contains("did you mean `mcts-baseline`"), "{err}");
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "black-tower").unwrap();
    let rules = set.rules();
    let mut game = Game::new(set.tiles(), rules.as_ref(), 2, 4).unwrap();
    let mut bots: Vec<Box<dyn Bot>> = [BotKind::baseline(5), BotKind::mcts(5)]
        .into_iter()
        .enumerate()
        .map(|(s, b)| b.make(4, s, set.worths()))
        .collect();
    play_game(&mut game, &mut bots).unwrap();
}

/// Seat 0 of a game: weighs its placements with `mcts` at its default
/// budget and records, for each with more than ten options, the options
/// the search visited and their visits (the option taken first).
struct Weighing {
    bot: MctsBot,
    seen: Vec<(usize, Vec<u32>)>,
}

impl Bot for Weighing {
    fn decide(&mut self, game: &Game, decision: Decision) -> anyhow::Result<usize> {
        let weighed = self.bot.weigh(game, decision)?;
        if matches!(decision, Decision::Placement { .. }) && decision.len() > 10 {
            let visits = weighed.iter().map(|w| w.visits).collect();
            self.seen.push((decision.len(), visits));
        }
        Ok(weighed.first().map_or(0, |w| w.option))
    }
}

/// Sequential halving at the root: every placement is weighed (up to one
/// per iteration), the one taken has the most visits, and the root never
/// spends more than a placement's share of the budget (`SCHEDULE`).
#[test]
fn mcts_weighs_every_placement_and_takes_the_one_halving_keeps() {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "tower")
        .expect("the variant loads");
    let rules = set.rules();
    let mut game = Game::new(set.tiles(), rules.as_ref(), 2, 11).unwrap();
    let mut probe = Weighing {
        bot: MctsBot::new(11, 0, DEFAULT_BUDGET),
        seen: Vec::new(),
    };
    let mut buf = Buffers::default();
    {
        let mut bots: Vec<Box<dyn Bot + '_>> =
            vec![Box::new(&mut probe), Box::new(RandomBot::new(11, 1))];
        for _ in 0..16 {
            if !play_turn(&mut game, &mut bots, &mut buf).unwrap() {
                break;
            }
        }
    }
    assert!(
        !probe.seen.is_empty(),
        "no placement with more than ten options"
    );
    let budget = (DEFAULT_BUDGET as f32 * SCHEDULE.placement).round() as u32;
    assert!(
        budget > DEFAULT_BUDGET,
        "a placement searches more than a later decision"
    );
    for (options, visits) in &probe.seen {
        assert_eq!(visits.len(), (*options).min(budget as usize), "{visits:?}");
        assert!(visits.iter().all(|&v| v <= visits[0]), "{visits:?}");
        assert!(visits.iter().sum::<u32>() <= budget, "{visits:?}");
    }
}
