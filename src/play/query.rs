//! Questions about rules outside a game: what a tower of given floors captures
//! on a given board (for `towerlab range`, for authors and tests), and the
//! range of a tower of a game, as pictures mark it.

use anyhow::Result;

use crate::kernel::Game;
use crate::kernel::capture::capturable;
use crate::kernel::diag::{Source, bad_input};
use crate::kernel::geometry::Pos;
use crate::kernel::tiles::SegmentKind;
use crate::kernel::tiles::TileSet;
use crate::kernel::{
    Asking, Board, FloorKind, Holds, MAX_PLAYERS, Meeple, MeepleOn, MeepleSpot, Rules, StackView,
    Table, TowerView,
};
use crate::rules::Ruleset;

/// The most rows and columns of a board file, and how far from the tower a
/// range may reach for `range` to show it (see docs/packs.md).
pub const MAX_SIDE: usize = 100;

/// The most floors of a tower asked about (`range --floors`, a picture's
/// tower): more than any game's supply, well within what a pack's hooks
/// may read of a stack.
pub const MAX_STACK: usize = 64;

fn too_big(what: &str) -> String {
    format!("more than {MAX_SIDE} {what}: a board file is at most {MAX_SIDE} by {MAX_SIDE}")
}

/// The cells of a board file that hold tiles, relative to the tower.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardMap {
    pub tiles: Vec<(i32, i32)>,
}

impl BoardMap {
    /// Parse a board file: lines of `#` (a tile), `.` (no tile) and exactly one
    /// `T` (the tower's tile); the first line is the northernmost row.
    pub fn parse(src: &Source) -> Result<BoardMap> {
        let mut cells = Vec::new();
        let mut tower = None;
        let mut offset = 0;
        let lines: Vec<&str> = src.text.split_inclusive('\n').collect();
        let rows = lines.iter().filter(|l| !l.trim().is_empty()).count();
        let rows = i32::try_from(rows.min(MAX_SIDE + 1)).unwrap_or(i32::MAX);
        let mut row = 0;
        for line in &lines {
            let body = line.trim_end_matches(['\n', '\r']);
            if body.trim().is_empty() {
                offset += line.len();
                continue;
            }
            if row >= MAX_SIDE as i32 {
                return Err(src.error_at(offset..offset + 1, too_big("rows")));
            }
            let y = rows - 1 - row;
            for (x, (i, c)) in body.char_indices().enumerate() {
                if x >= MAX_SIDE {
                    return Err(src.error_at(offset + i..offset + i + 1, too_big("columns")));
                }
                match c {
                    '#' => cells.push((x as i32, y)),
                    '.' | ' ' => {}
                    'T' => {
                        if tower.is_some() {
                            return Err(src.error_at(
                                offset + i..offset + i + 1,
                                "a second `T`: a board file has exactly one tower",
                            ));
                        }
                        tower = Some((x as i32, y));
                        cells.push((x as i32, y));
                    }
                    other => {
                        return Err(src.error_at(
                            offset + i..offset + i + 1,
                            format!(
                                "`{other}` is not `#` (tile), `.` (no tile) or `T` (the tower)"
                            ),
                        ));
                    }
                }
            }
            offset += line.len();
            row += 1;
        }
        let (tx, ty) =
            tower.ok_or_else(|| src.error_at(0..0, "no `T`: mark the tower's tile with `T`"))?;
        Ok(BoardMap {
            tiles: cells.into_iter().map(|(x, y)| (x - tx, y - ty)).collect(),
        })
    }
}

/// A board holding a tile on each given cell (tiles need not match: only
/// their presence matters to a range).
fn board_with(tiles: &TileSet, cells: impl IntoIterator<Item = (i32, i32)>) -> Board {
    let mut board = Board::new();
    let kind = &tiles.kinds[tiles.start];
    for (x, y) in cells {
        let p = Pos::new(x, y);
        if !board.has_tile(p) {
            board.place(tiles.start as u16, kind, p, 0, 0);
        }
    }
    board
}

