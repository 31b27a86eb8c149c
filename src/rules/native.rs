//! The plain Tower (T1–T12) and Black Tower (B1–B9) written natively
//! against the kernel's [`Rules`] interface. They make games playable
//! without any script, they are the oracles the scripted `tower` and
//! `tower,black-tower` packs are tested against, and the speed baselines
//! for packs. They are named `native:tower` and `native:black-tower`
//! wherever a pack is taken; nothing else in the program holds tower rules
//! outside the packs.

use anyhow::Result;

use crate::kernel::diag::bad_input;
use crate::kernel::effects::{Acted, StateVar};
use crate::kernel::rules::At;
use crate::kernel::{Answer, FloorKind, HookBudget, Question, RansomView, Reply, Rules, StackView};

/// A rule set written natively, as a pack list takes it.
#[derive(Debug)]
pub struct Native {
    /// The name it is taken under (`native:tower`).
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// The scripted packs it mirrors, in order: it plays their floor kinds
    /// (and The Tower's tiles), and is their oracle.
    pub mirrors: &'static [&'static str],
    /// A rules instance for one thread.
    pub rules: fn() -> Box<dyn Rules>,
}

/// Every native rule set.
pub const NATIVES: [Native; 2] = [
    Native {
        name: "native:tower",
        title: "The Tower (native reference)",
        description: "T1–T12 written in Rust: the oracle and speed baseline for the packs.",
        mirrors: &["tower"],
        rules: || Box::new(NativeTower::default()),
    },
    Native {
        name: "native:black-tower",
        title: "Black Tower (native reference)",
        description: "T1–T12 with B1–B9 written in Rust: the oracle and speed baseline for \
                      the packs `tower,black-tower`.",
        mirrors: &["tower", "black-tower"],
        rules: || Box::new(NativeBlackTower::default()),
    },
];

/// The native rule set called `name`, if there is one.
pub fn native(name: &str) -> Option<&'static Native> {
    NATIVES.iter().find(|n| n.name == name)
}

/// The native reference rules of The Tower.
pub struct NativeTower {
    kinds: Vec<String>,
}

impl Default for NativeTower {
    fn default() -> Self {
        NativeTower {
            kinds: vec!["regular".to_string()],
        }
    }
}

/// T11: a ransom always costs 3 points.
pub const RANSOM_COST: u32 = 3;

/// Native rules run no hooks: nothing to count.
impl HookBudget for NativeTower {
    fn begin_game(&self, _seed: Option<u64>) {}

    fn searching(&self, _on: bool) {}
}

impl Rules for NativeTower {
    fn floor_kinds(&self) -> &[String] {
        &self.kinds
    }

    fn ask(&self, question: Question) -> Result<Reply> {
        Ok(match question {
            Question::SeatSupply { players, .. } => Reply::Supply(floors_per_seat(players)?),
            Question::TableSupply { .. } => Reply::Supply(vec![0; self.kinds.len()]),
            Question::MayPlaceFloor { stack, .. } => Reply::Answer(may_place_floor(stack)),
            Question::MayTop { stack, .. } => Reply::Answer(may_top(stack)),
            Question::CaptureRange { stack, out } => {
                orthogonal(stack.floors.len() as i32, out);
                Reply::Written
            }
            Question::Ransom { ransom, .. } => Reply::Cost(ransom_cost(ransom)),
            // T5, T9, T10; T12: the base game's scoring, nothing at the
            // end beyond the features.
            q => q.plain()?,
        })
    }

    fn listens(&self) -> u32 {
        0
    }

    fn on_event(&self, _: At, _: &mut Vec<Acted>) -> Result<()> {
        Ok(())
    }

    fn state_vars(&self) -> &[StateVar] {
        &[]
    }
}

/// T1: floors per player by player count, the same for every seat.
fn floors_per_seat(players: usize) -> Result<Vec<u32>> {
    let floors = match players {
        2 => 10,
        3 => 9,
        4 => 7,
        5 => 6,
        6 => 5,
        // Past the printed T1 (2–6): the 30 floors shared evenly.
        7 => 4,
        8 => 3,
        n => {
            return Err(bad_input(format!(
                "The Tower is for 2 to 8 players, not {n}"
            )));
        }
    };
    Ok(vec![floors])
}

/// T3 (A, B), T8: onto a foundation or an open tower, no height limit (T6).
fn may_place_floor(stack: &StackView) -> Answer {
    Answer::lasting(!stack.topped)
}

/// T4: only a tower of at least one floor can be closed.
fn may_top(stack: &StackView) -> Answer {
    Answer::lasting(!stack.floors.is_empty())
}

/// T11: 3 points, once per turn.
fn ransom_cost(ransom: &RansomView) -> Option<u32> {
    (ransom.paid_this_turn == 0).then_some(RANSOM_COST)
}

/// T6: the tower's tile, and `reach` tiles in each orthogonal direction.
fn orthogonal(reach: i32, out: &mut Vec<(i32, i32)>) {
    out.push((0, 0));
    for step in 1..=reach {
        out.extend([(0, step), (step, 0), (0, -step), (-step, 0)]);
    }
}

