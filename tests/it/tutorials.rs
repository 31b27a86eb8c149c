//! The guide's tutorials and how-to pages run as written: every shell block
//! of a page (those that write the pack's files with it) is run, in order,
//! in one empty folder, as README's are (`readme.rs`), with its long runs
//! shortened; then what the page says the commands made is checked.

use std::path::{Path, PathBuf};

use super::readme::{run_in_empty_folder, shell_blocks};

/// Substitutions that shorten the guide's long runs (the commands are
/// otherwise as written); each must shorten some command of the pages.
const SHORTER: &[(&str, &str)] = &[
    ("--games 2000", "--games 12"),
    ("--games 400 --seed 1 --html", "--games 6 --seed 1 --html"),
    (
        "--games 200 --precision captures=0.5 --max-games 4000",
        "--games 10 --precision captures=0.5 --max-games 20",
    ),
    (
        "--games 500 --seed 1 --html sweep",
        "--games 6 --seed 1 --html sweep",
    ),
    ("--games 100000 --shard", "--games 40 --shard"),
];

/// A page of docs/, read.
fn page(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Run every shell block of the page `name`, shortened, in an empty
/// folder: the folder (removed on drop) and where the commands ran.
fn run_page(name: &str) -> (tempfile::TempDir, PathBuf) {
    let blocks: Vec<String> = shell_blocks(&page(name))
        .into_iter()
        .map(|b| {
            SHORTER
                .iter()
                .fold(b, |text, (from, to)| text.replace(from, to))
        })
        .collect();
    let commands = blocks
        .iter()
        .flat_map(|b| b.lines())
        .filter(|l| l.trim_start().starts_with("towerlab "))
        .count();
    assert!(commands > 0, "{name} has no towerlab commands");
    run_in_empty_folder(&blocks)
}

#[test]
fn your_first_house_rule_runs_as_written_and_its_trace_shows_the_pack_answering() {
    let (_dir, work) = run_page("tutorials/first-house-rule.md");
    let trace = std::fs::read_to_string(work.join("trace.txt")).expect("the trace");
    assert!(
        trace.contains("ransom, answered by pack `./leader-ransom`"),
        "{trace}"
    );
}

#[test]
fn your_first_fan_expansion_runs_as_written_and_shows_the_range_it_prints() {
    let doc = page("tutorials/fan-expansion.md");
    let (_dir, work) = run_page("tutorials/fan-expansion.md");
    assert!(work.join("red-keep-tiles.svg").exists());
    assert!(work.join("keep.svg").exists());
    let shown = crate::common::code_blocks(&doc)
        .into_iter()
        .find(|b| b.info == "text")
        .expect("the range shown");
    let out = crate::common::towerlab()
        .args([
            "range",
            "--packs",
            "tower,./red-keep",
            "--floors",
            "regular,red",
        ])
        .current_dir(&work)
        .env_remove("TOWERLAB_HOME")
        .output()
        .expect("towerlab runs");
    let out = crate::common::stdout(&out);
    assert!(
        out.contains(shown.text.trim()),
        "the range the page shows is not what `range` prints:\n{out}"
    );
}

#[test]
fn comparing_two_variants_runs_as_written() {
    let (_dir, work) = run_page("tutorials/comparing-variants.md");
    assert!(work.join("ladder.html").exists());
    assert!(work.join("games.csv").exists());
}

#[test]
fn the_how_to_pages_run_as_written() {
    for name in ["how-to/scenario-tests.md", "how-to/large-runs.md"] {
        let (_dir, _work) = run_page(name);
    }
}

#[test]
fn the_substitutions_each_shorten_a_command_of_the_guide() {
    let pages = [
        "tutorials/first-house-rule.md",
        "tutorials/fan-expansion.md",
        "tutorials/comparing-variants.md",
        "how-to/large-runs.md",
    ]
    .map(|p| shell_blocks(&page(p)).concat())
    .concat();
    for (from, _) in SHORTER {
        assert!(
            pages.contains(from),
            "`{from}` is in no shell block of the guide: remove it from SHORTER"
        );
    }
}
