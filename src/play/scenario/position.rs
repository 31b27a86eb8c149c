//! A scenario's position: its tiles, towers, meeples, prisoners, supplies,
//! scores and seat to act, put on a game set up by hand
//! ([`Game::arranged`]), every name and number checked where it is written.

use anyhow::Result;
use toml::Spanned;

use super::checked::{cell, number, rotation, seat};
use super::file::{At, RawScenario};
use crate::kernel::diag::{Source, did_you_mean};
use crate::kernel::geometry::Pos;
use crate::kernel::tiles::{SegmentKind, TileKind};
use crate::kernel::{
    FloorKind, Game, MAX_PLAYERS, MEEPLES_PER_PLAYER, MIN_PLAYERS, MeepleSpot, Rules,
};
use crate::play::words::segment_words;
use crate::rules::Ruleset;

/// The most tiles a scenario may leave to draw.
const MAX_TILES_LEFT: i64 = 10_000;

/// Build the position the scenario describes.
pub fn build<'a>(
    src: &Source,
    set: &'a Ruleset,
    rules: &'a dyn Rules,
    raw: &RawScenario,
) -> Result<Game<'a>> {
    let players = match &raw.players {
        Some(p) => number(src, p, MIN_PLAYERS as i64, MAX_PLAYERS as i64, "players")?,
        None => set.players(),
    };
    let left = match &raw.tiles_left {
        Some(t) => number(src, t, 0, MAX_TILES_LEFT, "tiles_left")?,
        None => 0,
    };
    let mut game = Game::arranged(set.tiles(), rules, players, left)
        .map_err(|e| src.error_at(raw.name.span(), format!("{e:#}")))?;
    for t in &raw.tiles {
        let t = t.get_ref();
        let kind = set
            .tiles()
            .find(t.tile.get_ref())
            .map_err(|e| src.error_at(t.tile.span(), format!("{e:#}")))?;
        let rot = match &t.rot {
            Some(r) => rotation(src, r)?,
            None => 0,
        };
        let pos = cell(src, &t.at)?;
        game.set_tile(kind as u16, pos, rot).map_err(|e| {
            let span = t.rot.as_ref().map_or(t.at.span(), |r| r.span());
            src.error_at(
                span,
                format!("{e:#}{}", turns_that_fit(&game, kind, pos, rot)),
            )
        })?;
    }
    for t in &raw.towers {
        let t = t.get_ref();
        let pos = cell(src, &t.at)?;
        let floors = t
            .floors
            .iter()
            .map(|f| floor_kind(src, set, f))
            .collect::<Result<Vec<_>>>()?;
        game.set_floors(pos, &floors)
            .map_err(|e| src.error_at(t.at.span(), format!("{e:#}")))?;
        if let Some(top) = &t.top {
            let seat = seat(src, top, players)?;
            game.set_meeple(seat, pos, MeepleSpot::Tower)
                .map_err(|e| src.error_at(top.span(), format!("{e:#}")))?;
        }
    }
    for m in &raw.meeples {
        let m = m.get_ref();
        let owner = seat(src, &m.owner, players)?;
        let pos = cell(src, &m.at)?;
        let spot = segment(src, &game, pos, &m.at, m.segment.as_ref(), m.on.as_ref())?;
        game.set_meeple(owner, pos, spot)
            .map_err(|e| src.error_at(m.at.span(), format!("{e:#}")))?;
    }
    for p in &raw.prisoners {
        let p = p.get_ref();
        let (captor, owner) = (
            seat(src, &p.captor, players)?,
            seat(src, &p.owner, players)?,
        );
        let count = number(src, &p.count, 0, MEEPLES_PER_PLAYER.into(), "count")?;
        game.set_prisoners(captor, owner, count)
            .map_err(|e| src.error_at(p.captor.span(), format!("{e:#}")))?;
    }
    for s in &raw.supply {
        let s = s.get_ref();
        let seat = seat(src, &s.seat, players)?;
        let counts = floor_counts(src, set, &s.floors)?;
        game.set_supply(seat, counts)
            .map_err(|e| src.error_at(s.seat.span(), format!("{e:#}")))?;
    }
    if let Some(table) = &raw.table {
        game.set_table_supply(floor_counts(src, set, table)?)
            .map_err(|e| src.error_at(table.span(), format!("{e:#}")))?;
    }
    if let Some(scores) = &raw.scores {
        if scores.get_ref().len() != players {
            return Err(src.error_at(
                scores.span(),
                format!("{} scores for {players} players", scores.get_ref().len()),
            ));
        }
        for (s, score) in scores.get_ref().iter().enumerate() {
            game.set_score(s, number(src, score, 0, u32::MAX.into(), "a score")?)?;
        }
    }
    let current = match &raw.current {
        Some(c) => seat(src, c, players)?,
        None => 0,
    };
    let turn = match &raw.turn {
        Some(t) => number(src, t, 0, u32::MAX.into(), "turn")?,
        // At most a board's cells, as every tile has its own.
        None => u32::try_from(raw.tiles.len().saturating_sub(1)).unwrap_or(u32::MAX),
    };
    game.set_turn(current, turn)?;
    Ok(game)
}