/// Check that the rules let `floors` be built, bottom to top, on a foundation,
/// by some seat of six (outside a game: no scores yet).
pub fn check_stack(rules: &dyn Rules, floors: &[FloorKind]) -> Result<()> {
    if floors.len() > MAX_STACK {
        return Err(bad_input(format!(
            "a stack of {} floors: a tower asked about has at most {MAX_STACK} (no game hands out more floors than that)",
            floors.len()
        )));
    }
    let board = Board::new();
    let table = Table::bare(&board, MAX_PLAYERS);
    for (i, &k) in floors.iter().enumerate() {
        let stack = StackView {
            floors: &floors[..i],
            topped: false,
        };
        if !anyone_may_place(rules, &stack, k, &table)? {
            let names = rules.floor_kinds();
            let below: Vec<&str> = floors[..i]
                .iter()
                .map(|&f| names[f as usize].as_str())
                .collect();
            let on = if below.is_empty() {
                "a bare foundation".to_string()
            } else {
                format!("[{}]", below.join(", "))
            };
            return Err(bad_input(format!(
                "this variant's rules do not allow a `{}` floor on {on} (floor {} of the stack)",
                names[k as usize],
                i + 1
            )));
        }
    }
    Ok(())
}

/// May some seat of `table` put a floor of `kind` on `stack`? One question
/// settles it when its answer holds for every seat.
fn anyone_may_place(
    rules: &dyn Rules,
    stack: &StackView,
    kind: FloorKind,
    table: &Table,
) -> Result<bool> {
    for seat in 0..table.players() {
        // The stack stands at the origin, so a hook reading where gets
        // an answer.
        let asking = Asking {
            seat,
            owner: None,
            tower: Some(Pos::new(0, 0)),
            table,
        };
        let a = rules.may_place_floor(stack, kind, &asking)?;
        if a.yes {
            return Ok(true);
        }
        if a.holds == Holds::Tower {
            return Ok(false);
        }
    }
    Ok(false)
}

/// Every cell that a tower with `floors` (at the origin) captures from, that
/// holds a tile: on `map` when given, else on a board full of tiles. Each cell
/// is tested as if an opponent's meeple stood on a road there, through the
/// kernel's one capture question ([`capturable`]).
pub fn capture_cells(
    rules: &dyn Rules,
    tiles: &TileSet,
    floors: &[FloorKind],
    map: Option<&BoardMap>,
) -> Result<Vec<(i32, i32)>> {
    capture_cells_on(rules, tiles, floors, map, &[SegmentKind::Road])
}

/// [`capture_cells`], a cell counted when an opponent's meeple on any
/// feature of `on` there may be taken.
pub fn capture_cells_on(
    rules: &dyn Rules,
    tiles: &TileSet,
    floors: &[FloorKind],
    map: Option<&BoardMap>,
    on: &[SegmentKind],
) -> Result<Vec<(i32, i32)>> {
    check_stack(rules, floors)?;
    if on.is_empty() {
        return Ok(Vec::new());
    }
    let view = TowerView {
        pos: Pos::ORIGIN,
        floors,
        meeple: None,
    };
    let mut cells: Vec<(i32, i32)> = match map {
        Some(m) => m.tiles.clone(),
        None => {
            // A board full of tiles: one on every cell of the range.
            let mut shape = Vec::new();
            rules.capture_range(&view.stack(), &mut shape)?;
            if let Some(&(x, y)) = shape
                .iter()
                .find(|(x, y)| x.unsigned_abs().max(y.unsigned_abs()) as usize > MAX_SIDE)
            {
                return Err(bad_input(format!(
                    "the range reaches cell ({x}, {y}), more than {MAX_SIDE} cells from the \
                     tower: `range` shows ranges within {MAX_SIDE} cells"
                )));
            }
            shape.push((0, 0));
            shape
        }
    };
    cells.sort_unstable();
    cells.dedup();
    let board = board_with(tiles, cells.iter().copied());
    // A meeple on each feature of `on` on each cell, in that order.
    let meeples: Vec<Meeple> = cells
        .iter()
        .flat_map(|&(x, y)| {
            on.iter().map(move |_| Meeple {
                owner: 1,
                pos: Pos::new(x, y),
                spot: MeepleSpot::Segment(0),
            })
        })
        .collect();
    let (mut range, mut taken) = (Vec::new(), Vec::new());
    capturable(
        rules,
        &view,
        &Table::bare(&board, 2),
        &meeples,
        |i, _| MeepleOn::Feature(on[i % on.len()]),
        &mut range,
        &mut taken,
    )?;
    let mut found: Vec<(i32, i32)> = taken
        .iter()
        .map(|&i| cells[i as usize / on.len()])
        .collect();
    found.dedup();
    Ok(found)
}

