//! README.md runs as written: every shell block that calls `towerlab` is run,
//! in order, in one empty folder, with the built binary on `PATH` as
//! `towerlab` and no home folder, so earlier commands make the files later
//! ones read. Blocks of `cargo` commands (install, build, test) are not run.
//!
//! Long runs are shortened by the substitutions of [`SHORTER`], applied to
//! the text of every block before it runs; nothing else is changed.

use std::path::Path;
use std::process::Command;

/// Substitutions applied to README's commands so the test stays quick: the
/// number of games of the long runs (the commands are otherwise as written).
const SHORTER: &[(&str, &str)] = &[
    ("--games 2000", "--games 12"),
    ("--games 1000 --seed 1", "--games 12 --seed 1"),
];

/// The text of every ```sh block of `markdown`, in order.
pub(crate) fn shell_blocks(markdown: &str) -> Vec<String> {
    crate::common::code_blocks(markdown)
        .into_iter()
        .filter(|b| b.info == "sh")
        .map(|b| b.text)
        .collect()
}

/// Commands that run until they are stopped: `towerlab serve` (its HTTP API
/// and page are tested by tests/it/serve/ and serve_browser/).
const SERVERS: &[&str] = &["towerlab serve"];

/// The blocks this test runs: those that call `towerlab`, shortened by
/// `shorter`, without the servers.
fn runnable_with(blocks: &[String], shorter: &[(&str, &str)]) -> Vec<String> {
    blocks
        .iter()
        .filter(|b| b.lines().any(|l| l.trim_start().starts_with("towerlab ")))
        .filter(|b| !SERVERS.iter().any(|s| b.contains(s)))
        .map(|b| {
            shorter
                .iter()
                .fold(b.clone(), |text, (from, to)| text.replace(from, to))
        })
        .collect()
}

/// README's blocks as this test runs them.
fn runnable(blocks: &[String]) -> Vec<String> {
    runnable_with(blocks, SHORTER)
}

/// Run one block with `sh -ex` in `dir`; a failure shows the commands run
/// and their output.
fn run_block(block: &str, dir: &Path, bin: &Path) {
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH joins");
    let out = Command::new("sh")
        .args(["-exc", block])
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("TOWERLAB_HOME")
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "README block failed:\n{block}\n--- stderr (commands as run) ---\n{}\n--- stdout ---\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Run `blocks` in order in a new empty folder, `towerlab` on `PATH`; the
/// folder (removed on drop) and the folder they ran in.
pub(crate) fn run_in_empty_folder(blocks: &[String]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).expect("bin folder");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_towerlab"), bin.join("towerlab"))
        .expect("towerlab on PATH");
    let work = dir.path().join("work");
    std::fs::create_dir(&work).expect("work folder");
    for block in blocks {
        run_block(block, &work, &bin);
    }
    (dir, work)
}

#[test]
fn every_towerlab_command_of_the_readme_runs_as_written_in_an_empty_folder() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let blocks = runnable(&shell_blocks(&readme));
    let commands: usize = blocks
        .iter()
        .map(|b| {
            b.lines()
                .filter(|l| l.trim_start().starts_with("towerlab "))
                .count()
        })
        .sum();
    // The first run, the tour's five commands and the house rule's two.
    assert!(commands >= 8, "README's towerlab commands were not found");
    let (_dir, _work) = run_in_empty_folder(&blocks);
}

#[test]
fn the_substitutions_each_shorten_a_command_of_the_readme() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let blocks = shell_blocks(&readme).concat();
    for (from, _) in SHORTER {
        assert!(
            blocks.contains(from),
            "`{from}` is in no shell block of README.md: remove it from SHORTER"
        );
    }
}

/// The guide's worked example of `debug`, `--trace` and `--fires`
/// (docs/how-to/debug-a-pack.md) runs as written, in an empty folder, and
/// its trace holds the call the guide shows.
/// The page with the debugging example.
const DEBUG_GUIDE: &str = "docs/how-to/debug-a-pack.md";

#[test]
fn the_pack_guide_s_debugging_example_runs_as_written() {
    let guide = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(DEBUG_GUIDE))
        .expect(DEBUG_GUIDE);
    let section = guide
        .split("\n## Debugging a pack")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the section");
    let blocks = runnable(&shell_blocks(section));
    assert_eq!(blocks.len(), 2, "the example's two blocks");
    let (_dir, work) = run_in_empty_folder(&blocks);
    let trace = std::fs::read_to_string(work.join("trace.txt")).expect("the trace");
    let shown = crate::common::code_blocks(section)
        .into_iter()
        .find(|b| b.info == "text")
        .expect("the call shown");
    let mut lines = shown.text.lines();
    let heading = lines.next().expect("a heading");
    let (_, heading) = heading.split_once(' ').expect("a numbered call");
    let expected: Vec<&str> = lines.collect();
    let found = trace.match_indices(heading).any(|(at, _)| {
        let call: Vec<&str> = trace[at..].lines().skip(1).take(expected.len()).collect();
        call == expected
    });
    assert!(
        found,
        "the call {DEBUG_GUIDE} shows is not in the trace:\n{trace}"
    );
}

/// docs/events.md's tutorial — a pack, its rule, its scenario, `test` and
/// `compare` — runs as written in an empty folder (the comparison on fewer
/// games).
#[test]
fn the_event_rule_tutorial_runs_as_written() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/events.md"))
        .expect("docs/events.md");
    let section = doc
        .split("\n## Tutorial")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the tutorial");
    let blocks: Vec<String> = shell_blocks(section)
        .into_iter()
        .map(|b| b.replace("--games 200", "--games 4"))
        .collect();
    assert_eq!(blocks.len(), 4, "the tutorial's four blocks");
    let (_dir, work) = run_in_empty_folder(&blocks);
    assert!(work.join("toll/tests/toll.toml").exists());
}
