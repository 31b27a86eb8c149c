//! A game in progress: board, features, players, meeples, towers, prisoners,
//! and the operations of a turn (G2, T3): place a tile, pay a ransom, take one
//! action, capture, exchange, score.
//!
//! The operations check what the kernel itself knows (tiles match, a meeple
//! goes on the tile just placed onto an unoccupied feature, a player holds the
//! floor or meeple they use, no score goes below zero) and ask [`Rules`] every
//! question about towers. The legal options of each decision are listed by the
//! kernel, so bots never need to know the rules.
//!
//! This file holds the state and its read access; a new game is made in
//! `start`, and the operations are in `placement` (drawing and placing
//! tiles), `action` (the turn's one action), `towers` (floors' capture,
//! exchange, ransom) and `scoring`.

use crate::kernel::board::Board;
use crate::kernel::effects::{History, PackState, StateAt};
use crate::kernel::features::{FeatureId, Features};
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::{MAX_PLAYERS, Meeple, MeepleOn, MeepleSpot};
use crate::kernel::rules::{FloorKind, Rules, StackView, Table, TowerView};
use crate::kernel::tiles::{TileKind, TileSet};

mod action;
mod acts;
mod copy;
mod event;
mod income;
mod pays;
mod placement;
mod scoring;
mod setup;
mod start;
mod towers;

pub use event::{Event, Scored, StateValue};
pub use income::RuleIncome;
pub use scoring::{
    CLOISTER_NEIGHBOURS, FARM_CITY_POINTS, MAX_SCORE, by_feature, cloister_points,
    completed_cities_touching, line_points,
};

pub use crate::kernel::pieces::MEEPLES_PER_PLAYER;

/// A tower: a foundation and the floors on it. Two towers are equal when
/// they stand on the same cell with the same floors and top: the rules'
/// answers kept with a tower are a cache of its state, not part of it.
#[derive(Debug)]
pub struct Tower {
    pub pos: Pos,
    /// Bottom to top; empty for a bare foundation.
    pub floors: Vec<FloorKind>,
    pub meeple: Option<u8>,
    /// Blocked by a rule's effect: no floor, no meeple on top.
    pub blocked: bool,
    answers: TowerAnswers,
}

impl PartialEq for Tower {
    fn eq(&self, other: &Tower) -> bool {
        (self.pos, &self.floors, self.meeple, self.blocked)
            == (other.pos, &other.floors, other.meeple, other.blocked)
    }
}

impl Eq for Tower {}

/// The rules' answers for a tower as it stands, refreshed whenever the
/// tower changes: the rules are pure, so each answer is asked once per
/// change, not once per turn (and once for every seat when it holds for
/// all). The questions are bits of a `u64`: bit k, a floor of kind k; bit
/// [`towers::TOP`], a meeple on top.
#[derive(Clone, Debug, Default)]
struct TowerAnswers {
    /// Per seat, bit q: the answer to question q, where it lasts until the
    /// tower changes.
    lasting: [u64; MAX_PLAYERS],
    /// The questions whose answer holds only now: asked again whenever
    /// needed ([`Game::allows_floor`]).
    now: u64,
    /// The questions whose answer holds for a seat until the standings
    /// change: asked of a seat when first needed at the standings of the
    /// moment, kept in `standing` (only for a tower that has some).
    by_standings: u64,
    standing: Option<Box<towers::StandingAnswers>>,
}

impl Tower {
    /// A bare foundation at `pos`, not asked about yet.
    fn bare(pos: Pos) -> Tower {
        Tower {
            pos,
            floors: Vec::new(),
            meeple: None,
            blocked: false,
            answers: TowerAnswers::default(),
        }
    }

    /// The tower's floor stack, as the per-stack questions of the rules see
    /// it.
    pub fn stack(&self) -> StackView<'_> {
        StackView {
            floors: &self.floors,
            topped: self.meeple.is_some(),
        }
    }

    /// The tower as [`Rules::may_capture`] sees it.
    pub fn view(&self) -> TowerView<'_> {
        TowerView {
            pos: self.pos,
            floors: &self.floors,
            meeple: self.meeple.map(usize::from),
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub struct Player {
    pub score: u32,
    /// Meeples in the player's supply.
    pub meeples: u8,
    /// Floors in the player's supply, per kind.
    pub floors: Vec<u32>,
}

impl Player {
    /// The floor kinds (bit k) the player holds at least one of.
    pub fn held_floors(&self) -> u64 {
        held_bits(&self.floors)
    }
}

/// The floor kinds (bit k) of which `supply` holds at least one.
fn held_bits(supply: &[u32]) -> u64 {
    supply
        .iter()
        .enumerate()
        .filter(|&(_, &left)| left > 0)
        .fold(0, |bits, (k, _)| bits | 1 << k)
}

/// Where a drawn tile goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub pos: Pos,
    pub rot: u8,
}

