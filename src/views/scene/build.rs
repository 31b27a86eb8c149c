//! Scenes built: a game as it stands, or a board file with one tower, turned
//! into the plain data that `views::render` draws, with a tower's capture
//! range computed as `towerlab range` computes it, the panel's captions and
//! the ruleset's palette.

use anyhow::Result;

use crate::kernel::diag::bad_input;
use crate::kernel::geometry::Pos;
use crate::kernel::{FloorKind, Game, MeepleSpot};
use crate::play::query::{
    BoardMap, capture_cells, check_stack, reach_cells, tower_range, tower_reach,
};
use crate::play::words::Names;
use crate::rules::Ruleset;
use crate::views::scene::{
    FloorStyle, Palette, Scene, SceneFigure, SceneMeeple, ScenePlayer, SceneRange, SceneTile,
    SceneTower, TileLook,
};

/// What to show besides the board itself.
#[derive(Clone, Debug, Default)]
pub struct SceneOptions {
    /// Mark the capture range of the tower on this cell.
    pub range: Option<Pos>,
    /// The heading of the side panel [default: the ruleset's name].
    pub title: Option<String>,
    /// Lines under the heading (e.g. where the picture comes from).
    pub notes: Vec<String>,
    /// Draw at least the cells from the first corner to the second (see
    /// [`Scene::bounds`]).
    pub bounds: Option<(Pos, Pos)>,
    /// Meeples taken off the board by a capture, marked where they stood.
    pub taken: Vec<SceneMeeple>,
    /// The seats' names [default: `player N`].
    pub names: Vec<String>,
}

/// The ruleset's floor kinds, and the default seat colours.
pub fn palette(set: &Ruleset) -> Palette {
    Palette::new(
        set.floors()
            .iter()
            .map(|d| FloorStyle {
                name: d.name.clone(),
                colour: d.colour.clone(),
            })
            .collect(),
    )
}

/// The game as it stands: tiles, meeples, towers, the players, and with
/// `options.range` that tower's range (none, and a caption says why, when
/// it has none).
pub fn game_scene(game: &Game, set: &Ruleset, options: &SceneOptions) -> Scene {
    let palette = palette(set);
    let mut notes = options.notes.clone();
    let range = options.range.and_then(|at| match tower_range(game, at) {
        Ok(cells) => Some(SceneRange {
            at,
            reach: tower_reach(game, at).unwrap_or_else(|_| cells.clone()),
            cells,
        }),
        Err(e) => {
            notes.push(format!("no range: {e:#}"));
            None
        }
    });
    let mut captions = vec![
        packs_caption(set),
        format!(
            "after turn {} · {} tiles left to draw",
            game.stats().turns,
            game.deck_left()
        ),
    ];
    captions.extend(notes);
    if let Some(r) = &range
        && let Some(t) = game.tower_at(r.at)
    {
        captions.push(format!(
            "range of the tower at {},{} ({}): {} cells",
            r.at.x,
            r.at.y,
            palette.floor_names(&game.towers()[t].floors, ", "),
            r.cells.len()
        ));
        captions.extend(spared_caption(r));
    }
    let names = Names::new(options.names.clone());
    captions.extend(
        figures(game)
            .iter()
            .map(|f| format!("the {} stands at {},{}", f.name, f.pos.x, f.pos.y)),
    );
    if set.floors().iter().any(|f| f.table) {
        captions.push(format!(
            "the table holds: {}",
            table_words(game.table_floors(), &palette)
        ));
    }
    captions.extend(game.towers().iter().filter(|t| t.blocked).map(|t| {
        format!(
            "blocked by a rule (red bar): the tower at {},{}",
            t.pos.x, t.pos.y
        )
    }));
    captions.extend(options.taken.iter().map(|t| {
        format!(
            "taken by a capture: {}'s meeple at {},{}",
            names.name(t.owner as usize),
            t.pos.x,
            t.pos.y
        )
    }));
    Scene {
        title: options.title.clone().unwrap_or_else(|| set.name().clone()),
        captions,
        tiles: game
            .board()
            .tiles()
            .iter()
            .map(|t| SceneTile {
                pos: t.pos,
                look: TileLook::Kind(t.kind),
                rot: t.rot,
            })
            .collect(),
        meeples: segment_meeples(game),
        towers: towers(game),
        players: Some(players(game, &names)),
        range,
        taken: options.taken.clone(),
        figures: figures(game),
        bounds: options.bounds,
    }
}

/// Floors held, as "3 stone, 1 black" ("no floors" for none).
fn table_words(floors: &[u32], palette: &Palette) -> String {
    let held: Vec<String> = floors
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(k, n)| format!("{n} {}", palette.floor_name(k as FloorKind)))
        .collect();
    match held.is_empty() {
        true => "no floors".into(),
        false => held.join(", "),
    }
}

/// The rules' neutral figures standing on tiles.
fn figures(game: &Game) -> Vec<SceneFigure> {
    game.figures()
        .map(|(name, pos)| SceneFigure {
            name: name.rsplit_once('.').map_or(name, |(_, n)| n).to_string(),
            pos,
        })
        .collect()
}

