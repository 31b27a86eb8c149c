//! Board pictures (SVG): their structure counted against the games they show,
//! range overlays against `towerlab range`, and `towerlab render` through the
//! real binary.

use std::collections::BTreeSet;

use serde_json::Value;
use towerlab::kernel::geometry::Pos;
use towerlab::kernel::{Game, MeepleSpot};
use towerlab::play::bots::BotKind;
use towerlab::play::query::tower_range;
use towerlab::rules::Ruleset;
use towerlab::views::render::{board_svg, tile_sheet_svg};
use towerlab::views::scene::{SceneOptions, game_scene, palette};

use crate::common::{home, refused, stdout, succeeds};

/// Elements whose `class` attribute holds `class`.
fn with_class<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split_whitespace().any(|w| w == class))
        })
        .collect()
}

fn int(node: &roxmltree::Node, attr: &str) -> i64 {
    node.attribute(attr)
        .unwrap_or_else(|| panic!("<{}> without `{attr}`", node.tag_name().name()))
        .parse()
        .unwrap_or_else(|e| panic!("`{attr}` is not an integer: {e}"))
}

fn text<'a>(node: &roxmltree::Node<'a, '_>, attr: &str) -> &'a str {
    node.attribute(attr)
        .unwrap_or_else(|| panic!("<{}> without `{attr}`", node.tag_name().name()))
}

/// Parse an SVG document, failing the test with the parser's message.
fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    doc
}

/// The range cells an SVG marks, as (dx, dy) relative to the tower.
fn range_cells(doc: &roxmltree::Document) -> BTreeSet<(i64, i64)> {
    let marks = with_class(doc, "range");
    let cells: BTreeSet<(i64, i64)> = marks
        .iter()
        .map(|n| (int(n, "data-x"), int(n, "data-y")))
        .collect();
    assert_eq!(cells.len(), marks.len(), "a cell marked twice");
    cells
}

/// What the picture shows must be what the game holds: one tile element per
/// placed tile (position, kind, rotation), one meeple mark per meeple on the
/// board (owner, cell, what it stands on; tower tops included), one tower
/// group per tower with floors (its stack). Returns (field meeples, tower
/// meeples) seen, so callers can check both kinds were covered.
fn check_picture(game: &Game, set: &Ruleset) -> (usize, usize) {
    let scene = game_scene(game, set, &SceneOptions::default());
    let svg = board_svg(&scene, &set.tiles, &palette(set));
    let doc = parse(&svg);

    let mut drawn: Vec<(i64, i64, String, i64)> = with_class(&doc, "tile")
        .iter()
        .map(|n| {
            (
                int(n, "data-x"),
                int(n, "data-y"),
                text(n, "data-tile").to_string(),
                int(n, "data-rot"),
            )
        })
        .collect();
    let mut placed: Vec<(i64, i64, String, i64)> = game
        .board()
        .tiles()
        .iter()
        .map(|t| {
            (
                t.pos.x as i64,
                t.pos.y as i64,
                set.tiles.kinds[t.kind as usize].name.clone(),
                t.rot as i64 * 90,
            )
        })
        .collect();
    drawn.sort();
    placed.sort();
    assert_eq!(drawn, placed, "one tile element per placed tile");

    let mut marks: Vec<(i64, i64, i64, String)> = with_class(&doc, "meeple")
        .iter()
        .map(|n| {
            (
                int(n, "data-owner"),
                int(n, "data-x"),
                int(n, "data-y"),
                text(n, "data-on").to_string(),
            )
        })
        .collect();
    let mut meeples: Vec<(i64, i64, i64, String)> = game
        .meeples()
        .iter()
        .map(|m| {
            (
                m.owner as i64,
                m.pos.x as i64,
                m.pos.y as i64,
                game.spot_name(m.pos, m.spot).to_string(),
            )
        })
        .collect();
    marks.sort();
    meeples.sort();
    assert_eq!(marks, meeples, "one meeple mark per meeple on the board");

    let mut towers: Vec<(i64, i64, String)> = with_class(&doc, "tower")
        .iter()
        .map(|n| {
            (
                int(n, "data-x"),
                int(n, "data-y"),
                text(n, "data-floors").to_string(),
            )
        })
        .collect();
    let mut built: Vec<(i64, i64, String)> = game
        .towers()
        .iter()
        .filter(|t| !t.floors.is_empty())
        .map(|t| {
            let names: Vec<&str> = t
                .floors
                .iter()
                .map(|&k| set.floors[k as usize].name.as_str())
                .collect();
            (t.pos.x as i64, t.pos.y as i64, names.join(","))
        })
        .collect();
    towers.sort();
    built.sort();
    assert_eq!(towers, built, "one tower group per tower with floors");
    // Each floor of a stack is drawn in its kind's colour.
    for tower in with_class(&doc, "tower") {
        for floor in tower
            .descendants()
            .filter(|n| n.attribute("class") == Some("floor"))
        {
            let kind = text(&floor, "data-kind");
            let decl = set
                .floors
                .iter()
                .find(|f| f.name == kind)
                .expect("a floor kind");
            assert_eq!(floor.attribute("fill"), Some(decl.colour.as_str()));
        }
    }

    let fields = game
        .meeples()
        .iter()
        .filter(|m| game.spot_name(m.pos, m.spot) == "field")
        .count();
    let tops = game
        .meeples()
        .iter()
        .filter(|m| m.spot == MeepleSpot::Tower)
        .count();
    (fields, tops)
}

