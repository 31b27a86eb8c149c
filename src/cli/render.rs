//! `towerlab render`: a board as SVG, from a game log or a board file.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;

use super::args::RulesArgs;
use super::numbers;
use super::output::write_reported;
use crate::kernel::diag::{Source, bad_input};
use crate::play::query::{self, BoardMap};
use crate::rules::{Home, LoadOptions};
use crate::views::render;
use crate::views::scene;

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// A game log written by `--log` (JSON Lines): draw one of its games.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "floors"])]
    pub log: Option<PathBuf>,
    /// The game of the log to draw (its `game` index).
    #[arg(long, default_value_t = 0, value_parser = numbers::index, allow_negative_numbers = true)]
    pub game: u64,
    /// Draw the state after this turn [default: the end, after final scoring;
    /// a turn past the end is the end].
    #[arg(long, value_parser = numbers::turn, allow_negative_numbers = true)]
    pub turn: Option<u32>,
    /// A board file (as for `range`): plain tiles, the tower on `T` at 0,0.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "turn"])]
    pub board: Option<PathBuf>,
    /// With --board: the tower's floors, bottom to top, comma-separated.
    #[arg(
        long,
        value_name = "K1,K2,…",
        value_delimiter = ',',
        requires = "board"
    )]
    pub floors: Vec<String>,
    // With --board: the rules that compute the range (default: tower). With
    // --log of `compare`: which variant's game to draw.
    #[command(flatten)]
    pub rules: RulesArgs,
    // With --log: what the hooks of the replayed game may spend.
    #[command(flatten)]
    pub budget: super::args::BudgetArgs,
    /// Mark the capture range of the tower on this cell [default with
    /// --board and --floors: the tower, 0,0].
    #[arg(long, value_name = "X,Y", value_parser = parse_cell, allow_hyphen_values = true)]
    pub range: Option<(i32, i32)>,
    /// Write the SVG to FILE [default: stdout].
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `X,Y` as two integers.
fn parse_cell(text: &str) -> std::result::Result<(i32, i32), String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    match parts[..] {
        [x, y] => match (x.parse(), y.parse()) {
            (Ok(x), Ok(y)) => Ok((x, y)),
            _ => Err(format!("`{text}` is not two integers X,Y")),
        },
        _ => Err(format!("`{text}` is not a cell X,Y (e.g. 2,-1)")),
    }
}

pub fn run(home: &Home, load: &LoadOptions, args: &RenderArgs) -> Result<()> {
    let range = args
        .range
        .map(|(x, y)| crate::kernel::geometry::Pos::new(x, y));
    let svg = match (&args.log, &args.board) {
        (Some(log), _) => {
            let packs = match (&args.rules.variant, &args.rules.packs) {
                (None, None) => None,
                _ => Some(args.rules.load(home, load)?.pack_names().clone()),
            };
            crate::play::replay::state_at(
                home,
                load,
                log,
                args.game,
                args.turn,
                packs.as_deref(),
                |game, set| {
                    if let Some(at) = range {
                        query::tower_range(game, at).map_err(|e| {
                            bad_input(format!("{e:#}; {}", query::towers_listed(game, set)))
                        })?;
                    }
                    let turn = args
                        .turn
                        .map_or("the end".to_string(), |t| format!("turn {t}"));
                    let options = scene::SceneOptions {
                        range,
                        title: Some(format!("game {} at {turn}", args.game)),
                        notes: vec![log.display().to_string()],
                        ..Default::default()
                    };
                    let picture = scene::game_scene(game, set, &options);
                    Ok(render::board_svg(
                        &picture,
                        set.tiles(),
                        &scene::palette(set),
                    ))
                },
            )?
        }
        (None, Some(board)) => {
            let set = args.rules.load(home, load)?;
            let map = BoardMap::parse(&Source::read(board)?)?;
            let floors = args
                .floors
                .iter()
                .map(|f| set.floor_kind(f.trim()))
                .collect::<Result<Vec<_>>>()?;
            let options = scene::SceneOptions {
                range: range
                    .or((!floors.is_empty()).then_some(crate::kernel::geometry::Pos::ORIGIN)),
                notes: vec![board.display().to_string()],
                ..Default::default()
            };
            let picture = scene::board_scene(&map, &set, &floors, &options)?;
            render::board_svg(&picture, set.tiles(), &scene::palette(&set))
        }
        (None, None) => {
            return Err(bad_input(
                "render draws a game or a board: give --log FILE (a log written by play, simulate or compare with --log) or --board FILE (a board file, as for range)",
            ));
        }
    };
    match &args.output {
        Some(path) => write_reported(path, &svg)?,
        None => outp!("{svg}"),
    }
    Ok(())
}
