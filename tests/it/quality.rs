//! The game-quality metrics (docs/metrics.md): each counted from
//! hand-built score histories and decisions, turned into per-game metrics
//! from a game row, recorded the same way however a game is driven, and
//! merged across shards exactly as one process computes them.

use serde_json::Value;
use towerlab::analysis::stats::{self, GameRow};
use towerlab::play::bots::BotKind;
use towerlab::play::course::{Choices, Course};
use towerlab::play::sim;
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common::{Scratch, home, stdout, succeeds};
use crate::shards::{merge, metrics_text, shards};

/// The course of a two-seat game with these scores after each turn, the
/// last entry being the final scores.
fn course(history: &[[u32; 2]]) -> Course {
    let h: Vec<Vec<u32>> = history.iter().map(|s| s.to_vec()).collect();
    Course::of(&h, Choices::default())
}

#[test]
fn a_game_led_from_the_first_turn_has_no_lead_change_and_is_decided_at_once() {
    let c = course(&[[3, 0], [3, 2], [8, 2], [8, 6], [20, 9]]);
    assert_eq!(c.lead_changes, 0);
    assert_eq!(c.decided_at, 0, "seat 1 led after every turn");
    assert_eq!(c.drama, 0, "the winner was never behind");
    assert_eq!(c.comeback, 0);
}

#[test]
fn three_lead_changes_are_counted_and_the_last_decides() {
    // Leaders: A, B, A, (tie), B, B: A→B, B→A, A→B.
    let c = course(&[[2, 0], [2, 5], [9, 5], [9, 9], [9, 12], [15, 20]]);
    assert_eq!(c.lead_changes, 3);
    assert_eq!(c.decided_at, 4, "B led alone for good from turn 5 of 5");
    assert_eq!(c.drama, 4, "B's worst deficit: 9 - 5 after turn 4");
    assert_eq!(c.comeback, 1, "B trailed after turn 3, the middle of 5");
}

#[test]
fn a_comeback_won_in_final_scoring_is_decided_at_the_end() {
    // Seat 2 trails all game by up to 30 points and wins on farms.
    let c = course(&[[10, 0], [20, 4], [30, 6], [38, 8], [40, 44]]);
    assert_eq!(c.comeback, 1);
    assert_eq!(c.drama, 30);
    assert_eq!(c.lead_changes, 1);
    assert_eq!(c.decided_at, 4, "the lead came only after final scoring");
}

#[test]
fn a_tied_game_is_decided_only_at_its_end_and_is_no_comeback() {
    let c = course(&[[0, 4], [6, 4], [6, 8], [10, 10]]);
    assert_eq!(c.decided_at, 3, "no sole winner: all 3 turns");
    assert_eq!(c.comeback, 0);
    // Of the two tied winners, seat 2 was at worst 2 behind, seat 1 4.
    assert_eq!(c.drama, 2);
    assert_eq!(c.lead_changes, 2);
}

#[test]
fn three_seats_lead_and_trail_in_turn() {
    // Leaders: seat 1, seat 3, seat 1, seat 2, seat 2 (final).
    let h: Vec<Vec<u32>> = vec![
        vec![5, 0, 0],
        vec![5, 3, 8],
        vec![12, 3, 9],
        vec![12, 13, 9],
        vec![12, 20, 15],
    ];
    let c = Course::of(&h, Choices::default());
    assert_eq!(c.lead_changes, 3);
    assert_eq!(c.decided_at, 3, "seat 2 led alone from turn 4 of 4");
    assert_eq!(c.drama, 9, "seat 2 was 12 - 3 behind after turn 3");
    assert_eq!(c.comeback, 1, "seat 2 trailed seat 3 after turn 2");
}

/// A two-seat row with these final scores, turns and course counts.
fn row(scores: [u32; 2], turns: u32, course: [u32; 7]) -> GameRow {
    let mut v = scores.to_vec();
    v.extend([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, turns]);
    v.extend(course);
    GameRow(v)
}

fn metric(row: &GameRow, name: &str) -> f64 {
    let at = stats::metric_names(2)
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no metric {name}"));
    row.metrics()[at]
}

#[test]
fn a_row_gives_shares_of_turns_and_decisions_ties_and_spread() {
    // 40 turns, decided after 10; 4 lead changes, drama 12, a comeback;
    // 100 decisions with 750 options, 20 of them forced.
    let r = row([90, 75], 40, [4, 10, 12, 1, 100, 750, 20]);
    assert_eq!(metric(&r, "lead_changes"), 4.0);
    assert_eq!(metric(&r, "decisiveness"), 0.25);
    assert_eq!(metric(&r, "drama"), 12.0);
    assert_eq!(metric(&r, "comeback"), 1.0);
    assert_eq!(metric(&r, "ties"), 0.0);
    assert_eq!(metric(&r, "branching"), 7.5);
    assert_eq!(metric(&r, "forced"), 0.2);
    assert_eq!(metric(&r, "spread"), 15.0);
    let tie = row([60, 60], 40, [2, 40, 3, 0, 90, 90, 90]);
    assert_eq!(metric(&tie, "ties"), 1.0);
    assert_eq!(metric(&tie, "decisiveness"), 1.0);
    assert_eq!(metric(&tie, "forced"), 1.0);
    assert_eq!(metric(&tie, "spread"), 0.0);
}

