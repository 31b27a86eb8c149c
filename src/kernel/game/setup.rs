//! Positions set up by hand rather than played to: tiles put where a test
//! says, meeples, towers with their floors, prisoners, scores and the seat
//! to act. For scenario tests of rules (`towerlab test`), which state what
//! must hold in such a position; the game then goes on from it as any other.
//!
//! Each setter checks what the kernel itself knows (edges that touch match,
//! a meeple stands on a segment of a placed tile, a player owns the meeples
//! used); none asks the rules. [`Game::settle`] asks them about every tower
//! once the position is whole.

use anyhow::{Result, ensure};

use super::{Game, MEEPLES_PER_PLAYER};
use crate::kernel::effects::{StateAt, TurnTile};
use crate::kernel::geometry::{Dir, Pos};
use crate::kernel::pieces::{Meeple, MeepleOn, MeepleSpot};
use crate::kernel::rules::{FloorKind, Rules};
use crate::kernel::tiles::{SegmentKind, TileSet};

impl<'a> Game<'a> {
    /// A game of `players` with no tile on the board and `tiles_left` tiles
    /// (of the start tile's kind) still to draw, each seat with the supply
    /// the rules give it: a position to set up.
    pub fn arranged(
        tiles: &'a TileSet,
        rules: &'a dyn Rules,
        players: usize,
        tiles_left: usize,
    ) -> Result<Self> {
        let deck = vec![tiles.start as u16; tiles_left];
        Game::unplaced(tiles, rules, players, deck, None)
    }

    /// Put a tile of `kind` at `pos` turned `rot` quarter turns clockwise:
    /// on a free cell, its edges matching every tile it touches (G1); it
    /// need not touch any.
    pub fn set_tile(&mut self, kind: u16, pos: Pos, rot: u8) -> Result<()> {
        let k = self
            .tiles
            .kinds
            .get(kind as usize)
            .ok_or_else(|| anyhow::anyhow!("no tile kind {kind}"))?;
        ensure!(rot < 4, "a rotation is 0 to 3 quarter turns, not {rot}");
        ensure!(!self.board.has_tile(pos), "a tile is already at {pos}");
        let alone = Dir::ALL.iter().all(|&d| !self.board.has_tile(pos.step(d)));
        ensure!(
            alone || self.board.fits(k, pos, rot),
            "tile {} turned {}° does not match the edges of the tiles around {pos} (G1)",
            k.name,
            rot as u16 * 90
        );
        self.put_tile(kind, pos, rot)?;
        self.this_tile = None;
        Ok(())
    }

    /// A meeple of `owner` from their supply on `spot` of the tile at `pos`.
    /// On a tower, the tower must have no meeple (T8); it may be a bare
    /// foundation, as a rule's effect may make one.
    pub fn set_meeple(&mut self, owner: usize, pos: Pos, spot: MeepleSpot) -> Result<()> {
        ensure!(owner < self.players.len(), "no seat {owner}");
        ensure!(
            self.players[owner].meeples > 0,
            "seat {owner} has no meeple left (each has {MEEPLES_PER_PLAYER}, prisoners included)"
        );
        ensure!(self.board.has_tile(pos), "no tile at {pos}");
        match spot {
            MeepleSpot::Segment(s) => {
                let id = self.segment_id(pos, s).ok_or_else(|| {
                    let t = self.board.tile_at(pos).expect("checked");
                    let kind = &self.tiles.kinds[t.kind as usize];
                    anyhow::anyhow!(
                        "tile {} has segments 0 to {}, not {s}",
                        kind.name,
                        kind.segments.len().saturating_sub(1)
                    )
                })?;
                ensure!(
                    !matches!(
                        self.meeple_on(pos, spot),
                        MeepleOn::Feature(SegmentKind::Foundation)
                    ),
                    "a meeple goes onto a tower, not its foundation (T4)"
                );
                self.features.add_meeple(id);
            }
            MeepleSpot::Tower => {
                let t = self
                    .tower_at(pos)
                    .ok_or_else(|| anyhow::anyhow!("no foundation at {pos}"))?;
                // On a bare foundation too: a rule's effect may put one
                // there (`place_on_tower`), so a position may hold one.
                let tower = &mut self.towers[t];
                ensure!(
                    tower.meeple.is_none(),
                    "the tower at {pos} already holds a meeple"
                );
                tower.meeple = Some(owner as u8);
            }
        }
        self.players[owner].meeples -= 1;
        self.meeples.push(Meeple {
            owner: owner as u8,
            pos,
            spot,
        });
        Ok(())
    }

