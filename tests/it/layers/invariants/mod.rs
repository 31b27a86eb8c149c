//! The map's other written rules (ARCHITECTURE.md, Invariants), enforced on
//! the parsed sources: only `cli/` and `main.rs` print; each external crate
//! is used only by the layers its table row names; `src/kernel/` names no
//! floor kind, pack or variant; every rule ID of docs/rules.md is named by a
//! test that runs; `kernel/`, `rules/` and `play/` hold no process-wide
//! mutable state. Each check is a function of its inputs, and a test plants a
//! violation of each to see it found.
//!
//! One module per invariant, each with its check, the test on `src/` and
//! the test that plants a violation.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::TokenTree;
use syn::visit::{self, Visit};

use super::source::{SourceFile, read_src, token_paths};
use super::{assert_none, layer_of, planted};

mod crates;
mod global_state;
mod kernel_names;
mod printing;
mod rule_ids;
