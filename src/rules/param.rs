//! A parameter a pack declares (`[param.NAME]` in its `pack.toml`): its
//! default, the bounds a number may be set within, and why a value set by
//! a variant, `--param` or the browser is refused.

use serde::Deserialize;
use toml::Spanned;

use crate::kernel::diag::{Source, bad_input, with_article};

/// A parameter a pack declares, which a variant may set.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub default: toml::Value,
    pub description: String,
    /// The least and greatest value a number may be set to, as the pack
    /// declares them (`min`, `max`): a value out of them is the setter's
    /// mistake, refused where it is set, not the script's.
    pub min: Option<f64>,
    pub max: Option<f64>,
}

impl ParamDecl {
    /// Why `value` (of the declared type) cannot be set, if it cannot: a
    /// float that is not finite, or a number out of `min`..`max`.
    pub fn refuses(&self, value: &toml::Value) -> Option<String> {
        let x = match value {
            toml::Value::Integer(i) => *i as f64,
            toml::Value::Float(f) if !f.is_finite() => {
                return Some("a float parameter takes a finite number".into());
            }
            toml::Value::Float(f) => *f,
            _ => return None,
        };
        match (self.min, self.max) {
            (Some(min), _) if x < min => {
                Some(format!("below its least value, {}", self.shown(min)))
            }
            (_, Some(max)) if x > max => {
                Some(format!("above its greatest value, {}", self.shown(max)))
            }
            _ => None,
        }
    }

    /// The values it may take, for people: "from 0", "from 0 to 5", "up to
    /// 5", or "" when any.
    pub fn bounds(&self) -> String {
        match (self.min, self.max) {
            (Some(a), Some(b)) => format!("from {} to {}", self.shown(a), self.shown(b)),
            (Some(a), None) => format!("from {}", self.shown(a)),
            (None, Some(b)) => format!("up to {}", self.shown(b)),
            (None, None) => String::new(),
        }
    }

    /// A bound as the parameter's type writes it (an integer's without
    /// a point).
    fn shown(&self, bound: f64) -> String {
        match self.default {
            toml::Value::Integer(_) => format!("{}", bound as i64),
            _ => format!("{bound}"),
        }
    }
}

/// A `[param.NAME]` table as the manifest writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawParam {
    default: toml::Value,
    #[serde(default)]
    description: String,
    #[serde(default)]
    min: Option<Spanned<f64>>,
    #[serde(default)]
    max: Option<Spanned<f64>>,
}

/// A parameter's declaration: bounds only on a number, the least not
/// above the greatest, the default within them and finite (each problem
/// at the bound it concerns; the bound is then dropped).
pub(super) fn param_decl(
    manifest: &Source,
    name: &str,
    raw: RawParam,
    problems: &mut Vec<anyhow::Error>,
) -> ParamDecl {
    let number = matches!(raw.default, toml::Value::Integer(_) | toml::Value::Float(_));
    let mut bound = |b: Option<Spanned<f64>>, what: &str| -> Option<f64> {
        let b = b?;
        let (span, x) = (b.span(), *b.get_ref());
        let why = if !number {
            format!(
                "parameter `{name}` is {}: `{what}` bounds a number",
                with_article(raw.default.type_str())
            )
        } else if !x.is_finite() {
            format!("parameter `{name}`: `{what}` must be a finite number")
        } else {
            return Some(x);
        };
        problems.push(manifest.error_at(span, why));
        None
    };
    let mut decl = ParamDecl {
        min: bound(raw.min, "min"),
        max: bound(raw.max, "max"),
        default: raw.default,
        description: raw.description,
    };
    if let (Some(a), Some(b)) = (decl.min, decl.max)
        && a > b
    {
        problems.push(bad_input(format!(
            "{}: parameter `{name}`: `min` {a} is above `max` {b}",
            manifest.path.display()
        )));
        (decl.min, decl.max) = (None, None);
    }
    if let Some(why) = decl.refuses(&decl.default) {
        problems.push(bad_input(format!(
            "{}: parameter `{name}`: the default {} is {why}",
            manifest.path.display(),
            decl.default
        )));
    }
    decl
}
