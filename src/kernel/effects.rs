//! What rules do when something happens: the moments of a game the rules
//! may act on ([`Moment`]), the closed set of [`Effect`]s they may answer
//! with, which the kernel checks and carries out, and the rules' own state
//! ([`PackState`]), declared as [`StateVar`]s and written only by effects.
//!
//! The kernel asks [`crate::kernel::Rules::on_event`] at each moment the
//! rules listen to ([`crate::kernel::Rules::listens`]: nothing is asked, and
//! nothing costs, at a moment no rule listens to). An effect that would
//! break what the kernel keeps true (a score below 0, a floor no supply
//! holds, a tower where no foundation is, a state value out of its bounds)
//! is an error naming the rule that answered it and the effect. Effects
//! cascade: an added floor is itself a moment (`floor_built`), so a rule
//! may answer it in turn, at most [`MAX_CASCADE`] deep and
//! [`MAX_EFFECTS`] effects for one moment of play; past either the game
//! ends with an error, never a hang.

use std::sync::Arc;

use crate::kernel::geometry::Pos;
use crate::kernel::pieces::{CaptureOutcome, FloorKind, MeepleOn, MeepleSpot};

use crate::kernel::tiles::SegmentKind;

/// How deep effects may cascade (an effect's moment answered by effects
/// whose moments are answered in turn…).
pub const MAX_CASCADE: usize = 8;
/// Effects carried out for one moment of play, its cascade included.
pub const MAX_EFFECTS: usize = 1_000;

/// A moment of the game the rules may act on. Each is a hook `on_<name>`
/// for packs ([`Moment::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// A tile was drawn and fits somewhere; it is not placed yet.
    TileDrawn { seat: usize, tile: u16 },
    /// The turn's tile was placed.
    TilePlaced {
        seat: usize,
        tile: u16,
        pos: Pos,
        rot: u8,
        foundation: bool,
    },
    /// A road, city or cloister was completed by the turn's tile; `scored`
    /// is false before its points are given, true after.
    FeatureCompleted {
        kind: SegmentKind,
        /// A tile of the feature (the cloister's own).
        pos: Pos,
        /// The feature's segment of that tile.
        segment: u8,
        tiles: u32,
        pennants: u32,
        points: u32,
        /// Meeples on it per seat (before they go home).
        meeples: [u8; crate::kernel::pieces::MAX_PLAYERS],
        scored: bool,
    },
    /// A floor went onto a tower: by a seat's action, or by a rule's effect
    /// (`seat` is `None`).
    FloorBuilt {
        seat: Option<usize>,
        tower: Pos,
        kind: FloorKind,
        height: usize,
    },
    /// A seat put a meeple on a feature of its tile or on top of a tower.
    MeeplePlaced { seat: usize, pos: Pos, on: MeepleOn },
    /// A floor just placed took a meeple.
    Capture {
        captor: usize,
        owner: usize,
        tower: Pos,
        at: Pos,
        on: MeepleOn,
        outcome: CaptureOutcome,
    },
    /// A seat bought back a meeple.
    Ransom {
        payer: usize,
        captor: usize,
        cost: u32,
    },
    /// Two seats exchanged prisoners.
    Exchange { a: usize, b: usize },
    /// A seat's turn ends (after its completed features are scored).
    TurnEnd { seat: usize },
    /// The last tile was played and the features scored; the rules' `end`
    /// scores come after.
    GameEnd,
}

impl Moment {
    pub const COUNT: usize = 10;

    /// Every moment's name, in the order of [`Moment::index`].
    pub const NAMES: [&'static str; Moment::COUNT] = [
        "tile_drawn",
        "tile_placed",
        "feature_completed",
        "floor_built",
        "meeple_placed",
        "capture",
        "ransom",
        "exchange",
        "turn_end",
        "game_end",
    ];

