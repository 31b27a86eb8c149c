//! Seeded simulation: one game from a seed, and many games in parallel with
//! the same results on any number of threads (each game's seed is derived from
//! the master seed and its index, and results come back in index order).

use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use rayon::prelude::*;

use crate::kernel::diag::bad_input;
use crate::kernel::geometry::Pos;
use crate::kernel::tiles::TileSet;
use crate::kernel::{Bot, Game, Rules, Stats};
use crate::play::bots::BotKind;
use crate::play::course::{self, Course};
use crate::play::log;
use crate::play::seed::game_seed;
use crate::rules::script::limits::HOOK_STACK;
use crate::rules::script::{Fires, ScriptRules};
use crate::rules::{Ruleset, Worths};

/// Run `work` on a thread whose stack is the one the sandbox's depth limits
/// are made for ([`HOOK_STACK`], as rayon's workers in [`simulate`] have):
/// a program runs its commands in it, so hooks called outside a batch
/// (`play`, `replay`, `check`, `range`) end with an error, never a stack
/// overflow. Runs `work` on the calling thread if no thread can be started.
pub fn on_hook_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let mut work = Some(work);
    let ran = std::thread::scope(|s| {
        let slot = &mut work;
        hook_thread("towerlab".into())
            .spawn_scoped(s, move || slot.take().map(|w| w()))
            .ok()
            .map(|handle| handle.join())
    });
    match ran {
        Some(Ok(Some(value))) => value,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        _ => (work.take().expect("the work is still here"))(),
    }
}

/// The most worker threads a run may ask for (`--threads`).
pub const MAX_THREADS: usize = 256;

/// Address space one thread that runs hooks may take: its stack
/// ([`HOOK_STACK`], reserved whole) and room for its heap (an allocator
/// arena, a hook call's memory limit).
const THREAD_SPACE: usize = HOOK_STACK + (128 << 20);
/// Address space kept for all else: the program, its libraries, the games'
/// data, and the thread the command runs on.
const BASE_SPACE: usize = (1 << 30) + THREAD_SPACE;

/// The least address space a run of games needs: the command's thread and
/// one worker, each with its stack, and room for the rest.
const MIN_SPACE: usize = 2 * HOOK_STACK + (512 << 20);

/// How many threads that run hooks fit in the address space this process
/// may use (`ulimit -v`), beside the one the command runs on: at least 1;
/// [`MAX_THREADS`] with no limit.
pub fn threads_that_fit() -> usize {
    address_space_limit().map_or(MAX_THREADS, |limit| {
        (limit.saturating_sub(BASE_SPACE) / THREAD_SPACE).clamp(1, MAX_THREADS)
    })
}

/// The worker threads a run of `requested` threads gets: one per core for
/// 0, and never more than fit in the address space ([`threads_that_fit`]),
/// so a thread count too large for the machine is lowered, never an abort.
/// Results do not depend on it.
pub fn worker_threads(requested: usize) -> usize {
    let wanted = match requested {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    wanted.clamp(1, threads_that_fit())
}

/// The process's address-space limit in bytes, if it has one.
#[cfg(unix)]
fn address_space_limit() -> Option<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one `rlimit` into the struct it is given.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
    (read && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as usize)
}

#[cfg(not(unix))]
fn address_space_limit() -> Option<usize> {
    None
}

/// A thread named `name` with the stack every thread that runs hooks has
/// ([`HOOK_STACK`]): the command's, a served game's (rayon's workers are
/// given the same size in [`Workers::new`]).
pub fn hook_thread(name: String) -> std::thread::Builder {
    std::thread::Builder::new()
        .name(name)
        .stack_size(HOOK_STACK)
}

/// What one finished game leaves behind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// Towers at game end by the kind of their top floor (as long as the
    /// highest kind counted).
    pub towers_by_top: Vec<u32>,
    /// The final board's extent (min, max corners), so pictures of the game
    /// can share it without playing it to the end first.
    pub bounds: Option<(Pos, Pos)>,
    /// How the game unfolded (lead changes, options of the decisions…).
    pub course: Course,
    /// The game's log as JSON Lines, when asked for.
    pub log: Option<String>,
}

