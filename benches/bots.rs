//! Bots against each other in whole 2-player games, one thread: the random
//! bot and the greedy bot in every seat, under `tower` and `black-tower`.
//!
//! Every benchmark counts one item per game, so divan's throughput column
//! reads as games per second; all play the same seed sequence
//! (`game_seed(1, 0)`, `game_seed(1, 1)`, …), so their times compare directly.
//! The target for greedy under `black-tower` is 500 games/s or more.
//!
//! Each variant's rules instance is made once and kept, as a worker thread
//! keeps it in a simulation.
//!
//! Run with `cargo bench --bench bots`.

use divan::Bencher;
use divan::counter::ItemsCount;
use towerlab::kernel::{Bot, Game, play_game};
use towerlab::play::bots::{GreedyBot, RandomBot};
use towerlab::play::seed::game_seed;
use towerlab::rules::{Home, LoadOptions, Ruleset};

/// Packs run with their memory limit, counted by this allocator, as in the
/// binary.
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

fn main() {
    divan::main();
}

const VARIANTS: [&str; 2] = ["tower", "black-tower"];

/// Time 2-player games of `variant`, one seed per iteration, with the bots
/// `make` builds for each seat.
fn bench_games(bencher: Bencher, variant: &str, make: fn(u64, usize) -> Box<dyn Bot>) {
    let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let set = Ruleset::from_variant(&home, &LoadOptions::default(), variant)
        .expect("a shipped variant loads");
    let rules = set.rules();
    let mut index = 0u64;
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        let seed = game_seed(1, index);
        index += 1;
        let mut game = Game::new(set.tiles(), rules.as_ref(), 2, seed).expect("a game starts");
        let mut bots: Vec<Box<dyn Bot>> = (0..2).map(|seat| make(seed, seat)).collect();
        play_game(&mut game, &mut bots).expect("a game finishes");
        divan::black_box(game.scores())
    });
}

#[divan::bench(args = VARIANTS, sample_count = 300, min_time = 1)]
fn random(bencher: Bencher, variant: &str) {
    bench_games(bencher, variant, |seed, seat| {
        Box::new(RandomBot::new(seed, seat))
    });
}

#[divan::bench(args = VARIANTS, sample_count = 300, min_time = 1)]
fn greedy(bencher: Bencher, variant: &str) {
    bench_games(bencher, variant, |seed, seat| {
        Box::new(GreedyBot::new(seed, seat))
    });
}
