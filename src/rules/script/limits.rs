//! The sandbox's limits: what one hook call, with the hooks it calls, may
//! spend, and how large the values of a script may grow.

use std::time::Duration;

/// Operations one hook call may run, the hooks it calls (`previous`,
/// `capture_cells`…) included: a runaway loop ends here.
pub const OPERATIONS: u64 = 1_000_000;
/// Operations the hooks of one game may run in all, by default
/// (`--hook-budget`, `LoadOptions::with_hook_budget`): a slow but legal
/// pack fails the game instead of running for minutes. An answer kept in a
/// cache costs what it cost when it was worked out, each time it is given,
/// so a game's count is the same whichever games its thread played
/// before. The heaviest shipped variant takes at most about 1/25 of it
/// (docs/packs.md).
pub const GAME_OPERATIONS: u64 = 10_000_000;
/// CPU time one hook call may take (of its own thread, so a busy machine
/// does not shorten it), the hooks it calls included. Operations differ in
/// cost (copying a 10,000-element array is one), so this bounds what the
/// operation count cannot.
pub const TIME: Duration = Duration::from_secs(1);
/// Wall time one hook call may take, the hooks it calls included: CPU time
/// does not run while a thread waits, so a script that could make its
/// thread wait would escape [`TIME`]; this ends it anyway. It only catches
/// a hang, and never decides an answer: [`TIME`] of CPU stretched over the
/// most worker threads (256) sharing two cores takes 128 s of wall time, so
/// a legal hook ends within it on any machine and any thread count.
pub const WALL_TIME: Duration = Duration::from_secs(300);
/// Memory one hook call may take hold of, the hooks it calls included:
/// bytes the thread holds beyond what it held when the call began. Catches
/// data grown past the size limits below where Rhai does not check them
/// (values stored into an array slot, curried function pointers…).
pub const MEMORY: usize = 32 << 20;
/// Nested function calls, counted across hooks that call each other.
pub const CALL_LEVELS: usize = 32;
pub const EXPR_DEPTH: usize = 64;
pub const STRING_SIZE: usize = 10_000;
pub const ARRAY_SIZE: usize = 10_000;
pub const MAP_SIZE: usize = 1_000;
/// Hooks calling hooks (`previous`, `capture_cells`…) nest at most this deep.
pub const NESTING: usize = 24;
/// The stack of every thread that runs hooks (rayon's workers and the thread
/// the command runs on). Rhai recurses for nested calls and expressions:
/// [`CALL_LEVELS`] (counted across nested hooks) times [`EXPR_DEPTH`], plus
/// one hook's own levels, fit in it with room to spare, so a script ends with
/// an error, never a stack overflow. Reserved, not committed: untouched
/// pages cost nothing.
pub const HOOK_STACK: usize = 256 << 20;
/// A traced argument, read, answer or debug line is cut to this many
/// characters (`--trace`).
pub const TRACE_TEXT: usize = 200;
/// Debug lines a traced call keeps; more are counted, not kept.
pub const TRACE_DEBUG_LINES: usize = 20;
/// Bytes of text a trace holds in all; the calls after are counted, not
/// kept.
pub const TRACE_BYTES: usize = 2 << 20;
