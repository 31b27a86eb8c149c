//! towerlab's integration tests: one test binary, one module per area. Test
//! names cite the rule IDs of RULES.md (`g5_…`, `t6_…`).

mod arena;
mod bad_input;
mod bots;
mod cli;
mod common;
mod compare;
mod golden;
mod layers;
mod mcts;
mod packs;
mod properties;
mod render;
mod report;
mod sandbox;
mod scoring;
mod tilesets;
mod tower;
mod variants;
