//! The authoring tools and the host around the new hooks: bad input for
//! each new hook, `check`'s problems and dead rules, `list`, `info`,
//! `tiles`, per-floor-kind metrics, and caching by what a hook read.

use towerlab::play::bots::BotKind;
use towerlab::play::sim;
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common::{Scratch, TowerPack, fails, home, stderr, stdout, succeeds};
use crate::examples::{example, games, ruleset};

// ---- bad input for the new hooks -----------------------------------------

fn simulate_fails(script: &str) -> String {
    let dir = TowerPack::new("bad", script);
    let packs = dir.packs();
    fails(2, &["simulate", "--packs", &packs, "--games", "20"])
}

#[test]
fn each_new_hook_returning_the_wrong_type_is_a_clear_error() {
    for (script, hook, expected) in [
        (
            "fn seat(seat, players, supply) { 3 }",
            "seat",
            "a map from floor kind",
        ),
        (
            "fn captured(meeple) { true }",
            "captured",
            "\"prisoner\", \"home\" or \"gone\"",
        ),
        ("fn exchange(a, b) { 1 }", "exchange", "a bool"),
        ("fn end(towers) { 5 }", "end", "an array of #{ player"),
        (
            "fn end(towers) { [#{ player: 0 }] }",
            "end",
            "an array of #{ player",
        ),
    ] {
        let err = simulate_fails(script);
        assert!(err.contains(&format!("hook `{hook}`")), "{script}: {err}");
        assert!(err.contains(expected), "{script}: {err}");
    }
}

#[test]
fn an_end_hook_making_a_score_negative_is_a_clear_error() {
    let err =
        simulate_fails("fn end(towers) { [#{ player: 1, points: -1000, feature: \"fine\" }] }");
    assert!(err.contains("`fine`"), "{err}");
    assert!(err.contains("never goes below 0"), "{err}");
}

#[test]
fn an_unknown_context_field_is_an_error_with_the_field_list() {
    let err = simulate_fails("fn may_capture(tower, meeple, board) { game().scroes.len() > 0 }");
    assert!(err.contains("scroes"), "{err}");
    assert!(err.contains("scores, players, current"), "{err}");
    let err = simulate_fails("fn may_capture(tower, meeple, board) { meeple.feature.knd == 1 }");
    assert!(err.contains("kind, tiles, pennants"), "{err}");
    // game() in a hook cached per floor stack.
    let err = simulate_fails("fn reach(tower) { if game().turn > 3 { 1 } else { 0 } }");
    assert!(
        err.contains("`game()` is not known in hook `reach`"),
        "{err}"
    );
    // In the hooks of who may build, the fields are listed too.
    let err = simulate_fails("fn may_top(tower) { game().actr == 0 }");
    assert!(err.contains("actr"), "{err}");
    assert!(err.contains("captor, actor, prisoners"), "{err}");
    let err = simulate_fails("fn may_place_floor(tower, kind) { tower.ownr == 0 }");
    assert!(err.contains("ownr"), "{err}");
    assert!(err.contains("x, y, meeple_owner"), "{err}");
}

// ---- check ------------------------------------------------------------------

