//! Memory accounting for [`super::limits::MEMORY`]: [`CountingAllocator`]
//! counts, per thread, the bytes the thread holds.
//!
//! The library installs no allocator: a program that runs rule packs with the
//! memory limit installs this one (towerlab's `main.rs` does):
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: towerlab::rules::script::CountingAllocator =
//!     towerlab::rules::script::CountingAllocator;
//! ```
//!
//! Without it nothing is counted, and loading a pack with the memory limit
//! fails with an error that says so (see [`is_installed`]).

use mimalloc::MiMalloc;
use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::fmt;

/// mimalloc, counting the bytes each thread holds; install it as the
/// program's `#[global_allocator]` for the rule packs' memory limit. It
/// costs one thread-local addition per allocation. mimalloc rather than
/// the system's allocator: a script's run allocates a value for nearly
/// every expression it evaluates, and mimalloc's thread-local free lists
/// serve those small, short-lived blocks in fewer instructions (about a
/// tenth fewer a game, packs and native rules alike; docs/explanation/speed.md).
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAllocator;

thread_local! {
    /// Bytes allocated minus bytes freed by this thread.
    static HELD: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // A `const` thread-local with no destructor never allocates and is
    // always available.
    let _ = HELD.try_with(|h| h.set(h.get().wrapping_add(delta)));
}

/// Whether hook calls are held to [`super::limits::MEMORY`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemoryLimit {
    /// Counted by [`CountingAllocator`], which must be installed.
    #[default]
    On,
    /// Not counted: operations, CPU time and sizes are still limited.
    Off,
}

/// Rule packs were loaded with [`MemoryLimit::On`] in a program whose global
/// allocator is not [`CountingAllocator`]: the limit could not be kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoCountingAllocator;

impl fmt::Display for NoCountingAllocator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "rule packs are held to a memory limit, which needs towerlab's counting allocator, \
             and this program does not use it: install it in the program with \
             `#[global_allocator] static ALLOCATOR: towerlab::rules::script::CountingAllocator \
             = towerlab::rules::script::CountingAllocator;`, or load the packs without the \
             memory limit (`LoadOptions::with_memory_limit(MemoryLimit::Off)`; see docs/packs.md)",
        )
    }
}

impl std::error::Error for NoCountingAllocator {}

/// Can `limit` be kept in this program?
pub fn check(limit: MemoryLimit) -> Result<(), NoCountingAllocator> {
    if limit == MemoryLimit::On && !is_installed() {
        Err(NoCountingAllocator)
    } else {
        Ok(())
    }
}

/// Is [`CountingAllocator`] the program's global allocator (or the one it
/// delegates to)? Tested by allocating: the count of this thread moves only
/// when the allocation went through it.
pub fn is_installed() -> bool {
    const PROBE: usize = 64;
    // `black_box` keeps the allocation from being optimised away.
    let before = std::hint::black_box(held());
    let block = std::hint::black_box(Vec::<u8>::with_capacity(PROBE));
    let counted = std::hint::black_box(held()).wrapping_sub(before) >= PROBE as isize;
    drop(block);
    counted
}

/// Bytes this thread has allocated and not freed (only differences mean
/// anything: memory may be freed by another thread than its allocator's).
pub fn held() -> isize {
    HELD.try_with(Cell::get).unwrap_or(0)
}

// SAFETY: every call goes to mimalloc unchanged; counting
// touches one thread-local integer and does not allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        let p = unsafe { MiMalloc.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() {
            count(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, i.e. from `MiMalloc`.
        unsafe { MiMalloc.dealloc(ptr, layout) };
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `MiMalloc`; the caller upholds the rest.
        let p = unsafe { MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(new_size as isize - layout.size() as isize);
        }
        p
    }
}
