//! The towers of the moment, as the host holds them while an event hook
//! (or `meeple_strength`) answers, and the names of the contents seen. A
//! part the host owns; the reads of it are the module above's.

use rustc_hash::FxHashMap;

use crate::kernel::FloorKind;
use crate::kernel::geometry::Pos;
use crate::kernel::rules::TowerNow;

/// The towers of the moment an event hook answers, copied into buffers
/// kept between moments, for `game().towers`; and the names of the towers'
/// contents seen.
#[derive(Default)]
pub(in crate::rules::script) struct TowersNow {
    /// Is an event hook answering?
    pub(super) held: bool,
    /// Per tower: where, whose meeple tops it, blocked, its floors in
    /// `floors` (start, length).
    pub(super) towers: Vec<(Pos, Option<usize>, bool, usize, usize)>,
    pub(super) floors: Vec<FloorKind>,
    /// The held towers' `Read::Towers` value.
    pub(super) id: i64,
    pub(super) ids: Contents,
}

impl TowersNow {
    pub(in crate::rules::script) fn hold(&mut self, towers: &[TowerNow]) {
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

    pub(in crate::rules::script) fn release(&mut self) {
        self.held = false;
    }

    /// Each tower's place, floors and whether a meeple tops it.
    pub(super) fn stacks(&self) -> impl Iterator<Item = (Pos, &[FloorKind], bool)> {
        self.towers.iter().map(|&(pos, meeple, _, start, len)| {
            (pos, &self.floors[start..start + len], meeple.is_some())
        })
    }
}

/// Names for the towers' contents: one number per content seen, never
/// given to another, so two reads of `Read::Towers` agree exactly when
/// the towers are the same. A hash alone could let two boards share a
/// kept answer; a name handed out once cannot.
#[derive(Default)]
pub(super) struct Contents {
    names: FxHashMap<Box<[i32]>, i64>,
    next: i64,
    /// The content being named, reused.
    key: Vec<i32>,
}

/// Contents named before the names are forgotten (a content seen again
/// then gets a new name: its kept answers are not found, never wrong).
const MAX_CONTENTS: usize = 1 << 14;

impl Contents {
    pub(super) fn of(&mut self, towers: &[TowerNow]) -> i64 {
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
