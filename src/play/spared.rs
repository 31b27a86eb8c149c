//! Meeples a rule spared: those standing in the range of a floor just
//! placed that the rules do not let it capture, each with the pack whose
//! `may_capture` refused it. What a player sees of a house rule such as
//! "a tower never takes a meeple on a road": the tower reaches the meeple,
//! and the pack is named.
//!
//! The pack is found by asking the question again of a rules instance of
//! its own that counts which packs change the answers of their hooks
//! ([`ScriptRules::count_fires`]): of the packs whose `may_capture` changed
//! the answer from what the packs before them said, the last one decided.
//! This asks the chain once more per spared meeple, and nothing when no
//! meeple in range is spared.

use anyhow::Result;

use crate::kernel::{Action, CaptureChoice, Event, Game, MeepleView};
use crate::play::query::tower_reach;
use crate::play::words::{Told, Words, spot_words};
use crate::rules::Ruleset;
use crate::rules::script::{Hook, ScriptRules};

/// A meeple the rules spared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spared {
    /// Its index in [`Game::meeples`].
    pub meeple: usize,
    /// The pack whose `may_capture` refused it, as its manifest names it;
    /// `None` for rules that are not packs, or when a shorter chain of
    /// packs could not be asked.
    pub pack: Option<String>,
}

/// The meeples in the range of tower `tower` of `game`, a floor just placed
/// on it, that its capture question leaves out, in the order of
/// [`Game::meeples`], each with the pack that spared it.
pub fn spared(game: &mut Game, set: &Ruleset, tower: usize) -> Result<Vec<Spared>> {
    let pos = game.towers()[tower].pos;
    let range = tower_reach(game, pos)?;
    let mut choices = Vec::new();
    game.capture_choices(&mut choices)?;
    let taken = |i: usize| {
        choices
            .iter()
            .any(|c| matches!(*c, CaptureChoice::Take { meeple } if meeple as usize == i))
    };
    let reached: Vec<usize> = (0..game.meeples().len())
        .filter(|&i| {
            let m = game.meeples()[i];
            range.contains(&(m.pos.x - pos.x, m.pos.y - pos.y)) && !taken(i)
        })
        .collect();
    let mut out = Vec::with_capacity(reached.len());
    for meeple in reached {
        out.push(Spared {
            meeple,
            pack: refused_by(game, set, tower, meeple).ok().flatten(),
        });
    }
    Ok(out)
}

/// What floor action `action` of `game` leaves spared, said before it is
/// taken: the floor placed on a copy of the game (the capture question is
/// asked at once, and a turn whose capture has no meeple to take ends with
/// the floor, so afterwards is too late), each spared meeple told as an
/// event is: by `pack` when a pack refused it, else by T9 (what may be
/// captured) as the rules that are not packs say it. The caller ties the
/// lines to the floor's event (the event `action` adds, [`floor_event`]).
/// Nothing for another action; an error when the rules fail on the copy
/// (they then fail the same way on the game).
pub fn spared_by(game: &Game, set: &Ruleset, action: Action) -> Result<Vec<Told>> {
    let Action::Floor { tower, .. } = action else {
        return Ok(Vec::new());
    };
    let mut built = game.clone();
    built.act(action)?;
    let spared = spared(&mut built, set, tower as usize)?;
    Ok(spared
        .iter()
        .map(|s| Told {
            rule: if s.pack.is_some() { "pack" } else { "T9" },
            words: spared_words(&built, s),
        })
        .collect())
}

/// The index in [`Game::events`] of the floor event a floor action added,
/// looked for from index `from` (the events' length before the action).
pub fn floor_event(game: &Game, from: usize) -> Option<usize> {
    game.events()
        .get(from..)?
        .iter()
        .position(|e| matches!(e, Event::Floor { .. }))
        .map(|i| from + i)
}

/// The pack whose `may_capture` refused meeple `meeple` to tower `tower`
/// of `game`, asked of a rules instance that counts the packs' fires.
fn refused_by(game: &Game, set: &Ruleset, tower: usize, meeple: usize) -> Result<Option<String>> {
    let Some(rules) = set.script_rules() else {
        return Ok(None);
    };
    rules.count_fires();
    let m = game.meeples()[meeple];
    let view = MeepleView {
        owner: m.owner as usize,
        pos: m.pos,
        spot: m.spot,
        on: game.meeple_on(m.pos, m.spot),
    };
    let tower = game.towers()[tower].view();
    let allowed =
        game.with_table(|table| crate::kernel::Rules::may_capture(&rules, &tower, &view, table))?;
    if allowed {
        // Not refused by this question (a tower's own top, say): no pack
        // to name.
        return Ok(None);
    }
    let pack = last_to_change(&rules);
    // The pack as its manifest names it, not by the path it was loaded from.
    Ok(
        pack.map(|p| match set.packs().iter().find(|k| k.reference == p) {
            Some(k) => k.name.clone(),
            None => p,
        }),
    )
}

/// The last pack of `may_capture`'s chain that changed an answer `rules`
/// was asked.
fn last_to_change(rules: &ScriptRules) -> Option<String> {
    rules
        .fires()
        .hooks
        .into_iter()
        .rfind(|f| f.hook == Hook::MayCapture && f.changed > 0)
        .map(|f| f.pack)
}

