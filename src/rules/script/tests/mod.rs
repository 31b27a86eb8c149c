//! The memo at work: answers kept under what their calls read are given
//! again — without running a script, at the cost a first asking charges —
//! exactly where every read agrees, for every kind of read.

use std::sync::Arc;

use crate::kernel::capture::capturable;
use crate::kernel::geometry::Pos;
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{
    Answer, Asking, Board, FloorKind, Holds, HookBudget, Meeple, MeepleOn, MeepleSpot, Rules,
    StackView, Table, TowerView,
};
use crate::rules::ruleset::Implementation;
use crate::rules::script::ScriptRules;
use crate::rules::{Home, LoadOptions, Ruleset};

fn shipped() -> Home {
    Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
}

fn rules(packs: &[&str]) -> (Ruleset, ScriptRules) {
    rules_in(&LoadOptions::unit_tests(), packs)
}

fn rules_in(load: &LoadOptions, packs: &[&str]) -> (Ruleset, ScriptRules) {
    let packs: Vec<String> = packs.iter().map(|p| p.to_string()).collect();
    let set = Ruleset::from_packs(&shipped(), load, &packs).unwrap();
    let Implementation::Script(scripts) = &set.implementation else {
        panic!("scripted packs");
    };
    let rules = ScriptRules::new(Arc::clone(scripts));
    (set, rules)
}

/// The Tower, then a pack of `script` (kept alive with the folder).
fn with_pack(script: &str) -> (tempfile::TempDir, Ruleset, ScriptRules) {
    with_pack_in(&LoadOptions::unit_tests(), script)
}

/// [`with_pack`], the packs loaded under `load` (its limits).
fn with_pack_in(load: &LoadOptions, script: &str) -> (tempfile::TempDir, Ruleset, ScriptRules) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pack.toml"),
        "[pack]\nname = \"probe\"\nrequires = [\"tower\"]\nscript = \"probe.rhai\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("probe.rhai"), script).unwrap();
    let path = dir.path().display().to_string();
    let (set, rules) = rules_in(load, &["tower", &path]);
    (dir, set, rules)
}

fn kind(set: &Ruleset, name: &str) -> FloorKind {
    set.floors.iter().position(|f| f.name == name).unwrap() as FloorKind
}

/// (answers, pack functions run) of `may_place_floor` of kind 0 about a
/// bare foundation whose (made-up) top meeple is `owner`'s, asked by every
/// seat of six at a table with `scores`.
fn ask_all(rules: &ScriptRules, owner: Option<usize>, scores: &[u32]) -> (Vec<Answer>, u64) {
    let board = Board::new();
    let table = Table {
        scores,
        ..Table::bare(&board, scores.len())
    };
    let stack = StackView {
        floors: &[],
        topped: false,
    };
    let before = rules.hook_runs();
    let answers = (0..scores.len())
        .map(|seat| {
            let asking = Asking {
                seat,
                owner,
                tower: None,
                table: &table,
            };
            rules.may_place_floor(&stack, 0, &asking).unwrap()
        })
        .collect();
    (answers, rules.hook_runs() - before)
}

const SIX: [u32; 6] = [0; 6];

#[test]
fn an_answer_that_read_no_seat_is_worked_out_once_for_every_seat() {
    let (_d, _, rules) = with_pack("fn may_place_floor(tower, kind) { previous(tower, kind) }");
    let (answers, runs) = ask_all(&rules, None, &SIX);
    assert_eq!(runs, 2, "the pack and tower's, once for six seats");
    assert!(answers.iter().all(|a| *a == Answer::lasting(true)));
    assert_eq!(ask_all(&rules, None, &SIX).1, 0, "all kept");
}

#[test]
fn an_answer_that_read_the_seat_is_kept_per_seat() {
    let (_d, _, rules) =
        with_pack("fn may_place_floor(tower, kind) { game().actor == 0 && previous(tower, kind) }");
    let (answers, runs) = ask_all(&rules, None, &SIX);
    assert_eq!(
        runs,
        2 + 5,
        "seat 0 asks tower's too; seats 1-5 stop at the pack"
    );
    let yes: Vec<bool> = answers.iter().map(|a| a.yes).collect();
    assert_eq!(yes, [true, false, false, false, false, false]);
    assert!(answers.iter().all(|a| a.holds == Holds::Seat));
    assert_eq!(ask_all(&rules, None, &SIX).1, 0, "all kept, per seat");
}