#[test]
fn every_metric_is_defined_in_the_glossary() {
    for players in 2..=6 {
        for name in stats::metric_names(players) {
            let d =
                stats::glossary::definition(&name).unwrap_or_else(|| panic!("{name} undefined"));
            assert!(!d.meaning.is_empty() && !d.unit.is_empty(), "{name}");
        }
    }
    let kinds = ["regular".to_string(), "black".to_string()];
    for name in stats::kind_metric_names(&kinds) {
        assert!(
            stats::glossary::definition(&name).is_some(),
            "{name} undefined"
        );
    }
}

#[test]
fn a_game_counts_the_same_course_however_it_is_driven() {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "black-tower")
        .expect("black-tower loads");
    let rules = set.rules();
    let bots = [BotKind::GREEDY, BotKind::RANDOM];
    for seed in [3, 17] {
        let (game, course) = sim::play_with_course(
            set.tiles(),
            rules.as_ref(),
            &bots,
            set.worths(),
            seed,
            false,
        )
        .unwrap();
        // The same game stepped turn by turn, its scores read after each.
        let mut history = Vec::new();
        let observed = sim::play_observed(
            set.tiles(),
            rules.as_ref(),
            &bots,
            set.worths(),
            seed,
            |g| {
                history.push(g.scores());
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(observed.scores(), game.scores());
        // The observer sees the start, every turn, and final scoring.
        let turns = game.stats().turns as usize;
        assert_eq!(history.len(), turns + 2);
        let replayed = Course::of(&history[1..], Choices::default());
        assert_eq!(
            (
                course.lead_changes,
                course.decided_at,
                course.drama,
                course.comeback
            ),
            (
                replayed.lead_changes,
                replayed.decided_at,
                replayed.drama,
                replayed.comeback
            ),
            "seed {seed}"
        );
        // Every turn asks a placement and an action at least.
        assert!(course.decisions >= 2 * game.stats().turns, "seed {seed}");
        assert!(course.options >= course.decisions);
        assert!(course.forced <= course.decisions);
        assert!(course.decided_at <= game.stats().turns);
    }
}

#[test]
fn merged_shards_give_the_game_quality_metrics_of_one_process() {
    let dir = Scratch::new("quality");
    let line = "compare tower black-tower --games 24 --bots greedy,random --seed 5";
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.extend(["--format", "json"]);
    let whole = stdout(&succeeds(&args));
    let parts = shards(line, 3, &dir);
    let merged = merge(&parts, "json");
    assert_eq!(metrics_text(&merged), metrics_text(&whole));
    let json: Value = serde_json::from_str(&whole).unwrap();
    let names: Vec<&str> = json["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    for name in [
        "lead_changes",
        "decisiveness",
        "drama",
        "comeback",
        "ties",
        "branching",
        "forced",
        "spread",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    // Greedy against random: the branching factor is well above one
    // option, and some game changes the lead.
    let mean = |name: &str| {
        json["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .unwrap()["values"][0]["mean"]
            .as_f64()
            .unwrap()
    };
    assert!(mean("branching") > 2.0, "{}", mean("branching"));
    assert!(mean("lead_changes") > 0.0);
}

#[test]
fn docs_define_every_metric_in_one_table_as_compare_explain_does() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/metrics.md"))
        .expect("docs/metrics.md");
    let rows: Vec<&str> = docs.lines().filter(|l| l.starts_with("| `")).collect();
    assert_eq!(
        rows.len(),
        stats::glossary::GLOSSARY.len(),
        "one row per metric"
    );
    let explained = stdout(&succeeds(&["compare", "--explain", "--width", "400"]));
    for d in &stats::glossary::GLOSSARY {
        let row = format!("| `{}` | {} | {} |", d.name, d.unit, d.meaning);
        assert!(rows.contains(&row.as_str()), "docs/metrics.md lacks {row}");
        let line = explained
            .lines()
            .find(|l| l.starts_with(&format!("│ {} ", d.name)))
            .unwrap_or_else(|| panic!("--explain lacks {}", d.name));
        assert!(line.contains(d.meaning) && line.contains(d.unit), "{line}");
    }
    let words = explained.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("Holm's step-down method"), "{words}");
    assert!(words.contains("Student's t"), "{words}");
}
