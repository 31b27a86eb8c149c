//! What the rules' questions show them: a floor stack ([`StackView`]), a
//! tower ([`TowerView`], [`TowerNow`]), a meeple ([`MeepleView`]), a ransom
//! ([`RansomView`]), the game at one moment ([`Table`]), the seat asking
//! ([`Asking`]) and a moment to act on ([`At`]); and what an answer about a tower holds for ([`Answer`],
//! [`Holds`]) and an end score ([`EndScore`]).

use crate::kernel::board::Board;
use crate::kernel::effects::{History, Moment, PackState};
use crate::kernel::features::Features;
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::{
    FloorKind, MAX_PLAYERS, MEEPLES_PER_PLAYER, Meeple, MeepleOn, MeepleSpot,
};

/// A floor stack as the hooks that are answered once per stack see it: the
/// floors, and whether a meeple tops them — exactly what such an answer may
/// depend on, so that it can be kept. Not where the tower stands, not whose
/// meeple tops it, not the board.
#[derive(Clone, Copy, Debug)]
pub struct StackView<'a> {
    /// The floors, bottom to top; empty for a bare foundation.
    pub floors: &'a [FloorKind],
    /// Does a meeple stand on top?
    pub topped: bool,
}

/// Who asks [`super::Rules::may_place_floor`] or [`super::Rules::may_top`] about a tower,
/// and when.
#[derive(Clone, Copy)]
pub struct Asking<'a> {
    /// The seat that would act: the current player when the kernel lists
    /// the actions, an opponent when a bot asks what they could do.
    pub seat: usize,
    /// The player whose meeple tops the tower, if any.
    pub owner: Option<usize>,
    /// Where the tower stands; `None` for a stack asked about apart from
    /// any tower (a range query's).
    pub tower: Option<Pos>,
    /// The game at the moment asked (a bare table outside a game).
    pub table: &'a Table<'a>,
}

/// How long an [`Answer`] about a tower holds, longest first (so the
/// greatest of an answer's reads is how long it holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Holds {
    /// For every seat, until the tower changes: it read only the stack and
    /// the top meeple's owner.
    Tower,
    /// For the seat asked, until the tower changes.
    Seat,
    /// For the seat asked, until the tower or the standings change: it read
    /// the scores or the prisoners held (who leads, a seat's rank…), which
    /// most turns leave as they were.
    Standings,
    /// Only now: it read the moment (the turn, whose turn it is, the
    /// board…), so it is asked again whenever it is needed.
    Now,
}

/// An answer of [`super::Rules::may_place_floor`] or [`super::Rules::may_top`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub yes: bool,
    pub holds: Holds,
}

impl Answer {
    /// An answer that holds for every seat until the tower changes.
    pub fn lasting(yes: bool) -> Answer {
        Answer {
            yes,
            holds: Holds::Tower,
        }
    }

    /// In [`super::Rules::tower_answers`], a question not asked: no, and asked
    /// again whenever it is needed.
    pub fn unasked() -> Answer {
        Answer {
            yes: false,
            holds: Holds::Now,
        }
    }
}

/// Among a tower's questions as [`super::Rules::tower_answers`] numbers them
/// (0–31: may a floor of that kind go on it?), "may a meeple go on top?".
pub const TOP_QUESTION: u32 = 32;

/// A tower (or a bare foundation) on the board, as [`super::Rules::may_capture`]
/// sees it.
#[derive(Clone, Copy, Debug)]
pub struct TowerView<'a> {
    pub pos: Pos,
    /// The floors, bottom to top; empty for a bare foundation.
    pub floors: &'a [FloorKind],
    /// The player whose meeple stands on top, if any.
    pub meeple: Option<usize>,
}

impl<'a> TowerView<'a> {
    /// The tower's floor stack, as the per-stack questions see it.
    pub fn stack(&self) -> StackView<'a> {
        StackView {
            floors: self.floors,
            topped: self.meeple.is_some(),
        }
    }
}

/// A tower as the rules acting at a moment see it
/// ([`super::Rules::on_event`]): its view, and whether a rule blocked it.
#[derive(Clone, Copy, Debug)]
pub struct TowerNow<'a> {
    pub view: TowerView<'a>,
    pub blocked: bool,
}

