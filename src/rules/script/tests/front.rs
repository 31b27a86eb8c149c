//! The memo's front: a tower's questions asked at once (`tower_answers`),
//! all of them or some, answer, run and charge exactly as asking each in
//! turn does, and an answer of a group is found again by its stack only
//! where it read nothing but the stack, its top meeple's owner and the
//! player count.

use super::{Scene, rules, with_pack};
use crate::kernel::{Answer, Asking, Board, FloorKind, Rules, StackView, TOP_QUESTION, Table};
use crate::rules::script::ScriptRules;

/// What one asking gave: the answers, the pack functions run, the
/// operations charged.
type Asked = (Vec<Answer>, u64, u64);

fn asked(rules: &ScriptRules, ask: impl FnOnce(&mut Vec<Answer>)) -> Asked {
    let (runs, spent) = (rules.hook_runs(), rules.spent());
    let mut out = Vec::new();
    ask(&mut out);
    (out, rules.hook_runs() - runs, rules.spent() - spent)
}

/// Every question of a tower.
const EVERY: u64 = u64::MAX;

/// Seat `seat`'s questions `questions` about `floors` (topped by `owner`'s
/// meeple, if any) at a table of three with `scores`: at once, or one by
/// one.
fn tower(
    rules: &ScriptRules,
    floors: &[FloorKind],
    owner: Option<usize>,
    seat: usize,
    scores: &[u32; 3],
    (questions, at_once): (u64, bool),
) -> Asked {
    let board = Board::new();
    let table = Table {
        scores,
        ..Table::bare(&board, 3)
    };
    let stack = StackView {
        floors,
        topped: owner.is_some(),
    };
    let asking = Asking {
        seat,
        owner,
        tower: None,
        table: &table,
    };
    asked(rules, |out| {
        if at_once {
            rules
                .tower_answers(&stack, &asking, questions, out)
                .unwrap();
        } else {
            let asked = |q: u32| questions & 1 << q != 0;
            for kind in 0..rules.floor_kinds().len() {
                out.push(match asked(kind as u32) {
                    true => rules
                        .may_place_floor(&stack, kind as FloorKind, &asking)
                        .unwrap(),
                    false => Answer::unasked(),
                });
            }
            out.push(match asked(TOP_QUESTION) {
                true => rules.may_top(&stack, &asking).unwrap(),
                false => Answer::unasked(),
            });
        }
    })
}

/// Stacks of every height a game builds, bare and topped by each seat's
/// meeple.
fn stacks(kinds: usize) -> Vec<(Vec<FloorKind>, Option<usize>)> {
    let mut out = Vec::new();
    for height in 0..4u8 {
        for top in 0..kinds as u8 {
            let floors: Vec<FloorKind> = (0..height).map(|i| (i + top) % kinds as u8).collect();
            out.extend([None, Some(0), Some(1), Some(2)].map(|o| (floors.clone(), o)));
        }
    }
    out
}

/// Every stack asked twice at once by one instance and twice one by one by
/// another, for seats 0 and 2 and two standings, every question and then
/// only the first floor kind's: the same answers, runs and charges, first
/// asking and kept alike.
fn at_once_is_one_by_one(at_once: &ScriptRules, one_by_one: &ScriptRules) {
    let kinds = at_once.floor_kinds().len();
    for ((floors, owner), questions) in stacks(kinds)
        .into_iter()
        .flat_map(|stack| [(stack.clone(), EVERY), (stack, 1)])
    {
        for (seat, scores) in [
            (0, [0, 0, 0]),
            (2, [0, 0, 0]),
            (0, [9, 3, 12]),
            (2, [9, 3, 12]),
        ] {
            for round in ["first", "kept"] {
                let a = tower(at_once, &floors, owner, seat, &scores, (questions, true));
                let b = tower(
                    one_by_one,
                    &floors,
                    owner,
                    seat,
                    &scores,
                    (questions, false),
                );
                assert_eq!(
                    a, b,
                    "{round} asking of {questions:#x} about {floors:?} topped by {owner:?}, seat {seat}"
                );
            }
        }
    }
}

#[test]
fn t1_b4_b7_a_towers_questions_at_once_answer_run_and_charge_as_one_by_one() {
    for packs in [&["tower"][..], &["tower", "black-tower"]] {
        at_once_is_one_by_one(&rules(packs).1, &rules(packs).1);
    }
}

/// Rules that read the seat, the standings, the owner or the whole stack:
/// each answers as asked one by one, whatever the front keeps.
#[test]
fn a_towers_questions_at_once_answer_as_one_by_one_whatever_they_read() {
    let scripts = [
        "fn may_place_floor(tower, kind) { game().actor != 2 && previous(tower, kind) }",
        "fn may_top(tower) { game().rank(game().actor) > 1 }",
        "fn may_place_floor(tower, kind) { game().scores[0] < 5 }",
        "fn may_top(tower) { tower.meeple_owner != 1 && tower.height > 1 }",
        "fn may_place_floor(tower, kind) { tower.floors.len() < 2 || previous(tower, kind) }",
        "fn may_top(tower) { game().players == 3 && game().turn < 5 }",
    ];
    for script in scripts {
        let (_a, _, at_once) = with_pack(script);
        let (_b, _, one_by_one) = with_pack(script);
        at_once_is_one_by_one(&at_once, &one_by_one);
    }
}

