//! Tower hook answers kept by what the call read of the floor stack.
//!
//! `reach`, `range`, `may_place_floor` and `may_top` are asked about a
//! floor stack (and whether a meeple tops it), and most read little of it:
//! The Tower's `reach` reads the height and its `range` only the reach; the
//! Black Tower's `range` and `may_place_floor` read the top floor, whether a
//! meeple stands there and the height. Stacks themselves are many (random floor kinds in
//! random order), so an answer kept per stack alone is asked again for
//! almost every new tower.
//!
//! So an answer is kept twice: per stack (the cache's [`StackKey`], one
//! lookup), and in a tree per hook under what the call read of the stack —
//! `tower.height`, `tower.top`, `tower.has_meeple`, `tower.count(kind)` and,
//! for `range`, the reach it was given; for `may_place_floor` and `may_top`
//! also the seat asking and the top meeple's owner when they read them —
//! with each value (see
//! [`super::reads`]: a pure script that read the same values takes the same
//! path, and answers the same at the same cost). A stack never seen whose
//! reads give the same values gets the kept answer without running the
//! script, charged at the same cost. A call that read the whole stack
//! (`tower.floors`), asked a helper about it (`capture_reach`,
//! `capture_cells`) or read beyond it is kept per stack only.
//!
//! [`StackKey`]: super::cache::StackKey

use std::sync::Arc;

use anyhow::Result;
use rhai::Dynamic;

use super::cache::{Cells, Kept};
use super::reads::{Node, Read};
use super::{Hook, ScriptRules};
use crate::kernel::{Answer, FloorKind, StackView};

/// What the running tower hook call has read of its stack.
#[derive(Default)]
struct ShapeTrace {
    /// A tower hook call is being recorded.
    on: bool,
    /// It read the whole stack (or asked a helper about it).
    whole: bool,
    reads: Vec<(Read, i64)>,
}

/// The answers of each tower hook, kept by what their calls read, and what
/// the running call has read.
#[derive(Default)]
pub(super) struct Shapes {
    trace: ShapeTrace,
    reach: Option<Node<Kept<i64>>>,
    /// Each answer costs what the `range` call spent beyond the reach.
    range: Option<Node<Kept<Cells>>>,
    /// `may_place_floor` per floor kind.
    may_place: Vec<Option<Node<TowerKept>>>,
    may_top: Option<Node<TowerKept>>,
}

/// A `may_place_floor` or `may_top` answer kept by what its call read, with
/// the part of that trace beyond the stack (the seat asking, the owner):
/// the key it is kept under for its exact stack too.
pub(super) type TowerKept = (Kept<Answer>, Arc<[(Read, i64)]>);

impl Shapes {
    /// The tree of `may_place_floor` of `kind`, or of `may_top`.
    fn tower(&mut self, kind: Option<FloorKind>) -> &mut Option<Node<TowerKept>> {
        match kind {
            Some(k) => {
                let k = k as usize;
                if self.may_place.len() <= k {
                    self.may_place.resize_with(k + 1, || None);
                }
                &mut self.may_place[k]
            }
            None => &mut self.may_top,
        }
    }
}

/// A stack as reads of it are answered.
struct Stack<'a> {
    floors: &'a [FloorKind],
    meeple: bool,
    /// The reach `range` is given.
    reach: Option<i64>,
}

impl Stack<'_> {
    fn read(&self, read: Read) -> Option<i64> {
        Some(match read {
            Read::Height => self.floors.len() as i64,
            Read::Top => self.floors.last().map_or(-1, |&k| k as i64),
            Read::HasMeeple => self.meeple as i64,
            Read::Count(kind) => self.floors.iter().filter(|&&k| k == kind).count() as i64,
            Read::Reach => self.reach?,
            _ => return None,
        })
    }
}

/// Keep `answer` under `trace` in `tree`.
fn keep<A: Clone>(tree: &mut Option<Node<A>>, trace: &[(Read, i64)], answer: A) {
    match tree {
        Some(node) => node.add(trace, answer),
        None => *tree = Some(Node::of(trace, answer)),
    }
}

impl ScriptRules {
    /// Note that the running tower hook read `read` of its stack, which gave
    /// `value`.
    pub(super) fn note_shape(&self, read: Read, value: i64) {
        let mut s = self.shapes.borrow_mut();
        if s.trace.on {
            s.trace.reads.push((read, value));
        }
    }

    /// Note that the running tower hook read its whole stack: its answer is
    /// kept per stack only.
    pub(super) fn note_whole_stack(&self) {
        self.shapes.borrow_mut().trace.whole = true;
    }

