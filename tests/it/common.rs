//! Shared helpers and fixtures: the shipped tile sets, tile lookup by name,
//! the real binary and its outputs, scratch folders and the packs written
//! into them (every one a `tempfile` folder, removed on drop even when a
//! test panics); rules altered in a test ([`Altered`]).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;
use towerlab::kernel::effects::{Acted, StateVar};
use towerlab::kernel::rules::At;
use towerlab::kernel::tiles::TileSet;
use towerlab::kernel::{HookBudget, Question, Reply, Rules};
use towerlab::rules::{LoadOptions, Ruleset};

/// A fresh folder under the system's temporary folder, named after `name`
/// and removed when dropped.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("towerlab-{name}-"))
        .tempdir()
        .expect("a temporary folder")
}

/// A test's scratch folder ([`temp_dir`]), with the files it writes there.
pub struct Scratch(tempfile::TempDir);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        Scratch(temp_dir(name))
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// The path of `name` in the folder (written or not), as a command line
    /// names it.
    pub fn file(&self, name: &str) -> String {
        self.path().join(name).display().to_string()
    }

    /// Write `bytes` to `name` in the folder (creating sub-folders); its
    /// path.
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("a sub-folder");
        }
        std::fs::write(&path, bytes).expect("a scratch file");
        path
    }

    /// [`write_pack`] in the folder; the pack's folder as a command line
    /// names it.
    pub fn pack(&self, name: &str, manifest: &str, files: &[(&str, &str)]) -> String {
        write_pack(self.path(), name, manifest, files)
            .display()
            .to_string()
    }
}

/// A pack folder `dir/name`: `manifest` as its `pack.toml`, and `files`
/// (name, text) beside it; the folder.
pub fn write_pack(dir: &Path, name: &str, manifest: &str, files: &[(&str, &str)]) -> PathBuf {
    let pack = dir.join(name);
    std::fs::create_dir_all(&pack).expect("a pack folder");
    std::fs::write(pack.join("pack.toml"), manifest).expect("pack.toml");
    for (file, text) in files {
        std::fs::write(pack.join(file), text).expect("a pack file");
    }
    pack
}

/// [`write_pack`]: a pack `name` with no requirement whose script
/// `NAME.rhai` is `script`.
pub fn script_pack(dir: &Path, name: &str, script: &str) -> PathBuf {
    let manifest = format!("[pack]\nname = \"{name}\"\nscript = \"{name}.rhai\"\n");
    write_pack(dir, name, &manifest, &[(&format!("{name}.rhai"), script)])
}

/// A scratch file `name` (a log, a variant…) alone in a scratch folder,
/// written by the command under test or by [`ScratchFile::write`].
pub struct ScratchFile {
    path: String,
    _dir: Scratch,
}

impl ScratchFile {
    pub fn new(name: &str) -> ScratchFile {
        let dir = Scratch::new(name);
        ScratchFile {
            path: dir.file(name),
            _dir: dir,
        }
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn read(&self) -> String {
        std::fs::read_to_string(&self.path).expect("the scratch file was written")
    }

    pub fn write(&self, text: &str) {
        std::fs::write(&self.path, text).expect("write a scratch file");
    }
}

/// A pack `name` over The Tower (`requires = ["tower"]`) whose script
/// `NAME.rhai` is `script`, in a scratch folder of its own (beside it, room
/// for the files a test writes).
pub struct TowerPack {
    pub dir: Scratch,
    /// The pack's folder, as a command line names it.
    pub path: String,
}

impl TowerPack {
    pub fn new(name: &str, script: &str) -> TowerPack {
        let dir = Scratch::new(name);
        let manifest = format!(
            "[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"{name}.rhai\"\n"
        );
        let path = dir.pack(name, &manifest, &[(&format!("{name}.rhai"), script)]);
        TowerPack { dir, path }
    }

    /// `--packs`' value: The Tower, then this pack.
    pub fn packs(&self) -> String {
        format!("tower,{}", self.path)
    }

    /// The ruleset of The Tower then this pack.
    pub fn ruleset(&self) -> Ruleset {
        let packs = ["tower".to_string(), self.path.clone()];
        Ruleset::from_packs(&home(), &LoadOptions::default(), &packs)
            .unwrap_or_else(|e| panic!("{e:#}"))
    }
}

/// A pack `probe` over The Tower whose script is `script` ([`TowerPack`]).
pub fn probe_pack(script: &str) -> TowerPack {
    TowerPack::new("probe", script)
}

/// Copy the folder `from` (and every folder in it) to `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("the folder") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a copy");
        }
    }
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

/// Run a command that must succeed and print one JSON document.
pub fn json(args: &[&str]) -> Value {
    let text = stdout(&succeeds(args));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{args:?} printed invalid JSON ({e}):\n{text}"))
}

