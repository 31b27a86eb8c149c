//! Event hooks: what a pack does when something happens. At each moment a
//! pack listens to, every pack's `on_<moment>` runs in the variant's order
//! with one argument, `event` (a map of what happened), and answers with
//! an effect, an array of effects or `()`. Effects are made by the
//! functions registered here (`points`, `add_floor`, `take_prisoner`…;
//! the state's in `state`, the figures' in `figures`), each remembering
//! where in the script it was made; the kernel carries them out
//! (`kernel::effects`) and names that place when one breaks a rule of its
//! own.

use std::sync::Arc;

use anyhow::Result;
use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, NativeCallContext};

use super::api::kind_name_of;
use super::context::GameRef;
use super::hooks::Hook;
use super::host::ScriptRules;
use super::memo::Value;
use super::moment::EventField;
use super::reads::Read;
use super::record::read;
use super::record::{floor_kind, kind_name};
use super::running::{rt_error, with_rules};
use crate::kernel::diag::bad_input;
use crate::kernel::effects::{Acted, Effect, FloorFrom, Moment, Origin};
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::MeepleSpot;
use crate::kernel::{CaptureOutcome, FloorKind};

/// What happened, as an event hook's `event` argument: every field is a
/// read of the moment (so an event hook's answer is kept in the memo under
/// the fields it read, as any hook's).
#[derive(Clone, Copy, Debug)]
pub struct EventInfo;

/// A field of the running event hook's `event`, as a script sees it.
fn event_field(field: EventField) -> Result<Dynamic, Box<EvalAltResult>> {
    let moment = with_rules(|r| r.with_running_facts(|f| f.moment).flatten())?;
    let Some(moment) = moment else {
        return Err(rt_error("`event` is only known in event hooks (`on_…`)"));
    };
    let fields = EventField::of(&moment);
    if !fields.iter().any(|f| f.name() == field.name()) {
        let names: Vec<&str> = fields.iter().map(|f| f.name()).collect();
        return Err(rt_error(format!(
            "the event of `on_{}` has no `{}`{}",
            moment.name(),
            field.name(),
            match names.is_empty() {
                true => ": it has no fields".to_string(),
                false => format!("; it has {}", names.join(", ")),
            }
        )));
    }
    if let EventField::Meeples(_) = field {
        let players = read(Read::Players)?.unwrap_or(0);
        return (0..players as u8)
            .map(|s| {
                Ok(Dynamic::from(known(read(Read::Event(
                    EventField::Meeples(s),
                ))?)?))
            })
            .collect::<Result<Array, _>>()
            .map(Dynamic::from);
    }
    let v = known(read(Read::Event(field))?)?;
    Ok(match (field, moment) {
        (EventField::Tile, _) => Dynamic::from(super::context::tile_name(v)?),
        (EventField::Foundation | EventField::Scored | EventField::ByRule, _) => {
            Dynamic::from(v != 0)
        }
        (EventField::Seat, _) if v < 0 => Dynamic::UNIT,
        (EventField::Kind, Moment::FloorBuilt { .. }) => {
            Dynamic::from(kind_name_of(v as FloorKind))
        }
        (EventField::Kind | EventField::On, _) => Dynamic::from(kind_name(v)),
        (EventField::Outcome, _) => Dynamic::from(CaptureOutcome::ALL[v as usize].word()),
        _ => Dynamic::from(v),
    })
}

/// A read's value, known during an event hook.
fn known(v: Option<i64>) -> Result<i64, Box<EvalAltResult>> {
    v.ok_or_else(|| rt_error("`event` is only known in event hooks (`on_…`)"))
}

/// Register `event`'s type and fields.
fn register_event(engine: &mut Engine) {
    engine.register_type_with_name::<EventInfo>("Event");
    for field in EventField::ALL {
        engine.register_get(field.name(), move |_: &mut EventInfo| event_field(field));
    }
    // The completed feature itself, as `game().feature` gives it at the
    // event's cell and segment.
    engine.register_get("feature", |_: &mut EventInfo| {
        let at = |f| {
            event_field(f)?
                .as_int()
                .map_err(|_| rt_error("a whole number"))
        };
        // The segment first: an event without one says which it has.
        let segment = at(EventField::Segment)?;
        super::context::feature_at(at(EventField::X)?, at(EventField::Y)?, segment)
    });
}

/// An effect a script made, and where (line, column).
#[derive(Clone, Debug)]
pub struct EffectValue {
    effect: Effect,
    line: usize,
    col: usize,
}

/// The name of the effect `v` is, or holds first among its items: what a
/// hook that is not an event hook answered by mistake, in words.
pub(super) fn effect_in(v: &Dynamic) -> Option<&'static str> {
    if let Some(e) = v.read_lock::<EffectValue>() {
        return Some(e.effect.name());
    }
    let items = v.read_lock::<Array>()?;
    items
        .iter()
        .find_map(|item| Some(item.read_lock::<EffectValue>()?.effect.name()))
}

