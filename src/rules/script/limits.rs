//! The sandbox's limits: what one hook call, with the hooks it calls, may
//! spend, and how large the values of a script may grow.

use std::time::Duration;

/// Operations one hook call may run, the hooks it calls (`previous`,
/// `capture_cells`…) included: a runaway loop ends here.
pub const OPERATIONS: u64 = 1_000_000;
/// CPU time one hook call may take (of its own thread, so a busy machine
/// does not shorten it), the hooks it calls included. Operations differ in
/// cost (copying a 10,000-element array is one), so this bounds what the
/// operation count cannot.
pub const TIME: Duration = Duration::from_secs(1);
/// Memory one hook call may take hold of, the hooks it calls included:
/// bytes the thread holds beyond what it held when the call began. Catches
/// data grown past the size limits below where Rhai does not check them
/// (values stored into an array slot, curried function pointers…).
pub const MEMORY: usize = 32 << 20;
pub const CALL_LEVELS: usize = 32;
pub const EXPR_DEPTH: usize = 64;
pub const STRING_SIZE: usize = 10_000;
pub const ARRAY_SIZE: usize = 10_000;
pub const MAP_SIZE: usize = 1_000;
/// Hooks calling hooks (`previous`, `capture_cells`…) nest at most this deep.
pub const NESTING: usize = 24;
