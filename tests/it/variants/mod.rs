//! Invariants over every shipped variant (every `variants/*.toml`, listed when
//! the tests run, so a new variant is covered without touching this file).
//! Games are played turn by turn with the bots of `BotKind::ALL` mixed over
//! the seats and 2–6 players, and checked as they go:
//!
//! - meeples add up: board + supply + held as prisoners by others = 7 (G3,
//!   T5, T10, T11);
//! - scores move only by the points scored and the ransoms received, less the
//!   ransoms paid, so they fall only by a ransom (T11, T12);
//! - every capture offered is inside the range the variant gives at that
//!   moment, and every meeple inside it is offered (T5, T6, T9, B6, B7, H1–H4);
//! - every ransom offered or paid is one the variant allows (T11, H2);
//! - the games' log replays under its rules, and `simulate` writes the same
//!   log bytes on one thread and on two.
//!
//! Here: the games played with every check and their logs replayed; the
//! checks themselves are [`checks`].

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use towerlab::kernel::geometry::Pos;
use towerlab::kernel::{
    Action, Bot, Buffers, CaptureChoice, Decision, Event, Game, MEEPLES_PER_PLAYER, RansomChoice,
    StackView, play_turn,
};
use towerlab::play::bots::{BotKind, Level};
use towerlab::play::log::{self, LogContext};
use towerlab::play::query::{BoardMap, capture_cells};
use towerlab::play::seed::game_seed;
use towerlab::play::sim::{Batch, simulate};
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common;

mod checks;

use checks::{Checked, Seen, Where, check_meeples, check_scores};

/// Games per variant in the regular run.
const GAMES: u64 = 200;
/// Games per variant in the long run (`cargo test -- --ignored`).
const LONG_GAMES: u64 = 2000;
/// Games whose log is replayed at a time (so a long run's log is never held
/// whole).
const REPLAY_CHUNK: u64 = 250;
/// Games per variant played on one thread and on two.
const THREAD_GAMES: u64 = 64;
/// The master seed of these runs.
const MASTER: u64 = 0x7A21_A7E5;

/// The names of every shipped variant, from `variants/*.toml`.
fn shipped_variants() -> Vec<String> {
    let dir = common::variants_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            if path.extension()? != "toml" {
                return None;
            }
            Some(path.file_stem()?.to_str()?.to_string())
        })
        .collect();
    names.sort();
    for expected in ["tower", "black-tower"] {
        assert!(
            names.iter().any(|n| n == expected),
            "variant `{expected}` is shipped: {names:?}"
        );
    }
    names
}

fn load(variant: &str) -> Ruleset {
    Ruleset::from_variant(&common::home(), &LoadOptions::default(), variant)
        .unwrap_or_else(|e| panic!("variant `{variant}` loads: {e:#}"))
}

/// Players of game `g`: 2 to 6 in turn.
fn players_of(g: u64) -> usize {
    2 + (g % 5) as usize
}

/// The bot kinds of game `g`'s seats: every kind of `BotKind::ALL`, mixed,
/// each searching bot on a budget of one iteration per decision so that the
/// games stay quick (its search, playouts and backup still run).
fn bots_of(g: u64, players: usize) -> Vec<BotKind> {
    let all: Vec<BotKind> = BotKind::ALL
        .iter()
        .map(|&b| match b.level {
            Level::Mcts(_) => BotKind::mcts(1),
            Level::Baseline(_) => BotKind::baseline(1),
            _ => b,
        })
        .collect();
    (0..players)
        .map(|seat| all[(g as usize + seat) % all.len()])
        .collect()
}

/// The log of `games` games replays under the rules it names, record by
/// record.
fn replay_log(variant: &str, text: &str, games: u64) {
    let file = common::ScratchFile::new(&format!("{variant}.jsonl"));
    file.write(text);
    let replayed = towerlab::play::replay::replay(
        &common::home(),
        &LoadOptions::default(),
        Path::new(file.path()),
    )
    .unwrap_or_else(|e| panic!("{variant}: the log does not replay: {e:#}"));
    assert_eq!(replayed.games, games as usize, "{variant}: games replayed");
    assert_eq!(
        replayed.events,
        text.lines().count(),
        "{variant}: every record replayed"
    );
}

