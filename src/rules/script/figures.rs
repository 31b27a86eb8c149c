//! Neutral figures (`[figure.NAME]` in a pack's manifest): `figure(name)`
//! reads where one stands, `place_figure` and `remove_figure` are the
//! effects that move it. A figure is a game value of the pack's state
//! holding a cell, so it is read, kept, copied and logged like any.

use rhai::{Engine, EvalAltResult, ImmutableString, NativeCallContext};

use super::effects::{EffectValue, cell, made};
use super::moment::cell_value;
use super::reads::Read;
use super::record::read;
use super::running::{rt_error, with_rules};
use super::state::{Var, variable};
use crate::kernel::effects::{Effect, StateAt};
use crate::kernel::geometry::NO_CELL;

/// Register `figure`, `place_figure` and `remove_figure`.
pub(super) fn register_figures(engine: &mut Engine) {
    engine
        .register_fn("figure", |name: ImmutableString| {
            let var = figure(&name)?;
            read(Read::State(var.index, StateAt::Game))?
                .map(cell_value)
                .ok_or_else(|| rt_error(format!("figure `{name}` is only known during a game")))
        })
        .register_fn(
            "place_figure",
            |ctx: NativeCallContext, name: ImmutableString, x: i64, y: i64| {
                let at = cell(x, y)?;
                moved(&ctx, &name, at.packed())
            },
        )
        .register_fn(
            "remove_figure",
            |ctx: NativeCallContext, name: ImmutableString| moved(&ctx, &name, NO_CELL),
        );
}

/// The figure `name` (the running pack's, or `pack.name`).
fn figure(name: &str) -> Result<Var, Box<EvalAltResult>> {
    let var = with_rules(|r| variable(r, name))??;
    if !var.figure {
        return Err(rt_error(format!(
            "`{name}` is a state variable, not a figure: read it with state(\"{name}\")"
        )));
    }
    Ok(var)
}

/// The effect that puts figure `name` at the packed cell `at`.
fn moved(ctx: &NativeCallContext, name: &str, at: i64) -> Result<EffectValue, Box<EvalAltResult>> {
    let var = figure(name)?;
    made(
        ctx,
        Effect::SetState {
            var: var.index,
            at: StateAt::Game,
            value: at,
        },
    )
}
