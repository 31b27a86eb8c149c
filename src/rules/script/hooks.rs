//! The hooks a pack may define, one row each in [`HOOKS`]: its name, its
//! parameters, whether it reads the game, whether its answers are kept,
//! whether it acts; the rest of the host derives from the table.

use crate::kernel::effects::{MAX_STRENGTH, Moment};
use crate::kernel::rules::asks;

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
    MayPlaceTile,
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
    /// What each parameter is, in the order of `params`: how the host
    /// makes it from the question.
    pub args: &'static [Arg],
    /// The shape of its answer: how the host converts a script's value.
    pub answer: Shape,
    /// Its answer when no pack (or no earlier pack) gives one.
    pub default: DefaultAnswer,
    /// Its bit in `Rules::listens`: the moment an event hook answers, the
    /// question a hook asked only when some pack defines it does; 0 for
    /// the others (always asked).
    pub listen: u32,
    /// May it read `game()` and `state(…)` (is it asked at a moment of a
    /// game, not about a stack or a player count alone)?
    pub reads_game: bool,
    /// Are its answers kept in the memo (a pure question asked often)?
    pub kept: bool,
    /// Is it an event hook: every pack's runs, in the variant's order, and
    /// answers with effects?
    pub acts: bool,
}

/// A hook's argument, made from its question's plain arguments (the
/// memo's key) and facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Plain argument `i`, an integer.
    Int(usize),
    /// The floor kind of plain argument 0, by name.
    Kind,
    /// The tower asked about.
    Tower,
    /// The meeple asked about.
    Meeple,
    /// The board (`board.range_steps`, `board.has_tile`).
    Board,
    /// The floors every seat gets, by kind.
    Supply,
    /// The feature being scored.
    Feature,
    /// Every tower, as the end sees them.
    Towers,
    /// The moment an event hook answers.
    Event,
    /// The tile kind of plain argument 2 (above its rotation, `kind * 4 +
    /// rot`), by name.
    Tile,
    /// The rotation in plain argument 2 (0–3).
    Rot,
}

/// The shape of a hook's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `true` or `false`.
    Bool,
    /// Any integer.
    Int,
    /// An integer from 0 to the bound.
    Count(i64),
    /// An array of `[dx, dy]` cells.
    Cells,
    /// A map from floor kind to a count.
    Supply,
    /// A ransom's cost, or `()` for none.
    Cost,
    /// What becomes of a captured meeple, by word.
    Outcome,
    /// An array of end scores.
    EndScores,
    /// Effects, converted pack by pack.
    Effects,
}

/// A hook's answer when no pack (or no earlier pack) gives one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultAnswer {
    Bool(bool),
    Int(i64),
    /// `()`: no ransom, no effect.
    Unit,
    /// An empty map.
    NoSupply,
    /// An empty array.
    Nothing,
    Outcome(crate::kernel::CaptureOutcome),
    /// The hook's argument `i`, as given.
    Same(usize),
    /// The height of the tower asked about.
    Height,
}

