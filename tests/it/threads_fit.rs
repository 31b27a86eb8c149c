//! Threads within the machine: `--threads` is lowered to what the address
//! space holds, never an abort; and a pack that finishes under the per-call
//! operation and CPU limits gives the same result on any thread count, as
//! the wall clock only catches a hang.

use serde_json::Value;

use crate::common::{run, stderr, stdout, temp_dir};
use crate::inputs_bounded::limited;

#[test]
fn many_threads_under_a_4_gib_address_space_never_abort() {
    for threads in ["14", "64", "256"] {
        let out = limited(
            4 << 20,
            &[
                "simulate",
                "--games",
                "20",
                "--threads",
                threads,
                "--format",
                "json",
            ],
        );
        let code = out.status.code();
        assert!(
            code == Some(0) || code == Some(2),
            "--threads {threads}: {:?} {}",
            out.status,
            stderr(&out)
        );
        if code == Some(0) {
            let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
            let used = v["threads"].as_u64().unwrap();
            assert!((1..=64).contains(&used), "{used} threads");
        }
    }
}

/// A pack whose `reach` costs a good part of a second of CPU time, once per
/// rules instance (it reads nothing of the tower), well under the 1 s limit.
/// Its copies are charged by their size, so its games need a hook budget
/// far above the default (`--hook-budget`).
const SLOW: &str = "fn reach(tower) {\n    let a = [];\n    a.pad(9000, 1);\n    let n = 0;\n    for i in 0..2400 {\n        let b = a;\n        n += b.len();\n    }\n    if n > 0 { 1 } else { 2 }\n}\n";

#[test]
fn a_slow_but_legal_pack_gives_the_same_result_on_1_and_16_threads() {
    let dir = temp_dir("slow-pack");
    let pack = crate::common::script_pack(dir.path(), "slow", SLOW);
    let packs = format!("tower,{}", pack.display());
    let metrics = |threads: &str| -> Value {
        let out = run(&[
            "simulate",
            "--packs",
            &packs,
            "--games",
            "16",
            "--threads",
            threads,
            "--hook-budget",
            "10000000000",
            "--format",
            "json",
        ]);
        assert!(out.status.success(), "{threads} threads: {}", stderr(&out));
        let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
        v["metrics"].clone()
    };
    assert_eq!(metrics("1"), metrics("16"));
}
