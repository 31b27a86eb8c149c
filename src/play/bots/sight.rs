//! How far the greedy bot sees beyond what a move does at once.

/// What the greedy bot weighs beyond what a move does at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// Threats and delayed value: a floor is weighed with what opponents
    /// could take by adding a floor to the tower as it would then stand (the
    /// rules' `capture_range` one floor up, `may_capture`, who may build),
    /// and with the capture its builder could make with the next floor there
    /// ([`Worths::later_capture`](crate::rules::Worths::later_capture));
    /// a placement with the open cities it blocks (fewer undrawn tiles
    /// left to close them): the `greedy` bot.
    Ahead,
    /// Threats and blocks, not a floor's later worth: the `mcts` bot's
    /// priors and playouts (the search finds that by playing on), whose
    /// evaluation also knows which tiles are left.
    Threats,
    /// None of these: a floor weighed with the threat of the tower as it
    /// stands, open cities by their open ends alone (the reference,
    /// `mcts-baseline`).
    Baseline,
}
