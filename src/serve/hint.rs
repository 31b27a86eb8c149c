//! Hints: the option the `mcts` bot would take for the person deciding,
//! with what it expects and the alternatives it weighed, in one line. The
//! bot sees what the person may see: its search copies the game with the
//! undrawn tiles' order hidden and deals them again for every iteration
//! (`kernel::determinize`), as it does in a seat. Its budget is the
//! server's hint budget (a modest one, so that a hint comes in about a
//! second), and its stream is drawn from the game's seed and the question's
//! token: the same question gets the same hint.

use super::ApiError;
use super::view::decision_kind;
use super::wire::{Hint, Weighed};
use crate::kernel::diag::is_budget_spent;
use crate::kernel::{Decision, Game};
use crate::play::bots::{BLEND_FROM, BotKind, MctsBot, Sight};
use crate::play::seed::mix64;
use crate::play::session::{Session, Waiting};
use crate::play::words::{Names, option_words};
use crate::rules::Ruleset;

/// What the `mcts` bot would answer to the question waiting for a person,
/// in words said with `names`.
pub fn advise(session: &Session, budget: u32, names: &Names) -> Result<Hint, ApiError> {
    let Waiting::Person { seat, decision } = session.waiting() else {
        return Err(ApiError::new(409, "no person is to decide now"));
    };
    let token = session.token();
    let asked = Asked {
        seat,
        token,
        stream: mix64(session.seed() ^ mix64(token)),
        budget,
        names,
    };
    // The search spends from a budget of its own, whose limit names no
    // seed: the game's stays hidden until the game ends.
    advise_on(session.game(), decision, session.ruleset(), asked)
}

/// Who asks, about which question, the search's stream and budget, and
/// how the answer's words name the seats.
struct Asked<'n> {
    seat: usize,
    token: u64,
    stream: u64,
    budget: u32,
    names: &'n Names,
}

/// The hint for `decision` of `game`: searched with the budget asked, and
/// should the search's hooks spend more than their budget (as hundreds of
/// iterations can in a 6-player `black-tower` game), searched again with
/// half the iterations, down to one, so that a hint fails only on a hook's
/// own error. Each search is a function of the game and the stream: the
/// same question gets the same hint.
fn advise_on(
    game: &Game,
    decision: Decision,
    set: &Ruleset,
    asked: Asked,
) -> Result<Hint, ApiError> {
    let mut budget = asked.budget.max(1);
    loop {
        match searched(game, decision, set, &asked, budget) {
            Err(e) if budget > 1 && is_budget_spent(&e) => budget /= 2,
            Err(e) => {
                return Err(ApiError::new(
                    500,
                    format!("the rules failed while the hint searched: {e:#}"),
                ));
            }
            Ok(mut hint) if budget < asked.budget => {
                hint.reason.push_str(&format!(
                    " (searched {budget} of the {} iterations asked: more would spend more than a search's hook budget here)",
                    asked.budget
                ));
                return Ok(hint);
            }
            Ok(hint) => return Ok(hint),
        }
    }
}

/// The hint for `decision` of `game`, searched `budget` iterations.
fn searched(
    game: &Game,
    decision: Decision,
    set: &Ruleset,
    asked: &Asked,
    budget: u32,
) -> anyhow::Result<Hint> {
    let mut bot = MctsBot::with(
        asked.stream,
        asked.seat,
        budget,
        set.worths().clone(),
        Sight::Threats,
    );
    let found = bot.weigh(game, decision)?;
    let weighed: Vec<Weighed> = found
        .iter()
        .map(|w| Weighed {
            option: w.option,
            label: asked
                .names
                .say(&option_words(decision, w.option, game, set)),
            value: tenths(w.mean),
            searches: w.visits,
        })
        .collect();
    let bot_name = BotKind::mcts(budget).label();
    let (option, value) = match weighed.first() {
        Some(best) => (best.option, Some(best.value)),
        None => (0, None),
    };
    Ok(Hint {
        token: asked.token,
        decision: decision_kind(&decision),
        option,
        label: asked.names.say(&option_words(decision, option, game, set)),
        reason: reason(
            &bot_name,
            &weighed,
            decision.len(),
            budget,
            game.players().len(),
        ),
        bot: bot_name,
        value,
        weighed,
    })
}