/// A group kept by its stack is given again for another seat only when no
/// answer read the seat: a rule for the seat asking is asked again.
#[test]
fn a_group_that_read_the_seat_is_not_given_to_another_seat() {
    let (_d, _, rules) = with_pack("fn may_top(tower) { game().actor == 0 }");
    let scores = [0, 0, 0];
    let seat0 = tower(&rules, &[0], None, 0, &scores, (EVERY, true));
    let seat1 = tower(&rules, &[0], None, 1, &scores, (EVERY, true));
    assert_eq!(seat0.0.last().map(|a| a.yes), Some(true));
    assert_eq!(seat1.0.last().map(|a| a.yes), Some(false));
    let (_e, _, plain) = with_pack("fn may_top(tower) { previous(tower) }");
    tower(&plain, &[0], None, 0, &scores, (EVERY, true));
    let again = tower(&plain, &[0], None, 1, &scores, (EVERY, true));
    assert_eq!(again.1, 0, "read only the stack: kept for every seat");
}

/// Of a group some of whose answers read the standings, the others are
/// kept by the stack: asked again at other standings, only the rule that
/// reads them runs.
#[test]
fn a_group_keeps_the_answers_that_read_only_the_stack() {
    let (_d, _, rules) = with_pack(
        "fn may_place_floor(tower, kind) { game().scores[0] < 5 }\n\
         fn may_top(tower) { previous(tower) }",
    );
    let first = tower(&rules, &[0], None, 0, &[0, 0, 0], (EVERY, true));
    assert_eq!(first.1, 3, "the floor rule, may_top and its previous");
    let again = tower(&rules, &[0], None, 0, &[9, 0, 0], (EVERY, true));
    assert!(!again.0[0].yes, "the standings rule asked again");
    assert_eq!(again.0.last(), first.0.last());
    assert_eq!(again.1, 1, "only the floor rule runs: may_top is kept");
    assert_eq!(again.2, first.2, "charged as if both had run");
}

/// A `may_capture` that reads a kept range `reads` times in one call,
/// whose `reach` spends twenty thousand operations of its own.
fn rereading(reads: u32) -> String {
    format!(
        "fn reach(tower) {{ let n = 0; for i in 0..20000 {{ n += i; }} previous(tower) }}\n\
         fn may_capture(tower, meeple, board) {{\n\
         let s = 0;\n\
         for i in 0..{reads} {{ s += board.range_steps(tower, 1, 0); }}\n\
         s != 0\n\
         }}\n"
    )
}

/// What `may_capture` of [`rereading`] costs, asked once.
fn rereading_cost(reads: u32) -> anyhow::Result<u64> {
    let (_d, _, rules) = with_pack(&rereading(reads));
    let scene = Scene::new();
    let before = rules.spent();
    scene.ask(&rules, "may_capture")?;
    Ok(rules.spent() - before)
}

/// A read of a kept range's cells is never charged by itself
/// (`known_range`): the range read is asked for each time, and charged.
/// A hook that reads a kept range again and again in one call pays its
/// cost at each read, and a loop of a few operations a read runs out of
/// the call's operations.
#[test]
fn a_hook_that_reads_a_kept_range_again_and_again_runs_out_of_its_budget() {
    let (once, thrice) = (rereading_cost(1).unwrap(), rereading_cost(3).unwrap());
    assert!(
        thrice - once >= 2 * 20_000,
        "each read charged the reach's loop: {once} for one read, {thrice} for three"
    );
    let error = rereading_cost(200).unwrap_err();
    assert!(
        format!("{error:#}").contains("Too many operations"),
        "{error:#}"
    );
}

/// A walk that `board.range_steps` sets off is charged to the call by the
/// board cells it looks at, as a bulk native's work is: over a range of
/// some 3,000 cells, a board with a tile on each costs the call more than
/// an empty one, where the walk stops at the tower's own cell.
#[test]
fn a_walk_range_steps_sets_off_is_charged_by_the_cells_it_looks_at() {
    let script = "fn range(tower, reach) { cells_within([[1, 0], [-1, 0], [0, 1], [0, -1]], 40) }\n\
                  fn may_capture(tower, meeple, board) { board.range_steps(tower, 1, 0) >= 0 }\n";
    let cost = |scene: Scene| {
        let (_d, _, rules) = with_pack(script);
        let before = rules.spent();
        scene.ask(&rules, "may_capture").unwrap();
        (rules.spent() - before, rules.board_reads())
    };
    let (empty, empty_reads) = cost(Scene::new());
    let (full, full_reads) = cost(Scene { board: tiled(40) });
    assert!(full_reads > 10_000, "the walk looked at {full_reads} cells");
    assert!(
        full - empty >= (full_reads - empty_reads) / 64 / 2,
        "charged {} more for {} more cells looked at",
        full - empty,
        full_reads - empty_reads
    );
}

/// A board with a tile on every cell within `radius` steps of the origin.
fn tiled(radius: i32) -> Board {
    let home = crate::rules::Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let tiles = crate::kernel::tiles::TileSet::from_sources(&[home.base_tiles().unwrap()]).unwrap();
    let mut board = Board::new();
    for x in -radius..=radius {
        for y in -(radius - x.abs())..=(radius - x.abs()) {
            let kind = &tiles.kinds[tiles.start];
            board.place(
                tiles.start as u16,
                kind,
                crate::kernel::geometry::Pos::new(x, y),
                0,
                0,
            );
        }
    }
    board
}
