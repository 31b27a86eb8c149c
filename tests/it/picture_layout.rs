//! How board pictures read: a tall tower's floors stay legible (their size
//! and spacing, the height written beside them), the side panel breaks its
//! lines between phrases and keeps them inside the picture, and each tile
//! kind's art is drawn once per rotation, as a symbol its tiles `<use>`.

use std::collections::{BTreeMap, BTreeSet};

use towerlab::kernel::MeepleSpot;
use towerlab::kernel::geometry::Pos;
use towerlab::views::render::board_svg;
use towerlab::views::scene::{
    FloorStyle, Palette, Scene, SceneMeeple, ScenePlayer, SceneTile, SceneTower, TileLook,
};

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

/// One tower tile (`tile`) at 0,0 with a tower of `floors` floors (kinds
/// in turn), a meeple on top, and two players.
fn tower_scene(tile: u16, floors: usize) -> Scene {
    Scene {
        title: "a tall tower".into(),
        tiles: vec![SceneTile {
            pos: Pos::ORIGIN,
            look: TileLook::Kind(tile),
            rot: 0,
        }],
        towers: vec![SceneTower {
            pos: Pos::ORIGIN,
            floors: (0..floors).map(|i| (i % 3) as u8).collect(),
            top: Some(1),
            blocked: false,
        }],
        players: Some(vec![player(); 2]),
        ..Default::default()
    }
}

fn player() -> ScenePlayer {
    ScenePlayer {
        name: "player 1".into(),
        score: 12,
        meeples: 5,
        floors: vec![3, 2, 1],
        prisoners: Vec::new(),
    }
}

fn num(node: &roxmltree::Node, attr: &str) -> f64 {
    node.attribute(attr)
        .unwrap_or_else(|| panic!("<{}> without `{attr}`", node.tag_name().name()))
        .parse()
        .unwrap()
}

fn class_is(node: &roxmltree::Node, class: &str) -> bool {
    node.attribute("class") == Some(class)
}

/// A tower of six floors: each floor a full 7 pixels tall and as wide as
/// the foundation, stacked without overlap, in the picture, with its height
/// in a 13-pixel label beside the stack; a taller tower's floors shrink,
/// still visibly apart.
#[test]
fn a_tower_of_six_floors_is_legible() {
    let set = tiles();
    for tile in ["tower/F", "tower/L"] {
        for (n, least) in [(6, 7.0), (9, 4.5), (12, 3.5)] {
            let svg = board_svg(&tower_scene(kind(&set, tile), n), &set, &palette());
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let floors: Vec<_> = doc.descendants().filter(|d| class_is(d, "floor")).collect();
            assert_eq!(floors.len(), n);
            let kinds: Vec<&str> = floors
                .iter()
                .map(|f| f.attribute("data-kind").unwrap())
                .collect();
            assert_eq!(kinds[..3], ["regular", "black", "white"]);
            for (i, f) in floors.iter().enumerate() {
                let h = num(f, "height");
                assert!(h >= least, "{tile}, {n} floors: floor {i} is {h} px tall");
                assert!(num(f, "width") >= 16.0, "{tile}: floor {i} too narrow");
                assert!(
                    num(f, "y") >= 0.0,
                    "{tile}, {n} floors: floor {i} leaves the picture"
                );
                if i > 0 {
                    // Floor i sits right on floor i - 1: no overlap, no gap.
                    let below = &floors[i - 1];
                    let gap = num(below, "y") - (num(f, "y") + h);
                    assert!(gap.abs() < 0.02, "{tile}: floor {i} is {gap} px off");
                }
            }
            let label = doc
                .descendants()
                .find(|d| class_is(d, "height"))
                .expect("a height");
            assert_eq!(label.text(), Some(n.to_string().as_str()));
            assert!(num(&label, "font-size") >= 13.0);
            let right = num(&floors[0], "x") + num(&floors[0], "width");
            assert!(num(&label, "x") > right, "the label covers the floors");
        }
    }
}

/// The panel's texts, in order.
fn panel_lines(svg: &str) -> Vec<(f64, f64, String)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let panel = doc
        .descendants()
        .find(|d| class_is(d, "panel"))
        .expect("a panel");
    panel
        .descendants()
        .filter(|d| d.has_tag_name("text"))
        .map(|t| {
            let size = t
                .attribute("font-size")
                .map_or(12.0, |s| s.parse().unwrap());
            let words: String = t
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect();
            (num(&t, "x"), size, words)
        })
        .collect()
}

/// A generous width of a line of text: DejaVu Sans draws the panel's lines
/// at about 0.45 em a character.
fn generous_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * 0.55 * size
}

/// The side panel breaks a long heading, caption or supply line between
/// phrases (after `·`, `,` or `:`), never inside "10 tiles left to draw", and no
/// line runs past the picture's right edge.
#[test]
fn the_side_panel_breaks_lines_between_phrases() {
    let set = tiles();
    let mut scene = tower_scene(kind(&set, "tower/F"), 1);
    scene.title = "black-tower-no-gaps · game 12".into();
    scene.captions = vec![
        "after turn 79 · 10 tiles left to draw".into(),
        "packs: tower, black-tower, house/no-surprises, house/diagonal-steps".into(),
    ];
    let mut many = player();
    many.meeples = 7;
    many.floors = vec![13, 12, 11];
    scene.players = Some(vec![many; 2]);
    let svg = board_svg(&scene, &set, &palette());
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let picture_width = num(&doc.root_element(), "width");
    let lines = panel_lines(&svg);
    let texts: Vec<&str> = lines.iter().map(|(_, _, t)| t.as_str()).collect();
    for (x, size, text) in &lines {
        assert!(
            x + generous_width(text, *size) <= picture_width + 1.0,
            "`{text}` runs out of the picture"
        );
    }
    // Each text as its panel lines: every line but the last ends a phrase.
    let heading = wrapped(&texts, "black-tower-no-gaps · game 12");
    assert_eq!(heading.last(), Some(&"game 12"), "{heading:?}");
    wrapped(&texts, "after turn 79 · 10 tiles left to draw");
    let packs = "packs: tower, black-tower, house/no-surprises, house/diagonal-steps";
    assert!(wrapped(&texts, packs).len() > 1, "a long list is wrapped");
    let supply = "supply: 7 meeples, floors 13 regular, 12 black, 11 white";
    assert!(
        wrapped(&texts, supply).len() > 1,
        "a long supply is wrapped"
    );
}

/// The lines of `texts` that hold `whole`, wrapped: each line but the last
/// ends a phrase (with `·`, `,` or `:`).
fn wrapped<'t>(texts: &[&'t str], whole: &str) -> Vec<&'t str> {
    let first = texts
        .iter()
        .position(|t| whole.starts_with(t))
        .unwrap_or_else(|| panic!("no line of `{whole}` in {texts:?}"));
    let mut lines = vec![texts[first]];
    while lines.join(" ") != whole {
        let next = texts.get(first + lines.len());
        lines.push(next.unwrap_or_else(|| panic!("`{whole}` is not {lines:?}")));
    }
    for line in &lines[..lines.len() - 1] {
        assert!(
            line.ends_with(['·', ',', ':']),
            "`{whole}` breaks mid-phrase: {lines:?}"
        );
    }
    lines
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
