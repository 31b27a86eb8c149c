//! A fifth hostile round, on what the rules may now ask and do: end scores
//! and feature points past what a score holds (asked by the bots' look as
//! by the game's end), features read at cells no board has, meeples placed
//! and state set at the least and greatest coordinates a script can write,
//! and such packs checked by the studio. Each is refused with its pack,
//! hook and line, as bad input; none panics.

use serde_json::json;
use towerlab::serve::IDLE;

use crate::common::{Scratch, run, stderr};
use crate::serve::{ok, server};

/// The least integer a script writes (Rhai reads no literal for it).
const LEAST: &str = "(-9223372036854775807 - 1)";

/// (name, script, extra manifest, what the error says; "" for a game that
/// plays).
fn hostile() -> Vec<(&'static str, String, &'static str, &'static str)> {
    let on_turn = |body: &str| format!("fn on_turn_end(event) {{ {body} }}\n");
    vec![
        (
            "end-max",
            "fn end(towers) { [#{ player: 0, points: 9223372036854775807, feature: \"x\" }] }\n"
                .into(),
            "",
            "expected an array of #{ player: seat (0 to 7)",
        ),
        (
            "end-least",
            format!("fn end(towers) {{ [#{{ player: 1, points: {LEAST}, feature: \"x\" }}] }}\n"),
            "",
            "what a score holds",
        ),
        (
            "end-seat",
            "fn end(towers) { [#{ player: 99, points: 3, feature: \"x\" }] }\n".into(),
            "",
            "player: seat (0 to 7)",
        ),
        (
            "points-max",
            "fn feature_points(feature, points) { 9223372036854775807 }\n".into(),
            "",
            "expected an integer from 0 to 4294967295",
        ),
        (
            "feature-far",
            on_turn(&format!(
                "let f = game().feature(2147483647, {LEAST}, 0); if f != () {{ throw \"a feature\"; }} ()"
            )),
            "",
            "",
        ),
        (
            "feature-least-i32",
            on_turn(
                "let f = game().feature(-2147483648, 0, 0); if f != () { throw \"a feature\"; } ()",
            ),
            "",
            "",
        ),
        (
            "place-least",
            on_turn(&format!("place_meeple({LEAST}, 0, 0, 0)")),
            "",
            "is off any board",
        ),
        (
            "floor-least",
            on_turn(&format!("add_floor(0, {LEAST}, \"regular\")")),
            "",
            "is off any board",
        ),
        (
            "state-least",
            on_turn(&format!("set_state_at(\"m\", {LEAST}, 0, 1)")),
            "\n[state.m]\nscope = \"cell\"\nmin = 0\nmax = 9\ndescription = \"m\"\n",
            "is off any board",
        ),
        (
            "figure-least",
            on_turn(&format!("place_figure(\"w\", {LEAST}, 0)")),
            "\n[figure.w]\ndescription = \"w\"\n",
            "is off any board",
        ),
        (
            "in-range-least",
            on_turn(&format!("let c = game().in_range({LEAST}, 0); ()")),
            "",
            "is off any board",
        ),
    ]
}

fn manifest(name: &str, extra: &str) -> String {
    format!("[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"{name}.rhai\"\n{extra}")
}

#[test]
fn hostile_scores_reads_and_places_are_refused_where_they_are_written() {
    let dir = Scratch::new("hostile-five");
    for (name, script, extra, says) in hostile() {
        let path = dir.pack(
            name,
            &manifest(name, extra),
            &[(&format!("{name}.rhai"), &script)],
        );
        let packs = format!("tower,{path}");
        let out = run(&[
            "play",
            "--packs",
            &packs,
            "--seed",
            "1",
            "--bots",
            "greedy,greedy",
        ]);
        let err = stderr(&out);
        if says.is_empty() {
            assert_eq!(out.status.code(), Some(0), "{name}: {err}");
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(says) && err.contains(name), "{name}: {err}");
    }
}

#[test]
fn the_studio_checks_a_pack_placing_at_the_least_cell_and_reports_it_located() {
    let addr = server(IDLE);
    let script = format!("fn on_turn_end(event) {{\n    place_meeple({LEAST}, 0, 0, 0)\n}}\n");
    let files = json!([{"pack": "far", "files": {
        "pack.toml": manifest("far", ""), "far.rhai": script}}]);
    let report = ok(
        addr,
        "POST",
        "/api/studio/check",
        Some(json!({"pack_files": files, "pack": "far", "games": 2})),
    );
    let problem = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["message"].as_str().unwrap().contains("is off any board"))
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(problem["file"], "far/far.rhai", "{report}");
    assert_eq!(problem["line"], 2, "{report}");
}
