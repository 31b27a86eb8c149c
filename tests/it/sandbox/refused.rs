//! What a script does not get: modules, `eval`, a clock, and output
//! (`print` and `debug` write nothing).

use super::{Expect, RANGE, TempPack, line_col, range_attack, run_timed, stopped, text};

#[test]
fn import_is_refused_when_the_pack_loads() {
    let script = "// Tries to load a module.\nfn range(tower, reach) {\n    import \"os\" as os;\n    []\n}\n";
    let packs = [TempPack::new("import", "evil", script)];
    let err = stopped(
        "import",
        &packs,
        RANGE,
        Expect {
            hook: None,
            within: &["range"],
            says: &["'import'"],
        },
    );
    // The script never runs: `import` is refused at its place.
    let file = format!("{}", packs[0].dir.join("evil.rhai").display());
    assert_eq!(line_col(&err, &file), Some((3, 5)), "{err}");
}

#[test]
fn import_outside_any_hook_is_refused_too() {
    // Top-level code never runs; an `import` there must not pass silently.
    let script = "import \"os\" as os;\n\nfn range(tower, reach) {\n    []\n}\n";
    let pack = TempPack::new("import-top", "evil", script);
    let list = format!("tower,{}", pack.reference());
    let (out, took) = run_timed(&["range", "--packs", &list, "--floors", "regular"]);
    let err = text(&out.stderr);
    eprintln!("import-top: stopped in {:.3} s", took.as_secs_f64());
    assert_eq!(out.status.code(), Some(2), "{err}");
    let file = format!("{}", pack.dir.join("evil.rhai").display());
    assert_eq!(line_col(&err, &file), Some((1, 1)), "{err}");
    assert!(err.contains("'import'"), "{err}");
}

#[test]
fn eval_is_disabled() {
    let script = "// Tries to run code from a string.\nfn range(tower, reach) {\n    eval(\"[[0, 1]]\")\n}\n";
    let packs = [TempPack::new("eval", "evil", script)];
    let err = stopped(
        "eval",
        &packs,
        RANGE,
        Expect {
            hook: None,
            within: &["range"],
            says: &["'eval'"],
        },
    );
    let file = format!("{}", packs[0].dir.join("evil.rhai").display());
    assert_eq!(line_col(&err, &file), Some((3, 5)), "{err}");
}

#[test]
fn there_is_no_clock() {
    let script = "// Tries to read the time.\nfn range(tower, reach) {\n    let now = timestamp();\n    []\n}\n";
    range_attack("clock", script, &["Function not found: timestamp"]);
}

#[test]
fn print_and_debug_write_nothing() {
    // The same range with and without printing: the output is the same, and
    // the printed words appear nowhere.
    let quiet = "// A knight's move.\nfn range(tower, reach) {\n    [[0, 0], [1, 2]]\n}\n";
    let loud = "// A knight's move, chattily.\nfn range(tower, reach) {\n    print(\"PRINTED-BY-THE-PACK\");\n    debug(\"DEBUGGED-BY-THE-PACK\");\n    [[0, 0], [1, 2]]\n}\n";
    let run = |script: &str, format: &str| {
        let pack = TempPack::new("print", "talker", script);
        let list = format!("tower,{}", pack.reference());
        let (out, _) = run_timed(&[
            "range", "--packs", &list, "--floors", "regular", "--format", format,
        ]);
        assert!(
            out.status.success(),
            "{:?}: {}",
            out.status,
            text(&out.stderr)
        );
        (text(&out.stdout), text(&out.stderr))
    };
    for format in ["json", "text"] {
        let (quiet_out, _) = run(quiet, format);
        let (loud_out, loud_err) = run(loud, format);
        for said in ["PRINTED-BY-THE-PACK", "DEBUGGED-BY-THE-PACK"] {
            assert!(!loud_out.contains(said), "stdout:\n{loud_out}");
            assert!(!loud_err.contains(said), "stderr:\n{loud_err}");
        }
        if format == "json" {
            // The whole of stdout is the one JSON document.
            assert_eq!(loud_out, quiet_out);
            let v: serde_json::Value = serde_json::from_str(&loud_out).expect("JSON");
            assert_eq!(v["cells"], serde_json::json!([[0, 0], [1, 2]]));
        } else {
            // Same drawing; only the pack's folder in the title differs.
            let body = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
            assert_eq!(body(&loud_out), body(&quiet_out));
        }
    }
}
