//! A decision's options in words, each citing the rule it follows: what
//! the page lists for a person to choose, what a hint advises, and what a
//! seat (person or bot) was last seen to answer. Seats are parts of the
//! words ("Pay Bo 3 points…", "Take your own meeple…").

use crate::kernel::geometry::Pos;
use crate::kernel::{Action, CaptureChoice, Decision, Game, MeepleSpot, RansomChoice};
use crate::rules::Ruleset;

use super::{Words, on_segment, tile_words};

/// Option `index` of `decision` in words, citing the rule.
pub fn option_words(decision: Decision, index: usize, game: &Game, set: &Ruleset) -> Words {
    match decision {
        Decision::Placement { tile, options } => {
            let p = options[index];
            let kind = &game.tiles().kinds[tile as usize];
            Words::text(format!(
                "{} at {} turned {}°",
                tile_words(kind),
                p.pos,
                p.rot as u32 * 90
            ))
        }
        Decision::Ransom(options) => match options[index] {
            RansomChoice::Decline => Words::text("Pay no ransom"),
            RansomChoice::Pay { captor, cost } => Words::text("Pay ")
                .seat(captor as usize)
                .and(format!(" {cost} points for a meeple back (T11)")),
        },
        Decision::Action(options) => Words::text(action_label(&options[index], game, set)),
        Decision::Capture(options) => match options[index] {
            CaptureChoice::Decline => Words::text("Take no prisoner"),
            CaptureChoice::Take { meeple } => {
                let m = game.meeples()[meeple as usize];
                let owner = m.owner as usize;
                let where_ = match m.spot {
                    MeepleSpot::Tower => "on top of the tower".to_string(),
                    MeepleSpot::Segment(s) => {
                        format!(
                            "on {}",
                            on_segment(game, m.pos, s, game.meeple_on(m.pos, m.spot))
                        )
                    }
                };
                let take = Words::text("Take ").whose(owner);
                if owner == game.current() {
                    take.and(format!(
                        " own meeple {where_} at {}, which goes home (T5)",
                        m.pos
                    ))
                } else {
                    take.and(format!(" meeple {where_} at {} (T5)", m.pos))
                }
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
            let at = placed(game);
            let on = on_segment(
                game,
                at,
                segment,
                game.meeple_on(at, MeepleSpot::Segment(segment)),
            );
            format!("Meeple on {on} (G3)")
        }
        Action::Floor { tower: t, kind } => {
            let pos = game.towers()[t as usize].pos;
            let name = set
                .floors()
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