/// The native reference rules of The Tower with Black Tower (B1–B9): what
/// the packs `tower,black-tower` say, in Rust.
pub struct NativeBlackTower {
    kinds: Vec<String>,
    /// The Tower's rules, for what Black Tower leaves as it is (B9).
    tower: NativeTower,
}

impl Default for NativeBlackTower {
    fn default() -> Self {
        NativeBlackTower {
            kinds: ["regular", "black", "white"].map(String::from).to_vec(),
            tower: NativeTower::default(),
        }
    }
}

/// Black Tower's floor kinds, in the order of the packs' manifests (and of
/// `floor_kinds`): `tower`'s regular, then `black-tower`'s black and white.
const BLACK: FloorKind = 1;
const WHITE: FloorKind = 2;

/// B3: the foundation tiles of a standard game (18 of The Tower's).
pub const STANDARD_FOUNDATIONS: usize = 18;

/// B5: the top floor gives the tower its kind (`None`: a bare foundation).
fn top(stack: &StackView) -> Option<FloorKind> {
    stack.floors.last().copied()
}

impl HookBudget for NativeBlackTower {
    fn begin_game(&self, _seed: Option<u64>) {}

    fn searching(&self, _on: bool) {}
}

impl Rules for NativeBlackTower {
    fn floor_kinds(&self) -> &[String] {
        &self.kinds
    }

    /// B9: what Black Tower does not change is as in The Tower (T5, T9–T12).
    fn ask(&self, question: Question) -> Result<Reply> {
        Ok(match question {
            Question::SeatSupply {
                players,
                foundation_tiles,
                ..
            } => Reply::Supply(seat_supply(players, foundation_tiles)?),
            Question::TableSupply { .. } => Reply::Supply(vec![0; self.kinds.len()]),
            Question::MayPlaceFloor { stack, kind, .. } => {
                Reply::Answer(black_may_place_floor(stack, kind))
            }
            Question::MayTop { stack, .. } => Reply::Answer(black_may_top(stack)),
            Question::CaptureRange { stack, out } => {
                black_range(stack, out);
                Reply::Written
            }
            q => self.tower.ask(q)?,
        })
    }

    fn listens(&self) -> u32 {
        0
    }

    fn on_event(&self, _: At, _: &mut Vec<Acted>) -> Result<()> {
        Ok(())
    }

    fn state_vars(&self) -> &[StateVar] {
        &[]
    }
}

/// B2: black, white and regular floors per player; B3: per 4 foundation
/// tiles above the standard 18, +1 black and +2 regular, with 8 or more
/// extra +1 white in a 4–6 player game, never above 2 white.
fn seat_supply(players: usize, foundation_tiles: usize) -> Result<Vec<u32>> {
    let [mut black, mut white, mut regular] = match players {
        2 => [4, 2, 8],
        3 => [3, 2, 7],
        4 => [3, 1, 6],
        5 => [2, 1, 5],
        6 => [2, 1, 4],
        // Past the printed B2 (2–6): one black each, no white (the 6
        // whites cannot go round), 3 regular.
        7 | 8 => [1, 0, 3],
        n => {
            return Err(bad_input(format!(
                "Black Tower is for 2 to 8 players, not {n}"
            )));
        }
    };
    let extra = foundation_tiles.saturating_sub(STANDARD_FOUNDATIONS) as u32;
    black += extra / 4;
    regular += 2 * (extra / 4);
    if extra >= 8 && (4..=6).contains(&players) {
        white += 1;
    }
    Ok(vec![regular, black, white.min(2)])
}

/// B4: black on a foundation or a tower under construction; B7: white
/// only on a tower of at least one floor; neither on a white tower nor
/// under a meeple; a regular floor as in The Tower (T3, T8).
fn black_may_place_floor(stack: &StackView, kind: FloorKind) -> Answer {
    let open = !stack.topped && top(stack) != Some(WHITE);
    let yes = match kind {
        WHITE => open && !stack.floors.is_empty(),
        _ => open,
    };
    Answer::lasting(yes)
}

/// T4: a tower of at least one floor; B7: never a white one; B8: a black
/// one as a regular one.
fn black_may_top(stack: &StackView) -> Answer {
    Answer::lasting(!stack.floors.is_empty() && top(stack) != Some(WHITE))
}

/// B6: a black tower along the 4 diagonals, as far as its floors (all
/// colours), its own tile included; B7: a white tower captures nothing;
/// otherwise T6.
fn black_range(stack: &StackView, out: &mut Vec<(i32, i32)>) {
    let reach = stack.floors.len() as i32;
    match top(stack) {
        Some(WHITE) => {}
        Some(BLACK) => {
            out.push((0, 0));
            for step in 1..=reach {
                out.extend([(step, step), (step, -step), (-step, step), (-step, -step)]);
            }
        }
        _ => orthogonal(reach, out),
    }
}