/// Play one game with random bots.
pub fn play_random<'a>(
    tiles: &'a TileSet,
    rules: &'a dyn Rules,
    players: usize,
    seed: u64,
) -> Result<Game<'a>> {
    let bots = vec![BotKind::RANDOM; players];
    play_with_course(tiles, rules, &bots, &Arc::default(), seed, false).map(|(game, _)| game)
}

/// Play one game of `set` (its tiles, its bots' values) under `rules` (an
/// instance of `set`'s) with the given bot in each seat, recording its
/// events when `record` is set.
pub fn play<'a>(
    set: &'a Ruleset,
    rules: &'a dyn Rules,
    bots: &[BotKind],
    seed: u64,
    record: bool,
) -> Result<Game<'a>> {
    play_with_course(set.tiles(), rules, bots, set.worths(), seed, record).map(|(game, _)| game)
}

/// [`play`], counting the game's [`Course`] as it goes.
pub fn play_with_course<'a>(
    tiles: &'a TileSet,
    rules: &'a dyn Rules,
    bots: &[BotKind],
    worths: &Arc<Worths>,
    seed: u64,
    record: bool,
) -> Result<(Game<'a>, Course)> {
    let mut game = Game::new(tiles, rules, bots.len(), seed)?;
    if record {
        game.record_events();
    }
    let course = course::play_counted(&mut game, seats(bots, worths, seed))?;
    Ok((game, course))
}

/// [`play_with_course`] of game `index` of `batch`, telling `fires` (packs
/// counting their fires) when a seat's bot decides, so the questions of its
/// search are counted apart from the game's.
fn play_watched<'a>(
    batch: &Batch<'a>,
    rules: &'a dyn Rules,
    seed: u64,
    fires: Option<&ScriptRules>,
) -> Result<(Game<'a>, Course)> {
    let (tiles, bots, worths, record) =
        (batch.set.tiles(), batch.bots, batch.set.worths(), batch.log);
    let mut game = Game::new(tiles, rules, bots.len(), seed)?;
    if record {
        game.record_events();
    }
    let seats: Vec<Box<dyn Bot + '_>> = seats(bots, worths, seed)
        .into_iter()
        .map(|bot| match fires {
            Some(rules) => Box::new(Searching { bot, rules }) as Box<dyn Bot + '_>,
            None => bot,
        })
        .collect();
    let course = course::play_counted(&mut game, seats)?;
    Ok((game, course))
}

/// A seat's bot whose decisions the fires count apart: what is asked while
/// it decides is its search's, not the game's.
struct Searching<'r> {
    bot: Box<dyn Bot>,
    rules: &'r ScriptRules,
}

impl Bot for Searching<'_> {
    fn decide(&mut self, game: &Game, decision: crate::kernel::Decision) -> Result<usize> {
        self.rules.fires_searching(true);
        let chosen = self.bot.decide(game, decision);
        self.rules.fires_searching(false);
        chosen
    }
}

/// The bot of each seat, each with its own random stream of the game `seed`
/// and the variant's values.
fn seats(bots: &[BotKind], worths: &Arc<Worths>, seed: u64) -> Vec<Box<dyn Bot>> {
    bots.iter()
        .enumerate()
        .map(|(seat, b)| b.make(seed, seat, worths))
        .collect()
}

/// Play one game with the given bots, recording events, and hand the game to
/// `after_turn` after the start tile and after every turn (for pictures of a
/// game step by step). The last call sees the game after final scoring.
pub fn play_observed<'a>(
    tiles: &'a TileSet,
    rules: &'a dyn Rules,
    bots: &[BotKind],
    worths: &Arc<Worths>,
    seed: u64,
    mut after_turn: impl FnMut(&Game) -> Result<()>,
) -> Result<Game<'a>> {
    let mut game = Game::new(tiles, rules, bots.len(), seed)?;
    game.record_events();
    let mut seats = seats(bots, worths, seed);
    let mut buf = crate::kernel::Buffers::default();
    after_turn(&game)?;
    while crate::kernel::play_turn(&mut game, &mut seats, &mut buf)? {
        after_turn(&game)?;
    }
    game.final_scoring()?;
    after_turn(&game)?;
    Ok(game)
}

