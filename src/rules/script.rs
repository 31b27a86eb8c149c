//! Rule packs in Rhai: the sandboxed engine, the hooks and how packs compose,
//! and [`ScriptRules`], the scripted implementation of the kernel's
//! [`Rules`] interface.
//!
//! A variant is an ordered list of packs. For each hook, the packs that define
//! it form a chain; the last one answers, and may call `previous(...)` to ask
//! the one before it (the first one's `previous` gives the hook's default).
//! Hooks are pure, so every answer is cached: per floor stack for the tower
//! hooks, per (score, ransoms paid) for the ransom. Only `may_capture`, which
//! may read the board, is asked afresh, and only when some pack defines it.
//!
//! Scripts are untrusted: the engine limits operations, time and memory per
//! hook call (the hooks it calls included), call depth, expression depth and
//! the sizes of strings, arrays and maps; it loads no modules and has no clock,
//! and `print`/`debug` go nowhere. Hook arguments are registered
//! native types (`tower`, `meeple`, `board`) that read the game in place.

use cpu_time::ThreadTime;
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Result;
use rhai::{
    AST, Array, CallFnOptions, Dynamic, Engine, EvalAltResult, ImmutableString, Map, Position,
    Scope,
};
use rustc_hash::FxHashMap;

use crate::kernel::diag::{Source, bad_input, did_you_mean};
use crate::kernel::geometry::Pos;
use crate::kernel::{Board, FloorKind, MeepleView, Rules, StackView, TowerView};

/// The hooks a pack may define. See `docs/packs.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hook {
    Setup,
    MayPlaceFloor,
    MayTop,
    Reach,
    Range,
    MayCapture,
    Ransom,
}

impl Hook {
    pub const ALL: [Hook; 7] = [
        Hook::Setup,
        Hook::MayPlaceFloor,
        Hook::MayTop,
        Hook::Reach,
        Hook::Range,
        Hook::MayCapture,
        Hook::Ransom,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Hook::Setup => "setup",
            Hook::MayPlaceFloor => "may_place_floor",
            Hook::MayTop => "may_top",
            Hook::Reach => "reach",
            Hook::Range => "range",
            Hook::MayCapture => "may_capture",
            Hook::Ransom => "ransom",
        }
    }

    /// The hook's parameters, as documented.
    pub fn params(self) -> &'static [&'static str] {
        match self {
            Hook::Setup => &["players", "foundations"],
            Hook::MayPlaceFloor => &["tower", "kind"],
            Hook::MayTop => &["tower"],
            Hook::Reach => &["tower"],
            Hook::Range => &["tower", "reach"],
            Hook::MayCapture => &["tower", "meeple", "board"],
            Hook::Ransom => &["score", "paid"],
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The sandbox's limits.
pub mod limits {
    use std::time::Duration;

    /// Operations one hook call may run, the hooks it calls (`previous`,
    /// `capture_cells`…) included: a runaway loop ends here.
    pub const OPERATIONS: u64 = 1_000_000;
    /// CPU time one hook call may take (of its own thread, so a busy machine
    /// does not shorten it), the hooks it calls included. Operations differ in
    /// cost (copying a 10,000-element array is one), so this bounds what the
    /// operation count cannot.
    pub const TIME: Duration = Duration::from_secs(1);
    /// Memory one hook call may take hold of, the hooks it calls included:
    /// bytes the thread holds beyond what it held when the call began. Catches
    /// data grown past the size limits below where Rhai does not check them
    /// (values stored into an array slot, curried function pointers…).
    pub const MEMORY: usize = 32 << 20;
    pub const CALL_LEVELS: usize = 32;
    pub const EXPR_DEPTH: usize = 64;
    pub const STRING_SIZE: usize = 10_000;
    pub const ARRAY_SIZE: usize = 10_000;
    pub const MAP_SIZE: usize = 1_000;
    /// Hooks calling hooks (`previous`, `capture_cells`…) nest at most this deep.
    pub const NESTING: usize = 24;
}

struct ScriptPack {
    /// The pack's reference, as the variant lists it.
    name: String,
    path: PathBuf,
    ast: AST,
    params: Map,
    /// Where each hook's `fn` stands (line, column), for errors that Rhai
    /// reports without a position (too many operations, stack overflow).
    hook_lines: [(usize, usize); 7],
}

/// Compiled packs, shared by every thread.
pub struct Scripts {
    packs: Vec<ScriptPack>,
    /// For each hook, the packs (indices) that define it, in order.
    chains: [Vec<usize>; 7],
    kinds: Vec<String>,
    kind_names: Vec<ImmutableString>,
}

/// One script of a ruleset, ready to compile.
pub struct ScriptSource<'a> {
    pub pack: &'a str,
    pub source: &'a Source,
    pub params: Map,
}

impl Scripts {
    /// Compile every pack's script and find its hooks. Reports syntax errors
    /// and hooks of the wrong arity with `file:line:col`.
    pub fn compile(sources: &[ScriptSource], kinds: &[String]) -> Result<Scripts> {
        let engine = sandboxed_engine();
        let mut packs = Vec::new();
        let mut chains: [Vec<usize>; 7] = Default::default();
        for (i, s) in sources.iter().enumerate() {
            let mut ast = engine.compile(&s.source.text).map_err(|e| {
                let (line, col) = position(e.position());
                let message = e.err_type().to_string();
                let note = if message.contains("'import'") {
                    " (packs load no modules)"
                } else {
                    ""
                };
                bad_input(format!(
                    "pack `{}`: {}:{line}:{col}: {message}{note}",
                    s.pack,
                    s.source.path.display(),
                ))
            })?;
            ast.set_source(s.source.path.display().to_string());
            for f in ast.iter_functions() {
                if let Some(hook) = Hook::ALL.iter().find(|h| h.name() == f.name) {
                    if f.params.len() != hook.params().len() {
                        let (line, col) = definition_line(&s.source.text, hook.name());
                        return Err(bad_input(format!(
                            "pack `{}`: {}:{line}:{col}: hook `{}` takes {} parameters ({}), not {}",
                            s.pack,
                            s.source.path.display(),
                            hook.name(),
                            hook.params().len(),
                            hook.params().join(", "),
                            f.params.len()
                        )));
                    }
                    chains[hook.index()].push(i);
                }
            }
            packs.push(ScriptPack {
                name: s.pack.to_string(),
                path: s.source.path.clone(),
                ast,
                params: s.params.clone(),
                hook_lines: Hook::ALL.map(|h| definition_line(&s.source.text, h.name())),
            });
        }
        Ok(Scripts {
            packs,
            chains,
            kinds: kinds.to_vec(),
            kind_names: kinds
                .iter()
                .map(|k| ImmutableString::from(k.as_str()))
                .collect(),
        })
    }

    /// Warnings for functions whose names look like a misspelt hook.
    pub fn near_misses(&self) -> Vec<String> {
        let mut out = Vec::new();
        for p in &self.packs {
            for f in p.ast.iter_functions() {
                let close = Hook::ALL.iter().find(|h| {
                    h.name() != f.name && strsim::damerau_levenshtein(h.name(), f.name) <= 2
                });
                if let Some(hook) = close
                    && !Hook::ALL.iter().any(|h| h.name() == f.name)
                {
                    out.push(format!(
                        "pack `{}`: {}: function `{}` is not a hook, did you mean `{}`?",
                        p.name,
                        p.path.display(),
                        f.name,
                        hook.name()
                    ));
                }
            }
        }
        out
    }

    /// Which packs define `hook`, in order.
    pub fn chain(&self, hook: Hook) -> impl Iterator<Item = &str> {
        self.chains[hook.index()]
            .iter()
            .map(|&i| self.packs[i].name.as_str())
    }
}

/// The line and column of `fn NAME(` in a script, or (0, 0).
fn definition_line(text: &str, name: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        let body = line.trim_start();
        if let Some(rest) = body.strip_prefix("fn ")
            && rest
                .trim_start()
                .strip_prefix(name)
                .is_some_and(|r| r.trim_start().starts_with('('))
        {
            return (i + 1, line.len() - body.len() + 1);
        }
    }
    (0, 0)
}

