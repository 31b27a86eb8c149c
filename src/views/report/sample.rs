//! A sample game for the report's replay viewer: one game played again on
//! its seed with its bots (so, the run's own game), pictured after every turn
//! and merged into one SVG (see [`super::timeline`]), with what happened in
//! each turn in words.

use anyhow::Result;
use serde::Serialize;

use crate::kernel::geometry::Pos;
use crate::kernel::{Event, Game, MeepleSpot};
use crate::play::bots::BotKind;
use crate::play::sim;
use crate::rules::Ruleset;
use crate::views::render::{self, RenderOptions, Taken};

use super::timeline::Timeline;

/// A game pictured turn by turn.
#[derive(Clone, Debug)]
pub struct SampleGame {
    /// The game's index in its run.
    pub game: u64,
    /// The game's own seed.
    pub seed: u64,
    /// Every picture merged into one SVG; an element with `data-t` is shown
    /// only in the pictures (indices of `frames`) it names.
    pub svg: String,
    /// One per picture: the start tile, each turn, then final scoring.
    pub frames: Vec<Frame>,
    /// Final scores, by seat.
    pub scores: Vec<u32>,
}

/// One picture of a sample game.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// `start`, `turn N` or `end`.
    pub label: String,
    /// Tiles on the board.
    pub tiles: usize,
    /// What happened since the previous picture, one line per event.
    pub events: Vec<String>,
    /// A meeple was captured in this turn (its tower's range and the taken
    /// meeple are marked in the picture).
    pub capture: bool,
}

/// Play game `index` (seed `seed`) of `set` with `bots` again and picture it
/// after the start tile, after every turn, and after final scoring. The
/// turn of a capture marks the capturing tower's range and the meeple taken.
pub fn sample_game(set: &Ruleset, bots: &[BotKind], index: u64, seed: u64) -> Result<SampleGame> {
    // Once to learn the final board's extent, so every picture shares it.
    let rules = set.rules();
    let end = sim::play(&set.tiles, rules.as_ref(), bots, seed, false)?;
    sample_game_within(set, bots, index, seed, end.board().bounds())
}

/// [`sample_game`] of a game whose final extent `bounds` is known (from its
/// [`sim::GameResult`]): the game is played once.
pub fn sample_game_within(
    set: &Ruleset,
    bots: &[BotKind],
    index: u64,
    seed: u64,
    bounds: Option<(Pos, Pos)>,
) -> Result<SampleGame> {
    let rules = set.rules();
    let mut timeline = Timeline::default();
    let mut frames: Vec<Frame> = Vec::new();
    let mut seen = 0;
    let game = sim::play_observed(&set.tiles, rules.as_ref(), bots, seed, |game| {
        let events = &game.events()[seen..];
        seen = game.events().len();
        let capture = events.iter().find_map(|e| match e {
            Event::Capture {
                tower,
                at,
                spot,
                owner,
                ..
            } => Some((*tower, *at, *spot, *owner)),
            _ => None,
        });
        let options = RenderOptions {
            range: capture.map(|c| c.0),
            title: Some(format!("{} · game {index}", set.name)),
            bounds,
            taken: capture
                .map(|(_, at, spot, owner)| Taken {
                    owner: owner as u8,
                    pos: at,
                    spot,
                })
                .into_iter()
                .collect(),
            ..Default::default()
        };
        timeline.add(&render::board_svg(game, set, &options))?;
        frames.push(Frame {
            label: format!("turn {}", game.stats().turns),
            tiles: game.board().tiles().len(),
            events: events.iter().map(|e| describe(game, set, e)).collect(),
            capture: capture.is_some(),
        });
        Ok(())
    })?;
    if let Some(first) = frames.first_mut() {
        first.label = "start".into();
        first.events = vec!["the start tile is placed".into()];
    }
    if frames.len() > 1
        && let Some(last) = frames.last_mut()
    {
        last.label = "end".into();
    }
    Ok(SampleGame {
        game: index,
        seed,
        svg: timeline.svg(),
        frames,
        scores: game.scores(),
    })
}

/// An event in words; seats are numbered from 1, as in the pictures.
fn describe(game: &Game, set: &Ruleset, e: &Event) -> String {
    let floor = |k: u8| {
        set.floors
            .get(k as usize)
            .map_or("?".to_string(), |d| d.name.clone())
    };
    let tile = |k: u16| game.tiles().kinds[k as usize].name.clone();
    let spot = |spot: MeepleSpot, on: &str| match spot {
        MeepleSpot::Tower => "on top of the tower".to_string(),
        MeepleSpot::Segment(_) => format!("on a {on}"),
    };
    match e {
        Event::Tile {
            player,
            kind,
            pos,
            rot,
        } => format!(
            "player {} places {} at {},{}{}",
            player + 1,
            tile(*kind),
            pos.x,
            pos.y,
            match rot {
                0 => String::new(),
                r => format!(", turned {}°", *r as u32 * 90),
            }
        ),
        Event::Discard { kind } => format!("{} fits nowhere and is put aside", tile(*kind)),
        Event::Meeple {
            player,
            pos,
            spot: s,
            on,
        } => format!(
            "player {} puts a meeple {} at {},{}",
            player + 1,
            spot(*s, on),
            pos.x,
            pos.y
        ),
        Event::Floor {
            player,
            pos,
            kind,
            floors,
        } => format!(
            "player {} adds a {} floor to the tower at {},{} ({} floor{})",
            player + 1,
            floor(*kind),
            pos.x,
            pos.y,
            floors.len(),
            if floors.len() == 1 { "" } else { "s" }
        ),
        Event::Capture {
            player,
            tower,
            at,
            spot: s,
            on,
            owner,
            ..
        } => {
            let whose = if owner == player {
                "their own meeple, which goes home".to_string()
            } else {
                format!("player {}'s meeple, now a prisoner", owner + 1)
            };
            format!(
                "capture: the tower at {},{} takes {} ({} at {},{})",
                tower.x,
                tower.y,
                whose,
                spot(*s, on),
                at.x,
                at.y
            )
        }
        Event::Exchange { players } => format!(
            "players {} and {} exchange prisoners",
            players[0] + 1,
            players[1] + 1
        ),
        Event::Ransom {
            player, to, cost, ..
        } => format!(
            "player {} pays player {} a ransom of {cost} points",
            player + 1,
            to + 1
        ),
        Event::Score {
            player,
            points,
            feature,
        } => format!(
            "player {} scores {points} point{} for a {feature}",
            player + 1,
            if *points == 1 { "" } else { "s" }
        ),
        Event::End { scores } => format!(
            "final scores: {}",
            scores
                .iter()
                .enumerate()
                .map(|(p, s)| format!("player {} {s}", p + 1))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
