//! The Rhai sandbox, through the real binary: every attack a hostile pack can
//! make ends quickly with exit code 2 and a message naming the pack, the hook,
//! the file and a line; scripts get no modules, no `eval`, no clock, and
//! `print`/`debug` go nowhere. Odd arithmetic is a clean error, never a crash.
//!
//! Each test writes its packs into a fresh folder under the system's temporary
//! folder and removes it afterwards. The wall time of each stopped run is
//! printed (`cargo test -- --nocapture` shows it).

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::common::{Scratch, towerlab};

/// How long a stopped run may take: the sandbox stops a hook within about a
/// second of its own CPU time; the rest is margin for a loaded two-core
/// machine, where that second can take several of wall time. The runaways
/// these tests stop would otherwise run for hours.
const QUICK: Duration = Duration::from_secs(20);

/// A pack in a fresh temporary folder: `pack.toml` (the pack `name`, script
/// `evil.rhai`) and the script. Removed on drop.
struct TempPack {
    dir: PathBuf,
    script: String,
    _folder: Scratch,
}

impl TempPack {
    fn new(test: &str, name: &str, script: &str) -> TempPack {
        let folder = Scratch::new(&format!("sandbox-{test}-{name}"));
        let manifest = format!("[pack]\nname = \"{name}\"\nscript = \"evil.rhai\"\n");
        let dir = folder.pack(name, &manifest, &[("evil.rhai", script)]);
        TempPack {
            dir: PathBuf::from(dir),
            script: script.to_string(),
            _folder: folder,
        }
    }

    /// The pack's reference on the command line (its folder).
    fn reference(&self) -> String {
        self.dir.display().to_string()
    }
}

/// Run the binary with `args` (no home from the environment), timing it.
fn run_timed(args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let out = towerlab()
        .args(args)
        .env_remove("TOWERLAB_HOME")
        .output()
        .expect("the towerlab binary runs");
    (out, start.elapsed())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The lines (1-based, inclusive) of `fn NAME(` … its closing `}` at the
/// start of a line, in `script`.
fn lines_of(script: &str, name: &str) -> RangeInclusive<usize> {
    let lines: Vec<&str> = script.lines().collect();
    let first = lines
        .iter()
        .position(|l| l.starts_with(&format!("fn {name}(")))
        .unwrap_or_else(|| panic!("no `fn {name}(` in the test script"));
    let last = (first..lines.len())
        .find(|&i| lines[i] == "}")
        .unwrap_or_else(|| panic!("`fn {name}` has no closing `}}` in the test script"));
    first + 1..=last + 1
}

/// The `LINE:COL` after `file:` in `message`.
fn line_col(message: &str, file: &str) -> Option<(usize, usize)> {
    let rest = &message[message.find(&format!("{file}:"))? + file.len() + 1..];
    let mut parts = rest.splitn(3, ':');
    let line = parts.next()?.parse().ok()?;
    let col = parts.next()?.parse().ok()?;
    parts.next()?;
    Some((line, col))
}

/// What an attack must produce.
struct Expect<'a> {
    /// The hook the message names (`None` when the script is refused as it
    /// loads, before any hook runs).
    hook: Option<&'a str>,
    /// Functions of the script within which the reported line must lie.
    within: &'a [&'a str],
    /// Any one of these must appear in the message.
    says: &'a [&'a str],
}

