//! The recorder's frames, as the host holds them: for each call running on
//! the thread, an owned copy of its question's facts and what it has read;
//! and the board, features and tiles the game lends the running call
//! through thread-locals. A part the host owns; recording is the module
//! above's.

use rustc_hash::FxHashMap;

use super::super::hooks::Hook;
use super::super::reads::{Facts, Read, Roles};
use crate::kernel::effects::{History, Moment, PackState};
use crate::kernel::features::{FeatureId, Features};
use crate::kernel::geometry::Pos;
use crate::kernel::tiles::TileSet;
use crate::kernel::{Board, FloorKind, Meeple, MeepleView, Table};

scoped_tls::scoped_thread_local!(static BOARD: Board);
scoped_tls::scoped_thread_local!(static FEATURES: Features);
scoped_tls::scoped_thread_local!(static TILES: TileSet);

/// What a running call's table borrows from the game: lent, not copied.
#[derive(Clone, Copy, Default)]
pub(in crate::rules::script) struct Lent<'a> {
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
pub(super) struct Frame {
    pub(super) floors: Vec<FloorKind>,
    pub(super) stack: Option<bool>,
    pub(super) tower: Option<Pos>,
    pub(super) owner: Option<Option<usize>>,
    pub(super) meeple: Option<(MeepleView, Pos)>,
    table: Option<TableCopy>,
    pub(super) roles: Roles,
    pub(super) moment: Option<Moment>,
    pub(super) feature: Option<FeatureId>,
    pub(super) placement: Option<[i64; 3]>,
    pub(super) trace: Vec<(Read, i64)>,
    /// It read what no trace holds: its answer is not kept.
    pub(super) opaque: bool,
    pub(super) hook: Option<Hook>,
}

impl Frame {
    pub(super) fn hold(&mut self, hook: Hook, facts: &Facts) {
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
        self.placement = facts.placement;
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
    pub(super) fn facts<'a>(&'a self, lent: Lent<'a>) -> Facts<'a> {
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
            placement: self.placement,
            // A running hook's towers are the copy held for it.
            towers: None,
        }
    }
}

/// The frames of the calls running on a thread, innermost last; frames
/// past `depth` keep their buffers for the next call.
#[derive(Default)]
pub(in crate::rules::script) struct Recorder {
    pub(super) frames: Vec<Frame>,
    pub(super) depth: usize,
    /// Per hook and read (by name): the first value it gave, and whether
    /// another followed — a read that never varies over many games is a
    /// likely bug (`towerlab check` says so).
    pub(super) values: FxHashMap<(Hook, &'static str), (i64, bool)>,
}

/// What a recorded call read, in order (at most `memo::MAX_TRACE` reads).
pub(in crate::rules::script) struct Recorded {
    pub(in crate::rules::script) reads: Vec<(Read, i64)>,
    /// It also read what no trace holds: its answer is not to be kept.
    pub(in crate::rules::script) opaque: bool,
}

impl Recorded {
    /// The trace to keep its answer under, unless it read what none holds.
    pub(in crate::rules::script) fn trace(&self) -> Option<&[(Read, i64)]> {
        (!self.opaque).then_some(&self.reads[..])
    }
}

/// Run `f` with the board, features and tiles of `table` lent.
pub(super) fn lend<T>(table: Option<Table>, f: impl FnOnce() -> T) -> T {
    match table {
        Some(t) => BOARD.set(t.board, || match (t.features, t.tiles) {
            (Some(features), Some(tiles)) => FEATURES.set(features, || TILES.set(tiles, f)),
            (Some(features), None) => FEATURES.set(features, f),
            (None, _) => f(),
        }),
        None => f(),
    }
}

/// `f` of the board lent to the running call, if one is.
pub(in crate::rules::script) fn lent_board<T>(f: impl FnOnce(&Board) -> T) -> Option<T> {
    BOARD.is_set().then(|| BOARD.with(f))
}

/// Run `f` with what the game lends the running call.
pub(in crate::rules::script) fn lent<T>(f: impl FnOnce(Lent) -> T) -> T {
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