#[test]
fn an_answer_that_read_the_owner_is_kept_per_owner_for_every_seat() {
    let (_d, _, rules) = with_pack("fn may_place_floor(tower, kind) { tower.meeple_owner != 1 }");
    let (answers, runs) = ask_all(&rules, Some(1), &SIX);
    assert_eq!(runs, 1);
    assert!(answers.iter().all(|a| *a == Answer::lasting(false)));
    let (answers, runs) = ask_all(&rules, Some(2), &SIX);
    assert_eq!(runs, 1, "another owner: asked again, once");
    assert!(answers.iter().all(|a| *a == Answer::lasting(true)));
    assert_eq!(ask_all(&rules, Some(1), &SIX).1, 0, "both kept");
}

#[test]
fn an_answer_that_read_the_raw_scores_is_kept_by_them_and_holds_until_the_standings_change() {
    let (_d, _, rules) = with_pack("fn may_place_floor(tower, kind) { game().scores[0] == 0 }");
    let (answers, runs) = ask_all(&rules, None, &SIX);
    assert_eq!(runs, 1, "the same scores for every seat");
    assert!(answers.iter().all(|a| a.yes && a.holds == Holds::Standings));
    assert_eq!(
        ask_all(&rules, None, &SIX).1,
        0,
        "the same scores again: kept"
    );
    let (answers, runs) = ask_all(&rules, None, &[0, 0, 0, 0, 0, 7]);
    assert_eq!(runs, 1, "another score: asked again, once");
    assert!(answers.iter().all(|a| a.yes));
    let (answers, _) = ask_all(&rules, None, &[3, 0, 0, 0, 0, 0]);
    assert!(answers.iter().all(|a| !a.yes));
}

#[test]
fn an_answer_that_read_the_moment_holds_only_now() {
    let (_d, _, rules) = with_pack(
        "fn may_place_floor(tower, kind) { game().scores[0] == 0 && game().tiles_left > 3 }",
    );
    let (answers, _) = ask_all(&rules, None, &SIX);
    assert!(answers.iter().all(|a| a.holds == Holds::Now), "{answers:?}");
}

/// A rule on standings is kept by the standing it read, not by the scores:
/// scores that move without changing who is last ask nothing again.
#[test]
fn an_answer_that_read_a_rank_is_kept_by_the_rank() {
    let (_d, _, rules) = with_pack(
        "fn may_place_floor(tower, kind) { game().rank(game().actor) == game().players }",
    );
    let (answers, runs) = ask_all(&rules, None, &[5, 4, 3, 2, 1, 0]);
    assert_eq!(runs, 6, "six seats of six ranks");
    let yes: Vec<bool> = answers.iter().map(|a| a.yes).collect();
    assert_eq!(yes, [false, false, false, false, false, true]);
    assert!(answers.iter().all(|a| a.holds == Holds::Standings));
    let (answers, runs) = ask_all(&rules, None, &[50, 40, 30, 20, 10, 0]);
    assert_eq!(runs, 0, "the same ranks");
    assert_eq!(answers.iter().filter(|a| a.yes).count(), 1);
    let (answers, runs) = ask_all(&rules, None, &[0, 40, 30, 20, 10, 50]);
    assert!(runs > 0 && answers[0].yes && !answers[5].yes);
}

#[test]
fn the_leader_last_and_ahead_reads_answer_as_the_scores_say() {
    let (_d, _, rules) = with_pack(
        "fn may_place_floor(tower, kind) {\n\
         let g = game();\n\
         g.leader == 2 && g.last == 0 && g.ahead(1, 0) && !g.ahead(0, 1) && g.score(2) == 9\n\
         }",
    );
    let (answers, _) = ask_all(&rules, None, &[1, 4, 9]);
    assert!(answers.iter().all(|a| a.yes));
    let (answers, _) = ask_all(&rules, None, &[1, 9, 9]);
    assert!(
        answers.iter().all(|a| !a.yes),
        "a tie for the lead: no leader"
    );
}

/// (cells, pack functions run, operations charged) of the range of `floors`.
fn range(rules: &ScriptRules, floors: &[FloorKind]) -> (Vec<(i32, i32)>, u64, u64) {
    let (calls, spent) = (rules.hook_runs(), rules.spent());
    let mut cells = Vec::new();
    let stack = StackView {
        floors,
        topped: false,
    };
    rules.capture_range(&stack, &mut cells).unwrap();
    cells.sort();
    (cells, rules.hook_runs() - calls, rules.spent() - spent)
}

