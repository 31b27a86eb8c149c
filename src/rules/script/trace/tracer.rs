//! The calls being traced, as the host holds them: those running and those
//! ended inside the running top-level call. A part the host owns; tracing
//! itself is the module above's.

use crate::rules::trace::TracedCall;

/// The calls of one rules instance being traced.
#[derive(Default)]
pub(in crate::rules::script) struct Tracer {
    /// Calls running, innermost last.
    pub(super) open: Vec<Open>,
    /// Calls ended inside the running top-level call, in the order they
    /// began.
    pub(super) done: Vec<TracedCall>,
}

pub(super) struct Open {
    pub(super) call: TracedCall,
    /// Where in `done` the call goes: before the calls it asked.
    pub(super) at: usize,
    /// Its debug lines are still its own (not once its answer is made:
    /// `fires` asks its shorter chains after).
    pub(super) listening: bool,
    /// Reads that were its own when its answer was made.
    pub(super) reads: usize,
}