/// What a player reads of meeple `s` of `game`: "the tower reaches Bo's
/// meeple (on the road north of the field), but no-road-captures spares
/// it".
pub fn spared_words(game: &Game, s: &Spared) -> Words {
    let m = game.meeples()[s.meeple];
    let spot = spot_words(game, m.pos, m.spot, game.meeple_on(m.pos, m.spot));
    let by = match &s.pack {
        Some(pack) => format!("{pack} spares it"),
        None => "the rules spare it".to_string(),
    };
    Words::text("the tower reaches ")
        .whose(m.owner as usize)
        .and(format!(" meeple ({spot}), but {by}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::geometry::Pos;
    use crate::kernel::tiles::SegmentKind;
    use crate::kernel::{Action, MeepleSpot};
    use crate::play::words::Names;
    use crate::rules::{Home, LoadOptions};

    /// The Tower, then a pack `no-road-captures` that spares meeples on
    /// roads (kept alive with its folder).
    fn sparing_roads() -> (tempfile::TempDir, Ruleset) {
        let dir = tempfile::tempdir().unwrap();
        let pack = dir.path().join("no-road-captures");
        std::fs::create_dir(&pack).unwrap();
        std::fs::write(
            pack.join("pack.toml"),
            "[pack]\nname = \"no-road-captures\"\nrequires = [\"tower\"]\n\
             script = \"spare.rhai\"\n",
        )
        .unwrap();
        std::fs::write(
            pack.join("spare.rhai"),
            "fn may_capture(tower, meeple, board) {\n\
                 meeple.on != \"road\" && previous(tower, meeple, board)\n\
             }\n",
        )
        .unwrap();
        let packs = ["tower".to_string(), pack.display().to_string()];
        let set = Ruleset::from_packs(&Home::shipped(), &LoadOptions::unit_tests(), &packs);
        (dir, set.unwrap())
    }

    /// Put tile `name` at `pos`, turned as it first fits.
    fn put(game: &mut Game, name: &str, pos: Pos) -> u16 {
        let kind = game.tiles().find(name).unwrap();
        let rot = (0..4u8)
            .find(|&r| game.board().fits(&game.tiles().kinds[kind], pos, r))
            .unwrap();
        game.set_tile(kind as u16, pos, rot).unwrap();
        kind as u16
    }

    /// The first segment of `kind` that is a `feature`.
    fn segment(game: &Game, kind: u16, feature: SegmentKind) -> u8 {
        let segments = &game.tiles().kinds[kind as usize].segments;
        segments.iter().position(|s| s.kind == feature).unwrap() as u8
    }

    /// A one-floor tower at 0,0 with player 2's road meeple east of it
    /// and their monk west of it, a floor about to go on the tower (under
    /// `set`): the game just after that floor.
    fn floor_beside_a_road_and_a_monk<'a>(
        set: &'a Ruleset,
        rules: &'a dyn crate::kernel::Rules,
    ) -> Game<'a> {
        let mut game = Game::arranged(set.tiles(), rules, 2, 5).unwrap();
        put(&mut game, "tower/F", Pos::ORIGIN);
        let road = put(&mut game, "base/RFr", Pos::new(1, 0));
        let cloister = put(&mut game, "base/L", Pos::new(-1, 0));
        let regular = set.floor_kind("regular").unwrap();
        game.set_floors(Pos::ORIGIN, &[regular]).unwrap();
        let on_road = MeepleSpot::Segment(segment(&game, road, SegmentKind::Road));
        game.set_meeple(1, Pos::new(1, 0), on_road).unwrap();
        let on_cloister = MeepleSpot::Segment(segment(&game, cloister, SegmentKind::Cloister));
        game.set_meeple(1, Pos::new(-1, 0), on_cloister).unwrap();
        game.settle(Some(Pos::new(1, 0))).unwrap();
        let tower = game.tower_at(Pos::ORIGIN).unwrap() as u16;
        game.act(Action::Floor {
            tower,
            kind: regular,
        })
        .unwrap();
        game
    }

    /// Beside a tower under a pack that spares road meeples, the road
    /// meeple is in range, left out of the capture question, and named as
    /// spared by that pack; the monk beside it may be taken and is not
    /// listed. Under The Tower alone, nothing is spared.
    #[test]
    fn a_road_meeple_in_range_is_spared_by_the_pack_that_says_so() {
        let (_dir, set) = sparing_roads();
        let rules = set.rules();
        let mut game = floor_beside_a_road_and_a_monk(&set, rules.as_ref());
        let tower = game.tower_at(Pos::ORIGIN).unwrap();
        let spared = spared(&mut game, &set, tower).unwrap();
        let road_meeple = game
            .meeples()
            .iter()
            .position(|m| m.pos == Pos::new(1, 0))
            .unwrap();
        assert_eq!(
            spared,
            vec![Spared {
                meeple: road_meeple,
                pack: Some("no-road-captures".to_string()),
            }]
        );
        let mut choices = Vec::new();
        game.capture_choices(&mut choices).unwrap();
        assert_eq!(choices.len(), 2, "Decline, and the monk: {choices:?}");
        let said =
            Names::new(vec!["Ana".into(), "Bo".into()]).say(&spared_words(&game, &spared[0]));
        assert!(
            said.starts_with("the tower reaches Bo's meeple (on the road")
                && said.ends_with("), but no-road-captures spares it"),
            "{said}"
        );

        let tower_only =
            Ruleset::from_variant(&Home::shipped(), &LoadOptions::unit_tests(), "tower").unwrap();
        let rules = tower_only.rules();
        let mut game = floor_beside_a_road_and_a_monk(&tower_only, rules.as_ref());
        assert_eq!(spared_all(&mut game, &tower_only), vec![]);
    }

    fn spared_all(game: &mut Game, set: &Ruleset) -> Vec<Spared> {
        let tower = game.tower_at(Pos::ORIGIN).unwrap();
        spared(game, set, tower).unwrap()
    }
}