    /// Its place in [`Moment::NAMES`] (and its bit in
    /// [`crate::kernel::Rules::listens`]).
    pub fn index(&self) -> usize {
        match self {
            Moment::TileDrawn { .. } => 0,
            Moment::TilePlaced { .. } => 1,
            Moment::FeatureCompleted { .. } => 2,
            Moment::FloorBuilt { .. } => 3,
            Moment::MeeplePlaced { .. } => 4,
            Moment::Capture { .. } => 5,
            Moment::Ransom { .. } => 6,
            Moment::Exchange { .. } => 7,
            Moment::TurnEnd { .. } => 8,
            Moment::GameEnd => 9,
        }
    }

    pub fn name(&self) -> &'static str {
        Moment::NAMES[self.index()]
    }

    /// Its bit in [`crate::kernel::Rules::listens`].
    pub fn bit(&self) -> u32 {
        1 << self.index()
    }
}

/// A scoring answer a rule changed: the new value and the rule that gave
/// it (logged with the points it changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adjusted {
    pub value: u32,
    pub origin: Arc<Origin>,
}

/// The most a meeple may count for in a majority: far above any count of
/// meeples, short of any sum overflowing.
pub const MAX_STRENGTH: u32 = 1_000;

/// Where a floor an effect adds comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloorFrom {
    /// The box: floors no one holds (no limit).
    Box,
    /// A seat's supply (it must hold one).
    Seat(usize),
    /// The table's stock (it must hold one).
    Table,
}

/// Which rule answered an effect, for its log record and its errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The rule's name as logs write it (a pack's name).
    pub rule: String,
    /// Where it was answered, for errors: pack, hook, file:line:col.
    pub place: String,
}

/// Something the rules do, which the kernel checks and carries out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Points to (or, negative, from) a seat, for a named source.
    Points {
        seat: usize,
        points: i64,
        source: String,
    },
    /// A floor onto the tower at `tower` (its cascade: `floor_built`).
    AddFloor {
        tower: Pos,
        kind: FloorKind,
        from: FloorFrom,
    },
    /// The top floor of the tower at `tower` back into the box.
    RemoveFloor { tower: Pos },
    /// The meeple at `at` on `spot` back to its owner's supply.
    SendHome { at: Pos, spot: MeepleSpot },
    /// The meeple at `at` on `spot` made `captor`'s prisoner (T10's
    /// exchange follows, as after a capture).
    Imprison {
        at: Pos,
        spot: MeepleSpot,
        captor: usize,
    },
    /// A meeple from `seat`'s supply onto the top of the tower at `tower`
    /// (its cascade: `meeple_placed`).
    Top { tower: Pos, seat: usize },
    /// A meeple from `seat`'s supply onto segment `segment` of the tile at
    /// `at`, whose feature holds none (its cascade: `meeple_placed`).
    Place { at: Pos, segment: u8, seat: usize },
    /// A state value set.
    SetState { var: u16, at: StateAt, value: i64 },
    /// The tower at `tower` blocked (no floor, no meeple on top) or
    /// unblocked.
    Block { tower: Pos, blocked: bool },
}

impl Effect {
    /// The effect's name, as packs and logs write it.
    pub fn name(&self) -> &'static str {
        match self {
            Effect::Points { .. } => "points",
            Effect::AddFloor { .. } => "add_floor",
            Effect::RemoveFloor { .. } => "remove_floor",
            Effect::SendHome { .. } => "send_home",
            Effect::Imprison { .. } => "take_prisoner",
            Effect::Top { .. } => "place_on_tower",
            Effect::Place { .. } => "place_meeple",
            Effect::SetState { .. } => "set_state",
            Effect::Block { blocked: true, .. } => "block",
            Effect::Block { blocked: false, .. } => "unblock",
        }
    }
}

/// An effect with the rule that answered it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acted {
    pub effect: Effect,
    pub origin: Arc<Origin>,
}

/// What a state value belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// One value for the game.
    Game,
    /// One value per seat.
    Seat,
    /// One value per tower (set only where a tower stands).
    Tower,
    /// One value per cell of the board.
    Cell,
}

impl Scope {
    pub const ALL: [Scope; 4] = [Scope::Game, Scope::Seat, Scope::Tower, Scope::Cell];