/// T6, B5, B6: the Black Tower's `range` reads the top floor and the
/// reach, `reach` the height: a new stack of the same height and top is
/// answered without running either, with the cells and at the cost a first
/// asking gives.
#[test]
fn t6_b6_a_new_stack_that_reads_the_same_is_answered_from_what_was_read() {
    let (set, warm) = rules(&["tower", "black-tower"]);
    let (regular, black) = (kind(&set, "regular"), kind(&set, "black"));
    // The Tower's reach; the Black Tower's range and, through `previous`,
    // The Tower's.
    let (_, runs, _) = range(&warm, &[black, regular]);
    assert_eq!(runs, 3, "reach and range run for the first stack");
    let (cells, runs, cost) = range(&warm, &[regular, regular]);
    assert_eq!(runs, 0, "same height, same top: nothing runs");
    let (_, fresh) = rules(&["tower", "black-tower"]);
    let (fresh_cells, fresh_runs, fresh_cost) = range(&fresh, &[regular, regular]);
    assert_eq!(fresh_runs, 3);
    assert_eq!((cells, cost), (fresh_cells, fresh_cost));
    let (cells, runs, _) = range(&warm, &[regular, black]);
    assert_eq!(runs, 1, "the reach is known, the range is not");
    assert!(
        cells.contains(&(1, 1)) && !cells.contains(&(0, 1)),
        "{cells:?}"
    );
    let (_, runs, _) = range(&warm, &[regular, regular, regular]);
    assert_eq!(runs, 3);
}

/// T6, B6: a capture range found again in the front's kept groups, among
/// hundreds of stacks, gives the cells, and is charged the cost, of its
/// first asking, running nothing.
#[test]
fn t6_b6_a_range_found_again_gives_the_cells_and_cost_of_its_first_asking() {
    let (set, warm) = rules(&["tower", "black-tower"]);
    let kinds = ["regular", "black", "white"].map(|k| kind(&set, k));
    // Every stack of 1 to 5 floors.
    let mut stacks: Vec<Vec<FloorKind>> = vec![vec![]];
    for height in 1..=5 {
        let shorter: Vec<_> = stacks
            .iter()
            .filter(|s| s.len() == height - 1)
            .cloned()
            .collect();
        for s in shorter {
            stacks.extend(kinds.map(|k| [s.clone(), vec![k]].concat()));
        }
    }
    assert!(stacks.len() > 300);
    let firsts: Vec<_> = stacks.iter().map(|s| range(&warm, s)).collect();
    for round in 0..2 {
        for (s, first) in stacks.iter().zip(&firsts) {
            let again = range(&warm, s);
            assert_eq!(again.1, 0, "round {round}, {s:?}: nothing runs");
            assert_eq!(
                (&again.0, again.2),
                (&first.0, first.2),
                "round {round}, {s:?}"
            );
        }
    }
}

/// B4, B7: the Black Tower's `may_place_floor` reads the top floor and
/// whether a meeple stands there (and the height for white): a new stack
/// that reads the same is answered without running it, as a first asking
/// answers, at its cost.
#[test]
fn b4_b7_may_place_floor_answers_a_new_stack_from_what_was_read() {
    let (set, warm) = rules(&["tower", "black-tower"]);
    let (regular, black, white) = (
        kind(&set, "regular"),
        kind(&set, "black"),
        kind(&set, "white"),
    );
    let may_place = |rules: &ScriptRules, floors: &[FloorKind]| {
        let (runs, spent) = (rules.hook_runs(), rules.spent());
        let stack = StackView {
            floors,
            topped: false,
        };
        let a =
            Asking::outside_game(2, |asking| rules.may_place_floor(&stack, white, asking)).unwrap();
        (a, rules.hook_runs() - runs, rules.spent() - spent)
    };
    assert!(may_place(&warm, &[regular, regular]).1 > 0);
    let (answer, runs, cost) = may_place(&warm, &[black, regular]);
    assert_eq!(runs, 0, "the same top, height and no meeple: kept");
    let (_, fresh) = rules(&["tower", "black-tower"]);
    let first = may_place(&fresh, &[black, regular]);
    assert_eq!((answer, cost), (first.0, first.2));
    assert!(answer.yes, "B7: white on a tower under construction");
    let (answer, runs, _) = may_place(&warm, &[regular, white]);
    assert!(runs > 0 && !answer.yes, "a white top is another answer: B7");
}

