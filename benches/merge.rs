//! Merging a run's shards: 1,000 partial results of a two-variant
//! comparison (20 games per variant each, 20,000 in all) read from their
//! JSON text and merged into the comparison (target: under 1 s). Merging
//! includes the run's statistics, the balance bootstrap among them; the
//! second bench's partials also carry the per-floor-kind counts
//! (`--by-kind`).
//!
//! Run with `cargo bench --bench merge`.

use divan::Bencher;
use towerlab::analysis::compare::Plan;
use towerlab::analysis::partial::{self, Shard};
use towerlab::play::bots::BotKind;
use towerlab::rules::{Home, LoadOptions, Ruleset};

// Packs are loaded with their memory limit, which counts allocations.
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

fn main() {
    divan::main();
}

const SHARDS: u64 = 1000;
const GAMES: u64 = 20 * SHARDS;

/// The partials' texts: one shard played for real, its games standing in
/// for every shard's (the merge's cost does not depend on the values).
fn partials(by_kind: bool) -> Vec<(String, String)> {
    let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let sets = vec![
        Ruleset::from_variant(&home, &LoadOptions::default(), "tower").expect("tower loads"),
        Ruleset::from_variant(&home, &LoadOptions::default(), "black-tower")
            .expect("black-tower loads"),
    ];
    let bots = [BotKind::RANDOM; 2];
    let plan = Plan {
        sets: &sets,
        bots: &bots,
        games: GAMES,
        seed: 1,
        threads: 0,
        log: false,
        fires: false,
    };
    let shard = Shard::new(0, SHARDS, GAMES).expect("a shard");
    let played =
        partial::play("compare", &plan, shard, by_kind, &|_| {}, |_| Ok(())).expect("plays");
    (0..SHARDS)
        .map(|k| {
            let mut p = played.clone();
            let range = Shard::new(k, SHARDS, GAMES).expect("a shard").games(GAMES);
            p.shard = k;
            (p.first, p.end) = (range.start, range.end);
            let text = serde_json::to_string(&p).expect("serializes");
            (format!("part-{k}.json"), text)
        })
        .collect()
}

#[divan::bench(sample_count = 5)]
fn merge_1000_partials(bencher: Bencher) {
    merge_all(bencher, false);
}

#[divan::bench(sample_count = 5)]
fn merge_1000_partials_by_kind(bencher: Bencher) {
    merge_all(bencher, true);
}

fn merge_all(bencher: Bencher, by_kind: bool) {
    let texts = partials(by_kind);
    bencher.bench_local(|| {
        let parts = texts
            .iter()
            .map(|(name, text)| Ok((name.clone(), partial::parse(name, text)?)))
            .collect::<anyhow::Result<Vec<_>>>()
            .expect("parse");
        partial::merge(parts, None).expect("merge")
    });
}
