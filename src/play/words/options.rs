//! A decision's options in words, each citing the rule it follows: what
//! the page lists for a person to choose, what a hint advises, and what a
//! seat (person or bot) was last seen to answer.

use crate::kernel::geometry::Pos;
use crate::kernel::{Action, CaptureChoice, Decision, Game, MeepleSpot, RansomChoice};
use crate::rules::Ruleset;

use super::tile_words;

/// Option `index` of `decision` in words, citing the rule.
pub fn option_words(decision: Decision, index: usize, game: &Game, set: &Ruleset) -> String {
    match decision {
        Decision::Placement { tile, options } => {
            let p = options[index];
            let kind = &game.tiles().kinds[tile as usize];
            format!(
                "{} at {} turned {}°",
                tile_words(kind),
                p.pos,
                p.rot as u32 * 90
            )
        }
        Decision::Ransom(options) => match options[index] {
            RansomChoice::Decline => "Pay no ransom".to_string(),
            RansomChoice::Pay { captor, cost } => format!(
                "Pay player {} {cost} points for a meeple back (T11)",
                captor + 1
            ),
        },
        Decision::Action(options) => action_label(&options[index], game, set),
        Decision::Capture(options) => match options[index] {
            CaptureChoice::Decline => "Take no prisoner".into(),
            CaptureChoice::Take { meeple } => {
                let m = game.meeples()[meeple as usize];
                let on = game.meeple_on(m.pos, m.spot).name();
                format!(
                    "Take player {}'s meeple on the {on} at {} (T5)",
                    m.owner + 1,
                    m.pos
                )
            }
        },
    }
}

/// The tile placed this turn: where a meeple goes.
pub fn placed(game: &Game) -> Pos {
    game.board().tiles().last().map_or(Pos::ORIGIN, |t| t.pos)
}

fn action_label(a: &Action, game: &Game, set: &Ruleset) -> String {
    match *a {
        Action::Pass => "Pass".to_string(),
        Action::Meeple { segment } => {
            let on = game
                .meeple_on(placed(game), MeepleSpot::Segment(segment))
                .name();
            format!("Meeple on the {on} (segment {segment}) (G3)")
        }
        Action::Floor { tower: t, kind } => {
            let pos = game.towers()[t as usize].pos;
            let name = set
                .floors
                .get(kind as usize)
                .map_or("?", |f| f.name.as_str());
            let on = if game.towers()[t as usize].floors.is_empty() {
                "foundation"
            } else {
                "tower"
            };
            format!("A {name} floor on the {on} at {pos} (T3)")
        }
        Action::TowerMeeple { tower: t } => {
            let pos = game.towers()[t as usize].pos;
            format!("Meeple on the tower at {pos}, closing it (T3, T8)")
        }
    }
}
