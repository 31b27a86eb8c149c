//! A parameter a pack declares (`[param.NAME]` in its `pack.toml`): its
//! default, the bounds a number may be set within, and the one check of a
//! value set to it, however it is given ([`Given`]: text, JSON or TOML):
//! of its type, finite, within its bounds. `super::setting` applies it to
//! every value set on a ruleset's packs.

use std::fmt;

use serde::Deserialize;
use toml::Spanned;

use crate::kernel::diag::{Source, bad_input, with_article};

/// The most a number parameter may be set to either way where its
/// declaration gives no bound (`min`, `max`): far past any count, cost or
/// ratio a game uses, and small enough that a hook's sums of it stay far
/// inside what a score or a count holds. A pack that needs more declares
/// it.
pub const NUMBER_LIMIT: i64 = 1_000_000;

/// The most characters a text parameter may be set to.
pub const MAX_TEXT: usize = 1_000;

/// A parameter a pack declares, which a variant may set.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub default: toml::Value,
    pub description: String,
    /// The least and greatest value a number may be set to, as the pack
    /// declares them (`min`, `max`): a value out of them is the setter's
    /// mistake, refused where it is set, not the script's. A number
    /// without one is within [`NUMBER_LIMIT`] on that side.
    pub min: Option<f64>,
    pub max: Option<f64>,
}

/// A value as an interface gives it, before it is checked.
#[derive(Clone, Copy, Debug)]
pub enum Given<'a> {
    /// Typed on a command line (`--param tower.ransom_cost=2`).
    Text(&'a str),
    /// Sent as JSON (the browser's form).
    Json(&'a serde_json::Value),
    /// Written in a TOML file (a variant, a scenario) or read from a log.
    Toml(&'a toml::Value),
}

impl fmt::Display for Given<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Given::Text(t) => write!(f, "`{t}`"),
            Given::Json(j) => write!(f, "{j}"),
            Given::Toml(t) => write!(f, "{t}"),
        }
    }
}

impl ParamDecl {
    /// The value `given` sets the parameter to — of its type (a whole
    /// number is a float too), finite, within its bounds — or why not, in
    /// words that follow the parameter's name. The one check of a value:
    /// [`super::setting::resolve`] makes a ruleset's checked parameters
    /// of its answers.
    pub fn value(&self, given: Given) -> Result<ParamValue, String> {
        let value = self.typed(given).ok_or_else(|| {
            format!(
                "is {} (like its default, {}), not {given}",
                self.kind_in_words(),
                self.default
            )
        })?;
        match self.refuses(&value) {
            Some(why) => Err(format!("is set to {}: {why}", shown_value(&value))),
            None => Ok(value),
        }
    }

    /// `given` as a value of the default's type, if it is one.
    fn typed(&self, given: Given) -> Option<ParamValue> {
        use ParamValue as V;
        use serde_json::Value as J;
        use toml::Value as T;
        Some(match (&self.default, given) {
            (T::Integer(_), Given::Text(t)) => V::Integer(t.trim().parse().ok()?),
            (T::Integer(_), Given::Json(J::Number(n))) => V::Integer(n.as_i64()?),
            (T::Integer(_), Given::Toml(T::Integer(i))) => V::Integer(*i),
            (T::Float(_), Given::Text(t)) => V::Float(t.trim().parse().ok()?),
            (T::Float(_), Given::Json(J::Number(n))) => V::Float(n.as_f64()?),
            (T::Float(_), Given::Toml(T::Float(x))) => V::Float(*x),
            // A whole number is a number: `ratio = 1` sets a float to 1.0,
            // as `--param q.ratio=1` and `{"ratio": 1}` do.
            (T::Float(_), Given::Toml(T::Integer(i))) => V::Float(*i as f64),
            (T::Boolean(_), Given::Text(t)) => V::Boolean(t.trim().parse().ok()?),
            (T::Boolean(_), Given::Json(J::Bool(b)) | Given::Toml(T::Boolean(b))) => V::Boolean(*b),
            (T::String(_), Given::Text(t)) => V::Text(t.to_string()),
            (T::String(_), Given::Json(J::String(s)) | Given::Toml(T::String(s))) => {
                V::Text(s.clone())
            }
            _ => return None,
        })
    }

