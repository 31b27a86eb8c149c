//! The store of hook answers by what each call read: for each hook, per
//! plain arguments (a floor kind, a reach, a score…: the values a script
//! reads without an accessor), a trie of what the calls read, in order,
//! with each value ([`Node`]). A pure script that has read the same values takes the same
//! path, so where every read of a kept trace gives the same value now, the
//! kept answer stands without running the script — whatever the question
//! (another stack of the same height, another seat, another turn).
//!
//! Each answer is kept with the operations it cost (the hooks it asked
//! included) and charged at that cost each time it is given, so what a
//! game's hooks spend is the same whichever games its thread played before;
//! and with how long it holds for the kernel's per-tower answers
//! (`super::reads::holds`).
//!
//! Not the only store: the front keeps a stack's answers that read only
//! the stack by the stack (`super::front`), the walked paths a board's
//! steps (`super::steps`), and the kernel each tower's answers; each stays
//! because its bench shows the memo alone slower (ARCHITECTURE.md, "Hooks
//! are pure, and answered once").

use std::collections::hash_map::Entry;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::Hook;
use super::reads::Read;
use crate::kernel::effects::Acted;
use crate::kernel::{CaptureOutcome, EndScore, Holds};

/// A hook's plain arguments, as the memo's first key.
pub(super) type Key = [i64; 3];

/// A hook's answer, converted from the script's value.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value {
    Bool(bool),
    Int(i64),
    /// Capture cells, as offsets from the tower.
    Cells(Arc<[(i32, i32)]>),
    /// Floors of each kind.
    Supply(Arc<[u32]>),
    /// A ransom's cost; `None`: no ransom.
    Cost(Option<u32>),
    Outcome(CaptureOutcome),
    /// Points given or taken at the end.
    End(Arc<[EndScore]>),
    /// What an event hook's packs do, in order.
    Effects(Arc<[Acted]>),
}

impl Value {
    pub(super) fn bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub(super) fn int(&self) -> Option<i64> {
        match *self {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }

    pub(super) fn cells(&self) -> Option<Arc<[(i32, i32)]>> {
        match self {
            Value::Cells(c) => Some(c.clone()),
            _ => None,
        }
    }

    /// The cells, without a copy of the shared list.
    pub(super) fn cells_slice(&self) -> Option<&[(i32, i32)]> {
        match self {
            Value::Cells(c) => Some(c),
            _ => None,
        }
    }

    pub(super) fn supply(&self) -> Option<Vec<u32>> {
        match self {
            Value::Supply(s) => Some(s.to_vec()),
            _ => None,
        }
    }

    pub(super) fn cost(&self) -> Option<Option<u32>> {
        match *self {
            Value::Cost(c) => Some(c),
            _ => None,
        }
    }

    pub(super) fn outcome(&self) -> Option<CaptureOutcome> {
        match *self {
            Value::Outcome(o) => Some(o),
            _ => None,
        }
    }

    pub(super) fn end(&self) -> Option<Arc<[EndScore]>> {
        match self {
            Value::End(e) => Some(e.clone()),
            _ => None,
        }
    }

    pub(super) fn effects(&self) -> Option<Arc<[Acted]>> {
        match self {
            Value::Effects(e) => Some(e.clone()),
            _ => None,
        }
    }
}

/// Which packs of a hook's chain changed an answer: bit i for position i;
/// `None` when not counted, or when some shorter chain could not be asked
/// (see `super::fires`).
pub(super) type Changed = Option<u64>;

/// An answer kept, with what working it out cost and how long it holds.
#[derive(Clone, Debug)]
pub(super) struct Kept {
    pub(super) answer: Value,
    pub(super) cost: u64,
    pub(super) holds: Holds,
    /// Which packs changed the answer, when fires are counted.
    pub(super) changed: Changed,
}

/// The answers kept for one key: an answer, or the next read and, for each
/// value it gave, what follows.
#[derive(Debug)]
pub(super) enum Node<A> {
    Answer(A),
    Ask(Read, Branches<A>),
}

/// What follows a read, per value it gave: the values sorted, each at the
/// index of its node. A read mostly gives few values (a height, a seat, a
/// rank), so a scan of a short array finds one faster than a hash map
/// (hashing costs more than the few comparisons), and the values sit
/// together in memory; a long one (raw scores) is searched by halves.
#[derive(Debug)]
pub(super) struct Branches<A> {
    values: Vec<i64>,
    next: Vec<Node<A>>,
}

impl<A> Branches<A> {
    fn one(value: i64, node: Node<A>) -> Branches<A> {
        Branches {
            values: vec![value],
            next: vec![node],
        }
    }

