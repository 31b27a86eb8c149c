//! The `mcts` bot's costs, one thread, under `tower`: copying a game (what
//! every iteration starts with), one search of a mid-game placement at the
//! default budget (its throughput column reads as iterations per second),
//! and whole 2-player games between two `mcts` bots (games per second; the
//! target is 2 s a game or less).
//!
//! Run with `cargo bench --bench mcts`.

use divan::Bencher;
use divan::counter::ItemsCount;
use towerlab::kernel::determinize::{hidden_copy, redeal_into};
use towerlab::kernel::{Bot, Buffers, Decision, Game, play_game, play_turn};
use towerlab::play::bots::{BotKind, DEFAULT_BUDGET, GreedyBot, MctsBot};
use towerlab::play::seed::{Stream, game_seed};
use towerlab::rules::{Home, LoadOptions, Ruleset};

/// The packs load with their memory limit, which needs the counting
/// allocator, as in the binary.
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

fn main() {
    divan::main();
}

fn tower() -> Ruleset {
    let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    Ruleset::from_variant(&home, &LoadOptions::default(), "tower")
        .expect("the shipped variant loads")
}

/// A game after `turns` turns of greedy play.
fn midgame<'a>(set: &'a Ruleset, rules: &'a dyn towerlab::kernel::Rules, turns: usize) -> Game<'a> {
    let mut game = Game::new(set.tiles(), rules, 2, game_seed(1, 0)).expect("a game starts");
    let mut bots: Vec<Box<dyn Bot>> = (0..2)
        .map(|s| Box::new(GreedyBot::new(1, s)) as Box<dyn Bot>)
        .collect();
    let mut buf = Buffers::default();
    for _ in 0..turns {
        play_turn(&mut game, &mut bots, &mut buf).expect("a turn");
    }
    game
}

/// `Game::clone` of a game 40 turns in.
#[divan::bench(sample_count = 1000)]
fn game_clone(bencher: Bencher) {
    let set = tower();
    let rules = set.rules();
    let game = midgame(&set, rules.as_ref(), 40);
    bencher.bench_local(|| divan::black_box(game.clone()));
}

/// A determinization as an iteration makes it: a copy into a reused game,
/// its undrawn tiles dealt again.
#[divan::bench(sample_count = 1000)]
fn determinization(bencher: Bencher) {
    let set = tower();
    let rules = set.rules();
    let root = hidden_copy(&midgame(&set, rules.as_ref(), 40));
    let mut into = root.clone();
    let mut stream = Stream::new(1, 7);
    bencher.bench_local(|| {
        redeal_into(&mut into, &root, &mut stream);
        divan::black_box(into.deck_left())
    });
}

/// One search of the placement of the tile drawn 30 turns in, at the default
/// budget: one item per iteration.
#[divan::bench(sample_count = 30)]
fn search(bencher: Bencher) {
    let set = tower();
    let rules = set.rules();
    let mut game = midgame(&set, rules.as_ref(), 30);
    let tile = game.draw().unwrap().expect("tiles left");
    let mut options = Vec::new();
    game.placements(tile, &mut options).unwrap();
    let mut seed = 0;
    bencher
        .counter(ItemsCount::new(DEFAULT_BUDGET as usize))
        .bench_local(|| {
            seed += 1;
            let mut bot = MctsBot::new(seed, 0, DEFAULT_BUDGET);
            let decision = Decision::Placement {
                tile,
                options: &options,
            };
            divan::black_box(bot.search(&game, decision).expect("a search"))
        });
}

/// Whole 2-player games, `mcts` in both seats at the default budget.
#[divan::bench(sample_count = 5)]
fn mcts_games(bencher: Bencher) {
    let set = tower();
    let rules = set.rules();
    let mut index = 0u64;
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        let seed = game_seed(1, index);
        index += 1;
        let mut game = Game::new(set.tiles(), rules.as_ref(), 2, seed).expect("a game starts");
        let mut bots: Vec<Box<dyn Bot>> = (0..2)
            .map(|seat| BotKind::mcts(DEFAULT_BUDGET).make(seed, seat, &Default::default()))
            .collect();
        play_game(&mut game, &mut bots).expect("a game finishes");
        divan::black_box(game.scores())
    });
}
