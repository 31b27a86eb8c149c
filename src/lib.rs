//! towerlab: a sandbox for the Carcassonne *Tower* rule family.
//!
//! The crate is built in layers, one folder each; a module imports only from
//! its own layer or the layers below it (`tests/it/layers/` enforces it):
//!
//! 0. [`kernel`]: geometry, tile sets, the board, features, a game and its
//!    turn loop, the [`kernel::Rules`] trait every tower question goes
//!    through, previews for bots; input errors with their file positions.
//! 1. [`rules`]: the implementations of `Rules` — The Tower in Rust
//!    (`native:tower`) and rule packs in Rhai — and the home folders and
//!    variant files that name them.
//! 2. [`play`]: seeds, bots, many games in parallel, logs, replay, pack
//!    checks and range questions outside a game.
//! 3. [`analysis`]: metrics, confidence intervals, paired comparisons.
//! 4. [`views`]: what a picture shows (scenes of games and board files, their
//!    colours and captions), pictures (SVG) and the HTML report.
//! 5. [`serve`]: play a variant in the browser against bots: a local web
//!    server holding games by id, and the page it serves.
//! 6. [`cli`]: the command line, the only code that prints.

pub mod kernel;

pub mod rules;

pub mod play;

pub mod analysis;

pub mod views;

pub mod serve;

pub mod cli;
