//! Rule packs and variants: finding them, validating them once, and turning
//! them into a ready [`Ruleset`] — the tile set plus the rules — from which
//! each worker thread takes its own [`Rules`] instance.
//!
//! A pack is a folder with a `pack.toml` and (usually) a Rhai script; a
//! variant is an ordered list of packs with settings. The base game is always
//! in. Packs and variants are found in a [`Home`]: the shipped files, built
//! into the binary, with a home folder's over them ([`home`]); they are
//! loaded under [`LoadOptions`]: the memory limit, hook budget and trace
//! ([`load`]). See `docs/packs.md` for the author's guide.
//!
//! A [`Ruleset`] and how it is made are `ruleset`'s; what it is assembled
//! from (the reference tiles, floor kinds, fingerprint and compiled
//! scripts), `assemble`'s; the order its list of packs keeps, `order`'s;
//! the parameter values it sets, checked once ([`setting::Checked`]; as they
//! are written, [`Params`]), `setting`'s.
//!
//! [`Rules`]: crate::kernel::Rules

mod assemble;
pub mod home;
pub mod load;
pub mod logged;
pub mod manifest;
pub mod native;
mod order;
pub mod param;
pub mod problems;
pub mod requires;
mod ruleset;
pub mod script;
pub mod setting;
pub mod state;
pub mod trace;
pub mod worths;

pub use assemble::reference_tiles;
pub use home::{Dir, Home, Kept, Origin, kept_packs};
pub use load::LoadOptions;
pub use logged::PackFiles;
pub use manifest::{FloorDecl, Pack, VariantFile};
pub use order::pack_listed_twice;
pub use requires::with_requirements;
pub use ruleset::Ruleset;
pub use script::MemoryLimit;
pub use setting::Params;
pub use worths::{Tuned, Worths};

// What `problems` shares with the ruleset, beyond the paths above.
use assemble::compile_scripts;
