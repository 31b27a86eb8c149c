//! The one recorder. While a hook call runs, the question it answers is
//! kept as a frame (an owned copy of its facts: the board and features are
//! lent through thread-locals), and every accessor a script reaches either
//! reads through the frame — [`ScriptRules::read`]: the value from
//! `ScriptRules::value`, noted in the frame's trace — or marks the call
//! as reading something no trace can hold ([`ScriptRules::opaque`]): then
//! its answer is given but not kept. A hook that asks another (a helper
//! such as `capture_cells`) runs it in a frame of its own. The frames are a
//! part of the host (`frames`); this module records through them.

pub(super) mod frames;

use rhai::EvalAltResult;

use super::hooks::Hook;
use super::host::ScriptRules;
use super::memo::MAX_TRACE;
use super::reads::{Facts, Read};
use super::running::{RULES, rt_error, with_rules};
use crate::kernel::FloorKind;
use crate::kernel::pieces::MeepleOn;
use crate::kernel::tiles::SegmentKind;
use frames::{Frame, Recorded, lend, lent};

/// Floor kind `name` of the packs' kinds, or the error naming the kinds.
pub(super) fn floor_kind(name: &str) -> Result<FloorKind, Box<EvalAltResult>> {
    with_rules(|r| {
        r.scripts
            .kind_names
            .iter()
            .position(|k| k.as_str() == name)
            .and_then(|k| FloorKind::try_from(k).ok())
            .ok_or_else(|| {
                rt_error(format!(
                    "no pack declares floor kind `{name}`{}",
                    crate::kernel::diag::did_you_mean(
                        name,
                        r.scripts.kinds.iter().map(String::as_str)
                    )
                ))
            })
    })?
}

/// A segment kind's name from its number (as [`Read::FeatureKind`] and
/// [`Read::MeepleOn`] give it; -1: a tower).
pub(super) fn kind_name(code: i64) -> &'static str {
    usize::try_from(code)
        .ok()
        .and_then(|i| SegmentKind::ALL.get(i))
        .map_or(MeepleOn::Tower.name(), |k| k.name())
}

impl ScriptRules {
    /// Run `f`, a call answering the question of `facts`, with the board
    /// and features lent, recording what it reads.
    pub(super) fn recorded<T>(
        &self,
        hook: Hook,
        facts: &Facts,
        f: impl FnOnce() -> T,
    ) -> (T, Recorded) {
        {
            let mut r = self.recorder.borrow_mut();
            let depth = r.depth;
            if r.frames.len() == depth {
                r.frames.push(Frame::default());
            }
            r.frames[depth].hold(hook, facts);
            r.depth += 1;
        }
        let out = lend(facts.table, f);
        let mut r = self.recorder.borrow_mut();
        r.depth -= 1;
        let frame = &r.frames[r.depth];
        let recorded = Recorded {
            reads: frame.trace.clone(),
            opaque: frame.opaque,
        };
        (out, recorded)
    }

    /// The hook of the running call, if one runs.
    pub(super) fn running_hook(&self) -> Option<Hook> {
        let r = self.recorder.borrow();
        r.frames[..r.depth].last().and_then(|f| f.hook)
    }

    /// A variable the running script names: some arguments are read only
    /// when named (`end`'s towers, `may_place_tile`'s placement), so an
    /// answer is kept by what the script looked at of them.
    pub(super) fn named(&self, name: &str) {
        self.named_towers(name);
        self.named_placement(name);
    }

    /// An argument of `may_place_tile`, named by the pack that runs it, is
    /// read ([`Read::Placement`]): a rule that returns on the tile alone
    /// is kept by the tile, not by every placement the game offers. Naming
    /// one in a pack further down (through `previous`) reads the question's
    /// own argument, which can only key an answer more finely.
    fn named_placement(&self, name: &str) {
        let Some((Hook::MayPlaceTile, pos)) = self.stack.borrow().last().copied() else {
            return;
        };
        let pack = self.scripts.chains[Hook::MayPlaceTile.index()][pos];
        let params = &self.scripts.packs[pack].placement_params;
        if let Some(i) = params.iter().position(|p| p.as_str() == name) {
            self.read(Read::Placement(i as u8));
        }
    }

    /// Reads the running call has made so far.
    pub(super) fn reads_so_far(&self) -> usize {
        let r = self.recorder.borrow();
        r.frames[..r.depth].last().map_or(0, |f| f.trace.len())
    }

    /// `f` of the running call's facts, without recording a read.
    pub(super) fn with_running_facts<T>(&self, f: impl FnOnce(&Facts) -> T) -> Option<T> {
        let r = self.recorder.borrow();
        let frame = r.frames[..r.depth].last()?;
        Some(lent(|l| f(&frame.facts(l))))
    }

    /// The value of `read` for the running call, noted in its trace; `None`
    /// when its question has no such thing (nothing is noted).
    pub(super) fn read(&self, read: Read) -> Option<i64> {
        let value = {
            let r = self.recorder.borrow();
            let frame = r.frames[..r.depth].last()?;
            lent(|l| self.value(&frame.facts(l), read))?
        };
        self.observe(read, value);
        Some(value)
    }

    /// Note that the running call read `read`, which gave `value`.
    pub(super) fn observe(&self, read: Read, value: i64) {
        let mut r = self.recorder.borrow_mut();
        let depth = r.depth;
        let Some(frame) = r.frames[..depth].last_mut() else {
            return;
        };
        if frame.trace.len() < MAX_TRACE {
            frame.trace.push((read, value));
        } else {
            frame.opaque = true;
        }
        // The towers' read is a name for their content, not a value to
        // report as constant.
        let reported = !read.fixed_by_question() && read != Read::Towers;
        if let Some(hook) = frame.hook.filter(|_| reported) {
            let seen = r
                .values
                .entry((hook, read.name()))
                .or_insert((value, false));
            seen.1 |= seen.0 != value;
        }
    }

    /// The reads that gave one value every time a hook made them on this
    /// thread: (hook, read, value); reads fixed by the question
    /// (`Read::fixed_by_question`) are not among them.
    pub fn constant_reads(&self) -> Vec<(Hook, &'static str, i64)> {
        let r = self.recorder.borrow();
        let mut out: Vec<_> = r
            .values
            .iter()
            .filter(|(_, (_, varied))| !varied)
            .map(|(&(hook, read), &(value, _))| (hook, read, value))
            .collect();
        out.sort_by_key(|&(hook, read, _)| (hook.index(), read));
        out
    }

    /// Note that the running call read what no trace holds (the whole board,
    /// cells of its own): its answer is given but not kept.
    pub(super) fn opaque(&self) {
        let mut r = self.recorder.borrow_mut();
        let depth = r.depth;
        if let Some(frame) = r.frames[..depth].last_mut() {
            frame.opaque = true;
        }
    }
}

/// The value of `read` for the running call, recorded; `None` where its
/// question has no such thing.
pub(super) fn read(read: Read) -> Result<Option<i64>, Box<EvalAltResult>> {
    with_rules(|r| r.read(read))
}

/// Mark the running call as reading what no trace holds.
pub(super) fn opaque() {
    if RULES.is_set() {
        RULES.with(ScriptRules::opaque);
    }
}