#[test]
fn check_reports_a_misspelt_hook_and_dead_rules_at_once() {
    let dir = Scratch::new("dead");
    let pack = dir.pack(
        "dead",
        "[pack]\nname = \"dead\"\nrequires = [\"tower\"]\nscript = \"dead.rhai\"\n\n\
         [[floor]]\nname = \"green\"\ncolour = \"#00aa00\"\ndescription = \"Never placeable.\"\n",
        &[(
            "dead.rhai",
            "fn setup(players, foundations) { let s = previous(players, foundations); s.green = 2; s }\n\
             fn may_place_floor(tower, kind) { kind != \"green\" && previous(tower, kind) }\n\
             // `City` is not what meeples stand on (`city` is): nothing is ever taken.\n\
             fn may_capture(tower, meeple, board) { meeple.on == \"City\" }\n\
             fn rnage(tower, reach) { [] }\n",
        )],
    );
    let out = crate::common::run(&["check", &pack, "--games", "10"]);
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert!(
        text.contains("problem: ") && text.contains("`rnage` is not a hook, did you mean `range`?"),
        "{text}"
    );
    // With its place; and the commands that play say so too, on stderr,
    // while they play on (the function is never called).
    assert!(text.contains("dead.rhai:5:1: function `rnage`"), "{text}");
    let out = crate::common::run(&[
        "simulate",
        "--packs",
        &format!("tower,{pack}"),
        "--games",
        "1",
    ]);
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    let warned = crate::common::stderr(&out);
    assert!(
        warned.contains("warning: pack `") && warned.contains("dead.rhai:5:1: function `rnage` is not a hook, did you mean `range`? (it is never called)"),
        "{warned}"
    );
    assert!(
        text.contains("floor kind `green` was never placeable in 10 test games"),
        "{text}"
    );
    assert!(
        text.contains("hook `may_capture` never allowed a capture"),
        "{text}"
    );
}

/// A rule written for a case that never arises changes nothing, and
/// `check` says so; a rule that applies says how often.
#[test]
fn check_says_which_rules_never_changed_an_answer() {
    let dir = TowerPack::new(
        "idle",
        "// No tower grows past 12 floors: this never applies.\n\
         fn may_place_floor(tower, kind) { tower.height < 12 && previous(tower, kind) }\n\
         fn ransom(score, paid) { if previous(score, paid) == () { () } else { 1 } }\n",
    );
    let pack = dir.path.as_str();
    let text = stdout(&succeeds(&["check", pack, "--games", "8"]));
    let idle = format!("pack `{pack}`, hook `may_place_floor` changed no answer in 8 test games");
    assert!(text.contains(&idle), "{text}");
    assert!(
        text.contains(&format!("pack `{pack}`, hook `ransom`: changed ")),
        "{text}"
    );
    assert!(
        text.contains("pack `tower`, hook `may_place_floor`: changed "),
        "{text}"
    );
    // The Tower's `reach` states the hook's default: a note, not a warning
    // that reads as a fault of the shipped rules.
    assert!(
        text.contains("pack `tower`, hook `reach`: answered as the hook's default would"),
        "{text}"
    );
    assert!(!text.contains("warning: pack `tower`"), "{text}");
}

// ---- list and info ----------------------------------------------------------

#[test]
fn list_names_every_variant_and_pack_on_one_line_each() {
    let out = stdout(&succeeds(&["list"]));
    for name in [
        "variant tower:",
        "variant black-tower-no-gaps:",
        "pack tower:",
        "pack house/no-gaps:",
    ] {
        assert_eq!(
            out.lines().filter(|l| l.starts_with(name)).count(),
            1,
            "{name} in\n{out}"
        );
    }
}

#[test]
fn info_shows_kinds_parameters_tiles_and_what_each_hook_wraps() {
    let out = stdout(&succeeds(&["info", "black-tower"]));
    assert!(out.contains("floor kind black (#26262b)"), "{out}");
    assert!(
        out.contains("parameter ransom_cost (integer from 0 to 1000000, default 3"),
        "{out}"
    );
    assert!(out.contains("tiles: "), "{out}");
    assert!(
        out.contains("hook range(tower, reach): wraps tower"),
        "{out}"
    );
    let pack = example("underdog-floors");
    let out = stdout(&succeeds(&["info", pack.to_str().unwrap()]));
    assert!(
        out.contains("parameter extra (integer from 0 to 10, default 1)"),
        "{out}"
    );
    assert!(
        out.contains("hook seat(seat, players, supply): wraps the default"),
        "{out}"
    );
    assert!(out.contains("requires: tower"), "{out}");
}

