//! What scripts see: the native types handed to hooks (`Tower`, `Meeple`,
//! `Board`), the functions registered for them (`previous`, `param`,
//! `capture_cells`, `cells_within`, `path_steps`…; `game()` and `Feature`
//! are in `context`), and the range geometry those functions compute in
//! Rust (bulk loops stay out of scripts).
//!
//! Every accessor of the question's tower, meeple and board is a [`Read`]
//! taken through the recorder (`ScriptRules::read`); what no trace can hold
//! (cells of a script's own, a tower `end` lists) marks the call opaque.

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, NativeCallContext};

use super::context::register_context;
use super::host::ScriptRules;
use super::limits;
use super::reads::{Read, packed_stack};
use super::record::frames::lent_board;
use super::record::{kind_name, opaque, read};
use super::running::{RULES, rt_error, with_rules};
use crate::kernel::geometry::Pos;
use crate::kernel::{Board, FloorKind};

/// A tower's floor kinds, bottom first: held inline (no allocation for a
/// tower of up to 16 floors), so that handing a hook its tower, or
/// `game().towers` every tower, copies bytes, and the kinds' names are made
/// only when a script reads `tower.floors` or `tower.top`.
pub(super) type Stack = smallvec::SmallVec<[FloorKind; 16]>;

/// A tower as a hook sees it.
#[derive(Clone, Debug)]
pub struct TowerInfo {
    /// Whose reads a read of the tower's fields is.
    pub(super) known: Known,
    pub(super) floors: Stack,
    pub(super) has_meeple: bool,
    /// Where the tower stands: in `may_capture`, `end`, and
    /// `may_place_floor` and `may_top` about a tower on the board; `reach`
    /// and `range` are asked about a floor stack.
    pub(super) pos: Option<Pos>,
    /// Whose meeple tops it (`Some(None)`: nobody's), where a hook may read
    /// it: `may_capture`, `end`, `may_place_floor` and `may_top`.
    pub(super) owner: Option<Option<i64>>,
    /// Blocked by a rule's effect (known of the towers `game().towers`
    /// lists; false elsewhere, where a blocked tower is never asked about).
    pub(super) blocked: bool,
}

/// How a read of a tower's fields is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Known {
    /// The tower the question is about: each field read is recorded.
    Asked,
    /// One of the towers `game().towers` or `end`'s argument lists: its
    /// fields are in that read ([`Read::Towers`]), so reading them records
    /// nothing more.
    Listed,
}

/// The meeple a question (`may_capture`, `captured`) is about: every
/// field is read from the question.
#[derive(Clone, Copy, Debug)]
pub struct MeepleInfo;

/// The board, as `may_capture` reads it (in place, not a copy).
#[derive(Clone, Copy, Debug)]
pub struct BoardRef;

/// Register everything scripts may use: the hook argument types and the
/// functions of the API.
pub(super) fn register_api(engine: &mut Engine) {
    register_tower(engine);
    register_meeple(engine);
    register_board(engine);
    register_functions(engine);
    register_context(engine);
}

/// A read of the tower: recorded for the question's tower, from the tower
/// itself for one `game().towers` or `end`'s argument lists (that read
/// holds it).
fn tower_read(t: &TowerInfo, r: Read, own: i64) -> Result<i64, Box<EvalAltResult>> {
    match t.known {
        Known::Asked => {
            if let Some(v) = read(r)? {
                return Ok(v);
            }
            opaque();
        }
        Known::Listed => {}
    }
    Ok(own)
}