/// Cells an effect may name: far past any board, short of overflow.
const FAR: i64 = 1 << 24;

/// Register the effect functions, `event`, `game().towers` and
/// `game().in_range`.
pub(super) fn register_effects(engine: &mut Engine) {
    engine.register_type_with_name::<EffectValue>("Effect");
    engine.register_get("towers", |_: &mut GameRef| super::towers::towers_now());
    engine.register_fn(
        "in_range",
        |ctx: NativeCallContext, _: &mut GameRef, x: i64, y: i64| {
            let at = cell(x, y)?;
            super::api::nested(&ctx, |r| r.in_range_now(at))
        },
    );
    register_event(engine);
    engine
        .register_fn(
            "points",
            |ctx: NativeCallContext, seat: i64, points: i64, source: ImmutableString| {
                let seat = seat_number(seat)?;
                made(
                    &ctx,
                    Effect::Points {
                        seat,
                        points,
                        source: source.to_string(),
                    },
                )
            },
        )
        .register_fn(
            "add_floor",
            |ctx: NativeCallContext, x: i64, y: i64, kind: ImmutableString| {
                let (tower, kind) = (cell(x, y)?, floor_kind(&kind)?);
                made(
                    &ctx,
                    Effect::AddFloor {
                        tower,
                        kind,
                        from: FloorFrom::Box,
                    },
                )
            },
        )
        .register_fn(
            "add_floor",
            |ctx: NativeCallContext, x: i64, y: i64, kind: ImmutableString, seat: i64| {
                let (tower, kind) = (cell(x, y)?, floor_kind(&kind)?);
                let from = FloorFrom::Seat(seat_number(seat)?);
                made(&ctx, Effect::AddFloor { tower, kind, from })
            },
        )
        .register_fn(
            "add_floor",
            |ctx: NativeCallContext,
             x: i64,
             y: i64,
             kind: ImmutableString,
             from: ImmutableString| {
                let (tower, kind) = (cell(x, y)?, floor_kind(&kind)?);
                if from != "table" {
                    return Err(rt_error(format!(
                        "add_floor's fourth argument is a seat or \"table\", not \"{from}\""
                    )));
                }
                made(
                    &ctx,
                    Effect::AddFloor {
                        tower,
                        kind,
                        from: FloorFrom::Table,
                    },
                )
            },
        )
        .register_fn("remove_floor", |ctx: NativeCallContext, x: i64, y: i64| {
            made(&ctx, Effect::RemoveFloor { tower: cell(x, y)? })
        })
        .register_fn("send_home", |ctx: NativeCallContext, x: i64, y: i64| {
            let at = cell(x, y)?;
            made(
                &ctx,
                Effect::SendHome {
                    at,
                    spot: MeepleSpot::Tower,
                },
            )
        })
        .register_fn(
            "send_home",
            |ctx: NativeCallContext, x: i64, y: i64, segment: i64| {
                let at = cell(x, y)?;
                let segment = segment_number(segment)?;
                made(
                    &ctx,
                    Effect::SendHome {
                        at,
                        spot: MeepleSpot::Segment(segment),
                    },
                )
            },
        );
    engine
        .register_fn(
            "take_prisoner",
            |ctx: NativeCallContext, x: i64, y: i64, captor: i64| {
                let (at, captor) = (cell(x, y)?, seat_number(captor)?);
                let spot = MeepleSpot::Tower;
                made(&ctx, Effect::Imprison { at, spot, captor })
            },
        )
        .register_fn(
            "take_prisoner",
            |ctx: NativeCallContext, x: i64, y: i64, segment: i64, captor: i64| {
                let (at, captor) = (cell(x, y)?, seat_number(captor)?);
                let spot = MeepleSpot::Segment(segment_number(segment)?);
                made(&ctx, Effect::Imprison { at, spot, captor })
            },
        )
        .register_fn(
            "place_on_tower",
            |ctx: NativeCallContext, x: i64, y: i64, seat: i64| {
                let (tower, seat) = (cell(x, y)?, seat_number(seat)?);
                made(&ctx, Effect::Top { tower, seat })
            },
        )
        .register_fn(
            "place_meeple",
            |ctx: NativeCallContext, x: i64, y: i64, segment: i64, seat: i64| {
                let at = cell(x, y)?;
                let (segment, seat) = (segment_number(segment)?, seat_number(seat)?);
                made(&ctx, Effect::Place { at, segment, seat })
            },
        );
    for (name, blocked) in [("block", true), ("unblock", false)] {
        engine.register_fn(name, move |ctx: NativeCallContext, x: i64, y: i64| {
            let tower = cell(x, y)?;
            made(&ctx, Effect::Block { tower, blocked })
        });
    }
}

/// An effect made at the script's place.
pub(super) fn made(
    ctx: &NativeCallContext,
    effect: Effect,
) -> Result<EffectValue, Box<EvalAltResult>> {
    let at = ctx.call_position();
    let (line, col) = (at.line().unwrap_or(0), at.position().unwrap_or(0));
    Ok(EffectValue { effect, line, col })
}