/// A `range` that reads the whole stack (`tower.floors`) is kept for that
/// stack only: a stack of the same height and top runs it again.
#[test]
fn an_answer_that_read_the_whole_stack_is_kept_for_that_stack_only() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pack.toml"),
        "[pack]\nname = \"bottom\"\nrequires = [\"tower\", \"black-tower\"]\nscript = \"bottom.rhai\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("bottom.rhai"),
        "fn range(tower, reach) {\n    if tower.floors[0] == \"black\" { return []; }\n    previous(tower, reach)\n}\n",
    )
    .unwrap();
    let path = dir.path().display().to_string();
    let (set, rules) = rules(&["tower", "black-tower", &path]);
    let (regular, black) = (kind(&set, "regular"), kind(&set, "black"));
    let (cells, _, _) = range(&rules, &[black, regular]);
    assert!(cells.is_empty(), "a black bottom captures nothing");
    let (cells, runs, _) = range(&rules, &[regular, regular]);
    assert_eq!(runs, 3, "the range runs again (and the packs before it)");
    assert!(cells.contains(&(0, 2)), "{cells:?}");
    assert_eq!(
        range(&rules, &[black, regular]).1,
        0,
        "kept for its own stack"
    );
}

/// A capture check by a tall tower under diagonal steps and no gaps, on a
/// board full of tiles with a meeple on every cell: the board cells read
/// grow with the cells, not with their square.
#[test]
fn h1_h4_a_capture_check_reads_each_cell_of_a_tall_range_a_few_times() {
    let (set, rules) = rules(&["tower", "house/diagonal-steps", "house/no-gaps"]);
    for height in [10, 20, 40] {
        let floors = vec![0u8; height];
        let view = TowerView {
            pos: Pos::ORIGIN,
            floors: &floors,
            meeple: None,
        };
        let mut range = Vec::new();
        rules.capture_range(&view.stack(), &mut range).unwrap();
        let mut board = Board::new();
        let start = &set.tiles.kinds[set.tiles.start];
        let meeples: Vec<Meeple> = range
            .iter()
            .map(|&(x, y)| {
                board.place(set.tiles.start as u16, start, Pos::new(x, y), 0, 0);
                Meeple {
                    owner: 1,
                    pos: Pos::new(x, y),
                    spot: MeepleSpot::Segment(0),
                }
            })
            .collect();
        let before = rules.board_reads();
        let (mut cells, mut taken) = (Vec::new(), Vec::new());
        let road = |_: usize, _: &Meeple| MeepleOn::Feature(SegmentKind::Road);
        let table = Table::bare(&board, 2);
        capturable(
            &rules, &view, &table, &meeples, road, &mut cells, &mut taken,
        )
        .unwrap();
        let reads = rules.board_reads() - before;
        let cells = range.len();
        assert_eq!(cells, 2 * height * height + 2 * height + 1, "a diamond");
        assert_eq!(taken.len(), cells, "a full board: every meeple in range");
        assert!(
            reads <= 9 * cells as u64,
            "{height} floors: {reads} board cells read for {cells} cells in range"
        );
    }
}

/// A call that read cells of its own (`board.path_steps`) is answered but
/// not kept: the same question runs it again.
#[test]
fn an_answer_that_read_what_no_trace_holds_is_not_kept() {
    let (_d, _, rules) = with_pack(
        "fn may_capture(tower, meeple, board) {\n\
         board.path_steps(tower, [[0, 0], [1, 0]], meeple.dx, meeple.dy) >= 0\n\
         }",
    );
    let mut board = Board::new();
    let (set, _) = self::rules(&["tower"]);
    let start = &set.tiles.kinds[set.tiles.start];
    board.place(set.tiles.start as u16, start, Pos::ORIGIN, 0, 0);
    board.place(set.tiles.start as u16, start, Pos::new(1, 0), 0, 0);
    let table = Table::bare(&board, 2);
    let (tower, meeple) = (Scene::tower(), Scene::meeple());
    for _ in 0..2 {
        let before = rules.hook_runs();
        assert!(rules.may_capture(&tower, &meeple, &table).unwrap());
        assert_eq!(rules.hook_runs() - before, 1, "run every time");
    }
}

/// A question of every kind about a one-floor tower at the origin and a
/// meeple on a road, at a bare table of two.
struct Scene {
    board: Board,
}

