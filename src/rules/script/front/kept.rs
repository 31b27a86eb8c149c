//! The front's kept groups: a stack's answers that hold for the tower, by
//! the stack. A part the host owns; asking through it is the front's
//! (`super`).

use rustc_hash::FxHashMap;

use super::super::hooks::Hook;
use super::super::memo::Value;

/// Groups kept before the front starts again (a group found again is the
/// same: nothing is lost but the lookup).
const MAX_GROUPS: usize = 4096;

/// Which questions a group answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub(super) enum Group {
    /// `may_place_floor` of each kind in order, then `may_top`.
    Tower,
    /// `reach`, then `range` of it.
    Range,
}

/// Everything an answer that holds for the tower may have read: the
/// floors (see `reads::packed_stack`), then the group, whether a meeple
/// tops the stack, whose (0 for none, else the seat + 1) and the player
/// count, packed into one word so that a lookup hashes two words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct StackKey(i64, u32);

impl StackKey {
    pub(super) fn new(
        group: Group,
        floors: i64,
        topped: bool,
        owner: Option<usize>,
        players: usize,
    ) -> Self {
        let owner = owner.map_or(0, |o| o as u32 + 1) & 0xff;
        let rest = group as u32 | (topped as u32) << 1 | owner << 2 | (players as u32 & 0xff) << 10;
        StackKey(floors, rest)
    }
}

/// One answer of a group, with the hook that gave it and what it cost.
#[derive(Clone, Debug)]
pub(super) struct Given {
    pub(super) hook: Hook,
    pub(super) value: Value,
    pub(super) cost: u64,
}

/// A group's answers in order, each where it holds for the tower (`None`:
/// asked through the memo each time), and what the kept ones cost together.
pub(super) struct Kept {
    pub(super) answers: Box<[Option<Given>]>,
    pub(super) cost: u64,
    /// Every answer is kept.
    pub(super) complete: bool,
}

/// The kept groups.
#[derive(Default)]
pub(in crate::rules::script) struct Front {
    /// Every question takes the memo's path: fires are counted or calls
    /// traced. Nothing is kept, so nothing is found.
    pub(super) off: bool,
    pub(super) groups: FxHashMap<StackKey, Kept>,
}

impl Front {
    /// A front that is never asked (see the field `off`).
    pub(in crate::rules::script) fn turned_off() -> Front {
        Front {
            off: true,
            ..Front::default()
        }
    }

    /// Ask nothing of the front from now on.
    pub(in crate::rules::script) fn turn_off(&mut self) {
        self.off = true;
        self.groups.clear();
    }

    pub(super) fn keep(&mut self, key: StackKey, answers: Vec<Option<Given>>) {
        if self.off {
            return;
        }
        if self.groups.len() >= MAX_GROUPS {
            self.groups.clear();
        }
        let cost = answers.iter().flatten().map(|g| g.cost).sum();
        let complete = answers.iter().all(Option::is_some);
        let answers = answers.into();
        let kept = Kept {
            answers,
            cost,
            complete,
        };
        self.groups.insert(key, kept);
    }
}