/// Run `args`, in which `{packs}` stands for the packs' folders joined by
/// commas after `tower`; the run must be refused (exit 2, nothing on stdout)
/// in under [`QUICK`], with a message naming one of the packs, the hook, and
/// `evil.rhai:LINE:COL` with LINE inside one of the `within` functions of
/// that pack's script. Returns the message.
fn stopped(test: &str, packs: &[TempPack], args: &[&str], expect: Expect) -> String {
    let list = std::iter::once("tower".to_string())
        .chain(packs.iter().map(TempPack::reference))
        .collect::<Vec<_>>()
        .join(",");
    let args: Vec<String> = args.iter().map(|a| a.replace("{packs}", &list)).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (out, took) = run_timed(&args);
    let err = text(&out.stderr);
    eprintln!("{test}: stopped in {:.3} s", took.as_secs_f64());
    assert_eq!(
        out.status.code(),
        Some(2),
        "{test}: should exit 2 (took {took:?}); stderr:\n{err}"
    );
    assert!(
        out.stdout.is_empty(),
        "{test}: printed to stdout:\n{}",
        text(&out.stdout)
    );
    assert!(took < QUICK, "{test}: took {took:?}; stderr:\n{err}");
    let pack = packs
        .iter()
        .find(|p| err.contains(&format!("pack `{}`", p.reference())))
        .unwrap_or_else(|| panic!("{test}: no pack named in:\n{err}"));
    if let Some(hook) = expect.hook {
        assert!(
            err.contains(&format!("hook `{hook}`")),
            "{test}: hook `{hook}` not named in:\n{err}"
        );
    }
    let file = format!("{}", pack.dir.join("evil.rhai").display());
    let (line, col) =
        line_col(&err, &file).unwrap_or_else(|| panic!("{test}: no `{file}:LINE:COL:` in:\n{err}"));
    assert!(col >= 1, "{test}: column {col} in:\n{err}");
    assert!(
        expect
            .within
            .iter()
            .any(|f| lines_of(&pack.script, f).contains(&line)),
        "{test}: line {line} is not inside {:?} of the script; stderr:\n{err}",
        expect.within
    );
    assert!(
        expect.says.iter().any(|s| err.contains(s)),
        "{test}: none of {:?} in:\n{err}",
        expect.says
    );
    err
}

/// How a runaway loop is reported: a million operations normally come first,
/// but on a loaded machine the time limit may.
const RUNAWAY: &[&str] = &["Too many operations", "Took more than 1 s of CPU time"];

/// `towerlab range` with The Tower, then the packs, for a one-floor tower:
/// asks `may_place_floor`, `reach` and `range` (and `may_capture` if defined).
const RANGE: &[&str] = &["range", "--packs", "{packs}", "--floors", "regular"];

/// One pack whose `range` hook misbehaves, run through `towerlab range`.
fn range_attack(test: &str, script: &str, says: &[&str]) -> String {
    let packs = [TempPack::new(test, "evil", script)];
    stopped(
        test,
        &packs,
        RANGE,
        Expect {
            hook: Some("range"),
            within: &["range"],
            says,
        },
    )
}

#[test]
fn infinite_loop_is_stopped() {
    let script = "// Never returns.\nfn range(tower, reach) {\n    loop {}\n}\n";
    range_attack("loop", script, RUNAWAY);
}

#[test]
fn infinite_loop_in_setup_stops_a_simulation() {
    let script = "// Never returns.\nfn setup(players, foundations) {\n    let n = 0;\n    while true {\n        n += 1;\n    }\n    #{}\n}\n";
    let packs = [TempPack::new("setup-loop", "evil", script)];
    stopped(
        "setup-loop",
        &packs,
        &["simulate", "--packs", "{packs}", "--games", "3"],
        Expect {
            hook: Some("setup"),
            within: &["setup"],
            says: RUNAWAY,
        },
    );
}

#[test]
fn runaway_recursion_stops_at_the_call_depth_limit() {
    let script = "// Recursion without end.\nfn deeper(n) {\n    deeper(n + 1)\n}\n\nfn range(tower, reach) {\n    deeper(0)\n}\n";
    let packs = [TempPack::new("recursion", "evil", script)];
    stopped(
        "recursion",
        &packs,
        RANGE,
        Expect {
            hook: Some("range"),
            within: &["range", "deeper"],
            says: &["Stack overflow"],
        },
    );
}

#[test]
fn string_doubling_stops_at_the_string_limit() {
    let script = "// Doubles a string for ever.\nfn range(tower, reach) {\n    let s = \"ab\";\n    loop {\n        s += s;\n    }\n}\n";
    range_attack("string-doubling", script, &["Length of string too large"]);
}

#[test]
fn array_doubling_stops_at_the_array_limit() {
    let script = "// Doubles an array for ever.\nfn range(tower, reach) {\n    let a = [0, 0];\n    loop {\n        a += a;\n    }\n}\n";
    range_attack("array-doubling", script, &["Size of array/BLOB too large"]);
}