    /// Why `value` (of the declared type) cannot be set, if it cannot: a
    /// float that is not finite, a number out of its bounds, a text too
    /// long.
    pub fn refuses(&self, value: &ParamValue) -> Option<String> {
        match value {
            ParamValue::Integer(i) => {
                let (min, max) = self.integer_range();
                self.out_of(*i < min, *i > max, min as f64, max as f64)
            }
            ParamValue::Float(x) if !x.is_finite() => {
                Some("a float parameter takes a finite number".into())
            }
            ParamValue::Float(x) => {
                let (min, max) = self.float_range();
                self.out_of(*x < min, *x > max, min, max)
            }
            ParamValue::Text(s) if s.chars().count() > MAX_TEXT => Some(format!(
                "a text parameter is at most {MAX_TEXT} characters, and this one has {}",
                s.chars().count()
            )),
            _ => None,
        }
    }

    fn out_of(&self, below: bool, above: bool, min: f64, max: f64) -> Option<String> {
        let implicit = |declared: Option<f64>| match declared {
            None => format!(
                " (a number parameter is within {NUMBER_LIMIT} of 0 unless its pack declares \
                 `min` and `max`)"
            ),
            Some(_) => String::new(),
        };
        if below {
            Some(format!(
                "below its least value, {}{}",
                self.shown(min),
                implicit(self.min)
            ))
        } else if above {
            Some(format!(
                "above its greatest value, {}{}",
                self.shown(max),
                implicit(self.max)
            ))
        } else {
            None
        }
    }

    /// The least and greatest values an integer parameter may be set to:
    /// its declared bounds (the whole numbers within them), else
    /// [`NUMBER_LIMIT`] either way (never an empty range: a bound
    /// declared past the limit moves the other side with it).
    pub fn integer_range(&self) -> (i64, i64) {
        // `as` from a float saturates: a bound past i64 is i64's end.
        let min = self.min.map(|m| m.ceil() as i64);
        let max = self.max.map(|m| m.floor() as i64);
        let lo = match (min, max) {
            (Some(a), _) => a,
            (None, Some(b)) => b.min(-NUMBER_LIMIT),
            (None, None) => -NUMBER_LIMIT,
        };
        let hi = match (max, min) {
            (Some(b), _) => b,
            (None, Some(a)) => a.max(NUMBER_LIMIT),
            (None, None) => NUMBER_LIMIT,
        };
        (lo, hi)
    }

    /// The least and greatest a float parameter may be: its declared
    /// bounds, else [`NUMBER_LIMIT`] either way (a bound declared past the
    /// limit moves the other side with it, as for an integer).
    pub fn float_range(&self) -> (f64, f64) {
        let limit = NUMBER_LIMIT as f64;
        let lo = match (self.min, self.max) {
            (Some(a), _) => a,
            (None, Some(b)) => b.min(-limit),
            (None, None) => -limit,
        };
        let hi = match (self.max, self.min) {
            (Some(b), _) => b,
            (None, Some(a)) => a.max(limit),
            (None, None) => limit,
        };
        (lo, hi)
    }

    /// The values it may take, for people: "from 0 to 1000000", or ""
    /// when it is not a number (a number always has both ends).
    pub fn bounds(&self) -> String {
        let (min, max) = match self.default {
            toml::Value::Integer(_) => {
                let (a, b) = self.integer_range();
                (a as f64, b as f64)
            }
            toml::Value::Float(_) => self.float_range(),
            _ => return String::new(),
        };
        format!("from {} to {}", self.shown(min), self.shown(max))
    }

    /// A bound as the parameter's type writes it (an integer's without
    /// a point).
    fn shown(&self, bound: f64) -> String {
        match self.default {
            toml::Value::Integer(_) => format!("{}", bound as i64),
            _ => format!("{bound}"),
        }
    }

    /// The parameter's type, as a form asks for it.
    fn kind_in_words(&self) -> &'static str {
        match self.default {
            toml::Value::Integer(_) => "a whole number",
            toml::Value::Float(_) => "a number",
            toml::Value::Boolean(_) => "true or false",
            toml::Value::String(_) => "a text",
            _ => "a value",
        }
    }
}

