//! Work charged in bulk: what one operation of Rhai's, or one call of a
//! bulk native, does beyond a few microseconds is charged to the running
//! hook call as operations of its own, by its size, so that the operation
//! limits (of a call, of a game) bound CPU time and not only steps. Rhai's
//! own means do not: its progress callback sees no sizes, and its size
//! limits bound one value, not how often it is copied or scanned.

use rhai::{Dynamic, Map};

use super::running::RULES;

/// Work charged in bulk: one operation for every this many units of work
/// (elements or bytes of a value named, cells a bulk native walks). An
/// operation of the script itself takes well under a microsecond; this many
/// elements copied or compared take about as long.
pub(super) const WORK_PER_OPERATION: usize = 64;
/// A value of at most this many units is named at no charge: the shipped
/// packs' values (cells of a range, a tower's floors) stay far below it, so
/// their operation counts do not change.
pub(super) const FREE_SIZE: usize = 256;

/// The units of work a copy, comparison or scan of `v` takes, by its own
/// size: an array's or a map's elements (a map's at 8 each: keys are
/// strings), a string's or a blob's bytes / 8. O(1): nested values are not
/// walked, each is charged when it is named in turn.
pub(super) fn size_of(v: &Dynamic) -> usize {
    if let Some(a) = v.read_lock::<rhai::Array>() {
        a.len()
    } else if let Some(m) = v.read_lock::<Map>() {
        m.len() * 8
    } else if let Some(s) = v.read_lock::<rhai::ImmutableString>() {
        s.len() / 8
    } else if let Some(b) = v.read_lock::<rhai::Blob>() {
        b.len() / 8
    } else {
        0
    }
}

/// Charge `units` of work to the running hook call, if one runs
/// ([`super::ScriptRules::charge_work`]).
pub(super) fn charge(units: usize) {
    if units >= WORK_PER_OPERATION && RULES.is_set() {
        RULES.with(|r| r.charge_work(units));
    }
}
