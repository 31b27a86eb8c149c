//! Parameter sweeps: one variant played at several values of a pack
//! parameter (or of the number of players), every value on the same seeds,
//! each metric per value and its paired difference from the first value.

use anyhow::Result;
use serde::Serialize;

use crate::analysis::compare::{self, Comparison, Difference, Plan};
use crate::analysis::stats::{self, columns::Columns};
use crate::kernel::diag::{bad_input, with_article};
use crate::kernel::{MAX_PLAYERS, MIN_PLAYERS};
use crate::play::bots::BotKind;
use crate::play::sim::GameResult;
use crate::rules::param::{Given, ParamDecl, ParamValue};
use crate::rules::setting::{self, Checked, Setting};
use crate::rules::{Home, Ruleset};

/// The most values a sweep plays.
const MAX_VALUES: usize = 200;

/// What a sweep varies.
#[derive(Clone, Debug, PartialEq)]
pub enum Dimension {
    /// A pack's parameter (`PACK.NAME`), over these values, each checked
    /// against the swept rules' packs.
    Param {
        pack: String,
        name: String,
        values: Vec<Checked>,
    },
    /// The number of players.
    Players(Vec<usize>),
}

impl Dimension {
    /// The dimension's name, as the output heads it.
    pub fn name(&self) -> String {
        match self {
            Dimension::Param { pack, name, .. } => format!("{pack}.{name}"),
            Dimension::Players(_) => "players".to_string(),
        }
    }

    /// Each value as the output names it.
    pub fn labels(&self) -> Vec<String> {
        match self {
            Dimension::Param { pack, name, values } => values
                .iter()
                .map(|v| {
                    v.get(pack, name)
                        .map(|v| label(&v.toml()))
                        .unwrap_or_default()
                })
                .collect(),
            Dimension::Players(p) => p.iter().map(usize::to_string).collect(),
        }
    }
}