fn position(pos: Position) -> (usize, usize) {
    (pos.line().unwrap_or(0), pos.position().unwrap_or(0))
}

/// A tower as a hook sees it. The hooks cached per floor stack get only
/// what the cache key covers: the floors and whether a meeple tops them.
#[derive(Clone, Debug)]
pub struct TowerInfo {
    floors: Array,
    has_meeple: bool,
    /// Only `may_capture` sees where the tower stands and whose meeple tops
    /// it; the other tower hooks are cached per floor stack, so they must not
    /// depend on either.
    placed: Option<Placed>,
}

/// Where a tower stands and whose meeple tops it, for `may_capture`.
#[derive(Clone, Copy, Debug)]
struct Placed {
    pos: Pos,
    owner: Option<i64>,
}

/// A meeple as `may_capture` sees it.
#[derive(Clone, Debug)]
pub struct MeepleInfo {
    owner: i64,
    pos: Pos,
    tower: Pos,
    on: ImmutableString,
}

/// The board, as `may_capture` reads it (in place, not a copy).
#[derive(Clone, Copy, Debug)]
pub struct BoardRef;

scoped_tls::scoped_thread_local!(static RULES: ScriptRules);
scoped_tls::scoped_thread_local!(static BOARD: Board);

/// Memory accounting for [`limits::MEMORY`]: the global allocator counts, per
/// thread, the bytes the thread holds.
mod memory {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    struct Counting;

    #[global_allocator]
    static ALLOCATOR: Counting = Counting;

    thread_local! {
        /// Bytes allocated minus bytes freed by this thread.
        static HELD: Cell<isize> = const { Cell::new(0) };
    }

    fn count(delta: isize) {
        // A `const` thread-local with no destructor never allocates and is
        // always available.
        let _ = HELD.try_with(|h| h.set(h.get().wrapping_add(delta)));
    }

    /// Bytes this thread has allocated and not freed (only differences mean
    /// anything: memory may be freed by another thread than its allocator's).
    pub fn held() -> isize {
        HELD.try_with(Cell::get).unwrap_or(0)
    }

