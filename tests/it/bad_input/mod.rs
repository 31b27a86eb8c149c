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

use crate::common::{self, Scratch, refused, run};

mod boards;
mod check;
mod files;
mod names;
mod numbers;
mod params;
mod parsers;
mod scenarios;
mod scripts;
mod tuned;

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