/// Summarise a finished game that unfolded as `course`.
pub fn result_of(game: &Game, index: u64, seed: u64, course: Course) -> GameResult {
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
        towers_by_top: towers_by_top(game),
        bounds: game.board().bounds(),
        course,
        log: None,
    }
}

/// Towers by the kind of their top floor.
fn towers_by_top(game: &Game) -> Vec<u32> {
    let mut out = Vec::new();
    for top in game.towers().iter().filter_map(|t| t.floors.last()) {
        let k = *top as usize;
        if out.len() <= k {
            out.resize(k + 1, 0);
        }
        out[k] += 1;
    }
    out
}

/// A batch of games to simulate under one ruleset.
pub struct Batch<'a> {
    pub set: &'a Ruleset,
    /// The bot of each seat (so also the number of players).
    pub bots: &'a [BotKind],
    pub games: u64,
    pub master_seed: u64,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Keep each game's log (JSON Lines) in its result.
    pub log: bool,
}

/// Worker threads on stacks sized for hooks, each with its own rules
/// instance (with its caches), made on first use and kept for every game
/// that thread plays.
pub struct Workers<'s> {
    set: &'s Ruleset,
    pool: rayon::ThreadPool,
    slots: Vec<Mutex<Option<Instance>>>,
    /// Count which packs change their hooks' answers ([`Workers::fires`]).
    counting: bool,
}

/// A worker's rules: any implementation, or packs counting their fires.
enum Instance {
    Any(Box<dyn Rules>),
    Counting(Box<ScriptRules>),
}

impl Instance {
    fn rules(&self) -> &dyn Rules {
        match self {
            Instance::Any(rules) => rules.as_ref(),
            Instance::Counting(rules) => rules.as_ref(),
        }
    }
}

impl<'s> Workers<'s> {
    /// `threads` workers (0: one per core; at most what fits,
    /// [`worker_threads`]) for games under `set`.
    pub fn new(set: &'s Ruleset, threads: usize) -> Result<Workers<'s>> {
        if let Some(limit) = address_space_limit().filter(|&l| l < MIN_SPACE) {
            return Err(bad_input(format!(
                "an address space of {} MB (ulimit -v) is too small for a run: it needs {} MB, as each thread that runs hooks reserves a {} MB stack",
                limit >> 20,
                MIN_SPACE >> 20,
                HOOK_STACK >> 20
            )));
        }
        let count = worker_threads(threads);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(count)
            .stack_size(HOOK_STACK)
            .build()
            .map_err(|e| {
                bad_input(format!(
                    "cannot start {count} worker thread(s) on this machine ({e}): each reserves a {} MB stack; ask for fewer with --threads",
                    HOOK_STACK >> 20
                ))
            })?;
        let slots = (0..pool.current_num_threads())
            .map(|_| Mutex::new(None))
            .collect();
        Ok(Workers {
            set,
            pool,
            slots,
            counting: false,
        })
    }

    /// The same workers, their packs counting which of them change their
    /// hooks' answers (no effect under native rules).
    pub fn counting_fires(mut self, on: bool) -> Workers<'s> {
        self.counting = on;
        self
    }

    /// Run `f` on the workers (its parallel iterators use them).
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    /// Run `f` with the rules instance of the worker thread it runs on.
    pub fn with_rules<T>(&self, f: impl FnOnce(&dyn Rules) -> T) -> T {
        self.with_instance(|rules, _| f(rules))
    }

    /// Run `f` with the rules instance of the worker thread it runs on, and
    /// the same packs when they count their fires.
    fn with_instance<T>(&self, f: impl FnOnce(&dyn Rules, Option<&ScriptRules>) -> T) -> T {
        let slot = &self.slots[rayon::current_thread_index().unwrap_or(0) % self.slots.len()];
        let mut guard = slot.lock().unwrap_or_else(|e| e.into_inner());
        match guard.get_or_insert_with(|| self.instance()) {
            Instance::Counting(rules) => f(rules.as_ref(), Some(rules)),
            any => f(any.rules(), None),
        }
    }

    fn instance(&self) -> Instance {
        match self.set.script_rules().filter(|_| self.counting) {
            Some(rules) => {
                rules.count_fires();
                Instance::Counting(Box::new(rules))
            }
            None => Instance::Any(self.set.rules()),
        }
    }

