//! Seeded simulation: one game from a seed, and many games in parallel with
//! the same results on any number of threads (each game's seed is derived from
//! the master seed and its index, and results are kept in index order).

use std::sync::Mutex;

use anyhow::{Context, Result};
use rayon::prelude::*;

use crate::bots::RandomBot;
use crate::kernel::{Bot, Game, Rules, Stats, play_game};
use crate::seed::game_seed;
use crate::tiles::TileSet;

/// What one finished game leaves behind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub index: u64,
    pub seed: u64,
    pub scores: Vec<u32>,
    pub stats: Stats,
    /// Floors of every tower with at least one floor, at game end.
    pub tower_heights: Vec<u32>,
    /// Floors still in the players' supplies at game end.
    pub floors_unused: u32,
    /// Meeples held as prisoners at game end.
    pub prisoners_held: u32,
}

/// Play one game with random bots.
pub fn play_random<'a>(
    tiles: &'a TileSet,
    rules: &'a dyn Rules,
    players: usize,
    seed: u64,
) -> Result<Game<'a>> {
    let mut game = Game::new(tiles, rules, players, seed)?;
    let mut bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|seat| Box::new(RandomBot::new(seed, seat)) as Box<dyn Bot>)
        .collect();
    play_game(&mut game, &mut bots)?;
    Ok(game)
}

/// Summarise a finished game.
pub fn result_of(game: &Game, index: u64, seed: u64) -> GameResult {
    let n = game.players().len();
    GameResult {
        index,
        seed,
        scores: game.scores(),
        stats: game.stats().clone(),
        tower_heights: game
            .towers()
            .iter()
            .filter(|t| !t.floors.is_empty())
            .map(|t| t.floors.len() as u32)
            .collect(),
        floors_unused: game.players().iter().flat_map(|p| &p.floors).sum(),
        prisoners_held: (0..n)
            .flat_map(|a| (0..n).map(move |b| (a, b)))
            .map(|(a, b)| game.prisoners(a, b))
            .sum(),
    }
}

/// A batch of games to simulate.
pub struct Batch<'a> {
    pub tiles: &'a TileSet,
    pub players: usize,
    pub games: u64,
    pub master_seed: u64,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
}

/// Play every game of the batch with random bots, in parallel. `make_rules`
/// builds one rules instance per worker thread, which keeps it (and its
/// caches) for all the games that thread plays.
pub fn simulate<F>(batch: &Batch, make_rules: F) -> Result<Vec<GameResult>>
where
    F: Fn() -> Box<dyn Rules> + Sync,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(batch.threads)
        .build()
        .context("starting the worker threads")?;
    let slots: Vec<Mutex<Option<Box<dyn Rules>>>> = (0..pool.current_num_threads())
        .map(|_| Mutex::new(None))
        .collect();
    pool.install(|| {
        (0..batch.games)
            .into_par_iter()
            .map(|index| {
                let slot = &slots[rayon::current_thread_index().unwrap_or(0) % slots.len()];
                let mut guard = slot.lock().unwrap_or_else(|e| e.into_inner());
                let rules = guard.get_or_insert_with(&make_rules);
                let seed = game_seed(batch.master_seed, index);
                let game = play_random(batch.tiles, rules.as_ref(), batch.players, seed)
                    .with_context(|| format!("game {index} (seed {seed})"))?;
                Ok(result_of(&game, index, seed))
            })
            .collect()
    })
}

/// Mean of each seat's score over `results`.
pub fn mean_scores(results: &[GameResult], players: usize) -> Vec<f64> {
    let mut sums = vec![0f64; players];
    for r in results {
        for (s, &v) in sums.iter_mut().zip(&r.scores) {
            *s += v as f64;
        }
    }
    let n = results.len().max(1) as f64;
    sums.into_iter().map(|s| s / n).collect()
}
