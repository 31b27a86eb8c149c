//! Every limit stops its runaway: endless loops and recursion, strings,
//! arrays and maps doubled or padded, memory filled, copies and bulk
//! natives in a loop, and hooks that call each other.

use std::time::{Duration, Instant};

use super::{Expect, RANGE, RUNAWAY, TempPack, range_attack, stopped};

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
    // Each copy is one operation of Rhai's, charged by the array's size (156
    // operations). Under a game budget of 200,000 operations the loop stops
    // after about 1,300 copies, a fraction of a second even in a test build;
    // charged as one operation, a copy would need about 66,000 copies and the
    // time limit would come first. (Under the per-call limit of a million a
    // test build's copies take about as long as the time limit allows.)
    let script = "// Copies a 9,999-element array again and again.\nfn range(tower, reach) {\n    let big = [];\n    big.pad(9999, 0);\n    loop {\n        let copy = big;\n    }\n}\n";
    charged_attack("copying", script);
}

/// `script`'s `range` hook, asked in a game whose hooks may run 200,000
/// operations, must be stopped by that budget: work charged by its size
/// reaches it in a fraction of the time limit, even in a test build.
fn charged_attack(test: &str, script: &str) {
    let packs = [TempPack::new(test, "evil", script)];
    let args = [
        "simulate", "--packs", "{packs}", "--games", "1", "--seed", "1",
    ];
    stopped(
        test,
        &packs,
        &[&args[..], &["--bots", "random", "--hook-budget", "200000"]].concat(),
        Expect {
            hook: Some("range"),
            within: &["range"],
            says: &["ran more than 200000 operations in all"],
        },
    );
}

#[test]
fn padding_in_a_loop_stops_at_the_operation_limit() {
    // Each `pad` makes 9,999 values in one operation, charged by them
    // (stopped under a game budget, as `charged_attack` says).
    let script = "// Pads a new array again and again.\nfn range(tower, reach) {\n    loop {\n        let a = [];\n        a.pad(9999, 0);\n    }\n}\n";
    charged_attack("padding", script);
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
