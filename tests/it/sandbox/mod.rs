//! The Rhai sandbox, through the real binary: every attack a hostile pack can
//! make ends quickly with exit code 2 and a message naming the pack, the hook,
//! the file and a line; scripts get no modules, no `eval`, no clock, and
//! `print`/`debug` go nowhere. Odd arithmetic is a clean error, never a crash.
//!
//! Each test writes its packs into a fresh folder under the system's temporary
//! folder and removes it afterwards. The wall time of each stopped run is
//! printed (`cargo test -- --nocapture` shows it).

mod errors;
mod limits;
mod refused;

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
