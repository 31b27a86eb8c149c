//! towerlab's integration tests: one test binary, one module per area. Test
//! names cite the rule IDs of RULES.md (`g5_…`, `t6_…`).

mod bad_input;
mod bots;
mod cli;
mod common;
mod compare;
mod golden;
mod layers;
mod packs;
mod preview;
mod properties;
mod render;
mod report;
mod sandbox;
mod scoring;
mod shards;
mod snapshots;
mod tilesets;
mod tower;
mod variants;
