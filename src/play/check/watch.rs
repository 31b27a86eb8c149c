//! The test games watched: every hook's answers noted as they pass, and
//! what they say afterwards — dead rules, reads that never vary, packs
//! that never changed an answer, the effects done.

use std::cell::RefCell;

use anyhow::Result;

use crate::kernel::effects::{Acted, StateVar};
use crate::kernel::rules::At;
use crate::kernel::{HookBudget, Question, Reply, Rules};
use crate::rules::Ruleset;
use crate::rules::script::{Hook, ScriptRules};

use super::report::Report;

/// What the hooks answered during the test games: which answers each gave.
#[derive(Default)]
struct Seen {
    /// Per floor kind: was a floor of it ever allowed?
    placeable: Vec<bool>,
    may_top: [bool; 2],
    may_capture: [bool; 2],
    exchange: [bool; 2],
    may_place_tile: [bool; 2],
    ransoms: Vec<Option<u32>>,
    /// Effects the event hooks answered, by name.
    effects: std::collections::BTreeMap<&'static str, u64>,
    /// Moments whose event hook answered some effect (by moment name).
    acted: std::collections::BTreeSet<&'static str>,
}

/// The rules, passing every question on and noting the answers.
pub(super) struct Watch {
    inner: ScriptRules,
    seen: RefCell<Seen>,
}

impl Watch {
    pub(super) fn new(inner: ScriptRules) -> Watch {
        let kinds = inner.floor_kinds().len();
        Watch {
            inner,
            seen: RefCell::new(Seen {
                placeable: vec![false; kinds],
                ..Seen::default()
            }),
        }
    }

    /// What `games` test games said of the rules, told in `report`: dead
    /// rules, the effects done, reads that never varied, how often each pack
    /// changed its hooks' answers.
    pub(super) fn findings(&self, set: &Ruleset, games: u64, report: &mut Report) {
        report.warnings.extend(self.dead_rules(set, games));
        report.notes.extend(self.effects_done(games));
        report.warnings.extend(constant_reads(&self.inner, games));
        let (notes, warnings) = fires(&self.inner);
        report.notes.extend(notes);
        report.warnings.extend(warnings);
    }

    /// Warnings for rules that did nothing in `games` games; only hooks that
    /// some pack defines are judged.
    fn dead_rules(&self, set: &Ruleset, games: u64) -> Vec<String> {
        let defined = |h: Hook| self.inner.scripts().chain(h).next().is_some();
        let seen = self.seen.borrow();
        let mut out = Vec::new();
        let in_games = format!("in {games} test games");
        for (k, &ok) in seen.placeable.iter().enumerate() {
            if !ok {
                out.push(format!(
                    "floor kind `{}` was never placeable {in_games}",
                    set.floors()[k].name
                ));
            }
        }
        let flags = [
            (Hook::MayCapture, seen.may_capture, "a capture"),
            (Hook::MayTop, seen.may_top, "a meeple on a tower"),
            (Hook::Exchange, seen.exchange, "an exchange"),
            (Hook::MayPlaceTile, seen.may_place_tile, "a placement"),
        ];
        for (hook, answers, what) in flags {
            if !defined(hook) || answers == [false, false] {
                continue;
            }
            if !answers[1] {
                out.push(format!(
                    "hook `{}` never allowed {what} {in_games}",
                    hook.name()
                ));
            } else if !answers[0] {
                out.push(format!(
                    "hook `{}`: its answer never varied {in_games} (always true)",
                    hook.name()
                ));
            }
        }
        for hook in Hook::ALL.into_iter().filter(|h| h.acts() && defined(*h)) {
            let moment = hook.name().trim_start_matches("on_");
            if !seen.acted.contains(moment) {
                out.push(format!(
                    "hook `{}` answered no effect {in_games}",
                    hook.name()
                ));
            }
        }
        // A ransom of one fixed cost is the printed rule, so only a ransom
        // never allowed is flagged.
        if defined(Hook::Ransom)
            && seen.ransoms.iter().all(Option::is_none)
            && !seen.ransoms.is_empty()
        {
            out.push(format!("hook `ransom` never allowed a ransom {in_games}"));
        }
        out
    }

    /// What the event hooks did in `games` games, effect by effect.
    fn effects_done(&self, games: u64) -> Option<String> {
        let seen = self.seen.borrow();
        (!seen.effects.is_empty()).then(|| {
            let each: Vec<String> = seen
                .effects
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            format!("effects in {games} test games: {}", each.join(", "))
        })
    }

    fn note(&self, f: impl FnOnce(&mut Seen)) {
        f(&mut self.seen.borrow_mut());
    }
}