#[test]
fn a_meeples_feature_is_what_it_stands_on_with_its_meeples_counted() {
    // Always true when `meeple.feature` is right, so the games are The Tower's.
    let dir = TowerPack::new(
        "bad",
        "fn may_capture(tower, meeple, board) {\n\
         let f = meeple.feature;\n\
         if meeple.on == \"tower\" { return f == (); }\n\
         f.kind == meeple.on && f.meeples[meeple.owner] >= 1 && f.tiles >= 1 && f.open != f.complete\n\
         && game().captor == game().current\n\
         }\n",
    );
    let checked = dir.ruleset();
    let plain =
        Ruleset::from_packs(&home(), &LoadOptions::default(), &["tower".to_string()]).unwrap();
    let (a, b) = (checked.rules(), plain.rules());
    let bots = [BotKind::RANDOM, BotKind::RANDOM];
    let mut captures = 0;
    for seed in 0..20 {
        let x = sim::play(&checked, a.as_ref(), &bots, seed, false).unwrap();
        let y = sim::play(&plain, b.as_ref(), &bots, seed, false).unwrap();
        assert_eq!(x.scores(), y.scores(), "seed {seed}");
        assert_eq!(x.stats(), y.stats(), "seed {seed}");
        captures += x.stats().captures;
    }
    assert!(captures > 0);
}

// ---- per-floor-kind metrics -------------------------------------------------

