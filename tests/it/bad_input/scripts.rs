//! Scripts: syntax errors with their place, hooks with the wrong parameters
//! or answering with the wrong type named with what was expected, a failing
//! hook ending the game whichever bot asked, a cached hook reading what its
//! key does not cover told what it may read.

use super::*;

#[test]
fn range_returning_a_string_is_named_with_what_was_expected() {
    let tmp = Scratch::new("range-type");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        &[(
            "script.rhai",
            "fn range(tower, reach) {\n    \"north\"\n}\n",
        )],
    );
    let err = range_with(&pack);
    says(
        &err,
        &format!(
            "hook `range` of pack `{pack}` ({}) returned string `north`",
            tmp.path().join("p/script.rhai").display()
        ),
    );
    says(&err, "expected an array of [dx, dy] pairs of integers");
}

#[test]
fn setup_returning_an_array_is_named_with_what_was_expected() {
    let tmp = Scratch::new("setup-type");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        &[(
            "script.rhai",
            "fn setup(players, foundations) {\n    [1, 2]\n}\n",
        )],
    );
    let err = refused(&[
        "simulate",
        "--packs",
        &format!("tower,{pack}"),
        "--games",
        "3",
    ]);
    says(&err, &format!("hook `setup` of pack `{pack}`"));
    says(&err, "returned array `[1, 2]`");
    says(&err, "expected a map from floor kind to a count");
}

#[test]
fn may_place_floor_returning_1_is_named_with_what_was_expected() {
    let tmp = Scratch::new("place-type");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        &[(
            "script.rhai",
            "fn may_place_floor(tower, kind) {\n    1\n}\n",
        )],
    );
    let err = range_with(&pack);
    says(&err, &format!("hook `may_place_floor` of pack `{pack}`"));
    says(&err, "`1`");
    says(&err, "expected a bool (true or false)");
}

#[test]
fn script_syntax_error_points_at_line_and_column() {
    let tmp = Scratch::new("script-syntax");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        &[(
            "script.rhai",
            "// A missing value.\nfn range(tower, reach) {\n    let x = ;\n    []\n}\n",
        )],
    );
    let err = range_with(&pack);
    // `    let x = ` is 12 characters: the `;` is at column 13.
    says(&err, &format!("pack `{pack}`: "));
    says(&err, &at(&tmp.path().join("p/script.rhai"), 3, 13));
}

#[test]
fn hook_with_the_wrong_number_of_parameters_is_refused() {
    let tmp = Scratch::new("arity");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        &[(
            "script.rhai",
            "// One parameter short.\nfn range(tower) {\n    []\n}\n",
        )],
    );
    let err = range_with(&pack);
    says(&err, &at(&tmp.path().join("p/script.rhai"), 2, 1));
    says(
        &err,
        "hook `range` takes 2 parameters (tower, reach), not 1",
    );
}

/// A hook that fails ends the game with its error whichever bot asked: the
/// greedy bot, which asks `range` and `may_capture` to weigh its floors,
/// passes the error on like the game's own questions do (exit 2).
#[test]
fn a_failing_capture_hook_ends_the_game_for_every_bot() {
    let tmp = Scratch::new("capture-throws");
    let hooks = [
        (
            "may_capture",
            "fn may_capture(tower, meeple, board) {\n    throw \"NO CAPTURE TODAY\";\n}\n",
        ),
        (
            "range",
            "fn range(tower, reach) {\n    throw \"NO CAPTURE TODAY\";\n}\n",
        ),
    ];
    for (hook, script) in hooks {
        let pack = tmp.pack(hook, &scripted(hook), &[("script.rhai", script)]);
        let packs = format!("tower,{pack}");
        // Random bots meet the error when a floor they place asks it. In
        // this one greedy game, the hook fails only when the bots ask it
        // (weighing floors they then never place), so the error must come
        // through the bot.
        let runs = [("random,random", "4"), ("greedy,greedy", "1")];
        for (bots, games) in runs {
            let args = [
                "simulate", "--packs", &packs, "--bots", bots, "--games", games, "--seed", "1",
            ];
            let err = refused(&args);
            says(&err, &format!("hook `{hook}`"));
            says(&err, "NO CAPTURE TODAY");
        }
    }
}

/// The hooks cached per floor stack see only what the cache key covers (the
/// floors, whether a meeple tops them): reading whose meeple tops the tower
/// there is an error that names what they may read; `may_capture`, asked
/// afresh, reads it, and so do `may_place_floor` and `may_top`, whose
/// answers are kept under what they read.
#[test]
fn a_cached_hook_reading_the_top_meeples_owner_is_told_what_it_may_read() {
    let tmp = Scratch::new("cached-owner");
    let cached = [
        (
            "reach",
            "fn reach(tower) {\n    if tower.meeple_owner == () { 1 } else { 0 }\n}\n",
        ),
        (
            "range",
            "fn range(tower, reach) {\n    if tower.meeple_owner == () { [[0, 0]] } else { [] }\n}\n",
        ),
    ];
    for (hook, script) in cached {
        let pack = tmp.pack(hook, &scripted(hook), &[("script.rhai", script)]);
        let packs = format!("tower,{pack}");
        let err = refused(&["simulate", "--packs", &packs, "--games", "2"]);
        says(&err, &format!("hook `{hook}`"));
        says(&err, "`tower.meeple_owner` is only known in `may_capture`");
        says(
            &err,
            "may read only `tower.height`, `tower.floors`, `tower.top`, `tower.count(kind)` and `tower.has_meeple`",
        );
    }
    let readers = [
        (
            "capture",
            "fn may_capture(tower, meeple, board) {\n    tower.meeple_owner != meeple.owner && tower.x == tower.x\n}\n",
        ),
        (
            "top",
            "fn may_top(tower) {\n    tower.meeple_owner == () && previous(tower)\n}\n",
        ),
        (
            "place",
            "fn may_place_floor(tower, kind) {\n    tower.meeple_owner == () && previous(tower, kind)\n}\n",
        ),
    ];
    for (name, script) in readers {
        let pack = tmp.pack(name, &scripted(name), &[("script.rhai", script)]);
        let packs = format!("tower,{pack}");
        crate::common::succeeds(&["simulate", "--packs", &packs, "--games", "2"]);
    }
}
