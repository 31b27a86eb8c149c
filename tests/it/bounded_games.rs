//! A game's size is bounded by what a budget can play, and every log
//! towerlab writes is one `replay` reads: a deck past the most tiles a game
//! may have and state kept per cell past the most a game's packs may keep
//! are refused, naming the file or packs and the limit; a game whose log
//! would pass the most replay reads, or a run whose log would, fails saying
//! so instead of writing a log replay refuses.

use crate::common::{Scratch, refused, write_pack};

/// A pack `name` requiring `tower` that keeps `count` variables per cell.
fn cell_pack(dir: &Scratch, name: &str, count: usize) -> String {
    let mut manifest = format!("[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\n");
    for i in 0..count {
        manifest.push_str(&format!(
            "\n[state.v{i}]\nscope = \"cell\"\nmin = 0\nmax = 9\ndescription = \"a mark\"\n"
        ));
    }
    write_pack(dir.path(), name, &manifest, &[])
        .display()
        .to_string()
}

#[test]
fn state_kept_per_cell_past_the_most_a_game_keeps_is_refused_naming_the_packs() {
    let dir = Scratch::new("place-vars");
    let a = cell_pack(&dir, "marks-a", 9);
    let b = cell_pack(&dir, "marks-b", 8);
    let packs = format!("tower,{a},{b}");
    let message = refused(&["play", "--packs", &packs, "--seed", "1"]);
    assert!(
        message.contains("17 state variables kept per tower or per cell")
            && message.contains("at most 16")
            && message.contains("marks-a/pack.toml: 9")
            && message.contains("marks-b/pack.toml: 8"),
        "{message}"
    );
    // Within the limit, the same packs play.
    let c = cell_pack(&dir, "marks-c", 7);
    let packs = format!("tower,{a},{c}");
    crate::common::succeeds(&["play", "--packs", &packs, "--seed", "1"]);
}

/// A pack adding `floors` floors from the box to the first tower at every
/// turn's end: the stack, which every `floor_added` record lists, grows
/// each turn.
fn pile(dir: &Scratch, floors: usize) -> String {
    let script = format!(
        "fn on_turn_end(event) {{\n    let t = game().towers;\n    if t.len() == 0 {{ return (); }}\n    let out = [];\n    for i in 0..{floors} {{ out.push(add_floor(t[0].x, t[0].y, \"regular\")); }}\n    out\n}}\n"
    );
    let manifest = "[pack]\nname = \"pile\"\nrequires = [\"tower\"]\nscript = \"pile.rhai\"\n";
    write_pack(dir.path(), "pile", manifest, &[("pile.rhai", &script)])
        .display()
        .to_string()
}

/// `command` with `args`, logging to `name` in `dir` under `floors`
/// floors a turn, refused: its message, and no log written.
fn logged_past_replay(command: &str, args: &[&str], floors: usize) -> String {
    let dir = Scratch::new(command);
    let packs = format!("tower,{}", pile(&dir, floors));
    let log = dir.file("game.jsonl");
    let mut all = vec![command, "--packs", &packs, "--seed", "1"];
    all.extend(args);
    all.extend(["--bots", "random,random", "--hook-budget", "1000000000"]);
    all.extend(["--log", &log]);
    let message = refused(&all);
    assert!(!std::path::Path::new(&log).exists(), "a log was written");
    message
}

#[test]
fn a_game_whose_log_would_pass_what_replay_reads_fails_saying_so() {
    let message = logged_past_replay("play", &[], 50);
    assert!(
        message.contains("its log would take") && message.contains("past the 64 MB"),
        "{message}"
    );
}

#[test]
fn a_run_whose_log_would_pass_what_replay_reads_fails_at_that_game() {
    let message = logged_past_replay("simulate", &["--games", "3", "--threads", "1"], 30);
    assert!(
        message.contains("game 2 would take the log past 64 MB, the most `replay` reads"),
        "{message}"
    );
}