    /// Run `f`, a tower hook call, recording what it reads of the stack; the
    /// trace, unless it read the whole stack or beyond it. A recording
    /// nested in another (a helper's call) is its own, and the outer one's
    /// `read_context` keeps what either read beyond its key.
    pub(super) fn shape_recording<T>(
        &self,
        f: impl FnOnce() -> T,
    ) -> (T, Option<Vec<(Read, i64)>>) {
        let outer = std::mem::replace(
            &mut self.shapes.borrow_mut().trace,
            ShapeTrace {
                on: true,
                ..ShapeTrace::default()
            },
        );
        let beyond_before = self.read_context.replace(false);
        let out = f();
        let inner = std::mem::replace(&mut self.shapes.borrow_mut().trace, outer);
        let beyond = self.read_context.get();
        self.read_context.set(beyond_before || beyond);
        let trace = (!inner.whole && !beyond).then_some(inner.reads);
        (out, trace)
    }

    /// The reach of a stack: kept per stack, then by what `reach` read, else
    /// asked of the script.
    pub(super) fn cached_reach(&self, floors: &[FloorKind], meeple: bool) -> Result<i64> {
        if let Some(r) = self.entry(floors, meeple, |e| e.reach) {
            return self.hit(Hook::Reach, r);
        }
        let stack = Stack {
            floors,
            meeple,
            reach: None,
        };
        let found = self.shaped(|s| s.reach.as_ref()?.find(|r| stack.read(r)));
        let kept = match found {
            Some(kept) => {
                self.charge(Hook::Reach, kept.cost)?;
                kept
            }
            None => self.ask_reach(floors, meeple)?,
        };
        self.entry(floors, meeple, |e| e.reach = Some(kept));
        Ok(kept.answer)
    }

    fn ask_reach(&self, floors: &[FloorKind], meeple: bool) -> Result<Kept<i64>> {
        let before = self.spent();
        let tower = self.tower_info(floors, meeple, None);
        let (v, trace) =
            self.shape_recording(|| self.call(Hook::Reach, vec![Dynamic::from(tower)], None));
        let v = v?;
        let reach = v
            .as_int()
            .map_err(|t| self.wrong_type(Hook::Reach, &v, t, "an integer"))?;
        let kept = self.kept(reach, before);
        if let Some(trace) = trace {
            self.shaped(|s| keep(&mut s.reach, &trace, kept));
        }
        Ok(kept)
    }

    /// The capture cells of a stack: kept per stack, then by the reach and
    /// what `range` read, else asked of the script.
    pub(super) fn cached_range(&self, floors: &[FloorKind], meeple: bool) -> Result<Cells> {
        if let Some(r) = self.entry(floors, meeple, |e| e.range.clone()) {
            return self.hit(Hook::Range, r);
        }
        let before = self.spent();
        let reach = self.cached_reach(floors, meeple)?;
        let stack = Stack {
            floors,
            meeple,
            reach: Some(reach),
        };
        let found = self.shaped(|s| s.range.as_ref()?.find(|r| stack.read(r)));
        let cells = match found {
            Some(own) => {
                self.charge(Hook::Range, own.cost)?;
                own.answer
            }
            None => self.ask_range(floors, meeple, reach)?,
        };
        let kept = self.kept(cells.clone(), before);
        self.entry(floors, meeple, |e| e.range = Some(kept));
        Ok(cells)
    }

    /// `range(tower, reach)` of the script, kept by the reach and what the
    /// call read, at what it spent beyond the reach.
    fn ask_range(&self, floors: &[FloorKind], meeple: bool, reach: i64) -> Result<Cells> {
        let before = self.spent();
        let tower = self.tower_info(floors, meeple, None);
        let args = vec![Dynamic::from(tower), Dynamic::from(reach)];
        let (v, trace) = self.shape_recording(|| self.call(Hook::Range, args, None));
        let cells = self.cells_answer(&v?)?;
        if let Some(mut trace) = trace {
            trace.insert(0, (Read::Reach, reach));
            let own = self.kept(cells.clone(), before);
            self.shaped(|s| keep(&mut s.range, &trace, own));
        }
        Ok(cells)
    }

    /// The answer of `may_place_floor` of `kind` (or of `may_top`) kept by
    /// what a call read of a stack like `stack`, the seat asking and the
    /// owner as `read` gives them.
    pub(super) fn kept_tower_shape(
        &self,
        stack: &StackView,
        kind: Option<FloorKind>,
        read: impl Fn(Read) -> Option<i64>,
    ) -> Option<TowerKept> {
        let stack = Stack {
            floors: stack.floors,
            meeple: stack.topped,
            reach: None,
        };
        self.shaped(|s| {
            s.tower(kind)
                .as_ref()?
                .find(|r| stack.read(r).or_else(|| read(r)))
        })
    }