fn segment_number(segment: i64) -> Result<u8, Box<EvalAltResult>> {
    u8::try_from(segment).map_err(|_| rt_error(format!("there is no segment {segment} on a tile")))
}

pub(super) fn seat_number(seat: i64) -> Result<usize, Box<EvalAltResult>> {
    usize::try_from(seat)
        .ok()
        .filter(|&s| s < 64)
        .ok_or_else(|| rt_error(format!("there is no seat {seat}")))
}

pub(super) fn cell(x: i64, y: i64) -> Result<Pos, Box<EvalAltResult>> {
    // `unsigned_abs`: the least i64 has no `abs`.
    if x.unsigned_abs() > FAR.unsigned_abs() || y.unsigned_abs() > FAR.unsigned_abs() {
        return Err(rt_error(format!(
            "the cell ({x}, {y}) is off any board (coordinates are within ±{FAR})"
        )));
    }
    Ok(Pos::new(x as i32, y as i32))
}

impl ScriptRules {
    /// Run every pack's event hook `hook`, in order, and the effects they
    /// answered; with the packs that answered any (bit per position).
    pub(super) fn run_event(&self, hook: Hook, args: Vec<Dynamic>) -> Result<(Value, u64)> {
        let chain = &self.scripts.chains[hook.index()];
        let mut all = Vec::new();
        let mut acted = 0u64;
        for pos in 0..chain.len() {
            let before = all.len();
            let v = self.call_below(hook, pos + 1, args.clone())?;
            self.effects_of(hook, pos, &v, &mut all)?;
            if all.len() > before && pos < 64 {
                acted |= 1 << pos;
            }
        }
        Ok((Value::Effects(all.into()), acted))
    }

    /// Where pack `index`'s `hook` made an effect or an answer (line,
    /// column), kept once per place.
    fn origin(&self, index: usize, hook: Hook, line: usize, col: usize) -> Arc<Origin> {
        let pack = &self.scripts.packs[index];
        self.origins
            .borrow_mut()
            .entry((index, hook, line, col))
            .or_insert_with(|| {
                Arc::new(Origin {
                    rule: pack.rule.clone(),
                    place: format!(
                        "pack `{}`, hook `{}`: {}:{line}:{col}",
                        pack.name,
                        hook.name(),
                        pack.path.display(),
                    ),
                })
            })
            .clone()
    }

    /// A scoring hook's answer `value` as the kernel takes it: `None` when
    /// it is the base rules' `plain`, else the value and the rule whose
    /// hook answered (the last pack of the chain that defines it).
    pub(super) fn adjusted(
        &self,
        hook: Hook,
        value: i64,
        most: i64,
        plain: u32,
    ) -> Result<Option<crate::kernel::effects::Adjusted>> {
        if value == i64::from(plain) {
            return Ok(None);
        }
        let chain = &self.scripts.chains[hook.index()];
        let index = *chain.last().expect("a scoring hook is asked when defined");
        let (line, col) = self.scripts.packs[index].hook_lines[hook.index()];
        let value = u32::try_from(value)
            .ok()
            .filter(|&v| i64::from(v) <= most)
            .ok_or_else(|| bad_input(format!("hook `{}` answered {value}", hook.name())))?;
        Ok(Some(crate::kernel::effects::Adjusted {
            value,
            origin: self.origin(index, hook, line, col),
        }))
    }

    /// The effects in `v`, pack `pos` of `hook`'s chain's answer.
    fn effects_of(&self, hook: Hook, pos: usize, v: &Dynamic, out: &mut Vec<Acted>) -> Result<()> {
        let index = self.scripts.chains[hook.index()][pos];
        let pack = &self.scripts.packs[index];
        let mut push = |e: EffectValue| {
            out.push(Acted {
                effect: e.effect,
                origin: self.origin(index, hook, e.line, e.col),
            })
        };
        if v.is_unit() {
            return Ok(());
        }
        if let Some(e) = v.read_lock::<EffectValue>() {
            push(e.clone());
            return Ok(());
        }
        let wrong = |what: &Dynamic| {
            let (line, col) = pack.hook_lines[hook.index()];
            bad_input(format!(
                "pack `{}`, hook `{}`: {}:{line}:{col}: answered {}; an event hook answers \
                 an effect (points(…), add_floor(…), set_state(…)…), an array of them, or ()",
                pack.name,
                hook.name(),
                pack.path.display(),
                what.type_name()
            ))
        };
        let Some(items) = v.read_lock::<Array>() else {
            return Err(wrong(v));
        };
        for item in items.iter() {
            match item.read_lock::<EffectValue>() {
                Some(e) => push(e.clone()),
                None if item.is_unit() => {}
                None => return Err(wrong(item)),
            }
        }
        Ok(())
    }
}
