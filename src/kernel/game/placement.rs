//! Drawing and placing tiles (G1, G2): the legal placements of a drawn
//! tile, joining a placed tile's segments to its neighbours' features, and
//! the cells where a road or city still needs tiles.

use anyhow::{Result, ensure};

use super::{Event, Game, NO_TOWER, Placement, Tower};
use crate::kernel::effects::{Moment, TurnTile};
use crate::kernel::features::FeatureId;
use crate::kernel::geometry::{Dir, Half, Pos};
use crate::kernel::rules::asks;
use crate::kernel::tiles::{EdgeKind, NO_SEGMENT};

impl Game<'_> {
    /// Call `found` with each empty cell an open edge of the road or city
    /// `root` faces (a cell twice if two of its edges face it): where the
    /// tiles that would close it must go (G4, G5).
    pub fn open_cells(&self, root: FeatureId, mut found: impl FnMut(Pos)) {
        for m in self.features.members(root) {
            let (tile, segment) = self.features.place_of(m);
            let placed = self.board.tiles()[tile];
            let rotation = &self.kind_of(tile).rotations[placed.rot as usize & 3];
            for d in Dir::ALL {
                let cell = placed.pos.step(d);
                if rotation.edge_segment[d.index()] as usize == segment
                    && !self.board.has_tile(cell)
                {
                    found(cell);
                }
            }
        }
    }

    /// Draw the next tile that fits somewhere, discarding those that fit
    /// nowhere, or nowhere the rules allow (G1). `None` when the deck is
    /// empty.
    pub fn draw(&mut self) -> Result<Option<u16>> {
        while self.next_draw < self.deck.len() {
            let kind = self.deck[self.next_draw];
            self.next_draw += 1;
            if self.fits_somewhere(kind)? {
                return Ok(Some(kind));
            }
            self.stats.discards += 1;
            self.emit(|_| Event::Discard { kind });
        }
        Ok(None)
    }

    /// Draw the current player's tile ([`Game::draw`]) and let the rules
    /// act on it before it is placed (`tile_drawn`).
    pub fn draw_turn(&mut self) -> Result<Option<u16>> {
        let Some(tile) = self.draw()? else {
            return Ok(None);
        };
        self.tile_drawn(tile)?;
        Ok(Some(tile))
    }

    /// The current player drew a tile of `kind`: the rules act on it
    /// (`tile_drawn`) before it is placed. [`Game::draw_turn`] says so;
    /// a position set up by hand (scenario tests) says it of the tile it
    /// places.
    pub fn tile_drawn(&mut self, kind: u16) -> Result<()> {
        self.income.at_draw(true);
        let acted = self.happen(Moment::TileDrawn {
            seat: self.current,
            tile: kind,
        });
        self.income.at_draw(false);
        acted
    }

    fn fits_somewhere(&self, kind: u16) -> Result<bool> {
        if self.asks_placements() {
            let mut allowed = Vec::new();
            self.placements(kind, &mut allowed)?;
            return Ok(!allowed.is_empty());
        }
        let k = &self.tiles.kinds[kind as usize];
        Ok(self
            .board
            .open_spots()
            .iter()
            .any(|s| k.fitting_rotations(s.pattern) != 0))
    }

    /// Do the rules say where a tile may go (`may_place_tile`)?
    fn asks_placements(&self) -> bool {
        self.listens & asks::MAY_PLACE_TILE != 0
    }

    /// Every legal placement of a tile of `kind` (distinct rotations only):
    /// where it fits (G1) and, when they say, the rules allow it.
    pub fn placements(&self, kind: u16, out: &mut Vec<Placement>) -> Result<()> {
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
        if self.asks_placements() {
            self.with_table(|table| -> Result<()> {
                let mut kept = 0;
                for i in 0..out.len() {
                    let at = out[i];
                    if self.rules.may_place_tile(kind, at.pos, at.rot, table)? {
                        out[kept] = at;
                        kept += 1;
                    }
                }
                out.truncate(kept);
                Ok(())
            })?;
        }
        Ok(())
    }

    /// Place the turn's tile (G1, G2).
    pub fn place_tile(&mut self, kind: u16, at: Placement) -> Result<()> {
        ensure!(
            self.this_tile.is_none(),
            "a tile was already placed this turn"
        );
        let Some(turns) = self.stats.turns.checked_add(1) else {
            return Err(crate::kernel::diag::bad_input(format!(
                "a tile placed now would take the turn count past {}",
                u32::MAX
            )));
        };
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
        if self.asks_placements() {
            let allowed =
                self.with_table(|t| self.rules.may_place_tile(kind, at.pos, at.rot, t))?;
            ensure!(
                allowed,
                "the rules do not let tile {} go at {} turned {}° (may_place_tile)",
                k.name,
                at.pos,
                at.rot as u16 * 90
            );
        }
        self.put_tile(kind, at.pos, at.rot)?;
        self.stats.turns = turns;
        let player = self.current;
        self.emit(|_| Event::Tile {
            player,
            kind,
            pos: at.pos,
            rot: at.rot,
        });
        let foundation = k.foundation.is_some();
        self.history.tile = Some(TurnTile {
            kind,
            pos: at.pos,
            rot: at.rot,
            foundation,
        });
        self.happen(Moment::TilePlaced {
            seat: player,
            tile: kind,
            pos: at.pos,
            rot: at.rot,
            foundation,
        })
    }

    pub(super) fn put_tile(&mut self, kind: u16, pos: Pos, rot: u8) -> Result<()> {
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
            self.towers.push(Tower::bare(pos));
            self.refresh_tower(self.towers.len() - 1)?;
            (self.towers.len() - 1) as u16
        } else {
            NO_TOWER
        };
        self.tower_of_tile.push(tower);
        self.this_tile = Some(index);
        Ok(())
    }
}
