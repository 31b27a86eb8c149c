//! Shared helpers: the shipped tile sets, tile lookup by name, and the path of
//! the real binary.

#![allow(dead_code)]

use std::path::PathBuf;

use towerlab::kernel::tiles::TileSet;

/// A fresh folder under the system's temporary folder, named after `name`
/// and removed when dropped.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("towerlab-{name}-"))
        .tempdir()
        .expect("a temporary folder")
}

/// A pack `probe` over The Tower whose script is `script`, in a folder
/// removed on drop; the folder's path.
pub fn probe_pack(script: &str) -> (tempfile::TempDir, String) {
    let dir = temp_dir("probe");
    std::fs::write(
        dir.path().join("pack.toml"),
        "[pack]\nname = \"probe\"\nrequires = [\"tower\"]\nscript = \"probe.rhai\"\n",
    )
    .expect("the manifest");
    std::fs::write(dir.path().join("probe.rhai"), script).expect("the script");
    let path = dir.path().display().to_string();
    (dir, path)
}

/// The repository's `rules/` folder.
pub fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// The repository's `variants/` folder.
pub fn variants_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("variants")
}

/// The repository as a towerlab home (rules/ and variants/).
pub fn home() -> towerlab::rules::Home {
    towerlab::rules::Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// The base game's and The Tower's tiles, as the CLI loads them.
pub fn tiles() -> TileSet {
    towerlab::cli::load_tiles(&home()).expect("shipped tile sets load")
}

/// The index of a tile kind by `set/name`.
pub fn kind(tiles: &TileSet, name: &str) -> u16 {
    tiles.find(name).unwrap_or_else(|e| panic!("{e}")) as u16
}

/// The real `towerlab` binary.
pub fn towerlab() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_towerlab"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// Run the real binary with `args`, with no home folder taken from the
/// environment.
pub fn run(args: &[&str]) -> std::process::Output {
    towerlab()
        .args(args)
        .env_remove("TOWERLAB_HOME")
        .output()
        .expect("the towerlab binary runs")
}

pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Run a command that must succeed; its output.
pub fn succeeds(args: &[&str]) -> std::process::Output {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?} failed: {:?}\n{}",
        out.status,
        stderr(&out)
    );
    out
}

/// Run a command that must fail with exit `code`, an error message on stderr
/// and nothing on stdout. Returns the message.
pub fn fails(code: i32, args: &[&str]) -> String {
    let out = run(args);
    let err = stderr(&out);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?} should exit {code}; stderr:\n{err}"
    );
    assert!(err.contains("error"), "{args:?}: no error message: {err}");
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed to stdout:\n{}",
        stdout(&out)
    );
    err
}

/// Run a command that must be refused as bad input (exit 2). Returns the
/// message.
pub fn refused(args: &[&str]) -> String {
    fails(2, args)
}

/// The ransom `rules` ask of a player with `score` points who has paid
/// `paid` ransoms this turn, for a meeple the other seat holds, on a bare
/// 2-player table (for rules whose ransom reads no game).
pub fn ransom_of<R: towerlab::kernel::Rules + ?Sized>(
    rules: &R,
    score: u32,
    paid: u32,
) -> anyhow::Result<Option<u32>> {
    let board = towerlab::kernel::Board::new();
    let ransom = towerlab::kernel::RansomView {
        payer: 0,
        captor: 1,
        score,
        paid_this_turn: paid,
    };
    rules.ransom(&ransom, &towerlab::kernel::Table::bare(&board, 2))
}

/// A fenced code block of a Markdown file: its info string (` ```json
/// GameState ` gives `json GameState`), its text, and the line of its
/// opening fence.
pub struct CodeBlock {
    pub info: String,
    pub text: String,
    pub line: usize,
}

/// Every fenced code block of `markdown`, in order, those indented in list
/// items too (their lines as written).
pub fn code_blocks(markdown: &str) -> Vec<CodeBlock> {
    let mut blocks = Vec::new();
    let mut current: Option<CodeBlock> = None;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim().strip_prefix("```");
        match (&mut current, fence) {
            (None, Some(info)) => {
                current = Some(CodeBlock {
                    info: info.trim().to_string(),
                    text: String::new(),
                    line: i + 1,
                })
            }
            (Some(_), Some("")) => blocks.extend(current.take()),
            (Some(block), _) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}
