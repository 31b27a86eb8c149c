//! The game as the hooks asked at one moment of a game read it: `game()`
//! (scores, prisoners, whose turn, tiles left, and who pays, captures or
//! would act), and `meeple.feature` (the feature a meeple stands on). A copy
//! of what they need is kept for the call; reading a field of it marks the
//! answer as one that depends on the moment, so it is not cached — except
//! `game().actor`, a read the trace records (see `reads`).

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString};

use super::reads::Read;
use super::{Hook, ScriptRules, rt_error, with_rules};
use crate::kernel::features::{FeatureId, Features};
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::MeepleSpot;
use crate::kernel::{Board, Meeple, Table};

scoped_tls::scoped_thread_local!(static FEATURES: Features);
scoped_tls::scoped_thread_local!(pub(super) static BOARD: Board);

/// The hooks that may call `game()`.
pub(super) const READERS: [Hook; 7] = [
    Hook::MayPlaceFloor,
    Hook::MayTop,
    Hook::MayCapture,
    Hook::Ransom,
    Hook::Captured,
    Hook::Exchange,
    Hook::End,
];

/// What `game()` gives, by field, for error messages.
pub(super) const FIELDS: &str = "scores, players, current, turn, tiles_left, leader, payer, \
     captor, actor, prisoners(captor, owner), held(captor)";

/// What a `Feature` gives.
pub(super) const FEATURE_FIELDS: &str = "kind, tiles, pennants, complete, open, meeples";

/// A copy of the table for the hook being asked.
#[derive(Default)]
pub(super) struct Context {
    pub(super) active: bool,
    pub(super) scores: Vec<u32>,
    pub(super) prisoners: Vec<u8>,
    pub(super) current: usize,
    pub(super) turn: u32,
    pub(super) tiles_left: usize,
    /// The meeples on the board.
    pub(super) meeples: Vec<Meeple>,
    /// In `ransom`: who pays.
    pub(super) payer: Option<usize>,
    /// The captor: who placed the floor (`may_capture`, `captured`), who
    /// holds the meeple (`ransom`).
    pub(super) captor: Option<usize>,
    /// In `may_place_floor` and `may_top`: the seat that would act.
    pub(super) actor: Option<usize>,
}

/// Who the hook being asked is about, beyond whose turn it is.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Roles {
    pub(super) payer: Option<usize>,
    pub(super) captor: Option<usize>,
    pub(super) actor: Option<usize>,
}

/// `game()` in a script.
#[derive(Clone, Copy, Debug)]
pub struct GameRef;

/// The feature a meeple stands on, as `meeple.feature` gives it.
#[derive(Clone, Debug)]
pub struct FeatureInfo {
    root: FeatureId,
    kind: ImmutableString,
    pennants: i64,
    complete: bool,
    /// Meeples on the feature, by owner.
    meeples: Array,
}

impl ScriptRules {
    /// Run `f` with `table` readable through `game()`.
    pub(super) fn with_context<T>(&self, table: &Table, roles: Roles, f: impl FnOnce() -> T) -> T {
        {
            let mut c = self.context.borrow_mut();
            c.active = true;
            c.scores.clear();
            c.scores.extend_from_slice(table.scores);
            c.prisoners.clear();
            c.prisoners.extend_from_slice(table.prisoners);
            c.current = table.current;
            c.turn = table.turn;
            c.tiles_left = table.tiles_left;
            c.meeples.clear();
            c.meeples.extend_from_slice(table.meeples);
            c.payer = roles.payer;
            c.captor = roles.captor;
            c.actor = roles.actor;
        }
        let answer = match table.features {
            Some(features) => FEATURES.set(features, f),
            None => f(),
        };
        self.context.borrow_mut().active = false;
        answer
    }
}

/// `meeple.feature`: the feature under a meeple on a segment, with the
/// meeples on it by owner; `()` on a tower or a board made up for a query.
pub(super) fn feature_at(pos: Pos, spot: MeepleSpot) -> Result<Dynamic, Box<EvalAltResult>> {
    if !FEATURES.is_set() || !BOARD.is_set() {
        return Ok(Dynamic::UNIT);
    }
    let info = FEATURES.with(|features| {
        BOARD.with(|board| {
            with_context(|c| feature_info(board, features, &c.meeples, c.scores.len(), pos, spot))
        })
    })?;
    Ok(info.map_or(Dynamic::UNIT, Dynamic::from))
}

fn feature_info(
    board: &Board,
    features: &Features,
    meeples: &[Meeple],
    players: usize,
    pos: Pos,
    spot: MeepleSpot,
) -> Option<FeatureInfo> {
    let root = segment_root(board, features, pos, spot)?;
    let mut by_owner = vec![0i64; players];
    for m in meeples {
        if segment_root(board, features, m.pos, m.spot) == Some(root)
            && let Some(n) = by_owner.get_mut(m.owner as usize)
        {
            *n += 1;
        }
    }
    Some(FeatureInfo {
        root,
        kind: features.kind(root).name().into(),
        pennants: features.pennants(root) as i64,
        complete: features.is_complete(root),
        meeples: by_owner.into_iter().map(Dynamic::from).collect(),
    })
}

fn segment_root(
    board: &Board,
    features: &Features,
    pos: Pos,
    spot: MeepleSpot,
) -> Option<FeatureId> {
    let MeepleSpot::Segment(s) = spot else {
        return None;
    };
    let tile = board.tile_at(pos)?;
    Some(features.root(tile.first_segment + s as u32))
}

/// Read the context with `f`, marking the answer as one of the moment.
fn with_context<T>(f: impl FnOnce(&Context) -> T) -> Result<T, Box<EvalAltResult>> {
    in_context(true, f)
}

