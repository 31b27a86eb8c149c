//! A game in progress: board, features, players, meeples, towers, prisoners,
//! and the operations of a turn (G2, T3): place a tile, pay a ransom, take one
//! action, capture, exchange, score.
//!
//! The operations check what the kernel itself knows (tiles match, a meeple
//! goes on the tile just placed onto an unoccupied feature, a player holds the
//! floor or meeple they use, no score goes below zero) and ask [`Rules`] every
//! question about towers. The legal options of each decision are listed by the
//! kernel, so bots never need to know the rules.

use anyhow::{Result, bail, ensure};

use crate::kernel::board::Board;
use crate::kernel::features::{FeatureId, Features};
use crate::kernel::geometry::{Dir, Half, Pos};
use crate::kernel::random::{DECK_STREAM, Stream};
use crate::kernel::rules::{FloorKind, MeepleView, Rules, TowerView};
use crate::kernel::tiles::{EdgeKind, NO_SEGMENT, SegmentKind, TileKind, TileSet};

/// Meeples each player owns (G3).
pub const MEEPLES_PER_PLAYER: u8 = 7;

/// Where on its tile a meeple stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeepleSpot {
    /// On a segment of the tile (an index into the tile kind's segments).
    Segment(u8),
    /// On top of the tile's tower.
    Tower,
}

/// A meeple on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meeple {
    pub owner: u8,
    pub pos: Pos,
    pub spot: MeepleSpot,
}

/// A tower: a foundation and the floors on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tower {
    pub pos: Pos,
    /// Bottom to top; empty for a bare foundation.
    pub floors: Vec<FloorKind>,
    pub meeple: Option<u8>,
    /// The rules' answers for the tower as it stands (bit k: a floor of kind
    /// k may go on it), refreshed whenever the tower changes: the rules are
    /// pure, so each answer is asked once per change, not once per turn.
    allowed_floors: u32,
    /// The rules' answer: may a meeple go on top now?
    may_top: bool,
}

impl Tower {
    /// May a floor of `kind` go on this tower, as the rules said?
    pub fn allows_floor(&self, kind: FloorKind) -> bool {
        self.allowed_floors & (1 << kind) != 0
    }

    /// May a meeple go on top of this tower, as the rules said?
    pub fn allows_meeple(&self) -> bool {
        self.may_top && self.meeple.is_none()
    }

    pub fn view(&self) -> TowerView<'_> {
        TowerView {
            pos: self.pos,
            floors: &self.floors,
            meeple: self.meeple.map(usize::from),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub score: u32,
    /// Meeples in the player's supply.
    pub meeples: u8,
    /// Floors in the player's supply, per kind.
    pub floors: Vec<u32>,
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

/// Something that happened, for logs and tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Tile {
        player: usize,
        kind: u16,
        pos: Pos,
        rot: u8,
    },
    Discard {
        kind: u16,
    },
    Meeple {
        player: usize,
        pos: Pos,
        spot: MeepleSpot,
        on: &'static str,
    },
    Floor {
        player: usize,
        pos: Pos,
        kind: FloorKind,
        floors: Vec<FloorKind>,
    },
    Capture {
        player: usize,
        tower: Pos,
        floors: Vec<FloorKind>,
        at: Pos,
        spot: MeepleSpot,
        on: &'static str,
        owner: usize,
    },
    Exchange {
        players: [usize; 2],
    },
    Ransom {
        player: usize,
        to: usize,
        cost: u32,
        scores: Vec<u32>,
    },
    Score {
        player: usize,
        points: u32,
        feature: &'static str,
    },
    End {
        scores: Vec<u32>,
    },
}

/// Counters kept during a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
}

/// A game: state plus the operations of a turn.
#[derive(Clone)]
pub struct Game<'a> {
    tiles: &'a TileSet,
    rules: &'a dyn Rules,
    board: Board,
    features: Features,
    players: Vec<Player>,
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
}

const NO_TOWER: u16 = u16::MAX;