    // SAFETY: every call goes to the system allocator unchanged; counting
    // touches one thread-local integer and does not allocate.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
            let p = unsafe { System.alloc(layout) };
            if !p.is_null() {
                count(layout.size() as isize);
            }
            p
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: as for `alloc`.
            let p = unsafe { System.alloc_zeroed(layout) };
            if !p.is_null() {
                count(layout.size() as isize);
            }
            p
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` came from this allocator, i.e. from `System`.
            unsafe { System.dealloc(ptr, layout) };
            count(-(layout.size() as isize));
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: `ptr` came from `System`; the caller upholds the rest.
            let p = unsafe { System.realloc(ptr, layout, new_size) };
            if !p.is_null() {
                count(new_size as isize - layout.size() as isize);
            }
            p
        }
    }
}

/// A limit that a hook call (with the hooks it calls) broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Limit {
    Operations,
    Time,
    Memory,
}

impl Limit {
    const ALL: [Limit; 3] = [Limit::Operations, Limit::Time, Limit::Memory];

    fn token(self) -> &'static str {
        match self {
            Limit::Operations => "operations",
            Limit::Time => "time",
            Limit::Memory => "memory",
        }
    }

    fn message(self) -> String {
        match self {
            Limit::Operations => format!(
                "Too many operations, counting the hooks it called (limit: {} operations \
                 per hook call; a runaway loop?)",
                limits::OPERATIONS
            ),
            Limit::Time => format!(
                "Took more than {} s of CPU time (limit per hook call, the hooks it calls included; \
                 a runaway loop over large data?)",
                limits::TIME.as_secs_f64()
            ),
            Limit::Memory => format!(
                "Used more than {} MB of memory (limit per hook call, the hooks it calls \
                 included; data growing without bound?)",
                limits::MEMORY >> 20
            ),
        }
    }
}

/// What the current top-level hook call, with the hooks it calls, has spent.
#[derive(Clone, Copy, Debug)]
struct Budget {
    operations: u64,
    /// CPU time of this thread when the call began: unlike the wall clock,
    /// it does not run while other processes have the processor, so a busy
    /// machine cannot stop a hook that would finish elsewhere.
    started: std::time::Duration,
    held: isize,
    /// The limit broken, once one is: every later operation of the call stops
    /// too, so that a script cannot catch the error and carry on.
    broken: Option<Limit>,
}

impl Budget {
    fn start() -> Budget {
        Budget {
            operations: 0,
            started: ThreadTime::now().as_duration(),
            held: memory::held(),
            broken: None,
        }
    }
}

fn rt_error(message: impl Into<String>) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(Dynamic::from(message.into()), Position::NONE).into()
}

fn sandboxed_engine() -> Engine {
    let mut engine = Engine::new();
    engine
        .set_max_operations(limits::OPERATIONS)
        .set_max_call_levels(limits::CALL_LEVELS)
        .set_max_expr_depths(limits::EXPR_DEPTH, limits::EXPR_DEPTH)
        .set_max_string_size(limits::STRING_SIZE)
        .set_max_array_size(limits::ARRAY_SIZE)
        .set_max_map_size(limits::MAP_SIZE)
        .set_max_modules(0)
        .set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new())
        .on_print(|_| {})
        .on_debug(|_, _, _| {})
        .on_progress(|_| {
            if RULES.is_set() {
                RULES
                    .with(ScriptRules::spend)
                    .map(|l| Dynamic::from(l.token()))
            } else {
                None
            }
        })
        .disable_symbol("eval")
        .disable_symbol("import");
    // Rhai checks a map's size when a function returns it, not when a new
    // key is stored (`m[k] = v`, `m.k = v`): check it whenever the map is
    // named again. (`on_var` is marked volatile by Rhai, not deprecated.)
    #[allow(deprecated)]
    engine.on_var(|name, _, context| {
        let too_big = context.scope().get(name).is_some_and(|v| {
            v.read_lock::<Map>()
                .is_some_and(|m| m.len() > limits::MAP_SIZE)
        });
        if too_big {
            Err(
                EvalAltResult::ErrorDataTooLarge("Size of object map".into(), Position::NONE)
                    .into(),
            )
        } else {
            Ok(None)
        }
    });
    register_api(&mut engine);
    engine
}

fn register_api(engine: &mut Engine) {
    engine
        .register_type_with_name::<TowerInfo>("Tower")
        .register_get("height", |t: &mut TowerInfo| t.floors.len() as i64)
        .register_get("floors", |t: &mut TowerInfo| t.floors.clone())
        .register_get("top", |t: &mut TowerInfo| {
            t.floors
                .last()
                .cloned()
                .unwrap_or_else(|| Dynamic::from(""))
        })
        .register_get("has_meeple", |t: &mut TowerInfo| t.has_meeple)
        .register_get("meeple_owner", |t: &mut TowerInfo| {
            placed(t, "meeple_owner").map(|p| p.owner.map_or(Dynamic::UNIT, Dynamic::from))
        })
        .register_fn("count", |t: &mut TowerInfo, kind: ImmutableString| {
            t.floors
                .iter()
                .filter(|f| f.read_lock::<ImmutableString>().is_some_and(|n| *n == kind))
                .count() as i64
        })
        .register_get("x", |t: &mut TowerInfo| {
            placed(t, "x").map(|p| p.pos.x as i64)
        })
        .register_get("y", |t: &mut TowerInfo| {
            placed(t, "y").map(|p| p.pos.y as i64)
        });
    engine
        .register_type_with_name::<MeepleInfo>("Meeple")
        .register_get("owner", |m: &mut MeepleInfo| m.owner)
        .register_get("x", |m: &mut MeepleInfo| m.pos.x as i64)
        .register_get("y", |m: &mut MeepleInfo| m.pos.y as i64)
        .register_get("dx", |m: &mut MeepleInfo| (m.pos.x - m.tower.x) as i64)
        .register_get("dy", |m: &mut MeepleInfo| (m.pos.y - m.tower.y) as i64)
        .register_get("on", |m: &mut MeepleInfo| m.on.clone());
    engine
        .register_type_with_name::<BoardRef>("Board")
        .register_fn("has_tile", |_: &mut BoardRef, x: i64, y: i64| {
            with_board(|b| b.has_tile(Pos::new(clamp(x), clamp(y))))
        })
        .register_fn(
            "range_steps",
            |_: &mut BoardRef, tower: TowerInfo, dx: i64, dy: i64| {
                let origin = tower_pos(&tower)?;
                let cells = with_rules(|r| r.range_of_stack(&tower))??;
                with_board(|b| path_steps(b, origin, &cells, (clamp(dx), clamp(dy))))
            },
        )
        .register_fn(
            "path_steps",
            |_: &mut BoardRef, tower: TowerInfo, cells: Array, dx: i64, dy: i64| {
                let origin = tower_pos(&tower)?;
                let cells = cells_of(&cells)?;
                with_board(|b| path_steps(b, origin, &cells, (clamp(dx), clamp(dy))))
            },
        );
    engine.register_fn("cells_within", |steps: Array, reach: i64| {
        let steps = cells_of(&steps)?;
        let cells = cells_within(&steps, reach, limits::ARRAY_SIZE).ok_or_else(|| {
            rt_error(format!(
                "`cells_within` would give more than {} cells (the array size limit)",
                limits::ARRAY_SIZE
            ))
        })?;
        Ok::<Array, Box<EvalAltResult>>(
            cells
                .into_iter()
                .map(|(x, y)| Dynamic::from(vec![Dynamic::from(x as i64), Dynamic::from(y as i64)]))
                .collect(),
        )
    });
    engine.register_fn("previous", |a: Dynamic| previous(vec![a]));
    engine.register_fn("previous", |a: Dynamic, b: Dynamic| previous(vec![a, b]));
    engine.register_fn("previous", |a: Dynamic, b: Dynamic, c: Dynamic| {
        previous(vec![a, b, c])
    });
    engine.register_fn("param", |name: ImmutableString| {
        with_rules(|r| r.param(&name))?
    });
    engine.register_fn("capture_cells", |tower: TowerInfo| {
        with_rules(|r| r.cells_of_stack(&tower))?
    });
    engine.register_fn("capture_reach", |tower: TowerInfo| {
        with_rules(|r| r.reach_of_stack(&tower))?
    });
}

fn clamp(v: i64) -> i32 {
    v.clamp(i32::MIN as i64 / 2, i32::MAX as i64 / 2) as i32
}

fn tower_pos(t: &TowerInfo) -> Result<Pos, Box<EvalAltResult>> {
    placed(t, "x").map(|p| p.pos)
}

/// Where the tower stands and whose meeple tops it, or the error that names
/// what a hook cached per floor stack may read instead.
fn placed(t: &TowerInfo, what: &str) -> Result<Placed, Box<EvalAltResult>> {
    t.placed.ok_or_else(|| {
        rt_error(format!(
            "`tower.{what}` is only known in `may_capture`: the other tower hooks are \
             cached per floor stack and may read only `tower.height`, `tower.floors`, \
             `tower.top`, `tower.count(kind)` and `tower.has_meeple`"
        ))
    })
}

fn with_board<T>(f: impl FnOnce(&Board) -> T) -> Result<T, Box<EvalAltResult>> {
    if BOARD.is_set() {
        Ok(BOARD.with(f))
    } else {
        Err(rt_error("the board is only available in `may_capture`"))
    }
}

fn with_rules<T>(f: impl FnOnce(&ScriptRules) -> T) -> Result<T, Box<EvalAltResult>> {
    if RULES.is_set() {
        Ok(RULES.with(f))
    } else {
        Err(rt_error("this function is only available inside a hook"))
    }
}

fn previous(args: Vec<Dynamic>) -> Result<Dynamic, Box<EvalAltResult>> {
    with_rules(|r| {
        let frame = r.stack.borrow().last().copied();
        let Some((hook, pos)) = frame else {
            return Err(rt_error("`previous` is only available inside a hook"));
        };
        if args.len() != hook.params().len() {
            return Err(rt_error(format!(
                "`previous` in hook `{}` takes the hook's {} arguments ({})",
                hook.name(),
                hook.params().len(),
                hook.params().join(", ")
            )));
        }
        if pos == 0 {
            r.default_answer(hook, &args)
        } else {
            r.call_level(hook, pos - 1, args)
        }
    })?
}

fn cells_of(cells: &Array) -> Result<Vec<(i32, i32)>, Box<EvalAltResult>> {
    cells
        .iter()
        .map(|c| cell_of(c).ok_or_else(|| rt_error(format!("`{c}` is not a [dx, dy] cell"))))
        .collect()
}

fn cell_of(c: &Dynamic) -> Option<(i32, i32)> {
    let pair = c.read_lock::<Array>()?;
    match pair.as_slice() {
        [dx, dy] => Some((clamp(dx.as_int().ok()?), clamp(dy.as_int().ok()?))),
        _ => None,
    }
}

/// Every cell reached from (0, 0) by at most `reach` of the given steps, in
/// the order first reached, (0, 0) first; `None` past `limit` cells. The
/// breadth-first walk is here, not in scripts, because it is a bulk loop.
pub fn cells_within(steps: &[(i32, i32)], reach: i64, limit: usize) -> Option<Vec<(i32, i32)>> {
    if reach < 0 {
        return Some(Vec::new());
    }
    let mut seen: rustc_hash::FxHashSet<(i32, i32)> = rustc_hash::FxHashSet::default();
    let mut cells: Vec<(i32, i32)> = vec![(0, 0)];
    seen.insert((0, 0));
    let mut frontier = 0;
    for _ in 0..reach {
        let end = cells.len();
        for i in frontier..end {
            let (x, y) = cells[i];
            for &(sx, sy) in steps {
                let next = (x.saturating_add(sx), y.saturating_add(sy));
                if seen.insert(next) {
                    if cells.len() >= limit {
                        return None;
                    }
                    cells.push(next);
                }
            }
        }
        if end == cells.len() {
            break;
        }
        frontier = end;
    }
    Some(cells)
}

/// The fewest steps from `origin` to `origin + target` through cells of
/// `cells` (offsets) that hold a tile: a step goes to an orthogonal
/// neighbour, or to a diagonal one when neither corner cell between them is in
/// `cells`. `-1` when no such path exists.
pub fn path_steps(board: &Board, origin: Pos, cells: &[(i32, i32)], target: (i32, i32)) -> i64 {
    let inside = |c: (i32, i32)| cells.contains(&c);
    let usable = |c: (i32, i32)| inside(c) && board.has_tile(origin.offset(c.0, c.1));
    if !usable((0, 0)) || !usable(target) {
        return -1;
    }
    let mut dist: FxHashMap<(i32, i32), i64> = FxHashMap::default();
    let mut queue = std::collections::VecDeque::new();
    dist.insert((0, 0), 0);
    queue.push_back((0, 0));
    while let Some(c) = queue.pop_front() {
        let d = dist[&c];
        if c == target {
            return d;
        }
        for (sx, sy) in [
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let next = (c.0 + sx, c.1 + sy);
            let diagonal = sx != 0 && sy != 0;
            if diagonal && (inside((c.0 + sx, c.1)) || inside((c.0, c.1 + sy))) {
                continue;
            }
            if usable(next) && !dist.contains_key(&next) {
                dist.insert(next, d + 1);
                queue.push_back(next);
            }
        }
    }
    -1
}

/// What the cache keeps per (floor stack, meeple on top).
#[derive(Default)]
struct StackAnswers {
    may_place: Vec<Option<bool>>,
    may_top: Option<bool>,
    reach: Option<i64>,
    range: Option<Arc<[(i32, i32)]>>,
}

/// Floor kinds are below 32, so these marks never clash with a floor.
const NO_MEEPLE_MARK: u8 = 0xF0;
const MEEPLE_MARK: u8 = 0xF1;

#[derive(Default)]
struct Cache {
    /// Keyed by the floor stack followed by a meeple mark.
    stacks: FxHashMap<Vec<u8>, StackAnswers>,
    ransom: FxHashMap<(u32, u32), Option<u32>>,
    setup: FxHashMap<(usize, usize), Vec<u32>>,
}

/// The scripted implementation of [`Rules`]: one per thread, sharing the
/// compiled [`Scripts`].
pub struct ScriptRules {
    scripts: Arc<Scripts>,
    engine: Engine,
    cache: RefCell<Cache>,
    /// Hook calls in progress: (hook, position in its chain).
    stack: RefCell<Vec<(Hook, usize)>>,
    /// The first error of the current top-level call, described.
    error: RefCell<Option<String>>,
    /// What the current top-level call has spent of the sandbox's limits.
    budget: Cell<Budget>,
}

impl ScriptRules {
    pub fn new(scripts: Arc<Scripts>) -> ScriptRules {
        ScriptRules {
            scripts,
            engine: sandboxed_engine(),
            cache: RefCell::new(Cache::default()),
            stack: RefCell::new(Vec::new()),
            error: RefCell::new(None),
            budget: Cell::new(Budget::start()),
        }
    }

    /// Count one operation of the current top-level call; the limit broken,
    /// if any.
    fn spend(&self) -> Option<Limit> {
        let mut b = self.budget.get();
        if b.broken.is_none() {
            b.operations += 1;
            // Memory and time are looked at every 16 operations: one
            // operation takes at most about a megabyte and a millisecond.
            let look = b.operations.is_multiple_of(16);
            b.broken = if b.operations > limits::OPERATIONS {
                Some(Limit::Operations)
            } else if look && memory::held().wrapping_sub(b.held) > limits::MEMORY as isize {
                Some(Limit::Memory)
            } else if look
                && ThreadTime::now().as_duration().saturating_sub(b.started) > limits::TIME
            {
                Some(Limit::Time)
            } else {
                None
            };
            self.budget.set(b);
        }
        b.broken
    }

    pub fn scripts(&self) -> &Scripts {
        &self.scripts
    }

    fn tower_info(
        &self,
        floors: &[FloorKind],
        has_meeple: bool,
        placed: Option<Placed>,
    ) -> TowerInfo {
        TowerInfo {
            floors: floors
                .iter()
                .map(|&k| Dynamic::from(self.scripts.kind_names[k as usize].clone()))
                .collect(),
            has_meeple,
            placed,
        }
    }

    fn stack_of(&self, tower: &TowerInfo) -> Result<Vec<FloorKind>, Box<EvalAltResult>> {
        tower
            .floors
            .iter()
            .map(|f| {
                let name = f.clone().into_immutable_string().unwrap_or_default();
                self.scripts
                    .kind_names
                    .iter()
                    .position(|k| *k == name)
                    .map(|i| i as FloorKind)
                    .ok_or_else(|| rt_error(format!("unknown floor kind `{name}`")))
            })
            .collect()
    }

    /// Call a hook from the top of its chain, with the board readable when
    /// given. Errors name the pack, hook, file and line.
    fn call(&self, hook: Hook, args: Vec<Dynamic>, board: Option<&Board>) -> Result<Dynamic> {
        let chain = &self.scripts.chains[hook.index()];
        let top_level = self.stack.borrow().is_empty();
        if top_level {
            // An error a script caught in an earlier call is not this one's.
            self.error.borrow_mut().take();
            self.budget.set(Budget::start());
        }
        let run = || {
            if chain.is_empty() {
                self.default_answer(hook, &args)
            } else {
                self.call_level(hook, chain.len() - 1, args.clone())
            }
        };
        let result = RULES.set(self, || match board {
            Some(b) => BOARD.set(b, run),
            None => run(),
        });
        match result {
            Ok(v) => Ok(v),
            Err(e) => {
                let described = if top_level {
                    self.error.borrow_mut().take()
                } else {
                    self.error.borrow().clone()
                };
                Err(bad_input(described.unwrap_or_else(|| {
                    format!("hook `{}`: {}", hook.name(), e.unwrap_inner())
                })))
            }
        }
    }

    fn call_level(
        &self,
        hook: Hook,
        pos: usize,
        args: Vec<Dynamic>,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let pack = &self.scripts.packs[self.scripts.chains[hook.index()][pos]];
        if self.stack.borrow().len() >= limits::NESTING {
            let (line, col) = pack.hook_lines[hook.index()];
            let message = format!(
                "pack `{}`, hook `{}`: {}:{line}:{col}: hooks call each other more than {} deep \
                 (does a hook ask for its own answer, e.g. `capture_cells` inside `range`?)",
                pack.name,
                hook.name(),
                pack.path.display(),
                limits::NESTING
            );
            self.error.borrow_mut().get_or_insert(message.clone());
            return Err(rt_error(message));
        }
        self.stack.borrow_mut().push((hook, pos));
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(false);
        let result = self.engine.call_fn_with_options::<Dynamic>(
            options,
            &mut Scope::new(),
            &pack.ast,
            hook.name(),
            args,
        );
        self.stack.borrow_mut().pop();
        if let Err(e) = &result {
            let mut slot = self.error.borrow_mut();
            if slot.is_none() {
                *slot = Some(describe(pack, hook, e));
            }
        }
        result
    }

    /// A hook's answer when no pack (or no earlier pack) defines it.
    fn default_answer(&self, hook: Hook, args: &[Dynamic]) -> Result<Dynamic, Box<EvalAltResult>> {
        Ok(match hook {
            Hook::Setup => Dynamic::from(Map::new()),
            Hook::MayPlaceFloor | Hook::MayTop => Dynamic::FALSE,
            Hook::Reach => {
                let tower = args[0]
                    .clone()
                    .try_cast::<TowerInfo>()
                    .ok_or_else(|| rt_error("`previous` in `reach` takes a tower"))?;
                Dynamic::from(tower.floors.len() as i64)
            }
            Hook::Range => Dynamic::from(Array::new()),
            Hook::MayCapture => Dynamic::TRUE,
            Hook::Ransom => Dynamic::UNIT,
        })
    }

    fn param(&self, name: &str) -> Result<Dynamic, Box<EvalAltResult>> {
        let frame = self.stack.borrow().last().copied();
        let Some((hook, pos)) = frame else {
            return Err(rt_error("`param` is only available inside a hook"));
        };
        let pack = &self.scripts.packs[self.scripts.chains[hook.index()][pos]];
        pack.params.get(name).cloned().ok_or_else(|| {
            rt_error(format!(
                "pack `{}` declares no parameter `{name}`{}",
                pack.name,
                did_you_mean(name, pack.params.keys().map(|k| k.as_str()))
            ))
        })
    }

    /// Run `f` on the cached answers for a floor stack (and whether a meeple
    /// stands on top). The key is built on the stack: a cache hit allocates
    /// nothing.
    fn entry<T>(
        &self,
        floors: &[FloorKind],
        meeple: bool,
        f: impl FnOnce(&mut StackAnswers) -> T,
    ) -> T {
        let mut cache = self.cache.borrow_mut();
        let marker = if meeple { MEEPLE_MARK } else { NO_MEEPLE_MARK };
        let mut small = [0u8; 32];
        let heap;
        let key: &[u8] = if floors.len() < small.len() {
            small[..floors.len()].copy_from_slice(floors);
            small[floors.len()] = marker;
            &small[..=floors.len()]
        } else {
            heap = [floors, &[marker]].concat();
            &heap
        };
        if let Some(e) = cache.stacks.get_mut(key) {
            return f(e);
        }
        f(cache.stacks.entry(key.to_vec()).or_default())
    }

    fn cached_reach(&self, floors: &[FloorKind], meeple: bool) -> Result<i64> {
        if let Some(r) = self.entry(floors, meeple, |e| e.reach) {
            return Ok(r);
        }
        let tower = self.tower_info(floors, meeple, None);
        let v = self.call(Hook::Reach, vec![Dynamic::from(tower)], None)?;
        let reach = v
            .as_int()
            .map_err(|t| self.wrong_type(Hook::Reach, &v, t, "an integer"))?;
        self.entry(floors, meeple, |e| e.reach = Some(reach));
        Ok(reach)
    }

    fn cached_range(&self, floors: &[FloorKind], meeple: bool) -> Result<Arc<[(i32, i32)]>> {
        if let Some(r) = self.entry(floors, meeple, |e| e.range.clone()) {
            return Ok(r);
        }
        let reach = self.cached_reach(floors, meeple)?;
        let tower = self.tower_info(floors, meeple, None);
        let v = self.call(
            Hook::Range,
            vec![Dynamic::from(tower), Dynamic::from(reach)],
            None,
        )?;
        let cells: Arc<[(i32, i32)]> = v
            .read_lock::<Array>()
            .and_then(|a| a.iter().map(cell_of).collect::<Option<Vec<_>>>())
            .ok_or_else(|| {
                self.wrong_type(
                    Hook::Range,
                    &v,
                    v.type_name(),
                    "an array of [dx, dy] pairs of integers",
                )
            })?
            .into();
        self.entry(floors, meeple, |e| e.range = Some(cells.clone()));
        Ok(cells)
    }

    /// The variant's whole range for this tower's stack, from the cache.
    fn range_of_stack(&self, tower: &TowerInfo) -> Result<Arc<[(i32, i32)]>, Box<EvalAltResult>> {
        let floors = self.stack_of(tower)?;
        self.cached_range(&floors, tower.has_meeple)
            .map_err(|e| rt_error(format!("{e:#}")))
    }

    fn cells_of_stack(&self, tower: &TowerInfo) -> Result<Array, Box<EvalAltResult>> {
        let cells = self.range_of_stack(tower)?;
        Ok(cells
            .iter()
            .map(|&(x, y)| Dynamic::from(vec![Dynamic::from(x as i64), Dynamic::from(y as i64)]))
            .collect())
    }

    fn reach_of_stack(&self, tower: &TowerInfo) -> Result<i64, Box<EvalAltResult>> {
        let floors = self.stack_of(tower)?;
        self.cached_reach(&floors, tower.has_meeple)
            .map_err(|e| rt_error(format!("{e:#}")))
    }

    /// "pack `NAME` (FILE)" of the pack whose hook answers last.
    fn answering_pack(&self, hook: Hook) -> String {
        self.scripts.chains[hook.index()]
            .last()
            .map(|&i| {
                let p = &self.scripts.packs[i];
                format!("pack `{}` ({})", p.name, p.path.display())
            })
            .unwrap_or_else(|| "the default".to_string())
    }

    fn wrong_type(
        &self,
        hook: Hook,
        value: &Dynamic,
        type_name: &str,
        expected: &str,
    ) -> anyhow::Error {
        let who = self.answering_pack(hook);
        let mut shown = value.to_string();
        if shown.len() > 80 {
            shown.truncate(80);
            shown.push('…');
        }
        bad_input(format!(
            "hook `{}` of {who} returned {type_name} `{shown}`; expected {expected}",
            hook.name()
        ))
    }

    fn ask_bool(&self, hook: Hook, args: Vec<Dynamic>, board: Option<&Board>) -> Result<bool> {
        let v = self.call(hook, args, board)?;
        v.as_bool()
            .map_err(|t| self.wrong_type(hook, &v, t, "a bool (true or false)"))
    }

    /// Does any pack define `may_capture`?
    fn filters_captures(&self) -> bool {
        !self.scripts.chains[Hook::MayCapture.index()].is_empty()
    }
}

fn describe(pack: &ScriptPack, hook: Hook, e: &EvalAltResult) -> String {
    let inner = e.unwrap_inner();
    let pos = if inner.position().is_none() {
        e.position()
    } else {
        inner.position()
    };
    let (line, col) = if pos.is_none() {
        pack.hook_lines[hook.index()]
    } else {
        position(pos)
    };
    let terminated = match inner {
        EvalAltResult::ErrorTerminated(token, _) => {
            let token = token.to_string();
            Limit::ALL.into_iter().find(|l| l.token() == token)
        }
        _ => None,
    };
    let hint = match inner {
        _ if terminated.is_some() => String::new(),
        EvalAltResult::ErrorTooManyOperations(..) => {
            format!(
                " (limit: {} operations per hook call; a runaway loop?)",
                limits::OPERATIONS
            )
        }
        EvalAltResult::ErrorStackOverflow(..) => {
            format!(
                " (limit: {} nested calls; runaway recursion?)",
                limits::CALL_LEVELS
            )
        }
        EvalAltResult::ErrorDataTooLarge(..) => {
            " (see the sandbox's size limits in docs/packs.md)".to_string()
        }
        _ => String::new(),
    };
    let mut message = match (terminated, inner) {
        (Some(limit), _) => limit.message(),
        (None, EvalAltResult::ErrorRuntime(value, _)) => value.to_string(),
        (None, other) => other.to_string(),
    };
    if let Some(cut) = message.find(" (line ") {
        message.truncate(cut);
    }
    format!(
        "pack `{}`, hook `{}`: {}:{line}:{col}: {message}{hint}",
        pack.name,
        hook.name(),
        pack.path.display()
    )
}

impl Rules for ScriptRules {
    fn floor_kinds(&self) -> &[String] {
        &self.scripts.kinds
    }

    fn floor_supply(&self, players: usize, foundation_tiles: usize) -> Result<Vec<u32>> {
        if let Some(s) = self.cache.borrow().setup.get(&(players, foundation_tiles)) {
            return Ok(s.clone());
        }
        let v = self.call(
            Hook::Setup,
            vec![
                Dynamic::from(players as i64),
                Dynamic::from(foundation_tiles as i64),
            ],
            None,
        )?;
        let expected = "a map from floor kind to a count, e.g. #{ regular: 10 }";
        let map = v
            .read_lock::<Map>()
            .map(|m| m.clone())
            .ok_or_else(|| self.wrong_type(Hook::Setup, &v, v.type_name(), expected))?;
        let mut supply = vec![0u32; self.scripts.kinds.len()];
        for (name, count) in &map {
            let Some(k) = self.scripts.kinds.iter().position(|k| k == name.as_str()) else {
                return Err(bad_input(format!(
                    "hook `setup` of {} gave floors of kind `{name}`, which no pack declares{}",
                    self.answering_pack(Hook::Setup),
                    did_you_mean(name, self.scripts.kinds.iter().map(String::as_str))
                )));
            };
            let n = count
                .as_int()
                .ok()
                .filter(|n| (0..=1000).contains(n))
                .ok_or_else(|| {
                    self.wrong_type(Hook::Setup, &v, v.type_name(), "counts from 0 to 1000")
                })?;
            supply[k] = n as u32;
        }
        self.cache
            .borrow_mut()
            .setup
            .insert((players, foundation_tiles), supply.clone());
        Ok(supply)
    }

    fn may_place_floor(&self, stack: &StackView, kind: FloorKind) -> Result<bool> {
        let k = kind as usize;
        let meeple = stack.topped;
        if let Some(a) = self.entry(stack.floors, meeple, |e| {
            e.may_place.get(k).copied().flatten()
        }) {
            return Ok(a);
        }
        let info = self.tower_info(stack.floors, meeple, None);
        let name = Dynamic::from(self.scripts.kind_names[k].clone());
        let a = self.ask_bool(Hook::MayPlaceFloor, vec![Dynamic::from(info), name], None)?;
        let n = self.scripts.kinds.len();
        self.entry(stack.floors, meeple, |e| {
            e.may_place.resize(n, None);
            e.may_place[k] = Some(a);
        });
        Ok(a)
    }

    fn may_top(&self, stack: &StackView) -> Result<bool> {
        let meeple = stack.topped;
        if let Some(a) = self.entry(stack.floors, meeple, |e| e.may_top) {
            return Ok(a);
        }
        let info = self.tower_info(stack.floors, meeple, None);
        let a = self.ask_bool(Hook::MayTop, vec![Dynamic::from(info)], None)?;
        self.entry(stack.floors, meeple, |e| e.may_top = Some(a));
        Ok(a)
    }

    fn capture_range(&self, stack: &StackView, out: &mut Vec<(i32, i32)>) -> Result<()> {
        out.extend_from_slice(&self.cached_range(stack.floors, stack.topped)?);
        Ok(())
    }

    fn may_capture(&self, tower: &TowerView, meeple: &MeepleView, board: &Board) -> Result<bool> {
        if !self.filters_captures() {
            return Ok(true);
        }
        let placed = Placed {
            pos: tower.pos,
            owner: tower.meeple.map(|m| m as i64),
        };
        let info = self.tower_info(tower.floors, tower.meeple.is_some(), Some(placed));
        let m = MeepleInfo {
            owner: meeple.owner as i64,
            pos: meeple.pos,
            tower: tower.pos,
            on: ImmutableString::from(meeple.on.name()),
        };
        self.ask_bool(
            Hook::MayCapture,
            vec![
                Dynamic::from(info),
                Dynamic::from(m),
                Dynamic::from(BoardRef),
            ],
            Some(board),
        )
    }

    fn ransom_cost(&self, score: u32, paid_this_turn: u32) -> Result<Option<u32>> {
        if let Some(&c) = self.cache.borrow().ransom.get(&(score, paid_this_turn)) {
            return Ok(c);
        }
        let v = self.call(
            Hook::Ransom,
            vec![
                Dynamic::from(score as i64),
                Dynamic::from(paid_this_turn as i64),
            ],
            None,
        )?;
        let cost = if v.is_unit() {
            None
        } else {
            let n = v
                .as_int()
                .ok()
                .filter(|n| (0..=u32::MAX as i64).contains(n))
                .ok_or_else(|| {
                    self.wrong_type(
                        Hook::Ransom,
                        &v,
                        v.type_name(),
                        "a cost of 0 or more points, or () for no ransom",
                    )
                })?;
            Some(n as u32)
        };
        self.cache
            .borrow_mut()
            .ransom
            .insert((score, paid_this_turn), cost);
        Ok(cost)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

    #[test]
    fn h4_cells_within_two_orthogonal_steps_make_a_diamond_of_13() {
        let cells = cells_within(&ORTHOGONAL, 2, 100).unwrap();
        assert_eq!(cells.len(), 13);
        assert_eq!(cells[0], (0, 0));
        assert!(cells.iter().all(|(x, y)| x.abs() + y.abs() <= 2));
        assert!(
            cells.contains(&(1, 1)),
            "a diagonal neighbour is 2 steps away"
        );
    }

    #[test]
    fn cells_within_no_reach_is_the_tile_itself_and_negative_is_nothing() {
        assert_eq!(cells_within(&ORTHOGONAL, 0, 100).unwrap(), vec![(0, 0)]);
        assert!(cells_within(&ORTHOGONAL, -1, 100).unwrap().is_empty());
    }

    #[test]
    fn cells_within_stops_at_its_limit() {
        assert!(cells_within(&ORTHOGONAL, 10, 50).is_none());
        assert_eq!(cells_within(&ORTHOGONAL, 10, 221).unwrap().len(), 221);
    }
}