#[test]
fn padding_an_array_to_a_huge_size_is_refused() {
    let script = "// Asks for 100 million elements at once.\nfn range(tower, reach) {\n    let a = [];\n    a.pad(100000000, 0);\n    a\n}\n";
    range_attack("pad-array", script, &["Size of array/BLOB too large"]);
}

#[test]
fn padding_a_string_to_a_huge_size_is_refused() {
    let script = "// Asks for a 100-million-character string at once.\nfn range(tower, reach) {\n    let s = \"\";\n    s.pad(100000000, \"x\");\n    []\n}\n";
    range_attack("pad-string", script, &["Length of string too large"]);
}

#[test]
fn a_huge_map_stops_at_the_map_limit() {
    // Rhai does not check a map's size when a key is added by assignment;
    // the sandbox does, when the map is named again.
    let script = "// Adds 100,000 keys one by one.\nfn range(tower, reach) {\n    let m = #{};\n    for i in 0..100000 {\n        m[`k${i}`] = i;\n    }\n    []\n}\n";
    range_attack("huge-map", script, &["Size of object map too large"]);
}

#[test]
fn a_map_of_large_arrays_stops_at_the_memory_limit() {
    let script = "// 200,000 copies of a 9,000-element array, under new keys.\nfn range(tower, reach) {\n    let big = [];\n    big.pad(9000, 0);\n    let m = #{};\n    for i in 0..200000 {\n        m[`k${i}`] = big;\n    }\n    []\n}\n";
    range_attack("map-of-arrays", script, &["Used more than 32 MB of memory"]);
}

#[test]
fn arrays_stored_in_array_slots_stop_at_the_memory_limit() {
    // Storing into a slot checks only the value stored, not the whole array:
    // 9,000 slots of 9,000 elements each would be 81 million elements.
    let script = "// Fills every slot of an array with a copy of a large array.\nfn range(tower, reach) {\n    let big = [];\n    big.pad(9000, 0);\n    let a = [];\n    a.pad(9000, 0);\n    for i in 0..9000 {\n        a[i] = big;\n    }\n    []\n}\n";
    range_attack("array-slots", script, &["Used more than 32 MB of memory"]);
}

#[test]
fn closures_cannot_capture_so_they_hold_no_copies() {
    // Rhai is built without closures: an anonymous function sees none of the
    // caller's variables, so it can hold no copies, form no reference cycle
    // and build no chain of captured closures.
    let script = "// Keeps a copy of an array in a closure, and calls it.\nfn range(tower, reach) {\n    let copy = [1];\n    let keep = [];\n    keep.push(|| copy);\n    keep[0].call()\n}\n";
    range_attack("closures", script, &["Variable not found: copy"]);
}

#[test]
fn currying_without_end_is_stopped() {
    // Curried arguments are not counted in any size limit; each `curry`
    // copies the ones before.
    let script = "// Curries a large array again and again.\nfn range(tower, reach) {\n    let big = [];\n    big.pad(9000, 0);\n    let f = Fn(\"range\");\n    loop {\n        f = f.curry(big);\n    }\n}\n";
    range_attack(
        "curry",
        script,
        &[
            "Used more than 32 MB of memory",
            "Took more than 1 s of CPU time",
        ],
    );
}

#[test]
fn copying_a_large_array_in_a_loop_stops_at_the_operation_limit() {
    // Each copy is one operation of Rhai's, charged by the array's size:
    // the operation limit comes long before the time limit.
    let script = "// Copies a 9,999-element array a million times.\nfn range(tower, reach) {\n    let big = [];\n    big.pad(9999, 0);\n    loop {\n        let copy = big;\n    }\n}\n";
    range_attack("copying", script, &["Too many operations"]);
}

#[test]
fn padding_in_a_loop_stops_at_the_operation_limit() {
    // Each `pad` makes 9,999 values in one operation, charged by them.
    let script = "// Pads a new array again and again.\nfn range(tower, reach) {\n    loop {\n        let a = [];\n        a.pad(9999, 0);\n    }\n}\n";
    range_attack("padding", script, &["Too many operations"]);
}

