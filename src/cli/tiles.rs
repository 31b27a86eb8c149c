//! `towerlab tiles FILE|PACK|SET`: a sheet of a tile set — every tile kind with
//! its name and count, in each distinct rotation — drawn by the board
//! renderer, so an author sees the tiles they wrote.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::output::write_reported;
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
    /// List each tile's segments as text instead, numbered as meeples,
    /// logs and scenarios number them (cities, roads, fields, the cloister,
    /// the foundation), with the edges or half-edges each touches.
    #[arg(long, conflicts_with = "output")]
    pub segments: bool,
}

pub fn run(home: &Home, args: &TilesArgs) -> Result<()> {
    let source = tile_source(home, &args.target)?;
    let set = sheet_set(home, source)?;
    if args.segments {
        for kind in &set.kinds {
            out!("{}", segment_list(kind));
        }
        return Ok(());
    }
    let sheet = render::tile_sheet_svg(&set);
    match &args.output {
        Some(path) => write_reported(path, &sheet)?,
        None => outp!("{sheet}"),
    }
    Ok(())
}

/// The tile file `target` names: a file on disk, or a pack's tiles.
fn tile_source(home: &Home, target: &str) -> Result<Source> {
    if target.ends_with(".toml") {
        return Source::read(Path::new(target));
    }
    // The game's own tile sets (`base`, `tower`) by the name of their
    // folder, whether or not the pack there names them.
    let plain = !target.contains(['/', '\\', '.']);
    if plain && let Ok(set) = home.tiles(target) {
        return Ok(set);
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

/// A tile's segments, one a line under its name: `  0 city N`,
/// `  2 field NL NR EL`, `  3 cloister`, in the tile's printed orientation.
fn segment_list(kind: &crate::kernel::tiles::TileKind) -> String {
    use crate::kernel::geometry::{Dir, Half};
    let mut text = kind.name.clone();
    for (i, seg) in kind.segments.iter().enumerate() {
        let mut sides: Vec<String> = Dir::ALL
            .iter()
            .filter(|d| seg.edges & (1 << (**d as u8)) != 0)
            .map(|d| d.letter().to_string())
            .collect();
        sides.extend(
            (0..8u8)
                .filter(|h| seg.halves & (1 << h) != 0)
                .map(|h| Half::NAMES[h as usize].to_string()),
        );
        let pennant = if seg.pennant { " (pennant)" } else { "" };
        text.push_str(&format!("\n  {i} {}{pennant}", seg.kind.name()));
        if !sides.is_empty() {
            text.push(' ');
            text.push_str(&sides.join(" "));
        }
    }
    text
}
