//! A pack's own state (`[state.NAME]` in its `pack.toml`): what each
//! variable belongs to (the game, each seat, each tower, each cell), its
//! type and bounds, and its starting value; and its neutral figures
//! (`[figure.NAME]`), each a game value holding where it stands. Hooks
//! read it; only effects write it (`kernel::effects`).

use serde::Deserialize;
use toml::Spanned;

use crate::kernel::diag::{Source, did_you_mean};
use crate::kernel::effects::Scope;

/// State variables one pack may declare.
pub const MAX_STATE_VARS: usize = 64;
/// State variables kept per tower or per cell that the packs of one
/// ruleset declare together: each holds a value on every cell of a board
/// (up to `MAX_DECK` tiles), and every position a bot searches copies them.
pub const MAX_PLACE_VARS: usize = 16;

/// A state variable a pack declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateDecl {
    pub name: String,
    pub scope: Scope,
    /// A yes/no value (0 or 1, `true`/`false` in scripts).
    pub boolean: bool,
    pub min: i64,
    pub max: i64,
    pub default: i64,
    pub description: String,
    /// A neutral figure (`[figure.NAME]`): a game value holding where it
    /// stands (see `kernel::effects::StateVar::figure`).
    pub figure: bool,
}

/// A `[figure.NAME]` table as the manifest writes it: a neutral figure,
/// which starts off the board.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFigure {
    #[serde(default)]
    description: String,
}

/// A neutral figure's declaration: a game value holding the cell it
/// stands on, none at first.
pub(super) fn figure_decl(name: &str, raw: RawFigure) -> StateDecl {
    StateDecl {
        name: name.to_string(),
        scope: Scope::Game,
        boolean: false,
        min: i64::MIN,
        max: i64::MAX,
        default: crate::kernel::geometry::NO_CELL,
        description: raw.description,
        figure: true,
    }
}

/// A `[state.NAME]` table as the manifest writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawState {
    scope: Spanned<String>,
    #[serde(rename = "type", default)]
    kind: Option<Spanned<String>>,
    #[serde(default)]
    default: Option<Spanned<toml::Value>>,
    #[serde(default)]
    min: Option<Spanned<i64>>,
    #[serde(default)]
    max: Option<Spanned<i64>>,
    #[serde(default)]
    description: String,
}

/// A variable's declaration, or its problems (each at its place).
pub(super) fn state_decl(
    manifest: &Source,
    name: &str,
    raw: RawState,
    problems: &mut Vec<anyhow::Error>,
) -> Option<StateDecl> {
    let at = |span: std::ops::Range<usize>, why: String| manifest.error_at(span, why);
    let scope_word = raw.scope.get_ref();
    let Some(scope) = Scope::named(scope_word) else {
        let words = Scope::ALL.map(Scope::name);
        problems.push(at(
            raw.scope.span(),
            format!(
                "state `{name}`: scope `{scope_word}` is not one of {}{}",
                words.join(", "),
                did_you_mean(scope_word, words.into_iter())
            ),
        ));
        return None;
    };
    let boolean = match raw.kind.as_ref().map(|k| k.get_ref().as_str()) {
        None | Some("int") => false,
        Some("bool") => true,
        Some(other) => {
            let span = raw.kind.as_ref().map(|k| k.span()).unwrap_or_default();
            problems.push(at(
                span,
                format!(
                    "state `{name}`: type `{other}` is not `int` or `bool`{}",
                    did_you_mean(other, ["int", "bool"].into_iter())
                ),
            ));
            return None;
        }
    };
    let (min, max) = if boolean {
        if let Some(b) = raw.min.as_ref().or(raw.max.as_ref()) {
            problems.push(at(
                b.span(),
                format!("state `{name}` is a bool: it takes no `min` or `max`"),
            ));
            return None;
        }
        (0, 1)
    } else {
        match (&raw.min, &raw.max) {
            (Some(a), Some(b)) if a.get_ref() <= b.get_ref() => (*a.get_ref(), *b.get_ref()),
            (Some(a), Some(b)) => {
                problems.push(at(
                    a.span(),
                    format!(
                        "state `{name}`: `min` {} is above `max` {}",
                        a.get_ref(),
                        b.get_ref()
                    ),
                ));
                return None;
            }
            _ => {
                problems.push(at(
                    raw.scope.span(),
                    format!(
                        "state `{name}` is an int: it needs its bounds, `min` and `max` \
                         (an effect that sets a value out of them ends the game with an error)"
                    ),
                ));
                return None;
            }
        }
    };
    let default = match &raw.default {
        None if (min..=max).contains(&0) => 0,
        None => min,
        Some(v) => match (v.get_ref(), boolean) {
            (toml::Value::Boolean(b), true) => *b as i64,
            (toml::Value::Integer(i), false) if (min..=max).contains(i) => *i,
            (toml::Value::Integer(i), false) => {
                problems.push(at(
                    v.span(),
                    format!("state `{name}`: the default {i} is not within {min} to {max}"),
                ));
                return None;
            }
            (other, _) => {
                let wanted = if boolean {
                    "true or false"
                } else {
                    "a whole number"
                };
                problems.push(at(
                    v.span(),
                    format!(
                        "state `{name}`: the default is {}, not {wanted}",
                        other.type_str()
                    ),
                ));
                return None;
            }
        },
    };
    Some(StateDecl {
        name: name.to_string(),
        scope,
        boolean,
        min,
        max,
        default,
        description: raw.description,
        figure: false,
    })
}