/// What the rules are shown at a moment they act on
/// ([`super::Rules::on_event`]): the moment (its change made), the game
/// and every tower.
#[derive(Clone, Copy)]
pub struct At<'a> {
    pub moment: &'a Moment,
    pub table: &'a Table<'a>,
    pub towers: &'a [TowerNow<'a>],
}

/// A meeple on the board as the rules see it.
#[derive(Clone, Copy, Debug)]
pub struct MeepleView {
    pub owner: usize,
    pub pos: Pos,
    pub spot: MeepleSpot,
    /// What it stands on.
    pub on: MeepleOn,
}

/// The game at the moment a question is asked, as the rules may read it.
#[derive(Clone, Copy)]
pub struct Table<'a> {
    pub board: &'a Board,
    /// The features of the board; `None` for boards made up for a question
    /// (a range query), which have tiles but no game on them.
    pub features: Option<&'a Features>,
    /// The meeples on the board.
    pub meeples: &'a [Meeple],
    /// Every player's score, by seat.
    pub scores: &'a [u32],
    /// `prisoners[captor * players + owner]`.
    pub prisoners: &'a [u8],
    /// Every player's meeples in supply, by seat.
    pub supply: &'a [u8],
    /// The player acting now.
    pub current: usize,
    /// Tiles placed so far after the start tile.
    pub turn: u32,
    /// Tiles still to draw.
    pub tiles_left: usize,
    /// The floors the table holds, per kind.
    pub table_floors: &'a [u32],
    /// The rules' own state.
    pub state: &'a PackState,
    /// Each seat's tally, the tower built last, the tile of this turn.
    pub history: &'a History,
    /// The game's tile set (for the names of tile kinds); `None` outside a
    /// game.
    pub tiles: Option<&'a crate::kernel::tiles::TileSet>,
}

impl Asking<'_> {
    /// `ask`'s answer when seat 0 of `players` asks about a tower at the
    /// origin with no meeple on top, outside a game (an empty board, no
    /// scores): how rules are probed before any game and in tests. The
    /// tower stands somewhere, so a hook that reads where gets an answer.
    pub fn outside_game<R>(players: usize, ask: impl FnOnce(&Asking) -> R) -> R {
        let board = Board::new();
        let table = Table::bare(&board, players);
        ask(&Asking {
            seat: 0,
            owner: None,
            tower: Some(Pos::new(0, 0)),
            table: &table,
        })
    }
}

impl<'a> Table<'a> {
    /// A table with only a board: no scores, no prisoners, no meeples (all
    /// in supply).
    pub fn bare(board: &'a Board, players: usize) -> Table<'a> {
        static NO_STATE: PackState = PackState::EMPTY;
        static NO_HISTORY: History = History::EMPTY;
        const ZEROS: [u32; MAX_PLAYERS] = [0; MAX_PLAYERS];
        const NONE: [u8; MAX_PLAYERS * MAX_PLAYERS] = [0; MAX_PLAYERS * MAX_PLAYERS];
        const ALL: [u8; MAX_PLAYERS] = [MEEPLES_PER_PLAYER; MAX_PLAYERS];
        let n = players.min(MAX_PLAYERS);
        Table {
            board,
            features: None,
            meeples: &[],
            scores: &ZEROS[..n],
            prisoners: &NONE[..n * n],
            supply: &ALL[..n],
            current: 0,
            turn: 0,
            tiles_left: 0,
            table_floors: &[],
            state: &NO_STATE,
            history: &NO_HISTORY,
            tiles: None,
        }
    }

    pub fn players(&self) -> usize {
        self.scores.len()
    }

    /// Prisoners `captor` holds of `owner`'s meeples.
    pub fn prisoners_of(&self, captor: usize, owner: usize) -> u32 {
        self.prisoners[captor * self.players() + owner] as u32
    }
}

/// A ransom about to be offered (T11): who pays whom, at what moment.
#[derive(Clone, Copy, Debug)]
pub struct RansomView {
    pub payer: usize,
    /// The player holding the payer's meeple.
    pub captor: usize,
    /// The payer's score.
    pub score: u32,
    /// Ransoms the payer has already paid this turn.
    pub paid_this_turn: u32,
}

/// Points the rules give or take at the end of the game, logged as a score
/// for `feature` (a name the rules choose).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndScore {
    pub player: usize,
    pub points: i64,
    pub feature: String,
}
