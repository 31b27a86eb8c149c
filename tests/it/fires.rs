//! Did the rules fire? `simulate --fires` and `compare --fires` through the
//! real binary: a pack hook that never changes an answer, one that always
//! does, a case counted by hand, the same counts on 1 and 2 threads, the
//! JSON field, the HTML section, and nothing counted without the flag.

use serde_json::Value;

use crate::common::{TowerPack, json, probe_pack, refused, stdout, succeeds, temp_dir, words};

/// (asked, changed, games_changed) of `pack`'s `hook` in a variant's fires.
fn count(fires: &Value, pack: &str, hook: &str) -> (u64, u64, u64) {
    let f = fires["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["pack"] == pack && f["hook"] == hook)
        .unwrap_or_else(|| panic!("no `{pack}`, `{hook}` in {fires}"));
    let n = |k: &str| f[k].as_u64().unwrap();
    (n("asked"), n("changed"), n("games_changed"))
}

#[test]
fn a_hook_that_never_changes_an_answer_is_flagged_and_one_that_always_does_is_counted() {
    let TowerPack {
        dir: _d,
        path: probe,
    } = probe_pack(
        "fn may_top(tower) { previous(tower) }\n\
         fn may_capture(tower, meeple, board) { false }\n",
    );
    let packs = format!("tower,{probe}");
    let args = ["simulate", "--packs", &packs, "--games", "4", "--seed", "3"];
    let run = json(&[&args[..], &["--fires", "--format", "json"]].concat());
    let fires = &run["fires"];
    assert_eq!(fires["games"], 4);
    let (asked, changed, games) = count(fires, &probe, "may_top");
    assert!(asked > 0, "may_top is asked in every game");
    assert_eq!((changed, games), (0, 0), "never");
    let (asked, changed, _) = count(fires, &probe, "may_capture");
    assert!(asked > 0, "some meeple stood in range in 4 games");
    assert_eq!(changed, asked, "always: the default allows every capture");

    let text = stdout(&succeeds(&[&args[..], &["--fires"]].concat()));
    assert!(text.contains("Did the rules fire?"), "{text}");
    assert!(
        text.contains(&format!(
            "pack `{probe}`, hook `may_top` never changed an answer the games asked in 4 games"
        )),
        "{text}"
    );
    assert!(
        !text.contains("hook `may_capture` never"),
        "a hook that changed answers is not flagged: {text}"
    );
    // The Tower's `reach` answers as the hook's default does: said so.
    assert!(
        text.contains(
            "pack `tower`, hook `reach` never changed an answer the games asked in 4 games \
             (it answers as the hook's default does: no fault)"
        ),
        "{text}"
    );
}

/// `setup` is asked once per seat and game: a rule for 3 players changes
/// every answer of 3-player games, and none of 2-player games.
#[test]
fn t1_setup_counted_by_hand() {
    let TowerPack {
        dir: _d,
        path: probe,
    } = probe_pack(
        "fn setup(players, foundations) {\n\
             let supply = previous(players, foundations);\n\
             if players == 3 { supply.regular -= 1; }\n\
             supply\n\
         }\n",
    );
    let packs = format!("tower,{probe}");
    let fires = |players: &str| {
        json(&[
            "simulate",
            "--packs",
            &packs,
            "--games",
            "2",
            "--players",
            players,
            "--fires",
            "--format",
            "json",
        ])["fires"]
            .clone()
    };
    assert_eq!(count(&fires("3"), &probe, "setup"), (6, 6, 2));
    assert_eq!(count(&fires("3"), "tower", "setup"), (6, 6, 2));
    assert_eq!(count(&fires("2"), &probe, "setup"), (4, 0, 0));
}

#[test]
fn fires_are_the_same_on_one_thread_and_on_two() {
    let fires = |threads: &str| {
        json(&[
            "compare",
            "tower",
            "black-tower-no-gaps",
            "--games",
            "12",
            "--seed",
            "9",
            "--threads",
            threads,
            "--fires",
            "--format",
            "json",
        ])["fires"]
            .clone()
    };
    let one = fires("1");
    assert_eq!(one, fires("2"));
    let variants = one.as_array().unwrap();
    assert_eq!(variants.len(), 2);
    assert_eq!(variants[1]["variant"], "black-tower-no-gaps");
    assert_eq!(variants[1]["games"], 12);
    let (asked, changed, _) = count(&variants[1], "house/no-gaps", "may_capture");
    assert!(0 < changed && changed < asked, "{}", variants[1]);
}

#[test]
fn without_fires_nothing_is_counted_and_the_json_is_as_before() {
    let sim = json(&["simulate", "--games", "2", "--format", "json"]);
    assert!(sim.get("fires").is_none());
    let compare = [
        "compare",
        "tower",
        "native:tower",
        "--games",
        "2",
        "--format",
        "json",
    ];
    let cmp = json(&compare);
    assert!(cmp.get("fires").is_none());
    let counted = json(&[&compare[..], &["--fires"]].concat());
    let native = &counted["fires"][1];
    assert_eq!(native["games"], 2);
    assert_eq!(native["hooks"], Value::Array(Vec::new()), "no packs");
    // Counting changes no game.
    assert_eq!(counted["metrics"], cmp["metrics"]);
}

#[test]
fn the_report_has_a_section_when_fires_were_counted() {
    let dir = temp_dir("fires-html");
    let page = dir.path().join("r.html");
    let page_arg = page.display().to_string();
    let base = [
        "compare",
        "tower",
        "black-tower",
        "--games",
        "2",
        "--viewer-games",
        "1",
        "--html",
        &page_arg,
    ];
    succeeds(&[&base[..], &["--fires"]].concat());
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<section id=\"fires\"><h2>Did the rules fire?</h2>"));
    assert!(
        html.contains("never changed an answer the games asked in 2 games"),
        "tower's reach"
    );
    succeeds(&base);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("id=\"fires\""));
    assert!(!html.contains("never changed an answer"));
}

