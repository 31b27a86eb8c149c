//! A floor previewed before it is committed: the cells its tower would
//! reach at the new height and the meeples it could then capture, as the
//! rules answer them. The floor is built on a copy of the game, whose
//! capture question is the game's own (`kernel::capture`, through
//! `Game::capture_choices`) and whose range is the one the capture screen
//! hatches (`play::query::tower_range`): the page computes no tower rule.

use super::wire::{Capturable, FloorPreview};
use crate::kernel::{Action, CaptureChoice, Game};
use crate::play::query::tower_range;
use crate::views::render::locate::Locator;

/// What floor action `action` would do; `None` for another action, or when
/// the rules fail on the copy (the same failure then ends the game when the
/// floor is committed, with its message).
pub fn preview(game: &Game, action: Action, at: &Locator) -> Option<FloorPreview> {
    let Action::Floor { tower, .. } = action else {
        return None;
    };
    let mut built = game.clone();
    built.act(action).ok()?;
    let pos = built.towers()[tower as usize].pos;
    let cells = tower_range(&built, pos).ok()?;
    let mut choices = Vec::new();
    built.capture_choices(&mut choices).ok()?;
    let point = |(x, y): (f64, f64)| [x, y];
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
    })
}
