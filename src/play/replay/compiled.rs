//! The rulesets a replay keeps compiled between the games of a log, the
//! least recently used dropped first.

use anyhow::Result;

use super::file::Start;
use crate::rules::{PackFiles, Ruleset};

/// The rulesets a replay has compiled, each with its rules instance (and
/// its caches), kept for the games that follow: at most [`KEPT_RULESETS`],
/// the least recently used dropped first, so a log whose every game carries
/// other pack files costs the memory of a few rulesets, not of all.
#[derive(Default)]
pub(super) struct Compiled {
    /// Most recently used last.
    kept: Vec<(RulesetKey, Ruleset, Box<dyn crate::kernel::Rules>)>,
}

/// What makes two games' rules the same: packs, parameters, logged files.
type RulesetKey = (Vec<String>, String, Vec<PackFiles>);

/// Rulesets a replay keeps compiled at once.
pub const KEPT_RULESETS: usize = 8;

impl Compiled {
    /// The ruleset and rules of `start`, compiled by `compile` unless kept.
    pub(super) fn get(
        &mut self,
        start: &Start,
        compile: impl FnOnce() -> Result<Ruleset>,
    ) -> Result<(&Ruleset, &dyn crate::kernel::Rules)> {
        let key: RulesetKey = (
            start.logged.packs.to_vec(),
            format!("{:?}", start.logged.params),
            start.logged.pack_files.to_vec(),
        );
        match self.kept.iter().position(|(k, ..)| *k == key) {
            Some(i) => {
                let hit = self.kept.remove(i);
                self.kept.push(hit);
            }
            None => {
                let set = compile()?;
                let rules = set.rules();
                if self.kept.len() == KEPT_RULESETS {
                    self.kept.remove(0);
                }
                self.kept.push((key, set, rules));
            }
        }
        let (_, set, rules) = self.kept.last().expect("just kept");
        Ok((set, rules.as_ref()))
    }
}
