//! A floor previewed before it is committed: the cells its tower would
//! reach at the new height and the meeples it could then capture, as the
//! rules answer them. The floor is built on a copy of the game, whose
//! capture question is the game's own (`kernel::capture`, through
//! `Game::capture_choices`) and whose range is every cell with a tile the
//! rules' range reaches (`play::query::tower_reach`), whether or not they
//! let the tower capture there: the page computes no tower rule.
//! A meeple it would reach that a rule spares is listed with the pack that
//! spared it, in words (`play::spared`), so that a house rule shows in play.

use super::wire::{Capturable, FloorPreview, SparedMeeple};
use crate::kernel::{Action, CaptureChoice, Game};
use crate::play::query::tower_reach;
use crate::play::spared::{spared, spared_words};
use crate::play::words::Names;
use crate::rules::Ruleset;
use crate::views::render::locate::Locator;

/// What floor action `action` would do; `None` for another action, or when
/// the rules fail on the copy (the same failure then ends the game when the
/// floor is committed, with its message). Its words name the seats as
/// `names` does.
pub fn preview(
    game: &Game,
    set: &Ruleset,
    action: Action,
    at: &Locator,
    names: &Names,
) -> Option<FloorPreview> {
    let Action::Floor { tower, .. } = action else {
        return None;
    };
    let mut built = game.clone();
    built.act(action).ok()?;
    let pos = built.towers()[tower as usize].pos;
    let cells = tower_reach(&built, pos).ok()?;
    let mut choices = Vec::new();
    built.capture_choices(&mut choices).ok()?;
    let point = |(x, y): (f64, f64)| [x, y];
    let spared = spared(&mut built, set, tower as usize).ok()?;
    Some(FloorPreview {
        height: built.towers()[tower as usize].floors.len() as u32,
        range: cells
            .iter()
            .map(|&(dx, dy)| point(at.cell(pos.offset(dx, dy))))
            .collect(),
        captures: choices
            .iter()
            .filter_map(|c| match *c {
                CaptureChoice::Take { meeple } => {
                    let m = built.meeples()[meeple as usize];
                    Some(Capturable {
                        owner: m.owner as usize,
                        at: at.spot(m.pos, m.spot).map(point),
                    })
                }
                CaptureChoice::Decline => None,
            })
            .collect(),
        spared: spared
            .iter()
            .map(|s| {
                let m = built.meeples()[s.meeple];
                SparedMeeple {
                    owner: m.owner as usize,
                    at: at.spot(m.pos, m.spot).map(point),
                    pack: s.pack.clone(),
                    says: names.say(&spared_words(&built, s)),
                }
            })
            .collect(),
    })
}
