//! Shared helpers: the shipped tile sets, tile lookup by name, and the path of
//! the real binary.

#![allow(dead_code)]

use std::path::PathBuf;

use towerlab::tiles::TileSet;

/// The repository's `rules/` folder.
pub fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules")
}

/// The repository as a towerlab home (rules/ and variants/).
pub fn home() -> towerlab::packs::Home {
    towerlab::packs::Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
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
