//! Speed of whole games: random bots under the native Tower rules, one thread.
//!
//! Every benchmark counts one item per game, so divan's throughput column
//! reads as games per second. All of them play the same seed sequence
//! (`game_seed(MASTER, 0)`, `game_seed(MASTER, 1)`, …), so their times per
//! game compare directly:
//!
//! - `two_players`: the reference figure, games/s for a plain 2-player game;
//! - `players`: cost per game for 2 to 6 players with the normal deck;
//! - `deck`: cost per game (2 players) with every tile count multiplied by
//!   1, 2 and 4.
//!
//! Run with `cargo bench --bench games`.

use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use towerlab::kernel::tiles::TileSet;
use towerlab::play::seed::game_seed;
use towerlab::play::sim::play_random;
use towerlab::rules::native::NativeTower;

/// Packs run with their memory limit, counted by this allocator, as in the
/// binary.
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

fn main() {
    divan::main();
}

/// The master seed of every benchmark's seed sequence.
const MASTER: u64 = 1;

/// The shipped base game and Tower tiles, loaded once.
fn tiles() -> &'static TileSet {
    static TILES: OnceLock<TileSet> = OnceLock::new();
    TILES.get_or_init(|| {
        let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        TileSet::load(&[
            rules.join("base").join("tiles.toml"),
            rules.join("tower").join("tiles.toml"),
        ])
        .expect("shipped tile sets load")
    })
}

/// The shipped tiles with every kind's count multiplied by `factor`.
fn scaled(factor: u32) -> TileSet {
    let mut set = tiles().clone();
    for kind in &mut set.kinds {
        kind.count *= factor;
    }
    set
}

/// Time games of `players` players drawn from `set`, one seed per iteration.
fn bench_games(bencher: Bencher, set: &TileSet, players: usize) {
    let rules = NativeTower::default();
    let mut index = 0u64;
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        let seed = game_seed(MASTER, index);
        index += 1;
        let game = play_random(set, &rules, players, seed).expect("a random game finishes");
        divan::black_box(game.scores())
    });
}

/// Games per second, 2 players, the normal deck.
#[divan::bench(sample_count = 300, min_time = 1)]
fn two_players(bencher: Bencher) {
    bench_games(bencher, tiles(), 2);
}

/// Cost per game by number of players.
#[divan::bench(args = [2, 3, 4, 5, 6], sample_count = 300, min_time = 1)]
fn players(bencher: Bencher, players: usize) {
    bench_games(bencher, tiles(), players);
}

/// Cost per game (2 players) with the deck's counts multiplied by 1, 2, 4.
#[divan::bench(args = [1, 2, 4], sample_count = 300, min_time = 1)]
fn deck(bencher: Bencher, factor: u32) {
    let set = scaled(factor);
    assert_eq!(set.total_tiles(), tiles().total_tiles() * factor as usize);
    bench_games(bencher, &set, 2);
}
