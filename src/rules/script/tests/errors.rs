//! A hook's errors: each names its pack, hook and line; a spent game
//! budget is typed apart.

use super::*;

/// Every hook's error names the pack, the hook and its place.
#[test]
fn every_hook_error_names_its_pack_hook_and_line() {
    let hooks = [
        ("setup", "players, foundations"),
        ("may_place_floor", "tower, kind"),
        ("may_top", "tower"),
        ("reach", "tower"),
        ("may_capture", "tower, meeple, board"),
        ("ransom", "score, paid"),
        ("exchange", "a, b"),
    ];
    for (hook, params) in hooks {
        let script = format!("\n\nfn {hook}({params}) {{\n    throw \"no\";\n}}\n");
        let (_d, _, rules) = with_pack(&script);
        let err = Scene::new().ask(&rules, hook).expect_err(hook);
        let text = format!("{err:#}");
        assert!(text.contains("pack `"), "{text}");
        assert!(text.contains(&format!("hook `{hook}`")), "{text}");
        assert!(text.contains("probe.rhai:4:"), "{text}");
        assert!(crate::kernel::diag::is_bad_input(&err), "{text}");
    }
}

/// A game's spent hook budget is bad input typed apart from every other
/// error (a hint's search retries smaller on it and on nothing else); a
/// call's own operation limit is bad input of the plain kind.
#[test]
fn a_spent_game_budget_is_typed_apart_from_other_limits() {
    use crate::kernel::diag::{is_bad_input, is_budget_spent};
    let script = "fn reach(tower) {\n    let n = 0;\n    for i in 0..N { n += 1; }\n    previous(tower)\n}\n";
    let cases = [("3000", 5_000, true), ("100000000", u64::MAX, false)];
    for (loops, budget, spent) in cases {
        let load = LoadOptions::unit_tests().with_hook_budget(budget);
        let (_d, _, rules) = with_pack_in(&load, &script.replace('N', loops));
        let err = Scene::new().ask(&rules, "reach").expect_err(loops);
        let text = format!("{err:#}");
        assert!(is_bad_input(&err), "{text}");
        assert_eq!(is_budget_spent(&err), spent, "{text}");
        assert_eq!(text.contains("per-game hook budget"), spent, "{text}");
    }
}