fn register_tower(engine: &mut Engine) {
    engine
        .register_type_with_name::<TowerInfo>("Tower")
        .register_get("height", |t: &mut TowerInfo| {
            tower_read(t, Read::Height, t.floors.len() as i64)
        })
        .register_get("floors", |t: &mut TowerInfo| {
            match packed_stack(&t.floors) {
                Some(packed) => {
                    tower_read(t, Read::Floors, packed)?;
                }
                None => opaque(),
            }
            Ok::<_, Box<EvalAltResult>>(kind_names(&t.floors))
        })
        .register_get("top", |t: &mut TowerInfo| {
            let top = t.floors.last().copied();
            tower_read(t, Read::Top, top.map_or(-1, i64::from))?;
            Ok::<_, Box<EvalAltResult>>(match top {
                Some(k) => Dynamic::from(kind_name_of(k)),
                None => Dynamic::from(""),
            })
        })
        .register_get("has_meeple", |t: &mut TowerInfo| {
            Ok::<_, Box<EvalAltResult>>(tower_read(t, Read::HasMeeple, t.has_meeple as i64)? != 0)
        })
        .register_get("meeple_owner", |t: &mut TowerInfo| {
            let owner = t.owner.ok_or_else(|| unknown_here("meeple_owner"))?;
            let v = tower_read(t, Read::TowerOwner, owner.unwrap_or(-1))?;
            Ok::<_, Box<EvalAltResult>>(if v < 0 {
                Dynamic::UNIT
            } else {
                Dynamic::from(v)
            })
        })
        .register_fn("count", |t: &mut TowerInfo, kind: ImmutableString| {
            // A kind the packs do not have counts 0 on every stack.
            match u8::try_from(kind_index(&kind)) {
                Ok(k) => {
                    let count = t.floors.iter().filter(|&&f| f == k).count() as i64;
                    tower_read(t, Read::Count(k), count)
                }
                Err(_) => Ok(0),
            }
        })
        .register_get("x", |t: &mut TowerInfo| {
            let p = placed(t, "x")?;
            tower_read(t, Read::TowerX, p.x as i64)
        })
        .register_get("y", |t: &mut TowerInfo| {
            let p = placed(t, "y")?;
            tower_read(t, Read::TowerY, p.y as i64)
        })
        .register_get("blocked", |t: &mut TowerInfo| t.blocked)
        .register_fn(
            "in_range",
            |ctx: NativeCallContext, t: &mut TowerInfo, x: i64, y: i64| {
                let cell = Pos::new(clamp(x), clamp(y));
                nested(&ctx, |r| {
                    in_tower_range(r, t, Read::TowerInRange(cell.x, cell.y), Some(cell))
                })
                .map(|v| v == 1)
            },
        )
        // A getter (`get$…`) with the call's context: it may ask the range.
        .register_fn(
            "get$tile_in_range",
            |ctx: NativeCallContext, t: &mut TowerInfo| {
                nested(&ctx, |r| in_tower_range(r, t, Read::TileInRange, None)).map(|v| v == 1)
            },
        );
}

/// `tower.in_range(x, y)` (`cell`) and `tower.tile_in_range` (no cell: the
/// turn's tile): one read of the question's tower, its range asked of the
/// rules (through the front) where it is not yet known. Of another tower
/// (`game().towers`), answered but not kept.
fn in_tower_range(
    r: &ScriptRules,
    tower: &TowerInfo,
    read: Read,
    cell: Option<Pos>,
) -> Result<i64, Box<EvalAltResult>> {
    let (origin, range, kept) = range_read(r, tower, read)?;
    if let Some(v) = kept {
        return Ok(v);
    }
    let turn_tile = || {
        r.with_running_facts(|f| f.table.and_then(|t| t.history.tile.map(|t| t.pos)))
            .flatten()
    };
    let Some(cell) = cell.or_else(turn_tile) else {
        return Ok(-1);
    };
    Ok(super::reads::in_range_of(&range, origin, cell) as i64)
}

/// A read of the question's meeple.
fn meeple_read(r: Read) -> Result<i64, Box<EvalAltResult>> {
    read(r)?.ok_or_else(|| rt_error("a meeple is only known in `may_capture` and `captured`"))
}

