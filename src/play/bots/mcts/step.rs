//! A turn as a sequence of decisions, stepped one at a time on a copy of the
//! game: the same order of operations as the kernel's turn loop
//! ([`crate::kernel::play_turn`]) — draw, placement, ransom, action, capture,
//! end of turn — with the options listed by the kernel at each step.

use anyhow::Result;

use crate::kernel::{Action, CaptureChoice, Decision, Game, Placement, RansomChoice};

/// Where a game stands within a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The next tile is to be drawn.
    Draw,
    /// The drawn tile of this kind is to be placed.
    Place(u16),
    Ransom,
    Action,
    Capture,
    /// The deck is empty.
    Over,
}

/// The options of the decision at hand, listed by the kernel.
#[derive(Default)]
pub struct Options {
    pub placements: Vec<Placement>,
    pub ransoms: Vec<RansomChoice>,
    pub actions: Vec<Action>,
    pub captures: Vec<CaptureChoice>,
}

/// What a step did: a turn ended, a tile was drawn.
#[derive(Clone, Copy, Debug, Default)]
pub struct Step {
    pub turn_ended: bool,
    pub drawn: Option<u16>,
}

impl Options {
    /// The phase a decision belongs to, with its options copied in.
    pub fn take(&mut self, decision: Decision) -> Phase {
        match decision {
            Decision::Placement { tile, options } => {
                self.placements.clear();
                self.placements.extend_from_slice(options);
                Phase::Place(tile)
            }
            Decision::Ransom(o) => {
                self.ransoms.clear();
                self.ransoms.extend_from_slice(o);
                Phase::Ransom
            }
            Decision::Action(o) => {
                self.actions.clear();
                self.actions.extend_from_slice(o);
                Phase::Action
            }
            Decision::Capture(o) => {
                self.captures.clear();
                self.captures.extend_from_slice(o);
                Phase::Capture
            }
        }
    }

    /// The decision of `phase`, when it is one.
    pub fn decision(&self, phase: Phase) -> Option<Decision<'_>> {
        match phase {
            Phase::Place(tile) => Some(Decision::Placement {
                tile,
                options: &self.placements,
            }),
            Phase::Ransom => Some(Decision::Ransom(&self.ransoms)),
            Phase::Action => Some(Decision::Action(&self.actions)),
            Phase::Capture => Some(Decision::Capture(&self.captures)),
            Phase::Draw | Phase::Over => None,
        }
    }

    /// The number of options at `phase` (0 when it is no decision).
    pub fn count(&self, phase: Phase) -> usize {
        self.decision(phase).map_or(0, |d| d.len())
    }

    /// Draw a tile when `phase` is [`Phase::Draw`], and list the options of
    /// the decision that follows. Returns the phase reached.
    pub fn draw(&mut self, game: &mut Game, phase: Phase, step: &mut Step) -> Phase {
        if phase != Phase::Draw {
            return phase;
        }
        match game.draw() {
            Some(tile) => {
                game.placements(tile, &mut self.placements);
                step.drawn = Some(tile);
                Phase::Place(tile)
            }
            None => Phase::Over,
        }
    }

    /// Take option `i` of the decision at `phase`, then list the options of
    /// the next decision of the turn (or end it). Returns the next phase;
    /// [`Phase::Draw`] after the turn ended.
    pub fn apply(
        &mut self,
        game: &mut Game,
        phase: Phase,
        i: usize,
        step: &mut Step,
    ) -> Result<Phase> {
        match phase {
            Phase::Place(tile) => {
                game.place_tile(tile, self.placements[i])?;
                game.ransom_choices(&mut self.ransoms)?;
                if self.ransoms.len() > 1 {
                    return Ok(Phase::Ransom);
                }
                self.list_actions(game)
            }
            Phase::Ransom => {
                if let RansomChoice::Pay { captor, .. } = self.ransoms[i] {
                    game.pay_ransom(captor as usize)?;
                }
                self.list_actions(game)
            }
            Phase::Action => {
                let action = self.actions[i];
                game.act(action)?;
                if matches!(action, Action::Floor { .. }) {
                    game.capture_choices(&mut self.captures)?;
                    if self.captures.len() > 1 {
                        return Ok(Phase::Capture);
                    }
                }
                Ok(end_turn(game, step))
            }
            Phase::Capture => {
                if let CaptureChoice::Take { meeple } = self.captures[i] {
                    game.capture(meeple as usize)?;
                }
                Ok(end_turn(game, step))
            }
            Phase::Draw | Phase::Over => Ok(phase),
        }
    }

    fn list_actions(&mut self, game: &mut Game) -> Result<Phase> {
        game.actions(&mut self.actions)?;
        Ok(Phase::Action)
    }
}

fn end_turn(game: &mut Game, step: &mut Step) -> Phase {
    game.end_turn();
    step.turn_ended = true;
    Phase::Draw
}
