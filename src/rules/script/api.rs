//! What scripts see: the native types handed to hooks (`Tower`, `Meeple`,
//! `Board`), the functions registered for them (`previous`, `param`,
//! `capture_cells`, `cells_within`, `path_steps`…; `game()` is in `context`),
//! and the range geometry
//! those functions compute in Rust (bulk loops stay out of scripts).

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, NativeCallContext};

use super::context::{BOARD, feature_at, register_context};
use super::reads::Read;
use super::{ScriptRules, limits, rt_error, with_rules};
use crate::kernel::Board;
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::MeepleSpot;

/// A tower as a hook sees it. The hooks cached per floor stack get only
/// what the cache key covers: the floors and whether a meeple tops them.
#[derive(Clone, Debug)]
pub struct TowerInfo {
    pub(super) floors: Array,
    pub(super) has_meeple: bool,
    /// Where the tower stands: only in `may_capture` and `end`; `reach`,
    /// `range`, `may_place_floor` and `may_top` are kept per floor stack.
    pub(super) pos: Option<Pos>,
    /// Whose meeple tops it (`Some(None)`: nobody's), where a hook may read
    /// it: `may_capture`, `end`, `may_place_floor` and `may_top` (whose
    /// answers are kept under what they read).
    pub(super) owner: Option<Option<i64>>,
}

/// Where a tower stands and whose meeple tops it, for `may_capture`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Placed {
    pub(super) pos: Pos,
    pub(super) owner: Option<i64>,
}

/// A meeple as `may_capture` sees it.
#[derive(Clone, Debug)]
pub struct MeepleInfo {
    pub(super) owner: i64,
    pub(super) pos: Pos,
    pub(super) tower: Pos,
    pub(super) on: ImmutableString,
    /// Where on its tile it stands, to find its feature when asked.
    pub(super) spot: MeepleSpot,
}

/// The board, as `may_capture` reads it (in place, not a copy).
#[derive(Clone, Copy, Debug)]
pub struct BoardRef;

scoped_tls::scoped_thread_local!(pub(super) static RULES: ScriptRules);

/// Register everything scripts may use: the hook argument types and the
/// functions of the API.
pub(super) fn register_api(engine: &mut Engine) {
    register_tower_and_meeple(engine);
    register_board(engine);
    register_functions(engine);
    register_context(engine);
}

fn register_tower_and_meeple(engine: &mut Engine) {
    engine
        .register_type_with_name::<TowerInfo>("Tower")
        .register_get("height", |t: &mut TowerInfo| {
            shape_noted(Read::Height, t.floors.len() as i64)
        })
        .register_get("floors", |t: &mut TowerInfo| {
            whole_stack_read();
            t.floors.clone()
        })
        .register_get("top", |t: &mut TowerInfo| {
            let top = t.floors.last().cloned();
            let name = top.as_ref().and_then(|f| f.read_lock::<ImmutableString>());
            shape_noted(Read::Top, name.map_or(-1, |n| kind_index(&n)));
            top.unwrap_or_else(|| Dynamic::from(""))
        })
        .register_get("has_meeple", |t: &mut TowerInfo| {
            shape_noted(Read::HasMeeple, t.has_meeple as i64) != 0
        })
        .register_get("meeple_owner", |t: &mut TowerInfo| {
            let owner = t.owner.ok_or_else(|| unknown_here("meeple_owner"))?;
            noted(Read::TowerOwner, owner.unwrap_or(-1));
            Ok::<_, Box<EvalAltResult>>(owner.map_or(Dynamic::UNIT, Dynamic::from))
        })
        .register_fn("count", |t: &mut TowerInfo, kind: ImmutableString| {
            let count = t
                .floors
                .iter()
                .filter(|f| f.read_lock::<ImmutableString>().is_some_and(|n| *n == kind))
                .count() as i64;
            // A kind the packs do not have counts 0 on every stack.
            match u8::try_from(kind_index(&kind)) {
                Ok(k) => shape_noted(Read::Count(k), count),
                Err(_) => count,
            }
        })
        .register_get("x", |t: &mut TowerInfo| {
            placed(t, "x").map(|p| noted(Read::TowerX, p.x as i64))
        })
        .register_get("y", |t: &mut TowerInfo| {
            placed(t, "y").map(|p| noted(Read::TowerY, p.y as i64))
        });
    engine
        .register_type_with_name::<MeepleInfo>("Meeple")
        .register_get("owner", |m: &mut MeepleInfo| m.owner)
        .register_get("x", |m: &mut MeepleInfo| {
            noted(Read::MeepleX, m.pos.x as i64)
        })
        .register_get("y", |m: &mut MeepleInfo| {
            noted(Read::MeepleY, m.pos.y as i64)
        })
        .register_get("dx", |m: &mut MeepleInfo| {
            noted(Read::MeepleDx, (m.pos.x - m.tower.x) as i64)
        })
        .register_get("dy", |m: &mut MeepleInfo| {
            noted(Read::MeepleDy, (m.pos.y - m.tower.y) as i64)
        })
        .register_get("on", |m: &mut MeepleInfo| m.on.clone())
        .register_get("feature", |m: &mut MeepleInfo| {
            mark_beyond_key();
            feature_at(m.pos, m.spot)
        });
}

