//! What `meeple.feature` reads, for every kind of feature, on hand-built
//! boards (G4–G7, T2): the kernel's answer (`Features::extent`) and the
//! same through a pack's `may_capture`. A field is never complete; a
//! cloister counts its own tile and its placed neighbours and is complete
//! with all eight; a road or city is complete when closed.

use towerlab::kernel::features::Extent;
use towerlab::kernel::geometry::{Dir, Pos};
use towerlab::kernel::pieces::{MeepleOn, MeepleSpot};
use towerlab::kernel::{Game, MeepleView, TowerView};

use towerlab::rules::native::NativeTower;

use crate::common::{TowerPack, tiles};
use crate::scoring::{On, new_game, segment, turn, turn_meeple};

/// The kernel's extent of the feature under segment `on` of the tile at
/// (x, y).
fn extent(g: &Game, x: i32, y: i32, on: On) -> Extent {
    let pos = Pos::new(x, y);
    let id = g.segment_id(pos, segment(g, pos, on)).expect("a segment");
    let root = g.features().root(id);
    g.features().extent(g.board(), root, &mut Vec::new())
}

/// Does `expr` hold for the meeple at index `meeple` of the game, asked in
/// a pack's `may_capture` (as a tower at the meeple's own cell would ask)?
fn holds(g: &Game, meeple: usize, expr: &str) -> bool {
    let script = format!("fn may_capture(tower, meeple, board) {{ {expr} }}\n");
    let rules = TowerPack::new("probe", &script).ruleset().rules();
    let m = g.meeples()[meeple];
    let MeepleSpot::Segment(s) = m.spot else {
        panic!("a meeple on a segment")
    };
    let t = g.board().tile_at(m.pos).unwrap();
    let kind = g.tiles().kinds[t.kind as usize].segments[s as usize].kind;
    let view = MeepleView {
        owner: m.owner as usize,
        pos: m.pos,
        spot: m.spot,
        on: MeepleOn::Feature(kind),
    };
    let tower = TowerView {
        pos: m.pos,
        floors: &[0],
        meeple: None,
    };
    g.with_table(|table| rules.may_capture(&tower, &view, table))
        .unwrap_or_else(|e| panic!("{expr}: {e:#}"))
}

/// `expr == value` holds and `expr == other` does not.
fn reads(g: &Game, meeple: usize, expr: &str, value: &str, other: &str) {
    assert!(
        holds(g, meeple, &format!("{expr} == {value}")),
        "{expr} is not {value}"
    );
    assert!(
        !holds(g, meeple, &format!("{expr} == {other}")),
        "{expr} is {other}"
    );
}

#[test]
fn g6_a_cloister_counts_its_neighbours_and_is_complete_with_eight() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // A cloister at (0, -1): the start tile (0, 0) and (1, 0) are its
    // neighbours at turn 2 — two of eight.
    turn_meeple(&mut g, "base/L", 0, -1, 0, On::Cloister);
    turn(&mut g, "base/RFr", 1, 0, 0);
    assert_eq!(
        extent(&g, 0, -1, On::Cloister),
        Extent {
            tiles: 3,
            complete: false
        }
    );
    reads(&g, 0, "meeple.feature.tiles", "3", "1");
    reads(&g, 0, "meeple.feature.complete", "false", "true");
    reads(&g, 0, "meeple.feature.open", "true", "false");
    reads(&g, 0, "meeple.feature.kind", "\"cloister\"", "\"field\"");
    // Six more neighbours: complete, scored, and 9 tiles.
    for (name, x, y, rot) in [
        ("base/RFr", -1, 0, 0),
        ("base/C", 1, -1, 1),
        ("base/C", -1, -1, 3),
        ("base/C", 0, -2, 2),
        ("base/C", 1, -2, 2),
    ] {
        turn(&mut g, name, x, y, rot);
    }
    assert_eq!(extent(&g, 0, -1, On::Cloister).tiles, 8);
    assert!(!extent(&g, 0, -1, On::Cloister).complete, "7 of 8");
    turn(&mut g, "base/C", -1, -2, 2);
    assert_eq!(
        extent(&g, 0, -1, On::Cloister),
        Extent {
            tiles: 9,
            complete: true
        }
    );
}