    pub fn name(self) -> &'static str {
        match self {
            Scope::Game => "game",
            Scope::Seat => "seat",
            Scope::Tower => "tower",
            Scope::Cell => "cell",
        }
    }

    pub fn named(word: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.name() == word)
    }
}

/// Which value of a state variable: the game's, a seat's, or a cell's (a
/// tower's is its cell's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StateAt {
    Game,
    Seat(u8),
    Cell(i32, i32),
}

/// A state variable a rule declares: its scope, bounds and starting value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateVar {
    /// The name logs and errors use: `pack.name`.
    pub name: String,
    pub scope: Scope,
    pub min: i64,
    pub max: i64,
    pub default: i64,
    /// A neutral figure: a game value holding the cell it stands on
    /// ([`crate::kernel::geometry::Pos::packed`]), or
    /// [`crate::kernel::geometry::NO_CELL`] while it stands nowhere; it
    /// stands only where a tile lies, and pictures draw it.
    pub figure: bool,
    /// A bool (`true` or `false`, held as 1 or 0): so the log writes it.
    pub boolean: bool,
}

/// The rules' state in a game: a dense value per game and seat variable,
/// and the cell values that differ from their default, sorted (few, and
/// cheap to copy for a search).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackState {
    /// Per variable: its game value, or its seat values (`players` of them).
    dense: Vec<i64>,
    /// Where each variable's values start in `dense` (`u32::MAX`: a cell
    /// variable).
    starts: Vec<u32>,
    /// Cell values that are not the default: ((var, cell), value).
    cells: Vec<((u16, i32, i32), i64)>,
    defaults: Vec<i64>,
}

impl PackState {
    /// No variables: the state of rules that declare none.
    pub const EMPTY: PackState = PackState {
        dense: Vec::new(),
        starts: Vec::new(),
        cells: Vec::new(),
        defaults: Vec::new(),
    };

    /// Every variable at its default, for a game of `players`.
    pub fn new(vars: &[StateVar], players: usize) -> PackState {
        let mut state = PackState::default();
        for v in vars {
            state.defaults.push(v.default);
            let n = match v.scope {
                Scope::Game => 1,
                Scope::Seat => players,
                Scope::Tower | Scope::Cell => {
                    state.starts.push(u32::MAX);
                    continue;
                }
            };
            state.starts.push(state.dense.len() as u32);
            state.dense.extend(std::iter::repeat_n(v.default, n));
        }
        state
    }

    /// The value of `var` at `at`; `None` for a variable or place there is
    /// not (a seat past the players, a game place for a cell variable).
    pub fn get(&self, var: u16, at: StateAt) -> Option<i64> {
        let start = *self.starts.get(var as usize)?;
        match at {
            StateAt::Game if start != u32::MAX => self.dense.get(start as usize).copied(),
            StateAt::Seat(s) if start != u32::MAX => {
                let i = start as usize + s as usize;
                let next = self.next_start(var);
                (i < next).then(|| self.dense[i])
            }
            StateAt::Cell(x, y) if start == u32::MAX => Some(
                match self.cells.binary_search_by_key(&(var, x, y), |&(k, _)| k) {
                    Ok(i) => self.cells[i].1,
                    Err(_) => self.defaults[var as usize],
                },
            ),
            _ => None,
        }
    }

    /// Set `var` at `at` (a place [`PackState::get`] knows).
    pub fn set(&mut self, var: u16, at: StateAt, value: i64) -> Option<()> {
        self.get(var, at)?;
        match at {
            StateAt::Game | StateAt::Seat(_) => {
                let offset = if let StateAt::Seat(s) = at { s } else { 0 };
                self.dense[self.starts[var as usize] as usize + offset as usize] = value;
            }
            StateAt::Cell(x, y) => {
                let key = (var, x, y);
                let default = self.defaults[var as usize];
                match self.cells.binary_search_by_key(&key, |&(k, _)| k) {
                    Ok(i) if value == default => {
                        self.cells.remove(i);
                    }
                    Ok(i) => self.cells[i].1 = value,
                    Err(_) if value == default => {}
                    Err(i) => self.cells.insert(i, (key, value)),
                }
            }
        }
        Some(())
    }