    fn get(&self, value: i64) -> Option<&Node<A>> {
        let i = if self.values.len() <= 8 {
            self.values.iter().position(|&v| v == value)?
        } else {
            self.values.binary_search(&value).ok()?
        };
        Some(&self.next[i])
    }
}

impl<A: Clone> Node<A> {
    pub(super) fn of(trace: &[(Read, i64)], answer: A) -> Node<A> {
        match trace.split_first() {
            None => Node::Answer(answer),
            Some((&(read, value), rest)) => {
                Node::Ask(read, Branches::one(value, Node::of(rest, answer)))
            }
        }
    }

    /// Keep `answer` under `trace`; whether it was kept (a trace that
    /// disagrees with the tree — another read where the tree asks one — is
    /// not: a pure script never gives one).
    pub(super) fn add(&mut self, trace: &[(Read, i64)], answer: A) -> bool {
        let mut node = self;
        let mut rest = trace;
        loop {
            match (node, rest.split_first()) {
                (Node::Ask(read, next), Some((&(r, value), tail))) if *read == r => {
                    match next.values.binary_search(&value) {
                        Ok(i) => {
                            node = &mut next.next[i];
                            rest = tail;
                        }
                        Err(i) => {
                            next.values.insert(i, value);
                            next.next.insert(i, Node::of(tail, answer));
                            return true;
                        }
                    }
                }
                _ => return false,
            }
        }
    }

    /// The kept answer for the values `read` gives now; `None` when some
    /// value differs from every kept trace (or `read` cannot tell).
    pub(super) fn find(&self, mut read: impl FnMut(Read) -> Option<i64>) -> Option<&A> {
        let mut node = self;
        loop {
            match node {
                Node::Answer(a) => return Some(a),
                Node::Ask(r, next) => node = next.get(read(*r)?)?,
            }
        }
    }
}

/// Answers kept per hook before its store is emptied and filled again:
/// a rule that reads raw scores keeps one per distinct moment, and the
/// store of a long run stays bounded (an answer found again is the same).
const MAX_ANSWERS: usize = 1 << 16;

/// Reads one call may record before its answer is no longer kept (a
/// script that loops over the board keeps nothing rather than a trace of
/// thousands of cells).
pub(super) const MAX_TRACE: usize = 256;

/// Every hook's kept answers.
#[derive(Default)]
pub(super) struct Memo {
    hooks: [Store; Hook::COUNT],
}

#[derive(Default)]
struct Store {
    by_key: FxHashMap<Key, Node<Kept>>,
    answers: usize,
    /// Answers kept, and found again, since the store began (or was last
    /// emptied): a hook whose answers are seldom found again (one that
    /// reads what changes at every call) stops being kept.
    keeps: u64,
    found: std::cell::Cell<u64>,
    /// Its answers are no longer kept: keeping them cost more than finding
    /// them again saved.
    idle: bool,
}

/// Answers a store keeps before it judges whether keeping pays.
const TRIAL: u64 = 4096;

impl Store {
    /// Does keeping pay? Not where fewer than one answer in four kept is
    /// ever found again: each costs a trie path, and finding none saves
    /// nothing.
    fn pays(&self) -> bool {
        self.keeps < TRIAL || self.found.get() * 4 >= self.keeps
    }
}

impl Memo {
    /// The answer kept for `hook` with `key` whose trace `read` agrees with.
    pub(super) fn find(
        &self,
        hook: Hook,
        key: &Key,
        read: impl FnMut(Read) -> Option<i64>,
    ) -> Option<&Kept> {
        let store = &self.hooks[hook.index()];
        let found = store.by_key.get(key)?.find(read)?;
        store.found.set(store.found.get() + 1);
        Some(found)
    }

