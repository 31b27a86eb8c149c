//! What a `may_capture` call read beyond its cache key, and its answers kept
//! by exactly that.
//!
//! A hook is a pure function of what it reads. The host records each read of
//! a `may_capture` call that goes beyond the key (floor stack, meeple on top,
//! what the captured meeple stands on and whose it is): where the meeple
//! stands (`meeple.dx`…), where the tower stands and whose meeple tops it,
//! `board.has_tile(x, y)`, `board.range_steps(tower, dx, dy)`, with the value
//! each gave. The answer is kept under that trace, in a tree per key: the
//! next question with the same key reads the same things natively, in the
//! same order (a pure script that has read the same values takes the same
//! path), and where every value agrees the kept answer stands without running
//! the script. A call that read what no trace records (`game()`,
//! `meeple.feature`, `board.path_steps` over a script's own cells) is not
//! kept. The same trees keep the other tower hooks' answers by what they
//! read of the stack (`Height`, `Top`…; see [`super::shapes`]).
//!
//! `may_place_floor` and `may_top` are kept the same way, per floor stack:
//! their traces hold `game().actor` (the seat asking) and
//! `tower.meeple_owner`, so an answer that read neither serves every seat.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::ScriptRules;
use super::steps::StepsMemo;
use crate::kernel::geometry::Pos;
use crate::kernel::{Board, FloorKind};

/// One thing a `may_capture` call read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Read {
    MeepleX,
    MeepleY,
    MeepleDx,
    MeepleDy,
    TowerX,
    TowerY,
    /// Whose meeple tops the tower; -1 for none.
    TowerOwner,
    HasTile(i32, i32),
    /// `board.range_steps(tower, dx, dy)` for the capturing tower.
    RangeSteps(i32, i32),
    /// Of a tower hook's stack (see `shapes`): `tower.height`, the top floor's
    /// kind (-1 for none), `tower.has_meeple`, `tower.count(kind)`, and the
    /// reach `range` is given.
    Height,
    Top,
    HasMeeple,
    Count(FloorKind),
    Reach,
    /// `game().actor` in `may_place_floor` and `may_top`: the seat asking.
    Actor,
}

/// The answers kept for one key: an answer (with what it cost), or the next read and, for each
/// value it gave, what follows.
#[derive(Debug)]
pub(super) enum Node<A> {
    Answer(A),
    Ask(Read, FxHashMap<i64, Node<A>>),
}

impl<A: Clone> Node<A> {
    pub(super) fn of(trace: &[(Read, i64)], answer: A) -> Node<A> {
        match trace.split_first() {
            None => Node::Answer(answer),
            Some((&(read, value), rest)) => {
                let mut next = FxHashMap::default();
                next.insert(value, Node::of(rest, answer));
                Node::Ask(read, next)
            }
        }
    }

    /// Keep `answer` under `trace`. A trace that disagrees with the tree
    /// (another read where the tree asks one) is not kept.
    pub(super) fn add(&mut self, trace: &[(Read, i64)], answer: A) {
        let mut node = self;
        let mut rest = trace;
        loop {
            match (node, rest.split_first()) {
                (Node::Ask(read, next), Some((&(r, value), tail))) if *read == r => {
                    match next.entry(value) {
                        std::collections::hash_map::Entry::Occupied(e) => {
                            node = e.into_mut();
                            rest = tail;
                        }
                        std::collections::hash_map::Entry::Vacant(e) => {
                            e.insert(Node::of(tail, answer));
                            return;
                        }
                    }
                }
                _ => return,
            }
        }
    }

    /// The kept answer for the values `read` gives now; `None` when some
    /// value differs from every kept trace (or `read` cannot tell).
    pub(super) fn find(&self, mut read: impl FnMut(Read) -> Option<i64>) -> Option<A> {
        let mut node = self;
        loop {
            match node {
                Node::Answer(a) => return Some(a.clone()),
                Node::Ask(r, next) => node = next.get(&read(*r)?)?,
            }
        }
    }
}

