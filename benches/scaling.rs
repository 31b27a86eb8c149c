//! How simulation scales: the same 4,000 random 2-player Black Tower games on
//! one and on two worker threads (target: two threads ≥ 1.8× one), and the
//! cost per game as players (2–6) and the deck (×1, ×2, ×4) grow, under the
//! scripted `black-tower` variant.
//!
//! Run with `cargo bench --bench scaling`.

use std::sync::OnceLock;

use divan::Bencher;
use divan::counter::ItemsCount;
use towerlab::play::bots::BotKind;
use towerlab::play::seed::game_seed;
use towerlab::play::sim::{self, Batch};
use towerlab::rules::{Home, LoadOptions, Ruleset};

/// Packs run with their memory limit, counted by this allocator, as in the
/// binary.
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

fn main() {
    divan::main();
}

fn black_tower() -> &'static Ruleset {
    static SET: OnceLock<Ruleset> = OnceLock::new();
    SET.get_or_init(|| {
        let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        Ruleset::from_variant(&home, &LoadOptions::default(), "black-tower")
            .expect("shipped variant loads")
    })
}

const GAMES: u64 = 4000;

#[divan::bench(args = [1, 2], sample_count = 5)]
fn threads(bencher: Bencher, threads: usize) {
    let set = black_tower();
    let bots = [BotKind::RANDOM; 2];
    bencher
        .counter(ItemsCount::new(GAMES as usize))
        .bench_local(|| {
            let batch = Batch {
                set,
                bots: &bots,
                games: GAMES,
                master_seed: 1,
                threads,
                log: false,
            };
            sim::simulate(&batch, &|_| {}, |_| Ok(())).expect("games finish")
        });
}

fn games(bencher: Bencher, set: &Ruleset, players: usize) {
    let rules = set.rules();
    let bots = vec![BotKind::RANDOM; players];
    let mut index = 0u64;
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        let seed = game_seed(1, index);
        index += 1;
        sim::play(set, rules.as_ref(), &bots, seed, false).expect("a game finishes")
    });
}

#[divan::bench(args = [2, 3, 4, 5, 6], sample_count = 200, min_time = 1)]
fn players(bencher: Bencher, players: usize) {
    games(bencher, black_tower(), players);
}

#[divan::bench(args = [1, 2, 4], sample_count = 200, min_time = 1)]
fn deck(bencher: Bencher, factor: u32) {
    let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let set = Ruleset::from_variant(&home, &LoadOptions::default(), "black-tower")
        .and_then(|set| set.with_deck_scaled(factor))
        .expect("shipped variant loads, its deck scaled");
    games(bencher, &set, 2);
}