fn label(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `--players A..B` or `--players a,b,…`: player counts from 2 to 8.
pub fn parse_players(spec: &str) -> Result<Dimension> {
    let count = ParamDecl {
        default: toml::Value::Integer(2),
        description: String::new(),
        min: Some(MIN_PLAYERS as f64),
        max: Some(MAX_PLAYERS as f64),
    };
    let counts = given_values(spec, &count.default, "--players")?
        .iter()
        .map(|v| {
            let why = |why| bad_input(format!("--players: a player count {why}"));
            count.value(given(v)).map_err(why)
        })
        .map(|v| match v? {
            ParamValue::Integer(n) => usize::try_from(n).map_err(|_| bad_input("--players")),
            other => Err(bad_input(format!(
                "--players {spec}: {} is not a count",
                other.toml()
            ))),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Dimension::Players(counts))
}

/// `--param PACK.NAME=A..B[:STEP]` or `PACK.NAME=v1,v2,…`, checked against
/// the packs of `set` as every parameter value is (`rules::param`: the
/// parameter declared, each value of its type and within its bounds).
pub fn parse_param(spec: &str, set: &Ruleset) -> Result<Dimension> {
    let flag = format!("--param {spec}");
    let (pack, name, values) = setting::split_flag(spec).ok_or_else(|| {
        bad_input(format!(
            "{flag}: expected PACK.NAME=A..B[:STEP] or PACK.NAME=v1,v2,… (e.g. tower.ransom_cost=0..6)"
        ))
    })?;
    let (found, decl) = setting::declared(set.packs(), pack, name)
        .map_err(|e| bad_input(format!("{flag}: {e}")))?;
    let checked = given_values(values, &decl.default, &flag)?
        .iter()
        .map(|v| {
            let value = given(v);
            setting::resolve(set.packs(), &[Setting { pack, name, value }])
                .map_err(|r| bad_input(format!("{flag}: {}", r.why)))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Dimension::Param {
        pack: found.reference.clone(),
        name: name.to_string(),
        values: checked,
    })
}

/// A value of a sweep as given: a listed value as typed, a range's as
/// computed.
fn given(value: &toml::Value) -> Given<'_> {
    match value {
        toml::Value::String(text) => Given::Text(text),
        computed => Given::Toml(computed),
    }
}

/// The values of a range `A..B[:STEP]` (numbers, inclusive, of the type of
/// `default`) or a comma-separated list (each as typed), before each is
/// checked.
fn given_values(spec: &str, default: &toml::Value, flag: &str) -> Result<Vec<toml::Value>> {
    let values = if let Some((a, rest)) = spec.split_once("..") {
        let (b, step) = rest
            .split_once(':')
            .map_or((rest, None), |(b, s)| (b, Some(s)));
        range(a, b, step, default, flag)?
    } else {
        spec.split(',')
            .map(|v| toml::Value::String(v.trim().to_string()))
            .collect()
    };
    if values.is_empty() {
        return Err(bad_input(format!("{flag}: the range is empty")));
    }
    if values.len() > MAX_VALUES {
        return Err(bad_input(format!(
            "{flag}: {} values, more than {MAX_VALUES}",
            values.len()
        )));
    }
    Ok(values)
}

/// The numbers of `A..B[:STEP]` for a parameter of `default`'s type: whole
/// numbers exactly (in 128 bits, so no end or step wraps), floats rounded
/// to 12 decimals.
fn range(
    a: &str,
    b: &str,
    step: Option<&str>,
    default: &toml::Value,
    flag: &str,
) -> Result<Vec<toml::Value>> {
    match default {
        toml::Value::Integer(_) => integer_range(a, b, step, flag),
        toml::Value::Float(_) => float_range(a, b, step, flag),
        other => Err(bad_input(format!(
            "{flag}: the parameter is {}; a range A..B is for numbers, list its values (v1,v2,…)",
            with_article(other.type_str())
        ))),
    }
}

fn integer_range(a: &str, b: &str, step: Option<&str>, flag: &str) -> Result<Vec<toml::Value>> {
    let whole = |s: &str| -> Result<i128> {
        s.trim().parse::<i64>().map(i128::from).map_err(|_| {
            bad_input(format!(
                "{flag}: `{}` is not a whole number, and the parameter is one",
                s.trim()
            ))
        })
    };
    let (a, b) = (whole(a)?, whole(b)?);
    let step = match step {
        Some(s) => whole(s)?,
        None => 1,
    };
    let count = steps(a as f64, b as f64, step as f64, flag)?;
    // Within i64: every value lies between `a` and `b`.
    Ok((0..count)
        .map(|i| toml::Value::Integer((a + step * i as i128) as i64))
        .collect())
}

fn float_range(a: &str, b: &str, step: Option<&str>, flag: &str) -> Result<Vec<toml::Value>> {
    let number = |s: &str| -> Result<f64> {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| bad_input(format!("{flag}: `{}` is not a finite number", s.trim())))
    };
    let (a, b) = (number(a)?, number(b)?);
    let Some(step) = step else {
        return Err(bad_input(format!("{flag}: a range of floats needs :STEP")));
    };
    let step = number(step)?;
    let count = steps(a, b, step, flag)?;
    // Rounded to 12 decimals: 0.1 + 2·0.1 is 0.3 here, as people write it,
    // not 0.30000000000000004.
    Ok((0..count)
        .map(|i| toml::Value::Float(((a + step * i as f64) * 1e12).round() / 1e12))
        .collect())
}

/// How many values `a..b` holds at `step`: at least one, at most
/// [`MAX_VALUES`].
fn steps(a: f64, b: f64, step: f64, flag: &str) -> Result<usize> {
    if step <= 0.0 {
        return Err(bad_input(format!("{flag}: the step must be above 0")));
    }
    if a > b {
        return Err(bad_input(format!("{flag}: the range is empty ({a} > {b})")));
    }
    let steps = ((b - a) / step + 1e-9).floor();
    if steps >= MAX_VALUES as f64 {
        return Err(bad_input(format!(
            "{flag}: more than {MAX_VALUES} values; take a larger step"
        )));
    }
    Ok(steps as usize + 1)
}

/// One value of a sweep: its rules and bots.
pub struct Point {
    pub label: String,
    pub set: Ruleset,
    pub bots: Vec<BotKind>,
}

/// The rules and bots of every value of `dim` over `base`, bots named as
/// `--bots` names them.
pub fn points(home: &Home, base: &Ruleset, dim: &Dimension, bots: &[String]) -> Result<Vec<Point>> {
    let labels = dim.labels();
    let mut out = Vec::new();
    for (i, label) in labels.into_iter().enumerate() {
        let (set, players) = match dim {
            Dimension::Param { values, .. } => {
                (base.with_params(home, &values[i])?, base.players())
            }
            Dimension::Players(p) => (base.with_params(home, &Checked::none())?, p[i]),
        };
        let set = set
            .named(format!("{}={label}", dim.name()))
            .with_players(players)?;
        let bots = crate::play::bots::seats(bots, players)?;
        out.push(Point { label, set, bots });
    }
    Ok(out)
}

/// A sweep's outcome, as `sweep --format json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct Sweep {
    /// The variant swept.
    pub variant: String,
    pub packs: Vec<String>,
    /// What varies (`PACK.NAME` or `players`), and its values.
    pub dimension: String,
    pub values: Vec<String>,
    /// Games per value.
    pub games: u64,
    pub seed: u64,
    /// The bot of each seat, per value.
    pub bots: Vec<Vec<String>>,
    /// The values the bots weighed positions with, per value (each value's
    /// rules are their own, with their own tuned values or none).
    pub bot_values: Vec<String>,
    pub seconds: f64,
    /// Every metric of the value with the most players.
    pub metrics: Vec<SweepMetric>,
    /// Each value's run, for per-game rows and charts.
    #[serde(skip)]
    pub runs: Vec<Comparison>,
}

