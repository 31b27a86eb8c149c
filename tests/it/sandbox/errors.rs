//! Script errors: odd arithmetic and indexing are a clean error naming the
//! line, never a crash, and an error a script caught is not reported for
//! a later one.

use super::{Expect, QUICK, RANGE, TempPack, line_col, range_attack, run_timed, stopped, text};

/// A range hook computing `expr` and returning no cells.
fn odd_script(expr: &str) -> String {
    format!("// Odd input.\nfn range(tower, reach) {{\n    let x = {expr};\n    []\n}}\n")
}

#[test]
fn integer_overflow_is_a_clean_error() {
    let err = range_attack(
        "overflow",
        &odd_script("9223372036854775807 + 1"),
        &["Addition overflow"],
    );
    assert!(err.contains("evil.rhai:3:"), "{err}");
}

#[test]
fn division_by_zero_is_a_clean_error() {
    let err = range_attack("division", &odd_script("1 / 0"), &["Division by zero"]);
    assert!(err.contains("evil.rhai:3:"), "{err}");
}

#[test]
fn index_out_of_bounds_is_a_clean_error() {
    let err = range_attack("index", &odd_script("[1][5]"), &["out of bounds"]);
    assert!(err.contains("evil.rhai:3:"), "{err}");
}

#[test]
fn odd_arithmetic_and_indexing_never_crash() {
    // Each either works (exit 0) or is a clean error naming pack, hook and
    // line (exit 2) — never a panic, an abort or a signal.
    let odd = [
        "-9223372036854775807 - 2",
        "9223372036854775807 * 2",
        "(-9223372036854775807 - 1) / -1",
        "(-9223372036854775807 - 1) % -1",
        "1 % 0",
        "1 << 64",
        "1 << -1",
        "1 >> 100",
        "2 ** 100",
        "2 ** -1",
        "(-9223372036854775807 - 1).abs()",
        "-(-9223372036854775807 - 1)",
        "\"abc\"[10]",
        "\"abc\"[-10]",
        "[1, 2][-3]",
        "\"é\"[0]",
        "\"abc\".sub_string(-9223372036854775807 - 1, 9223372036854775807)",
        "[1, 2, 3].extract(9223372036854775807, 9223372036854775807)",
        "[1, 2, 3].splice(-9223372036854775807 - 1, 9223372036854775807, [])",
        "[1, 2, 3].split(-9223372036854775807 - 1)",
        "[].pad(-1, 0)",
        "\"x\".pad(9223372036854775807, \"y\")",
        "[1].pad(9223372036854775807, 0)",
        "1.0 / 0.0",
        "(0.0 / 0.0).to_int()",
        "(1e308 * 10.0).to_int()",
        "parse_int(\"z\")",
        "#{}.x.y",
        "().foo",
        "\"abc\".split(\"\")",
        "range(0, 10, 0)",
        "tower.floors[-9223372036854775807 - 1]",
        "tower.count(\"\")",
    ];
    for expr in odd {
        let script = odd_script(expr);
        let pack = TempPack::new("odd", "evil", &script);
        let list = format!("tower,{}", pack.reference());
        let (out, took) = run_timed(&["range", "--packs", &list, "--floors", "regular"]);
        let err = text(&out.stderr);
        assert!(took < QUICK, "`{expr}` took {took:?}");
        match out.status.code() {
            Some(0) => assert!(err.is_empty(), "`{expr}`: {err}"),
            Some(2) => {
                let file = format!("{}", pack.dir.join("evil.rhai").display());
                assert!(
                    err.contains(&format!("pack `{}`", pack.reference()))
                        && err.contains("hook `range`")
                        && line_col(&err, &file).is_some(),
                    "`{expr}`: {err}"
                );
            }
            other => panic!("`{expr}` crashed ({other:?}, {:?}):\n{err}", out.status),
        }
    }
}

#[test]
fn an_error_a_script_caught_is_not_reported_for_a_later_one() {
    // `range` of the upper pack catches the lower pack's error and answers;
    // `may_capture`, asked next, fails: its own error is the one reported.
    let below = "// Always fails.\nfn range(tower, reach) {\n    throw \"BELOW\";\n}\n";
    let above = "// Survives the pack below, then fails elsewhere.\nfn range(tower, reach) {\n    try {\n        previous(tower, reach);\n    } catch {\n    }\n    [[0, 0], [0, 1]]\n}\n\nfn may_capture(tower, meeple, board) {\n    throw \"LATER\";\n}\n";
    let packs = [
        TempPack::new("caught", "below", below),
        TempPack::new("caught", "above", above),
    ];
    let err = stopped(
        "caught",
        &packs,
        RANGE,
        Expect {
            hook: Some("may_capture"),
            within: &["may_capture"],
            says: &["LATER"],
        },
    );
    assert!(!err.contains("BELOW"), "{err}");
    assert!(
        err.contains(&format!("pack `{}`", packs[1].reference())),
        "{err}"
    );
}
