//! Speed of the `mcts` bot at a budget: whole 2-player games between two
//! `mcts` bots on one thread, with the CPU time per game, the searches per
//! game (decisions with more than one option) and the iterations per second.
//!
//! `cargo run --release --example mcts_speed -- VARIANT BUDGET GAMES`
//! (default: `tower 200 4`).

use cpu_time::ProcessTime;
use towerlab::kernel::{Bot, Decision, Game, play_game};
use towerlab::play::bots::MctsBot;
use towerlab::play::seed::game_seed;
use towerlab::rules::LoadOptions;

/// The packs load with their memory limit, which needs the counting
/// allocator, as in the binary.
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

/// A bot that counts the searches it makes.
struct Counting(MctsBot, u64);

impl Bot for Counting {
    fn decide(&mut self, game: &Game, d: Decision) -> anyhow::Result<usize> {
        if d.len() > 1 {
            self.1 += 1;
        }
        self.0.decide(game, d)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = args.get(1).cloned().unwrap_or("tower".into());
    let budget: u32 = args.get(2).map_or(200, |s| s.parse().unwrap());
    let games: u64 = args.get(3).map_or(4, |s| s.parse().unwrap());
    let home = towerlab::rules::Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let set =
        towerlab::rules::Ruleset::select(&home, &LoadOptions::default(), Some(&variant), None)
            .unwrap();
    let rules = set.rules();
    let start = ProcessTime::now();
    let mut searches = 0;
    for i in 0..games {
        let seed = game_seed(1, i);
        let mut a = Counting(MctsBot::new(seed, 0, budget), 0);
        let mut b = Counting(MctsBot::new(seed, 1, budget), 0);
        let mut g = Game::new(set.tiles(), rules.as_ref(), 2, seed).unwrap();
        {
            let mut bots: Vec<Box<dyn Bot + '_>> = vec![Box::new(&mut a), Box::new(&mut b)];
            play_game(&mut g, &mut bots).unwrap();
        }
        searches += a.1 + b.1;
    }
    let secs = start.elapsed().as_secs_f64();
    let iters = searches as f64 * budget as f64;
    println!(
        "mcts:{budget} vs mcts:{budget}, {variant}: {games} games, {:.3} s CPU a game, {:.1} searches a game, {:.0} iterations/s",
        secs / games as f64,
        searches as f64 / games as f64,
        iters / secs
    );
}
