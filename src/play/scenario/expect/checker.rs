//! The comparison of what a scenario expects with what the game answers:
//! one failure per difference, at the expectation's line and column, and
//! how both sides are written.

use anyhow::Result;

use super::super::checked::cell;
use super::super::failure::Failure;
use super::super::file::At;
use crate::kernel::Game;
use crate::kernel::diag::Source;
use crate::rules::Ruleset;

pub(super) struct Checker<'c, 'g> {
    pub(super) src: &'c Source,
    pub(super) set: &'c Ruleset,
    pub(super) game: &'c Game<'g>,
    pub(super) failures: &'c mut Vec<Failure>,
    pub(super) checked: usize,
}

impl Checker<'_, '_> {
    pub(super) fn compare(
        &mut self,
        span: std::ops::Range<usize>,
        what: String,
        expected: String,
        got: String,
    ) {
        self.checked += 1;
        if expected != got {
            let (line, col) = self.src.line_col(span.start);
            self.failures.push(Failure {
                at: format!("{}:{line}:{col}", self.src.path.display()),
                what,
                expected,
                got,
            });
        }
    }

    /// The tower at a cell (bad input when there is none).
    pub(super) fn tower(&self, at: &At) -> Result<usize> {
        let pos = cell(self.src, at)?;
        self.game.tower_at(pos).ok_or_else(|| {
            self.src.error_at(
                at.span(),
                format!("no foundation at [{}, {}]", pos.x, pos.y),
            )
        })
    }

    pub(super) fn supply_text(&self, counts: &[u32]) -> String {
        let parts: Vec<String> = self
            .set
            .floors()
            .iter()
            .zip(counts)
            .map(|(f, c)| format!("{} {c}", f.name))
            .collect();
        parts.join(", ")
    }
}

/// Where an expectation is whose question the rules failed to answer.
pub(super) fn asked(src: &Source, span: std::ops::Range<usize>) -> String {
    let (line, col) = src.line_col(span.start);
    format!("the expectation at {}:{line}:{col}", src.path.display())
}

pub(super) fn pos_text(at: &[i64; 2]) -> String {
    format!("[{}, {}]", at[0], at[1])
}

pub(super) fn cells_text(cells: &[(i32, i32)]) -> String {
    let parts: Vec<String> = cells.iter().map(|(x, y)| format!("[{x}, {y}]")).collect();
    format!("[{}]", parts.join(", "))
}

pub(super) fn list<T: ToString>(items: &[T]) -> String {
    let parts: Vec<String> = items.iter().map(T::to_string).collect();
    format!("[{}]", parts.join(", "))
}