    /// The fires counted by every worker, summed worker by worker in a
    /// fixed order; `None` unless counting under packs.
    pub fn fires(&self) -> Option<Fires> {
        let none = self.set.script_rules().filter(|_| self.counting)?;
        // Every pack hook is listed, even when no worker played a game.
        none.count_fires();
        let mut total = none.fires();
        for slot in &self.slots {
            let guard = slot.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(Instance::Counting(rules)) = guard.as_ref() {
                total.add(rules.fires());
            }
        }
        Some(total)
    }
}

/// Games are played in chunks of this many: each chunk in parallel, then
/// handed to the caller in index order, so logs can be written as they come
/// without holding a whole run in memory.
const CHUNK: u64 = 512;

/// Play every game of the batch in parallel. `progress` is called after each
/// game with the number finished so far; `each` receives every result in
/// index order (with its log, when asked for) before it is kept.
pub fn simulate(
    batch: &Batch,
    progress: &(dyn Fn(u64) + Sync),
    each: impl FnMut(&GameResult) -> Result<()>,
) -> Result<Vec<GameResult>> {
    simulate_from(batch, 0, progress, each)
}

/// [`simulate`] of the games from index `first` to the batch's `games`
/// (exclusive): a shard of a run, or the next games of a run that grows.
/// Game `i` is the same game it is in the whole run.
pub fn simulate_from(
    batch: &Batch,
    first: u64,
    progress: &(dyn Fn(u64) + Sync),
    each: impl FnMut(&GameResult) -> Result<()>,
) -> Result<Vec<GameResult>> {
    Ok(simulate_counted(batch, first, false, progress, each)?.0)
}

/// [`simulate_from`], counting with `fires` which packs changed their
/// hooks' answers (slower: every shorter chain of a hook is asked too);
/// the counts are `None` without `fires` or under native rules.
pub fn simulate_counted(
    batch: &Batch,
    first: u64,
    fires: bool,
    progress: &(dyn Fn(u64) + Sync),
    mut each: impl FnMut(&GameResult) -> Result<()>,
) -> Result<(Vec<GameResult>, Option<Fires>)> {
    let workers = Workers::new(batch.set, batch.threads)?.counting_fires(fires);
    let done = std::sync::atomic::AtomicU64::new(0);
    // The lowest index of a failed game so far: later games are skipped,
    // earlier ones still played, so the error reported is the first game's
    // to fail whatever the number of threads.
    let failed = std::sync::atomic::AtomicU64::new(u64::MAX);
    let mut results = Vec::with_capacity(batch.games.saturating_sub(first).min(1 << 20) as usize);
    let mut start = first;
    while start < batch.games {
        let end = (start + CHUNK).min(batch.games);
        let chunk: Vec<Option<Result<GameResult>>> = workers.install(|| {
            (start..end)
                .into_par_iter()
                .map(|index| {
                    if index > failed.load(std::sync::atomic::Ordering::Relaxed) {
                        return None;
                    }
                    let result = workers
                        .with_instance(|rules, fires| play_indexed(batch, rules, fires, index));
                    if result.is_err() {
                        failed.fetch_min(index, std::sync::atomic::Ordering::Relaxed);
                    }
                    progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                    Some(result)
                })
                .collect::<Vec<_>>()
        });
        // In index order: the first error is the lowest failed index.
        let chunk: Vec<GameResult> = chunk.into_iter().flatten().collect::<Result<_>>()?;
        for mut r in chunk {
            each(&r)?;
            r.log = None;
            results.push(r);
        }
        start = end;
    }
    Ok((results, workers.fires()))
}

/// Play game `index` of the batch on this worker's rules instance (which,
/// counting its fires, is told when a bot decides: `fires`).
fn play_indexed(
    batch: &Batch,
    rules: &dyn Rules,
    fires: Option<&ScriptRules>,
    index: u64,
) -> Result<GameResult> {
    let seed = game_seed(batch.master_seed, index);
    let (game, course) = play_watched(batch, rules, seed, fires)
        .with_context(|| format!("game {index} (seed {seed})"))?;
    let mut result = result_of(&game, index, seed, course);
    if batch.log {
        result.log = Some(log::game_log(batch.set, index, seed, &game)?);
    }
    Ok(result)
}
