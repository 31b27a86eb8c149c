//! Bad input, through the real binary: malformed pack manifests, variant files,
//! scripts and board files are refused with exit code 2 and `FILE:LINE:COL`;
//! unknown names get "did you mean"; hooks answering with the wrong type are
//! named with what they returned and what was expected; `towerlab check`
//! lists every problem of a broken pack. Then property tests: the board and
//! variant parsers never panic, whatever the text.
//!
//! Here: what the checks of messages share; the tests by kind of input in
//! the modules below.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use towerlab::kernel::diag::{Source, is_bad_input};
use towerlab::play::query::BoardMap;
use towerlab::rules::manifest::{load_pack, load_variant};

use crate::common::{self, refused, run};

mod boards;
mod check;
mod files;
mod names;
mod parsers;
mod scripts;

/// A fresh temporary folder (its path, and the folder, removed on drop).
struct TempDir {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl TempDir {
    fn new(test: &str) -> TempDir {
        let dir = common::temp_dir(&format!("bad-input-{test}"));
        TempDir {
            path: dir.path().to_path_buf(),
            _dir: dir,
        }
    }

    /// Write `text` to `name` in the folder (creating sub-folders); its path.
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create a sub-folder");
        }
        std::fs::write(&path, text).expect("write a temporary file");
        path
    }

    /// A pack folder `name` with `pack.toml` and, if given, `script.rhai`;
    /// its path as a command-line reference.
    fn pack(&self, name: &str, manifest: &str, script: Option<&str>) -> String {
        self.write(&format!("{name}/pack.toml"), manifest);
        if let Some(script) = script {
            self.write(&format!("{name}/script.rhai"), script);
        }
        self.path.join(name).display().to_string()
    }
}

/// A manifest for a pack `name` whose script is `script.rhai`.
fn scripted(name: &str) -> String {
    format!("[pack]\nname = \"{name}\"\nscript = \"script.rhai\"\n")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Assert that `err` holds `needle`.
fn says(err: &str, needle: &str) {
    assert!(err.contains(needle), "expected `{needle}` in:\n{err}");
}

fn at(path: &Path, line: usize, col: usize) -> String {
    format!("{}:{line}:{col}: ", path.display())
}

/// `towerlab range` with The Tower then `pack`, for a one-floor tower.
fn range_with(pack: &str) -> String {
    refused(&[
        "range",
        "--packs",
        &format!("tower,{pack}"),
        "--floors",
        "regular",
    ])
}
