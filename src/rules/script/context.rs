//! `game()` — the game at the moment a hook is asked — and `Feature`'s
//! fields: the feature a meeple stands on or being scored, or the one at a
//! cell and segment (`game().feature(x, y, segment)`). Every field is a [`Read`] taken through the
//! recorder, so an answer is kept under exactly the fields it read: a rule
//! on who leads is kept by the leader, not by the scores. The derived reads
//! (`leader`, `last`, `rank(seat)`, `ahead(a, b)`, a feature's `tiles` and
//! `complete`) change rarely, so rules written on them are answered from the
//! memo almost always; `scores` reads every seat's score.

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString};

use super::hooks::{HOOKS, Hook};
use super::moment::{Tally, cell_value};
use super::reads::{Aspect, FeatureInfo, Read, TileAspect, TileInfo};
use super::record::{floor_kind, kind_name, read};
use super::running::{rt_error, with_rules};
use crate::kernel::geometry::Pos;

/// What `game()` gives, by field, for error messages.
pub(super) const FIELDS: &str = "scores, players, current, turn, tiles_left, leader, \
     payer, captor, actor, prisoners(captor, owner), held(captor), score(seat), last, \
     rank(seat), ahead(a, b), tile, tile_at(x, y), last_tower, towers, in_range(x, y), \
     feature(x, y, segment), \
     meeples_in_supply(seat), floors_built(seat), \
     captures(seat), ransoms_paid(seat), ransom_points_paid(seat), \
     ransom_points_received(seat)";

/// What `game().tile` gives.
pub(super) const TILE_FIELDS: &str = "name, x, y, rot, foundation, segments, cloister";

/// What a `Feature` gives.
pub(super) const FEATURE_FIELDS: &str =
    "kind, tiles, pennants, complete, open, meeples, cities, cells, segments";

/// `game()` in a script.
#[derive(Clone, Copy, Debug)]
pub struct GameRef;

/// A coordinate a script gave, where a board could hold a tile: a cell
/// farther out holds none.
fn cell_arg(v: i64) -> Option<i32> {
    i32::try_from(v).ok().filter(|v| v.unsigned_abs() < 1 << 24)
}

/// The feature at segment `segment` of the tile at (x, y), as a script
/// sees it: `()` where there is none (no tile, or no such segment).
pub(super) fn feature_at(x: i64, y: i64, segment: i64) -> Result<Dynamic, Box<EvalAltResult>> {
    let (Some(x), Some(y), Ok(s)) = (cell_arg(x), cell_arg(y), u8::try_from(segment)) else {
        return Ok(Dynamic::UNIT);
    };
    let at = FeatureInfo {
        at: Some((x, y, s)),
    };
    Ok(match of(at, Aspect::Exists)? {
        0 => Dynamic::UNIT,
        _ => Dynamic::from(at),
    })
}

/// The cells (and, with `segments`, the segments) of the feature, each
/// once, in the order its parts joined: `[x, y]` (`[x, y, segment]`). A
/// whole feature: the call is not kept.
fn parts(f: FeatureInfo, segments: bool) -> Result<Array, Box<EvalAltResult>> {
    of(f, Aspect::Kind)?;
    super::record::opaque();
    with_rules(|r| {
        r.with_running_facts(|facts| {
            let t = facts.table?;
            let root = match f.at {
                Some((x, y, s)) => super::reads::root_at(t, Pos::new(x, y), s)?,
                None => super::reads::question_feature(facts)?,
            };
            Some(super::reads::feature_parts(t, root, segments))
        })
        .flatten()
    })?
    .ok_or_else(|| rt_error("a feature is only known during a game"))
}