/// What to write when a tile turned `rot` does not fit at `pos`: the
/// rotations that do (`rot = 90`), or that none does.
fn turns_that_fit(game: &Game, kind: usize, pos: Pos, rot: u8) -> String {
    let k = &game.tiles().kinds[kind];
    let taken = game.board().tile_at(pos).is_some();
    if taken {
        return String::new();
    }
    let fit: Vec<String> = (0..4u8)
        .filter(|&r| r != rot && game.board().fits(k, pos, r))
        .map(|r| format!("`rot = {}`", u16::from(r) * 90))
        .collect();
    match fit.as_slice() {
        [] => format!(
            ": no turn of {} fits there; choose another `tile`, or another cell (`at`)",
            k.name
        ),
        [one] => format!(": turned, it fits: write {one} (degrees clockwise)"),
        many => format!(
            ": turned, it fits: write {} (degrees clockwise)",
            many.join(" or ")
        ),
    }
}

pub fn floor_kind(src: &Source, set: &Ruleset, name: &Spanned<String>) -> Result<FloorKind> {
    set.floor_kind(name.get_ref())
        .map_err(|e| src.error_at(name.span(), format!("{e:#}")))
}

/// Floors per kind, in the rules' order, from a table by kind name (kinds
/// not named: 0).
pub fn floor_counts(
    src: &Source,
    set: &Ruleset,
    floors: &Spanned<std::collections::BTreeMap<String, Spanned<i64>>>,
) -> Result<Vec<u32>> {
    let mut counts = vec![0u32; set.floors().len()];
    for (name, count) in floors.get_ref() {
        let k = set
            .floors()
            .iter()
            .position(|f| &f.name == name)
            .ok_or_else(|| {
                src.error_at(
                    count.span(),
                    format!(
                        "unknown floor kind `{name}`{}",
                        did_you_mean(name, set.floors().iter().map(|f| f.name.as_str()))
                    ),
                )
            })?;
        counts[k] = number(src, count, 0, u32::MAX.into(), "a floor count")?;
    }
    Ok(counts)
}