/// One metric over the values.
#[derive(Clone, Debug, Serialize)]
pub struct SweepMetric {
    pub name: String,
    /// One per value that has the metric (a seat's score only where the
    /// seat plays).
    pub points: Vec<SweepValue>,
}

/// A metric at one value, and its paired difference from the first value.
#[derive(Clone, Debug, Serialize)]
pub struct SweepValue {
    pub value: String,
    pub mean: f64,
    pub ci: [f64; 2],
    /// Why there is no interval: too few games ([`stats::Thin`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_interval: Option<stats::Thin>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Difference>,
}

/// What a sweep plays: the same games of every point.
pub struct SweepPlan<'a> {
    pub base: &'a Ruleset,
    pub dimension: &'a Dimension,
    pub points: &'a [Point],
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
}

/// Play every point on the same seeds and compare them with the first.
pub fn run(
    plan: &SweepPlan,
    progress: &(dyn Fn(u64) + Sync),
    mut each: impl FnMut(&GameResult) -> Result<()>,
) -> Result<Sweep> {
    let runs = plan
        .points
        .iter()
        .map(|p| {
            let one = Plan {
                sets: std::slice::from_ref(&p.set),
                bots: &p.bots,
                games: plan.games,
                seed: plan.seed,
                threads: plan.threads,
                log: false,
                fires: false,
            };
            compare::run(&one, progress, &mut each)
        })
        .collect::<Result<Vec<_>>>()?;
    let widest = runs.iter().map(|r| r.players).max().unwrap_or(2);
    let columns: Vec<Columns> = runs
        .iter()
        .map(|r| Columns::of_metrics(&r.per_game[0]))
        .collect();
    let mut metrics: Vec<SweepMetric> = stats::metric_names(widest)
        .into_iter()
        .map(|name| metric_over(&name, plan.points, &runs, &columns))
        .collect();
    // One family: every difference of every metric at every value.
    compare::adjust_together(
        metrics
            .iter_mut()
            .flat_map(|m| m.points.iter_mut())
            .filter_map(|p| p.diff.as_mut())
            .collect(),
    );
    Ok(Sweep {
        variant: plan.base.name().clone(),
        packs: plan.base.pack_names().clone(),
        dimension: plan.dimension.name(),
        values: plan.points.iter().map(|p| p.label.clone()).collect(),
        games: plan.games,
        seed: plan.seed,
        bots: runs.iter().map(|r| r.bots.clone()).collect(),
        bot_values: runs
            .iter()
            .map(|r| r.bot_values.first().cloned().unwrap_or_default())
            .collect(),
        seconds: runs.iter().map(|r| r.seconds).sum(),
        metrics,
        runs,
    })
}

/// Metric `name` at every point that has it, with paired differences.
fn metric_over(
    name: &str,
    points: &[Point],
    runs: &[Comparison],
    columns: &[Columns],
) -> SweepMetric {
    let base = runs[0].metric_index(name);
    let scale = stats::Scale::of(
        name,
        runs.iter()
            .zip(columns)
            .filter_map(|(r, c)| c.column(r.metric_index(name)?)),
    );
    let points = runs
        .iter()
        .enumerate()
        .filter_map(|(v, r)| {
            let m = r.metric_index(name)?;
            let value = &r.metrics[m].values[0];
            let diff = base.filter(|_| v > 0).map(|b| {
                if name == "balance" {
                    Difference::of(columns[0].balance_difference(&columns[v]))
                } else {
                    let a = columns[0].column(b).unwrap_or(&[]);
                    let own = columns[v].column(m).unwrap_or(&[]);
                    Difference::of(stats::difference(a, own, scale))
                }
            });
            Some(SweepValue {
                value: points[v].label.clone(),
                mean: value.mean,
                ci: value.ci,
                no_interval: value.no_interval,
                diff,
            })
        })
        .collect();
    SweepMetric {
        name: name.to_string(),
        points,
    }
}