/// What `may_capture` is being asked about, as the reads are answered from.
pub(super) struct Moment<'a> {
    pub(super) tower: Pos,
    pub(super) floors: &'a [FloorKind],
    pub(super) topped: bool,
    pub(super) owner: Option<usize>,
    pub(super) meeple: Pos,
    pub(super) board: &'a Board,
}

/// The recorder of one thread's `may_capture` (and `may_place_floor`,
/// `may_top`) calls.
#[derive(Default)]
pub(super) struct Recorder {
    /// Recording a `may_capture` call now.
    on: bool,
    /// The capturing tower of the call being recorded.
    tower: Option<(Pos, Vec<FloorKind>, bool)>,
    pub(super) trace: Vec<(Read, i64)>,
    pub(super) steps: StepsMemo,
}

impl ScriptRules {
    /// Run `f`, a `may_capture` call about `m`, recording what it reads.
    pub(super) fn recording<T>(&self, m: &Moment, f: impl FnOnce() -> T) -> T {
        {
            let mut r = self.reads.borrow_mut();
            r.on = true;
            r.trace.clear();
            let tower = r.tower.get_or_insert_with(Default::default);
            tower.0 = m.tower;
            tower.1.clear();
            tower.1.extend_from_slice(m.floors);
            tower.2 = m.topped;
        }
        let answer = f();
        self.reads.borrow_mut().on = false;
        answer
    }

    /// Run `f`, a `may_place_floor` or `may_top` call, recording what it
    /// reads (`game().actor`, `tower.meeple_owner`), and give the trace.
    pub(super) fn recording_stack<T>(&self, f: impl FnOnce() -> T) -> (T, Vec<(Read, i64)>) {
        let outer = {
            let mut r = self.reads.borrow_mut();
            let outer = (r.on, r.tower.take(), std::mem::take(&mut r.trace));
            r.on = true;
            outer
        };
        let answer = f();
        let mut r = self.reads.borrow_mut();
        let trace = std::mem::replace(&mut r.trace, outer.2);
        (r.on, r.tower) = (outer.0, outer.1);
        (answer, trace)
    }

    /// Note that the running hook read `read`, which gave `value`: part of
    /// the trace in `may_capture`, and beyond the key in any other hook.
    pub(super) fn note(&self, read: Read, value: i64) {
        let mut r = self.reads.borrow_mut();
        if r.on {
            r.trace.push((read, value));
        } else {
            self.read_context.set(true);
        }
    }

    /// Is the tower `at` with `floors` the one the recorded call is about?
    pub(super) fn is_capturing(&self, at: Pos, floors: &[FloorKind], topped: bool) -> bool {
        let r = self.reads.borrow();
        r.on && r
            .tower
            .as_ref()
            .is_some_and(|(p, f, t)| *p == at && f == floors && *t == topped)
    }

    /// The fewest steps to `target` from the tower at `origin` with `range`.
    pub(super) fn range_steps(
        &self,
        board: &Board,
        origin: Pos,
        range: &Arc<[(i32, i32)]>,
        target: (i32, i32),
    ) -> i64 {
        self.reads
            .borrow_mut()
            .steps
            .steps(board, origin, range, target)
    }

    /// Board cells the native helpers have looked at on this thread.
    pub fn board_reads(&self) -> u64 {
        self.reads.borrow().steps.reads
    }

