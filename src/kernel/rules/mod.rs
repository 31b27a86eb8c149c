//! The rules interface: every question about towers that the kernel cannot
//! answer by itself — which floor kinds exist and how many each player gets,
//! where a kind may go, what a tower's floors let it capture, which meeples may
//! be taken, whether and at what cost a ransom is allowed.
//!
//! The kernel implements the *operations* (place a floor, capture, exchange,
//! ransom) and asks an implementation of [`Rules`] *whether* and *where*:
//! each question is a [`Question`], answered by the one required
//! [`Rules::ask`] with a [`Reply`]; the kernel calls the typed methods
//! provided on top of it. Floor
//! kinds are names that the rules define; the kernel knows them only as
//! indices into [`Rules::floor_kinds`].
//!
//! Beyond the towers' questions, the rules may change what a capture does
//! ([`Rules::capture_outcome`]), whether prisoners are exchanged
//! ([`Rules::exchange`]), what the end state is worth ([`Rules::end_scores`])
//! and what each seat starts with ([`Rules::seat_supply`]); [`plain`] holds
//! the plain Tower's answers for implementations that leave them alone.
//! What a game's hooks may spend is [`HookBudget`]'s, apart.
//!
//! Every method must be pure: the same arguments give the same answer. The
//! kernel and the packs rely on that to cache answers. The questions about a
//! floor stack get a [`StackView`], which holds only what such a cached
//! answer may depend on; the questions asked at one moment of a game get a
//! [`Table`]: the board, the scores, the prisoners, whose turn it is. The two
//! questions of who may build on a tower (`may_place_floor`, `may_top`) get
//! both, and the seat asking ([`Asking`]); their [`Answer`] says how long it
//! holds, so the kernel keeps it per tower, per seat, or not at all.

use anyhow::Result;

use crate::kernel::effects::{Acted, Adjusted, StateVar};
use crate::kernel::features::FeatureId;
use crate::kernel::geometry::Pos;

pub use crate::kernel::pieces::{CaptureOutcome, FloorKind};

mod views;

pub use views::{
    Answer, Asking, At, EndScore, Holds, MeepleView, RansomView, StackView, TOP_QUESTION, Table,
    TowerNow, TowerView,
};

/// What the hooks of a game may spend, counted from when a game begins;
/// a bot's search counts apart. Held by whoever plays games (the kernel's
/// [`crate::kernel::Game`], at its start) and by the bot that searches
/// (around each decision). Rules with nothing to count do nothing.
pub trait HookBudget {
    /// A new game begins (dealt from `seed`, when it is): rules that count
    /// what a whole game spends start counting again. Asked before any other
    /// question of the game.
    fn begin_game(&self, seed: Option<u64>);

    /// A bot's search of one decision begins (`true`) or ends (`false`):
    /// what the questions asked while searching spend is counted apart
    /// from the game's (a search decision has a budget of its own, and the
    /// game's count goes on where it was).
    fn searching(&self, on: bool);
}

/// A bot's search under way: [`HookBudget::searching`] `true` when it
/// begins, `false` when this is dropped — on every way out of the search,
/// an early return or an error included.
pub struct Searching<'a, R: HookBudget + ?Sized>(&'a R);

impl<'a, R: HookBudget + ?Sized> Searching<'a, R> {
    pub fn begin(rules: &'a R) -> Searching<'a, R> {
        rules.searching(true);
        Searching(rules)
    }
}

impl<R: HookBudget + ?Sized> Drop for Searching<'_, R> {
    fn drop(&mut self) {
        self.0.searching(false);
    }
}

/// The plain Tower's answers to the questions a variant may change: what
/// an implementation of [`Rules`] that leaves them alone returns.
pub mod plain {
    use super::CaptureOutcome;

    /// T5: an opponent's meeple a tower captures becomes a prisoner.
    pub const CAPTURE: CaptureOutcome = CaptureOutcome::Prisoner;
    /// T10: two players who each hold a prisoner of the other exchange them.
    pub const EXCHANGE: bool = true;
}

