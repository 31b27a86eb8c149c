//! A sample game for the report's replay viewer: one game played again on
//! its seed with its bots (so, the run's own game), as a scene after every
//! turn, with what happened in each turn in words (`play::words`). The views
//! layer draws the scenes and merges them into one picture.

use anyhow::Result;

use crate::kernel::Event;
use crate::kernel::geometry::Pos;
use crate::play::bots::BotKind;
use crate::play::seed::game_seed;
use crate::play::sim;
use crate::play::words::{Names, tell};
use crate::rules::Ruleset;
use crate::views::scene::build::{SceneOptions, game_scene, palette};
use crate::views::scene::{Picture, Pictures, SceneMeeple};

/// Play game `index` (seed `seed`) of `set` with `bots` again and take its
/// scene after the start tile, after every turn, and after final scoring,
/// all in the frame of the final board. The turn of a capture marks the
/// capturing tower's range and the meeple taken.
pub fn sample_game(set: &Ruleset, bots: &[BotKind], index: u64, seed: u64) -> Result<Pictures> {
    // Once to learn the final board's extent, so every picture shares it.
    let rules = set.rules();
    let end = sim::play(set, rules.as_ref(), bots, seed, false)?;
    sample_game_within(set, bots, index, seed, end.board().bounds())
}

/// The first `count` games of a run with master seed `master` (from game
/// `first`'s index on; `first` is that game's result, so it is played once),
/// each pictured as [`sample_game`] does: the report's viewer's games.
pub fn sample_games(
    set: &Ruleset,
    bots: &[BotKind],
    master: u64,
    first: &sim::GameResult,
    count: u64,
) -> Result<Vec<Pictures>> {
    let mut games = Vec::new();
    for index in first.index..first.index.saturating_add(count) {
        games.push(if index == first.index {
            sample_game_within(set, bots, index, first.seed, first.bounds)?
        } else {
            sample_game(set, bots, index, game_seed(master, index))?
        });
    }
    Ok(games)
}

/// [`sample_game`] of a game whose final extent `bounds` is known (from its
/// [`sim::GameResult`]): the game is played once.
pub fn sample_game_within(
    set: &Ruleset,
    bots: &[BotKind],
    index: u64,
    seed: u64,
    bounds: Option<(Pos, Pos)>,
) -> Result<Pictures> {
    let rules = set.rules();
    let mut frames: Vec<Picture> = Vec::new();
    let mut seen = 0;
    let names = Names::numbered(bots.len());
    let game = sim::play_observed(
        set.tiles(),
        rules.as_ref(),
        bots,
        set.worths(),
        seed,
        |game| {
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
            let options = SceneOptions {
                range: capture.map(|c| c.0),
                title: Some(format!("{} · game {index}", set.name())),
                bounds,
                taken: capture
                    .map(|(_, at, spot, owner)| SceneMeeple {
                        owner: owner as u8,
                        pos: at,
                        spot,
                    })
                    .into_iter()
                    .collect(),
                ..Default::default()
            };
            frames.push(Picture {
                scene: game_scene(game, set, &options),
                label: format!("turn {}", game.stats().turns),
                events: events
                    .iter()
                    .map(|e| names.say(&tell(e, game, set).words))
                    .collect(),
                capture: capture.is_some(),
            });
            Ok(())
        },
    )?;
    if let Some(first) = frames.first_mut() {
        first.label = "start".into();
        first.events = vec!["the start tile is placed".into()];
    }
    if frames.len() > 1
        && let Some(last) = frames.last_mut()
    {
        last.label = "end".into();
    }
    Ok(Pictures {
        game: index,
        seed,
        scores: game.scores(),
        palette: palette(set),
        frames,
    })
}
