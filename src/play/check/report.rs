//! What `check` found: notes for the reader, warnings, and problems.

/// What `check` found.
#[derive(Debug, Default)]
pub struct Report {
    /// What was loaded, for the reader.
    pub notes: Vec<String>,
    /// Suspicious but not wrong.
    pub warnings: Vec<String>,
    /// Wrong: the pack or variant cannot be used as it is.
    pub problems: Vec<String>,
    pub summary: String,
    /// What each pack hook costs a game, when asked for and the checks
    /// found no problem.
    pub cost: Option<crate::play::cost::CostReport>,
}
