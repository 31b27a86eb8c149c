//! `towerlab range`: the cells a tower of given floors captures from, as
//! text, JSON or a picture.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::ValueEnum;
use rustc_hash::FxHashSet;
use serde::Serialize;

use super::args::RulesArgs;
use super::output::{plural, write_reported};
use crate::kernel::diag::Source;
use crate::play::query::{self, BoardMap};
use crate::rules::{Home, LoadOptions, Ruleset};
use crate::views::render;
use crate::views::scene;

#[derive(clap::Args, Debug)]
pub struct RangeArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The tower's floors, bottom to top, comma-separated (e.g. `regular,black`).
    #[arg(long, value_name = "K1,K2,…", value_delimiter = ',', required = true)]
    pub floors: Vec<String>,
    /// A board file: lines of `#` (tile), `.` (no tile) and one `T` (the
    /// tower's tile), northernmost row first [default: every cell holds a tile]
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// Output format (`svg`: a picture of the board and the cells in range).
    #[arg(long, value_enum, default_value_t = RangeFormat::Text)]
    pub format: RangeFormat,
    /// Write the output to FILE [default: stdout].
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeFormat {
    Text,
    Json,
    Svg,
}

#[derive(Serialize)]
struct RangeReport {
    cells: Vec<[i32; 2]>,
}

pub fn run(home: &Home, load: &LoadOptions, args: &RangeArgs) -> Result<()> {
    let set = args.rules.load(home, load)?;
    let rules = set.rules();
    let floors = args
        .floors
        .iter()
        .map(|f| set.floor_kind(f.trim()))
        .collect::<Result<Vec<_>>>()?;
    let map = match &args.board {
        Some(path) => Some(BoardMap::parse(&Source::read(path)?)?),
        None => None,
    };
    let cells = query::capture_cells(rules.as_ref(), set.tiles(), &floors, map.as_ref())?;
    let text = match args.format {
        RangeFormat::Svg => svg(&set, &floors, &cells, map)?,
        RangeFormat::Json => {
            let report = RangeReport {
                cells: cells.iter().map(|&(x, y)| [x, y]).collect(),
            };
            format!("{}\n", serde_json::to_string(&report)?)
        }
        RangeFormat::Text => format!(
            "{} with floors {} (bottom to top): {}\n{}T tower  X in range  # tile out of range  . no tile\n",
            set.name(),
            args.floors.join(", "),
            plural(cells.len(), "cell"),
            draw_range(&cells, map.as_ref())
        ),
    };
    match &args.output {
        Some(path) => write_reported(path, &text)?,
        None => outp!("{text}"),
    }
    Ok(())
}

/// The range as a picture; without a board file, every cell around the
/// range holds a tile.
fn svg(
    set: &Ruleset,
    floors: &[u8],
    cells: &[(i32, i32)],
    map: Option<BoardMap>,
) -> Result<String> {
    let map = match map {
        Some(m) => m,
        None => {
            let all = cells.iter().chain([&(0, 0)]);
            let (x0, x1) = all
                .clone()
                .fold((0, 0), |(a, b), c| (a.min(c.0), b.max(c.0)));
            let (y0, y1) = all.fold((0, 0), |(a, b), c| (a.min(c.1), b.max(c.1)));
            BoardMap {
                tiles: (y0 - 1..=y1 + 1)
                    .flat_map(|y| (x0 - 1..=x1 + 1).map(move |x| (x, y)))
                    .collect(),
            }
        }
    };
    let options = scene::SceneOptions {
        range: Some(crate::kernel::geometry::Pos::ORIGIN),
        ..Default::default()
    };
    let picture = scene::board_scene(&map, set, floors, &options)?;
    Ok(render::board_svg(
        &picture,
        set.tiles(),
        &scene::palette(set),
    ))
}

/// The board as text: `T` the tower, `X` a cell in range, `#` a tile out of
/// range, `.` no tile; north up.
fn draw_range(cells: &[(i32, i32)], map: Option<&BoardMap>) -> String {
    let tiles: Vec<(i32, i32)> = match map {
        Some(m) => m.tiles.clone(),
        None => cells.to_vec(),
    };
    let all = tiles.iter().chain(cells).chain([&(0, 0)]);
    // Sets, so that drawing is linear in the cells drawn.
    let (in_range, with_tile): (FxHashSet<_>, FxHashSet<_>) =
        (cells.iter().collect(), tiles.iter().collect());
    let (mut x0, mut x1, mut y0, mut y1) = (0, 0, 0, 0);
    for &(x, y) in all {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    let mut out = String::new();
    for y in (y0..=y1).rev() {
        for x in x0..=x1 {
            out.push(if (x, y) == (0, 0) {
                'T'
            } else if in_range.contains(&(x, y)) {
                'X'
            } else if with_tile.contains(&(x, y)) {
                '#'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}