    /// Keep `answer` of `hook` with `key` under `trace`.
    pub(super) fn keep(&mut self, hook: Hook, key: Key, trace: &[(Read, i64)], answer: Kept) {
        let store = &mut self.hooks[hook.index()];
        if store.idle {
            return;
        }
        if !store.pays() {
            *store = Store {
                idle: true,
                ..Store::default()
            };
            return;
        }
        if store.answers >= MAX_ANSWERS {
            *store = Store::default();
        }
        store.keeps += 1;
        let kept = match store.by_key.entry(key) {
            Entry::Occupied(mut e) => e.get_mut().add(trace, answer),
            Entry::Vacant(e) => {
                e.insert(Node::of(trace, answer));
                true
            }
        };
        store.answers += kept as usize;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hook_whose_answers_are_never_found_again_stops_being_kept() {
        let mut memo = Memo::default();
        let answer = |n| Kept {
            answer: Value::Int(n),
            cost: 1,
            holds: Holds::Now,
            changed: None,
        };
        let hook = Hook::OnTurnEnd;
        for n in 0..TRIAL as i64 + 1 {
            memo.keep(hook, [0; 3], &[(Read::Turn, n)], answer(n));
        }
        let store = &memo.hooks[hook.index()];
        assert!(store.idle && store.by_key.is_empty());
        memo.keep(hook, [0; 3], &[(Read::Turn, -1)], answer(-1));
        assert!(
            memo.find(hook, &[0; 3], |_| Some(-1)).is_none(),
            "idle: kept nothing"
        );
        // A hook whose answers are found again stays kept.
        let other = Hook::MayTop;
        for n in 0..TRIAL as i64 * 2 {
            memo.keep(other, [0; 3], &[(Read::Turn, n % 8)], answer(n % 8));
            assert!(memo.find(other, &[0; 3], |_| Some(n % 8)).is_some());
        }
        assert!(!memo.hooks[other.index()].idle);
    }

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
            .copied()
        };
        assert_eq!(ask(1, 1), Some(true));
        assert_eq!(ask(1, -1), Some(false));
        assert_eq!(ask(2, 2), Some(true));
        assert_eq!(ask(2, -1), None, "never asked");
        assert_eq!(ask(3, 1), None);
    }

    #[test]
    fn a_read_of_many_values_finds_each_in_any_order_of_keeping() {
        let values: Vec<i64> = (0..40).map(|i| (i * 37) % 101 - 50).collect();
        let mut tree = Node::of(&[(Read::Score(0), values[0])], values[0]);
        for &v in &values[1..] {
            assert!(tree.add(&[(Read::Score(0), v)], v));
        }
        for &v in &values {
            assert_eq!(tree.find(|_| Some(v)).copied(), Some(v));
        }
        assert_eq!(tree.find(|_| Some(1000)), None);
        let mut few = Node::of(&[(Read::Score(0), 3)], 3);
        few.add(&[(Read::Score(0), -2)], -2);
        assert_eq!(few.find(|_| Some(-2)).copied(), Some(-2));
        assert_eq!(few.find(|_| Some(0)), None);
    }

    #[test]
    fn a_trace_that_disagrees_with_the_tree_is_not_kept() {
        let mut tree = Node::of(&[(Read::MeepleDx, 1)], true);
        assert!(!tree.add(&[(Read::MeepleDy, 1)], false));
        let found = tree.find(|r| (r == Read::MeepleDx).then_some(1)).copied();
        assert_eq!(found, Some(true));
        assert_eq!(tree.find(|_| Some(1)).copied(), Some(true));
    }

    #[test]
    fn a_full_store_starts_again_and_still_answers() {
        let mut memo = Memo::default();
        let kept = |n: i64| Kept {
            answer: Value::Int(n),
            cost: 1,
            holds: Holds::Now,
            changed: None,
        };
        for n in 0..(MAX_ANSWERS as i64 + 10) {
            memo.keep(Hook::Ransom, [n, 0, 0], &[], kept(n));
            // Found again, so keeping pays.
            assert!(memo.find(Hook::Ransom, &[n, 0, 0], |_| None).is_some());
        }
        let store = &memo.hooks[Hook::Ransom.index()];
        assert!(store.answers <= MAX_ANSWERS, "{}", store.answers);
        let last = MAX_ANSWERS as i64 + 9;
        let found = memo.find(Hook::Ransom, &[last, 0, 0], |_| None);
        assert_eq!(found.map(|k| k.answer.clone()), Some(Value::Int(last)));
    }
}