/// The scoring and placing questions a rule may answer, as bits of
/// [`Rules::listens`] past the moments': asked only when one is set.
pub mod asks {
    use crate::kernel::effects::Moment;
    /// Every moment's bit ([`Moment::bit`]): rules acting at any.
    pub const MOMENTS: u32 = (1 << Moment::COUNT) - 1;
    /// [`super::Rules::feature_points`].
    pub const FEATURE_POINTS: u32 = 1 << Moment::COUNT;
    /// [`super::Rules::meeple_strength`].
    pub const MEEPLE_STRENGTH: u32 = 1 << (Moment::COUNT + 1);
    /// [`super::Rules::end_scores`]: rules without it give none
    /// (the kernel scores the game's end either way; bots weighing the
    /// end as it stands ask only when it is set).
    pub const END_SCORES: u32 = 1 << (Moment::COUNT + 2);
    /// The rules' answer at `tile_drawn` may depend on which tile was
    /// drawn, not only on whether it has a foundation (a bot weighing what
    /// the undrawn tiles would pay asks each kind then, and one of each
    /// otherwise).
    pub const DRAWN_TILE: u32 = 1 << (Moment::COUNT + 3);
    /// [`super::Rules::may_place_tile`]: rules without it let a tile go
    /// wherever it fits.
    pub const MAY_PLACE_TILE: u32 = 1 << (Moment::COUNT + 4);
    /// The rules' effects may pay points (`Effect::Points`). Rules that
    /// act at a moment without it never pay any (the kernel refuses such
    /// a payment), so a bot weighing what the rules pay of their own
    /// need not play an option's turn out to see it.
    pub const PAYS_POINTS: u32 = 1 << (Moment::COUNT + 5);
}

/// A question the kernel asks the rules, with its arguments: one variant
/// per rule question, answered by [`Rules::ask`] with a [`Reply`] of the
/// question's shape. The kernel asks through [`Rules`]' typed calls (one
/// per variant, each documented there), which build the question and
/// take the reply apart. Questions whose answers are lists carry the list
/// to append to, and are replied [`Reply::Written`].
pub enum Question<'q> {
    /// [`Rules::seat_supply`]: [`Reply::Supply`].
    SeatSupply {
        players: usize,
        foundation_tiles: usize,
        seat: usize,
    },
    /// [`Rules::table_supply`]: [`Reply::Supply`].
    TableSupply {
        players: usize,
        foundation_tiles: usize,
    },
    /// [`Rules::may_place_floor`]: [`Reply::Answer`].
    MayPlaceFloor {
        stack: &'q StackView<'q>,
        kind: FloorKind,
        asking: &'q Asking<'q>,
    },
    /// [`Rules::may_top`]: [`Reply::Answer`].
    MayTop {
        stack: &'q StackView<'q>,
        asking: &'q Asking<'q>,
    },
    /// [`Rules::tower_answers`]: [`Reply::Written`], or
    /// [`Reply::OneByOne`] to have each question asked in turn.
    TowerAnswers {
        stack: &'q StackView<'q>,
        asking: &'q Asking<'q>,
        questions: u64,
        out: &'q mut Vec<Answer>,
    },
    /// [`Rules::capture_range`]: [`Reply::Written`].
    CaptureRange {
        stack: &'q StackView<'q>,
        out: &'q mut Vec<(i32, i32)>,
    },
    /// [`Rules::may_capture`]: [`Reply::Yes`].
    MayCapture {
        tower: &'q TowerView<'q>,
        meeple: &'q MeepleView,
        table: &'q Table<'q>,
    },
    /// [`Rules::ransom`]: [`Reply::Cost`].
    Ransom {
        ransom: &'q RansomView,
        table: &'q Table<'q>,
    },
    /// [`Rules::capture_outcome`]: [`Reply::Outcome`].
    CaptureOutcome {
        meeple: &'q MeepleView,
        table: &'q Table<'q>,
    },
    /// [`Rules::exchange`]: [`Reply::Yes`].
    Exchange {
        a: usize,
        b: usize,
        table: &'q Table<'q>,
    },
    /// [`Rules::end_scores`]: [`Reply::Written`].
    EndScores {
        towers: &'q [TowerNow<'q>],
        table: &'q Table<'q>,
        out: &'q mut Vec<EndScore>,
    },
    /// [`Rules::feature_points`]: [`Reply::Adjusted`].
    FeaturePoints {
        feature: FeatureId,
        plain: u32,
        table: &'q Table<'q>,
    },
    /// [`Rules::meeple_strength`]: [`Reply::Adjusted`].
    MeepleStrength {
        meeple: &'q MeepleView,
        table: &'q Table<'q>,
        towers: &'q [TowerNow<'q>],
    },
    /// [`Rules::may_place_tile`]: [`Reply::Yes`].
    MayPlaceTile {
        tile: u16,
        pos: Pos,
        rot: u8,
        table: &'q Table<'q>,
    },
}