/// A value as a message shows it: a long text cut short.
fn shown_value(value: &ParamValue) -> String {
    match value {
        ParamValue::Text(s) if s.chars().count() > 40 => {
            let head: String = s.chars().take(40).collect();
            format!("\"{head}…\"")
        }
        other => other.toml().to_string(),
    }
}

/// A parameter's value once checked: of one of the four types a parameter
/// may have. Only [`ParamDecl::value`] makes one from what is given, so a
/// value held as one is of its parameter's type and within its bounds.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    Integer(i64),
    Float(f64),
    Boolean(bool),
    Text(String),
}

impl ParamValue {
    /// `value` as a parameter's value, if it is of one of their types (a
    /// declared default is one of them, or is refused when the pack's
    /// script is compiled).
    pub fn of(value: &toml::Value) -> Option<ParamValue> {
        Some(match value {
            toml::Value::Integer(i) => ParamValue::Integer(*i),
            toml::Value::Float(x) => ParamValue::Float(*x),
            toml::Value::Boolean(b) => ParamValue::Boolean(*b),
            toml::Value::String(s) => ParamValue::Text(s.clone()),
            _ => return None,
        })
    }

    /// The value as a variant file, a log and the JSON outputs write it.
    pub fn toml(&self) -> toml::Value {
        match self {
            ParamValue::Integer(i) => toml::Value::Integer(*i),
            ParamValue::Float(x) => toml::Value::Float(*x),
            ParamValue::Boolean(b) => toml::Value::Boolean(*b),
            ParamValue::Text(s) => toml::Value::String(s.clone()),
        }
    }

    /// The value as a pack's script reads it (`param(name)`).
    pub fn dynamic(&self) -> rhai::Dynamic {
        match self {
            ParamValue::Integer(i) => (*i).into(),
            ParamValue::Float(x) => (*x).into(),
            ParamValue::Boolean(b) => (*b).into(),
            ParamValue::Text(s) => s.clone().into(),
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
    if let Some(why) = ParamValue::of(&decl.default).and_then(|v| decl.refuses(&v)) {
        problems.push(bad_input(format!(
            "{}: parameter `{name}`: the default {} is {why}",
            manifest.path.display(),
            decl.default
        )));
    }
    decl
}

#[cfg(test)]
mod tests {
    use super::*;

    fn integer(min: Option<f64>, max: Option<f64>) -> ParamDecl {
        ParamDecl {
            default: toml::Value::Integer(0),
            description: String::new(),
            min,
            max,
        }
    }

    #[test]
    fn an_integer_s_range_is_its_bounds_or_the_limit_never_empty() {
        let l = NUMBER_LIMIT;
        assert_eq!(integer(None, None).integer_range(), (-l, l));
        assert_eq!(integer(Some(0.0), None).integer_range(), (0, l));
        assert_eq!(integer(None, Some(5.0)).integer_range(), (-l, 5));
        assert_eq!(integer(Some(0.5), Some(9.5)).integer_range(), (1, 9));
        assert_eq!(
            integer(Some(5e6), None).integer_range(),
            (5_000_000, 5_000_000)
        );
        assert_eq!(
            integer(None, Some(-5e6)).integer_range(),
            (-5_000_000, -5_000_000)
        );
        assert_eq!(
            integer(Some(-1e300), Some(1e300)).integer_range(),
            (i64::MIN, i64::MAX)
        );
    }

    #[test]
    fn the_same_value_gets_the_same_answer_however_it_is_given() {
        let decl = integer(Some(0.0), None);
        let json = serde_json::json!(4294967296u64);
        let toml = toml::Value::Integer(4294967296);
        let answers: Vec<_> = [
            Given::Text("4294967296"),
            Given::Json(&json),
            Given::Toml(&toml),
        ]
        .into_iter()
        .map(|g| decl.value(g))
        .collect();
        let want = "is set to 4294967296: above its greatest value, 1000000 (a number parameter \
                    is within 1000000 of 0 unless its pack declares `min` and `max`)";
        for a in &answers {
            assert_eq!(a.as_ref().unwrap_err(), want);
        }
        let json = serde_json::json!(2.5);
        let toml = toml::Value::Float(2.5);
        for g in [Given::Text("2.5"), Given::Json(&json), Given::Toml(&toml)] {
            assert!(decl.value(g).unwrap_err().starts_with("is a whole number"));
        }
    }
}
