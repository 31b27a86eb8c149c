//! Where a tile may go (`may_place_tile`; the test pack `tests/packs/halves`:
//! even seats place at x ≥ 0, odd seats at x ≤ 0): the bots, `check`, the
//! scenarios and the log referee all take placements from the kernel's one
//! list, a tile allowed nowhere is discarded (G1), and the memo keeps each
//! answer by what it read.

use std::path::Path;

use towerlab::kernel::{Event, Game};
use towerlab::play::bots::BotKind;
use towerlab::play::sim;
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common::{TowerPack, fails, home, run, stderr, stdout, succeeds, temp_dir};

/// The test pack's folder.
fn halves() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/packs/halves")
        .display()
        .to_string()
}

fn ruleset(packs: &[&str]) -> Ruleset {
    let packs: Vec<String> = packs.iter().map(|p| p.to_string()).collect();
    Ruleset::from_packs(&home(), &LoadOptions::default(), &packs)
        .unwrap_or_else(|e| panic!("{e:#}"))
}

/// The tiles each seat placed on the wrong side of the start column, and
/// all tiles placed, over three games of greedy against random.
fn wrong_sides(set: &Ruleset) -> (usize, usize) {
    let rules = set.rules();
    let (mut wrong, mut all) = (0, 0);
    for seed in 0..3 {
        let game = sim::play(
            set,
            rules.as_ref(),
            &[BotKind::GREEDY, BotKind::RANDOM],
            seed,
            true,
        )
        .unwrap_or_else(|e| panic!("{e:#}"));
        for e in game.events() {
            if let Event::Tile { player, pos, .. } = e {
                all += 1;
                let mine = if player % 2 == 0 {
                    pos.x >= 0
                } else {
                    pos.x <= 0
                };
                wrong += usize::from(!mine);
            }
        }
    }
    (wrong, all)
}

#[test]
fn the_bots_are_offered_only_the_placements_the_rule_allows() {
    let (wrong, all) = wrong_sides(&ruleset(&["tower", &halves()]));
    assert!(all > 60, "{all} tiles placed");
    assert_eq!(
        wrong, 0,
        "{wrong} of {all} tiles on their placer's wrong side"
    );
    // The same games under The Tower alone go both ways.
    let (wrong, _) = wrong_sides(&ruleset(&["tower"]));
    assert!(wrong > 0);
}

#[test]
fn a_tile_allowed_nowhere_is_discarded() {
    // G1: a drawn tile that fits nowhere (the rules allowing) is discarded.
    let pack = TowerPack::new(
        "nowhere",
        "fn may_place_tile(tile, x, y, rot) { tile != \"base/L\" }\n",
    );
    let set = pack.ruleset();
    let rules = set.rules();
    let game = sim::play(&set, rules.as_ref(), &[BotKind::RANDOM; 2], 1, true).unwrap();
    let cloister = set.tiles().find("base/L").unwrap() as u16;
    let placed = game
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Tile { kind, .. } if *kind == cloister))
        .count();
    let discarded = game
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Discard { kind } if *kind == cloister))
        .count();
    assert_eq!(placed, 0);
    assert_eq!(discarded, 4, "every base/L of the deck discarded");
}

#[test]
fn its_answers_are_kept_by_what_they_read() {
    let set = ruleset(&["tower", &halves()]);
    let rules = set.script_rules().expect("scripted");
    let mut game = Game::new(set.tiles(), &rules, 2, 5).unwrap();
    let tile = game.draw().unwrap().expect("a tile");
    let mut first = Vec::new();
    game.placements(tile, &mut first).unwrap();
    let runs = rules.hook_runs();
    let mut again = Vec::new();
    game.placements(tile, &mut again).unwrap();
    assert_eq!(first, again);
    assert_eq!(rules.hook_runs(), runs, "asked again: every answer kept");
    // Another seat to act reads another `game().actor`: asked again.
    let mut other = game.clone();
    other.end_turn().unwrap();
    assert_eq!(other.current(), 1);
    let mut theirs = Vec::new();
    other.placements(tile, &mut theirs).unwrap();
    assert!(rules.hook_runs() > runs);
    assert!(first.iter().all(|p| p.pos.x >= 0) && theirs.iter().all(|p| p.pos.x <= 0));
}