    pub(super) fn read_now(
        &self,
        m: &Moment,
        range: Option<&Arc<[(i32, i32)]>>,
        read: Read,
    ) -> Option<i64> {
        Some(match read {
            Read::MeepleX => m.meeple.x as i64,
            Read::MeepleY => m.meeple.y as i64,
            Read::MeepleDx => (m.meeple.x - m.tower.x) as i64,
            Read::MeepleDy => (m.meeple.y - m.tower.y) as i64,
            Read::TowerX => m.tower.x as i64,
            Read::TowerY => m.tower.y as i64,
            Read::TowerOwner => m.owner.map_or(-1, |o| o as i64),
            Read::HasTile(x, y) => m.board.has_tile(Pos::new(x, y)) as i64,
            Read::RangeSteps(dx, dy) => self.range_steps(m.board, m.tower, range?, (dx, dy)),
            // The stack is `may_capture`'s key, and the seat asking is not
            // one of its questions: never part of its traces.
            Read::Height
            | Read::Top
            | Read::HasMeeple
            | Read::Count(_)
            | Read::Reach
            | Read::Actor => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_found_only_where_every_read_agrees() {
        let mut tree = Node::of(&[(Read::MeepleDx, 1), (Read::RangeSteps(1, 0), 1)], true);
        tree.add(&[(Read::MeepleDx, 1), (Read::RangeSteps(1, 0), -1)], false);
        tree.add(&[(Read::MeepleDx, 2), (Read::RangeSteps(2, 0), 2)], true);
        let ask = |dx: i64, steps: i64| {
            tree.find(|r| match r {
                Read::MeepleDx => Some(dx),
                Read::RangeSteps(..) => Some(steps),
                _ => None,
            })
        };
        assert_eq!(ask(1, 1), Some(true));
        assert_eq!(ask(1, -1), Some(false));
        assert_eq!(ask(2, 2), Some(true));
        assert_eq!(ask(2, -1), None, "never asked");
        assert_eq!(ask(3, 1), None);
    }

    #[test]
    fn a_trace_that_disagrees_with_the_tree_is_not_kept() {
        let mut tree = Node::of(&[(Read::MeepleDx, 1)], true);
        tree.add(&[(Read::MeepleDy, 1)], false);
        let found = tree.find(|r| (r == Read::MeepleDx).then_some(1));
        assert_eq!(found, Some(true));
        assert_eq!(tree.find(|_| Some(1)), Some(true));
    }
}

/// A capture check by a tall tower under diagonal steps and no gaps, on a
/// board full of tiles with a meeple on every cell: the board cells read and
/// the hook calls made must grow with the cells, not with their square.
#[cfg(test)]
mod linear {
    use std::sync::Arc;

    use crate::kernel::capture::capturable;
    use crate::kernel::geometry::Pos;
    use crate::kernel::tiles::SegmentKind;
    use crate::kernel::{Board, Meeple, MeepleOn, MeepleSpot, Rules, Table, TowerView};
    use crate::rules::script::ScriptRules;
    use crate::rules::{Home, Implementation, Ruleset};

    fn rules() -> (Ruleset, ScriptRules) {
        let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
            .with_memory_limit(crate::rules::MemoryLimit::Off);
        let packs = ["tower", "house/diagonal-steps", "house/no-gaps"].map(String::from);
        let set = Ruleset::from_packs(&home, &packs).unwrap();
        let Implementation::Script(scripts) = &set.implementation else {
            panic!("scripted packs");
        };
        let rules = ScriptRules::new(Arc::clone(scripts));
        (set, rules)
    }

    /// (cells in range, board cells read, meeples taken) for `height` floors.
    fn check(set: &Ruleset, rules: &ScriptRules, height: usize) -> (usize, u64, usize) {
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
        capturable(rules, &view, &table, &meeples, road, &mut cells, &mut taken).unwrap();
        (range.len(), rules.board_reads() - before, taken.len())
    }

    #[test]
    fn h1_h4_a_capture_check_reads_each_cell_of_a_tall_range_a_few_times() {
        let (set, rules) = rules();
        for height in [10, 20, 40] {
            let (cells, reads, taken) = check(&set, &rules, height);
            assert_eq!(cells, 2 * height * height + 2 * height + 1, "a diamond");
            assert_eq!(taken, cells, "a full board: every meeple in range");
            assert!(
                reads <= 9 * cells as u64,
                "{height} floors: {reads} board cells read for {cells} cells in range"
            );
        }
    }
}
