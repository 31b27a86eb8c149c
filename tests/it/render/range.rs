//! Range overlays against `towerlab range`: on a board file and on a logged
//! game's board (T6, B6, H1).

use super::*;

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
    for r in log_records(&std::fs::read_to_string(&log).expect("the log"))
        .iter()
        .filter(|r| r["event"] == "floor")
    {
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

/// A range on a tower without floors, or on a cell with no tower, is bad
/// input to the library too.
#[test]
fn tower_range_needs_a_tower_with_floors() {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "tower").unwrap();
    let rules = set.rules();
    let game = Game::new(set.tiles(), rules.as_ref(), 2, 1).unwrap();
    let err = tower_range(&game, Pos::ORIGIN).unwrap_err();
    assert!(towerlab::kernel::diag::is_bad_input(&err), "{err:#}");
}

/// A pack that spares road meeples leaves a board file's tower no cell to
/// capture from (every cell is tested as a road meeple's), and the picture
/// still shows the cells it reaches, dotted apart from the hatch: exactly
/// the cells The Tower alone hatches on the same board, with a caption
/// and a legend line that say what the dots mean. Under The Tower alone
/// nothing is dotted.
#[test]
fn a_range_a_rule_spares_is_drawn_as_reach_apart_from_the_hatch() {
    let dir = Scratch::new("reach");
    let board = dir.file("board.txt");
    std::fs::write(&board, GAPPY).unwrap();
    let spare = dir.pack(
        "no-road-captures",
        "[pack]\nname = \"no-road-captures\"\nrequires = [\"tower\"]\nscript = \"spare.rhai\"\n",
        &[(
            "spare.rhai",
            "fn may_capture(tower, meeple, board) {\n\
                 meeple.on != \"road\" && previous(tower, meeple, board)\n\
             }\n",
        )],
    );
    let floors = [
        "--board",
        &board,
        "--floors",
        "regular,regular",
        "--range",
        "0,0",
    ];
    let tower_svg = ok(&[&["render", "--variant", "tower"][..], &floors].concat());
    let tower = parse(&tower_svg);
    let hatched = range_cells(&tower);
    assert!(hatched.len() > 1, "a trivial range");
    assert!(with_class(&tower, "reached").is_empty());

    let packs = format!("tower,{spare}");
    let svg = ok(&[&["render", "--packs", &packs][..], &floors].concat());
    let doc = parse(&svg);
    assert!(range_cells(&doc).is_empty(), "no road meeple may be taken");
    let dotted: BTreeSet<(i64, i64)> = with_class(&doc, "reached")
        .iter()
        .map(|n| (int(n, "data-x"), int(n, "data-y")))
        .collect();
    assert_eq!(dotted, hatched);
    // The caption (its words wrapped over lines) and the legend's line.
    let n = hatched.len();
    assert!(
        svg.contains(&format!("reaches {n} cells (dotted),")),
        "{svg}"
    );
    assert!(svg.contains("reached, but the rules let it take nothing"));
}
