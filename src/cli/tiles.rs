//! `towerlab tiles FILE|PACK`: a sheet of a tile set — every tile kind with
//! its name and count, in each distinct rotation — drawn by the board
//! renderer, so an author sees the tiles they wrote.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::output::write_file;
use crate::kernel::diag::{Source, bad_input};
use crate::kernel::tiles::TileSet;
use crate::rules::Home;
use crate::views::render;

#[derive(clap::Args, Debug)]
pub struct TilesArgs {
    /// A tile file (TOML, docs/tiles.md) or a pack (name or folder) that
    /// adds tiles.
    pub target: String,
    /// Write the SVG to FILE [default: stdout].
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(home: &Home, args: &TilesArgs) -> Result<()> {
    let source = tile_source(home, &args.target)?;
    let sheet = render::tile_sheet_svg(&sheet_set(home, source)?);
    match &args.output {
        Some(path) => write_file(path, &sheet)?,
        None => outp!("{sheet}"),
    }
    Ok(())
}

/// The tile file `target` names: a file on disk, or a pack's tiles.
fn tile_source(home: &Home, target: &str) -> Result<Source> {
    if target.ends_with(".toml") && Path::new(target).is_file() {
        return Source::read(Path::new(target));
    }
    let pack = home.load_pack(target)?;
    pack.tiles.ok_or_else(|| {
        bad_input(format!(
            "pack `{target}` adds no tiles (its pack.toml names no `tiles` file)"
        ))
    })
}

/// The kinds of `source` alone. A set without a start tile is compiled after
/// the base game's (which names one), and only its own kinds are kept.
fn sheet_set(home: &Home, source: Source) -> Result<TileSet> {
    if let Ok(alone) = TileSet::from_sources(std::slice::from_ref(&source)) {
        return Ok(alone);
    }
    let base = home.base_tiles()?;
    let before = TileSet::from_sources(std::slice::from_ref(&base))?
        .kinds
        .len();
    let mut set = TileSet::from_sources(&[base, source])?;
    set.kinds.drain(..before);
    Ok(set)
}