    /// Where the dense values after `var`'s start.
    fn next_start(&self, var: u16) -> usize {
        self.starts[var as usize + 1..]
            .iter()
            .find(|&&s| s != u32::MAX)
            .map_or(self.dense.len(), |&s| s as usize)
    }

    /// Copy `source` into this state, keeping its buffers.
    pub fn copy_from(&mut self, source: &PackState) {
        self.dense.clone_from(&source.dense);
        self.starts.clone_from(&source.starts);
        self.cells.clone_from(&source.cells);
        self.defaults.clone_from(&source.defaults);
    }
}

/// What each seat has done so far, as rules may read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatTally {
    /// Floors the seat built (by its actions).
    pub floors: u32,
    /// Opponents' meeples the seat's floors took.
    pub captures: u32,
    /// Ransoms the seat paid, and the points they cost.
    pub ransoms_paid: u32,
    pub ransom_points_paid: u32,
    /// Points the seat received in ransoms.
    pub ransom_points_received: u32,
}

/// The tile placed this turn, as rules may read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnTile {
    pub kind: u16,
    pub pos: Pos,
    pub rot: u8,
    pub foundation: bool,
}

/// What the game remembers for the rules beyond the board: each seat's
/// tally, the tower that took the last floor, the tile of this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub tallies: Vec<SeatTally>,
    /// Where the tower that last took a floor stands.
    pub last_tower: Option<Pos>,
    /// The tile placed this turn (none before it is placed).
    pub tile: Option<TurnTile>,
}

impl History {
    pub const EMPTY: History = History {
        tallies: Vec::new(),
        last_tower: None,
        tile: None,
    };

    pub fn copy_from(&mut self, source: &History) {
        self.tallies.clone_from(&source.tallies);
        self.last_tower = source.last_tower;
        self.tile = source.tile;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(name: &str, scope: Scope, default: i64) -> StateVar {
        StateVar {
            name: name.into(),
            scope,
            min: -10,
            max: 10,
            default,
            figure: false,
            boolean: false,
        }
    }

    #[test]
    fn each_scope_keeps_its_own_values() {
        let vars = [
            var("a", Scope::Game, 1),
            var("b", Scope::Seat, 0),
            var("c", Scope::Tower, 0),
            var("d", Scope::Game, 5),
        ];
        let mut s = PackState::new(&vars, 3);
        assert_eq!(s.get(0, StateAt::Game), Some(1));
        assert_eq!(s.get(1, StateAt::Seat(2)), Some(0));
        assert_eq!(s.get(1, StateAt::Seat(3)), None, "past the players");
        assert_eq!(s.get(3, StateAt::Game), Some(5));
        assert_eq!(
            s.get(2, StateAt::Game),
            None,
            "a tower variable has no game value"
        );
        s.set(1, StateAt::Seat(1), 7).unwrap();
        s.set(2, StateAt::Cell(4, -2), 3).unwrap();
        assert_eq!(s.get(1, StateAt::Seat(1)), Some(7));
        assert_eq!(s.get(1, StateAt::Seat(0)), Some(0));
        assert_eq!(s.get(3, StateAt::Game), Some(5), "neighbours untouched");
        assert_eq!(s.get(2, StateAt::Cell(4, -2)), Some(3));
        assert_eq!(s.get(2, StateAt::Cell(0, 0)), Some(0));
        assert_eq!(s.cells, vec![((2, 4, -2), 3)], "only the cell set is kept");
        s.set(2, StateAt::Cell(4, -2), 0).unwrap();
        assert!(s.cells.is_empty(), "a default is not kept");
        assert_eq!(s.get(1, StateAt::Seat(1)), Some(7));
    }

    #[test]
    fn moments_are_named_in_their_index_order() {
        let m = Moment::TurnEnd { seat: 0 };
        assert_eq!(m.name(), "turn_end");
        assert_eq!(Moment::GameEnd.name(), "game_end");
        assert_eq!(Moment::GameEnd.bit(), 1 << 9);
    }
}