/// The segment a meeple stands on: its number, or the one segment of the
/// tile of what it names (`on = "road"`); `on = "tower"` is the tower top.
/// Each refusal names the key to change and a value that works there.
pub fn segment(
    src: &Source,
    game: &Game,
    pos: Pos,
    at: &At,
    number: Option<&Spanned<i64>>,
    on: Option<&Spanned<String>>,
) -> Result<MeepleSpot> {
    let Some(tile) = game.board().tile_at(pos) else {
        return Err(src.error_at(
            at.span(),
            format!(
                "no tile at [{}, {}]: put one there in `tiles`, or give the cell of one (`at`)",
                pos.x, pos.y
            ),
        ));
    };
    let kind = &game.tiles().kinds[tile.kind as usize];
    let (rot, standing) = (tile.rot, standable(kind));
    let choices = || segment_choices(kind, rot, &standing);
    match (number, on) {
        (Some(n), None) => {
            let s = *n.get_ref();
            match u8::try_from(s) {
                Ok(segment) if usize::from(segment) < kind.segments.len() => {
                    Ok(MeepleSpot::Segment(segment))
                }
                _ => Err(src.error_at(
                    n.span(),
                    format!("tile {} has no segment {s}: write {}", kind.name, choices()),
                )),
            }
        }
        (None, Some(on)) if on.get_ref() == "tower" => Ok(MeepleSpot::Tower),
        (None, Some(on)) => {
            let names = ["road", "city", "field", "cloister", "tower"];
            let of: Vec<u8> = standing
                .iter()
                .copied()
                .filter(|&i| kind.segments[usize::from(i)].kind.name() == on.get_ref())
                .collect();
            match of.as_slice() {
                [one] => Ok(MeepleSpot::Segment(*one)),
                [] if !names.contains(&on.get_ref().as_str()) => Err(src.error_at(
                    on.span(),
                    format!(
                        "`on = \"{}\"`: `on` is road, city, field, cloister or tower{}",
                        on.get_ref(),
                        did_you_mean(on.get_ref(), names)
                    ),
                )),
                [] => Err(src.error_at(
                    on.span(),
                    format!(
                        "tile {} has no {}: write {}",
                        kind.name,
                        on.get_ref(),
                        choices()
                    ),
                )),
                many => Err(src.error_at(
                    on.span(),
                    format!(
                        "tile {} has {} {} segments: in place of `on = \"{}\"`, write {}",
                        kind.name,
                        many.len(),
                        on.get_ref(),
                        on.get_ref(),
                        segment_choices(kind, rot, many)
                    ),
                )),
            }
        }
        (Some(n), Some(on)) => Err(src.error_at(
            n.span(),
            format!(
                "give `segment` or `on`, not both: keep `segment = {}` and remove `on = \"{}\"` (or the other way round)",
                n.get_ref(),
                on.get_ref()
            ),
        )),
        (None, None) => Err(src.error_at(
            at.span(),
            format!(
                "say where the meeple stands: write {}, or `on = \"tower\"` for a tower's top",
                choices()
            ),
        )),
    }
}

/// The segments of `kind` a meeple may stand on (every one but the
/// foundation).
fn standable(kind: &TileKind) -> Vec<u8> {
    (0..kind.segments.len() as u8)
        .filter(|&i| kind.segments[usize::from(i)].kind != SegmentKind::Foundation)
        .collect()
}

/// `segments` of a tile placed turned `rot`, as the keys that name them:
/// `` `segment = 1` (the field north of the road) or `segment = 2` (…)``;
/// a kind alone on the tile also as `on = "road"`.
fn segment_choices(kind: &TileKind, rot: u8, segments: &[u8]) -> String {
    let alone = |s: u8| {
        let k = kind.segments[usize::from(s)].kind;
        kind.segments.iter().filter(|x| x.kind == k).count() == 1
    };
    let choices: Vec<String> = segments
        .iter()
        .map(|&s| {
            let words = segment_words(kind, rot, s);
            if alone(s) {
                let name = kind.segments[usize::from(s)].kind.name();
                format!("`on = \"{name}\"` or `segment = {s}` ({words})")
            } else {
                format!("`segment = {s}` ({words})")
            }
        })
        .collect();
    match choices.split_last() {
        None => "nothing: no meeple stands on this tile".into(),
        Some((one, [])) => one.clone(),
        Some((last, [first])) => format!("{first} or {last}"),
        Some((last, init)) => format!("{}, or {last}", init.join(", ")),
    }
}