/// One row per hook, in the order of [`Hook`]'s variants.
pub const HOOKS: [HookSpec; Hook::COUNT] = {
    const fn ask(
        hook: Hook,
        name: &'static str,
        params: &'static [&'static str],
        args: &'static [Arg],
        reads_game: bool,
        answer: Shape,
        default: DefaultAnswer,
    ) -> HookSpec {
        HookSpec {
            hook,
            name,
            params,
            args,
            answer,
            default,
            listen: 0,
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
            args: &[Arg::Event],
            answer: Shape::Effects,
            default: DefaultAnswer::Unit,
            listen: 1 << (hook as usize - Hook::FIRST_EVENT),
            reads_game: true,
            kept: true,
            acts: true,
        }
    }
    use Arg::*;
    let rows = [
        ask(
            Hook::Setup,
            "setup",
            &["players", "foundations"],
            &[Int(0), Int(1)],
            false,
            Shape::Supply,
            DefaultAnswer::NoSupply,
        ),
        ask(
            Hook::MayPlaceFloor,
            "may_place_floor",
            &["tower", "kind"],
            &[Tower, Kind],
            true,
            Shape::Bool,
            DefaultAnswer::Bool(false),
        ),
        ask(
            Hook::MayTop,
            "may_top",
            &["tower"],
            &[Tower],
            true,
            Shape::Bool,
            DefaultAnswer::Bool(false),
        ),
        ask(
            Hook::Reach,
            "reach",
            &["tower"],
            &[Tower],
            false,
            Shape::Int,
            DefaultAnswer::Height,
        ),
        ask(
            Hook::Range,
            "range",
            &["tower", "reach"],
            &[Tower, Int(0)],
            false,
            Shape::Cells,
            DefaultAnswer::Nothing,
        ),
        ask(
            Hook::MayCapture,
            "may_capture",
            &["tower", "meeple", "board"],
            &[Tower, Meeple, Board],
            true,
            Shape::Bool,
            DefaultAnswer::Bool(true),
        ),
        ask(
            Hook::Ransom,
            "ransom",
            &["score", "paid"],
            &[Int(0), Int(1)],
            true,
            Shape::Cost,
            DefaultAnswer::Unit,
        ),
        ask(
            Hook::Seat,
            "seat",
            &["seat", "players", "supply"],
            &[Int(0), Int(1), Supply],
            false,
            Shape::Supply,
            DefaultAnswer::Same(2),
        ),
        ask(
            Hook::Captured,
            "captured",
            &["meeple"],
            &[Meeple],
            true,
            Shape::Outcome,
            DefaultAnswer::Outcome(crate::kernel::plain::CAPTURE),
        ),
        ask(
            Hook::Exchange,
            "exchange",
            &["a", "b"],
            &[Int(0), Int(1)],
            true,
            Shape::Bool,
            DefaultAnswer::Bool(crate::kernel::plain::EXCHANGE),
        ),
        // Kept by what it reads: a bot asks it of every position it
        // weighs. Its argument is a read of every tower when named
        // (`ScriptRules::named`).
        HookSpec {
            listen: asks::END_SCORES,
            ..ask(
                Hook::End,
                "end",
                &["towers"],
                &[Towers],
                true,
                Shape::EndScores,
                DefaultAnswer::Nothing,
            )
        },
        HookSpec {
            listen: asks::FEATURE_POINTS,
            ..ask(
                Hook::FeaturePoints,
                "feature_points",
                &["feature", "points"],
                &[Feature, Int(0)],
                true,
                Shape::Count(u32::MAX as i64),
                DefaultAnswer::Same(1),
            )
        },
        HookSpec {
            listen: asks::MEEPLE_STRENGTH,
            ..ask(
                Hook::MeepleStrength,
                "meeple_strength",
                &["meeple"],
                &[Meeple],
                true,
                Shape::Count(MAX_STRENGTH as i64),
                DefaultAnswer::Int(1),
            )
        },
        HookSpec {
            listen: asks::MAY_PLACE_TILE,
            ..ask(
                Hook::MayPlaceTile,
                "may_place_tile",
                &["tile", "x", "y", "rot"],
                &[Tile, Int(0), Int(1), Rot],
                true,
                Shape::Bool,
                DefaultAnswer::Bool(true),
            )
        },
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
    ];
    // Each row in its place, each parameter made.
    let mut i = 0;
    while i < Hook::COUNT {
        assert!(rows[i].hook as usize == i);
        assert!(rows[i].params.len() == rows[i].args.len());
        // `previous` takes up to 4 arguments (`api`).
        assert!(rows[i].params.len() <= 4);
        i += 1;
    }
    rows
};

impl Hook {
    pub const COUNT: usize = 24;

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

    /// Its bit in `Rules::listens` (see [`HookSpec::listen`]).
    pub(super) fn listen_bit(self) -> u32 {
        self.spec().listen
    }
}