impl Question<'_> {
    /// The question's name, as its typed call in [`Rules`] is named.
    pub fn name(&self) -> &'static str {
        match self {
            Question::SeatSupply { .. } => "seat_supply",
            Question::TableSupply { .. } => "table_supply",
            Question::MayPlaceFloor { .. } => "may_place_floor",
            Question::MayTop { .. } => "may_top",
            Question::TowerAnswers { .. } => "tower_answers",
            Question::CaptureRange { .. } => "capture_range",
            Question::MayCapture { .. } => "may_capture",
            Question::Ransom { .. } => "ransom",
            Question::CaptureOutcome { .. } => "capture_outcome",
            Question::Exchange { .. } => "exchange",
            Question::EndScores { .. } => "end_scores",
            Question::FeaturePoints { .. } => "feature_points",
            Question::MeepleStrength { .. } => "meeple_strength",
            Question::MayPlaceTile { .. } => "may_place_tile",
        }
    }

    /// The plain Tower's reply, for rules that leave the question alone:
    /// the base game's scoring (T12), no points at the end, a prisoner
    /// (T5), exchanged at once (T10), any meeple in range taken (T9), a
    /// tile placed wherever it fits (G1), a tower's questions asked one
    /// by one. The questions every rule set
    /// must answer itself (supplies, where floors go, ranges, ransoms)
    /// have none: an error names them.
    pub fn plain(self) -> Result<Reply> {
        Ok(match self {
            Question::TowerAnswers { .. } => Reply::OneByOne,
            Question::MayCapture { .. } | Question::MayPlaceTile { .. } => Reply::Yes(true),
            Question::CaptureOutcome { .. } => Reply::Outcome(plain::CAPTURE),
            Question::Exchange { .. } => Reply::Yes(plain::EXCHANGE),
            Question::EndScores { .. } => Reply::Written,
            Question::FeaturePoints { .. } | Question::MeepleStrength { .. } => {
                Reply::Adjusted(None)
            }
            q => anyhow::bail!("the rules answer no `{}`", q.name()),
        })
    }
}

/// The rules' answer to a [`Question`], of the shape its variant names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Floors per kind.
    Supply(Vec<u32>),
    /// An answer about a tower, and how long it holds.
    Answer(Answer),
    /// Yes or no.
    Yes(bool),
    /// A ransom's cost; `None` when no ransom is allowed.
    Cost(Option<u32>),
    /// What becomes of a captured meeple.
    Outcome(CaptureOutcome),
    /// A scoring answer a rule changed, or `None` when none did.
    Adjusted(Option<Adjusted>),
    /// The answers are appended to the question's list.
    Written,
    /// For [`Question::TowerAnswers`] only: ask each of its questions in
    /// turn ([`Rules::may_place_floor`], [`Rules::may_top`]), of the
    /// rules replying — what rules that do not group a tower's answers,
    /// or a wrapper that looks at them one by one, reply.
    OneByOne,
}

impl Reply {
    /// The error of a reply of another shape than `question`'s.
    fn wrong(self, question: &str) -> anyhow::Error {
        anyhow::anyhow!("the rules replied {self:?} to `{question}`, of another shape")
    }
}

/// What the kernel asks the rules: one required [`Rules::ask`] answering
/// every [`Question`], the typed calls the kernel makes provided on top of
/// it, and what is not a question (the floor kinds, the state variables,
/// which moments the rules listen to, what they do at one). A wrapper
/// answers the questions it cares about and forwards the rest in one
/// line. See the module documentation.
pub trait Rules: HookBudget + Send {
    /// The names of the floor kinds; [`FloorKind`] indexes this list.
    fn floor_kinds(&self) -> &[String];

    /// The answer to `question`, of its shape (see each variant). Every
    /// answer must be pure: the same question gives the same reply.
    fn ask(&self, question: Question) -> Result<Reply>;

    /// The moments the rules act on: bit
    /// [`crate::kernel::effects::Moment::index`]; and the
    /// scoring questions they answer ([`asks`]). The kernel asks
    /// [`Rules::on_event`] at no other, nor those questions unless set;
    /// the plain Tower listens to none.
    fn listens(&self) -> u32;

    /// What the rules do at a moment (as [`At`] shows it, the moment's
    /// change made): effects appended to `out`, which the kernel checks
    /// and carries out in order. Asked once at each moment, never kept.
    fn on_event(&self, at: At, out: &mut Vec<Acted>) -> Result<()>;

    /// The state variables the rules declare, indexed by
    /// [`crate::kernel::effects::Effect::SetState`]'s `var`; the plain
    /// Tower has none.
    fn state_vars(&self) -> &[StateVar];

