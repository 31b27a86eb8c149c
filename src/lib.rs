//! towerlab: a sandbox for the Carcassonne *Tower* rule family.
//!
//! - [`kernel`]: the board kernel, which plays complete games and asks a
//!   [`kernel::Rules`] implementation every question about towers;
//! - [`native`]: the plain Tower rules written in Rust (`native:tower`);
//! - [`tiles`]: tile sets as data; [`bots`]: players; [`sim`]: seeded,
//!   parallel simulation; [`render`]: board pictures (SVG); [`report`]: the
//!   HTML report of a comparison; [`cli`]: the command line, the only code
//!   that prints.

pub mod bots;
pub mod cli;
pub mod diag;
pub mod geometry;
pub mod kernel;
pub mod log;
pub mod native;
pub mod packs;
pub mod query;
pub mod render;
pub mod replay;
pub mod report;
pub mod seed;
pub mod sim;
pub mod stats;
pub mod tiles;
