//! What a difference means to a designer: the question a metric answers
//! (its [`Group`], in the order a designer asks them — scores, who wins,
//! what the rule does, how a game feels, bookkeeping) and the practical
//! threshold below which a difference the stars detect is "detectable but
//! small" rather than a headline (a default per metric, `--min-effect
//! METRIC=X` to change it).

use anyhow::Result;
use serde::Serialize;

use crate::analysis::stats::glossary;
use crate::kernel::diag::{bad_input, did_you_mean};

/// The question a metric answers, in the order the verdict tells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// Each seat's score and the margin: how scores move.
    Scores,
    /// Balance and each seat's win share (the first seat's advantage).
    Wins,
    /// Captures, prisoners, towers, ransoms, exchanges and each floor
    /// kind's use: what the rule does directly.
    Rule,
    /// Lead changes, drama, comebacks, decisiveness, ties: how a game feels.
    Feel,
    /// Options per decision, forced decisions, decisions, supplies left,
    /// turns: what the game asks, not how it goes.
    Bookkeeping,
}

impl Group {
    /// The group of metric `name`.
    pub fn of(name: &str) -> Group {
        let base = name.split('.').next().unwrap_or(name);
        match base {
            "score" | "margin" | "spread" => Group::Scores,
            "win" | "balance" => Group::Wins,
            "lead_changes" | "drama" | "comeback" | "decisiveness" | "ties" => Group::Feel,
            "branching" | "forced" | "decisions" | "floors_unused" | "turns" => Group::Bookkeeping,
            _ => Group::Rule,
        }
    }

    /// How a sentence heads the group.
    pub fn heading(self) -> &'static str {
        match self {
            Group::Scores => "scores",
            Group::Wins => "who wins",
            Group::Rule => "what the rule does",
            Group::Feel => "how a game feels",
            Group::Bookkeeping => "bookkeeping",
        }
    }
}

/// The default practical threshold of metric `name`, in its unit: a point
/// of score, two points of a share of games, a quarter of a capture (or
/// tower, ransom, exchange…) a game.
pub fn default_min_effect(name: &str) -> f64 {
    let base = name.split('.').next().unwrap_or(name);
    match base {
        "score" | "margin" | "spread" | "drama" => 1.0,
        "ransom_points" => 0.5,
        "tower_height_mean" | "tower_height_max" => 0.1,
        "branching" => 0.5,
        "forced" => 0.01,
        "turns" => 0.5,
        "decisions" => 1.0,
        _ if glossary::is_share(name) => 0.02,
        _ => 0.25,
    }
}

/// Practical thresholds: the defaults, with the ones `--min-effect` sets.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MinEffect {
    /// `(metric, threshold)` set by hand; a metric name, or a pattern of
    /// the glossary (`score.seatN`, `floors.KIND`) for all it names.
    pub set: Vec<(String, f64)>,
}

impl MinEffect {
    /// `METRIC=X` items, each a metric of the glossary and a threshold of 0
    /// or more.
    pub fn parse(items: &[String]) -> Result<MinEffect> {
        let mut set = Vec::new();
        for item in items {
            let bad = || {
                bad_input(format!(
                    "--min-effect {item}: expected METRIC=X, e.g. score.seat1=2 or captures=0.5"
                ))
            };
            let (name, value) = item.split_once('=').ok_or_else(bad)?;
            let name = name.trim();
            let value: f64 = value.trim().parse().map_err(|_| bad())?;
            if !(value >= 0.0 && value.is_finite()) {
                return Err(bad_input(format!(
                    "--min-effect {item}: the threshold must be 0 or more"
                )));
            }
            if glossary::definition(name).is_none() {
                let names = glossary::GLOSSARY.iter().map(|d| d.name);
                return Err(bad_input(format!(
                    "--min-effect {item}: unknown metric `{name}` (`compare --explain` lists them){}",
                    did_you_mean(name, names)
                )));
            }
            set.push((name.to_string(), value));
        }
        Ok(MinEffect { set })
    }

    /// The threshold of metric `name`: the last set for it (by name, or by
    /// its glossary pattern), else its default.
    pub fn of(&self, name: &str) -> f64 {
        let pattern = glossary::definition(name).map(|d| d.name);
        self.set
            .iter()
            .rev()
            .find(|(n, _)| n == name || Some(n.as_str()) == pattern)
            .map_or_else(|| default_min_effect(name), |(_, v)| *v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_fall_in_the_order_a_designer_asks() {
        assert_eq!(Group::of("score.seat2"), Group::Scores);
        assert_eq!(Group::of("margin"), Group::Scores);
        assert_eq!(Group::of("balance"), Group::Wins);
        assert_eq!(Group::of("win.seat1"), Group::Wins);
        assert_eq!(Group::of("captures"), Group::Rule);
        assert_eq!(Group::of("floors.regular"), Group::Rule);
        assert_eq!(Group::of("captures.top.black"), Group::Rule);
        assert_eq!(Group::of("comeback"), Group::Feel);
        assert_eq!(Group::of("branching"), Group::Bookkeeping);
        assert!(Group::Scores < Group::Wins && Group::Feel < Group::Bookkeeping);
    }

    #[test]
    fn thresholds_default_by_unit_and_are_set_by_name_or_pattern() {
        let m = MinEffect::parse(&["score.seatN=3".into(), "captures=0.1".into()]).unwrap();
        assert_eq!(m.of("score.seat2"), 3.0);
        assert_eq!(m.of("captures"), 0.1);
        assert_eq!(m.of("margin"), 1.0);
        assert_eq!(m.of("comeback"), 0.02);
        assert!(MinEffect::parse(&["captuers=1".into()]).is_err());
        assert!(MinEffect::parse(&["captures=-1".into()]).is_err());
        assert!(MinEffect::parse(&["captures".into()]).is_err());
    }
}
