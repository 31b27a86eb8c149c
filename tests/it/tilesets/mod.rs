//! The tile-set loader (G1, G9): the shipped files load and agree with the
//! tile reference; rotations are consistent; every validation error names
//! `file:line:col` and says what is wrong; no input makes the loader panic.
//!
//! Here: the shipped files read; the tests by concern in the modules below.

use proptest::prelude::*;
use towerlab::kernel::diag::Source;
use towerlab::kernel::geometry::{Dir, Half};
use towerlab::kernel::tiles::{EdgeKind, NO_SEGMENT, SegmentKind, TileKind, TileSet};

use crate::common::{rules_dir, tiles};

mod never_panics;
mod reference;
mod validation;

fn shipped(set: &str) -> String {
    std::fs::read_to_string(rules_dir().join(set).join("tiles.toml")).expect("shipped file")
}