#[test]
fn simulate_by_kind_shows_a_new_packs_floor_kinds_and_leaves_other_output_alone() {
    let packs = format!("tower,{}", example("red-floor").display());
    let base = [
        "simulate", "--packs", &packs, "--games", "30", "--format", "json",
    ];
    let plain: serde_json::Value = serde_json::from_str(&stdout(&succeeds(&base))).unwrap();
    assert!(plain.get("by_kind").is_none());
    let mut args = base.to_vec();
    args.push("--by-kind");
    let with: serde_json::Value = serde_json::from_str(&stdout(&succeeds(&args))).unwrap();
    assert_eq!(
        plain["metrics"], with["metrics"],
        "the other metrics are unchanged"
    );
    let names: Vec<&str> = with["by_kind"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    for name in ["floors.red", "captures.top.red", "towers.top.regular"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let red = &with["by_kind"][1];
    assert_eq!(red["name"], "floors.red");
    assert!(
        red["mean"].as_f64().unwrap() > 0.0,
        "red floors were placed"
    );
}

#[test]
fn compare_by_kind_lists_every_variants_kinds_with_paired_differences() {
    let red = format!("tower,{}", example("red-floor").display());
    let base = [
        "compare", "tower", &red, "--games", "30", "--format", "json",
    ];
    let plain: serde_json::Value = serde_json::from_str(&stdout(&succeeds(&base))).unwrap();
    assert!(plain.get("by_kind").is_none());
    let mut args = base.to_vec();
    args.push("--by-kind");
    let with: serde_json::Value = serde_json::from_str(&stdout(&succeeds(&args))).unwrap();
    by_kind_joins_the_family(&plain, &with);
    let by_kind = with["by_kind"].as_array().unwrap();
    let metric = |name: &str| {
        by_kind
            .iter()
            .find(|m| m["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {by_kind:?}"))
    };
    let red_floors = metric("floors.red");
    assert_eq!(
        red_floors["values"][0]["mean"], 0.0,
        "the baseline has no red floors: it counts 0 of them"
    );
    let placed = red_floors["values"][1]["mean"].as_f64().unwrap();
    assert!(placed > 0.0, "red floors were placed");
    let diff = red_floors["values"][1]["diff"]["mean"].as_f64().unwrap();
    assert!((diff - placed).abs() < 1e-9, "paired against 0 red floors");
    let regular = metric("floors.regular");
    assert!(regular["values"][0]["mean"].as_f64().unwrap() > 0.0);
    let csv = stdout(&succeeds(&[
        "compare",
        "tower",
        &red,
        "--games",
        "5",
        "--format",
        "csv",
        "--by-kind",
    ]));
    assert!(csv.lines().any(|l| l.starts_with("floors.red,")), "{csv}");
}

#[test]
fn kind_counts_add_up_to_the_totals() {
    let set = ruleset(&["tower", "black-tower"], "knights-only");
    games(&set, 30, |g| {
        let s = g.stats();
        assert_eq!(s.floors_by_kind.iter().sum::<u32>(), s.floors_placed);
        assert_eq!(
            s.captures_by_top.iter().sum::<u32>(),
            s.captures + s.own_captures
        );
    });
}

// ---- tiles ------------------------------------------------------------------

#[test]
fn tiles_draws_a_packs_own_tiles_in_every_distinct_rotation() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("sheet.svg");
    succeeds(&["tiles", "tower", "--output", sheet.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&sheet).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
    assert!(svg.contains("data-tile=\"tower/F\""));
    assert!(
        !svg.contains("data-tile=\"base/"),
        "only the pack's own tiles"
    );
    // The base set names the start tile, so it draws alone, from its file.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/base/tiles.toml");
    let out = stdout(&succeeds(&["tiles", file]));
    assert!(out.contains("data-tile=\"base/L\""));
    let err = fails(2, &["tiles", "house/no-gaps"]);
    assert!(err.contains("adds no tiles"), "{err}");
}

// ---- caching by what a hook read --------------------------------------------

/// Games under `tower` and the pack `script`, by seed: scores and stats.
fn outcomes(script: &str, seeds: u64) -> Vec<(Vec<u32>, towerlab::kernel::Stats)> {
    let dir = TowerPack::new("bad", script);
    let set = dir.ruleset();
    let rules = set.rules();
    let bots = [BotKind::GREEDY, BotKind::RANDOM];
    (0..seeds)
        .map(|seed| {
            let g = sim::play(&set, rules.as_ref(), &bots, seed, false).unwrap();
            (g.scores(), g.stats().clone())
        })
        .collect()
}

#[test]
fn a_may_capture_answer_is_kept_only_when_it_read_nothing_beyond_its_key() {
    // Reads where the meeple stands: must never be served from the cache.
    let by_place = outcomes(
        "fn may_capture(tower, meeple, board) { meeple.dx == 0 && meeple.on != \"field\" }",
        12,
    );
    // The same rule, reading the board too, so never cached anyway.
    let with_board = outcomes(
        "fn may_capture(tower, meeple, board) {\n\
         (board.has_tile(0, 0) || true) && meeple.dx == 0 && meeple.on != \"field\" }",
        12,
    );
    assert_eq!(by_place, with_board);
    // Reads only what the key covers (what it stands on, whose it is): kept.
    let by_kind = outcomes(
        "fn may_capture(tower, meeple, board) { meeple.on != \"field\" && meeple.owner >= 0 }",
        12,
    );
    let by_kind_uncached = outcomes(
        "fn may_capture(tower, meeple, board) {\n\
         meeple.on != \"field\" && meeple.owner >= 0 && game().turn >= 0 }",
        12,
    );
    assert_eq!(by_kind, by_kind_uncached);
    assert_ne!(by_place, by_kind, "the rules differ, so do some games");
}

#[test]
fn check_lists_the_problems_of_every_pack_of_a_variant_at_once() {
    let dir = Scratch::new("two-packs");
    for (name, script) in [
        ("a", "fn range(tower, reach) { [[0, 0]"),
        ("b", "fn reach(tower) { tower.height +* 1 }"),
    ] {
        let manifest =
            format!("[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"s.rhai\"\n");
        dir.pack(name, &manifest, &[("s.rhai", script)]);
    }
    let variant = dir.write(
        "two.toml",
        "name = \"two\"\npacks = [\"tower\", \"./a\", \"./b\"]\n",
    );
    let out = crate::common::run(&["check", variant.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    let problems: Vec<&str> = text.lines().filter(|l| l.starts_with("problem:")).collect();
    assert_eq!(problems.len(), 2, "{text}");
    assert!(problems[0].contains("a/s.rhai:1:"), "{text}");
    assert!(problems[1].contains("b/s.rhai:1:"), "{text}");
}

#[test]
fn check_lists_every_load_problem_of_a_pack_and_of_the_packs_it_requires() {
    let dir = Scratch::new("load-problems");
    // Requirements are named as on the command line: `b` by its path.
    let b = dir.path().join("b").display().to_string();
    dir.write(
        "a/pack.toml",
        format!(
            "[pack]\nname = \"a\"\nrequires = [\"tower\", {b:?}]\nscript = \"missing.rhai\"\n\
             tiles = \"../elsewhere.toml\"\n\n[[floor]]\nname = \"bad name\"\n\n[[floor]]\n\
             name = \"green\"\n\n[[floor]]\nname = \"green\"\n"
        ),
    );
    dir.write("b/pack.toml", "[pack]\nname = \"b\"\nscript = \"b.rhai\"\n");
    dir.write("b/b.rhai", "fn reach(tower) {\n    let x = ;\n}\n");
    let a = dir.path().join("a");
    let out = crate::common::run(&["check", a.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    let problems: Vec<&str> = text.lines().filter(|l| l.starts_with("problem:")).collect();
    let manifest = a.join("pack.toml").display().to_string();
    let expected = [
        format!("{manifest}:8:8: floor kind `bad name`"),
        format!("{manifest}:14:8: floor kind `green` declared twice"),
        format!("{manifest}:4:10: script `missing.rhai` not found"),
        format!("{manifest}:5:9: tile file `../elsewhere.toml` leaves the pack's folder"),
        "b.rhai:2:13: Unexpected ';'".to_string(),
    ];
    assert_eq!(problems.len(), expected.len(), "{text}");
    for (problem, says) in problems.iter().zip(&expected) {
        assert!(
            problem.contains(says.as_str()),
            "`{problem}` should say `{says}`"
        );
    }
    assert!(
        stderr(&out).contains("5 problem(s) found"),
        "{}",
        stderr(&out)
    );
}

/// The other metrics of a comparison with `--by-kind` (`with`) keep their
/// values, intervals and raw p-values; the per-floor-kind differences join
/// their family, so an adjusted p-value can only grow.
fn by_kind_joins_the_family(plain: &serde_json::Value, with: &serde_json::Value) {
    let metrics = |c: &serde_json::Value| c["metrics"].as_array().unwrap().clone();
    for (a, b) in metrics(plain).iter().zip(&metrics(with)) {
        for (x, y) in a["values"]
            .as_array()
            .unwrap()
            .iter()
            .zip(b["values"].as_array().unwrap())
        {
            assert_eq!(
                (&x["mean"], &x["ci"]),
                (&y["mean"], &y["ci"]),
                "{}",
                a["name"]
            );
            if let (Some(dx), Some(dy)) = (x.get("diff"), y.get("diff")) {
                assert_eq!(dx["p"], dy["p"], "{}", a["name"]);
                assert!(dy["p_adjusted"].as_f64() >= dx["p_adjusted"].as_f64());
            }
        }
    }
    let family = |c: &serde_json::Value| c["verdict"]["differences"].as_u64().unwrap();
    assert!(family(with) > family(plain));
}

/// Packs that require each other go round in a circle: `info` says so (the
/// one walk of requirements, with its depth limit), `check` finds the
/// order that cannot be, and nothing hangs.
#[test]
fn packs_that_require_each_other_are_refused_not_followed_forever() {
    let dir = crate::common::temp_dir("circle");
    for (name, other) in [("ping", "pong"), ("pong", "ping")] {
        let pack = dir.path().join("rules").join(name);
        std::fs::create_dir_all(&pack).unwrap();
        std::fs::write(
            pack.join("pack.toml"),
            format!("[pack]\nname = \"{name}\"\nrequires = [\"{other}\"]\n"),
        )
        .unwrap();
    }
    let home = dir.path().to_str().unwrap();
    let err = crate::common::fails(2, &["--home", home, "info", "ping"]);
    assert!(err.contains("nest too deep"), "{err}");
    let out = crate::common::run(&["--home", home, "check", "ping"]);
    let text = format!("{}{}", stdout(&out), crate::common::stderr(&out));
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("requires pack `ping`"), "{text}");
}
