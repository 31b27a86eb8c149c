//! Scripted packs against the native reference: random 2-player games with the
//! `tower` pack and with `native:tower` on the same seed sequence, in one run,
//! so that their ratio can be read off (target: scripted ≥ 0.8× native). Also
//! Black Tower with house rule H1, whose `may_capture` hook reads the board;
//! and the same scripted-vs-native pair with greedy bots, which ask the rules
//! about hypothetical floors. Targets against `native_tower` (and
//! `greedy_native_tower`): `tower_pack` ≥ 0.95×, `tower_no_gaps` ≥ 0.7×,
//! `greedy_black_tower_no_gaps` ≥ 0.6×; and `black_tower_pack` (and
//! `greedy_black_tower_pack`) ≥ 0.95× the same game written natively,
//! `native_black_tower` (`greedy_native_black_tower`).
//!
//! Rules that read context, each over `tower`, with random and greedy bots
//! (`context`, `greedy_context`): the standings in `may_place_floor` (by
//! rank and by raw scores), the meeple's feature in `may_capture`, the
//! scores in `ransom`, the actor in `may_top` (packs in `benches/packs/`),
//! and the packs of `docs/examples/`. Targets: ≥ 0.8× `native_tower` with
//! random bots, ≥ 0.6× `greedy_native_tower` with greedy ones.
//!
//! Packs that act (`events`, `greedy_events`): the event packs of
//! `docs/examples/` over `tower`. Targets: ≥ 0.8× `native_tower` with random
//! bots, ≥ 0.6× `greedy_native_tower` with greedy ones. And a rule that
//! reads raw scores the natural way over Black Tower (`raw_scores`,
//! `greedy_raw_scores`, `benches/packs/raw-scores`) against
//! `native_black_tower`: targets ≥ 0.8× and ≥ 0.6×.
//!
//! Each variant's rules instance is made once and kept, as a worker thread
//! keeps it in a simulation (its answers are kept over the first games).
//!
//! Run with `cargo bench --bench packs`.

use divan::Bencher;
use divan::counter::ItemsCount;
use towerlab::play::bots::BotKind;
use towerlab::play::seed::game_seed;
use towerlab::play::sim::play;
use towerlab::rules::{Home, LoadOptions, Ruleset};

/// Packs run with their memory limit, counted by this allocator, as in the
/// binary.
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

fn main() {
    divan::main();
}

fn ruleset(packs: &[&str]) -> Ruleset {
    let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let packs: Vec<String> = packs.iter().map(|p| p.to_string()).collect();
    Ruleset::from_packs(&home, &LoadOptions::default(), &packs).expect("shipped packs load")
}

fn bench_games(bencher: Bencher, packs: &[&str]) {
    bench_bots(bencher, packs, BotKind::RANDOM);
}

fn bench_bots(bencher: Bencher, packs: &[&str], bot: BotKind) {
    let set = ruleset(packs);
    let rules = set.rules();
    let bots = [bot; 2];
    let mut index = 0u64;
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        let seed = game_seed(1, index);
        index += 1;
        let game = play(&set, rules.as_ref(), &bots, seed, false).expect("a game finishes");
        divan::black_box(game.scores())
    });
}

#[divan::bench(sample_count = 300, min_time = 1)]
fn native_tower(bencher: Bencher) {
    bench_games(bencher, &["native:tower"]);
}

#[divan::bench(sample_count = 300, min_time = 1)]
fn tower_pack(bencher: Bencher) {
    bench_games(bencher, &["tower"]);
}

#[divan::bench(sample_count = 300, min_time = 1)]
fn black_tower_no_gaps(bencher: Bencher) {
    bench_games(bencher, &["tower", "black-tower", "house/no-gaps"]);
}

#[divan::bench(sample_count = 100, min_time = 1)]
fn greedy_native_tower(bencher: Bencher) {
    bench_bots(bencher, &["native:tower"], BotKind::GREEDY);
}

#[divan::bench(sample_count = 100, min_time = 1)]
fn greedy_tower_pack(bencher: Bencher) {
    bench_bots(bencher, &["tower"], BotKind::GREEDY);
}