#[test]
fn fires_are_not_cut_into_shards() {
    let err = refused(&["simulate", "--games", "2", "--fires", "--format", "partial"]);
    assert!(err.contains("--fires"), "{err}");
}

#[test]
fn what_a_rule_did_in_the_games_played_is_counted_apart_from_bots_search() {
    let counted = |bots: &str| {
        let run = json(&words(&format!(
            "simulate --variant tower-eye-for-an-eye --games 3 --bots {bots} --fires --format json"
        )));
        run["fires"]["hooks"].as_array().unwrap().clone()
    };
    let n = |v: &serde_json::Value| v.as_u64().unwrap();
    // Random bots ask the rules nothing: every question is the game's.
    for f in counted("random") {
        assert_eq!(n(&f["in_search"]["asked"]), 0, "{f}");
        assert_eq!(f["in_play"]["asked"], f["asked"], "{f}");
        assert_eq!(f["in_play"]["changed"], f["changed"], "{f}");
    }
    // Greedy bots look ahead: their questions are counted apart, and the
    // two sides add up to the whole.
    let greedy = counted("greedy");
    for f in &greedy {
        for key in ["asked", "changed", "unknown"] {
            assert_eq!(
                n(&f["in_play"][key]) + n(&f["in_search"][key]),
                n(&f[key]),
                "{key}: {f}"
            );
        }
    }
    assert!(greedy.iter().any(|f| n(&f["in_search"]["asked"]) > 0));
    // Eye for an eye refuses every ransom the games offered.
    let ransom = greedy
        .iter()
        .find(|f| f["pack"] == "house/eye-for-an-eye" && f["hook"] == "ransom")
        .expect("eye for an eye's ransom hook");
    assert!(n(&ransom["in_play"]["changed"]) > 0, "{ransom}");
}
