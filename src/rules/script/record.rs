//! The one recorder. While a hook call runs, the question it answers is
//! kept as a frame (an owned copy of its facts: the board and features are
//! lent through thread-locals), and every accessor a script reaches either
//! reads through the frame — [`ScriptRules::read`]: the value from
//! `ScriptRules::value`, noted in the frame's trace — or marks the call
//! as reading something no trace can hold ([`ScriptRules::opaque`]): then
//! its answer is given but not kept. A hook that asks another (a helper
//! such as `capture_cells`) runs it in a frame of its own.

use rhai::EvalAltResult;
use rustc_hash::FxHashMap;

use super::memo::MAX_TRACE;
use super::reads::{Facts, Read, Roles};
use super::{Hook, ScriptRules, with_rules};
use crate::kernel::effects::{History, Moment, PackState};
use crate::kernel::features::Features;
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::MeepleOn;
use crate::kernel::tiles::SegmentKind;
use crate::kernel::tiles::TileSet;
use crate::kernel::{Board, FloorKind, Meeple, MeepleView, Table};

// The rules whose hook is running on this thread.
scoped_tls::scoped_thread_local!(pub(super) static RULES: ScriptRules);

/// Floor kind `name` of the packs' kinds, or the error naming the kinds.
pub(super) fn floor_kind(name: &str) -> Result<FloorKind, Box<EvalAltResult>> {
    with_rules(|r| {
        r.scripts
            .kind_names
            .iter()
            .position(|k| k.as_str() == name)
            .and_then(|k| FloorKind::try_from(k).ok())
            .ok_or_else(|| {
                super::rt_error(format!(
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

scoped_tls::scoped_thread_local!(pub(super) static BOARD: Board);
scoped_tls::scoped_thread_local!(pub(super) static FEATURES: Features);
scoped_tls::scoped_thread_local!(static TILES: TileSet);

/// What a running call's table borrows from the game: lent, not copied.
#[derive(Clone, Copy, Default)]
pub(super) struct Lent<'a> {
    board: Option<&'a Board>,
    features: Option<&'a Features>,
    tiles: Option<&'a TileSet>,
}

/// The table of a question, copied for the call.
#[derive(Default)]
struct TableCopy {
    scores: Vec<u32>,
    prisoners: Vec<u8>,
    supply: Vec<u8>,
    meeples: Vec<Meeple>,
    current: usize,
    turn: u32,
    tiles_left: usize,
    table_floors: Vec<u32>,
    state: PackState,
    history: History,
}

/// A running call: its question's facts and what it has read.
#[derive(Default)]
struct Frame {
    floors: Vec<FloorKind>,
    stack: Option<bool>,
    tower: Option<Pos>,
    owner: Option<Option<usize>>,
    meeple: Option<(MeepleView, Pos)>,
    table: Option<TableCopy>,
    roles: Roles,
    moment: Option<Moment>,
    feature: Option<crate::kernel::features::FeatureId>,
    trace: Vec<(Read, i64)>,
    /// It read what no trace holds: its answer is not kept.
    opaque: bool,
    hook: Option<Hook>,
}

impl Frame {
    fn hold(&mut self, hook: Hook, facts: &Facts) {
        self.hook = Some(hook);
        self.floors.clear();
        self.stack = facts.stack.map(|(floors, topped)| {
            self.floors.extend_from_slice(floors);
            topped
        });
        self.tower = facts.tower;
        self.owner = facts.owner;
        self.meeple = facts.meeple;
        self.roles = facts.roles;
        self.moment = facts.moment;
        self.feature = facts.feature;
        self.table = facts.table.map(|t| {
            let mut c = self.table.take().unwrap_or_default();
            c.scores.clear();
            c.scores.extend_from_slice(t.scores);
            c.prisoners.clear();
            c.prisoners.extend_from_slice(t.prisoners);
            c.supply.clear();
            c.supply.extend_from_slice(t.supply);
            c.meeples.clear();
            c.meeples.extend_from_slice(t.meeples);
            (c.current, c.turn, c.tiles_left) = (t.current, t.turn, t.tiles_left);
            c.table_floors.clear();
            c.table_floors.extend_from_slice(t.table_floors);
            c.state.copy_from(t.state);
            c.history.copy_from(t.history);
            c
        });
        self.trace.clear();
        self.opaque = false;
    }

    /// The facts, the board and features as lent.
    fn facts<'a>(&'a self, lent: Lent<'a>) -> Facts<'a> {
        let Lent {
            board,
            features,
            tiles,
        } = lent;
        Facts {
            stack: self.stack.map(|topped| (&self.floors[..], topped)),
            tower: self.tower,
            owner: self.owner,
            meeple: self.meeple,
            table: self.table.as_ref().zip(board).map(|(c, board)| Table {
                board,
                features,
                meeples: &c.meeples,
                scores: &c.scores,
                prisoners: &c.prisoners,
                supply: &c.supply,
                current: c.current,
                turn: c.turn,
                tiles_left: c.tiles_left,
                table_floors: &c.table_floors,
                state: &c.state,
                history: &c.history,
                tiles,
            }),
            roles: self.roles,
            moment: self.moment,
            feature: self.feature,
            // A running hook's towers are the copy held for it.
            towers: None,
        }
    }
}

/// The frames of the calls running on a thread, innermost last; frames
/// past `depth` keep their buffers for the next call.
#[derive(Default)]
pub(super) struct Recorder {
    frames: Vec<Frame>,
    depth: usize,
    /// Per hook and read (by name): the first value it gave, and whether
    /// another followed — a read that never varies over many games is a
    /// likely bug (`towerlab check` says so).
    values: FxHashMap<(Hook, &'static str), (i64, bool)>,
}

/// What a recorded call read, in order (at most [`MAX_TRACE`] reads).
pub(super) struct Recorded {
    pub(super) reads: Vec<(Read, i64)>,
    /// It also read what no trace holds: its answer is not to be kept.
    pub(super) opaque: bool,
}

impl Recorded {
    /// The trace to keep its answer under, unless it read what none holds.
    pub(super) fn trace(&self) -> Option<&[(Read, i64)]> {
        (!self.opaque).then_some(&self.reads[..])
    }
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
        let out = match facts.table {
            Some(t) => BOARD.set(t.board, || match (t.features, t.tiles) {
                (Some(features), Some(tiles)) => FEATURES.set(features, || TILES.set(tiles, f)),
                (Some(features), None) => FEATURES.set(features, f),
                (None, _) => f(),
            }),
            None => f(),
        };
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

/// Run `f` with what the game lends the running call.
pub(super) fn lent<T>(f: impl FnOnce(Lent) -> T) -> T {
    if !BOARD.is_set() {
        return f(Lent::default());
    }
    BOARD.with(|b| {
        let board = Some(b);
        if !FEATURES.is_set() {
            return f(Lent {
                board,
                ..Lent::default()
            });
        }
        FEATURES.with(|fs| {
            let features = Some(fs);
            if TILES.is_set() {
                TILES.with(|t| {
                    f(Lent {
                        board,
                        features,
                        tiles: Some(t),
                    })
                })
            } else {
                f(Lent {
                    board,
                    features,
                    tiles: None,
                })
            }
        })
    })
}