/// Play `games` games of `variant` turn by turn with every check, then replay
/// their log. Returns what the checks saw.
fn check_variant(variant: &str, games: u64) -> Seen {
    let set = load(variant);
    let rules = set.rules();
    let floors: Vec<String> = set.floors().iter().map(|f| f.name.clone()).collect();
    let seen = Rc::new(RefCell::new(Seen::default()));
    let ctx = Rc::new(RefCell::new(Where::default()));
    let mut text = String::new();
    let mut buf = Buffers::default();
    for g in 0..games {
        let seed = game_seed(MASTER, g);
        let players = players_of(g);
        let kinds = bots_of(g, players);
        *ctx.borrow_mut() = Where {
            variant: variant.to_string(),
            game: g,
            seed,
            bots: kinds.clone(),
            turn: 0,
        };
        let mut game = Game::new(set.tiles(), rules.as_ref(), players, seed)
            .unwrap_or_else(|e| panic!("{}: the game starts: {e:#}", ctx.borrow()));
        game.record_events();
        let mut bots: Vec<Box<dyn Bot>> = kinds
            .iter()
            .enumerate()
            .map(|(seat, k)| {
                Box::new(Checked {
                    inner: k.make(seed, seat, set.worths()),
                    ctx: ctx.clone(),
                    seen: seen.clone(),
                    floor_on: None,
                }) as Box<dyn Bot>
            })
            .collect();
        let mut scores = game.scores();
        let mut from = 0;
        loop {
            ctx.borrow_mut().turn += 1;
            let more = play_turn(&mut game, &mut bots, &mut buf)
                .unwrap_or_else(|e| panic!("{}: {e:#}", ctx.borrow()));
            if !more {
                break;
            }
            let here = ctx.borrow();
            let events = &game.events()[from..];
            from = game.events().len();
            let paid = check_scores(&here, &game, &scores, events);
            let captures = events
                .iter()
                .filter(|e| matches!(e, Event::Capture { .. }))
                .count() as u64;
            let mut seen = seen.borrow_mut();
            assert!(
                !seen.capture_due,
                "{here}: a floor was placed with a meeple in range, but no capture was offered"
            );
            seen.ransoms += paid;
            seen.captures += captures;
            scores = game.scores();
            check_meeples(&here, &game);
        }
        game.final_scoring().unwrap();
        ctx.borrow_mut().turn = 0;
        let here = ctx.borrow();
        check_scores(&here, &game, &scores, &game.events()[from..]);
        assert!(
            matches!(game.events().last(), Some(Event::End { .. })),
            "{here}: the last event is End"
        );
        check_meeples(&here, &game);
        drop(here);
        let log_ctx = LogContext {
            game: g,
            seed,
            packs: set.pack_names(),
            params: set.params(),
            pack_files: &set.pack_files(),
            players,
            tiles: set.tiles(),
            floors: &floors,
        };
        log::write_lines(&log::records(&log_ctx, game.events()), &mut text).unwrap();
        if (g + 1) % REPLAY_CHUNK == 0 || g + 1 == games {
            replay_log(variant, &text, g % REPLAY_CHUNK + 1);
            text.clear();
        }
    }

    // The run must have exercised what it checks.
    let seen = Rc::try_unwrap(seen)
        .map(RefCell::into_inner)
        .unwrap_or_else(|_| panic!("bots are dropped"));
    if set.tiles().foundation_tiles() == 0 {
        // The base game alone: no tower can stand, so none may capture.
        assert_eq!(
            (seen.floor_checks, seen.captures, seen.ransoms),
            (0, 0, 0),
            "{variant}: towers without a foundation: {seen:?}"
        );
        return seen;
    }
    assert!(
        seen.floor_checks > 0 && seen.offered > 0 && seen.captures > 0,
        "{variant}: no capture was checked: {seen:?}"
    );
    let ransom_rule =
        (0..50).any(|s| matches!(crate::common::ransom_of(&*rules, s, 0), Ok(Some(_))));
    if ransom_rule {
        assert!(
            seen.ransom_offers > 0 && seen.ransoms > 0,
            "{variant}: no ransom was checked: {seen:?}"
        );
    } else {
        assert_eq!(
            (seen.ransom_offers, seen.ransoms),
            (0, 0),
            "{variant}: a ransom without a ransom rule (H2)"
        );
    }
    seen
}

/// The concatenated logs of a `simulate` batch.
fn batch_log(set: &Ruleset, bots: &[BotKind], games: u64, threads: usize) -> String {
    let batch = Batch {
        set,
        bots,
        games,
        master_seed: MASTER,
        threads,
        log: true,
    };
    let mut text = String::new();
    let results = simulate(&batch, &|_| {}, |r| {
        text.push_str(r.log.as_deref().expect("a log was asked for"));
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{}: simulate: {e:#}", set.name()));
    assert_eq!(results.len(), games as usize);
    text
}

/// Run `check` on every shipped variant, spread over the cores.
fn each_variant(check: impl Fn(&str) + Sync) {
    let variants = shipped_variants();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..workers.min(variants.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(v) = variants.get(i) else { break };
                    let start = Instant::now();
                    check(v);
                    eprintln!("{v}: {:.1} s", start.elapsed().as_secs_f64());
                }
            });
        }
    });
}

#[test]
fn t5_t11_g3_invariants_hold_in_every_shipped_variant() {
    each_variant(|v| {
        check_variant(v, GAMES);
    });
}

#[test]
fn every_shipped_variant_logs_the_same_bytes_on_one_and_two_threads() {
    each_variant(|v| {
        let set = load(v);
        // 3 players, every bot kind in turn.
        let bots = bots_of(0, 3);
        let one = batch_log(&set, &bots, THREAD_GAMES, 1);
        let two = batch_log(&set, &bots, THREAD_GAMES, 2);
        assert_eq!(
            one.lines()
                .filter(|l| l.contains(r#""event":"start""#))
                .count(),
            THREAD_GAMES as usize,
            "{v}: one start record per game"
        );
        assert!(one == two, "{v}: the log differs between 1 and 2 threads");
    });
}

#[test]
#[ignore = "long: 2,000 games per variant; run with `cargo test -- --ignored`"]
fn t5_t11_g3_invariants_hold_in_every_shipped_variant_over_2000_games() {
    each_variant(|v| {
        check_variant(v, LONG_GAMES);
    });
}