/// The questions whose answers [`Watch`] notes.
#[derive(Clone, Copy)]
enum Watched {
    Floor(usize),
    Top,
    Capture,
    Exchange,
    Ransom,
    Tile,
}

impl HookBudget for Watch {
    fn begin_game(&self, seed: Option<u64>) {
        self.inner.begin_game(seed)
    }

    fn searching(&self, on: bool) {
        self.inner.searching(on)
    }
}

impl Rules for Watch {
    fn floor_kinds(&self) -> &[String] {
        self.inner.floor_kinds()
    }

    fn ask(&self, question: Question) -> Result<Reply> {
        let watched = match &question {
            // Asked one by one, so each answer is seen.
            Question::TowerAnswers { .. } => return Ok(Reply::OneByOne),
            Question::MayPlaceFloor { kind, .. } => Watched::Floor(*kind as usize),
            Question::MayTop { .. } => Watched::Top,
            Question::MayCapture { .. } => Watched::Capture,
            Question::Exchange { .. } => Watched::Exchange,
            Question::Ransom { .. } => Watched::Ransom,
            Question::MayPlaceTile { .. } => Watched::Tile,
            _ => return self.inner.ask(question),
        };
        let reply = self.inner.ask(question)?;
        self.note(|s| match (watched, &reply) {
            (Watched::Floor(k), Reply::Answer(a)) => {
                if let Some(p) = s.placeable.get_mut(k) {
                    *p |= a.yes;
                }
            }
            (Watched::Top, Reply::Answer(a)) => s.may_top[a.yes as usize] = true,
            (Watched::Capture, Reply::Yes(y)) => s.may_capture[*y as usize] = true,
            (Watched::Exchange, Reply::Yes(y)) => s.exchange[*y as usize] = true,
            (Watched::Tile, Reply::Yes(y)) => s.may_place_tile[*y as usize] = true,
            (Watched::Ransom, Reply::Cost(c)) if !s.ransoms.contains(c) => s.ransoms.push(*c),
            _ => {}
        });
        Ok(reply)
    }

    fn listens(&self) -> u32 {
        self.inner.listens()
    }

    fn on_event(&self, at: At, out: &mut Vec<Acted>) -> Result<()> {
        let from = out.len();
        self.inner.on_event(at, out)?;
        self.note(|s| {
            for a in &out[from..] {
                *s.effects.entry(a.effect.name()).or_default() += 1;
            }
            if out.len() > from {
                s.acted.insert(at.moment.name());
            }
        });
        Ok(())
    }

    fn state_vars(&self) -> &[StateVar] {
        self.inner.state_vars()
    }
}

/// Warnings for the reads a hook made that gave one value in all of
/// `games` games: a read that never varies is a likely bug (a field read on
/// features where it cannot change, a seat that is always the same).
fn constant_reads(rules: &ScriptRules, games: u64) -> Vec<String> {
    rules
        .constant_reads()
        .into_iter()
        .map(|(hook, read, value)| {
            format!(
                "hook `{}` read `{read}` and it gave {value} every time in {games} test games \
                 (always the same: is that what the rule means?)",
                hook.name()
            )
        })
        .collect()
}

/// How often each pack changed its hooks' answers in the test games (notes),
/// and a warning for each that changed none: a rule that never applies in
/// play may be written for a case that does not arise, or be shadowed. A
/// hook no pack before it defines, which answered as the hook's default
/// does, states the default: a note, not a warning.
fn fires(rules: &ScriptRules) -> (Vec<String>, Vec<String>) {
    let fires = rules.fires();
    let games = fires.games;
    let (mut notes, mut warnings) = (Vec::new(), Vec::new());
    for f in fires.hooks.iter().filter(|f| f.asked > 0) {
        let unknown = match f.unknown {
            0 => String::new(),
            n => format!(" ({n} could not be compared: a pack before it failed)"),
        };
        if f.never_changed() && f.first_in_chain {
            notes.push(format!(
                "pack `{}`, hook `{}`: answered as the hook's default would in all {} questions \
                 of {games} test games (it states the default: nothing to fix){unknown}",
                f.pack,
                f.hook.name(),
                f.asked
            ));
        } else if f.never_changed() {
            warnings.push(format!(
                "pack `{}`, hook `{}` changed no answer in {games} test games: asked {} times, \
                 it answered as the packs before it (or the default) would{unknown}; \
                 does the rule ever apply?",
                f.pack,
                f.hook.name(),
                f.asked
            ));
        } else {
            notes.push(format!(
                "pack `{}`, hook `{}`: changed {} of {} answers, in {} of {games} games{unknown}",
                f.pack,
                f.hook.name(),
                f.changed,
                f.asked,
                f.games_changed
            ));
        }
    }
    (notes, warnings)
}
