//! `towerlab render` through the real binary: a log's tiles drawn, bad input
//! refused, the output file written.

use super::*;

/// G1, G3: `render --log` draws a game of a `simulate --log` log: after turn
/// T, the start tile and the tiles of turns 1..=T; at the end, every tile of
/// the log; a turn past the end is the end.
#[test]
fn g1_render_log_draws_the_tiles_of_the_log() {
    let dir = Scratch::new("log");
    let log = simulate_log(&dir, "black-tower", "11");
    let recs = log_records(&std::fs::read_to_string(&log).expect("the log"));
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