/// `game()`: the running hook must be one that reads the game.
fn game() -> Result<GameRef, Box<EvalAltResult>> {
    with_rules(|r| {
        let hook = r.stack.borrow().last().map(|&(h, _)| h);
        match hook {
            Some(h) if h.spec().reads_game => Ok(GameRef),
            Some(h) => Err(rt_error(format!(
                "`game()` is not known in hook `{}`: it is asked about {} alone, \
                 so it may read only its arguments; `game()` is for {}",
                h.name(),
                if h == Hook::Seat || h == Hook::Setup {
                    "a player count"
                } else {
                    "a floor stack"
                },
                HOOKS
                    .iter()
                    .filter(|s| s.reads_game)
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
            None => Err(rt_error("`game()` is only available inside a hook")),
        }
    })?
}

/// A field of `game()`, read and recorded.
fn field(r: Read) -> Result<i64, Box<EvalAltResult>> {
    read(r)?.ok_or_else(|| rt_error("`game()` is only known during a game"))
}

/// A seat number a script gave, checked against the players.
pub(super) fn seat(v: i64) -> Result<u8, Box<EvalAltResult>> {
    let players = field(Read::Players)?;
    u8::try_from(v)
        .ok()
        .filter(|&p| (p as i64) < players)
        .ok_or_else(|| {
            rt_error(format!(
                "there is no seat {v}: seats are 0 to {}",
                players - 1
            ))
        })
}

/// A seat as a script sees it: -1 (none) is `()`.
fn seat_or_unit(v: i64) -> Dynamic {
    if v < 0 {
        Dynamic::UNIT
    } else {
        Dynamic::from(v)
    }
}

/// `game().payer`, `captor` or `actor`: known in some hooks only.
fn role(r: Read, name: &str) -> Result<i64, Box<EvalAltResult>> {
    read(r)?.ok_or_else(|| {
        rt_error(format!(
            "`game().{name}` is not known in this hook (`payer` is for `ransom`, \
             `captor` for `ransom`, `may_capture` and `captured`, `actor` for \
             `may_place_floor` and `may_top`)"
        ))
    })
}

/// Register `game()`, the `Game` type and the `Feature` type.
pub(super) fn register_context(engine: &mut Engine) {
    engine.register_fn("game", game);
    engine
        .register_type_with_name::<GameRef>("Game")
        .register_get("scores", |_: &mut GameRef| {
            let players = field(Read::Players)?;
            (0..players as u8)
                .map(|s| field(Read::Score(s)).map(Dynamic::from))
                .collect::<Result<Array, _>>()
        })
        .register_fn("score", |_: &mut GameRef, s: i64| {
            field(Read::Score(seat(s)?))
        })
        .register_get("players", |_: &mut GameRef| field(Read::Players))
        .register_get("current", |_: &mut GameRef| field(Read::Current))
        .register_get("turn", |_: &mut GameRef| field(Read::Turn))
        .register_get("tiles_left", |_: &mut GameRef| field(Read::TilesLeft))
        .register_get("leader", |_: &mut GameRef| {
            field(Read::Leader).map(seat_or_unit)
        })
        .register_get("last", |_: &mut GameRef| {
            field(Read::Last).map(seat_or_unit)
        })
        .register_fn("rank", |_: &mut GameRef, s: i64| {
            field(Read::Rank(seat(s)?))
        })
        .register_fn("ahead", |_: &mut GameRef, a: i64, b: i64| {
            Ok::<_, Box<EvalAltResult>>(field(Read::Ahead(seat(a)?, seat(b)?))? != 0)
        })
        .register_get("payer", |_: &mut GameRef| role(Read::Payer, "payer"))
        .register_get("captor", |_: &mut GameRef| role(Read::Captor, "captor"))
        .register_get("actor", |_: &mut GameRef| role(Read::Actor, "actor"))
        .register_fn("prisoners", |_: &mut GameRef, captor: i64, owner: i64| {
            field(Read::Prisoners(seat(captor)?, seat(owner)?))
        })
        .register_fn("held", |_: &mut GameRef, captor: i64| {
            field(Read::Held(seat(captor)?))
        })
        .register_fn("meeples_in_supply", |_: &mut GameRef, s: i64| {
            field(Read::Supply(seat(s)?))
        })
        .register_get("tile", |_: &mut GameRef| tile_of(None))
        .register_fn("tile_at", |_: &mut GameRef, x: i64, y: i64| tile_at(x, y))
        .register_get("last_tower", |_: &mut GameRef| {
            field(Read::LastTower).map(cell_value)
        })
        .register_fn("table_floors", |_: &mut GameRef, kind: ImmutableString| {
            field(Read::TableFloors(floor_kind(&kind)?))
        });
    for tally in Tally::ALL {
        engine.register_fn(tally.name(), move |_: &mut GameRef, s: i64| {
            field(Read::Tally(tally, seat(s)?))
        });
    }
    register_tile(engine);
    engine.register_fn("feature", |_: &mut GameRef, x: i64, y: i64, s: i64| {
        feature_at(x, y, s)
    });
    engine
        .register_type_with_name::<FeatureInfo>("Feature")
        .register_get("kind", |f: &mut FeatureInfo| {
            of(*f, Aspect::Kind).map(|k| ImmutableString::from(kind_name(k)))
        })
        .register_get("pennants", |f: &mut FeatureInfo| of(*f, Aspect::Pennants))
        .register_get("complete", |f: &mut FeatureInfo| {
            of(*f, Aspect::Complete).map(|c| c != 0)
        })
        .register_get("open", |f: &mut FeatureInfo| {
            of(*f, Aspect::Complete).map(|c| c == 0)
        })
        .register_get("tiles", |f: &mut FeatureInfo| of(*f, Aspect::Tiles))
        .register_get("cities", |f: &mut FeatureInfo| of(*f, Aspect::Cities))
        .register_get("cells", |f: &mut FeatureInfo| parts(*f, false))
        .register_get("segments", |f: &mut FeatureInfo| parts(*f, true))
        .register_get("meeples", |f: &mut FeatureInfo| {
            let players = field(Read::Players)?;
            (0..players as u8)
                .map(|s| of(*f, Aspect::Meeples(s)).map(Dynamic::from))
                .collect::<Result<Array, _>>()
        });
}

/// Register the `Tile` type: the turn's tile or the one at a cell.
fn register_tile(engine: &mut Engine) {
    engine
        .register_type_with_name::<TileInfo>("Tile")
        .register_get("name", |t: &mut TileInfo| tile_name(t.kind.into()))
        .register_get("x", |t: &mut TileInfo| match t.at {
            Some((x, _)) => Ok(x as i64),
            None => field(Read::TileX),
        })
        .register_get("y", |t: &mut TileInfo| match t.at {
            Some((_, y)) => Ok(y as i64),
            None => field(Read::TileY),
        })
        .register_get("rot", |t: &mut TileInfo| field(t.read_of(TileAspect::Rot)))
        .register_get("foundation", |t: &mut TileInfo| {
            field(t.read_of(TileAspect::Foundation)).map(|f| f != 0)
        })
        .register_get("segments", |t: &mut TileInfo| {
            of_kind(t.kind.into(), |k| {
                let kinds = k.segments.iter().map(|s| s.kind.name().into());
                kinds.collect::<Array>()
            })
        })
        .register_get("cloister", |t: &mut TileInfo| {
            of_kind(t.kind.into(), |k| {
                k.cloister
                    .map_or(Dynamic::UNIT, |s| Dynamic::from(s as i64))
            })
        });
}

/// The tile at `at` (`None`: the turn's), as a script sees it: `()`
/// where no tile lies.
fn tile_of(at: Option<(i32, i32)>) -> Result<Dynamic, Box<EvalAltResult>> {
    let kind = field(TileInfo::read_at(at, TileAspect::Kind))?;
    Ok(match u16::try_from(kind) {
        Ok(kind) => Dynamic::from(TileInfo { at, kind }),
        Err(_) => Dynamic::UNIT,
    })
}

/// The tile at (x, y), as a script sees it: `()` where none lies.
fn tile_at(x: i64, y: i64) -> Result<Dynamic, Box<EvalAltResult>> {
    let (Some(x), Some(y)) = (cell_arg(x), cell_arg(y)) else {
        return Ok(Dynamic::UNIT);
    };
    tile_of(Some((x, y)))
}

/// What `take` makes of tile kind `kind` of the game's tile set (its
/// name, its segments): a kind's facts are fixed for the game, so the read
/// of the kind is all an answer depends on.
fn of_kind<T>(
    kind: i64,
    take: impl FnOnce(&crate::kernel::tiles::TileKind) -> T,
) -> Result<T, Box<EvalAltResult>> {
    with_rules(|r| {
        r.with_running_facts(|f| {
            let tiles = f.table.and_then(|t| t.tiles)?;
            Some(take(tiles.kinds.get(usize::try_from(kind).ok()?)?))
        })
        .flatten()
        .ok_or_else(|| rt_error("a tile is only known during a game"))
    })?
}

/// The name of tile kind `kind` of the game's tile set.
pub(super) fn tile_name(kind: i64) -> Result<ImmutableString, Box<EvalAltResult>> {
    of_kind(kind, |k| ImmutableString::from(k.name.as_str()))
}

/// Field `aspect` of feature `f`, read and recorded.
fn of(f: FeatureInfo, aspect: Aspect) -> Result<i64, Box<EvalAltResult>> {
    feature(f.read_of(aspect))
}

/// A field of a feature.
fn feature(r: Read) -> Result<i64, Box<EvalAltResult>> {
    read(r)?.ok_or_else(|| rt_error("`meeple.feature` is only known during a game"))
}
