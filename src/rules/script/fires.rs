//! Did a rule fire? When switched on (`ScriptRules::count_fires`), every
//! question the kernel asks a hook is also put to each shorter chain of its
//! packs (the packs before one, down to the hook's default), and for each
//! pack it is counted whether its answer differed from what the packs
//! before it would have answered. A pack whose answers never differed did
//! nothing in the games played, whatever it says it does.
//!
//! Each question is counted twice over: in all, and either *in play* —
//! asked by the game being played, to list the options of a decision it
//! reached, to carry out a choice or to score — or *in search*, asked while
//! a seat's bot decided (`ScriptRules::fires_searching`): a bot's
//! look-ahead asks of positions no game reached.
//!
//! Counting changes no answer and no budget: the shorter chains run after
//! the answer is worked out, their operations handed back, and which packs
//! changed the answer is kept with it in the memo (the shorter chains'
//! reads are recorded with the answer's, so a kept mask is right wherever
//! the kept answer is).

use serde::Serialize;

use super::Hook;

/// How often one pack's hook was asked, and changed the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fire {
    /// The pack's name, as the variant lists it.
    pub pack: String,
    #[serde(serialize_with = "hook_name")]
    pub hook: Hook,
    /// Questions the hook was asked with this pack in its chain.
    pub asked: u64,
    /// Those whose answer this pack changed.
    pub changed: u64,
    /// Games in which it changed at least one answer.
    pub games_changed: u64,
    /// Questions for which the packs before it could not be asked (one
    /// failed): not counted as changed or not.
    pub unknown: u64,
    /// No pack before it defines the hook: its answers were compared with
    /// the hook's default, so one that never changed an answer states the
    /// default (as The Tower's `reach` does), which is no fault.
    pub first_in_chain: bool,
    /// The same counts of the questions the games played asked: options
    /// of decisions they reached, choices carried out, scores.
    pub in_play: Side,
    /// The same counts of the questions asked while a bot decided (its
    /// search of positions no game may reach).
    pub in_search: Side,
}

/// The counts of one kind of question of a pack's hook.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Side {
    pub asked: u64,
    pub changed: u64,
    pub games_changed: u64,
    pub unknown: u64,
}

impl Side {
    fn add(&mut self, more: Side) {
        self.asked += more.asked;
        self.changed += more.changed;
        self.games_changed += more.games_changed;
        self.unknown += more.unknown;
    }
}

/// A hook as its name.
fn hook_name<S: serde::Serializer>(hook: &Hook, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(hook.name())
}

/// The fires of many games: per pack and hook, in the order of hooks, then
/// of the chain.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Fires {
    /// Games begun while counting.
    pub games: u64,
    pub hooks: Vec<Fire>,
}

impl Fires {
    /// Add the counts of `more`, made under the same packs (by other
    /// threads, or other games): whole numbers, so the sum is the same in
    /// any order, whichever thread played which game.
    pub fn add(&mut self, more: Fires) {
        self.games += more.games;
        if self.hooks.is_empty() {
            self.hooks = more.hooks;
            return;
        }
        for (f, m) in self.hooks.iter_mut().zip(more.hooks) {
            debug_assert!(f.pack == m.pack && f.hook == m.hook);
            f.asked += m.asked;
            f.changed += m.changed;
            f.games_changed += m.games_changed;
            f.unknown += m.unknown;
            f.in_play.add(m.in_play);
            f.in_search.add(m.in_search);
        }
    }

    /// The pack hooks that never changed an answer: rules that did
    /// nothing in these games.
    pub fn never_changed(&self) -> impl Iterator<Item = &Fire> {
        self.hooks.iter().filter(|f| f.never_changed())
    }
}

impl Fire {
    /// Asked, with some answer compared, and none different from what the
    /// packs before it would have answered.
    pub fn never_changed(&self) -> bool {
        self.asked > 0 && self.changed == 0 && self.unknown < self.asked
    }

    /// Asked by the games played, with some answer compared, and none
    /// changed: a rule that did nothing in these games, whatever bots'
    /// searches found it would have done elsewhere.
    pub fn never_changed_in_play(&self) -> bool {
        let p = &self.in_play;
        p.asked > 0 && p.changed == 0 && p.unknown < p.asked
    }
}

/// The counts of one thread, per hook and position in its chain.
#[derive(Default)]
pub(super) struct Counter {
    pub(super) on: bool,
    /// A seat's bot is deciding: questions now are its search's.
    pub(super) searching: bool,
    pub(super) counts: Vec<Vec<Count>>,
    pub(super) games: u64,
}

/// One pack hook's counts: in all, in play, in search; and whether each
/// changed an answer in the game under way.
#[derive(Clone, Copy, Default)]
pub(super) struct Count {
    pub(super) sides: [Side; 3],
    pub(super) this_game: [bool; 3],
}

impl Count {
    /// Count a question of side `side` whose answer this pack changed
    /// (`Some(true)`), did not, or could not be compared (`None`).
    pub(super) fn count(&mut self, side: usize, changed: Option<bool>) {
        let s = &mut self.sides[side];
        s.asked += 1;
        match changed {
            None => s.unknown += 1,
            Some(true) => {
                s.changed += 1;
                s.games_changed += u64::from(!self.this_game[side]);
                self.this_game[side] = true;
            }
            Some(false) => {}
        }
    }
}
