//! Tile sheets (every kind in every rotation, T2's foundation under its
//! road) and scenes drawn from plain data, their text escaped.

use super::*;

/// Every kind of the shipped tiles draws at each distinct rotation.
#[test]
fn tile_sheet_draws_every_rotation_of_every_kind() {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "tower").unwrap();
    let svg = tile_sheet_svg(set.tiles());
    let doc = parse(&svg);
    let want: u32 = set
        .tiles()
        .kinds
        .iter()
        .map(|k| k.distinct_rotations.count_ones())
        .sum();
    assert_eq!(with_class(&doc, "tile").len(), want as usize);
}

/// G2, T2: a straight road over a foundation tile is drawn on through the
/// foundation's square (under its outline) in every rotation, across the
/// square the way the road runs; a road that ends at the foundation is not.
#[test]
fn t2_tile_sheet_draws_a_through_road_under_the_foundation() {
    use towerlab::kernel::tiles::SegmentKind;
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "tower").unwrap();
    let svg = tile_sheet_svg(set.tiles());
    let doc = parse(&svg);
    let num = |n: &roxmltree::Node, a: &str| -> f64 { text(n, a).parse().unwrap() };
    let mut crossed = 0;
    for tile in with_class(&doc, "tile") {
        let kind = &set.tiles().kinds[set.tiles().find(text(&tile, "data-tile")).unwrap()];
        let quarters = (text(&tile, "data-rot").parse::<u32>().unwrap() / 90) as u8;
        let Some(foundation) = tile
            .descendants()
            .find(|n| n.attribute("class") == Some("foundation"))
        else {
            assert!(
                kind.foundation.is_none(),
                "{} draws its foundation",
                kind.name
            );
            continue;
        };
        // The straight road through the tile, as the edge it leaves by, turned.
        let straight = kind.segments.iter().find_map(|s| {
            let edges: Vec<u8> = (0..4).filter(|d| s.edges & (1 << d) != 0).collect();
            (s.kind == SegmentKind::Road && edges.len() == 2 && edges[0] + 2 == edges[1])
                .then(|| (edges[0] + quarters) % 4)
        });
        let under: Vec<_> = foundation.children().filter(|n| n.is_element()).collect();
        let road = under
            .iter()
            .position(|n| n.attribute("class") == Some("road-under"));
        let name = format!("{} turned {quarters}", kind.name);
        match (straight, road) {
            (None, None) => {}
            (Some(edge), Some(at)) => {
                crossed += 1;
                let outline = under
                    .iter()
                    .position(|n| n.attribute("fill") == Some("none"));
                assert!(
                    outline.is_some_and(|o| o > at),
                    "{name}: the outline goes over the road"
                );
                let stone = &under[0];
                let side = num(stone, "width");
                for strip in under[at].children().filter(|n| n.is_element()) {
                    let (w, h) = (num(&strip, "width"), num(&strip, "height"));
                    let north_south = edge.is_multiple_of(2);
                    let (along, across) = if north_south { (h, w) } else { (w, h) };
                    assert_eq!(along, side, "{name}: the road crosses the whole square");
                    assert!(
                        across < side,
                        "{name}: the road is narrower than the square"
                    );
                    let (cx, cy) = (num(&strip, "x") + w / 2.0, num(&strip, "y") + h / 2.0);
                    let centre = (num(stone, "x") + side / 2.0, num(stone, "y") + side / 2.0);
                    assert_eq!((cx, cy), centre, "{name}: the road runs through the middle");
                }
            }
            (Some(_), None) => panic!("{name}: its road stops at the foundation"),
            (None, Some(_)) => {
                panic!("{name}: a road is drawn under a foundation it does not cross")
            }
        }
    }
    // tower/CRcr (2 rotations), tower/RCr (4), tower/CRCr.2 (2).
    assert_eq!(crossed, 8);
}

/// A scene is plain data: a board file's scene drawn with names and colours
/// that need escaping (a pack's floor kinds are user data) comes out as XML
/// holding them unchanged, with the range, tower and panel it describes.
#[test]
fn scenes_draw_from_plain_data_and_escape_what_they_hold() {
    use towerlab::views::scene::{
        FloorStyle, Palette, Scene, SceneRange, SceneTile, SceneTower, TileLook,
    };
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "tower").unwrap();
    let odd = "<b>&\"floor\"'s";
    let palette = Palette::new(vec![FloorStyle {
        name: odd.into(),
        colour: "#123\"><x".into(),
    }]);
    let tile = |x, y, look| SceneTile {
        pos: Pos::new(x, y),
        look,
        rot: 0,
    };
    let scene = Scene {
        title: "a & b < c".into(),
        captions: vec!["caption with <tags> & \"quotes\"".into()],
        tiles: vec![
            tile(0, 0, TileLook::Foundation),
            tile(1, 0, TileLook::Plain),
            tile(0, 1, TileLook::Plain),
        ],
        towers: vec![SceneTower {
            pos: Pos::ORIGIN,
            floors: vec![0, 0],
            top: None,
            blocked: false,
        }],
        range: Some(SceneRange {
            at: Pos::ORIGIN,
            cells: vec![(1, 0)],
            reach: vec![(1, 0)],
        }),
        bounds: Some((Pos::ORIGIN, Pos::ORIGIN)),
        ..Default::default()
    };
    let svg = board_svg(&scene, set.tiles(), &palette);
    let doc = parse(&svg);
    assert_eq!(with_class(&doc, "tile").len(), 3);
    assert_eq!(range_cells(&doc), BTreeSet::from([(1, 0)]));
    let towers = with_class(&doc, "tower");
    assert_eq!(towers.len(), 1);
    assert_eq!(text(&towers[0], "data-floors"), format!("{odd},{odd}"));
    let floors = with_class(&doc, "floor");
    assert_eq!(floors.len(), 2);
    assert!(
        floors
            .iter()
            .all(|f| f.attribute("data-kind") == Some(odd)
                && f.attribute("fill") == Some("#123\"><x"))
    );
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    assert!(texts.contains(&"a & b < c"), "{texts:?}");
    assert!(
        texts.contains(&odd),
        "the legend names the floor kind: {texts:?}"
    );
    // No players: a board file's picture has no meeples layer.
    assert!(with_class(&doc, "meeples").is_empty());
}