    /// How many floors of each kind `seat` starts with, given the number of
    /// players and of foundation tiles in the whole tile set.
    fn seat_supply(
        &self,
        players: usize,
        foundation_tiles: usize,
        seat: usize,
    ) -> Result<Vec<u32>> {
        match self.ask(Question::SeatSupply {
            players,
            foundation_tiles,
            seat,
        })? {
            Reply::Supply(s) => Ok(s),
            r => Err(r.wrong("seat_supply")),
        }
    }

    /// How many floors of each kind the table holds, any seat may build
    /// with, given the number of players and of foundation tiles; 0 for
    /// the kinds seats hold.
    fn table_supply(&self, players: usize, foundation_tiles: usize) -> Result<Vec<u32>> {
        match self.ask(Question::TableSupply {
            players,
            foundation_tiles,
        })? {
            Reply::Supply(s) => Ok(s),
            r => Err(r.wrong("table_supply")),
        }
    }

    /// May `asking.seat` put a floor of `kind` onto a tower of `stack` (a
    /// bare foundation when `stack.floors` is empty)? The kernel has already
    /// checked that the player holds such a floor. The answer says how long
    /// it holds: the kernel asks again only when the tower changes, and for
    /// each seat only when the answer was the seat's own.
    fn may_place_floor(
        &self,
        stack: &StackView,
        kind: FloorKind,
        asking: &Asking,
    ) -> Result<Answer> {
        match self.ask(Question::MayPlaceFloor {
            stack,
            kind,
            asking,
        })? {
            Reply::Answer(a) => Ok(a),
            r => Err(r.wrong("may_place_floor")),
        }
    }

    /// May `asking.seat` put a meeple on top of a tower of `stack`? The
    /// kernel has already checked that no meeple stands there and that the
    /// player has one in supply. Kept as [`Rules::may_place_floor`]'s answers.
    fn may_top(&self, stack: &StackView, asking: &Asking) -> Result<Answer> {
        match self.ask(Question::MayTop { stack, asking })? {
            Reply::Answer(a) => Ok(a),
            r => Err(r.wrong("may_top")),
        }
    }

    /// Speed only, not a rule question: the answers of
    /// [`Rules::may_place_floor`] for every floor kind in order, then of
    /// [`Rules::may_top`], about one stack for one seat, appended to `out` —
    /// exactly what asking each in turn gives, which is what a reply of
    /// [`Reply::OneByOne`] has done; only the questions in `questions` are
    /// asked (bit k: floor kind k; bit [`TOP_QUESTION`]: the top), each
    /// other answered [`Answer::unasked`]. The kernel asks a changed
    /// tower's questions this way, so that rules which keep answers by
    /// stack can give them at once. A wrapper that looks at or changes
    /// those answers replies [`Reply::OneByOne`], and is asked each.
    fn tower_answers(
        &self,
        stack: &StackView,
        asking: &Asking,
        questions: u64,
        out: &mut Vec<Answer>,
    ) -> Result<()> {
        let q = Question::TowerAnswers {
            stack,
            asking,
            questions,
            out: &mut *out,
        };
        match self.ask(q)? {
            Reply::Written => return Ok(()),
            Reply::OneByOne => {}
            r => return Err(r.wrong("tower_answers")),
        }
        let asked = |q: u32| questions & 1 << q != 0;
        for kind in 0..self.floor_kinds().len() {
            out.push(match asked(kind as u32) {
                true => self.may_place_floor(stack, kind as FloorKind, asking)?,
                false => Answer::unasked(),
            });
        }
        out.push(match asked(TOP_QUESTION) {
            true => self.may_top(stack, asking)?,
            false => Answer::unasked(),
        });
        Ok(())
    }

    /// The cells, as offsets from the tower, from which a floor just placed on
    /// a tower may capture, its `stack` holding that floor. Cells may be
    /// listed in any order, and may include empty ones.
    fn capture_range(&self, stack: &StackView, out: &mut Vec<(i32, i32)>) -> Result<()> {
        match self.ask(Question::CaptureRange { stack, out })? {
            Reply::Written => Ok(()),
            r => Err(r.wrong("capture_range")),
        }
    }

    /// May `meeple`, standing in range, be taken by the floor the current
    /// player (`table.current`) just placed on `tower`?
    fn may_capture(&self, tower: &TowerView, meeple: &MeepleView, table: &Table) -> Result<bool> {
        match self.ask(Question::MayCapture {
            tower,
            meeple,
            table,
        })? {
            Reply::Yes(y) => Ok(y),
            r => Err(r.wrong("may_capture")),
        }
    }

