//! Pack manifests (`pack.toml`) and variant files (`variants/*.toml`): their
//! formats, validation with `file:line:col` errors, and how a pack or variant
//! named on the command line is found.
//!
//! A pack's manifest, read and validated, is `pack`'s; finding the pack a
//! name means, `find`'s; a variant file, read and found, `variant`'s.

mod find;
mod pack;
mod variant;

pub use find::{inline_pack, load_pack, load_pack_checked, load_pack_from};
pub use pack::{FloorDecl, MAX_FLOOR_KINDS, Pack};
pub use variant::{VariantFile, load_variant, load_variant_from};
