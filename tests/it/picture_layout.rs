//! How board pictures are made: each tile kind's art is drawn once per
//! rotation, as a symbol its tiles `<use>`.

use std::collections::{BTreeMap, BTreeSet};

use towerlab::kernel::MeepleSpot;
use towerlab::kernel::geometry::Pos;
use towerlab::kernel::scene::{
    FloorStyle, Palette, Scene, SceneMeeple, ScenePlayer, SceneTile, TileLook,
};
use towerlab::views::render::board_svg;

use crate::common::{kind, tiles};

fn palette() -> Palette {
    Palette::new(
        [
            ("regular", "#b08850"),
            ("black", "#222222"),
            ("white", "#f4f4f4"),
        ]
        .map(|(name, colour)| FloorStyle {
            name: name.into(),
            colour: colour.into(),
        })
        .to_vec(),
    )
}

fn player() -> ScenePlayer {
    ScenePlayer {
        score: 12,
        meeples: 5,
        floors: vec![3, 2, 1],
        prisoners: Vec::new(),
    }
}

fn class_is(node: &roxmltree::Node, class: &str) -> bool {
    node.attribute("class") == Some(class)
}

/// Each (kind, rotation) a board shows is one `<symbol>` in the picture's
/// `<defs>`; each placed tile is a `<use>` of its own; nothing else of the
/// tile is drawn in place.
#[test]
fn tile_art_is_drawn_once_per_kind_and_rotation() {
    let set = tiles();
    let k = kind(&set, "base/CRr");
    let f = kind(&set, "tower/F");
    let place = |x: i32, k: u16, rot: u8| SceneTile {
        pos: Pos::new(x, 0),
        look: TileLook::Kind(k),
        rot,
    };
    let scene = Scene {
        title: "symbols".into(),
        tiles: vec![
            place(0, k, 0),
            place(1, k, 1),
            place(2, k, 0),
            place(3, f, 0),
            place(4, k, 1),
        ],
        meeples: vec![SceneMeeple {
            owner: 0,
            pos: Pos::new(2, 0),
            spot: MeepleSpot::Segment(0),
        }],
        players: Some(vec![player(); 2]),
        ..Default::default()
    };
    let svg = board_svg(&scene, &set, &palette());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let symbols: BTreeMap<&str, roxmltree::Node> = doc
        .descendants()
        .filter(|d| d.has_tag_name("symbol"))
        .map(|s| (s.attribute("id").unwrap(), s))
        .collect();
    assert_eq!(symbols.len(), 3, "CRr at 0 and 90 degrees, F");
    assert!(
        symbols
            .values()
            .all(|s| s.parent().unwrap().has_tag_name("defs"))
    );
    let tiles: Vec<_> = doc.descendants().filter(|d| class_is(d, "tile")).collect();
    assert_eq!(tiles.len(), 5);
    let mut used = Vec::new();
    for t in &tiles {
        let uses: Vec<_> = t.descendants().filter(|d| d.has_tag_name("use")).collect();
        assert_eq!(uses.len(), 1);
        assert_eq!(
            t.descendants().filter(|d| d.has_tag_name("path")).count(),
            0
        );
        let href = uses[0].attribute("href").unwrap();
        assert!(symbols.contains_key(&href[1..]), "{href}");
        used.push((t.attribute("data-rot").unwrap(), href));
    }
    // Equal kind and rotation, one symbol; another rotation, another.
    assert_eq!(used[0], used[2]);
    assert_eq!(used[1], used[4]);
    assert_ne!(used[0].1, used[1].1);
    let distinct: BTreeSet<&str> = used.iter().map(|u| u.1).collect();
    assert_eq!(distinct.len(), 3);
}
