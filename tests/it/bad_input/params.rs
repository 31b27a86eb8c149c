//! Parameter values come in one way (`rules::param`): the same value gets
//! the same answer — and the same words — from `--param`, `sweep`, a
//! variant file, a scenario's `params` and the browser's form; an integer
//! within its declared bounds is within what the hooks take (or `check`
//! says it is not); nothing is set twice.

use serde_json::json;

use super::*;
use crate::common::{TowerPack, stdout};
use crate::serve::{refused as refused_by_server, server};

/// The words every interface gives for `tower.ransom_cost` set to `value`
/// (out of its bounds).
fn ransom_refusal(value: &str) -> String {
    format!("parameter `ransom_cost` of pack `tower` is set to {value}: ")
}

#[test]
fn a_value_out_of_its_bounds_is_refused_alike_on_every_interface_before_a_game() {
    let tmp = Scratch::new("param-everywhere");
    let addr = server(std::time::Duration::from_secs(60));
    for value in [
        "4294967296",
        "1000001",
        "-1",
        "9223372036854775807",
        "-9223372036854775808",
    ] {
        let want = ransom_refusal(value);
        // The command line: each command that plays, and a sweep.
        for line in [
            format!("play --param tower.ransom_cost={value}"),
            format!("simulate --games 1 --param tower.ransom_cost={value}"),
            format!("compare tower black-tower --games 1 --param tower.ransom_cost={value}"),
            format!("sweep --games 1 --param tower.ransom_cost=0,{value}"),
        ] {
            let err = refused(&common::words(&line));
            says(&err, "--param tower.ransom_cost=");
            says(&err, &want);
        }
        // A variant file, at the value's place.
        let variant = tmp.write(
            "v.toml",
            format!("name = \"v\"\npacks = [\"tower\"]\n\n[params.tower]\nransom_cost = {value}\n"),
        );
        let err = refused(&[
            "simulate",
            "--games",
            "1",
            "--variant",
            &variant.display().to_string(),
        ]);
        says(&err, &at(&variant, 5, 1));
        says(&err, &want);
        // A scenario's own rules.
        let scenario = tmp.write(
            "s.toml",
            format!(
                "[[scenario]]\nname = \"n\"\nparams = {{ tower = {{ ransom_cost = {value} }} }}\n"
            ),
        );
        let out = run(&["test", "tower", "--file", &scenario.display().to_string()]);
        assert_eq!(out.status.code(), Some(2));
        says(&stdout(&out), &want);
        // The browser's form: refused (400) before any game is made.
        let body = json!({
            "variant": "tower",
            "seats": ["random", "random"],
            "params": {"tower": {"ransom_cost": serde_json::from_str::<serde_json::Value>(value).unwrap()}},
        });
        let m = refused_by_server(addr, "POST", "/api/games", &body.to_string(), 400);
        says(&m, &want);
    }
}

#[test]
fn the_same_wrong_type_gets_the_same_words_from_a_file_a_flag_and_a_form() {
    let tmp = Scratch::new("param-type");
    let addr = server(std::time::Duration::from_secs(60));
    let want =
        "parameter `ransom_cost` of pack `tower` is a whole number (like its default, 3), not";
    for (flag, toml, json) in [
        ("2.5", "2.5", json!(2.5)),
        ("true", "true", json!(true)),
        ("x", "\"x\"", json!("x")),
    ] {
        says(
            &refused(&["play", "--param", &format!("tower.ransom_cost={flag}")]),
            want,
        );
        let variant = tmp.write(
            "v.toml",
            format!("name = \"v\"\npacks = [\"tower\"]\n[params.tower]\nransom_cost = {toml}\n"),
        );
        says(
            &refused(&["play", "--variant", &variant.display().to_string()]),
            want,
        );
        let body =
            json!({"seats": ["random", "random"], "params": {"tower": {"ransom_cost": json}}});
        says(
            &refused_by_server(addr, "POST", "/api/games", &body.to_string(), 400),
            want,
        );
    }
}

#[test]
fn a_parameter_set_twice_is_refused_on_the_command_line_and_in_a_variant() {
    let err = refused(&[
        "play",
        "--param",
        "tower.ransom_cost=2",
        "--param",
        "tower.ransom_cost=3",
    ]);
    says(
        &err,
        "--param tower.ransom_cost=3: parameter `ransom_cost` of pack `tower` is set twice",
    );
    // A pack keyed by its path and by its manifest's name is one pack.
    let tmp = Scratch::new("param-twice");
    let pack = tmp.pack(
        "mine",
        "[pack]\nname = \"mine\"\nrequires = [\"tower\"]\n[param.n]\ndefault = 1\nmin = 0\nmax = 9\n",
        &[],
    );
    let variant = tmp.write(
        "v.toml",
        format!(
            "name = \"v\"\npacks = [\"tower\", \"{pack}\"]\n[params.\"{pack}\"]\nn = 2\n[params.mine]\nn = 3\n"
        ),
    );
    let err = refused(&["play", "--variant", &variant.display().to_string()]);
    says(&err, "is set twice");
}

