//! Neutral figures (`[figure.NAME]`): moved by effects, read by hooks,
//! set and expected by scenarios, logged, replayed, drawn in pictures (and
//! so in the browser game, which shows the same pictures).

use crate::common::{Scratch, ScratchFile, log_records, refused, run, stderr, stdout, succeeds};

/// A pack over The Tower declaring `decls` with `script`; its folder.
fn figure_pack(dir: &Scratch, name: &str, decls: &str, script: &str) -> String {
    let manifest = format!(
        "[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"{name}.rhai\"\n{decls}"
    );
    dir.pack(name, &manifest, &[(&format!("{name}.rhai"), script)])
}

/// A pilgrim walks to the tile placed each turn; a seat whose tile the
/// pilgrim already stood beside scores a point.
const PILGRIM: &str = r#"
fn on_tile_placed(event) {
    let effects = [];
    let at = figure("pilgrim");
    if at != () && (at[0] - event.x).abs() + (at[1] - event.y).abs() == 1 {
        effects.push(points(event.seat, 1, "pilgrim"));
    }
    effects.push(place_figure("pilgrim", event.x, event.y));
    effects
}
"#;

#[test]
fn a_figure_moves_by_effects_is_logged_replayed_and_drawn() {
    let dir = Scratch::new("figures");
    let pack = figure_pack(
        &dir,
        "pilgrim",
        "[figure.pilgrim]\ndescription = \"walks to every tile placed\"\n",
        PILGRIM,
    );
    let log = ScratchFile::new("pilgrim.jsonl");
    succeeds(&[
        "play",
        "--packs",
        &format!("tower,{pack}"),
        "--seed",
        "4",
        "--log",
        log.path(),
    ]);
    let text = log.read();
    let records = log_records(&text);
    let moves: Vec<_> = records.iter().filter(|r| r["event"] == "figure").collect();
    let tiles = records.iter().filter(|r| r["event"] == "tile").count();
    assert_eq!(moves.len(), tiles, "one move per tile placed");
    assert!(moves.iter().all(|r| r["name"] == "pilgrim.pilgrim"));
    let last = moves.last().unwrap();
    succeeds(&["replay", log.path()]);
    // The picture of the end shows the pilgrim where it last went.
    let svg = stdout(&succeeds(&["render", "--log", log.path()]));
    let mark = format!(
        r#"class="figure" data-name="pilgrim" data-x="{}" data-y="{}""#,
        last["at"][0], last["at"][1]
    );
    assert!(svg.contains(&mark), "{mark} not in the picture");
    // A forged move is caught.
    let forged = text.replacen(r#""event":"figure""#, r#""event":"figure","at":[99,99]"#, 1);
    log.write(&forged);
    let out = run(&["replay", log.path()]);
    assert_ne!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn figures_are_declared_read_and_moved_with_clear_errors() {
    let dir = Scratch::new("bad-figures");
    let cases = [
        (
            "[figure.w]\n[state.w]\nscope = \"game\"\nmin = 0\nmax = 1\n",
            "fn on_turn_end(event) { () }\n",
            "both a state variable and a figure",
        ),
        (
            "[figure.w]\ncolour = \"red\"\n",
            "fn on_turn_end(event) { () }\n",
            "unknown field `colour`",
        ),
        (
            "[figure.w]\n",
            "fn on_turn_end(event) { place_figure(\"w\", 500, 500) }\n",
            "effect `place_figure`: figure `fig2.w` stands only on a tile: no tile at (500, 500)",
        ),
        (
            "[figure.w]\n",
            "fn on_turn_end(event) { set_state(\"w\", 1) }\n",
            "`w` is a figure: read where it stands with figure(\"w\")",
        ),
        (
            "[state.n]\nscope = \"game\"\nmin = 0\nmax = 1\n",
            "fn on_turn_end(event) { place_figure(\"n\", 0, 0) }\n",
            "`n` is a state variable, not a figure",
        ),
        (
            "[figure.warden]\n",
            "fn on_turn_end(event) { place_figure(\"wardn\", 0, 0) }\n",
            "did you mean `warden`",
        ),
    ];
    for (i, (decls, script, expected)) in cases.into_iter().enumerate() {
        let pack = figure_pack(&dir, &format!("fig{i}"), decls, script);
        let err = refused(&["play", "--packs", &format!("tower,{pack}"), "--seed", "2"]);
        assert!(err.contains(expected), "{decls} {script}: {err}");
    }
}

#[test]
fn scenarios_set_and_expect_where_a_figure_stands() {
    let dir = Scratch::new("figure-scenarios");
    let pack = figure_pack(&dir, "pilgrim", "[figure.pilgrim]\n", PILGRIM);
    let file = dir.file("pilgrim.toml");
    std::fs::write(
        &file,
        r#"
[[scenario]]
name = "the pilgrim beside the tile placed pays a point, then walks there"
tiles = [{ tile = "base/L", at = [1, 0] }]
state = [{ name = "pilgrim", at = [1, 0] }]
steps = [{ tile = "base/L", at = [2, 0] }]
[scenario.expect]
scores = [1, 0]
state = [{ name = "pilgrim", at = [2, 0] }]

[[scenario]]
name = "off the board, the pilgrim pays nothing"
tiles = [{ tile = "base/L", at = [1, 0] }]
steps = [{ tile = "base/L", at = [2, 0] }]
[scenario.expect]
scores = [0, 0]
state = [{ name = "pilgrim", at = [2, 0] }]

[[scenario]]
name = "a wrong expectation fails with where it stands"
tiles = [{ tile = "base/L", at = [1, 0] }]
steps = [{ tile = "base/L", at = [2, 0] }]
[scenario.expect]
state = [{ name = "pilgrim" }]
"#,
    )
    .unwrap();
    let packs = format!("tower,{pack}");
    let out = run(&["test", &packs, "--file", &file]);
    let text = stdout(&out);
    assert!(text.contains("2 passed, 1 failed"), "{text}");
    assert!(
        text.contains("expected: off the board") && text.contains("got:      at (2, 0)"),
        "{text}"
    );
    // A figure given a value, or a seat, is refused at its place.
    std::fs::write(
        &file,
        "[[scenario]]\nname = \"x\"\nstate = [{ name = \"pilgrim\", value = 3 }]\n",
    )
    .unwrap();
    let out = run(&["test", &packs, "--file", &file]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(2), "bad input: {text}");
    assert!(
        text.contains("pilgrim.toml:3:") && text.contains("is a figure"),
        "{text}"
    );
}