/// Play seeded games of `variant`, checking the picture at several turns
/// (the start, the middle, the last turn and after final scoring).
fn check_games(variant: &str, seeds: &[u64]) -> (usize, usize) {
    let set = Ruleset::from_variant(&home(), variant).expect("the variant loads");
    let rules = set.rules();
    let bots = [BotKind::Random, BotKind::Random];
    let (mut fields, mut tops) = (0, 0);
    for &seed in seeds {
        let mut checked = 0;
        towerlab::play::sim::play_observed(
            &set.tiles,
            rules.as_ref(),
            &bots,
            &set.worths,
            seed,
            |game| {
                let turn = game.stats().turns;
                if [0, 1, 10, 25, 45, 70].contains(&turn) || game.deck_left() == 0 {
                    let (f, t) = check_picture(game, &set);
                    fields += f;
                    tops += t;
                    checked += 1;
                }
                Ok(())
            },
        )
        .expect("the game plays");
        assert!(checked >= 7, "seed {seed}: only {checked} pictures checked");
    }
    (fields, tops)
}

/// G3, T3: every placed tile and every meeple (farmers and tower tops
/// included) has exactly one mark in pictures of Tower games.
#[test]
fn g3_t3_tower_pictures_mark_every_tile_meeple_and_tower() {
    let (fields, tops) = check_games("tower", &[1, 2, 3]);
    assert!(
        fields > 0,
        "no farmer was drawn in these games: pick other seeds"
    );
    assert!(
        tops > 0,
        "no tower meeple was drawn in these games: pick other seeds"
    );
}

/// B5: Black Tower pictures: stacks of mixed floors, each floor in its
/// kind's colour, and every meeple marked once.
#[test]
fn b5_black_tower_pictures_mark_every_tile_meeple_and_tower() {
    let (fields, tops) = check_games("black-tower", &[4, 5, 6]);
    assert!(fields > 0 && tops > 0, "fields {fields}, tower tops {tops}");
}

fn ok(args: &[&str]) -> String {
    stdout(&succeeds(args))
}

/// A scratch folder, removed on drop.
struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new(name: &str) -> Scratch {
        Scratch(crate::common::temp_dir(&format!("render-{name}")))
    }

    fn file(&self, name: &str) -> String {
        self.0
            .path()
            .join(name)
            .to_str()
            .expect("UTF-8 path")
            .to_string()
    }
}

