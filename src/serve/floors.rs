//! A floor previewed before it is committed: the cells its tower would
//! reach at the new height and the meeples it could then capture, as the
//! rules answer them. The floor is built on a copy of the game, whose
//! capture question is the game's own (`kernel::capture`, through
//! `Game::capture_choices`). Its range is the cells from which the rules
//! let the tower take a meeple on some feature (`play::query::tower_range_on`,
//! as `towerlab range` answers for a road: a cell past a gap is none under
//! no-gaps); the cells with a tile that the rules' range reaches where they
//! let it take nothing (`play::query::tower_reach`, less those) are apart,
//! as pictures dot them: the page computes no tower rule.
//! A meeple it would reach that a rule spares is listed with the pack that
//! spared it, in words (`play::spared`), so that a house rule shows in play.

use super::wire::{Capturable, FloorPreview, SparedMeeple};
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{Action, CaptureChoice, Game};
use crate::play::query::{tower_range_on, tower_reach};
use crate::play::spared::{spared, spared_words};
use crate::play::words::Names;
use crate::rules::Ruleset;
use crate::views::render::locate::Locator;

/// The features a meeple a tower may take stands on: a cell is in range
/// when the rules let the tower take one of them there.
const PREY: [SegmentKind; 4] = [
    SegmentKind::Road,
    SegmentKind::City,
    SegmentKind::Field,
    SegmentKind::Cloister,
];

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
    let reach = tower_reach(&built, pos).ok()?;
    // Where the rules cannot say for a tower outside the game, the range
    // as reached.
    let cells = tower_range_on(&built, pos, &PREY).unwrap_or_else(|_| reach.clone());
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
        takes_nothing: reach
            .iter()
            .filter(|c| !cells.contains(c))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::geometry::Pos;
    use crate::rules::{Home, LoadOptions};
    use crate::views::render::TileBook;
    use crate::views::scene::{SceneOptions, game_scene};

    /// Put tile `name` at `pos`, turned as it first fits (it need touch
    /// no tile).
    fn put(game: &mut Game, name: &str, pos: Pos) {
        let kind = game.tiles().find(name).unwrap() as u16;
        let put = (0..4u8).any(|r| game.set_tile(kind, pos, r).is_ok());
        assert!(put, "{name} fits at {pos:?}");
    }

    /// The preview of a third floor on a tower at 0,0 with tiles one and
    /// three cells east of it (a gap between), under `variant`: the cells
    /// in range and those reached where the rules take nothing, as cells.
    fn third_floor(variant: &str) -> (Vec<Pos>, Vec<Pos>) {
        let set =
            Ruleset::from_variant(&Home::shipped(), &LoadOptions::unit_tests(), variant).unwrap();
        let rules = set.rules();
        let mut game = Game::arranged(set.tiles(), rules.as_ref(), 2, 5).unwrap();
        put(&mut game, "tower/F", Pos::ORIGIN);
        put(&mut game, "base/L", Pos::new(1, 0));
        put(&mut game, "base/L", Pos::new(3, 0));
        let regular = set.floor_kind("regular").unwrap();
        game.set_floors(Pos::ORIGIN, &[regular, regular]).unwrap();
        game.settle(Some(Pos::new(3, 0))).unwrap();
        let tower = game.tower_at(Pos::ORIGIN).unwrap() as u16;
        let book = TileBook::new(set.tiles());
        let scene = game_scene(&game, &set, &SceneOptions::default());
        let at = Locator::new(&scene, &book);
        let names = Names::new(vec!["Ana".into(), "Bo".into()]);
        let floor = Action::Floor {
            tower,
            kind: regular,
        };
        let preview = preview(&game, &set, floor, &at, &names).expect("a floor's preview");
        assert_eq!(preview.height, 3);
        let cells = |points: &[[f64; 2]]| {
            let mut cells: Vec<Pos> = [0, 1, 2, 3]
                .iter()
                .map(|&x| Pos::new(x, 0))
                .filter(|&p| {
                    points.contains(&{
                        let (x, y) = at.cell(p);
                        [x, y]
                    })
                })
                .collect();
            cells.sort_by_key(|p| p.x);
            cells
        };
        (cells(&preview.range), cells(&preview.takes_nothing))
    }

    /// H1: a tile beyond a gap is out of range, as the rules (the pack)
    /// answer; the preview shows it as reached where they take nothing,
    /// as pictures dot it. Under The Tower, it is in range.
    #[test]
    fn under_no_gaps_a_cell_past_a_gap_is_not_in_the_preview_s_range() {
        let (range, nothing) = third_floor("tower-no-gaps");
        assert_eq!(range, [Pos::ORIGIN, Pos::new(1, 0)]);
        assert_eq!(nothing, [Pos::new(3, 0)]);
        let (range, nothing) = third_floor("tower");
        assert_eq!(range, [Pos::ORIGIN, Pos::new(1, 0), Pos::new(3, 0)]);
        assert_eq!(nothing, []);
    }
}