    /// Keep `answer` of `may_place_floor` of `kind` (or of `may_top`) under
    /// what the call read of the stack (`shape`), then of the seat and owner
    /// (`beyond`).
    pub(super) fn keep_tower_shape(
        &self,
        kind: Option<FloorKind>,
        shape: &[(Read, i64)],
        beyond: &[(Read, i64)],
        answer: Kept<Answer>,
    ) {
        let trace = [shape, beyond].concat();
        self.shaped(|s| keep(s.tower(kind), &trace, (answer, beyond.into())));
    }

    fn shaped<T>(&self, f: impl FnOnce(&mut Shapes) -> T) -> T {
        f(&mut self.shapes.borrow_mut())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::kernel::{Answer, Asking, Board, FloorKind, Rules, StackView, Table};
    use crate::rules::script::ScriptRules;
    use crate::rules::{Home, Implementation, Ruleset};

    fn rules(packs: &[&str], home: &Home) -> (Ruleset, ScriptRules) {
        let packs: Vec<String> = packs.iter().map(|p| p.to_string()).collect();
        let set = Ruleset::from_packs(home, &packs).unwrap();
        let Implementation::Script(scripts) = &set.implementation else {
            panic!("scripted packs");
        };
        let rules = ScriptRules::new(Arc::clone(scripts));
        (set, rules)
    }

    fn shipped() -> Home {
        Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
            .with_memory_limit(crate::rules::MemoryLimit::Off)
    }

    fn kind(set: &Ruleset, name: &str) -> FloorKind {
        set.floors.iter().position(|f| f.name == name).unwrap() as FloorKind
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
    /// reach, `reach` the height: a new stack of the same height and top
    /// is answered without running either, with the cells and at the cost
    /// a first asking gives.
    #[test]
    fn t6_b6_a_new_stack_that_reads_the_same_is_answered_from_what_was_read() {
        let (set, warm) = rules(&["tower", "black-tower"], &shipped());
        let (regular, black) = (kind(&set, "regular"), kind(&set, "black"));
        // Functions run: The Tower's reach; the Black Tower's range and,
        // through `previous`, The Tower's.
        let (_, runs, _) = range(&warm, &[black, regular]);
        assert_eq!(runs, 3, "reach and range run for the first stack");
        let (cells, runs, cost) = range(&warm, &[regular, regular]);
        assert_eq!(runs, 0, "same height, same top: nothing runs");
        let (_, fresh) = rules(&["tower", "black-tower"], &shipped());
        let (fresh_cells, fresh_runs, fresh_cost) = range(&fresh, &[regular, regular]);
        assert_eq!(fresh_runs, 3);
        assert_eq!((cells, cost), (fresh_cells, fresh_cost));
        // Another top floor or height is another answer.
        let (cells, runs, _) = range(&warm, &[regular, black]);
        assert_eq!(runs, 1, "the reach is known, the range is not");
        assert!(
            cells.contains(&(1, 1)) && !cells.contains(&(0, 1)),
            "{cells:?}"
        );
        let (_, runs, _) = range(&warm, &[regular, regular, regular]);
        assert_eq!(runs, 3);
    }

    /// (answer, pack functions run, operations charged) of `may_place_floor`
    /// of `kind` on `floors`, asked by seat 0.
    fn may_place(rules: &ScriptRules, floors: &[FloorKind], kind: FloorKind) -> (Answer, u64, u64) {
        let (runs, spent) = (rules.hook_runs(), rules.spent());
        let board = Board::new();
        let table = Table::bare(&board, 2);
        let asking = Asking {
            seat: 0,
            owner: None,
            table: &table,
        };
        let stack = StackView {
            floors,
            topped: false,
        };
        let answer = rules.may_place_floor(&stack, kind, &asking).unwrap();
        (answer, rules.hook_runs() - runs, rules.spent() - spent)
    }

    /// B4, B7: the Black Tower's `may_place_floor` reads the top floor and
    /// whether a meeple stands there (and the height for white): a new stack
    /// that reads the same is answered without running it, as a first
    /// asking answers, at its cost.
    #[test]
    fn b4_b7_may_place_floor_answers_a_new_stack_from_what_was_read() {
        let (set, warm) = rules(&["tower", "black-tower"], &shipped());
        let (regular, black, white) = (
            kind(&set, "regular"),
            kind(&set, "black"),
            kind(&set, "white"),
        );
        let (_, runs, _) = may_place(&warm, &[regular, regular], white);
        assert!(runs > 0);
        let (answer, runs, cost) = may_place(&warm, &[black, regular], white);
        assert_eq!(runs, 0, "the same top, height and no meeple: kept");
        let (_, fresh) = rules(&["tower", "black-tower"], &shipped());
        let first = may_place(&fresh, &[black, regular], white);
        assert_eq!((answer, cost), (first.0, first.2));
        assert!(answer.yes, "B7: white on a tower under construction");
        let (answer, runs, _) = may_place(&warm, &[regular, white], white);
        assert!(runs > 0 && !answer.yes, "a white top is another answer: B7");
    }

    /// `tower_answers` gives what `may_place_floor` of each kind in turn,
    /// then `may_top`, give, at the same cost, warm or cold.
    #[test]
    fn all_kinds_at_once_answer_as_each_kind_in_turn() {
        let (set, batch) = rules(&["tower", "black-tower"], &shipped());
        let (_, single) = rules(&["tower", "black-tower"], &shipped());
        let kinds: Vec<FloorKind> = (0..set.floors.len() as FloorKind).collect();
        let board = Board::new();
        let table = Table::bare(&board, 3);
        let mut out = Vec::new();
        for floors in [
            vec![],
            vec![0],
            vec![1, 0],
            vec![2],
            vec![0, 1, 2],
            vec![1, 0],
            vec![],
        ] {
            for (seat, topped) in [(0, false), (2, true)] {
                let asking = Asking {
                    seat,
                    owner: topped.then_some(1),
                    table: &table,
                };
                let stack = StackView {
                    floors: &floors,
                    topped,
                };
                let spent = batch.spent();
                let top = batch.tower_answers(&stack, &asking, &mut out).unwrap();
                let batch_cost = batch.spent() - spent;
                let spent = single.spent();
                let each: Vec<Answer> = kinds
                    .iter()
                    .map(|&k| single.may_place_floor(&stack, k, &asking).unwrap())
                    .collect();
                assert_eq!(out, each, "{floors:?} {topped}");
                assert_eq!(top, single.may_top(&stack, &asking).unwrap());
                assert_eq!(batch_cost, single.spent() - spent, "{floors:?} {topped}");
            }
        }
    }

    /// A `may_place_floor` that reads the top meeple's owner is never
    /// answered for every owner at once, however often its stack is asked.
    #[test]
    fn answers_that_read_the_owner_stay_per_owner() {
        let dir = std::env::temp_dir().join(format!("towerlab-owner-{}", std::process::id()));
        let pack = dir.join("owned");
        std::fs::create_dir_all(&pack).unwrap();
        std::fs::write(
            pack.join("pack.toml"),
            "[pack]\nname = \"owned\"\nrequires = [\"tower\"]\nscript = \"owned.rhai\"\n",
        )
        .unwrap();
        std::fs::write(
            pack.join("owned.rhai"),
            "fn may_place_floor(tower, kind) { tower.meeple_owner != 1 && previous(tower, kind) }\n",
        )
        .unwrap();
        let path = pack.display().to_string();
        let (_, rules) = rules(&["tower", &path], &shipped());
        let board = Board::new();
        let table = Table::bare(&board, 3);
        let stack = StackView {
            floors: &[0],
            topped: false,
        };
        let mut out = Vec::new();
        let mut yes = |owner| {
            let asking = Asking {
                seat: 0,
                owner,
                table: &table,
            };
            rules.tower_answers(&stack, &asking, &mut out).unwrap();
            out[0].yes
        };
        let asked: Vec<bool> = [Some(1), Some(1), Some(2), Some(1), None, Some(2)]
            .into_iter()
            .map(&mut yes)
            .collect();
        assert_eq!(asked, [false, false, true, false, true, true]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A `range` that reads the whole stack (`tower.floors`) is kept per
    /// stack only: a stack of the same height and top runs it again.
    #[test]
    fn an_answer_that_read_the_whole_stack_is_kept_for_that_stack_only() {
        let dir = std::env::temp_dir().join(format!("towerlab-shapes-{}", std::process::id()));
        let pack = dir.join("bottom");
        std::fs::create_dir_all(&pack).unwrap();
        std::fs::write(
            pack.join("pack.toml"),
            "[pack]\nname = \"bottom\"\nrequires = [\"tower\", \"black-tower\"]\nscript = \"bottom.rhai\"\n",
        )
        .unwrap();
        std::fs::write(
            pack.join("bottom.rhai"),
            "fn range(tower, reach) {\n    if tower.floors[0] == \"black\" { return []; }\n    previous(tower, reach)\n}\n",
        )
        .unwrap();
        let home = shipped();
        let path = pack.display().to_string();
        let (set, rules) = rules(&["tower", "black-tower", &path], &home);
        let (regular, black) = (kind(&set, "regular"), kind(&set, "black"));
        let (cells, _, _) = range(&rules, &[black, regular]);
        assert!(cells.is_empty(), "a black bottom captures nothing");
        let (cells, runs, _) = range(&rules, &[regular, regular]);
        assert_eq!(runs, 3, "the range runs again (and the packs before it)");
        assert!(cells.contains(&(0, 2)), "{cells:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