    /// The ransom for `ransom` at the moment `table` shows; `None` when no
    /// ransom is allowed. The kernel never lets a score go below zero.
    fn ransom(&self, ransom: &RansomView, table: &Table) -> Result<Option<u32>> {
        match self.ask(Question::Ransom { ransom, table })? {
            Reply::Cost(c) => Ok(c),
            r => Err(r.wrong("ransom")),
        }
    }

    /// What becomes of an opponent's meeple the current player just captured
    /// (it is still on the board in `table`); the plain Tower's is
    /// [`plain::CAPTURE`].
    fn capture_outcome(&self, meeple: &MeepleView, table: &Table) -> Result<CaptureOutcome> {
        match self.ask(Question::CaptureOutcome { meeple, table })? {
            Reply::Outcome(o) => Ok(o),
            r => Err(r.wrong("capture_outcome")),
        }
    }

    /// Players `a` and `b` each hold a prisoner of the other: is one of each
    /// exchanged now? The plain Tower's is [`plain::EXCHANGE`].
    fn exchange(&self, a: usize, b: usize, table: &Table) -> Result<bool> {
        match self.ask(Question::Exchange { a, b, table })? {
            Reply::Yes(y) => Ok(y),
            r => Err(r.wrong("exchange")),
        }
    }

    /// Points given or taken once the features are scored at the end of the
    /// game, from the end state: the prisoners still held (in `table`) and
    /// the `towers`. The plain Tower gives none.
    fn end_scores(
        &self,
        towers: &[TowerNow],
        table: &Table,
        out: &mut Vec<EndScore>,
    ) -> Result<()> {
        match self.ask(Question::EndScores { towers, table, out })? {
            Reply::Written => Ok(()),
            r => Err(r.wrong("end_scores")),
        }
    }

    /// The points a road, city, cloister or farm being scored gives
    /// (`feature` its root, in `table`'s features): `plain`, the base
    /// rules' (G4–G8, complete or at the game's end), unless a rule
    /// changes them. Asked only when [`Rules::listens`] has
    /// [`asks::FEATURE_POINTS`].
    fn feature_points(
        &self,
        feature: FeatureId,
        plain: u32,
        table: &Table,
    ) -> Result<Option<Adjusted>> {
        match self.ask(Question::FeaturePoints {
            feature,
            plain,
            table,
        })? {
            Reply::Adjusted(a) => Ok(a),
            r => Err(r.wrong("feature_points")),
        }
    }

    /// How much `meeple` counts for in its feature's majority (G7): 1
    /// unless a rule changes it (0 to
    /// [`crate::kernel::effects::MAX_STRENGTH`]); `towers` are
    /// every tower on the board. Asked only when [`Rules::listens`] has
    /// [`asks::MEEPLE_STRENGTH`].
    fn meeple_strength(
        &self,
        meeple: &MeepleView,
        table: &Table,
        towers: &[TowerNow],
    ) -> Result<Option<Adjusted>> {
        match self.ask(Question::MeepleStrength {
            meeple,
            table,
            towers,
        })? {
            Reply::Adjusted(a) => Ok(a),
            r => Err(r.wrong("meeple_strength")),
        }
    }

    /// May the current player (`table.current`) place the tile of kind
    /// `tile` they drew at `pos`, turned `rot` quarter turns, where it
    /// fits (G1)? Asked only when [`Rules::listens`] has
    /// [`asks::MAY_PLACE_TILE`], about each placement the kernel would
    /// offer; a tile no rule lets go anywhere is discarded (G1).
    fn may_place_tile(&self, tile: u16, pos: Pos, rot: u8, table: &Table) -> Result<bool> {
        match self.ask(Question::MayPlaceTile {
            tile,
            pos,
            rot,
            table,
        })? {
            Reply::Yes(y) => Ok(y),
            r => Err(r.wrong("may_place_tile")),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// Searches begun less those ended.
    struct Open(Cell<i32>);

    impl HookBudget for Open {
        fn begin_game(&self, _: Option<u64>) {}
        fn searching(&self, on: bool) {
            self.0.set(self.0.get() + if on { 1 } else { -1 });
        }
    }

    #[test]
    fn a_search_ends_on_every_way_out() {
        let open = Open(Cell::new(0));
        let stopped = || -> Result<()> {
            let _searching = Searching::begin(&open);
            assert_eq!(open.0.get(), 1);
            anyhow::bail!("stopped early")
        };
        assert!(stopped().is_err());
        assert_eq!(open.0.get(), 0);
    }
}