/// The cells `towerlab range --format json` prints.
fn range_json(args: &[&str]) -> BTreeSet<(i64, i64)> {
    let mut all = vec!["range", "--format", "json"];
    all.extend_from_slice(args);
    let v: Value = serde_json::from_str(&ok(&all)).expect("JSON");
    v["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap()))
        .collect()
}

/// A board with gaps around the tower, in every direction.
const GAPPY: &str = "\
#.#.#.#
.##.##.
##.#.##
#.#T#.#
.#.##..
#.##.##
###.#.#
";

/// T6, B6, H1: `render --board` marks exactly the cells `range` gives for
/// the same board and floors, under several variants (straight and
/// diagonal ranges, over gaps or stopped by them).
#[test]
fn t6_b6_h1_board_range_overlay_matches_range_command() {
    let dir = Scratch::new("board");
    let board = dir.file("board.txt");
    std::fs::write(&board, GAPPY).unwrap();
    let cases: &[(&str, &str)] = &[
        ("tower", "regular,regular"),
        ("tower-no-gaps", "regular,regular,regular"),
        ("black-tower", "regular,black"),
        ("black-tower-no-gaps", "regular,black"),
        ("black-tower-no-gaps", "regular,black,black"),
    ];
    for &(variant, floors) in cases {
        let want = range_json(&["--variant", variant, "--board", &board, "--floors", floors]);
        assert!(want.len() > 1, "{variant} {floors}: a trivial range");
        for extra in [&["--range", "0,0"][..], &[]] {
            let mut args = vec![
                "render",
                "--board",
                &board,
                "--variant",
                variant,
                "--floors",
                floors,
            ];
            args.extend_from_slice(extra);
            let svg = ok(&args);
            let doc = parse(&svg);
            assert_eq!(range_cells(&doc), want, "{variant} {floors} {extra:?}");
            // The board file's tiles: 24 `#` and the `T`.
            assert_eq!(
                with_class(&doc, "tile").len(),
                GAPPY.matches(['#', 'T']).count()
            );
            assert_eq!(with_class(&doc, "tower").len(), 1);
        }
    }
}

/// B6: `range --format svg` marks the cells `range --format json` gives,
/// with a board file and without (a full board around the range).
#[test]
fn b6_range_svg_matches_range_json() {
    let dir = Scratch::new("range-svg");
    let board = dir.file("board.txt");
    std::fs::write(&board, GAPPY).unwrap();
    for with_board in [true, false] {
        let mut args = vec![
            "--variant",
            "black-tower-no-gaps",
            "--floors",
            "regular,black",
        ];
        if with_board {
            args.extend_from_slice(&["--board", &board]);
        }
        let want = range_json(&args);
        let mut svg_args = vec!["range", "--format", "svg"];
        svg_args.extend_from_slice(&args);
        let svg = ok(&svg_args);
        let doc = parse(&svg);
        assert_eq!(range_cells(&doc), want, "board file: {with_board}");
        let tiles: BTreeSet<(i64, i64)> = with_class(&doc, "tile")
            .iter()
            .map(|n| (int(n, "data-x"), int(n, "data-y")))
            .collect();
        assert!(want.is_subset(&tiles), "a range cell without a tile");
        if !with_board {
            // B6: two floors, black on top: the 4 diagonals 2 deep, and the
            // tower's own tile (Ruling), on a full 7×7 board.
            assert_eq!(want.len(), 9);
            assert_eq!(tiles.len(), 49);
        }
    }
}

/// Write a one-game log with `simulate --log`.
fn simulate_log(dir: &Scratch, variant: &str, seed: &str) -> String {
    let log = dir.file(&format!("{variant}.jsonl"));
    ok(&[
        "simulate",
        "--variant",
        variant,
        "--games",
        "1",
        "--seed",
        seed,
        "--log",
        &log,
        "--format",
        "json",
    ]);
    log
}

fn records(log: &str) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// G1, G3: `render --log` draws a game of a `simulate --log` log: after turn
/// T, the start tile and the tiles of turns 1..=T; at the end, every tile of
/// the log; a turn past the end is the end.
#[test]
fn g1_render_log_draws_the_tiles_of_the_log() {
    let dir = Scratch::new("log");
    let log = simulate_log(&dir, "black-tower", "11");
    let recs = records(&log);
    let tile_turns: Vec<i64> = recs
        .iter()
        .filter(|r| r["event"] == "tile")
        .map(|r| r["turn"].as_i64().unwrap())
        .collect();
    for turn in [0i64, 1, 17, 50] {
        let svg = ok(&[
            "render",
            "--log",
            &log,
            "--game",
            "0",
            "--turn",
            &turn.to_string(),
        ]);
        let doc = parse(&svg);
        let want = 1 + tile_turns.iter().filter(|&&t| t <= turn).count();
        assert_eq!(with_class(&doc, "tile").len(), want, "after turn {turn}");
    }
    let end = ok(&["render", "--log", &log]);
    let past = ok(&["render", "--log", &log, "--game", "0", "--turn", "100000"]);
    let (end, past) = (parse(&end), parse(&past));
    assert_eq!(with_class(&end, "tile").len(), 1 + tile_turns.len());
    let marks = |doc: &roxmltree::Document| -> Vec<String> {
        let mut v: Vec<String> = with_class(doc, "meeple")
            .iter()
            .map(|n| {
                format!(
                    "{} {} {} {}",
                    text(n, "data-owner"),
                    text(n, "data-x"),
                    text(n, "data-y"),
                    text(n, "data-on")
                )
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(marks(&end), marks(&past), "a turn past the end is the end");
    // The final scores of the log's `end` record are in the panel.
    let end_rec = recs.iter().find(|r| r["event"] == "end").unwrap();
    for (p, score) in end_rec["scores"].as_array().unwrap().iter().enumerate() {
        let shown = with_class(&end, "score")
            .into_iter()
            .find(|n| n.attribute("data-player") == Some(&p.to_string()))
            .expect("a score per player");
        let words: String = shown.descendants().filter_map(|n| n.text()).collect();
        assert!(
            words.contains(&format!(": {score} points")),
            "player {p}: {words}"
        );
    }
}

/// B6, T6: the range overlay of `render --log` on a game's tallest tower
/// marks what `range` computes for that tower's floors on that game's board
/// (written as a board file around the tower).
#[test]
fn b6_log_range_overlay_matches_range_on_the_game_board() {
    let dir = Scratch::new("log-range");
    // Seed 4: the tallest tower has five floors with black on top.
    let log = simulate_log(&dir, "black-tower", "4");
    // The tallest tower and its stack, from the log's `floor` records.
    let mut tallest: Option<(i64, i64, Vec<String>)> = None;
    for r in records(&log).iter().filter(|r| r["event"] == "floor") {
        let floors: Vec<String> = r["floors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_string())
            .collect();
        let (x, y) = (r["x"].as_i64().unwrap(), r["y"].as_i64().unwrap());
        let replace = match &tallest {
            None => true,
            Some((tx, ty, f)) => (x, y) == (*tx, *ty) || floors.len() > f.len(),
        };
        if replace {
            tallest = Some((x, y, floors));
        }
    }
    let (x, y, floors) = tallest.expect("the game builds a tower");
    let cell = format!("{x},{y}");
    let svg = ok(&["render", "--log", &log, "--range", &cell]);
    let doc = parse(&svg);
    let marked = range_cells(&doc);
    // The board around the tower, as a board file.
    let tiles: BTreeSet<(i64, i64)> = with_class(&doc, "tile")
        .iter()
        .map(|n| (int(n, "data-x") - x, int(n, "data-y") - y))
        .collect();
    let (x0, x1) = (
        tiles.iter().map(|t| t.0).min().unwrap(),
        tiles.iter().map(|t| t.0).max().unwrap(),
    );
    let (y0, y1) = (
        tiles.iter().map(|t| t.1).min().unwrap(),
        tiles.iter().map(|t| t.1).max().unwrap(),
    );
    let mut text = String::new();
    for ty in (y0..=y1).rev() {
        for tx in x0..=x1 {
            text.push(if (tx, ty) == (0, 0) {
                'T'
            } else if tiles.contains(&(tx, ty)) {
                '#'
            } else {
                '.'
            });
        }
        text.push('\n');
    }
    let board = dir.file("game-board.txt");
    std::fs::write(&board, text).unwrap();
    let want = range_json(&[
        "--packs",
        "tower,black-tower",
        "--board",
        &board,
        "--floors",
        &floors.join(","),
    ]);
    assert_eq!(marked, want, "tower at {cell} with {floors:?}");
    assert_eq!(
        floors.last().map(String::as_str),
        Some("black"),
        "{floors:?}"
    );
    // B6: diagonals only, and the tower's own tile (Ruling).
    assert!(marked.len() > 1 && marked.contains(&(0, 0)), "{marked:?}");
    assert!(
        marked.iter().all(|&(dx, dy)| dx.abs() == dy.abs()),
        "{marked:?}"
    );
}

/// Bad input exits 2 with a message: a game not in the log, a range on a
/// cell without a tower (or on a bare foundation), a board-file range away
/// from `T`, a stack the rules forbid, neither --log nor --board.
#[test]
fn render_refuses_bad_input() {
    let dir = Scratch::new("bad");
    let log = simulate_log(&dir, "tower", "2");
    let err = refused(&["render", "--log", &log, "--game", "7"]);
    assert!(err.contains("no game 7"), "{err}");
    // (100, 100) is far off any board of 90 tiles.
    let err = refused(&["render", "--log", &log, "--range", "100,100"]);
    assert!(err.contains("no tower at 100,100"), "{err}");
    let board = dir.file("board.txt");
    std::fs::write(&board, GAPPY).unwrap();
    let err = refused(&[
        "render", "--board", &board, "--floors", "regular", "--range", "1,0",
    ]);
    assert!(err.contains("no tower at 1,0"), "{err}");
    let err = refused(&["render", "--board", &board, "--range", "0,0"]);
    assert!(err.contains("no floors"), "{err}");
    // B7: white never goes on a bare foundation.
    let err = refused(&[
        "render",
        "--board",
        &board,
        "--variant",
        "black-tower",
        "--floors",
        "white",
    ]);
    assert!(err.contains("white"), "{err}");
    refused(&["render"]);
    refused(&["render", "--log", &log, "--board", &board]);
    refused(&["render", "--log", &log, "--floors", "regular"]);
    refused(&["render", "--board", &board, "--game", "1"]);
    refused(&["render", "--board", &board, "--turn", "1"]);
    refused(&["render", "--log", &log, "--range", "1"]);
}

/// `--output` writes the picture to a file and prints nothing.
#[test]
fn render_writes_output_file() {
    let dir = Scratch::new("output");
    let log = simulate_log(&dir, "tower", "4");
    let out = dir.file("board.svg");
    let printed = ok(&["render", "--log", &log, "--output", &out]);
    assert!(printed.is_empty());
    let svg = std::fs::read_to_string(&out).unwrap();
    assert_eq!(svg, ok(&["render", "--log", &log]));
    parse(&svg);
}

/// A range on a tower without floors, or on a cell with no tower, is bad
/// input to the library too.
#[test]
fn tower_range_needs_a_tower_with_floors() {
    let set = Ruleset::from_variant(&home(), "tower").unwrap();
    let rules = set.rules();
    let game = Game::new(&set.tiles, rules.as_ref(), 2, 1).unwrap();
    let err = tower_range(&game, Pos::ORIGIN).unwrap_err();
    assert!(towerlab::kernel::diag::is_bad_input(&err), "{err:#}");
}

/// Every kind of the shipped tiles draws at each distinct rotation.
#[test]
fn tile_sheet_draws_every_rotation_of_every_kind() {
    let set = Ruleset::from_variant(&home(), "tower").unwrap();
    let svg = tile_sheet_svg(&set.tiles);
    let doc = parse(&svg);
    let want: u32 = set
        .tiles
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
    let set = Ruleset::from_variant(&home(), "tower").unwrap();
    let svg = tile_sheet_svg(&set.tiles);
    let doc = parse(&svg);
    let num = |n: &roxmltree::Node, a: &str| -> f64 { text(n, a).parse().unwrap() };
    let mut crossed = 0;
    for tile in with_class(&doc, "tile") {
        let kind = &set.tiles.kinds[set.tiles.find(text(&tile, "data-tile")).unwrap()];
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
    let set = Ruleset::from_variant(&home(), "tower").unwrap();
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
        }],
        range: Some(SceneRange {
            at: Pos::ORIGIN,
            cells: vec![(1, 0)],
        }),
        bounds: Some((Pos::ORIGIN, Pos::ORIGIN)),
        ..Default::default()
    };
    let svg = board_svg(&scene, &set.tiles, &palette);
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
