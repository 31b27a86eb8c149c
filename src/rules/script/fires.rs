//! Did a rule fire? When switched on ([`ScriptRules::count_fires`]), every
//! question the kernel asks a hook is also put to each shorter chain of its
//! packs (the packs before one, down to the hook's default), and for each
//! pack it is counted whether its answer differed from what the packs
//! before it would have answered. A pack whose answers never differed did
//! nothing in the games played, whatever it says it does.
//!
//! Each question is counted twice over: in all, and either *in play* —
//! asked by the game being played, to list the options of a decision it
//! reached, to carry out a choice or to score — or *in search*, asked while
//! a seat's bot decided ([`ScriptRules::fires_searching`]): a bot's
//! look-ahead asks of positions no game reached.
//!
//! Counting changes no answer and no budget: the shorter chains run after
//! the answer is worked out, their operations handed back, and which packs
//! changed the answer is kept with it in the memo (the shorter chains'
//! reads are recorded with the answer's, so a kept mask is right wherever
//! the kept answer is).

use serde::Serialize;

use super::memo::{Changed, Value};
use super::runs::HookRuns;
use super::{Hook, ScriptRules};

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
    on: bool,
    /// A seat's bot is deciding: questions now are its search's.
    searching: bool,
    counts: Vec<Vec<Count>>,
    games: u64,
}

/// One pack hook's counts: in all, in play, in search; and whether each
/// changed an answer in the game under way.
#[derive(Clone, Copy, Default)]
struct Count {
    sides: [Side; 3],
    this_game: [bool; 3],
}

impl Count {
    /// Count a question of side `side` whose answer this pack changed
    /// (`Some(true)`), did not, or could not be compared (`None`).
    fn count(&mut self, side: usize, changed: Option<bool>) {
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

impl ScriptRules {
    /// Count, from now on, which packs change the answers of their hooks
    /// (see [`ScriptRules::fires`]); slower, as every shorter chain is asked
    /// too where an answer is worked out.
    pub fn count_fires(&self) {
        // The front would answer questions the counts must see.
        self.front.borrow_mut().turn_off();
        let mut f = self.fires.borrow_mut();
        f.on = true;
        f.counts = Hook::ALL
            .iter()
            .map(|h| vec![Count::default(); self.scripts.chains[h.index()].len()])
            .collect();
    }

    pub(super) fn counting_fires(&self) -> bool {
        self.fires.borrow().on
    }

    /// Games begun since counting started, and per pack and hook (in the
    /// order of hooks, then of the chain) how often it was asked and changed
    /// the answer.
    pub fn fires(&self) -> Fires {
        let f = self.fires.borrow();
        let mut out = Vec::new();
        for (hook, counts) in Hook::ALL.iter().zip(&f.counts) {
            for (pos, c) in counts.iter().enumerate() {
                let pack = self.scripts.chains[hook.index()][pos];
                let [all, in_play, in_search] = c.sides;
                out.push(Fire {
                    pack: self.scripts.packs[pack].name.clone(),
                    hook: *hook,
                    asked: all.asked,
                    changed: all.changed,
                    games_changed: all.games_changed,
                    unknown: all.unknown,
                    first_in_chain: pos == 0,
                    in_play,
                    in_search,
                });
            }
        }
        Fires {
            games: f.games,
            hooks: out,
        }
    }

    /// A new game: each pack has changed nothing in it yet.
    pub(super) fn fires_new_game(&self) {
        let mut f = self.fires.borrow_mut();
        if f.on {
            f.games += 1;
            f.counts
                .iter_mut()
                .flatten()
                .for_each(|c| c.this_game = [false; 3]);
        }
    }

    /// From now on (`true`) until told otherwise, the questions asked are
    /// a seat's bot's while it decides, counted as its search's; else the
    /// game's own, counted in play. Changes no answer.
    pub fn fires_searching(&self, on: bool) {
        self.fires.borrow_mut().searching = on;
    }

    /// Count a question the kernel asked `hook`, whose packs changed its
    /// answer as `changed` says.
    pub(super) fn count_fire(&self, hook: Hook, changed: Changed) {
        let mut f = self.fires.borrow_mut();
        let side = if f.searching { 2 } else { 1 };
        let Some(counts) = f.counts.get_mut(hook.index()) else {
            return;
        };
        for (pos, c) in counts.iter_mut().enumerate() {
            let this = changed.map(|mask| mask & (1 << pos) != 0);
            c.count(0, this);
            c.count(side, this);
        }
    }

    /// Which packs of `hook`'s chain changed its answer `answer` to the
    /// arguments `args`: each shorter chain asked in turn (its operations
    /// handed back afterwards), each compared with the one a pack longer.
    pub(super) fn changed_by(&self, hook: Hook, args: &[rhai::Dynamic], answer: &Value) -> Changed {
        let packs = self.scripts.chains[hook.index()].len();
        if packs > u64::BITS as usize {
            return None;
        }
        // What the shorter chains spend, and an error of theirs, are not
        // the question's.
        let (game, budget, count) = (self.game.get(), self.budget.get(), self.count.get());
        let error = self.error.borrow().clone();
        let mut below = Vec::with_capacity(packs + 1);
        for n in 0..packs {
            let v = self.call_below(hook, n, args.to_vec()).ok();
            below.push(v.and_then(|v| self.answer(hook, &v).ok()));
        }
        self.game.set(game);
        self.budget.set(budget);
        self.count.set(count);
        *self.error.borrow_mut() = error;
        below.push(Some(answer.clone()));
        let mut mask = 0;
        for pos in 0..packs {
            let (before, after) = (below[pos].as_ref()?, below[pos + 1].as_ref()?);
            if before != after {
                mask |= 1 << pos;
            }
        }
        Some(mask)
    }
}

/// What each pack's hooks cost (`runs`): counted beside the fires, but
/// with nothing else asked, so the runs are those the games make.
impl ScriptRules {
    /// Count, from now on, every run of each pack's hooks and the
    /// operations it spent ([`ScriptRules::runs`]).
    pub fn count_runs(&self) {
        let chains = Hook::ALL
            .iter()
            .map(|h| self.scripts.chains[h.index()].len());
        self.run_counter.borrow_mut().start(chains);
    }

    /// Per pack and hook (in the order of hooks, then of the chain), its
    /// runs since counting began and their operations.
    pub fn runs(&self) -> Vec<HookRuns> {
        let c = self.run_counter.borrow();
        let mut out = Vec::new();
        for hook in Hook::ALL {
            for (pos, &pack) in self.scripts.chains[hook.index()].iter().enumerate() {
                let (runs, operations) = c.count(hook.index(), pos);
                out.push(HookRuns {
                    pack: self.scripts.packs[pack].name.clone(),
                    hook,
                    runs,
                    operations,
                });
            }
        }
        out
    }

    /// A pack's function begins to run (inside its top-level call).
    pub(super) fn run_begins(&self) {
        let now = self.call_operations();
        self.run_counter.borrow_mut().begins(now);
    }

    /// The function at `pos` of `hook`'s chain, begun last, has ended.
    pub(super) fn run_ends(&self, hook: Hook, pos: usize) {
        let now = self.call_operations();
        self.run_counter.borrow_mut().ends(hook.index(), pos, now);
    }

    /// An answer from the memo charged `cost` to the running call.
    pub(super) fn run_charged(&self, cost: u64) {
        self.run_counter.borrow_mut().charged(cost);
    }
}