fn packs_caption(set: &Ruleset) -> String {
    format!("packs: {}", set.pack_names().join(" + "))
}

/// The meeples standing on segments of placed tiles.
fn segment_meeples(game: &Game) -> Vec<SceneMeeple> {
    game.meeples()
        .iter()
        .filter(|m| matches!(m.spot, MeepleSpot::Segment(_)) && game.board().has_tile(m.pos))
        .map(|m| SceneMeeple {
            owner: m.owner,
            pos: m.pos,
            spot: m.spot,
        })
        .collect()
}

/// The towers with floors or a meeple on top.
fn towers(game: &Game) -> Vec<SceneTower> {
    let top_owner = |pos: Pos| {
        game.meeples()
            .iter()
            .find(|m| m.pos == pos && m.spot == MeepleSpot::Tower)
            .map(|m| m.owner)
    };
    game.towers()
        .iter()
        .map(|t| SceneTower {
            pos: t.pos,
            floors: t.floors.clone(),
            top: top_owner(t.pos),
            blocked: t.blocked,
        })
        .filter(|t| (!t.floors.is_empty() || t.top.is_some()) && game.board().has_tile(t.pos))
        .collect()
}

/// Each seat's score, supplies and the prisoners it holds.
fn players(game: &Game, names: &Names) -> Vec<ScenePlayer> {
    let n = game.players().len();
    game.players()
        .iter()
        .enumerate()
        .map(|(p, player)| ScenePlayer {
            name: names.name(p),
            score: player.score,
            meeples: player.meeples as u32,
            floors: player.floors.clone(),
            prisoners: (0..n)
                .map(|o| (o, game.prisoners(p, o)))
                .filter(|&(_, c)| c > 0)
                .collect(),
        })
        .collect()
}

/// What the dotted cells of a range are, when there are any: "reaches 2
/// more cells (dotted), where the rules let it take nothing" ("2 cells"
/// when none is in range).
fn spared_caption(r: &SceneRange) -> Option<String> {
    let n = r.spared().count();
    (n > 0).then(|| {
        format!(
            "reaches {n}{} cell{} (dotted), where the rules let it take nothing",
            if r.cells.is_empty() { "" } else { " more" },
            if n == 1 { "" } else { "s" }
        )
    })
}

/// A board file: plain tiles, the tower on `T` (at 0,0) with `floors`, and
/// with `options.range` (which must be 0,0) its range on that board, as
/// `towerlab range --board` computes it.
pub fn board_scene(
    map: &BoardMap,
    set: &Ruleset,
    floors: &[FloorKind],
    options: &SceneOptions,
) -> Result<Scene> {
    let rules = set.rules();
    check_stack(rules.as_ref(), floors)?;
    let range = match options.range {
        None => None,
        Some(at) if at != Pos::ORIGIN => {
            return Err(bad_input(format!(
                "no tower at {},{}: a board file's tower `T` is at 0,0 and every other cell is relative to it",
                at.x, at.y
            )));
        }
        Some(_) if floors.is_empty() => {
            return Err(bad_input(
                "the tower has no floors, so it has no range: give --floors K1,K2,…",
            ));
        }
        Some(at) => Some(SceneRange {
            at,
            cells: capture_cells(rules.as_ref(), set.tiles(), floors, Some(map))?,
            reach: reach_cells(rules.as_ref(), floors, map)?,
        }),
    };
    let palette = palette(set);
    let mut captions = vec![
        packs_caption(set),
        format!(
            "tower at 0,0: {}",
            if floors.is_empty() {
                "no floors".to_string()
            } else {
                format!("{} (bottom to top)", palette.floor_names(floors, ", "))
            }
        ),
    ];
    if let Some(r) = &range {
        captions.push(format!("{} cells in range", r.cells.len()));
        captions.extend(spared_caption(r));
    }
    captions.extend(options.notes.iter().cloned());
    let mut tiles: Vec<SceneTile> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    for &(x, y) in &map.tiles {
        let pos = Pos::new(x, y);
        if !seen.insert(pos) {
            continue;
        }
        let look = if pos == Pos::ORIGIN {
            TileLook::Foundation
        } else {
            TileLook::Plain
        };
        tiles.push(SceneTile { pos, look, rot: 0 });
    }
    let towers = (!floors.is_empty())
        .then(|| SceneTower {
            pos: Pos::ORIGIN,
            floors: floors.to_vec(),
            top: None,
            blocked: false,
        })
        .into_iter()
        .collect();
    Ok(Scene {
        title: options.title.clone().unwrap_or_else(|| set.name().clone()),
        captions,
        tiles,
        meeples: Vec::new(),
        towers,
        players: None,
        range,
        taken: Vec::new(),
        figures: Vec::new(),
        // The frame always holds the tower's cell.
        bounds: Some((Pos::ORIGIN, Pos::ORIGIN)),
    })
}