/// Read the context with `f`; `mark`: the answer depends on the moment.
fn in_context<T>(mark: bool, f: impl FnOnce(&Context) -> T) -> Result<T, Box<EvalAltResult>> {
    with_rules(|r| {
        let hook = r.stack.borrow().last().map(|&(h, _)| h);
        let c = r.context.borrow();
        match hook {
            Some(h) if READERS.contains(&h) && c.active => {
                if mark {
                    r.read_context.set(true);
                }
                Ok(f(&c))
            }
            Some(h) => Err(rt_error(format!(
                "`game()` is not known in hook `{}`: it is answered once per {} and cached, \
                 so it may read only its arguments; `game()` is for {}",
                h.name(),
                if h == Hook::Seat || h == Hook::Setup {
                    "player count"
                } else {
                    "floor stack"
                },
                READERS.map(Hook::name).join(", ")
            ))),
            None => Err(rt_error("`game()` is only available inside a hook")),
        }
    })?
}

fn who(v: Option<usize>, field: &str) -> Result<Dynamic, Box<EvalAltResult>> {
    v.map(|p| Dynamic::from(p as i64)).ok_or_else(|| {
        rt_error(format!(
            "`game().{field}` is not known in this hook (`payer` is for `ransom`, \
             `captor` for `ransom`, `may_capture` and `captured`, `actor` for \
             `may_place_floor` and `may_top`)"
        ))
    })
}

fn seat(v: i64, players: usize) -> Result<usize, Box<EvalAltResult>> {
    usize::try_from(v)
        .ok()
        .filter(|&p| p < players)
        .ok_or_else(|| {
            rt_error(format!(
                "there is no seat {v}: seats are 0 to {}",
                players - 1
            ))
        })
}

/// Register `game()`, the `Game` type and the `Feature` type.
pub(super) fn register_context(engine: &mut Engine) {
    // `game()` itself reads nothing: its fields do.
    engine.register_fn("game", || in_context(false, |_| GameRef));
    engine
        .register_type_with_name::<GameRef>("Game")
        .register_get("scores", |_: &mut GameRef| {
            with_context(|c| {
                c.scores
                    .iter()
                    .map(|&s| Dynamic::from(s as i64))
                    .collect::<Array>()
            })
        })
        .register_get("players", |_: &mut GameRef| {
            with_context(|c| c.scores.len() as i64)
        })
        .register_get("current", |_: &mut GameRef| {
            with_context(|c| c.current as i64)
        })
        .register_get("turn", |_: &mut GameRef| with_context(|c| c.turn as i64))
        .register_get("tiles_left", |_: &mut GameRef| {
            with_context(|c| c.tiles_left as i64)
        })
        .register_get("leader", |_: &mut GameRef| with_context(leader))
        .register_get("payer", |_: &mut GameRef| {
            let payer = with_context(|c| c.payer)?;
            who(payer, "payer")
        })
        .register_get("captor", |_: &mut GameRef| {
            let captor = with_context(|c| c.captor)?;
            who(captor, "captor")
        })
        .register_get("actor", |_: &mut GameRef| {
            let actor = in_context(false, |c| c.actor)?;
            let _ = who(actor, "actor")?;
            let seat = actor.map_or(-1, |a| a as i64);
            with_rules(|r| r.note(Read::Actor, seat))?;
            Ok::<_, Box<EvalAltResult>>(seat)
        })
        .register_fn("prisoners", |_: &mut GameRef, captor: i64, owner: i64| {
            with_context(|c| -> Result<i64, Box<EvalAltResult>> {
                let n = c.scores.len();
                Ok(c.prisoners[seat(captor, n)? * n + seat(owner, n)?] as i64)
            })?
        })
        .register_fn("held", |_: &mut GameRef, captor: i64| {
            with_context(|c| -> Result<i64, Box<EvalAltResult>> {
                let n = c.scores.len();
                let p = seat(captor, n)?;
                Ok(c.prisoners[p * n..(p + 1) * n]
                    .iter()
                    .map(|&k| k as i64)
                    .sum::<i64>())
            })?
        });
    engine
        .register_type_with_name::<FeatureInfo>("Feature")
        .register_get("kind", |f: &mut FeatureInfo| f.kind.clone())
        .register_get("pennants", |f: &mut FeatureInfo| f.pennants)
        .register_get("complete", |f: &mut FeatureInfo| f.complete)
        .register_get("open", |f: &mut FeatureInfo| !f.complete)
        .register_get("meeples", |f: &mut FeatureInfo| f.meeples.clone())
        .register_get("tiles", |f: &mut FeatureInfo| {
            let root = f.root;
            if FEATURES.is_set() {
                Ok(FEATURES.with(|fs| fs.tile_count(root, &mut Vec::new())) as i64)
            } else {
                Err(rt_error("`feature.tiles` is only known during a game"))
            }
        });
}

/// The seat with the strictly highest score, or `()` on a tie.
fn leader(c: &Context) -> Dynamic {
    let Some(&best) = c.scores.iter().max() else {
        return Dynamic::UNIT;
    };
    let mut at = c.scores.iter().enumerate().filter(|&(_, &s)| s == best);
    match (at.next(), at.next()) {
        (Some((p, _)), None) => Dynamic::from(p as i64),
        _ => Dynamic::UNIT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(scores: &[u32]) -> Context {
        Context {
            scores: scores.to_vec(),
            ..Context::default()
        }
    }

    #[test]
    fn the_leader_is_the_one_highest_score_and_a_tie_is_no_lead() {
        assert_eq!(leader(&ctx(&[3, 9, 4])).as_int().unwrap(), 1);
        assert!(leader(&ctx(&[9, 9, 4])).is_unit());
        assert!(leader(&ctx(&[0, 0])).is_unit());
    }
}