#[test]
fn a_loop_of_bulk_natives_ends_within_its_limits() {
    // One `cells_within` walks 1,521 cells by 400 steps: one operation of
    // the script, charged by its walk, and the clock looked at after it.
    let script = "// Asks for a wide diamond again and again.\nfn range(tower, reach) {\n    let steps = [];\n    for x in 0..20 {\n        for y in 0..20 {\n            steps.push([x, y]);\n        }\n    }\n    loop {\n        cells_within(steps, 2);\n    }\n}\n";
    let started = Instant::now();
    range_attack("bulk-natives", script, RUNAWAY);
    // The limits' second, and loading, not the dozens of seconds a clock
    // looked at every 256 calls would take.
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn copies_in_a_legal_hook_spend_the_game_budget_by_their_size() {
    // 200 copies of a 9,999-element array per call: each call ends well
    // within its limits, and the game's budget bounds the whole game.
    let script = "// Copies a large array 200 times a call.\nfn may_place_floor(tower, kind) {\n    let big = [];\n    big.pad(9999, 0);\n    for i in 0..200 {\n        let copy = big;\n    }\n    previous(tower, kind)\n}\n";
    let packs = [TempPack::new("copies-budget", "evil", script)];
    stopped(
        "copies-budget",
        &packs,
        &[
            "play",
            "--packs",
            "{packs}",
            "--bots",
            "greedy",
            "--hook-budget",
            "1000000",
        ],
        Expect {
            hook: Some("may_place_floor"),
            within: &["may_place_floor"],
            says: &["operations in all"],
        },
    );
}

#[test]
fn comparing_large_nested_arrays_in_a_loop_is_stopped() {
    // Each comparison counts the operations of the elements it compares, so
    // either limit may come first, depending on the machine's speed.
    let script = "// Compares 99 x 99 nested arrays again and again.\nfn range(tower, reach) {\n    let row = [];\n    row.pad(99, 0);\n    let grid = [];\n    grid.pad(99, row);\n    loop {\n        grid == grid;\n    }\n}\n";
    range_attack("comparing", script, RUNAWAY);
}

#[test]
fn calling_previous_in_a_loop_is_stopped_by_the_limits_of_the_whole_call() {
    // Each `previous` call used to get a fresh million operations.
    let below = "// A costly but finite range.\nfn range(tower, reach) {\n    let s = 0;\n    for i in 0..100000 {\n        s += i;\n    }\n    previous(tower, reach)\n}\n";
    let above = "// Asks the pack below ten thousand times.\nfn range(tower, reach) {\n    for i in 0..10000 {\n        previous(tower, reach);\n    }\n    []\n}\n";
    let packs = [
        TempPack::new("previous-loop", "below", below),
        TempPack::new("previous-loop", "above", above),
    ];
    stopped(
        "previous-loop",
        &packs,
        RANGE,
        Expect {
            hook: Some("range"),
            within: &["range"],
            says: RUNAWAY,
        },
    );
}

#[test]
fn catching_the_nesting_error_in_a_loop_is_stopped() {
    // Each level catches the error of the level above and tries again: without
    // a limit on the whole call, 10^24 hook calls.
    let script = "// Asks for its own answer, catching the error, ten times a level.\nfn reach(tower) {\n    for i in 0..10 {\n        try {\n            capture_reach(tower);\n        } catch {\n        }\n    }\n    throw \"no reach\";\n}\n";
    let packs = [TempPack::new("nesting-bomb", "evil", script)];
    stopped(
        "nesting-bomb",
        &packs,
        RANGE,
        Expect {
            hook: Some("reach"),
            within: &["reach"],
            says: &[
                "hooks call each other more than 24 deep",
                "Took more than 1 s of CPU time",
                "Too many operations",
            ],
        },
    );
}

#[test]
fn a_hook_asking_for_its_own_answer_is_stopped() {
    let script = "// `capture_cells` asks `range`, which asks `capture_cells`…\nfn range(tower, reach) {\n    capture_cells(tower)\n}\n";
    range_attack(
        "own-answer",
        script,
        &["hooks call each other more than 24 deep"],
    );
}

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
