//! `towerlab tune`: values learned from self-play are the same for a seed,
//! checked in play against the defaults (values that lose are not kept),
//! stored under the ruleset's fingerprint, found again by every run of the
//! variant (never by other rules), shown by `info`, and used by the bots: a
//! tuned value changes a decision.

use std::sync::Arc;

use towerlab::play::bots::BotKind;
use towerlab::play::sim;
use towerlab::play::tune::{
    LOOKS, TUNE_BOT, TunePlan, changes, check, check_stopping, search, tune,
};
use towerlab::rules::worths::{text, tuned_path};
use towerlab::rules::{Home, LoadOptions, Ruleset, Worths};

use crate::common::{home, run, stdout, succeeds, temp_dir};

const PLAN: TunePlan = TunePlan {
    games: 3,
    seed: 5,
    players: 2,
    threads: 1,
    bot: TUNE_BOT,
};

#[test]
fn tuning_is_the_same_for_a_seed_on_any_threads_and_another_seed_learns_otherwise() {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "black-tower").unwrap();
    let learned = tune(&set, &PLAN).unwrap();
    let b = tune(&set, &TunePlan { threads: 2, ..PLAN }).unwrap();
    assert_eq!(learned, b, "the same values on 1 and 2 threads");
    let c = tune(&set, &TunePlan { seed: 6, ..PLAN }).unwrap().tuned;
    // The fit errs no more than the defaults on the games it learned from
    // (it minimises the error plus a pull toward them), and no forecast
    // explains more than everything.
    let f = learned.foresight;
    assert!(f.samples > 0, "{f:?}");
    assert!(f.fitted >= f.defaults - 1e-9 && f.fitted <= 1.0, "{f:?}");
    let a = learned.tuned;
    assert_ne!(a.worths, c.worths);
    assert_eq!(
        a.worths.floor.len(),
        set.floors().len(),
        "a value per floor kind"
    );
    assert_eq!(&a.fingerprint, set.fingerprint());
}

/// The scores of a game of `set` between two `bot`s with its values, and
/// the floors placed.
fn game_of(set: &Ruleset, bot: BotKind, seed: u64) -> (Vec<u32>, u32) {
    let rules = set.rules();
    let game = sim::play(set, rules.as_ref(), &[bot; 2], seed, false).unwrap();
    (game.scores(), game.stats().floors_placed)
}

#[test]
fn stored_values_are_found_by_the_variant_and_change_the_bots_decisions() {
    let dir = temp_dir("tuned");
    let at = Home::at(dir.path());
    let plain = Ruleset::from_variant(&at, &LoadOptions::default(), "tower").unwrap();
    assert!(plain.tuned().is_none());
    assert_eq!(**plain.worths(), Worths::default());
    // Floors so dear that greedy keeps them: a tuned value decides.
    let mut tuned = tune(&plain, &TunePlan { games: 1, ..PLAN }).unwrap().tuned;
    tuned.worths.floor = vec![500.0; plain.floors().len()];
    let path = tuned_path(dir.path(), &tuned.fingerprint);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text(&tuned).unwrap()).unwrap();
    let set = Ruleset::from_variant(&at, &LoadOptions::default(), "tower").unwrap();
    assert_eq!(set.tuned().as_ref(), Some(&tuned));
    assert_eq!(set.worths(), &Arc::new(tuned.worths.clone()));
    // Greedy weighs with them, and so does the search (its priors and its
    // evaluation).
    for bot in [BotKind::GREEDY, BotKind::mcts(6)] {
        let (_, floors_default) = game_of(&plain, bot, 9);
        let (_, floors_tuned) = game_of(&set, bot, 9);
        assert!(
            floors_tuned < floors_default,
            "{}: floors placed: {floors_tuned} tuned, {floors_default} by default",
            bot.label()
        );
    }
    // A seat picks its values: `@defaults` plays as if none were stored,
    // `@tuned` as the variant's.
    let pick = |text: &str| BotKind::parse(text).unwrap();
    assert_eq!(
        game_of(&set, pick("greedy@defaults"), 9),
        game_of(&plain, BotKind::GREEDY, 9)
    );
    assert_eq!(
        game_of(&set, pick("greedy@tuned"), 9),
        game_of(&set, BotKind::GREEDY, 9)
    );
    // So an arena puts them against each other, and names each one's.
    let home = dir.path().to_str().unwrap();
    let arena = [
        "arena",
        "greedy@tuned",
        "greedy@defaults",
        "--variant",
        "tower",
    ];
    let more = [
        "--games",
        "2",
        "--threads",
        "1",
        "--format",
        "json",
        "--home",
        home,
    ];
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&succeeds(&[&arena[..], &more[..]].concat()))).unwrap();
    let values: Vec<&str> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["values"].as_str().unwrap())
        .collect();
    assert!(
        values[0].starts_with("tuned/") && values[1] == "defaults",
        "{json}"
    );
    assert_eq!(json["bots"][0], "greedy@tuned", "{json}");
    // Other rules (another variant) do not find them, and refuse `@tuned`.
    let other = Ruleset::from_variant(&at, &LoadOptions::default(), "black-tower").unwrap();
    assert!(other.tuned().is_none());
    let refused = run(&[
        &["arena", "mcts@tuned", "greedy", "--variant", "black-tower"][..],
        &more[..],
    ]
    .concat());
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("no tuned values are stored for these rules"),
        "{err}"
    );
}