fn register_meeple(engine: &mut Engine) {
    engine
        .register_type_with_name::<MeepleInfo>("Meeple")
        .register_get("owner", |_: &mut MeepleInfo| meeple_read(Read::MeepleOwner))
        .register_get("x", |_: &mut MeepleInfo| meeple_read(Read::MeepleX))
        .register_get("y", |_: &mut MeepleInfo| meeple_read(Read::MeepleY))
        .register_get("dx", |_: &mut MeepleInfo| meeple_read(Read::MeepleDx))
        .register_get("dy", |_: &mut MeepleInfo| meeple_read(Read::MeepleDy))
        .register_get("on", |_: &mut MeepleInfo| {
            meeple_read(Read::MeepleOn).map(|code| ImmutableString::from(kind_name(code)))
        })
        .register_get("feature", |_: &mut MeepleInfo| {
            let on_one = meeple_read(Read::Feature)? != 0;
            Ok::<_, Box<EvalAltResult>>(if on_one {
                Dynamic::from(super::reads::FeatureInfo::ASKED)
            } else {
                Dynamic::UNIT
            })
        });
}

fn register_board(engine: &mut Engine) {
    engine
        .register_type_with_name::<BoardRef>("Board")
        .register_fn("has_tile", |_: &mut BoardRef, x: i64, y: i64| {
            read(Read::HasTile(clamp(x), clamp(y)))?
                .map(|v| v != 0)
                .ok_or_else(board_unknown)
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
                let origin = placed(&tower, "x")?;
                let cells = cells_of(&cells)?;
                // A walk through the cells, linear in them.
                super::work::charge(cells.len());
                opaque();
                on_board(|b| path_steps(b, origin, &cells, (clamp(dx), clamp(dy))))
            },
        );
}

