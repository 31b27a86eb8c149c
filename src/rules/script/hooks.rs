//! The hooks a pack may define, one row each in [`HOOKS`]: its name, its
//! parameters, whether it reads the game, whether its answers are kept,
//! whether it acts; the rest of the host derives from the table.

use crate::kernel::effects::{Moment, asks};

/// The hooks a pack may define. See `docs/packs.md`. What each is — its
/// name, parameters, what it may read, whether its answers are kept — is
/// one row of [`HOOKS`]; the question hooks' answers are converted in
/// `ask`, the event hooks' effects in `effects`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hook {
    Setup,
    MayPlaceFloor,
    MayTop,
    Reach,
    Range,
    MayCapture,
    Ransom,
    Seat,
    Captured,
    Exchange,
    End,
    FeaturePoints,
    MeepleStrength,
    // The event hooks, in the order of `Moment::NAMES`.
    OnTileDrawn,
    OnTilePlaced,
    OnFeatureCompleted,
    OnFloorBuilt,
    OnMeeplePlaced,
    OnCapture,
    OnRansom,
    OnExchange,
    OnTurnEnd,
    OnGameEnd,
}

/// What a hook is, as packs, the host and the docs see it.
pub struct HookSpec {
    pub hook: Hook,
    pub name: &'static str,
    /// Its parameters, as documented.
    pub params: &'static [&'static str],
    /// May it read `game()` and `state(…)` (is it asked at a moment of a
    /// game, not about a stack or a player count alone)?
    pub reads_game: bool,
    /// Are its answers kept in the memo (a pure question asked often)?
    pub kept: bool,
    /// Is it an event hook: every pack's runs, in the variant's order, and
    /// answers with effects?
    pub acts: bool,
}

/// One row per hook, in the order of [`Hook`]'s variants.
pub const HOOKS: [HookSpec; Hook::COUNT] = {
    const fn ask(
        hook: Hook,
        name: &'static str,
        params: &'static [&'static str],
        reads_game: bool,
    ) -> HookSpec {
        HookSpec {
            hook,
            name,
            params,
            reads_game,
            kept: true,
            acts: false,
        }
    }
    // An event hook is as pure as a question: its effects are a function
    // of what it read, so they are kept like any answer.
    const fn on(hook: Hook, name: &'static str) -> HookSpec {
        HookSpec {
            hook,
            name,
            params: &["event"],
            reads_game: true,
            kept: true,
            acts: true,
        }
    }
    [
        ask(Hook::Setup, "setup", &["players", "foundations"], false),
        ask(
            Hook::MayPlaceFloor,
            "may_place_floor",
            &["tower", "kind"],
            true,
        ),
        ask(Hook::MayTop, "may_top", &["tower"], true),
        ask(Hook::Reach, "reach", &["tower"], false),
        ask(Hook::Range, "range", &["tower", "reach"], false),
        ask(
            Hook::MayCapture,
            "may_capture",
            &["tower", "meeple", "board"],
            true,
        ),
        ask(Hook::Ransom, "ransom", &["score", "paid"], true),
        ask(Hook::Seat, "seat", &["seat", "players", "supply"], false),
        ask(Hook::Captured, "captured", &["meeple"], true),
        ask(Hook::Exchange, "exchange", &["a", "b"], true),
        // Asked once a game about every tower: not kept.
        HookSpec {
            kept: false,
            ..ask(Hook::End, "end", &["towers"], true)
        },
        ask(
            Hook::FeaturePoints,
            "feature_points",
            &["feature", "points"],
            true,
        ),
        ask(Hook::MeepleStrength, "meeple_strength", &["meeple"], true),
        on(Hook::OnTileDrawn, "on_tile_drawn"),
        on(Hook::OnTilePlaced, "on_tile_placed"),
        on(Hook::OnFeatureCompleted, "on_feature_completed"),
        on(Hook::OnFloorBuilt, "on_floor_built"),
        on(Hook::OnMeeplePlaced, "on_meeple_placed"),
        on(Hook::OnCapture, "on_capture"),
        on(Hook::OnRansom, "on_ransom"),
        on(Hook::OnExchange, "on_exchange"),
        on(Hook::OnTurnEnd, "on_turn_end"),
        on(Hook::OnGameEnd, "on_game_end"),
    ]
};

impl Hook {
    pub const COUNT: usize = 23;

    /// The first event hook: event hook `i` answers `Moment::NAMES[i]`.
    pub(super) const FIRST_EVENT: usize = Hook::OnTileDrawn as usize;

    pub const ALL: [Hook; Hook::COUNT] = {
        let mut all = [Hook::Setup; Hook::COUNT];
        let mut i = 0;
        while i < Hook::COUNT {
            all[i] = HOOKS[i].hook;
            i += 1;
        }
        all
    };

    pub fn spec(self) -> &'static HookSpec {
        &HOOKS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The hook's parameters, as documented.
    pub fn params(self) -> &'static [&'static str] {
        self.spec().params
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// Are its answers kept?
    pub(super) fn kept(self) -> bool {
        self.spec().kept
    }

    /// Is it an event hook?
    pub fn acts(self) -> bool {
        self.spec().acts
    }

    /// The event hook that answers `moment`.
    pub(super) fn on(moment: &Moment) -> Hook {
        Hook::ALL[Hook::FIRST_EVENT + moment.index()]
    }

    /// The moment an event hook answers (its bit in `Rules::listens`).
    pub(super) fn moment_bit(self) -> u32 {
        1 << (self.index() - Hook::FIRST_EVENT)
    }

    /// Its bit in `Rules::listens`: the moment an event hook answers, the
    /// scoring question a scoring hook does; 0 for the others (always
    /// asked).
    pub(super) fn listen_bit(self) -> u32 {
        match self {
            Hook::FeaturePoints => asks::FEATURE_POINTS,
            Hook::MeepleStrength => asks::MEEPLE_STRENGTH,
            Hook::End => asks::END_SCORES,
            h if h.acts() => h.moment_bit(),
            _ => 0,
        }
    }
}