/// Points to a tenth, as the page shows them.
fn tenths(points: f32) -> f64 {
    (points as f64 * 10.0).round() / 10.0
}

/// The hint's reason in one line: what the bot expects of the option it
/// advises, how much of the search went to it, and the next best.
fn reason(bot: &str, weighed: &[Weighed], options: usize, budget: u32, players: usize) -> String {
    let Some(best) = weighed.first() else {
        return "the only option the rules allow here".to_string();
    };
    // The bot's margin: over the strongest opponent, or from
    // `BLEND_FROM` players on half over the strongest and half over their
    // mean.
    let whom = match players >= BLEND_FROM {
        true => "its opponents (the strongest and their mean)",
        false => "the strongest opponent",
    };
    let margin = match best.value >= 0.0 {
        true => format!("to lead {whom} by {:.1} points", best.value),
        false => format!("to trail {whom} by {:.1} points", -best.value),
    };
    let next = match weighed.get(1) {
        Some(second) => format!("next best: {} ({:+.1})", second.label, second.value),
        None => "no other was worth a search".to_string(),
    };
    format!(
        "{bot} expects {margin} a round from now ({} of {budget} searches); weighed {} of {options} options, {next}",
        best.searches,
        weighed.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::determinize::redealt;
    use crate::kernel::random::Stream;
    use crate::kernel::{Buffers, Turn};
    use crate::play::session::Seat;
    use crate::rules::{Home, LoadOptions};

    /// The next tiles `game` draws, every decision taking option 0.
    fn next_tiles(game: &Game, decision: Decision) -> Vec<u16> {
        let (mut g, mut buf) = (game.clone(), Buffers::default());
        let mut turn = Turn::at(decision, &mut buf);
        let mut tiles = Vec::new();
        while tiles.len() < 8 {
            if turn.choose(&mut g, &mut buf, 0).unwrap() {
                turn = Turn::begin(&mut g, &mut buf).unwrap().unwrap();
                tiles.extend(turn.tile());
            }
        }
        tiles
    }

    /// The hint is the same whatever the order of the tiles still to come:
    /// the bot never reads it. (Asked of the game and of a copy whose
    /// undrawn tiles are dealt again, it gives the same answer.)
    #[test]
    fn a_hint_does_not_depend_on_the_hidden_deck_order() {
        let set =
            Ruleset::from_variant(&Home::shipped(), &LoadOptions::unit_tests(), "tower").unwrap();
        let rules = set.rules();
        let session = Session::new(&set, rules.as_ref(), &[Seat::Person; 2], 3).unwrap();
        let Waiting::Person { decision, .. } = session.waiting() else {
            panic!("a person decides first");
        };
        let game = session.game();
        let other = redealt(game, &mut Stream::new(99, 1));
        assert_ne!(
            next_tiles(&other, decision),
            next_tiles(game, decision),
            "the copy's deck is in another order"
        );
        let names = Names::numbered(2);
        let ask = || Asked {
            seat: 0,
            token: 0,
            stream: 5,
            budget: 60,
            names: &names,
        };
        let hint = advise_on(game, decision, &set, ask()).unwrap();
        assert_eq!(advise_on(&other, decision, &set, ask()).unwrap(), hint);
        assert!(
            hint.option < decision.len() && hint.weighed.len() > 1,
            "{hint:?}"
        );
    }

    /// A 6-player `black-tower` game some turns in, every seat a person's,
    /// its packs loaded under `load`; its session asks `f`.
    fn six_players_in<T>(load: &LoadOptions, f: impl FnOnce(&Session) -> T) -> T {
        let set = Ruleset::from_variant(&Home::shipped(), load, "black-tower").unwrap();
        let rules = set.rules();
        let mut session = Session::new(&set, rules.as_ref(), &[Seat::Person; 6], 11).unwrap();
        // Turns in, floors on towers: each question's last option.
        for _ in 0..60 {
            let Waiting::Person { decision, .. } = session.waiting() else {
                panic!("people decide");
            };
            let token = session.token();
            session.choose(token, decision.len() - 1).unwrap().unwrap();
        }
        f(&session)
    }

    /// A search whose hooks would spend more than a search may is cut to
    /// fewer iterations, and the hint says so: with a hook budget so small
    /// that 500 iterations exceed it, a 6-player `black-tower` hint
    /// answers, searched with fewer, the same when asked again.
    #[test]
    fn a_hint_that_would_exceed_the_hook_budget_searches_less() {
        let load = LoadOptions::unit_tests().with_hook_budget(400_000);
        let names = Names::numbered(6);
        let (first, again) =
            six_players_in(&load, |s| (advise(s, 500, &names), advise(s, 500, &names)));
        let hint = first.unwrap();
        assert_ne!(hint.bot, "mcts:500", "{hint:?}");
        assert!(hint.reason.contains("iterations asked"), "{}", hint.reason);
        assert_eq!(again.unwrap(), hint);
    }

    /// A limit a hint's search hits names no seed (the game's stays hidden
    /// until it ends), while the same limit hit in a game played as
    /// `simulate` plays its games names the game's seed. The pack's
    /// `on_tile_placed` costs a great deal once a tile is placed after the
    /// start tile, so the game reaches its first question within the
    /// budget and a search, which places a tile, does not (it pays a
    /// point, so that the search's look plays each option's turn out).
    #[test]
    fn a_limit_hit_in_a_hint_names_no_seed_and_one_in_a_played_game_does() {
        let script = "fn on_tile_placed(event) {\n    if game().turn > 0 {\n        \
                      let n = 0;\n        for i in 0..50000 { n += i; }\n    }\n    [points(0, 1, \"costly\")]\n}\n";
        let files = [
            (
                "costly/pack.toml",
                "[pack]\nname = \"costly\"\nrequires = [\"tower\"]\nscript = \"costly.rhai\"\n",
            ),
            ("costly/costly.rhai", script),
        ];
        let home = Home::shipped().holding(
            files
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        );
        let load = LoadOptions::unit_tests().with_hook_budget(200_000);
        let packs = ["tower".to_string(), "costly".to_string()];
        let set = Ruleset::from_packs(&home, &load, &packs).unwrap();
        let (seed, rules) = (7, set.rules());
        let session = Session::new(&set, rules.as_ref(), &[Seat::Person; 2], seed).unwrap();
        let hinted =
            advise(&session, 50, &Names::numbered(2)).expect_err("the search spends past it");
        assert!(
            hinted.message.contains("operations in all"),
            "{}",
            hinted.message
        );
        assert!(!hinted.message.contains("seed"), "{}", hinted.message);
        let rules = set.rules();
        let Err(played) = crate::play::sim::play_random(set.tiles(), rules.as_ref(), 2, seed)
        else {
            panic!("a whole game spends past the budget");
        };
        let played = format!("{played:#}");
        assert!(played.contains("operations in all"), "{played}");
        assert!(played.contains(&format!("(seed {seed})")), "{played}");
    }

    /// The reason names whom the margin is over: the strongest opponent,
    /// or from four players on the strongest and the opponents' mean.
    #[test]
    fn the_reason_says_whom_the_margin_is_over() {
        let weighed = [Weighed {
            option: 0,
            label: "Pass".to_string(),
            value: -1.5,
            searches: 9,
        }];
        let two = reason("mcts:10", &weighed, 2, 10, 2);
        assert!(
            two.contains("to trail the strongest opponent by 1.5"),
            "{two}"
        );
        let four = reason("mcts:10", &weighed, 2, 10, 4);
        assert!(
            four.contains("to trail its opponents (the strongest and their mean) by 1.5"),
            "{four}"
        );
    }
}