    /// The floors of the tower at `pos`, bottom to top (taken from no
    /// supply).
    pub fn set_floors(&mut self, pos: Pos, floors: &[FloorKind]) -> Result<()> {
        let t = self
            .tower_at(pos)
            .ok_or_else(|| anyhow::anyhow!("no foundation at {pos}"))?;
        let kinds = self.rules.floor_kinds().len();
        ensure!(
            floors.iter().all(|&k| (k as usize) < kinds),
            "a floor kind out of range"
        );
        ensure!(
            self.towers[t].meeple.is_none(),
            "the floors go on before the meeple on top"
        );
        self.towers[t].floors = floors.to_vec();
        Ok(())
    }

    /// `count` of `owner`'s meeples held by `captor`, from `owner`'s supply.
    pub fn set_prisoners(&mut self, captor: usize, owner: usize, count: u8) -> Result<()> {
        let n = self.players.len();
        ensure!(captor < n && owner < n, "no such seat");
        ensure!(captor != owner, "a seat holds no prisoner of its own");
        ensure!(
            self.players[owner].meeples >= count,
            "seat {owner} has {} meeples left, not {count}",
            self.players[owner].meeples
        );
        self.players[owner].meeples -= count;
        self.prisoners[captor * n + owner] += count;
        self.standings_changed();
        Ok(())
    }

    /// A seat's score.
    pub fn set_score(&mut self, seat: usize, score: u32) -> Result<()> {
        ensure!(seat < self.players.len(), "no seat {seat}");
        self.players[seat].score = score;
        self.standings_changed();
        Ok(())
    }

    /// A value of the rules' state (variable `var` at `at`), checked as an
    /// effect's is.
    pub fn set_state(&mut self, var: u16, at: StateAt, value: i64) -> Result<()> {
        self.put_state(var, at, value)
    }

    /// A seat's floors in supply, per floor kind.
    pub fn set_supply(&mut self, seat: usize, floors: Vec<u32>) -> Result<()> {
        ensure!(seat < self.players.len(), "no seat {seat}");
        ensure!(
            floors.len() == self.rules.floor_kinds().len(),
            "one count per floor kind"
        );
        self.players[seat].floors = floors;
        Ok(())
    }

    /// The table's floors, per floor kind.
    pub fn set_table_supply(&mut self, floors: Vec<u32>) -> Result<()> {
        ensure!(
            floors.len() == self.rules.floor_kinds().len(),
            "one count per floor kind"
        );
        self.table = floors;
        Ok(())
    }

    /// The seat to act, and the turn count (`game().turn` to the rules).
    pub fn set_turn(&mut self, current: usize, turn: u32) -> Result<()> {
        ensure!(current < self.players.len(), "no seat {current}");
        self.current = current;
        self.stats.turns = turn;
        Ok(())
    }

    /// Make the tile at `pos` the one the rules see as placed this turn
    /// (`game().tile` to a pack), without opening the turn: a position's
    /// last tile, when its decisions begin after the tile.
    pub fn show_turn_tile(&mut self, pos: Pos) -> Result<()> {
        let placed = *self
            .board
            .tile_at(pos)
            .ok_or_else(|| anyhow::anyhow!("no tile at {pos}"))?;
        self.history.tile = Some(TurnTile {
            kind: placed.kind,
            pos,
            rot: placed.rot,
            foundation: self.tiles.kinds[placed.kind as usize].foundation.is_some(),
        });
        Ok(())
    }

    /// The position is whole: ask the rules about every tower, and make the
    /// tile at `just_placed` (if any) the current turn's, so the turn's
    /// action comes next.
    pub fn settle(&mut self, just_placed: Option<Pos>) -> Result<()> {
        for t in 0..self.towers.len() {
            self.refresh_tower(t)?;
        }
        self.this_tile = match just_placed {
            Some(p) => Some(
                self.board
                    .tile_index(p)
                    .ok_or_else(|| anyhow::anyhow!("no tile at {p}"))?,
            ),
            None => None,
        };
        self.acted = false;
        self.capture_tower = None;
        Ok(())
    }
}

impl Game<'_> {
    /// Has the turn's tile been placed (so the turn is under way)?
    pub fn turn_begun(&self) -> bool {
        self.this_tile.is_some() || self.acted
    }

    /// Ransoms the seat to act has paid this turn (T11).
    pub fn ransoms_paid(&self) -> u32 {
        self.ransoms_paid
    }
}