fn register_functions(engine: &mut Engine) {
    engine.register_fn("cells_within", |steps: Array, reach: i64| {
        let steps = cells_of(&steps)?;
        let cells = cells_within(&steps, reach, limits::ARRAY_SIZE);
        // Its walk tries every step from every cell reached: charged so.
        let walked = cells.as_ref().map_or(limits::ARRAY_SIZE, Vec::len);
        super::work::charge(walked.saturating_mul(steps.len().max(1)));
        let cells = cells.ok_or_else(|| {
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
    engine.register_fn(
        "previous",
        |ctx: NativeCallContext, a: Dynamic, b: Dynamic, c: Dynamic, d: Dynamic| {
            previous(&ctx, vec![a, b, c, d])
        },
    );
    engine.register_fn("param", |name: ImmutableString| {
        with_rules(|r| r.param(&name))?
    });
    engine.register_fn(
        "capture_cells",
        |ctx: NativeCallContext, tower: TowerInfo| {
            nested(&ctx, |r| {
                let cells = stack_range(r, &tower)?;
                Ok(cells
                    .iter()
                    .map(|&(x, y)| {
                        Dynamic::from(vec![Dynamic::from(x as i64), Dynamic::from(y as i64)])
                    })
                    .collect::<Array>())
            })
        },
    );
    engine.register_fn(
        "capture_reach",
        |ctx: NativeCallContext, tower: TowerInfo| {
            nested(&ctx, |r| {
                r.reach(whole_stack(r, &tower), tower.has_meeple)
                    .map_err(|e| rt_error(format!("{e:#}")))
            })
        },
    );
}

/// The floor kinds of `tower`, read whole (a helper asking about the
/// tower depends on every floor).
fn whole_stack<'t>(r: &ScriptRules, tower: &'t TowerInfo) -> &'t [FloorKind] {
    let floors = &tower.floors[..];
    if tower.known != Known::Asked
        || packed_stack(floors).is_none()
        || r.read(Read::Floors).is_none()
    {
        r.opaque();
    }
    floors
}

/// The variant's whole range for `tower`'s stack.
fn stack_range(
    r: &ScriptRules,
    tower: &TowerInfo,
) -> Result<std::sync::Arc<[(i32, i32)]>, Box<EvalAltResult>> {
    r.range(whole_stack(r, tower), tower.has_meeple)
        .map_err(|e| rt_error(format!("{e:#}")))
}

/// A tower's place, its range (offsets) and the value of a read of it noted
/// in the call's trace, if one was.
type RangeRead = (Pos, std::sync::Arc<[(i32, i32)]>, Option<i64>);

/// Where `tower` stands and its range (asked of the rules where it is not
/// yet known), with `read` of it noted for the question's tower; of another
/// tower, the call is marked as reading what no trace holds.
fn range_read(
    r: &ScriptRules,
    tower: &TowerInfo,
    read: Read,
) -> Result<RangeRead, Box<EvalAltResult>> {
    let origin = placed(tower, "x")?;
    let range = r
        .range(&tower.floors, tower.has_meeple)
        .map_err(|e| rt_error(format!("{e:#}")))?;
    let kept = match tower.known {
        Known::Asked => r.read(read),
        Known::Listed => None,
    };
    if kept.is_none() {
        r.opaque();
    }
    Ok((origin, range, kept))
}

/// `board.range_steps(tower, dx, dy)`: a read of the question's tower; the
/// steps through another tower's range are not kept.
fn range_steps(
    r: &ScriptRules,
    tower: &TowerInfo,
    target: (i32, i32),
) -> Result<i64, Box<EvalAltResult>> {
    let (origin, range, kept) = range_read(r, tower, Read::RangeSteps(target.0, target.1))?;
    if let Some(steps) = kept {
        return Ok(steps);
    }
    on_board(|b| r.range_steps(b, origin, &range, target))
}

/// The packs' name of floor kind `k`.
pub(super) fn kind_name_of(k: FloorKind) -> ImmutableString {
    with_rules(|r| r.scripts.kind_names[k as usize].clone()).unwrap_or_default()
}

/// A stack's floors as a script sees them: the kinds' names, bottom first.
pub(super) fn kind_names(floors: &[FloorKind]) -> Array {
    with_rules(|r| {
        floors
            .iter()
            .map(|&k| Dynamic::from(r.scripts.kind_names[k as usize].clone()))
            .collect()
    })
    .unwrap_or_default()
}

fn clamp(v: i64) -> i32 {
    v.clamp(i32::MIN as i64 / 2, i32::MAX as i64 / 2) as i32
}

/// Where the tower stands, or the error that names what a hook asked about
/// a floor stack may read instead.
fn placed(t: &TowerInfo, what: &str) -> Result<Pos, Box<EvalAltResult>> {
    t.pos.ok_or_else(|| unknown_here(what))
}

/// `tower.{what}` is not known in the hook running.
fn unknown_here(what: &str) -> Box<EvalAltResult> {
    rt_error(format!(
        "`tower.{what}` is only known in `may_capture`, `end`, `may_place_floor` and \
         `may_top` (of a tower on the board): `reach` and `range` are asked about a floor \
         stack and may read only `tower.height`, `tower.floors`, `tower.top`, \
         `tower.count(kind)` and `tower.has_meeple`"
    ))
}

fn board_unknown() -> Box<EvalAltResult> {
    rt_error("the board is only available in `may_capture`")
}

/// The index of floor kind `name` in the packs' kinds; -1 for none.
pub(super) fn kind_index(name: &str) -> i64 {
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

/// Read the board lent to the running call.
fn on_board<T>(f: impl FnOnce(&Board) -> T) -> Result<T, Box<EvalAltResult>> {
    lent_board(f).ok_or_else(board_unknown)
}

/// Run `f`, which may call hooks, from a script function nested as deep as
/// `ctx` says: the sandbox counts nested calls across hooks.
pub(super) fn nested<T>(
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
        if hook.acts() {
            return Err(rt_error(format!(
                "`previous` is not for event hooks: every pack's `{}` runs, in the \
                 variant's order, and their effects all happen",
                hook.name()
            )));
        }
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
    super::steps::distances(board, origin, cells, &mut 0).to(target)
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
