//! The kernel's questions (`Rules::ask`, `Rules::on_event`) and the game's
//! budget calls (`HookBudget`), each put to its hook as a [`Question`]: the
//! facts it is about, taken from the kernel's views, and the answer read in
//! the shape the kernel wants.

use anyhow::Result;

use super::ask::Question;
use super::hooks::Hook;
use super::host::ScriptRules;
use super::memo::Value;
use super::reads::{Facts, Roles};
use crate::kernel::effects::{Acted, Adjusted, MAX_STRENGTH, StateVar};
use crate::kernel::features::FeatureId;
use crate::kernel::rules::{At, TowerNow};
use crate::kernel::{
    CaptureOutcome, EndScore, HookBudget, MeepleView, Question as KernelQuestion, RansomView,
    Reply, Rules, Table, TowerView, plain,
};

/// The game as a question's facts: the table, and who the question is
/// about.
fn at_table<'a>(table: &Table<'a>, roles: Roles) -> Facts<'a> {
    Facts {
        table: Some(*table),
        roles,
        ..Facts::default()
    }
}

/// The game as a capture's questions see it: the current player captures.
fn captured_at<'a>(table: &Table<'a>) -> Facts<'a> {
    at_table(
        table,
        Roles {
            captor: Some(table.current),
            ..Roles::default()
        },
    )
}

impl HookBudget for ScriptRules {
    fn begin_game(&self, seed: Option<u64>) {
        self.begin_spending(seed);
        self.fires_new_game();
    }

    fn searching(&self, on: bool) {
        self.spend_apart(on);
    }
}

impl ScriptRules {
    /// Keep in `supply` the counts of the kinds the table holds (`table`)
    /// or those the seats hold; the others 0.
    fn held_by(&self, supply: &mut [u32], table: bool) {
        for (k, n) in supply.iter_mut().enumerate() {
            if (self.scripts.table_kinds & 1 << k != 0) != table {
                *n = 0;
            }
        }
    }

    /// `setup`: the floors every seat starts with.
    pub fn floor_supply(&self, players: usize, foundation_tiles: usize) -> Result<Vec<u32>> {
        let key = [players as i64, foundation_tiles as i64, 0];
        Ok(self
            .asked(
                &Question::new(Hook::Setup, key, Facts::default()),
                Value::supply,
            )?
            .0)
    }
}

impl Rules for ScriptRules {
    fn floor_kinds(&self) -> &[String] {
        &self.scripts.kinds
    }

    fn ask(&self, question: KernelQuestion) -> Result<Reply> {
        Ok(match question {
            KernelQuestion::SeatSupply {
                players,
                foundation_tiles,
                seat,
            } => Reply::Supply(self.seat_floors(players, foundation_tiles, seat)?),
            KernelQuestion::TableSupply {
                players,
                foundation_tiles,
            } => Reply::Supply(self.table_floors(players, foundation_tiles)?),
            KernelQuestion::MayPlaceFloor {
                stack,
                kind,
                asking,
            } => Reply::Answer(self.ask_tower(Hook::MayPlaceFloor, stack, kind as i64, asking)?),
            KernelQuestion::MayTop { stack, asking } => {
                Reply::Answer(self.ask_tower(Hook::MayTop, stack, 0, asking)?)
            }
            KernelQuestion::TowerAnswers {
                stack,
                asking,
                questions,
                out,
            } => {
                self.tower_group(stack, asking, questions, out)?;
                Reply::Written
            }
            KernelQuestion::CaptureRange { stack, out } => {
                self.extend_range(stack.floors, stack.topped, out)?;
                Reply::Written
            }
            KernelQuestion::MayCapture {
                tower,
                meeple,
                table,
            } => Reply::Yes(self.capture_allowed(tower, meeple, table)?),
            KernelQuestion::Ransom { ransom, table } => {
                Reply::Cost(self.ransom_cost(ransom, table)?)
            }
            KernelQuestion::CaptureOutcome { meeple, table } => {
                Reply::Outcome(self.outcome(meeple, table)?)
            }
            KernelQuestion::Exchange { a, b, table } => Reply::Yes(self.exchanged(a, b, table)?),
            KernelQuestion::EndScores { towers, table, out } => {
                self.end_points(towers, table, out)?;
                Reply::Written
            }
            KernelQuestion::FeaturePoints {
                feature,
                plain,
                table,
            } => Reply::Adjusted(self.points_of(feature, plain, table)?),
            KernelQuestion::MeepleStrength {
                meeple,
                table,
                towers,
            } => Reply::Adjusted(self.strength_of(meeple, table, towers)?),
            KernelQuestion::MayPlaceTile {
                tile,
                pos,
                rot,
                table,
            } => {
                // The current player places: `game().actor`.
                let roles = Roles {
                    actor: Some(table.current),
                    ..Roles::default()
                };
                // The placement is read as the script names its arguments
                // (`ScriptRules::named`), not kept under as a key.
                let facts = Facts {
                    placement: Some([
                        pos.x.into(),
                        pos.y.into(),
                        i64::from(tile) << 2 | i64::from(rot),
                    ]),
                    ..at_table(table, roles)
                };
                let q = Question::new(Hook::MayPlaceTile, [0; 3], facts);
                Reply::Yes(self.asked(&q, Value::bool)?.0)
            }
        })
    }

