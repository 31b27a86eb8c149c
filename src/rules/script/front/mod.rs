//! The memo's front for questions about a stack alone: a tower's questions
//! (`may_place_floor` of each kind, then `may_top`) and its capture cells
//! (`reach`, then `range`). An answer of such a group that read only the
//! stack, its top meeple's owner and the player count (it holds for the
//! tower: [`Holds::Tower`]) is kept by exactly those arguments; a group
//! whose every answer is kept is found again with one lookup — the kernel
//! asks a changed tower's questions dozens of times a game, a bot asks for
//! ranges thousands of times — and charged what the memo would charge, hook
//! by hook; the ranges of the stacks last asked about are found with one
//! comparison before that. Any other answer (one that read the seat or
//! the standings) takes the memo's path in its turn, as does every question
//! while fires are counted or calls traced (both see each question).
//! The kept groups are a part of the host (`kept`); this module asks
//! through them.

pub(super) mod kept;

use std::sync::Arc;

use anyhow::Result;

use super::ask::Question;
use super::hooks::Hook;
use super::host::ScriptRules;
use super::memo::Value;
use super::reads::{self, Facts};
use crate::kernel::{Answer, Asking, FloorKind, Holds, StackView, TOP_QUESTION};
use kept::{Given, Group, StackKey};

impl ScriptRules {
    /// The key of a group about `floors`, or `None` for a stack that does
    /// not pack.
    fn stack_key(
        group: Group,
        floors: &[FloorKind],
        topped: bool,
        owner: Option<usize>,
        players: usize,
    ) -> Option<StackKey> {
        let floors = reads::packed_stack(floors)?;
        Some(StackKey::new(group, floors, topped, owner, players))
    }

    /// What `take` makes of the complete group kept under `key`, each
    /// answer charged first as the memo would charge it.
    fn known<R>(
        &self,
        key: Option<StackKey>,
        take: impl FnOnce(&[Option<Given>]) -> R,
    ) -> Result<Option<R>> {
        let front = self.front.borrow();
        let Some(known) = key
            .and_then(|k| front.groups.get(&k))
            .filter(|known| known.complete)
        else {
            return Ok(None);
        };
        let each = known.answers.iter().flatten().map(|g| (g.hook, g.cost));
        self.charge_kept(known.cost, each)?;
        Ok(Some(take(&known.answers)))
    }

    /// Is a group kept under `key`, complete or not?
    fn kept_group(&self, key: Option<StackKey>) -> bool {
        key.is_some_and(|k| self.front.borrow().groups.contains_key(&k))
    }

    /// The capture cells of a stack, where the front keeps them, to read
    /// them again: not charged (see `known_range`).
    pub(super) fn kept_cells(
        &self,
        floors: &[FloorKind],
        topped: bool,
    ) -> Option<Arc<[(i32, i32)]>> {
        let key = StackKey::new(Group::Range, reads::packed_stack(floors)?, topped, None, 0);
        let front = self.front.borrow();
        front.groups.get(&key)?.answers[1].as_ref()?.value.cells()
    }

    /// Ask `hook` through the memo, noting what the answer cost and whether
    /// it holds for the tower.
    fn given<T>(
        &self,
        hook: Hook,
        ask: impl FnOnce() -> Result<(T, Holds)>,
        value: impl FnOnce(&T) -> Value,
    ) -> Result<(T, Option<Given>)> {
        let start = self.spent();
        let (answer, holds) = ask()?;
        let given = (holds == Holds::Tower).then(|| Given {
            hook,
            value: value(&answer),
            cost: self.spent() - start,
        });
        Ok((answer, given))
    }

    /// Keep a group of which some answer held for the tower.
    fn keep_group(&self, key: Option<StackKey>, group: Vec<Option<Given>>) {
        if let Some(key) = key.filter(|_| group.iter().any(Option::is_some)) {
            self.front.borrow_mut().keep(key, group);
        }
    }

    /// The tower questions `questions` about `stack` for `asking.seat`, in
    /// the order of [`crate::kernel::Rules::tower_answers`].
    pub(super) fn tower_group(
        &self,
        stack: &StackView,
        asking: &Asking,
        questions: u64,
        out: &mut Vec<Answer>,
    ) -> Result<()> {
        let players = asking.table.players();
        let key = Self::stack_key(
            Group::Tower,
            stack.floors,
            stack.topped,
            asking.owner,
            players,
        );
        let kinds = self.scripts.kinds.len();
        let every = ((1u64 << kinds) - 1) | (1 << TOP_QUESTION);
        if questions & every != every {
            return self.some_of_group(key, stack, asking, questions, out);
        }
        let given = |known: &[Option<Given>]| {
            out.extend(
                known
                    .iter()
                    .flatten()
                    .map(|g| Answer::lasting(g.value.bool() == Some(true))),
            );
        };
        if self.known(key, given)?.is_some() {
            return Ok(());
        }
        // Some answers read more than the stack (the seat, the standings).
        if self.kept_group(key) {
            return self.some_of_group(key, stack, asking, questions, out);
        }
        // Each answer kept where it holds for the tower.
        let mut group = Vec::with_capacity(kinds + 1);
        for q in 0..=kinds {
            let (hook, kind, _) = tower_question(q, kinds);
            let ask = || {
                let a = self.ask_tower(hook, stack, kind, asking)?;
                Ok((a, a.holds))
            };
            let (answer, g) = self.given(hook, ask, |a: &Answer| Value::Bool(a.yes))?;
            out.push(answer);
            group.push(g);
        }
        self.keep_group(key, group);
        Ok(())
    }