#[test]
fn g7_a_field_is_never_complete() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // A farmer on the field south of the start's road, on a tile that
    // continues it: the field covers both tiles.
    turn_meeple(&mut g, "base/RFr", 1, 0, 0, On::Field("SL"));
    let e = extent(&g, 1, 0, On::Field("SL"));
    assert!(!e.complete);
    assert!(e.tiles >= 2, "{e:?}");
    reads(&g, 0, "meeple.feature.complete", "false", "true");
    reads(&g, 0, "meeple.feature.kind", "\"field\"", "\"road\"");
    reads(&g, 0, "meeple.feature.tiles", &e.tiles.to_string(), "0");
    reads(&g, 0, "meeple.feature.meeples[0]", "1", "0");
    reads(&g, 0, "meeple.feature.meeples[1]", "0", "1");
}

#[test]
fn g4_a_road_is_complete_when_closed_at_both_ends() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // A road from the start tile east: open at both ends.
    turn_meeple(&mut g, "base/RFr", 1, 0, 0, On::Road(Dir::W));
    assert_eq!(
        extent(&g, 1, 0, On::Road(Dir::W)),
        Extent {
            tiles: 2,
            complete: false
        }
    );
    reads(&g, 0, "meeple.feature.complete", "false", "true");
    reads(&g, 0, "meeple.feature.tiles", "2", "3");
    reads(&g, 0, "meeple.feature.kind", "\"road\"", "\"city\"");
    // Ends at both sides: complete (and scored, so the meeple goes home).
    turn(&mut g, "base/LR", 2, 0, 1);
    turn(&mut g, "base/LR", -1, 0, 3);
    assert_eq!(
        extent(&g, 1, 0, On::Road(Dir::W)),
        Extent {
            tiles: 4,
            complete: true
        }
    );
}

#[test]
fn g5_a_city_is_complete_when_closed_and_counts_its_pennants() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    // The start's city (north edge) and a pennant city turned south: a city
    // of two tiles, closed.
    turn_meeple(&mut g, "base/Cc+", 0, 1, 2, On::City(Dir::S));
    let e = extent(&g, 0, 1, On::City(Dir::S));
    assert_eq!(
        e,
        Extent {
            tiles: 2,
            complete: false
        },
        "Cc+ leaves the city open"
    );
    reads(&g, 0, "meeple.feature.complete", "false", "true");
    reads(&g, 0, "meeple.feature.pennants", "1", "0");
    reads(&g, 0, "meeple.feature.kind", "\"city\"", "\"road\"");
    reads(&g, 0, "meeple.feature.tiles", "2", "1");
    // base/C turned 3 (city W) at (1, 1) closes it: 3 tiles, complete.
    turn(&mut g, "base/C", 1, 1, 3);
    assert_eq!(
        extent(&g, 0, 1, On::City(Dir::S)),
        Extent {
            tiles: 3,
            complete: true
        }
    );
}

#[test]
fn t2_a_tower_foundation_is_one_tile_and_never_complete() {
    let (tiles, rules) = (tiles(), NativeTower::default());
    let mut g = new_game(&tiles, &rules);
    turn(&mut g, "tower/RrRr.2", 1, 0, 0);
    let pos = Pos::new(1, 0);
    let t = g.board().tile_at(pos).unwrap();
    let foundation = g.tiles().kinds[t.kind as usize].foundation.unwrap();
    let root = g.features().root(g.segment_id(pos, foundation).unwrap());
    let e = g.features().extent(g.board(), root, &mut Vec::new());
    assert_eq!(
        e,
        Extent {
            tiles: 1,
            complete: false
        }
    );
}

/// The bug this table prevents, caught by `check`: a rule that reads
/// whether a farmer's field is complete reads the same value in every game.
#[test]
fn check_warns_when_a_read_never_varies_over_its_test_games() {
    let pack = TowerPack::new(
        "farm",
        "fn may_capture(tower, meeple, board) {\n\
         if meeple.on == \"field\" { meeple.feature.complete } else { true }\n}\n",
    );
    let out = crate::common::run(&["check", &pack.path]);
    let text = format!(
        "{}{}",
        crate::common::stdout(&out),
        crate::common::stderr(&out)
    );
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(
            "hook `may_capture` read `meeple.feature.complete (or .open)` and it gave 0 every time"
        ),
        "{text}"
    );
    // A read that varies is not flagged: `meeple.on` took several values.
    assert!(!text.contains("read `meeple.on`"), "{text}");
}
