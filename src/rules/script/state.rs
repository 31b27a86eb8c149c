//! A pack's own state as scripts see it: `state(…)` and `state_at(…)`
//! read it (reads like any other, kept in the memo), `set_state(…)` and
//! `set_state_at(…)` are the effects that write it; a variable is the
//! running pack's, or `"pack.name"` another's.

use rhai::{Dynamic, Engine, EvalAltResult, ImmutableString, NativeCallContext};

use super::effects::{EffectValue, cell, made, seat_number};
use super::hooks::Hook;
use super::host::ScriptRules;
use super::reads::Read;
use super::record::read;
use super::running::{rt_error, with_rules};
use crate::kernel::diag::did_you_mean;
use crate::kernel::effects::{Effect, Scope, StateAt};

/// `state(…)`, `state_at(…)` and the effects that set them.
pub(super) fn register_state(engine: &mut Engine) {
    engine
        .register_fn("state", |name: ImmutableString| {
            state_read(&name, Place::Game)
        })
        .register_fn("state", |name: ImmutableString, seat: i64| {
            state_read(&name, Place::Seat(seat))
        })
        .register_fn("state_at", |name: ImmutableString, x: i64, y: i64| {
            state_read(&name, Place::Cell(x, y))
        })
        .register_fn(
            "set_state",
            |ctx: NativeCallContext, name: ImmutableString, value: Dynamic| {
                set_state(&ctx, &name, Place::Game, value)
            },
        )
        .register_fn(
            "set_state",
            |ctx: NativeCallContext, name: ImmutableString, seat: i64, value: Dynamic| {
                set_state(&ctx, &name, Place::Seat(seat), value)
            },
        )
        .register_fn(
            "set_state_at",
            |ctx: NativeCallContext, name: ImmutableString, x: i64, y: i64, value: Dynamic| {
                set_state(&ctx, &name, Place::Cell(x, y), value)
            },
        );
}

/// Where a script names a state value: as it wrote it, unchecked.
#[derive(Clone, Copy)]
enum Place {
    Game,
    Seat(i64),
    Cell(i64, i64),
}

impl Place {
    /// How a script names a value of a variable kept per `scope`.
    fn how(scope: Scope, name: &str, set: bool) -> String {
        let (read, write) = match scope {
            Scope::Game => ("state(\"{n}\")", "set_state(\"{n}\", value)"),
            Scope::Seat => ("state(\"{n}\", seat)", "set_state(\"{n}\", seat, value)"),
            Scope::Tower | Scope::Cell => (
                "state_at(\"{n}\", x, y)",
                "set_state_at(\"{n}\", x, y, value)",
            ),
        };
        (if set { write } else { read }).replace("{n}", name)
    }
}

/// A declared variable: its index, scope, whether it is a bool and
/// whether a figure.
pub(super) struct Var {
    pub(super) index: u16,
    scope: Scope,
    boolean: bool,
    pub(super) figure: bool,
}

/// The variable `name` of the running pack, or `pack.name` of another.
pub(super) fn variable(r: &ScriptRules, name: &str) -> Result<Var, Box<EvalAltResult>> {
    let frame = r.stack.borrow().last().copied();
    let Some((hook, pos)) = frame else {
        return Err(rt_error("the pack's state is only known inside a hook"));
    };
    if !hook.spec().reads_game {
        return Err(rt_error(format!(
            "the pack's state is not known in hook `{}`, which is asked about {} alone",
            hook.name(),
            if matches!(hook, Hook::Setup | Hook::Seat) {
                "a player count"
            } else {
                "a floor stack"
            }
        )));
    }
    let own = r.scripts.chains[hook.index()][pos];
    let (pack, short) = match name.split_once('.') {
        Some((p, n)) => match r
            .scripts
            .packs
            .iter()
            .position(|s| s.rule == p || s.name == p)
        {
            Some(i) => (i, n),
            None => return Err(rt_error(format!("no pack `{p}` in this variant"))),
        },
        None => (own, name),
    };
    let declared = &r.scripts.packs[pack].state;
    match declared.iter().find(|(n, ..)| n == short) {
        Some(&(_, index, boolean)) => Ok(Var {
            index,
            scope: r.scripts.state_vars[index as usize].scope,
            boolean,
            figure: r.scripts.state_vars[index as usize].figure,
        }),
        None => Err(rt_error(format!(
            "pack `{}` declares no state `{short}`{} (declare it as [state.{short}] in its pack.toml)",
            r.scripts.packs[pack].name,
            did_you_mean(short, declared.iter().map(|(n, ..)| n.as_str()))
        ))),
    }
}

/// The place `place` names for a variable kept per `scope`.
fn state_place(
    scope: Scope,
    name: &str,
    place: Place,
    set: bool,
) -> Result<StateAt, Box<EvalAltResult>> {
    match (scope, place) {
        (Scope::Game, Place::Game) => Ok(StateAt::Game),
        (Scope::Seat, Place::Seat(s)) => Ok(StateAt::Seat(seat_number(s)? as u8)),
        (Scope::Tower | Scope::Cell, Place::Cell(x, y)) => {
            let p = cell(x, y)?;
            Ok(StateAt::Cell(p.x, p.y))
        }
        _ => Err(rt_error(format!(
            "state `{name}` is kept per {}: write {}",
            scope.name(),
            Place::how(scope, name, set)
        ))),
    }
}

/// `state(…)`: a read of the game.
fn state_read(name: &str, place: Place) -> Result<Dynamic, Box<EvalAltResult>> {
    let (var, at) = with_rules(|r| {
        let var = not_a_figure(variable(r, name)?, name)?;
        let at = state_place(var.scope, name, place, false)?;
        Ok::<_, Box<EvalAltResult>>((var, at))
    })??;
    if let StateAt::Seat(s) = at {
        super::context::seat(s as i64)?;
    }
    let value = read(Read::State(var.index, at))?
        .ok_or_else(|| rt_error(format!("state `{name}` is only known during a game")))?;
    Ok(if var.boolean {
        Dynamic::from(value != 0)
    } else {
        Dynamic::from(value)
    })
}

/// `set_state(…)`: an effect.
fn set_state(
    ctx: &NativeCallContext,
    name: &str,
    place: Place,
    value: Dynamic,
) -> Result<EffectValue, Box<EvalAltResult>> {
    let (var, at) = with_rules(|r| {
        let var = not_a_figure(variable(r, name)?, name)?;
        let at = state_place(var.scope, name, place, true)?;
        Ok::<_, Box<EvalAltResult>>((var, at))
    })??;
    let value = match (var.boolean, value.as_bool(), value.as_int()) {
        (true, Ok(b), _) => b as i64,
        (false, _, Ok(n)) => n,
        _ => {
            return Err(rt_error(format!(
                "state `{name}` takes {}, not {}",
                if var.boolean {
                    "true or false"
                } else {
                    "a whole number"
                },
                value.type_name()
            )));
        }
    };
    made(
        ctx,
        Effect::SetState {
            var: var.index,
            at,
            value,
        },
    )
}

/// `var`, named `name`, unless it is a figure (which has functions of
/// its own).
fn not_a_figure(var: Var, name: &str) -> Result<Var, Box<EvalAltResult>> {
    if var.figure {
        return Err(rt_error(format!(
            "`{name}` is a figure: read where it stands with figure(\"{name}\"), move it \
             with place_figure(\"{name}\", x, y) or remove_figure(\"{name}\")"
        )));
    }
    Ok(var)
}
