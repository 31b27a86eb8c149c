//! Every tower at the moment an event hook (or `meeple_strength`) is
//! asked: `game().towers` and `game().in_range(x, y)`. The list is copied
//! for the script only when it runs; a read of it is one [`Read::Towers`],
//! whose value names the towers' content (each tower's place, floors,
//! topping meeple and whether it is blocked), so a hook that loops over
//! every tower is kept in the memo and found again wherever the towers are
//! the same — for every tile a bot asks what its draw would pay, say.

use rhai::{Array, Dynamic, EvalAltResult};
use rustc_hash::FxHashMap;

use super::api::{Known, Stack, TowerInfo};
use super::reads::{Read, in_range_of};
use super::{ScriptRules, rt_error, with_rules};
use crate::kernel::FloorKind;
use crate::kernel::geometry::Pos;
use crate::kernel::rules::TowerNow;

/// The towers of the moment an event hook answers, copied into buffers
/// kept between moments, for `game().towers`; and the names of the towers'
/// contents seen.
#[derive(Default)]
pub(super) struct TowersNow {
    /// Is an event hook answering?
    held: bool,
    /// Per tower: where, whose meeple tops it, blocked, its floors in
    /// `floors` (start, length).
    towers: Vec<(Pos, Option<usize>, bool, usize, usize)>,
    floors: Vec<FloorKind>,
    /// The held towers' [`Read::Towers`] value.
    id: i64,
    ids: Contents,
}

impl TowersNow {
    pub(super) fn hold(&mut self, towers: &[TowerNow]) {
        self.held = true;
        self.towers.clear();
        self.floors.clear();
        for t in towers {
            let start = self.floors.len();
            self.floors.extend_from_slice(t.view.floors);
            let v = t.view;
            self.towers
                .push((v.pos, v.meeple, t.blocked, start, v.floors.len()));
        }
        self.id = self.ids.of(towers);
    }

    pub(super) fn release(&mut self) {
        self.held = false;
    }

    /// Each tower's place, floors and whether a meeple tops it.
    fn stacks(&self) -> impl Iterator<Item = (Pos, &[FloorKind], bool)> {
        self.towers.iter().map(|&(pos, meeple, _, start, len)| {
            (pos, &self.floors[start..start + len], meeple.is_some())
        })
    }
}

/// Names for the towers' contents: one number per content seen, never
/// given to another, so two reads of [`Read::Towers`] agree exactly when
/// the towers are the same. A hash alone could let two boards share a
/// kept answer; a name handed out once cannot.
#[derive(Default)]
struct Contents {
    names: FxHashMap<Box<[i32]>, i64>,
    next: i64,
    /// The content being named, reused.
    key: Vec<i32>,
}

/// Contents named before the names are forgotten (a content seen again
/// then gets a new name: its kept answers are not found, never wrong).
const MAX_CONTENTS: usize = 1 << 14;

impl Contents {
    fn of(&mut self, towers: &[TowerNow]) -> i64 {
        self.key.clear();
        for t in towers {
            let v = t.view;
            let meeple = v.meeple.map_or(-1, |m| m as i32);
            self.key
                .extend([v.pos.x, v.pos.y, meeple, t.blocked as i32]);
            self.key.push(v.floors.len() as i32);
            self.key.extend(v.floors.iter().map(|&k| k as i32));
        }
        if let Some(&name) = self.names.get(&self.key[..]) {
            return name;
        }
        if self.names.len() >= MAX_CONTENTS {
            self.names.clear();
        }
        self.next += 1;
        self.names.insert(self.key.as_slice().into(), self.next);
        self.next
    }
}

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
    pub(super) fn named(&self, name: &str) {
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
        if self.running_hook() == Some(super::Hook::End) {
            self.observe(Read::Towers, id);
        }
    }
}