/// What `towerlab tune tower --games 2 --check-games CHECK --home HOME`
/// prints.
fn tune_tower(home: &str, check: &str) -> String {
    let args = ["tune", "tower", "--games", "2", "--check-games", check];
    stdout(&succeeds(&[&args[..], &["--home", home]].concat()))
}

#[test]
fn the_tune_command_stores_values_that_info_shows() {
    let dir = temp_dir("tune-cli");
    let home = dir.path().to_str().unwrap();
    let text = tune_tower(home, "0");
    assert!(!text.contains("check:"), "{text}");
    assert!(
        text.contains("values learned from 2 self-play games of mcts:32"),
        "{text}"
    );
    assert!(text.contains("floor "), "{text}");
    let foreseen = (text.lines())
        .find(|l| l.starts_with("foreseen, of the players' gains"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        foreseen.contains("by the defaults") && foreseen.contains("by the fit"),
        "{foreseen}"
    );
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

/// Values that make a bot throw its game away (every meeple in supply worth
/// 100 points: greedy never places one) lose to the defaults on the same
/// deals with the seats rotated, and the same seed plays the same games; a
/// trial stops early where they are not ahead; a search starting from
/// them keeps none of it: it tries each value the way the fit moved it
/// (both ways where it did not), in order, and stops trying a value once a
/// change of it is kept.
#[test]
fn values_that_throw_games_away_lose_in_play_and_are_not_kept() {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "tower").unwrap();
    let hoarding = Worths {
        meeple: [100.0; 7],
        ..Worths::default()
    };
    let defaults = Worths::default();
    let pair = (&hoarding, &defaults);
    // Greedy plays the trials here: quick, and as sure to throw games away.
    let plan = TunePlan {
        bot: BotKind::GREEDY,
        ..PLAN
    };
    let a = check(&set, &plan, pair, (PLAN.games, 4)).unwrap();
    assert_eq!(a.games, 8, "every deal once per seat");
    assert!(!a.passed() && a.share() <= 0.25, "{a:?}");
    let two = TunePlan { threads: 2, ..plan };
    assert_eq!(
        a,
        check(&set, &two, pair, (PLAN.games, 4)).unwrap(),
        "the same games on 1 and 2 threads"
    );
    let same = (&defaults, &defaults);
    let even = check(&set, &plan, same, (PLAN.games, 4)).unwrap();
    assert!(even.share() > a.share(), "{even:?} against {a:?}");

    // A trial stops at its first look when the values tried are not ahead:
    // its first part's games, the same as `check` plays them.
    let deals = 2 * LOOKS;
    let stopped = check_stopping(&set, &plan, pair, (PLAN.games, deals)).unwrap();
    assert_eq!(stopped, check(&set, &plan, pair, (PLAN.games, 2)).unwrap());
    assert_eq!(
        stopped,
        check_stopping(&set, &two, pair, (PLAN.games, deals)).unwrap(),
        "the same games on 1 and 2 threads"
    );
    // Values ahead at every look play every game.
    let back = (&defaults, &hoarding);
    let full = check_stopping(&set, &plan, back, (PLAN.games, deals)).unwrap();
    assert_eq!(full, check(&set, &plan, back, (PLAN.games, deals)).unwrap());

    let mut heard = Vec::new();
    let found = search(&set, &plan, &hoarding, 3, &mut |t| {
        heard.push(t.clone());
        Ok(())
    })
    .unwrap();
    assert_eq!(heard, found.trials, "every trial is told as it ends");
    assert_eq!(found.trials[0].change, "the fitted values");
    assert!(!found.trials[0].kept, "{:?}", found.trials[0]);
    assert_ne!(found.values.meeple, hoarding.meeple);
    let tried = |what: &str| {
        found
            .trials
            .iter()
            .filter(|t| t.change.starts_with(what))
            .count()
    };
    assert_eq!(tried("meeple in supply ×2"), 1, "{:?}", found.trials);
    assert_eq!(tried("meeple in supply ×0.5"), 0, "the fit moved it up");
    for value in ["prisoner held", "floor regular in supply"] {
        assert!(
            (1..=2).contains(&tried(value)),
            "{value}: {:?}",
            found.trials
        );
    }
    assert_eq!(
        found.against_defaults.is_some(),
        found.trials.iter().any(|t| t.kept)
    );
    assert_eq!(
        found,
        search(&set, &plan, &hoarding, 3, &mut |_| Ok(())).unwrap()
    );
}

/// A search plays only changes that change something: a value of 0 scaled,
/// or a chance already at 1 doubled, is no trial (it would play the same
/// games against itself).
#[test]
fn a_change_that_leaves_the_values_as_they_are_is_not_played() {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "tower").unwrap();
    let defaults = Worths::default();
    let names = |v: Vec<(String, Worths)>| v.into_iter().map(|c| c.0).collect::<Vec<_>>();
    // The values in search order: meeples, a prisoner, the one floor kind,
    // an open city's chances, a cloister neighbour's chance.
    let (prisoner, cloister) = (1, 4);
    assert_eq!(
        names(changes(&set, &defaults, &defaults, prisoner)),
        ["prisoner held ×2", "prisoner held ×0.5"],
        "where the fit left a value, both ways"
    );
    let best = Worths {
        prisoner: 0.0,
        cloister_chance: 1.0,
        cloister_drop: 0.0,
        ..defaults.clone()
    };
    assert!(changes(&set, &defaults, &best, prisoner).is_empty());
    let tried = changes(&set, &defaults, &best, cloister);
    assert_eq!(names(tried.clone()), ["cloister neighbour arrives ×0.5"]);
    assert_eq!(tried[0].1.cloister_chance, 0.5);

    // Rules that pay: their income is weighed, what draws would pay only
    // where they pay at a draw (guard-income pays at a turn's end, toll
    // at a draw too).
    let (income, draws) = (5, 6);
    let with = |pack: &str| {
        let pack = format!("{}/tests/packs/{pack}", env!("CARGO_MANIFEST_DIR"));
        let packs = ["tower".to_string(), pack];
        Ruleset::from_packs(&home(), &LoadOptions::default(), &packs).unwrap()
    };
    let turn_end = with("guard-income");
    assert_eq!(
        names(changes(&turn_end, &defaults, &defaults, income)),
        ["the rules' income ×2", "the rules' income ×0.5"]
    );
    assert!(changes(&turn_end, &defaults, &defaults, draws).is_empty());
    let at_draws = with("toll");
    assert_eq!(changes(&at_draws, &defaults, &defaults, draws).len(), 2);
}

/// `tune` prints its trials in play, stores values only when the interval
/// of what it kept against the defaults lies above the even share, and says
/// why it stores nothing; `--check-games` is refused out of its range.
#[test]
fn the_tune_command_stores_values_only_when_they_beat_the_defaults_in_play() {
    let dir = temp_dir("tune-check");
    let home = dir.path().to_str().unwrap();
    let text = tune_tower(home, "2");
    assert!(
        text.contains("tried in play: mcts:32 weighing with the values tried in one seat")
            && text.contains("2 games each")
            && text.contains("the fitted values: win share"),
        "{text}"
    );
    // Two games a check: no interval of two games lies above one half, so
    // nothing is stored, and the output says why.
    assert!(!dir.path().join("tuned").exists(), "{text}");
    assert!(text.contains("not stored: "), "{text}");
    assert!(
        text.contains("no change won clearly enough")
            || text.contains("an interval that reaches the even share"),
        "{text}"
    );
    let refused = run(&["tune", "tower", "--check-games", "-1"]);
    assert_eq!(refused.status.code(), Some(2));
}