impl Scene {
    fn new() -> Scene {
        Scene {
            board: Board::new(),
        }
    }

    fn table(&self) -> Table<'_> {
        Table::bare(&self.board, 2)
    }

    /// The tower asked about: one floor of kind 0 at the origin.
    fn tower() -> TowerView<'static> {
        TowerView {
            pos: Pos::ORIGIN,
            floors: &[0],
            meeple: None,
        }
    }

    /// The meeple asked about: seat 1's, on a road one cell east.
    fn meeple() -> crate::kernel::MeepleView {
        crate::kernel::MeepleView {
            owner: 1,
            pos: Pos::new(1, 0),
            spot: MeepleSpot::Segment(0),
            on: MeepleOn::Feature(SegmentKind::Road),
        }
    }

    fn ask(&self, rules: &ScriptRules, hook: &str) -> anyhow::Result<String> {
        let table = self.table();
        let stack = StackView {
            floors: &[0],
            topped: false,
        };
        let asking = Asking {
            seat: 0,
            owner: None,
            tower: None,
            table: &table,
        };
        let (tower, meeple) = (Scene::tower(), Scene::meeple());
        let ransom = crate::kernel::RansomView {
            payer: 0,
            captor: 1,
            score: 9,
            paid_this_turn: 0,
        };
        Ok(match hook {
            "setup" => format!("{:?}", rules.seat_supply(2, 18, 0)?),
            "seat" => format!("{:?}", rules.seat_supply(2, 18, 1)?),
            "may_place_floor" => format!("{:?}", rules.may_place_floor(&stack, 0, &asking)?),
            "may_top" => format!("{:?}", rules.may_top(&stack, &asking)?),
            "reach" | "range" => {
                let mut out = Vec::new();
                rules.capture_range(&stack, &mut out)?;
                format!("{out:?}")
            }
            "may_capture" => format!("{:?}", rules.may_capture(&tower, &meeple, &table)?),
            "ransom" => format!("{:?}", rules.ransom(&ransom, &table)?),
            "captured" => format!("{:?}", rules.capture_outcome(&meeple, &table)?),
            "exchange" => format!("{:?}", rules.exchange(0, 1, &table)?),
            _ => panic!("no question for hook `{hook}`"),
        })
    }
}

/// Every kept hook, asked twice the same: its pack runs once, and the kept
/// answer is charged what the first asking cost. Each spends a few
/// operations of its own in a loop.
#[test]
fn every_hook_is_kept_and_charged_the_same_through_the_one_path() {
    let spend = "let n = 0; for i in 0..20 { n += i; }";
    let script = format!(
        "fn setup(players, foundations) {{ {spend} previous(players, foundations) }}\n\
         fn seat(seat, players, supply) {{ {spend} previous(seat, players, supply) }}\n\
         fn may_place_floor(tower, kind) {{ {spend} previous(tower, kind) }}\n\
         fn may_top(tower) {{ {spend} previous(tower) }}\n\
         fn reach(tower) {{ {spend} previous(tower) }}\n\
         fn range(tower, reach) {{ {spend} previous(tower, reach) }}\n\
         fn may_capture(tower, meeple, board) {{ {spend} meeple.on != \"field\" }}\n\
         fn ransom(score, paid) {{ {spend} previous(score, paid) }}\n\
         fn captured(meeple) {{ {spend} \"home\" }}\n\
         fn exchange(a, b) {{ {spend} a != b }}\n"
    );
    let (_d, _, rules) = with_pack(&script);
    let scene = Scene::new();
    let hooks = [
        "seat",
        "may_place_floor",
        "may_top",
        "range",
        "may_capture",
        "ransom",
        "captured",
        "exchange",
    ];
    for hook in hooks {
        let ask = || scene.ask(&rules, hook).unwrap();
        let (runs, spent) = (rules.hook_runs(), rules.spent());
        let first = ask();
        let (first_runs, first_cost) = (rules.hook_runs() - runs, rules.spent() - spent);
        assert!(first_runs > 0 && first_cost > 0, "{hook}: ran and spent");
        let (runs, spent) = (rules.hook_runs(), rules.spent());
        assert_eq!(ask(), first, "{hook}: the same answer");
        assert_eq!(rules.hook_runs() - runs, 0, "{hook}: kept");
        assert_eq!(
            rules.spent() - spent,
            first_cost,
            "{hook}: charged the same"
        );
    }
}

mod errors;
mod features;
mod fires;
mod front;
mod towers;
