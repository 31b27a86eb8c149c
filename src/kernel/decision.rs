//! The decision interface and the turn loop: the kernel lists the legal
//! options of each decision, asks the seat's [`Bot`] to pick one, and applies
//! it, one [`Turn`] step at a time. Every bot plugs in here; none needs to know the rules.

use anyhow::{Result, ensure};

use crate::kernel::game::{Action, CaptureChoice, Game, Placement, RansomChoice};

/// One decision a player faces, with its legal options.
#[derive(Clone, Copy, Debug)]
pub enum Decision<'o> {
    /// Where to put the drawn tile of this kind.
    Placement { tile: u16, options: &'o [Placement] },
    /// Whether to pay a ransom (T11); option 0 declines.
    Ransom(&'o [RansomChoice]),
    /// The turn's one action (T3); option 0 passes.
    Action(&'o [Action]),
    /// Which meeple the floor just placed captures (T5); option 0 declines.
    Capture(&'o [CaptureChoice]),
}

impl Decision<'_> {
    pub fn len(&self) -> usize {
        match self {
            Decision::Placement { options, .. } => options.len(),
            Decision::Ransom(o) => o.len(),
            Decision::Action(o) => o.len(),
            Decision::Capture(o) => o.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A player: given the game and a decision, pick an option by index. A bot
/// that asks the rules passes their errors on: a failing hook ends the game
/// with its error, whoever asked.
pub trait Bot {
    fn decide(&mut self, game: &Game, decision: Decision) -> Result<usize>;
}

/// A bot lent to a game: the game asks it, its owner keeps it (to read
/// what it recorded once the game is over).
impl<B: Bot + ?Sized> Bot for &mut B {
    fn decide(&mut self, game: &Game, decision: Decision) -> Result<usize> {
        (**self).decide(game, decision)
    }
}

/// Reused option buffers, so that a turn allocates nothing.
#[derive(Clone, Default)]
pub struct Buffers {
    placements: Vec<Placement>,
    ransoms: Vec<RansomChoice>,
    actions: Vec<Action>,
    captures: Vec<CaptureChoice>,
}

fn pick(bot: &mut dyn Bot, game: &Game, decision: Decision) -> Result<usize> {
    let i = bot.decide(game, decision)?;
    ensure!(
        i < decision.len(),
        "a bot chose option {i} of {}",
        decision.len()
    );
    Ok(i)
}

/// The decision a turn waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Placement,
    Ransom,
    Action,
    Capture,
}

/// A turn in progress, one decision at a time: [`Turn::begin`] draws the
/// tile, [`Turn::decision`] is the question the current player faces, and
/// [`Turn::choose`] applies an option and lists the next question's options.
/// [`play_turn`] drives it with bots; a caller may pause between decisions
/// (for a person's answer) and go on later with the same buffers.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    /// The tile drawn this turn: always known at the placement, unknown for
    /// a turn taken up past it with [`Turn::at`].
    tile: Option<u16>,
    step: Step,
}

impl Turn {
    /// Draw the current player's tile (the rules acting on it) and list
    /// its placements; `None` when the deck is empty (the game is over;
    /// call [`Game::final_scoring`]).
    pub fn begin(game: &mut Game, buf: &mut Buffers) -> Result<Option<Turn>> {
        let Some(tile) = game.draw_turn()? else {
            return Ok(None);
        };
        game.placements(tile, &mut buf.placements)?;
        Ok(Some(Turn {
            tile: Some(tile),
            step: Step::Placement,
        }))
    }

    /// The turn waiting for `decision`, its options copied into `buf`: for
    /// a search that plays a turn on from the decision it was asked.
    pub fn at(decision: Decision, buf: &mut Buffers) -> Turn {
        fn copy<T: Copy>(into: &mut Vec<T>, from: &[T]) {
            into.clear();
            into.extend_from_slice(from);
        }
        let (tile, step) = match decision {
            Decision::Placement { tile, options } => {
                copy(&mut buf.placements, options);
                (Some(tile), Step::Placement)
            }
            Decision::Ransom(o) => {
                copy(&mut buf.ransoms, o);
                (None, Step::Ransom)
            }
            Decision::Action(o) => {
                copy(&mut buf.actions, o);
                (None, Step::Action)
            }
            Decision::Capture(o) => {
                copy(&mut buf.captures, o);
                (None, Step::Capture)
            }
        };
        Turn { tile, step }
    }

    /// The tile drawn this turn; `None` for a turn taken up past its
    /// placement with [`Turn::at`].
    pub fn tile(&self) -> Option<u16> {
        self.tile
    }

    /// The tile to place: known at every placement step (from
    /// [`Turn::begin`] or a placement's [`Turn::at`]).
    fn placing(&self) -> u16 {
        self.tile.expect("a placement step knows its tile")
    }

    /// The decision the turn waits for.
    pub fn step(&self) -> Step {
        self.step
    }

    /// The question the current player faces, with the options in `buf`.
    pub fn decision<'b>(&self, buf: &'b Buffers) -> Decision<'b> {
        match self.step {
            Step::Placement => Decision::Placement {
                tile: self.placing(),
                options: &buf.placements,
            },
            Step::Ransom => Decision::Ransom(&buf.ransoms),
            Step::Action => Decision::Action(&buf.actions),
            Step::Capture => Decision::Capture(&buf.captures),
        }
    }

    /// Apply option `i` of the current decision. Returns `true` when the
    /// turn is over (the next player's turn begins with [`Turn::begin`]).
    pub fn choose(&mut self, game: &mut Game, buf: &mut Buffers, i: usize) -> Result<bool> {
        let n = self.decision(buf).len();
        ensure!(i < n, "option {i} of {n} chosen");
        match self.step {
            Step::Placement => {
                game.place_tile(self.placing(), buf.placements[i])?;
                game.ransom_choices(&mut buf.ransoms)?;
                if buf.ransoms.len() > 1 {
                    self.step = Step::Ransom;
                    return Ok(false);
                }
                self.ask_action(game, buf)
            }
            Step::Ransom => {
                if let RansomChoice::Pay { captor, .. } = buf.ransoms[i] {
                    game.pay_ransom(captor as usize)?;
                }
                self.ask_action(game, buf)
            }
            Step::Action => {
                let action = buf.actions[i];
                game.act(action)?;
                if matches!(action, Action::Floor { .. }) {
                    game.capture_choices(&mut buf.captures)?;
                    if buf.captures.len() > 1 {
                        self.step = Step::Capture;
                        return Ok(false);
                    }
                }
                game.end_turn()?;
                Ok(true)
            }
            Step::Capture => {
                if let CaptureChoice::Take { meeple } = buf.captures[i] {
                    game.capture(meeple as usize)?;
                }
                game.end_turn()?;
                Ok(true)
            }
        }
    }

    fn ask_action(&mut self, game: &mut Game, buf: &mut Buffers) -> Result<bool> {
        game.actions(&mut buf.actions)?;
        self.step = Step::Action;
        Ok(false)
    }
}

/// Play one turn for the current player. Returns `false` when the deck is
/// empty (the game is over; call [`Game::final_scoring`]).
pub fn play_turn(
    game: &mut Game,
    bots: &mut [Box<dyn Bot + '_>],
    buf: &mut Buffers,
) -> Result<bool> {
    let Some(mut turn) = Turn::begin(game, buf)? else {
        return Ok(false);
    };
    let bot = bots[game.current()].as_mut();
    loop {
        let i = pick(bot, game, turn.decision(buf))?;
        if turn.choose(game, buf, i)? {
            return Ok(true);
        }
    }
}

/// Play a game to its end, then score it.
pub fn play_game(game: &mut Game, bots: &mut [Box<dyn Bot + '_>]) -> Result<()> {
    ensure!(
        bots.len() == game.players().len(),
        "{} bots for {} players",
        bots.len(),
        game.players().len()
    );
    let mut buf = Buffers::default();
    while play_turn(game, bots, &mut buf)? {}
    game.final_scoring()
}