    /// The `q`th answer of the group kept under `key`, and what it cost;
    /// not charged.
    fn kept_answer(&self, key: Option<StackKey>, q: usize) -> Option<(bool, u64)> {
        let front = self.front.borrow();
        let given = front.groups.get(&key?)?.answers[q].as_ref()?;
        Some((given.value.bool() == Some(true), given.cost))
    }

    /// Some of a tower's questions (the others answered unasked): each from
    /// the group the front keeps under `key`, charged in its turn, or else
    /// asked through the memo; nothing is gathered.
    fn some_of_group(
        &self,
        key: Option<StackKey>,
        stack: &StackView,
        asking: &Asking,
        questions: u64,
        out: &mut Vec<Answer>,
    ) -> Result<()> {
        let kinds = self.scripts.kinds.len();
        for q in 0..=kinds {
            let (hook, kind, bit) = tower_question(q, kinds);
            if questions & bit == 0 {
                out.push(Answer::unasked());
                continue;
            }
            let answer = match self.kept_answer(key, q) {
                Some((yes, cost)) => {
                    self.charge_kept(cost, [(hook, cost)])?;
                    Answer::lasting(yes)
                }
                None => self.ask_tower(hook, stack, kind, asking)?,
            };
            out.push(answer);
        }
        Ok(())
    }

    /// The capture cells of a stack, appended to `out`: from the front
    /// without a copy where it keeps them (the path of almost every call:
    /// a bot asks for ranges thousands of times a game), else asked.
    pub(super) fn extend_range(
        &self,
        floors: &[FloorKind],
        topped: bool,
        out: &mut Vec<(i32, i32)>,
    ) -> Result<()> {
        // Neither hook is given the tower's meeple or the game.
        let key = Self::stack_key(Group::Range, floors, topped, None, 0);
        if let Some(key) = key
            && self.extend_recent(key, out)?
        {
            return Ok(());
        }
        let extend = |known: &[Option<Given>]| {
            known[1]
                .as_ref()?
                .value
                .cells_slice()
                .map(|c| out.extend_from_slice(c))
        };
        if self.known(key, extend)?.flatten().is_none() {
            out.extend_from_slice(&self.asked_range(floors, topped, key)?);
        }
        if let Some(key) = key {
            self.front.borrow_mut().note_recent(key);
        }
        Ok(())
    }

    /// The capture cells of a recent stack (see [`Front::recent`]) appended
    /// to `out`, charged as the memo would charge them; `false` where the
    /// stack is not a recent one.
    fn extend_recent(&self, key: StackKey, out: &mut Vec<(i32, i32)>) -> Result<bool> {
        let front = self.front.borrow();
        let Some(recent) = front.recent(key) else {
            return Ok(false);
        };
        let [reach, range] = recent.costs;
        let each = [(Hook::Reach, reach), (Hook::Range, range)];
        self.charge_kept(reach + range, each)?;
        out.extend_from_slice(&recent.cells);
        Ok(true)
    }

    /// The capture cells of a stack: its reach, then `range` of it.
    pub(super) fn range(&self, floors: &[FloorKind], topped: bool) -> Result<Arc<[(i32, i32)]>> {
        // Neither hook is given the tower's meeple or the game.
        let key = Self::stack_key(Group::Range, floors, topped, None, 0);
        match self
            .known(key, |known| known[1].as_ref()?.value.cells())?
            .flatten()
        {
            Some(cells) => Ok(cells),
            None => self.asked_range(floors, topped, key),
        }
    }

    /// The capture cells of a stack the front does not keep under `key`:
    /// its reach and `range` asked through the memo, and kept under `key`
    /// where both hold for the tower.
    fn asked_range(
        &self,
        floors: &[FloorKind],
        topped: bool,
        key: Option<StackKey>,
    ) -> Result<Arc<[(i32, i32)]>> {
        let (reach, reach_given) = self.given(
            Hook::Reach,
            || self.asked_reach(floors, topped),
            |&r| Value::Int(r),
        )?;
        let facts = Facts {
            stack: Some((floors, topped)),
            ..Facts::default()
        };
        let ask_range = || {
            let q = Question::new(Hook::Range, [reach, 0, 0], facts);
            self.asked(&q, Value::cells)
        };
        let (cells, range_given) =
            self.given(Hook::Range, ask_range, |c: &Arc<[(i32, i32)]>| {
                Value::Cells(c.clone())
            })?;
        // Kept where both hold for the tower.
        if reach_given.is_some() && range_given.is_some() {
            self.keep_group(key, vec![reach_given, range_given]);
        }
        Ok(cells)
    }
}

/// The `q`th of a tower's questions where a variant has `kinds` floor
/// kinds (each kind's `may_place_floor`, then `may_top`): its hook, its
/// plain argument and its bit among the kernel's questions.
fn tower_question(q: usize, kinds: usize) -> (Hook, i64, u64) {
    if q == kinds {
        (Hook::MayTop, 0, 1 << TOP_QUESTION)
    } else {
        (Hook::MayPlaceFloor, q as i64, 1 << q)
    }
}
