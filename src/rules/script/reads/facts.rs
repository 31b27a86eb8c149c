//! What a question's reads are answered from: its facts (the tower, the
//! meeple, the game at the moment asked, the event) and who it is about.

use crate::kernel::effects::Moment;
use crate::kernel::features::FeatureId;
use crate::kernel::geometry::Pos;
use crate::kernel::rules::TowerNow;
use crate::kernel::{FloorKind, MeepleView, Table};

/// Who the question is about, beyond whose turn it is.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::rules::script) struct Roles {
    /// In `ransom`: who pays.
    pub(in crate::rules::script) payer: Option<usize>,
    /// Who placed the floor (`may_capture`, `captured`), who holds the
    /// meeple (`ransom`).
    pub(in crate::rules::script) captor: Option<usize>,
    /// In `may_place_floor` and `may_top`: the seat that would act.
    pub(in crate::rules::script) actor: Option<usize>,
}

/// What a question's reads are answered from. A part a hook cannot read is
/// `None`.
#[derive(Clone, Copy, Default)]
pub(in crate::rules::script) struct Facts<'a> {
    /// The tower's floors and whether a meeple tops them.
    pub(in crate::rules::script) stack: Option<(&'a [FloorKind], bool)>,
    /// Where the tower stands.
    pub(in crate::rules::script) tower: Option<Pos>,
    /// Whose meeple tops it (`Some(None)`: nobody's).
    pub(in crate::rules::script) owner: Option<Option<usize>>,
    /// The meeple asked about, and the cell its `dx`/`dy` are measured from.
    pub(in crate::rules::script) meeple: Option<(MeepleView, Pos)>,
    /// The game at the moment asked.
    pub(in crate::rules::script) table: Option<Table<'a>>,
    pub(in crate::rules::script) roles: Roles,
    /// What happened, for an event hook.
    pub(in crate::rules::script) moment: Option<Moment>,
    /// Every tower, for event hooks and `meeple_strength` (`game().towers`,
    /// `game().in_range`): given when a kept answer is looked up; a running
    /// hook reads them from the copy held for it (`ScriptRules::towers_now`).
    pub(in crate::rules::script) towers: Option<&'a [TowerNow<'a>]>,
    /// The feature being scored (its root), for `feature_points`.
    pub(in crate::rules::script) feature: Option<FeatureId>,
    /// The placement asked about, for `may_place_tile`: x, y and the tile
    /// kind * 4 + its rotation. Its arguments are reads
    /// ([`super::Read::Placement`]), not the memo's key.
    pub(in crate::rules::script) placement: Option<[i64; 3]>,
}
