//! The turn's one action (T3): a meeple on the tile just placed (G3), a
//! floor onto a foundation or an open tower, or a meeple closing a tower.

use anyhow::{Result, ensure};

use super::towers::TOP;
use super::{Action, Event, Game};
use crate::kernel::effects::Moment;
use crate::kernel::pieces::{Meeple, MeepleOn, MeepleSpot};
use crate::kernel::rules::FloorKind;
use crate::kernel::tiles::SegmentKind;

impl Game<'_> {
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
        let me = self.current;
        // Only what the player could use is asked: the floor kinds left in
        // supply, and the top where a meeple could go.
        let floors = self.floors_at_hand(me);
        for t in 0..self.towers.len() {
            // One look at the tower's answers.
            let top = player.meeples > 0 && self.towers[t].meeple.is_none();
            let asked = floors | if top { TOP } else { 0 };
            if asked == 0 {
                continue;
            }
            // Only kinds the player holds were asked.
            let allowed = self.answers(t, me, asked)?;
            for k in 0..self.rules.floor_kinds().len() {
                if allowed & (1 << k) != 0 {
                    out.push(Action::Floor {
                        tower: t as u16,
                        kind: k as FloorKind,
                    });
                }
            }
            if allowed & TOP != 0 {
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
        match action {
            Action::Pass => unreachable!(),
            Action::Meeple { segment } => self.put_meeple(tile, segment)?,
            Action::Floor { tower, kind } => self.put_floor(tower as usize, kind)?,
            Action::TowerMeeple { tower } => self.close_tower(tower as usize)?,
        }
        self.acted = true;
        Ok(())
    }

    /// A meeple of the current player on segment `segment` of placed tile
    /// `tile` (G3).
    fn put_meeple(&mut self, tile: usize, segment: u8) -> Result<()> {
        let me = self.current;
        let placed = self.board.tiles()[tile];
        let kind = &self.tiles.kinds[placed.kind as usize];
        let seg = kind
            .segments
            .get(segment as usize)
            .ok_or_else(|| anyhow::anyhow!("tile {} has no segment {segment}", kind.name))?;
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
        let on = MeepleOn::Feature(seg.kind);
        self.emit(|_| Event::Meeple {
            player: me,
            pos: placed.pos,
            spot: MeepleSpot::Segment(segment),
            on,
        });
        self.happen(Moment::MeeplePlaced {
            seat: me,
            pos: placed.pos,
            on,
        })
    }

    /// A floor of `kind` out of `seat`'s supply, or the table's when the
    /// seat holds none (a kind is held by seats or by the table): whether
    /// it came from the table.
    fn take_floor(&mut self, seat: usize, kind: FloorKind) -> bool {
        let k = kind as usize;
        if self.players[seat].floors[k] > 0 {
            self.players[seat].floors[k] -= 1;
            false
        } else {
            self.table[k] -= 1;
            true
        }
    }

    /// A floor of `kind` from the current player's supply onto tower `t`
    /// (T3 A, B); its capture is pending after.
    fn put_floor(&mut self, t: usize, kind: FloorKind) -> Result<()> {
        let me = self.current;
        ensure!(t < self.towers.len(), "no tower {t}");
        ensure!(
            self.floors_at_hand(me) & 1 << kind != 0,
            "player {me} has no floor of kind {kind} left, nor the table"
        );
        ensure!(
            self.allows_floor(t, kind, me)?,
            "the rules do not allow that floor on the tower at {}",
            self.towers[t].pos
        );
        let from_table = self.take_floor(me, kind);
        self.towers[t].floors.push(kind);
        self.refresh_tower(t)?;
        self.stats.floors_placed += 1;
        super::count_kind(&mut self.stats.floors_by_kind, kind);
        self.emit(|g| Event::Floor {
            player: me,
            pos: g.towers[t].pos,
            kind,
            floors: g.towers[t].floors.clone(),
            table: from_table,
        });
        self.history.tallies[me].floors += 1;
        self.history.last_tower = Some(self.towers[t].pos);
        self.capture_tower = Some(t);
        self.capturable_known = false;
        self.happen(Moment::FloorBuilt {
            seat: Some(me),
            tower: self.towers[t].pos,
            kind,
            height: self.towers[t].floors.len(),
        })
    }

    /// A meeple of the current player on top of tower `t`, closing it (T3 C).
    fn close_tower(&mut self, t: usize) -> Result<()> {
        let me = self.current;
        ensure!(t < self.towers.len(), "no tower {t}");
        ensure!(
            self.players[me].meeples > 0,
            "player {me} has no meeple in supply"
        );
        ensure!(self.towers[t].meeple.is_none(), "the tower is closed (T8)");
        ensure!(
            self.allows_meeple(t, me)?,
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
            on: MeepleOn::Tower,
        });
        self.happen(Moment::MeeplePlaced {
            seat: me,
            pos,
            on: MeepleOn::Tower,
        })
    }
}
