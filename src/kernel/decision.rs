//! The decision interface and the turn loop: the kernel lists the legal
//! options of each decision, asks the seat's [`Bot`] to pick one, and applies
//! it. Every bot plugs in here; none needs to know the rules.

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

/// Reused option buffers, so that a turn allocates nothing.
#[derive(Default)]
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

/// Play one turn for the current player. Returns `false` when the deck is
/// empty (the game is over; call [`Game::final_scoring`]).
pub fn play_turn(
    game: &mut Game,
    bots: &mut [Box<dyn Bot + '_>],
    buf: &mut Buffers,
) -> Result<bool> {
    let Some(tile) = game.draw() else {
        return Ok(false);
    };
    let seat = game.current();
    let bot = bots[seat].as_mut();

    game.placements(tile, &mut buf.placements);
    let i = pick(
        bot,
        game,
        Decision::Placement {
            tile,
            options: &buf.placements,
        },
    )?;
    game.place_tile(tile, buf.placements[i])?;

    game.ransom_choices(&mut buf.ransoms)?;
    if buf.ransoms.len() > 1 {
        let i = pick(bot, game, Decision::Ransom(&buf.ransoms))?;
        if let RansomChoice::Pay { captor, .. } = buf.ransoms[i] {
            game.pay_ransom(captor as usize)?;
        }
    }

    game.actions(&mut buf.actions)?;
    let i = pick(bot, game, Decision::Action(&buf.actions))?;
    let action = buf.actions[i];
    game.act(action)?;

    if matches!(action, Action::Floor { .. }) {
        game.capture_choices(&mut buf.captures)?;
        if buf.captures.len() > 1 {
            let i = pick(bot, game, Decision::Capture(&buf.captures))?;
            if let CaptureChoice::Take { meeple } = buf.captures[i] {
                game.capture(meeple as usize)?;
            }
        }
    }
    game.end_turn();
    Ok(true)
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
