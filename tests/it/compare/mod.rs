//! `simulate`, `compare` and `replay` through the real binary: report formats,
//! results independent of the thread count, paired comparisons on the same
//! seeds, the deck order shared by every variant, logs that replay and
//! tampered logs that do not, and bad input refused with exit code 2.
//!
//! Here: running the commands and reading their reports; the tests by
//! command in the modules below.

use serde_json::Value;

use towerlab::play::seed::{DECK_STREAM, Stream};

use crate::common::{
    ScratchFile, fails, log_records, stderr, stdout, succeeds, without_timing, words,
};

mod pairs;
mod replay;
mod simulate;

/// A command line's words, then `--log` and the log's path.
fn with_log<'a>(line: &'a str, log: &'a ScratchFile) -> Vec<&'a str> {
    let mut words = words(line);
    words.extend(["--log", log.path()]);
    words
}

/// Run a command that must succeed, print nothing on stderr (no progress bar
/// when stderr is not a terminal), and return its stdout.
fn ok(args: &[&str]) -> String {
    let out = succeeds(args);
    assert!(
        out.stderr.is_empty(),
        "{args:?} wrote to stderr:\n{}",
        stderr(&out)
    );
    stdout(&out)
}

/// Run a command that must succeed and print one JSON document.
fn json(args: &[&str]) -> Value {
    let text = ok(args);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{args:?} printed invalid JSON ({e}):\n{text}"))
}

fn num(v: &Value) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("`{v}` is not a number"))
}

/// The metrics of a compare report by name: the entries of each variant.
fn metric<'v>(report: &'v Value, name: &str) -> &'v Vec<Value> {
    report["metrics"]
        .as_array()
        .expect("metrics")
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no metric `{name}`"))["values"]
        .as_array()
        .expect("values")
}

/// The names of the tiles drawn in each game of a log, in order: placed
/// (`tile`) or put aside (`discard`); with each game's seed.
fn drawn(text: &str) -> Vec<(u64, Vec<String>)> {
    let mut games: Vec<(u64, Vec<String>)> = Vec::new();
    for r in log_records(text) {
        match r["event"].as_str().unwrap() {
            "start" => games.push((r["seed"].as_u64().expect("a seed"), Vec::new())),
            "tile" | "discard" => games
                .last_mut()
                .expect("a start first")
                .1
                .push(r["tile"].as_str().unwrap().to_string()),
            _ => {}
        }
    }
    games
}