/// The cells (relative to the tower) that the tower on `at` captures from,
/// as `towerlab range` computes them: on the game's board, with the tower's
/// floors. Bad input when no tower with floors stands there.
pub fn tower_range(game: &Game, at: Pos) -> Result<Vec<(i32, i32)>> {
    tower_range_on(game, at, &[SegmentKind::Road])
}

/// [`tower_range`], a cell counted when an opponent's meeple on any feature
/// of `on` there may be taken.
pub fn tower_range_on(game: &Game, at: Pos, on: &[SegmentKind]) -> Result<Vec<(i32, i32)>> {
    let tower = &game.towers()[with_floors(game, at)?];
    let map = BoardMap {
        tiles: game
            .board()
            .tiles()
            .iter()
            .map(|p| (p.pos.x - at.x, p.pos.y - at.y))
            .collect(),
    };
    capture_cells_on(game.rules(), game.tiles(), &tower.floors, Some(&map), on)
}

/// The cells (relative to the tower) holding a tile that the tower of
/// `game` at `at` reaches, as the rules give its range (`reach`), whether
/// or not they let it capture what stands there: the cells a floor's
/// preview hatches, in which a meeple a rule spares still stands in reach.
/// Bad input when no tower with floors stands there.
pub fn tower_reach(game: &Game, at: Pos) -> Result<Vec<(i32, i32)>> {
    let tower = &game.towers()[with_floors(game, at)?];
    let mut shape = Vec::new();
    game.rules()
        .capture_range(&tower.view().stack(), &mut shape)?;
    shape.retain(|&(dx, dy)| game.board().tile_at(at.offset(dx, dy)).is_some());
    shape.sort_unstable();
    shape.dedup();
    Ok(shape)
}

/// The cells of `map` (relative to the tower at its origin) that a tower
/// with `floors` reaches, as the rules give its range, whether or not they
/// let it capture there: [`tower_reach`] on a board file.
pub fn reach_cells(
    rules: &dyn Rules,
    floors: &[FloorKind],
    map: &BoardMap,
) -> Result<Vec<(i32, i32)>> {
    let view = TowerView {
        pos: Pos::ORIGIN,
        floors,
        meeple: None,
    };
    let mut shape = Vec::new();
    rules.capture_range(&view.stack(), &mut shape)?;
    shape.retain(|c| map.tiles.contains(c));
    shape.sort_unstable();
    shape.dedup();
    Ok(shape)
}

/// The index of the tower of `game` at `at`; bad input when none stands
/// there, or it has no floors (and so no range).
fn with_floors(game: &Game, at: Pos) -> Result<usize> {
    let Some(t) = game.tower_at(at) else {
        return Err(bad_input(format!(
            "no tower at {},{}: the range is drawn for a tile with a foundation",
            at.x, at.y
        )));
    };
    if game.towers()[t].floors.is_empty() {
        return Err(bad_input(format!(
            "the foundation at {},{} has no floors yet: it has no range",
            at.x, at.y
        )));
    }
    Ok(t)
}

/// The towers of the game that have floors, for an error that names a cell
/// without one: "towers with floors: 2,-1 (regular, black), 0,3 (regular)",
/// tallest first.
pub fn towers_listed(game: &Game, set: &Ruleset) -> String {
    let mut towers: Vec<_> = game
        .towers()
        .iter()
        .filter(|t| !t.floors.is_empty())
        .collect();
    if towers.is_empty() {
        return "the game has no tower with floors at this turn".to_string();
    }
    towers.sort_by_key(|t| std::cmp::Reverse(t.floors.len()));
    let names: Vec<String> = towers
        .iter()
        .map(|t| {
            let floors: Vec<&str> = t
                .floors
                .iter()
                .map(|&k| {
                    set.floors()
                        .get(k as usize)
                        .map_or("?", |d| d.name.as_str())
                })
                .collect();
            format!("{},{} ({})", t.pos.x, t.pos.y, floors.join(", "))
        })
        .collect();
    format!("towers with floors, bottom to top: {}", names.join("; "))
}
