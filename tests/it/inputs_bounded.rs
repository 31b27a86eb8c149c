//! Every input is bounded before it is parsed: `merge` reads partials under
//! the input limit, forged speed fields are refused with the field named, a
//! log naming a pack twice in `pack_files` is bad input, a record that is
//! not an object is refused before it is built, and replay keeps a bounded
//! number of compiled rulesets whatever the log embeds.

use std::path::Path;

use serde_json::Value;

use crate::common::{run, script_pack, stderr, temp_dir};

/// Run the binary with `args` under an address-space limit of `kib` KiB
/// (`ulimit -v`); its output.
pub fn limited(kib: u64, args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("TOWERLAB_HOME")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_towerlab"))
        .args(args)
        .output()
        .expect("sh runs")
}

/// `args` exit 2 saying each of `says`.
fn refused_saying(out: &std::process::Output, says: &[&str]) {
    let text = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    for s in says {
        assert!(text.contains(s), "should say `{s}`: {text}");
    }
}

/// Two shards of a small run, as files in `dir`.
pub fn shards(dir: &Path) -> [String; 2] {
    [0, 1].map(|k| {
        let out = run(&[
            "simulate",
            "--games",
            "4",
            "--shard",
            &format!("{k}/2"),
            "--format",
            "partial",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let path = dir.join(format!("p{k}.json"));
        std::fs::write(&path, &out.stdout).unwrap();
        path.display().to_string()
    })
}

#[test]
fn merge_reads_partials_under_the_input_limit() {
    let dir = temp_dir("merge-zero");
    let [_, p1] = shards(dir.path());
    let started = std::time::Instant::now();
    let out = limited(1 << 20, &["merge", "/dev/zero", &p1]);
    refused_saying(&out, &["/dev/zero", "larger than 64 MB"]);
    assert!(started.elapsed().as_secs() < 30);
}

#[test]
fn forged_speed_fields_are_refused_with_the_field_named() {
    let dir = temp_dir("merge-forged");
    let [p0, p1] = shards(dir.path());
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&p0).unwrap()).unwrap();
    let forged = dir.path().join("forged.json");
    for (field, value) in [
        ("seconds", "-1"),
        ("seconds", "-0.5"),
        ("threads", "18446744073709551615"),
        ("threads", "0"),
        ("threads", "257"),
    ] {
        let mut p = original.clone();
        p[field] = serde_json::from_str(value).unwrap();
        std::fs::write(&forged, p.to_string()).unwrap();
        let out = run(&["merge", forged.to_str().unwrap(), &p1]);
        refused_saying(&out, &[&format!("field `{field}`")]);
    }
    // The real ones merge.
    let out = run(&["merge", &p0, &p1]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A log of one game played with a pack from a folder (so the log carries
/// its files), and the pack's name as the log records it.
fn embedded_log(dir: &Path, script: &str) -> (String, String) {
    let pack = script_pack(dir, "mine", script);
    let log = dir.join("one.jsonl");
    let packs = format!("tower,{}", pack.display());
    let out = run(&[
        "play",
        "--packs",
        &packs,
        "--seed",
        "5",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    (
        std::fs::read_to_string(&log).unwrap(),
        pack.display().to_string(),
    )
}

#[test]
fn a_pack_listed_twice_in_pack_files_is_bad_input() {
    let dir = temp_dir("pack-twice");
    let script = "// one copy\nfn reach(tower) { previous(tower) }\n";
    let (log, _) = embedded_log(dir.path(), script);
    let mut lines: Vec<String> = log.lines().map(String::from).collect();
    let mut start: Value = serde_json::from_str(&lines[0]).unwrap();
    let mut other = start["pack_files"][0].clone();
    other["files"]["mine.rhai"] = "// another copy\nfn reach(tower) { 0 }\n".into();
    start["pack_files"].as_array_mut().unwrap().push(other);
    lines[0] = start.to_string();
    let path = dir.path().join("twice.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let path = path.to_str().unwrap();
    for args in [
        vec!["replay", path],
        vec!["render", "--log", path, "--output", "/dev/null"],
    ] {
        refused_saying(&run(&args), &["pack_files", "twice", "twice.jsonl:1:"]);
    }
}

#[test]
fn a_record_that_is_not_an_object_is_refused_before_it_is_built() {
    let dir = temp_dir("array-line");
    let path = dir.path().join("array.jsonl");
    // 50 MB of one JSON array on one line.
    let mut text = String::with_capacity(50 << 20);
    text.push('[');
    while text.len() < 50 << 20 {
        text.push_str("[0,1,2],");
    }
    text.push_str("0]\n");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    for args in [
        vec!["replay", path],
        vec!["render", "--log", path, "--output", "/dev/null"],
    ] {
        let out = limited(1 << 20, &args);
        refused_saying(&out, &["array.jsonl:1:1", "a log record is an object"]);
    }
}

/// Games of replay's test log, each with a pack of its own.
const DISTINCT_PACKS: usize = 300;

#[test]
fn replay_memory_stays_bounded_with_a_pack_per_game() {
    let dir = temp_dir("many-packs");
    let script = "// version 0\nfn reach(tower) { previous(tower) }\n";
    let (log, _) = embedded_log(dir.path(), script);
    let mut many = String::new();
    for i in 0..DISTINCT_PACKS {
        many.push_str(
            &log.replace("// version 0", &format!("// version {i}"))
                .replace("{\"game\":0,", &format!("{{\"game\":{i},")),
        );
    }
    let path = dir.path().join("many.jsonl");
    std::fs::write(&path, many).unwrap();
    // Within 1 GiB of address space (the command's thread reserves its
    // 256 MB stack of it): the rulesets replay keeps are a few, not 300.
    let out = limited(1 << 20, &["replay", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        crate::common::stdout(&out).contains(&format!("{DISTINCT_PACKS} games")),
        "{}",
        crate::common::stdout(&out)
    );
}
