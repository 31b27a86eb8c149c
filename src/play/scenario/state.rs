//! A scenario's values of the packs' state (`state = [...]` in the position
//! and in `expect`): the variable by its name, the place its scope keeps
//! (a seat, a tower's or a cell's `at`), the value, each checked where it
//! is written; a neutral figure by where it stands.

use anyhow::Result;

use super::checked::{cell, seat};
use super::file::{RawScenario, RawStateValue};
use crate::kernel::diag::{Source, did_you_mean};
use crate::kernel::effects::{Scope, StateAt, StateVar};
use crate::kernel::geometry::{NO_CELL, Pos};
use crate::kernel::{Game, Rules};

/// A state value as a scenario names it, resolved.
pub struct Value {
    pub var: u16,
    pub at: StateAt,
    pub value: i64,
    /// The variable's full name (`pack.name`) and where, for messages.
    pub what: String,
    /// Is it a figure (its value a packed cell)?
    pub figure: bool,
}

impl Value {
    /// A value of this variable as messages show it: a figure's as where
    /// it stands.
    pub fn shown(&self, value: i64) -> String {
        match (self.figure, Pos::unpacked(value)) {
            (false, _) => value.to_string(),
            (true, Some(p)) => format!("at ({}, {})", p.x, p.y),
            (true, None) => "off the board".into(),
        }
    }
}

/// Put the scenario's state values on the position.
pub fn set(src: &Source, game: &mut Game, raw: &RawScenario) -> Result<()> {
    for s in &raw.state {
        let v = resolve(src, game.rules(), game.players().len(), s.get_ref())?;
        game.set_state(v.var, v.at, v.value)
            .map_err(|e| src.error_at(s.span(), format!("{e:#}")))?;
    }
    Ok(())
}

/// The variable, place and value `raw` names, for a game of `players`.
pub fn resolve(
    src: &Source,
    rules: &dyn Rules,
    players: usize,
    raw: &RawStateValue,
) -> Result<Value> {
    let vars = rules.state_vars();
    let name = raw.name.get_ref();
    let suffix = format!(".{name}");
    let found: Vec<usize> = (0..vars.len())
        .filter(|&i| vars[i].name == *name || vars[i].name.ends_with(&suffix))
        .collect();
    let var = match found[..] {
        [i] => i,
        [] => {
            return Err(src.error_at(
                raw.name.span(),
                format!(
                    "no pack declares state `{name}`{}",
                    did_you_mean(name, vars.iter().map(|v| v.name.as_str()))
                ),
            ));
        }
        _ => {
            return Err(src.error_at(
                raw.name.span(),
                format!("state `{name}` is declared by several packs: write `pack.{name}`"),
            ));
        }
    };
    let decl = &vars[var];
    if decl.figure {
        return figure(src, decl, var, raw);
    }
    let at = match (decl.scope, &raw.seat, &raw.at) {
        (Scope::Game, None, None) => StateAt::Game,
        (Scope::Seat, Some(s), None) => StateAt::Seat(seat(src, s, players)? as u8),
        (Scope::Tower | Scope::Cell, None, Some(at)) => {
            let p = cell(src, at)?;
            StateAt::Cell(p.x, p.y)
        }
        (scope, ..) => {
            let how = match scope {
                Scope::Game => "no `seat` or `at`",
                Scope::Seat => "a `seat` (and no `at`)",
                Scope::Tower | Scope::Cell => "an `at = [x, y]` (and no `seat`)",
            };
            return Err(src.error_at(
                raw.name.span(),
                format!(
                    "state `{}` is kept per {}: give it {how}",
                    decl.name,
                    scope.name()
                ),
            ));
        }
    };
    let Some(given) = &raw.value else {
        return Err(src.error_at(
            raw.name.span(),
            format!("state `{}` needs a `value`", decl.name),
        ));
    };
    let value = match given.get_ref() {
        toml::Value::Integer(i) => *i,
        toml::Value::Boolean(b) => *b as i64,
        other => {
            return Err(src.error_at(
                given.span(),
                format!(
                    "a state value is a whole number or true/false, not {}",
                    other.type_str()
                ),
            ));
        }
    };
    let place = match at {
        StateAt::Game => String::new(),
        StateAt::Seat(s) => format!(" of seat {s}"),
        StateAt::Cell(x, y) => format!(" at ({x}, {y})"),
    };
    Ok(Value {
        var: var as u16,
        at,
        value,
        what: format!("state `{}`{place}", decl.name),
        figure: false,
    })
}

/// Where the figure `decl` (variable `var`) stands as `raw` says: `at`,
/// or off the board without it.
fn figure(src: &Source, decl: &StateVar, var: usize, raw: &RawStateValue) -> Result<Value> {
    if let Some(v) = &raw.value {
        return Err(src.error_at(
            v.span(),
            format!(
                "`{}` is a figure: give where it stands as `at = [x, y]` (none: off the board), \
                 not a `value`",
                decl.name
            ),
        ));
    }
    if let Some(s) = &raw.seat {
        return Err(src.error_at(
            s.span(),
            format!(
                "`{}` is a figure of the whole table: it takes no `seat`",
                decl.name
            ),
        ));
    }
    let at = raw.at.as_ref().map(|a| cell(src, a)).transpose()?;
    Ok(Value {
        var: var as u16,
        at: StateAt::Game,
        value: at.map_or(NO_CELL, |p| p.packed()),
        what: format!("figure `{}`", decl.name),
        figure: true,
    })
}