/// A command line's words (none of them holds a space).
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// A log's records, parsed.
pub fn log_records(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("a log line ({e}): {l}")))
        .collect()
}

/// A JSON output without what depends on the clock and the thread count,
/// at any depth.
pub fn without_timing(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        if let Some(o) = v.as_object_mut() {
            for key in ["seconds", "games_per_sec", "threads"] {
                o.remove(key);
            }
            o.values_mut().for_each(strip);
        } else if let Some(a) = v.as_array_mut() {
            a.iter_mut().for_each(strip);
        }
    }
    strip(&mut v);
    v
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

/// Two bots with the same seed and seat, asked the same decisions: `real`
/// sees the game, `blind` a copy whose undrawn tiles are in another order
/// (drawn from `shuffle`); a decision that differs fails the test. The
/// twins of every test that a bot never reads the deck's order.
pub struct Twins {
    pub real: Box<dyn towerlab::kernel::Bot>,
    pub blind: Box<dyn towerlab::kernel::Bot>,
    pub shuffle: towerlab::play::seed::Stream,
    pub decisions: usize,
    /// Decisions where the two decks would draw differently from here.
    pub differing: usize,
}

impl Twins {
    pub fn new(
        real: Box<dyn towerlab::kernel::Bot>,
        blind: Box<dyn towerlab::kernel::Bot>,
        seed: u64,
    ) -> Twins {
        Twins {
            real,
            blind,
            shuffle: towerlab::play::seed::Stream::new(seed, 99),
            decisions: 0,
            differing: 0,
        }
    }
}

/// The next few tiles a game would draw (its deck order from here).
fn next_draws(game: &towerlab::kernel::Game) -> Vec<u16> {
    let mut g = game.clone();
    (0..5).filter_map(|_| g.draw().unwrap()).collect()
}

impl towerlab::kernel::Bot for Twins {
    fn decide(
        &mut self,
        game: &towerlab::kernel::Game,
        decision: towerlab::kernel::Decision,
    ) -> anyhow::Result<usize> {
        let other = towerlab::kernel::determinize::redealt(game, &mut self.shuffle);
        if next_draws(game) != next_draws(&other) {
            self.differing += 1;
        }
        let a = self.real.decide(game, decision)?;
        let b = self.blind.decide(&other, decision)?;
        assert_eq!(
            a, b,
            "decision {} changed with the deck order",
            self.decisions
        );
        self.decisions += 1;
        Ok(a)
    }
}

/// Rules that answer as `inner` does, except where `ask` and `listens` say
/// otherwise: a test's altered rules, with no forwarding of its own.
pub struct Altered<A, L> {
    pub inner: Box<dyn Rules>,
    /// Every question, with the inner rules to forward it to.
    pub ask: A,
    /// What these rules listen to, from what the inner rules do.
    pub listens: L,
}

/// `inner` with its questions answered by `ask`, listening as it does.
pub fn asking<A>(inner: Box<dyn Rules>, ask: A) -> Altered<A, fn(u32) -> u32>
where
    A: Fn(&dyn Rules, Question) -> anyhow::Result<Reply> + Send,
{
    Altered {
        inner,
        ask,
        listens: |bits| bits,
    }
}

/// The questions `Altered` forwards as they are.
pub type Forward = fn(&dyn Rules, Question) -> anyhow::Result<Reply>;

/// `inner` answering every question, listening as `listens` says.
pub fn listening<L: Fn(u32) -> u32 + Send>(
    inner: Box<dyn Rules>,
    listens: L,
) -> Altered<Forward, L> {
    Altered {
        inner,
        ask: |inner, question| inner.ask(question),
        listens,
    }
}

impl<A, L> HookBudget for Altered<A, L> {
    fn begin_game(&self, seed: Option<u64>) {
        self.inner.begin_game(seed)
    }
    fn searching(&self, on: bool) {
        self.inner.searching(on)
    }
}

impl<A, L> Rules for Altered<A, L>
where
    A: Fn(&dyn Rules, Question) -> anyhow::Result<Reply> + Send,
    L: Fn(u32) -> u32 + Send,
{
    fn floor_kinds(&self) -> &[String] {
        self.inner.floor_kinds()
    }
    fn ask(&self, question: Question) -> anyhow::Result<Reply> {
        (self.ask)(self.inner.as_ref(), question)
    }
    fn listens(&self) -> u32 {
        (self.listens)(self.inner.listens())
    }
    fn on_event(&self, at: At, out: &mut Vec<Acted>) -> anyhow::Result<()> {
        self.inner.on_event(at, out)
    }
    fn state_vars(&self) -> &[StateVar] {
        self.inner.state_vars()
    }
}