    fn listens(&self) -> u32 {
        self.scripts.listens
    }

    fn on_event(&self, at: At, out: &mut Vec<Acted>) -> Result<()> {
        let hook = Hook::on(at.moment);
        if !self.defines(hook) {
            return Ok(());
        }
        let facts = Facts {
            moment: Some(*at.moment),
            towers: Some(at.towers),
            ..at_table(at.table, Roles::default())
        };
        let q = Question::new(hook, [0; 3], facts);
        out.extend(self.asked(&q, Value::effects)?.0.iter().cloned());
        Ok(())
    }

    fn state_vars(&self) -> &[StateVar] {
        &self.scripts.state_vars
    }
}

/// The kernel's questions, each asked of its hook.
impl ScriptRules {
    fn capture_allowed(
        &self,
        tower: &TowerView,
        meeple: &MeepleView,
        table: &Table,
    ) -> Result<bool> {
        if !self.defines(Hook::MayCapture) {
            return Ok(true);
        }
        let facts = Facts {
            stack: Some((tower.floors, tower.meeple.is_some())),
            tower: Some(tower.pos),
            owner: Some(tower.meeple),
            meeple: Some((*meeple, tower.pos)),
            ..captured_at(table)
        };
        Ok(self
            .asked(&Question::new(Hook::MayCapture, [0; 3], facts), Value::bool)?
            .0)
    }

    fn ransom_cost(&self, ransom: &RansomView, table: &Table) -> Result<Option<u32>> {
        let key = [ransom.score as i64, ransom.paid_this_turn as i64, 0];
        let roles = Roles {
            payer: Some(ransom.payer),
            captor: Some(ransom.captor),
            actor: None,
        };
        let q = Question::new(Hook::Ransom, key, at_table(table, roles));
        Ok(self.asked(&q, Value::cost)?.0)
    }

    fn table_floors(&self, players: usize, foundation_tiles: usize) -> Result<Vec<u32>> {
        if self.scripts.table_kinds == 0 {
            return Ok(vec![0; self.scripts.kinds.len()]);
        }
        let mut stock = self.floor_supply(players, foundation_tiles)?;
        self.held_by(&mut stock, true);
        Ok(stock)
    }

    fn seat_floors(
        &self,
        players: usize,
        foundation_tiles: usize,
        seat: usize,
    ) -> Result<Vec<u32>> {
        let mut base = self.floor_supply(players, foundation_tiles)?;
        self.held_by(&mut base, false);
        if !self.defines(Hook::Seat) {
            return Ok(base);
        }
        let key = [seat as i64, players as i64, foundation_tiles as i64];
        let q = Question {
            supply: &base,
            ..Question::new(Hook::Seat, key, Facts::default())
        };
        Ok(self.asked(&q, Value::supply)?.0)
    }

    fn outcome(&self, meeple: &MeepleView, table: &Table) -> Result<CaptureOutcome> {
        if !self.defines(Hook::Captured) {
            return Ok(plain::CAPTURE);
        }
        let facts = Facts {
            meeple: Some((*meeple, meeple.pos)),
            ..captured_at(table)
        };
        Ok(self
            .asked(
                &Question::new(Hook::Captured, [0; 3], facts),
                Value::outcome,
            )?
            .0)
    }

    fn exchanged(&self, a: usize, b: usize, table: &Table) -> Result<bool> {
        if !self.defines(Hook::Exchange) {
            return Ok(plain::EXCHANGE);
        }
        let key = [a as i64, b as i64, 0];
        let q = Question::new(Hook::Exchange, key, at_table(table, Roles::default()));
        Ok(self.asked(&q, Value::bool)?.0)
    }

    fn end_points(
        &self,
        towers: &[TowerNow],
        table: &Table,
        out: &mut Vec<EndScore>,
    ) -> Result<()> {
        if !self.defines(Hook::End) {
            return Ok(());
        }
        let facts = Facts {
            towers: Some(towers),
            ..at_table(table, Roles::default())
        };
        let q = Question::new(Hook::End, [0; 3], facts);
        out.extend(self.asked(&q, Value::end)?.0.iter().cloned());
        Ok(())
    }

    fn points_of(&self, feature: FeatureId, plain: u32, table: &Table) -> Result<Option<Adjusted>> {
        if !self.defines(Hook::FeaturePoints) {
            return Ok(None);
        }
        let facts = Facts {
            feature: Some(feature),
            ..at_table(table, Roles::default())
        };
        let q = Question::new(Hook::FeaturePoints, [plain.into(), 0, 0], facts);
        let points = self.asked(&q, Value::int)?.0;
        self.adjusted(Hook::FeaturePoints, points, u32::MAX.into(), plain)
    }

    fn strength_of(
        &self,
        meeple: &MeepleView,
        table: &Table,
        towers: &[TowerNow],
    ) -> Result<Option<Adjusted>> {
        if !self.defines(Hook::MeepleStrength) {
            return Ok(None);
        }
        let facts = Facts {
            meeple: Some((*meeple, meeple.pos)),
            towers: Some(towers),
            ..at_table(table, Roles::default())
        };
        let q = Question::new(Hook::MeepleStrength, [0; 3], facts);
        let strength = self.asked(&q, Value::int)?.0;
        self.adjusted(Hook::MeepleStrength, strength, MAX_STRENGTH.into(), 1)
    }
}