/// The one action of a turn after the tile (T3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Pass,
    /// A meeple on a segment of the tile just placed (G3).
    Meeple {
        segment: u8,
    },
    /// A floor onto a foundation or an open tower (T3 A, B).
    Floor {
        tower: u16,
        kind: FloorKind,
    },
    /// A meeple onto an open tower, closing it (T3 C).
    TowerMeeple {
        tower: u16,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RansomChoice {
    Decline,
    /// Buy back one meeple held by `captor` (T11).
    Pay {
        captor: u8,
        cost: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureChoice {
    Decline,
    /// Take the meeple at this index of [`Game::meeples`] (T5).
    Take {
        meeple: u16,
    },
}

/// Counters kept during a game.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub turns: u32,
    pub discards: u32,
    /// Opponents' meeples taken prisoner.
    pub captures: u32,
    /// A captor's own meeples sent back to supply.
    pub own_captures: u32,
    pub exchanges: u32,
    pub ransoms: u32,
    pub ransom_points: u32,
    pub floors_placed: u32,
    /// Floors placed, by floor kind (as long as the highest kind placed).
    pub floors_by_kind: Vec<u32>,
    /// Captures (opponents' and own) by the kind of the floor just placed,
    /// the capturing tower's top (as long as the highest kind counted).
    pub captures_by_top: Vec<u32>,
}

/// Add one to `counts[kind]`, growing the list as needed.
pub(crate) fn count_kind(counts: &mut Vec<u32>, kind: FloorKind) {
    let k = kind as usize;
    if counts.len() <= k {
        counts.resize(k + 1, 0);
    }
    counts[k] += 1;
}

/// A game: state plus the operations of a turn. `clone_from` reuses the
/// copy's buffers: a search copies a game every iteration.
pub struct Game<'a> {
    tiles: &'a TileSet,
    rules: &'a dyn Rules,
    board: Board,
    features: Features,
    players: Vec<Player>,
    /// Floors held by the table, per kind: any seat may build with them
    /// (`Rules::table_supply`).
    table: Vec<u32>,
    /// `prisoners[captor * n + owner]`.
    prisoners: Vec<u8>,
    meeples: Vec<Meeple>,
    towers: Vec<Tower>,
    /// Tower index per placed tile (`u16::MAX` when none).
    tower_of_tile: Vec<u16>,
    deck: Vec<u16>,
    next_draw: usize,
    current: usize,
    /// Placed-tile index of the tile placed this turn.
    this_tile: Option<usize>,
    acted: bool,
    /// The tower that got a floor this turn, while its capture is pending.
    capture_tower: Option<usize>,
    /// The meeples (indices into `meeples`) that floor may take, once asked
    /// of the rules (`capturable_known`): listing the choices and then taking
    /// one asks the rules once, not twice.
    capturable: Vec<u16>,
    capturable_known: bool,
    ransoms_paid: u32,
    stats: Stats,
    events: Option<Vec<Event>>,
    range: Vec<(i32, i32)>,
    scratch: Vec<u16>,
    roots: Vec<FeatureId>,
    /// End scoring's buffer: each meeple's feature root and owner.
    on_features: Vec<(FeatureId, u8)>,
    /// The rules' answers about a tower, as `refresh_tower` asks them.
    tower_answers: Vec<crate::kernel::rules::Answer>,
    /// Changes of the standings (a score, a prisoner count, the rules'
    /// state) so far: the answers that hold until they change are kept
    /// with this count.
    standings: u32,
    /// The rules' own state (`kernel::effects`).
    state: PackState,
    /// What the rules may read of the game's past and of this turn.
    history: History,
    /// What the rules' `points` effects paid each seat (for the bots).
    income: RuleIncome,
    /// The moments the rules act on (bit per `Moment::index`).
    listens: u32,
    /// The effects of the moment of play under way: how deep they cascade,
    /// how many were carried out.
    cascade: acts::Cascade,
}

const NO_TOWER: u16 = u16::MAX;

/// What a meeple at `pos` on `spot` stands on.
fn meeple_on(tiles: &TileSet, board: &Board, pos: Pos, spot: MeepleSpot) -> MeepleOn {
    match spot {
        MeepleSpot::Tower => MeepleOn::Tower,
        MeepleSpot::Segment(s) => {
            let t = board.tile_at(pos).expect("meeples stand on tiles");
            MeepleOn::Feature(tiles.kinds[t.kind as usize].segments[s as usize].kind)
        }
    }
}

impl<'a> Game<'a> {
    /// Record events from now on (see [`Game::events`]).
    pub fn record_events(&mut self) {
        self.events.get_or_insert_with(Vec::new);
    }

    pub fn events(&self) -> &[Event] {
        self.events.as_deref().unwrap_or(&[])
    }

    pub fn take_events(&mut self) -> Vec<Event> {
        self.events.as_mut().map(std::mem::take).unwrap_or_default()
    }

    fn emit(&mut self, event: impl FnOnce(&Self) -> Event) {
        if self.events.is_some() {
            let e = event(self);
            if let Some(events) = &mut self.events {
                events.push(e);
            }
        }
    }

    // ---- read access -------------------------------------------------

    /// Run `f` with the game as the rules read it now.
    pub fn with_table<T>(&self, f: impl FnOnce(&Table) -> T) -> T {
        let (mut scores, mut supply) = ([0u32; MAX_PLAYERS], [0u8; MAX_PLAYERS]);
        for ((s, m), p) in scores.iter_mut().zip(&mut supply).zip(&self.players) {
            (*s, *m) = (p.score, p.meeples);
        }
        f(&Table {
            board: &self.board,
            features: Some(&self.features),
            meeples: &self.meeples,
            scores: &scores[..self.players.len()],
            prisoners: &self.prisoners,
            supply: &supply[..self.players.len()],
            current: self.current,
            turn: self.stats.turns,
            tiles_left: self.deck_left(),
            table_floors: &self.table,
            state: &self.state,
            history: &self.history,
            tiles: Some(self.tiles),
        })
    }

    /// The rules' own state.
    pub fn state(&self) -> &PackState {
        &self.state
    }

    /// The floors the table holds, per kind (any seat may build with
    /// them).
    pub fn table_floors(&self) -> &[u32] {
        &self.table
    }

    /// The floor kinds (bit k) `seat` may build with: those it holds and
    /// those the table holds.
    pub fn floors_at_hand(&self, seat: usize) -> u64 {
        held_bits(&self.table) | self.players[seat].held_floors()
    }

    /// The neutral figures on the board: each one's name (`pack.name`) and
    /// the cell it stands on.
    pub fn figures(&self) -> impl Iterator<Item = (&str, Pos)> + '_ {
        let vars = self.rules.state_vars();
        (0..vars.len()).filter_map(move |i| {
            let v = &vars[i];
            let at = self.state.get(i as u16, StateAt::Game)?;
            Some((v.name.as_str(), Pos::unpacked(at).filter(|_| v.figure)?))
        })
    }

    /// Each seat's tally, the tower built last, the tile of this turn.
    pub fn history(&self) -> &History {
        &self.history
    }

    pub fn tiles(&self) -> &'a TileSet {
        self.tiles
    }

    pub fn rules(&self) -> &'a dyn Rules {
        self.rules
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn features(&self) -> &Features {
        &self.features
    }

    pub fn players(&self) -> &[Player] {
        &self.players
    }

    pub fn scores(&self) -> Vec<u32> {
        self.players.iter().map(|p| p.score).collect()
    }

    pub fn meeples(&self) -> &[Meeple] {
        &self.meeples
    }

    pub fn towers(&self) -> &[Tower] {
        &self.towers
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The player whose turn it is.
    pub fn current(&self) -> usize {
        self.current
    }

    /// Prisoners `captor` holds of `owner`'s meeples.
    pub fn prisoners(&self, captor: usize, owner: usize) -> u32 {
        self.prisoners[captor * self.players.len() + owner] as u32
    }

    /// Tiles still to draw.
    pub fn deck_left(&self) -> usize {
        self.deck.len() - self.next_draw
    }

    /// The tiles still to draw, in drawing order: for
    /// [`crate::kernel::determinize`] only, which never lets the order out.
    pub(in crate::kernel) fn undrawn(&self) -> &[u16] {
        &self.deck[self.next_draw..]
    }

    pub(in crate::kernel) fn undrawn_mut(&mut self) -> &mut [u16] {
        &mut self.deck[self.next_draw..]
    }

    /// Stop recording events and drop those recorded: for search copies.
    pub(in crate::kernel) fn forget_events(&mut self) {
        self.events = None;
    }

    /// The tower on the tile at `pos`, if the tile has a foundation.
    pub fn tower_at(&self, pos: Pos) -> Option<usize> {
        let t = self.board.tile_index(pos)?;
        let i = self.tower_of_tile[t];
        (i != NO_TOWER).then_some(i as usize)
    }

    /// The tile kind of a placed tile.
    pub fn kind_of(&self, tile: usize) -> &'a TileKind {
        &self.tiles.kinds[self.board.tiles()[tile].kind as usize]
    }

    /// The feature id of a segment of the tile at `pos`.
    pub fn segment_id(&self, pos: Pos, segment: u8) -> Option<FeatureId> {
        let t = self.board.tile_at(pos)?;
        ((segment as usize) < self.tiles.kinds[t.kind as usize].segments.len())
            .then_some(t.first_segment + segment as u32)
    }

    /// What a meeple stands on: road, city, field, cloister or tower.
    pub fn spot_name(&self, pos: Pos, spot: MeepleSpot) -> &'static str {
        self.meeple_on(pos, spot).name()
    }

    /// What a meeple at `pos` on `spot` stands on.
    pub fn meeple_on(&self, pos: Pos, spot: MeepleSpot) -> MeepleOn {
        meeple_on(self.tiles, &self.board, pos, spot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn towers_of_the_same_state_are_equal_whatever_answers_they_keep() {
        let mut asked = Tower::bare(Pos::new(1, 2));
        asked.answers.lasting[1] = 0b101 | towers::TOP;
        asked.answers.now = towers::TOP;
        asked.answers.by_standings = 0b1;
        let fresh = Tower::bare(Pos::new(1, 2));
        assert_eq!(asked, fresh);
        asked.floors.push(0);
        assert_ne!(asked, fresh);
        asked.floors.clear();
        asked.meeple = Some(1);
        assert_ne!(asked, fresh);
    }
}