fn register_board(engine: &mut Engine) {
    engine
        .register_type_with_name::<BoardRef>("Board")
        .register_fn("has_tile", |_: &mut BoardRef, x: i64, y: i64| {
            let (x, y) = (clamp(x), clamp(y));
            let has = on_board(|b| b.has_tile(Pos::new(x, y)))?;
            noted(Read::HasTile(x, y), has as i64);
            Ok::<_, Box<EvalAltResult>>(has)
        })
        .register_fn(
            "range_steps",
            |ctx: NativeCallContext, _: &mut BoardRef, tower: TowerInfo, dx: i64, dy: i64| {
                nested(&ctx, |r| range_steps(r, &tower, (clamp(dx), clamp(dy))))
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
}

fn register_functions(engine: &mut Engine) {
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
    engine.register_fn("previous", |ctx: NativeCallContext, a: Dynamic| {
        previous(&ctx, vec![a])
    });
    engine.register_fn(
        "previous",
        |ctx: NativeCallContext, a: Dynamic, b: Dynamic| previous(&ctx, vec![a, b]),
    );
    engine.register_fn(
        "previous",
        |ctx: NativeCallContext, a: Dynamic, b: Dynamic, c: Dynamic| previous(&ctx, vec![a, b, c]),
    );
    engine.register_fn("param", |name: ImmutableString| {
        with_rules(|r| r.param(&name))?
    });
    engine.register_fn(
        "capture_cells",
        |ctx: NativeCallContext, tower: TowerInfo| nested(&ctx, |r| r.cells_of_stack(&tower)),
    );
    engine.register_fn(
        "capture_reach",
        |ctx: NativeCallContext, tower: TowerInfo| nested(&ctx, |r| r.reach_of_stack(&tower)),
    );
}

/// `board.range_steps(tower, dx, dy)`: noted (see `reads`) when `tower` is
/// the capturing one, beyond any trace otherwise.
fn range_steps(
    r: &ScriptRules,
    tower: &TowerInfo,
    target: (i32, i32),
) -> Result<i64, Box<EvalAltResult>> {
    let origin = placed(tower, "x")?;
    let floors = r.stack_of(tower)?;
    let range = r
        .cached_range(&floors, tower.has_meeple)
        .map_err(|e| rt_error(format!("{e:#}")))?;
    let steps = on_board(|b| r.range_steps(b, origin, &range, target))?;
    if r.is_capturing(origin, &floors, tower.has_meeple) {
        r.note(Read::RangeSteps(target.0, target.1), steps);
    } else {
        r.read_context.set(true);
    }
    Ok(steps)
}

fn clamp(v: i64) -> i32 {
    v.clamp(i32::MIN as i64 / 2, i32::MAX as i64 / 2) as i32
}

fn tower_pos(t: &TowerInfo) -> Result<Pos, Box<EvalAltResult>> {
    mark_beyond_key();
    placed(t, "x")
}

/// Where the tower stands, or the error that names what a hook cached per
/// floor stack may read instead.
fn placed(t: &TowerInfo, what: &str) -> Result<Pos, Box<EvalAltResult>> {
    t.pos.ok_or_else(|| unknown_here(what))
}

/// `tower.{what}` is not known in the hook running.
fn unknown_here(what: &str) -> Box<EvalAltResult> {
    let owner = if what == "meeple_owner" {
        ", `may_place_floor`, `may_top`"
    } else {
        ""
    };
    rt_error(format!(
        "`tower.{what}` is only known in `may_capture`, `end`{owner}: the other tower hooks \
         are cached per floor stack and may read only `tower.height`, `tower.floors`, \
         `tower.top`, `tower.count(kind)` and `tower.has_meeple`"
    ))
}

/// The hook being asked read something its cached answers are not keyed
/// by (where a tower or meeple stands, the board, the game): its answer is
/// not kept.
pub(super) fn mark_beyond_key() {
    if RULES.is_set() {
        RULES.with(|r| r.read_context.set(true));
    }
}

/// The running tower hook read `read` of its stack, which gave `value` (see
/// `shapes`).
fn shape_noted(read: Read, value: i64) -> i64 {
    if RULES.is_set() {
        RULES.with(|r| r.note_shape(read, value));
    }
    value
}

/// The running tower hook read its whole stack (see `shapes`).
pub(super) fn whole_stack_read() {
    if RULES.is_set() {
        RULES.with(|r| r.note_whole_stack());
    }
}

/// The index of floor kind `name` in the packs' kinds; -1 for none.
fn kind_index(name: &str) -> i64 {
    if !RULES.is_set() {
        return -1;
    }
    RULES.with(|r| {
        r.scripts
            .kind_names
            .iter()
            .position(|k| k.as_str() == name)
            .map_or(-1, |i| i as i64)
    })
}

/// The running hook read `read`, which gave `value` (see `reads`).
fn noted(read: Read, value: i64) -> i64 {
    if RULES.is_set() {
        RULES.with(|r| r.note(read, value));
    }
    value
}

fn with_board<T>(f: impl FnOnce(&Board) -> T) -> Result<T, Box<EvalAltResult>> {
    mark_beyond_key();
    on_board(f)
}

/// Read the board without marking the answer: the caller notes what it read.
fn on_board<T>(f: impl FnOnce(&Board) -> T) -> Result<T, Box<EvalAltResult>> {
    if BOARD.is_set() {
        Ok(BOARD.with(f))
    } else {
        Err(rt_error("the board is only available in `may_capture`"))
    }
}

/// Run `f`, which may call hooks, from a script function nested as deep as
/// `ctx` says: the sandbox counts nested calls across hooks.
fn nested<T>(
    ctx: &NativeCallContext,
    f: impl FnOnce(&ScriptRules) -> Result<T, Box<EvalAltResult>>,
) -> Result<T, Box<EvalAltResult>> {
    with_rules(|r| r.nested(ctx.call_level(), || f(r)))?
}

/// `previous(...)`: the answer of the pack before the one running, or the
/// hook's default below the first.
fn previous(ctx: &NativeCallContext, args: Vec<Dynamic>) -> Result<Dynamic, Box<EvalAltResult>> {
    nested(ctx, |r| {
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
    })
}

fn cells_of(cells: &Array) -> Result<Vec<(i32, i32)>, Box<EvalAltResult>> {
    cells
        .iter()
        .map(|c| cell_of(c).ok_or_else(|| rt_error(format!("`{c}` is not a [dx, dy] cell"))))
        .collect()
}

pub(super) fn cell_of(c: &Dynamic) -> Option<(i32, i32)> {
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
/// `cells`. `-1` when no such path exists. Linear in the cells.
pub fn path_steps(board: &Board, origin: Pos, cells: &[(i32, i32)], target: (i32, i32)) -> i64 {
    super::steps::distances(board, origin, cells, &mut 0)
        .get(&target)
        .copied()
        .unwrap_or(-1)
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
