//! towerlab's integration tests: one test binary, one module per area. Test
//! names cite the rule IDs of RULES.md (`g5_…`, `t6_…`).

mod cli;
mod common;
mod packs;
mod properties;
mod scoring;
mod tilesets;
mod tower;
