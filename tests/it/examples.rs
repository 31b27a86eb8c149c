//! The example house rules of docs/examples: each shown on hand-built
//! situations through the library and the binary, and kept over hundreds of
//! simulated games, alone and with black-tower and house/no-gaps.

use std::path::{Path, PathBuf};

use towerlab::kernel::board::Board;
use towerlab::kernel::geometry::Pos;
use towerlab::kernel::tiles::SegmentKind;
use towerlab::kernel::{
    CaptureOutcome, EndScore, Event, Game, MeepleOn, MeepleSpot, MeepleView, RansomView, Table,
};
use towerlab::play::bots::BotKind;
use towerlab::play::sim::{self, Batch};
use towerlab::rules::Ruleset;

use crate::common::{fails, home, stdout, succeeds};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/examples")
        .join(name)
}

/// The ruleset of `base` packs followed by the example `name`.
fn ruleset(base: &[&str], name: &str) -> Ruleset {
    let mut packs: Vec<String> = base.iter().map(|s| s.to_string()).collect();
    packs.push(example(name).display().to_string());
    Ruleset::from_packs(&home(), &packs).unwrap_or_else(|e| panic!("{name}: {e:#}"))
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
fn games(set: &Ruleset, games: u64, mut check: impl FnMut(&Game)) {
    let rules = set.rules();
    for seed in 0..games {
        let bots = [BotKind::Random, BotKind::Random];
        let game = sim::play(&set.tiles, rules.as_ref(), &bots, seed, true)
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
                    Event::Score { player, points, .. } => running[*player] += *points as i64,
                    Event::Ransom { scores, .. } => {
                        running = scores.iter().map(|&s| s as i64).collect();
                    }
                    Event::RuleScore {
                        player,
                        points,
                        feature,
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
                    Event::Capture { outcome, .. } => {
                        captures += 1;
                        assert_eq!(*outcome, CaptureOutcome::Home);
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
    let game = Game::new(&set.tiles, rules.as_ref(), 2, 1).unwrap();
    assert_eq!(game.players()[1].floors, vec![11]);
}

#[test]
fn underdog_floors_hold_in_200_games() {
    for base in [&["tower"][..], &COMPOSED[..]] {
        let set = ruleset(base, "underdog-floors");
        let regular = set.floor_kind("regular").unwrap();
        let rules = set.rules();
        let start = Game::new(&set.tiles, rules.as_ref(), 2, 0).unwrap();
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
                bots: &[BotKind::Random, BotKind::Random],
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

// ---- bad input for the new hooks -----------------------------------------

/// A pack folder with `script` as its hooks, over tower.
fn pack_with(script: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pack.toml"),
        "[pack]\nname = \"bad\"\nrequires = [\"tower\"]\nscript = \"bad.rhai\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("bad.rhai"), script).unwrap();
    dir
}

fn simulate_fails(script: &str) -> String {
    let dir = pack_with(script);
    let packs = format!("tower,{}", dir.path().display());
    fails(2, &["simulate", "--packs", &packs, "--games", "20"])
}

#[test]
fn each_new_hook_returning_the_wrong_type_is_a_clear_error() {
    for (script, hook, expected) in [
        (
            "fn seat(seat, players, supply) { 3 }",
            "seat",
            "a map from floor kind",
        ),
        (
            "fn captured(meeple) { true }",
            "captured",
            "\"prisoner\", \"home\" or \"gone\"",
        ),
        ("fn exchange(a, b) { 1 }", "exchange", "a bool"),
        ("fn end(towers) { 5 }", "end", "an array of #{ player"),
        (
            "fn end(towers) { [#{ player: 0 }] }",
            "end",
            "an array of #{ player",
        ),
    ] {
        let err = simulate_fails(script);
        assert!(err.contains(&format!("hook `{hook}`")), "{script}: {err}");
        assert!(err.contains(expected), "{script}: {err}");
    }
}

#[test]
fn an_end_hook_making_a_score_negative_is_a_clear_error() {
    let err =
        simulate_fails("fn end(towers) { [#{ player: 1, points: -1000, feature: \"fine\" }] }");
    assert!(err.contains("`fine`"), "{err}");
    assert!(err.contains("never goes below 0"), "{err}");
}

#[test]
fn an_unknown_context_field_is_an_error_with_the_field_list() {
    let err = simulate_fails("fn may_capture(tower, meeple, board) { game().scroes.len() > 0 }");
    assert!(err.contains("scroes"), "{err}");
    assert!(err.contains("scores, players, current"), "{err}");
    let err = simulate_fails("fn may_capture(tower, meeple, board) { meeple.feature.knd == 1 }");
    assert!(err.contains("kind, tiles, pennants"), "{err}");
    // game() in a hook cached per floor stack.
    let err = simulate_fails("fn may_top(tower) { game().turn > 3 }");
    assert!(
        err.contains("`game()` is not known in hook `may_top`"),
        "{err}"
    );
}

// ---- check ------------------------------------------------------------------

#[test]
fn check_reports_a_misspelt_hook_and_dead_rules_at_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pack.toml"),
        "[pack]\nname = \"dead\"\nrequires = [\"tower\"]\nscript = \"dead.rhai\"\n\n\
         [[floor]]\nname = \"green\"\ncolour = \"#00aa00\"\ndescription = \"Never placeable.\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("dead.rhai"),
        "fn setup(players, foundations) { let s = previous(players, foundations); s.green = 2; s }\n\
         fn may_place_floor(tower, kind) { kind != \"green\" && previous(tower, kind) }\n\
         // `City` is not what meeples stand on (`city` is): nothing is ever taken.\n\
         fn may_capture(tower, meeple, board) { meeple.on == \"City\" }\n\
         fn rnage(tower, reach) { [] }\n",
    )
    .unwrap();
    let out = crate::common::run(&["check", dir.path().to_str().unwrap(), "--games", "10"]);
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert!(
        text.contains("problem: ") && text.contains("`rnage` is not a hook, did you mean `range`?"),
        "{text}"
    );
    assert!(
        text.contains("floor kind `green` was never placeable in 10 test games"),
        "{text}"
    );
    assert!(
        text.contains("hook `may_capture` never allowed a capture"),
        "{text}"
    );
}

// ---- list and info ----------------------------------------------------------

#[test]
fn list_names_every_variant_and_pack_on_one_line_each() {
    let out = stdout(&succeeds(&["list"]));
    for name in [
        "variant tower:",
        "variant black-tower-no-gaps:",
        "pack tower:",
        "pack house/no-gaps:",
    ] {
        assert_eq!(
            out.lines().filter(|l| l.starts_with(name)).count(),
            1,
            "{name} in\n{out}"
        );
    }
}

#[test]
fn info_shows_kinds_parameters_tiles_and_what_each_hook_wraps() {
    let out = stdout(&succeeds(&["info", "black-tower"]));
    assert!(out.contains("floor kind black (#26262b)"), "{out}");
    assert!(
        out.contains("parameter ransom_cost (integer, default 3"),
        "{out}"
    );
    assert!(out.contains("tiles: "), "{out}");
    assert!(
        out.contains("hook range(tower, reach): wraps tower"),
        "{out}"
    );
    let pack = example("underdog-floors");
    let out = stdout(&succeeds(&["info", pack.to_str().unwrap()]));
    assert!(
        out.contains("parameter extra (integer, default 1)"),
        "{out}"
    );
    assert!(
        out.contains("hook seat(seat, players, supply): wraps the default"),
        "{out}"
    );
    assert!(out.contains("requires: tower"), "{out}");
}

#[test]
fn a_meeples_feature_is_what_it_stands_on_with_its_meeples_counted() {
    // Always true when `meeple.feature` is right, so the games are The Tower's.
    let dir = pack_with(
        "fn may_capture(tower, meeple, board) {\n\
         let f = meeple.feature;\n\
         if meeple.on == \"tower\" { return f == (); }\n\
         f.kind == meeple.on && f.meeples[meeple.owner] >= 1 && f.tiles >= 1 && f.open != f.complete\n\
         && game().captor == game().current\n\
         }\n",
    );
    let checked = Ruleset::from_packs(
        &home(),
        &["tower".to_string(), dir.path().display().to_string()],
    )
    .unwrap();
    let plain = Ruleset::from_packs(&home(), &["tower".to_string()]).unwrap();
    let (a, b) = (checked.rules(), plain.rules());
    let bots = [BotKind::Random, BotKind::Random];
    let mut captures = 0;
    for seed in 0..20 {
        let x = sim::play(&checked.tiles, a.as_ref(), &bots, seed, false).unwrap();
        let y = sim::play(&plain.tiles, b.as_ref(), &bots, seed, false).unwrap();
        assert_eq!(x.scores(), y.scores(), "seed {seed}");
        assert_eq!(x.stats(), y.stats(), "seed {seed}");
        captures += x.stats().captures;
    }
    assert!(captures > 0);
}

// ---- per-floor-kind metrics -------------------------------------------------

#[test]
fn simulate_by_kind_shows_a_new_packs_floor_kinds_and_leaves_other_output_alone() {
    let packs = format!("tower,{}", example("red-floor").display());
    let base = [
        "simulate", "--packs", &packs, "--games", "30", "--format", "json",
    ];
    let plain: serde_json::Value = serde_json::from_str(&stdout(&succeeds(&base))).unwrap();
    assert!(plain.get("by_kind").is_none());
    let mut args = base.to_vec();
    args.push("--by-kind");
    let with: serde_json::Value = serde_json::from_str(&stdout(&succeeds(&args))).unwrap();
    assert_eq!(
        plain["metrics"], with["metrics"],
        "the other metrics are unchanged"
    );
    let names: Vec<&str> = with["by_kind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    for name in ["floors.red", "captures.top.red", "towers.top.regular"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let red = &with["by_kind"][1];
    assert_eq!(red["name"], "floors.red");
    assert!(
        red["mean"].as_f64().unwrap() > 0.0,
        "red floors were placed"
    );
}

#[test]
fn kind_counts_add_up_to_the_totals() {
    let set = ruleset(&["tower", "black-tower"], "knights-only");
    games(&set, 30, |g| {
        let s = g.stats();
        assert_eq!(s.floors_by_kind.iter().sum::<u32>(), s.floors_placed);
        assert_eq!(
            s.captures_by_top.iter().sum::<u32>(),
            s.captures + s.own_captures
        );
    });
}

// ---- tiles ------------------------------------------------------------------

#[test]
fn tiles_draws_a_packs_own_tiles_in_every_distinct_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("sheet.svg");
    succeeds(&["tiles", "tower", "--output", sheet.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&sheet).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
    assert!(svg.contains("data-tile=\"tower/F\""));
    assert!(
        !svg.contains("data-tile=\"base/"),
        "only the pack's own tiles"
    );
    // The base set names the start tile, so it draws alone, from its file.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/base/tiles.toml");
    let out = stdout(&succeeds(&["tiles", file]));
    assert!(out.contains("data-tile=\"base/L\""));
    let err = fails(2, &["tiles", "house/no-gaps"]);
    assert!(err.contains("adds no tiles"), "{err}");
}

// ---- caching by what a hook read --------------------------------------------

/// Games under `tower` and the pack `script`, by seed: scores and stats.
fn outcomes(script: &str, seeds: u64) -> Vec<(Vec<u32>, towerlab::kernel::Stats)> {
    let dir = pack_with(script);
    let set = Ruleset::from_packs(
        &home(),
        &["tower".to_string(), dir.path().display().to_string()],
    )
    .unwrap();
    let rules = set.rules();
    let bots = [BotKind::Greedy, BotKind::Random];
    (0..seeds)
        .map(|seed| {
            let g = sim::play(&set.tiles, rules.as_ref(), &bots, seed, false).unwrap();
            (g.scores(), g.stats().clone())
        })
        .collect()
}

#[test]
fn a_may_capture_answer_is_kept_only_when_it_read_nothing_beyond_its_key() {
    // Reads where the meeple stands: must never be served from the cache.
    let by_place = outcomes(
        "fn may_capture(tower, meeple, board) { meeple.dx == 0 && meeple.on != \"field\" }",
        12,
    );
    // The same rule, reading the board too, so never cached anyway.
    let with_board = outcomes(
        "fn may_capture(tower, meeple, board) {\n\
         (board.has_tile(0, 0) || true) && meeple.dx == 0 && meeple.on != \"field\" }",
        12,
    );
    assert_eq!(by_place, with_board);
    // Reads only what the key covers (what it stands on, whose it is): kept.
    let by_kind = outcomes(
        "fn may_capture(tower, meeple, board) { meeple.on != \"field\" && meeple.owner >= 0 }",
        12,
    );
    let by_kind_uncached = outcomes(
        "fn may_capture(tower, meeple, board) {\n\
         meeple.on != \"field\" && meeple.owner >= 0 && game().turn >= 0 }",
        12,
    );
    assert_eq!(by_kind, by_kind_uncached);
    assert_ne!(by_place, by_kind, "the rules differ, so do some games");
}

#[test]
fn check_lists_the_problems_of_every_pack_of_a_variant_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for (name, script) in [
        ("a", "fn range(tower, reach) { [[0, 0]"),
        ("b", "fn reach(tower) { tower.height +* 1 }"),
    ] {
        let pack = dir.path().join(name);
        std::fs::create_dir(&pack).unwrap();
        std::fs::write(
            pack.join("pack.toml"),
            format!("[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"s.rhai\"\n"),
        )
        .unwrap();
        std::fs::write(pack.join("s.rhai"), script).unwrap();
    }
    let variant = dir.path().join("two.toml");
    std::fs::write(
        &variant,
        "name = \"two\"\npacks = [\"tower\", \"./a\", \"./b\"]\n",
    )
    .unwrap();
    let out = crate::common::run(&["check", variant.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    let problems: Vec<&str> = text.lines().filter(|l| l.starts_with("problem:")).collect();
    assert_eq!(problems.len(), 2, "{text}");
    assert!(problems[0].contains("a/s.rhai:1:"), "{text}");
    assert!(problems[1].contains("b/s.rhai:1:"), "{text}");
}