#[test]
fn a_whole_number_sets_a_float_and_a_long_text_is_refused_everywhere() {
    let tmp = Scratch::new("param-kinds");
    let pack = tmp.pack(
        "q",
        "[pack]\nname = \"q\"\nrequires = [\"tower\"]\n\
         [param.ratio]\ndefault = 0.5\nmin = 0.0\nmax = 2.0\n[param.word]\ndefault = \"a\"\n\
         [param.free]\ndefault = 0.5\n",
        &[],
    );
    let packs = format!("tower,{pack}");
    let variant = tmp.write(
        "v.toml",
        format!("name = \"v\"\npacks = [\"tower\", \"{pack}\"]\n[params.q]\nratio = 1\n"),
    );
    assert!(
        run(&["play", "--variant", &variant.display().to_string()])
            .status
            .success()
    );
    assert!(
        run(&["play", "--packs", &packs, "--param", "q.ratio=1"])
            .status
            .success()
    );
    // A float with no bounds is within a million of 0, as an integer is.
    let err = refused(&["play", "--packs", &packs, "--param", "q.free=1e7"]);
    says(
        &err,
        "is set to 10000000.0: above its greatest value, 1000000 (a number parameter",
    );
    assert!(
        run(&["play", "--packs", &packs, "--param", "q.free=-999999.5"])
            .status
            .success()
    );
    let long = "w".repeat(1001);
    let err = refused(&[
        "play",
        "--packs",
        &packs,
        "--param",
        &format!("q.word={long}"),
    ]);
    says(
        &err,
        "a text parameter is at most 1000 characters, and this one has 1001",
    );
    assert!(
        err.len() < 2000,
        "the value is cut short in the message: {err}"
    );
}

/// `towerlab check` of `pack` with `extra` added to its manifest: it must
/// fail; what it says.
fn checked_with(pack: &TowerPack, extra: &str) -> String {
    let manifest = std::path::Path::new(&pack.path).join("pack.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}\n{extra}")).unwrap();
    let out = run(&["check", &pack.path]);
    let all = format!("{}{}", stdout(&out), common::stderr(&out));
    assert_ne!(out.status.code(), Some(0), "{all}");
    all
}

#[test]
fn check_plays_each_number_parameter_at_the_ends_a_variant_may_set() {
    // Floors per seat from a parameter with no bounds: at 1000000 the
    // supply is past the 1000 floors a hook may give.
    let pack = TowerPack::new(
        "lavish",
        "fn seat(seat, players, supply) { supply.regular = param(\"floors\"); supply }\n",
    );
    let manifest = std::path::Path::new(&pack.path).join("pack.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let all = checked_with(&pack, "[param.floors]\ndefault = 5\nmin = 0\n");
    says(&all, "parameter `floors` of pack");
    says(
        &all,
        "set to 1000000 (its greatest value, which a variant may set) breaks the rules",
    );
    says(&all, "declare `min` and `max` the rules can take");
    assert!(!all.contains("set to 0 ("), "its least value plays: {all}");
    // Bounded, it checks clean.
    std::fs::write(
        &manifest,
        format!("{text}\n[param.floors]\ndefault = 5\nmin = 0\nmax = 30\n"),
    )
    .unwrap();
    let out = run(&["check", &pack.path]);
    let all = format!("{}{}", stdout(&out), common::stderr(&out));
    assert!(!all.contains("breaks the rules"), "{all}");
}

#[test]
fn check_blames_a_parameter_only_for_a_failure_that_depends_on_it() {
    // The hook throws at the 20th turn whatever The Tower's ransom costs:
    // the failure is the pack's, told once, and no parameter's.
    let pack = TowerPack::new(
        "late",
        "fn on_turn_end(event) {\n    if state(\"turns\") >= 19 { throw \"too late\"; }\n    \
         set_state(\"turns\", state(\"turns\") + 1)\n}\n",
    );
    let all = checked_with(
        &pack,
        "[state.turns]\nscope = \"game\"\nmin = 0\nmax = 1000\n",
    );
    says(&all, "too late");
    assert!(!all.contains("breaks the rules"), "{all}");
    assert!(!all.contains("ransom_cost"), "{all}");
}

#[test]
fn a_pack_listed_twice_is_refused_alike_by_a_flag_a_variant_and_the_form() {
    let want = "pack `tower` is listed twice: a list holds a pack once";
    says(&refused(&["play", "--packs", "tower,tower"]), want);
    let tmp = Scratch::new("listed-twice");
    let variant = tmp.write("v.toml", "name = \"v\"\npacks = [\"tower\", \"tower\"]\n");
    says(
        &refused(&["play", "--variant", &variant.display().to_string()]),
        want,
    );
    let addr = server(std::time::Duration::from_secs(60));
    let body = json!({"packs": ["tower", "tower"], "seats": ["random", "random"]});
    says(
        &refused_by_server(addr, "POST", "/api/games", &body.to_string(), 400),
        want,
    );
}

#[test]
fn a_setting_given_twice_in_the_form_is_refused_as_in_a_file() {
    let addr = server(std::time::Duration::from_secs(60));
    for body in [
        r#"{"seats": ["random", "random"], "params": {"tower": {"ransom_cost": 1, "ransom_cost": 2}}}"#,
        r#"{"seats": ["random", "random"], "params": {"tower": {"ransom_cost": 1}, "tower": {"ransom_cost": 2}}}"#,
    ] {
        let m = refused_by_server(addr, "POST", "/api/games", body, 400);
        says(&m, "is given twice: set it once");
    }
}
