//! What a scenario reports of an expectation (or a step) that did not
//! hold: where it is written, what was checked, what was expected and got.

/// One expectation that did not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `file:line:col` of the expectation (or the step).
    pub at: String,
    /// What was checked, in words.
    pub what: String,
    pub expected: String,
    pub got: String,
}