impl<'a> Game<'a> {
    /// A new game with the deck shuffled by `seed`'s deck stream.
    pub fn new(
        tiles: &'a TileSet,
        rules: &'a dyn Rules,
        players: usize,
        seed: u64,
    ) -> Result<Self> {
        let mut deck = tiles.deck();
        Stream::new(seed, DECK_STREAM).shuffle(&mut deck);
        Game::with_deck(tiles, rules, players, deck)
    }

    /// A new game drawing exactly `deck` (first element first), with the start
    /// tile already placed at the origin.
    pub fn with_deck(
        tiles: &'a TileSet,
        rules: &'a dyn Rules,
        players: usize,
        deck: Vec<u16>,
    ) -> Result<Self> {
        ensure!(
            (2..=6).contains(&players),
            crate::kernel::diag::BadInput(format!("a game has 2 to 6 players, not {players}"))
        );
        let supply = rules.floor_supply(players, tiles.foundation_tiles())?;
        ensure!(
            rules.floor_kinds().len() <= 32,
            "at most 32 floor kinds, not {}",
            rules.floor_kinds().len()
        );
        ensure!(
            supply.len() == rules.floor_kinds().len(),
            "the rules give {} floor counts for {} floor kinds",
            supply.len(),
            rules.floor_kinds().len()
        );
        let mut game = Game {
            tiles,
            rules,
            board: Board::new(),
            features: Features::default(),
            players: vec![
                Player {
                    score: 0,
                    meeples: MEEPLES_PER_PLAYER,
                    floors: supply,
                };
                players
            ],
            prisoners: vec![0; players * players],
            meeples: Vec::new(),
            towers: Vec::new(),
            tower_of_tile: Vec::new(),
            deck,
            next_draw: 0,
            current: 0,
            this_tile: None,
            acted: false,
            capture_tower: None,
            capturable: Vec::new(),
            capturable_known: false,
            ransoms_paid: 0,
            stats: Stats::default(),
            events: None,
            range: Vec::new(),
            scratch: Vec::new(),
            roots: Vec::new(),
        };
        game.put_tile(tiles.start as u16, Pos::ORIGIN, 0)?;
        game.this_tile = None;
        Ok(game)
    }

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
        match spot {
            MeepleSpot::Tower => "tower",
            MeepleSpot::Segment(s) => {
                let t = self.board.tile_at(pos).expect("meeples stand on tiles");
                self.tiles.kinds[t.kind as usize].segments[s as usize]
                    .kind
                    .name()
            }
        }
    }

    // ---- drawing and placing tiles (G1) -----------------------------

    /// Draw the next tile that fits somewhere, discarding those that fit
    /// nowhere (G1). `None` when the deck is empty.
    pub fn draw(&mut self) -> Option<u16> {
        while self.next_draw < self.deck.len() {
            let kind = self.deck[self.next_draw];
            self.next_draw += 1;
            if self.fits_somewhere(kind) {
                return Some(kind);
            }
            self.stats.discards += 1;
            self.emit(|_| Event::Discard { kind });
        }
        None
    }

    fn fits_somewhere(&self, kind: u16) -> bool {
        let k = &self.tiles.kinds[kind as usize];
        self.board
            .open_spots()
            .iter()
            .any(|s| k.fitting_rotations(s.pattern) != 0)
    }

    /// Every legal placement of a tile of `kind` (distinct rotations only).
    pub fn placements(&self, kind: u16, out: &mut Vec<Placement>) {
        out.clear();
        let k = &self.tiles.kinds[kind as usize];
        for spot in self.board.open_spots() {
            let mut rots = k.fitting_rotations(spot.pattern);
            while rots != 0 {
                let rot = rots.trailing_zeros() as u8;
                rots &= rots - 1;
                out.push(Placement { pos: spot.pos, rot });
            }
        }
    }

    /// Place the turn's tile (G1, G2).
    pub fn place_tile(&mut self, kind: u16, at: Placement) -> Result<()> {
        ensure!(
            self.this_tile.is_none(),
            "a tile was already placed this turn"
        );
        let k = self
            .tiles
            .kinds
            .get(kind as usize)
            .ok_or_else(|| anyhow::anyhow!("no tile kind {kind}"))?;
        ensure!(
            at.rot < 4 && self.board.fits(k, at.pos, at.rot),
            "tile {} does not fit at {} turned {}°",
            k.name,
            at.pos,
            at.rot as u16 * 90
        );
        self.put_tile(kind, at.pos, at.rot)?;
        self.stats.turns += 1;
        let player = self.current;
        self.emit(|_| Event::Tile {
            player,
            kind,
            pos: at.pos,
            rot: at.rot,
        });
        Ok(())
    }

    fn put_tile(&mut self, kind: u16, pos: Pos, rot: u8) -> Result<()> {
        let k = &self.tiles.kinds[kind as usize];
        let index = self.board.tiles().len();
        let first = self.features.add_tile(index as u16, k);
        self.board.place(kind, k, pos, rot, first);
        let rotation = &k.rotations[rot as usize];
        for d in Dir::ALL {
            let Some(other) = self.board.tile_at(pos.step(d)).copied() else {
                continue;
            };
            let ok = &self.tiles.kinds[other.kind as usize].rotations[other.rot as usize];
            let back = d.opposite();
            match rotation.edges[d.index()] {
                EdgeKind::City | EdgeKind::Road => {
                    let a = first + rotation.edge_segment[d.index()] as u32;
                    let b = other.first_segment + ok.edge_segment[back.index()] as u32;
                    self.features.connect(a, b);
                }
                EdgeKind::Field => {}
            }
            for h in d.halves() {
                let mine = rotation.half_segment[h.0 as usize];
                let theirs = ok.half_segment[Half::facing(h).0 as usize];
                if mine != NO_SEGMENT && theirs != NO_SEGMENT {
                    self.features
                        .join(first + mine as u32, other.first_segment + theirs as u32);
                }
            }
        }
        let tower = if k.foundation.is_some() {
            self.towers.push(Tower {
                pos,
                floors: Vec::new(),
                meeple: None,
                allowed_floors: 0,
                may_top: false,
            });
            self.refresh_tower(self.towers.len() - 1)?;
            (self.towers.len() - 1) as u16
        } else {
            NO_TOWER
        };
        self.tower_of_tile.push(tower);
        self.this_tile = Some(index);
        Ok(())
    }

    /// Ask the rules again about a tower that changed.
    fn refresh_tower(&mut self, t: usize) -> Result<()> {
        let view = self.towers[t].view();
        let mut allowed = 0u32;
        for k in 0..self.rules.floor_kinds().len() {
            if self.rules.may_place_floor(&view, k as FloorKind)? {
                allowed |= 1 << k;
            }
        }
        let may_top = self.rules.may_top_with_meeple(&view)?;
        let tower = &mut self.towers[t];
        tower.allowed_floors = allowed;
        tower.may_top = may_top;
        Ok(())
    }

    // ---- ransom (T11) -------------------------------------------------

    /// The ransoms the current player may pay now, after `Decline`.
    pub fn ransom_choices(&self, out: &mut Vec<RansomChoice>) -> Result<()> {
        out.clear();
        out.push(RansomChoice::Decline);
        let me = self.current;
        let n = self.players.len();
        let score = self.players[me].score;
        for captor in 0..n {
            if captor == me || self.prisoners(captor, me) == 0 {
                continue;
            }
            if let Some(cost) = self.rules.ransom_cost(score, self.ransoms_paid)?
                && cost <= score
            {
                out.push(RansomChoice::Pay {
                    captor: captor as u8,
                    cost,
                });
            }
        }
        Ok(())
    }

    /// The current player buys back one meeple held by `captor` (T11).
    pub fn pay_ransom(&mut self, captor: usize) -> Result<()> {
        let me = self.current;
        ensure!(
            captor < self.players.len() && captor != me && self.prisoners(captor, me) > 0,
            "player {captor} holds no prisoner of player {me}"
        );
        let score = self.players[me].score;
        let Some(cost) = self.rules.ransom_cost(score, self.ransoms_paid)? else {
            bail!("no ransom is allowed now");
        };
        ensure!(
            cost <= score,
            "a ransom of {cost} would take the score of {score} below 0"
        );
        let n = self.players.len();
        self.prisoners[captor * n + me] -= 1;
        self.players[me].meeples += 1;
        self.players[me].score -= cost;
        self.players[captor].score += cost;
        self.ransoms_paid += 1;
        self.stats.ransoms += 1;
        self.stats.ransom_points += cost;
        self.emit(|g| Event::Ransom {
            player: me,
            to: captor,
            cost,
            scores: g.scores(),
        });
        Ok(())
    }

    // ---- the action (T3) ------------------------------------------------

    /// Every action the current player may take now (`Pass` first).
    pub fn actions(&self, out: &mut Vec<Action>) -> Result<()> {
        out.clear();
        out.push(Action::Pass);
        if self.acted {
            return Ok(());
        }
        let Some(tile) = self.this_tile else {
            return Ok(());
        };
        let player = &self.players[self.current];
        let placed = self.board.tiles()[tile];
        let kind = &self.tiles.kinds[placed.kind as usize];
        if player.meeples > 0 {
            for (s, seg) in kind.segments.iter().enumerate() {
                if seg.kind == SegmentKind::Foundation {
                    continue;
                }
                let root = self.features.root(placed.first_segment + s as u32);
                if self.features.meeples(root) == 0 {
                    out.push(Action::Meeple { segment: s as u8 });
                }
            }
        }
        for (t, tower) in self.towers.iter().enumerate() {
            for (k, &left) in player.floors.iter().enumerate() {
                if left > 0 && tower.allows_floor(k as FloorKind) {
                    out.push(Action::Floor {
                        tower: t as u16,
                        kind: k as FloorKind,
                    });
                }
            }
            if player.meeples > 0 && tower.allows_meeple() {
                out.push(Action::TowerMeeple { tower: t as u16 });
            }
        }
        Ok(())
    }

    /// Take the turn's action. After a floor, the capture choices are open
    /// (see [`Game::capture_choices`]).
    pub fn act(&mut self, action: Action) -> Result<()> {
        ensure!(!self.acted, "one action per turn (T3)");
        if action == Action::Pass {
            // Choosing no action closes the action for this turn too.
            self.acted = true;
            return Ok(());
        }
        let tile = self
            .this_tile
            .ok_or_else(|| anyhow::anyhow!("place a tile first"))?;
        let me = self.current;
        match action {
            Action::Pass => unreachable!(),
            Action::Meeple { segment } => {
                let placed = self.board.tiles()[tile];
                let kind = &self.tiles.kinds[placed.kind as usize];
                let seg = kind.segments.get(segment as usize).ok_or_else(|| {
                    anyhow::anyhow!("tile {} has no segment {segment}", kind.name)
                })?;
                ensure!(
                    seg.kind != SegmentKind::Foundation,
                    "a meeple goes onto a tower, not its foundation (T4)"
                );
                ensure!(
                    self.players[me].meeples > 0,
                    "player {me} has no meeple in supply"
                );
                let id = placed.first_segment + segment as u32;
                ensure!(
                    self.features.meeples(self.features.root(id)) == 0,
                    "that {} already holds a meeple (G3)",
                    seg.kind.name()
                );
                self.features.add_meeple(id);
                self.players[me].meeples -= 1;
                self.meeples.push(Meeple {
                    owner: me as u8,
                    pos: placed.pos,
                    spot: MeepleSpot::Segment(segment),
                });
                let on = seg.kind.name();
                self.emit(|_| Event::Meeple {
                    player: me,
                    pos: placed.pos,
                    spot: MeepleSpot::Segment(segment),
                    on,
                });
            }
            Action::Floor { tower, kind } => {
                let t = tower as usize;
                ensure!(t < self.towers.len(), "no tower {t}");
                let left = self.players[me]
                    .floors
                    .get(kind as usize)
                    .copied()
                    .unwrap_or(0);
                ensure!(left > 0, "player {me} has no floor of kind {kind} left");
                ensure!(
                    self.towers[t].allows_floor(kind),
                    "the rules do not allow that floor on the tower at {}",
                    self.towers[t].pos
                );
                self.players[me].floors[kind as usize] -= 1;
                self.towers[t].floors.push(kind);
                self.refresh_tower(t)?;
                self.stats.floors_placed += 1;
                self.emit(|g| Event::Floor {
                    player: me,
                    pos: g.towers[t].pos,
                    kind,
                    floors: g.towers[t].floors.clone(),
                });
                self.capture_tower = Some(t);
                self.capturable_known = false;
            }
            Action::TowerMeeple { tower } => {
                let t = tower as usize;
                ensure!(t < self.towers.len(), "no tower {t}");
                ensure!(
                    self.players[me].meeples > 0,
                    "player {me} has no meeple in supply"
                );
                ensure!(self.towers[t].meeple.is_none(), "the tower is closed (T8)");
                ensure!(
                    self.towers[t].allows_meeple(),
                    "the rules do not allow a meeple on the tower at {}",
                    self.towers[t].pos
                );
                self.players[me].meeples -= 1;
                self.towers[t].meeple = Some(me as u8);
                self.refresh_tower(t)?;
                let pos = self.towers[t].pos;
                self.meeples.push(Meeple {
                    owner: me as u8,
                    pos,
                    spot: MeepleSpot::Tower,
                });
                self.emit(|_| Event::Meeple {
                    player: me,
                    pos,
                    spot: MeepleSpot::Tower,
                    on: "tower",
                });
            }
        }
        self.acted = true;
        Ok(())
    }

    // ---- capture and exchange (T5, T9, T10) -----------------------------

    /// The meeples the floor just placed may capture, after `Decline`; only
    /// `Decline` when no floor awaits its capture.
    pub fn capture_choices(&mut self, out: &mut Vec<CaptureChoice>) -> Result<()> {
        out.clear();
        out.push(CaptureChoice::Decline);
        self.find_capturable()?;
        out.extend(
            self.capturable
                .iter()
                .map(|&meeple| CaptureChoice::Take { meeple }),
        );
        Ok(())
    }

    /// Ask the rules which meeples the floor just placed may take (T5, T6,
    /// T9), unless already asked this turn.
    fn find_capturable(&mut self) -> Result<()> {
        let Some(t) = self.capture_tower else {
            self.capturable.clear();
            return Ok(());
        };
        if self.capturable_known {
            return Ok(());
        }
        self.capturable.clear();
        let mut range = std::mem::take(&mut self.range);
        range.clear();
        let tower = &self.towers[t];
        let view = tower.view();
        self.rules.capture_range(&view, &self.board, &mut range)?;
        for (i, m) in self.meeples.iter().enumerate() {
            let d = (m.pos.x - tower.pos.x, m.pos.y - tower.pos.y);
            if !range.contains(&d) {
                continue;
            }
            let mv = MeepleView {
                owner: m.owner as usize,
                pos: m.pos,
                spot: m.spot,
                on: self.spot_name(m.pos, m.spot),
            };
            if self.rules.may_capture(&view, &mv, &self.board)? {
                self.capturable.push(i as u16);
            }
        }
        self.range = range;
        self.capturable_known = true;
        Ok(())
    }

    /// Capture the meeple at index `meeple` of [`Game::meeples`] with the
    /// floor just placed (T5): an opponent's becomes a prisoner, one's own goes
    /// back to supply; then prisoners are exchanged if both sides hold one
    /// (T10).
    pub fn capture(&mut self, meeple: usize) -> Result<()> {
        ensure!(
            self.capture_tower.is_some(),
            "no floor was just placed (T5)"
        );
        self.find_capturable()?;
        ensure!(
            self.capturable.contains(&(meeple as u16)),
            "that meeple is not in the tower's range, or the rules protect it"
        );
        let t = self.capture_tower.take().expect("checked");
        let me = self.current;
        let m = self.meeples.swap_remove(meeple);
        let on = self.spot_name(m.pos, m.spot);
        match m.spot {
            MeepleSpot::Segment(s) => {
                let id = self.segment_id(m.pos, s).expect("meeples stand on tiles");
                self.features.remove_meeple(id);
            }
            MeepleSpot::Tower => {
                let other = self.tower_at(m.pos).expect("tower meeples stand on towers");
                self.towers[other].meeple = None;
                self.refresh_tower(other)?;
            }
        }
        let owner = m.owner as usize;
        self.emit(|g| Event::Capture {
            player: me,
            tower: g.towers[t].pos,
            floors: g.towers[t].floors.clone(),
            at: m.pos,
            spot: m.spot,
            on,
            owner,
        });
        if owner == me {
            self.players[me].meeples += 1;
            self.stats.own_captures += 1;
        } else {
            let n = self.players.len();
            self.prisoners[me * n + owner] += 1;
            self.stats.captures += 1;
            self.exchange(me, owner);
        }
        Ok(())
    }

    /// T10: when two players each hold a prisoner of the other, one of each
    /// goes home at once. A player's meeples are interchangeable, so the
    /// owner's choice of which one comes back changes nothing here.
    fn exchange(&mut self, a: usize, b: usize) {
        let n = self.players.len();
        if self.prisoners[a * n + b] > 0 && self.prisoners[b * n + a] > 0 {
            self.prisoners[a * n + b] -= 1;
            self.prisoners[b * n + a] -= 1;
            self.players[a].meeples += 1;
            self.players[b].meeples += 1;
            self.stats.exchanges += 1;
            self.emit(|_| Event::Exchange { players: [a, b] });
        }
    }

    // ---- scoring (G4–G8) ------------------------------------------------

    /// Score every road, city and cloister completed by this turn's tile, and
    /// return their meeples (G2, G7). Ends the turn.
    pub fn end_turn(&mut self) {
        if let Some(tile) = self.this_tile.take() {
            self.score_completed(tile);
        }
        self.capture_tower = None;
        self.acted = false;
        self.ransoms_paid = 0;
        self.current = (self.current + 1) % self.players.len();
    }

    fn score_completed(&mut self, tile: usize) {
        let placed = self.board.tiles()[tile];
        let kind = &self.tiles.kinds[placed.kind as usize];
        let mut roots = std::mem::take(&mut self.roots);
        roots.clear();
        for (s, seg) in kind.segments.iter().enumerate() {
            if matches!(seg.kind, SegmentKind::City | SegmentKind::Road) {
                let r = self.features.root(placed.first_segment + s as u32);
                if self.features.is_complete(r) && !self.features.is_done(r) && !roots.contains(&r)
                {
                    roots.push(r);
                }
            }
        }
        for &r in &roots {
            self.features.mark_done(r);
            let points = self.feature_points(r, true);
            self.award(r, points, true);
        }
        roots.clear();
        for p in std::iter::once(placed.pos).chain(placed.pos.around()) {
            if let Some(id) = self.cloister_at(p)
                && !self.features.is_done(id)
                && self.neighbours(p) == 8
            {
                roots.push(id);
            }
        }
        for &r in &roots {
            self.features.mark_done(r);
            self.award(r, 9, true);
        }
        self.roots = roots;
    }

    fn cloister_at(&self, p: Pos) -> Option<FeatureId> {
        let t = self.board.tile_at(p)?;
        let c = self.tiles.kinds[t.kind as usize].cloister?;
        Some(t.first_segment + c as u32)
    }

    fn neighbours(&self, p: Pos) -> u32 {
        p.around().filter(|&q| self.board.has_tile(q)).count() as u32
    }

    /// Points of a road or city: complete (G4, G5) or at game end.
    fn feature_points(&mut self, root: FeatureId, complete: bool) -> u32 {
        let mut scratch = std::mem::take(&mut self.scratch);
        let tiles = self.features.tile_count(root, &mut scratch);
        self.scratch = scratch;
        let pennants = self.features.pennants(root);
        match self.features.kind(root) {
            SegmentKind::City if complete => 2 * tiles + 2 * pennants,
            SegmentKind::City => tiles + pennants,
            _ => tiles,
        }
    }

    /// Give `points` to every player with the most meeples on the feature
    /// (G7); with `release`, those meeples go back to their owners.
    fn award(&mut self, root: FeatureId, points: u32, release: bool) {
        if self.features.meeples(root) == 0 {
            return;
        }
        let n = self.players.len();
        let mut count = [0u8; 8];
        let mut i = 0;
        while i < self.meeples.len() {
            let m = self.meeples[i];
            let on_it = match m.spot {
                MeepleSpot::Segment(s) => {
                    let id = self.segment_id(m.pos, s).expect("meeples stand on tiles");
                    self.features.root(id) == root
                }
                MeepleSpot::Tower => false,
            };
            if on_it {
                count[m.owner as usize] += 1;
                if release {
                    self.meeples.swap_remove(i);
                    self.players[m.owner as usize].meeples += 1;
                    continue;
                }
            }
            i += 1;
        }
        if release {
            self.features.clear_meeples(root);
        }
        let most = *count[..n].iter().max().expect("players");
        let feature = self.features.kind(root).name();
        for (p, &c) in count[..n].iter().enumerate() {
            if c == most && most > 0 {
                self.players[p].score += points;
                if points > 0 {
                    self.emit(|_| Event::Score {
                        player: p,
                        points,
                        feature,
                    });
                }
            }
        }
    }

    /// End-of-game scoring: incomplete roads, cities and cloisters, then
    /// farms (G4–G8). Farmers and tower meeples stay on the board.
    pub fn final_scoring(&mut self) {
        let mut roots = Vec::new();
        for m in &self.meeples {
            if let MeepleSpot::Segment(s) = m.spot {
                let r = self
                    .features
                    .root(self.segment_id(m.pos, s).expect("on tiles"));
                if !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        roots.sort_unstable();
        // Roads, cities and cloisters first, as they leave the board; fields
        // read which cities are complete, which end scoring does not change.
        for &r in &roots {
            if self.features.is_done(r) {
                continue;
            }
            let points = match self.features.kind(r) {
                SegmentKind::Road | SegmentKind::City => self.feature_points(r, false),
                SegmentKind::Cloister => {
                    let (tile, _) = self.features.place_of(r);
                    1 + self.neighbours(self.board.tiles()[tile].pos)
                }
                SegmentKind::Field | SegmentKind::Foundation => continue,
            };
            self.award(r, points, false);
        }
        for &r in &roots {
            if self.features.kind(r) == SegmentKind::Field {
                let points = 3 * self.completed_cities_touching(r);
                self.award(r, points, false);
            }
        }
        let scores = self.scores();
        self.emit(|_| Event::End { scores });
    }

    /// How many distinct completed cities a field borders (G8).
    pub fn completed_cities_touching(&self, field: FeatureId) -> u32 {
        let mut cities: Vec<FeatureId> = Vec::new();
        for id in self.features.members(field) {
            let (tile, seg) = self.features.place_of(id);
            let placed = self.board.tiles()[tile];
            let kind = &self.tiles.kinds[placed.kind as usize];
            for &c in &kind.segments[seg].cities {
                let r = self.features.root(placed.first_segment + c as u32);
                if self.features.is_complete(r) && !cities.contains(&r) {
                    cities.push(r);
                }
            }
        }
        cities.len() as u32
    }
}
