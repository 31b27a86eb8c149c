//! The host's side of the counts of fires (`fires`) and runs (`runs`):
//! switching them on, counting each question and each run of a pack's
//! function, and the reports. The counters are parts the host owns and know
//! nothing of it; this module reads the host's scripts and budget to fill
//! them.

use super::fires::{Count, Fire, Fires};
use super::hooks::Hook;
use super::host::ScriptRules;
use super::memo::{Changed, Value};
use super::runs::HookRuns;

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