/// Its arguments are reads, taken when the script names them: a rule that
/// decides on the tile alone runs once for each kind of tile a game
/// draws, not once for each placement offered; one that reads where
/// runs again for each new cell.
#[test]
fn an_answer_that_read_only_the_tile_is_kept_for_every_placement_of_it() {
    let runs = |script: &str| {
        let pack = TowerPack::new("tile-rule", script);
        let set = pack.ruleset();
        let rules = set.script_rules().expect("scripted");
        rules.count_runs();
        sim::play(&set, &rules, &[BotKind::RANDOM; 2], 3, true).unwrap();
        let runs = rules.runs().into_iter();
        runs.filter(|r| r.hook.name() == "may_place_tile")
            .map(|r| r.runs)
            .sum::<u64>()
    };
    let by_tile = runs("fn may_place_tile(tile, x, y, rot) { tile != \"base/L\" }\n");
    let by_cell = runs("fn may_place_tile(tile, x, y, rot) { tile == \"base/L\" || x < y }\n");
    let kinds = 24 + 18;
    assert!(by_tile <= kinds, "{by_tile} runs for at most {kinds} kinds");
    assert!(by_cell > 4 * by_tile, "read the cell: {by_cell} runs");
}

#[test]
fn check_plays_by_it_and_flags_a_rule_that_allows_nothing() {
    let text = stdout(&succeeds(&["check", &halves(), "--games", "4"]));
    assert!(text.contains("ok:"), "{text}");
    assert!(text.contains("hook `may_place_tile`"), "{text}");
    assert!(!text.contains("never allowed"), "{text}");
    let pack = TowerPack::new("never", "fn may_place_tile(tile, x, y, rot) { false }\n");
    let out = run(&["check", &pack.path, "--games", "4"]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(
        text.contains("hook `may_place_tile` never allowed a placement"),
        "{text}"
    );
    // A rule that throws ends with its error, naming the pack, the hook
    // and the line.
    let pack = TowerPack::new(
        "throws",
        "fn may_place_tile(tile, x, y, rot) { throw \"no\" }\n",
    );
    let out = run(&["check", &pack.path, "--games", "2"]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("hook `may_place_tile`: ") && text.contains("throws.rhai:1:"),
        "{text}"
    );
}

#[test]
fn its_scenarios_pass() {
    let packs = format!("tower,{}", halves());
    let out = succeeds(&["test", &packs, "--verbose"]);
    assert!(
        stdout(&out).contains("3 passed, 0 failed"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_referee_refuses_a_log_placing_a_tile_where_the_rule_forbids() {
    // A log played under a pack that allows every placement, then read
    // under one whose rule keeps even seats east: its first tile placed
    // west by an even seat is refused.
    let pack = TowerPack::new("side", "fn may_place_tile(tile, x, y, rot) { x > -1000 }\n");
    let dir = temp_dir("tile-rules-log");
    let log = dir.path().join("g.jsonl");
    let log = log.to_str().unwrap();
    succeeds(&[
        "simulate",
        "--packs",
        &pack.packs(),
        "--games",
        "1",
        "--seed",
        "3",
        "--log",
        log,
    ]);
    succeeds(&["replay", log]);
    let text = std::fs::read_to_string(log).unwrap();
    assert!(text.contains("x > -1000"));
    std::fs::write(
        log,
        text.replace("x > -1000", "x >= 0 || game().actor % 2 == 1"),
    )
    .unwrap();
    let err = fails(1, &["replay", log]);
    assert!(
        err.contains("the rules do not let it go there (may_place_tile)"),
        "{err}"
    );
}

/// The guide's page on `may_place_tile` (docs/how-to/where-tiles-go.md) shows the test
/// pack's script and its second scenario as they are.
#[test]
fn g1_the_guide_shows_the_halves_pack_and_a_refused_placement_as_they_are() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/how-to/where-tiles-go.md")).unwrap();
    let script = std::fs::read_to_string(root.join("tests/packs/halves/halves.rhai")).unwrap();
    assert!(guide.contains(&format!("```rhai\n{script}```")));
    let scenarios =
        std::fs::read_to_string(root.join("tests/packs/halves/tests/halves.toml")).unwrap();
    let refused = scenarios.split("\n[[scenario]]").nth(2).unwrap();
    assert!(refused.contains("refused = true"));
    assert!(guide.contains(&format!("```toml\n[[scenario]]{refused}```")));
}