#[divan::bench(sample_count = 300, min_time = 1)]
fn native_black_tower(bencher: Bencher) {
    bench_games(bencher, &["native:black-tower"]);
}

#[divan::bench(sample_count = 100, min_time = 1)]
fn greedy_native_black_tower(bencher: Bencher) {
    bench_bots(bencher, &["native:black-tower"], BotKind::GREEDY);
}

#[divan::bench(sample_count = 100, min_time = 1)]
fn greedy_black_tower_pack(bencher: Bencher) {
    bench_bots(bencher, &["tower", "black-tower"], BotKind::GREEDY);
}

#[divan::bench(sample_count = 300, min_time = 1)]
fn black_tower_pack(bencher: Bencher) {
    bench_games(bencher, &["tower", "black-tower"]);
}

#[divan::bench(sample_count = 300, min_time = 1)]
fn tower_no_gaps(bencher: Bencher) {
    bench_games(bencher, &["tower", "house/no-gaps"]);
}

#[divan::bench(sample_count = 100, min_time = 1)]
fn greedy_black_tower_no_gaps(bencher: Bencher) {
    bench_bots(
        bencher,
        &["tower", "black-tower", "house/no-gaps"],
        BotKind::GREEDY,
    );
}

/// Rules that read context: `benches/packs/NAME` or `docs/examples/NAME`.
const CONTEXT: [&str; 11] = [
    "benches/packs/leader-builds-not",
    "benches/packs/runaway-builds-not",
    "benches/packs/open-features-only",
    "benches/packs/scored-ransom",
    "benches/packs/leader-tops-not",
    "docs/examples/knights-only",
    "docs/examples/home-not-prison",
    "docs/examples/leader-ransom",
    "docs/examples/prisoners-pay",
    "docs/examples/underdog-floors",
    "docs/examples/red-floor",
];

fn context_packs(pack: &str) -> [String; 2] {
    let path = format!("{}/{pack}", env!("CARGO_MANIFEST_DIR"));
    ["tower".to_string(), path]
}

#[divan::bench(args = CONTEXT, sample_count = 300, min_time = 1)]
fn context(bencher: Bencher, pack: &str) {
    let packs = context_packs(pack);
    bench_games(bencher, &[&packs[0], &packs[1]]);
}

#[divan::bench(args = CONTEXT, sample_count = 100, min_time = 1)]
fn greedy_context(bencher: Bencher, pack: &str) {
    let packs = context_packs(pack);
    bench_bots(bencher, &[&packs[0], &packs[1]], BotKind::GREEDY);
}

/// Packs that act: the event packs of `docs/examples/`.
const EVENTS: [&str; 4] = [
    "docs/examples/bell",
    "docs/examples/warden",
    "docs/examples/tithe",
    "docs/examples/pilgrims",
];

#[divan::bench(args = EVENTS, sample_count = 300, min_time = 1)]
fn events(bencher: Bencher, pack: &str) {
    let packs = context_packs(pack);
    bench_games(bencher, &[&packs[0], &packs[1]]);
}

#[divan::bench(args = EVENTS, sample_count = 100, min_time = 1)]
fn greedy_events(bencher: Bencher, pack: &str) {
    let packs = context_packs(pack);
    bench_bots(bencher, &[&packs[0], &packs[1]], BotKind::GREEDY);
}

/// A rule over Black Tower that reads raw scores the natural way.
fn raw_scores_packs() -> [String; 3] {
    let path = format!("{}/benches/packs/raw-scores", env!("CARGO_MANIFEST_DIR"));
    ["tower".to_string(), "black-tower".to_string(), path]
}

#[divan::bench(sample_count = 300, min_time = 1)]
fn raw_scores(bencher: Bencher) {
    let packs = raw_scores_packs();
    bench_games(bencher, &[&packs[0], &packs[1], &packs[2]]);
}

#[divan::bench(sample_count = 100, min_time = 1)]
fn greedy_raw_scores(bencher: Bencher) {
    let packs = raw_scores_packs();
    bench_bots(bencher, &[&packs[0], &packs[1], &packs[2]], BotKind::GREEDY);
}
