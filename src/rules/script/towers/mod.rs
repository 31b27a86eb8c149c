//! Every tower at the moment an event hook (or `meeple_strength`) is
//! asked: `game().towers` and `game().in_range(x, y)`. The list is copied
//! for the script only when it runs; a read of it is one [`Read::Towers`],
//! whose value names the towers' content (each tower's place, floors,
//! topping meeple and whether it is blocked), so a hook that loops over
//! every tower is kept in the memo and found again wherever the towers are
//! the same — for every tile a bot asks what its draw would pay, say. The
//! towers held are a part of the host (`now`); this module reads them.

pub(super) mod now;

use rhai::{Array, Dynamic, EvalAltResult};

use super::api::{Known, Stack, TowerInfo};
use super::hooks::Hook;
use super::host::ScriptRules;
use super::reads::{Read, in_range_of};
use super::running::{rt_error, with_rules};
use crate::kernel::geometry::Pos;
use crate::kernel::rules::TowerNow;

impl ScriptRules {
    /// [`Read::Towers`]'s value for a kept answer looked up.
    pub(super) fn towers_read(&self, towers: &[TowerNow]) -> i64 {
        self.towers_now.borrow_mut().ids.of(towers)
    }

    /// `game().in_range(x, y)` in a running hook: how many of the towers
    /// held for it hold `cell` in their range, each range asked of the
    /// rules (through the front) where it is not yet known; noted as the
    /// call's read.
    pub(super) fn in_range_now(&self, cell: Pos) -> Result<i64, Box<EvalAltResult>> {
        let stacks: Vec<(Pos, Stack, bool)> = {
            let now = self.towers_now.borrow();
            if !now.held {
                return Err(rt_error(
                    "`game().in_range` is only known in event hooks (`on_…`), \
                     `meeple_strength` and `end`, which see every tower",
                ));
            }
            now.stacks()
                .filter(|(_, floors, _)| !floors.is_empty())
                .map(|(pos, floors, topped)| (pos, Stack::from_slice(floors), topped))
                .collect()
        };
        let mut count = 0;
        for (pos, floors, topped) in stacks {
            let range = self
                .range(&floors, topped)
                .map_err(|e| rt_error(format!("{e:#}")))?;
            count += in_range_of(&range, pos, cell) as i64;
        }
        self.observe(Read::InRange(cell.x, cell.y), count);
        Ok(count)
    }

    /// [`Read::InRange`]'s value for a kept answer looked up: the count
    /// over `towers`, from their kept ranges (`None` while one is not
    /// kept: the hook then runs, and asks it).
    pub(super) fn kept_in_range(&self, towers: &[TowerNow], cell: Pos) -> Option<i64> {
        let mut count = 0;
        for t in towers.iter().filter(|t| !t.view.floors.is_empty()) {
            let range = self.known_range(t.view.floors, t.view.meeple.is_some())?;
            count += in_range_of(&range, t.view.pos, cell) as i64;
        }
        Some(count)
    }
}

/// `game().towers`: every tower on the board, in an event hook; one read
/// of them all ([`Read::Towers`]).
pub(super) fn towers_now() -> Result<Array, Box<EvalAltResult>> {
    with_rules(|r| {
        let id = {
            let now = r.towers_now.borrow();
            if !now.held {
                return Err(rt_error(
                    "`game().towers` is only known in event hooks (`on_…`), \
                     `meeple_strength` and `end`; other question hooks are asked \
                     about one tower",
                ));
            }
            now.id
        };
        r.observe(Read::Towers, id);
        Ok(r.listed_towers())
    })?
}

impl ScriptRules {
    /// The towers held for the running hook, as a script lists them (their
    /// fields are in [`Read::Towers`], noted by whoever hands them over).
    pub(super) fn listed_towers(&self) -> Array {
        let now = self.towers_now.borrow();
        now.towers
            .iter()
            .map(|&(pos, meeple, blocked, start, len)| {
                Dynamic::from(TowerInfo {
                    known: Known::Listed,
                    floors: Stack::from_slice(&now.floors[start..start + len]),
                    has_meeple: meeple.is_some(),
                    pos: Some(pos),
                    owner: Some(meeple.map(|m| m as i64)),
                    blocked,
                })
            })
            .collect()
    }

    /// A variable the running script names: `end`'s argument, every tower,
    /// is read ([`Read::Towers`]) when it is named, so an `end` that never
    /// looks at the towers is kept whatever they are.
    pub(super) fn named_towers(&self, name: &str) {
        if !self.scripts.end_params.iter().any(|p| p.as_str() == name) {
            return;
        }
        let id = {
            let now = self.towers_now.borrow();
            if !now.held {
                return;
            }
            now.id
        };
        if self.running_hook() == Some(Hook::End) {
            self.observe(Read::Towers, id);
        }
    }
}
