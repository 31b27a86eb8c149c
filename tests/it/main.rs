//! towerlab's integration tests: one test binary, one module per area. Test
//! names cite the rule IDs of docs/rules.md (`g5_…`, `t6_…`).

/// The tests load rule packs through the library, with the memory limit: the
/// limit needs the counting allocator, as in the binary.
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

mod acting;
mod arena;
mod arena_shards;
mod authoring;
mod bad_input;
mod bots;
mod bounded_games;
mod browser;
mod budget;
mod calibration;
mod cli;
mod clobber;
mod common;
mod compare;
mod cost;
mod decks;
mod events;
mod examples;
mod feature_reads;
mod features_seen;
mod figures;
mod fires;
mod frictions;
mod fuzz;
mod golden;
mod home;
mod hostile;
mod hostile_five;
mod inputs_bounded;
mod ladder;
mod layers;
mod limits_server;
mod links;
mod mcts;
mod meeple_effects;
mod more_players;
mod newcomer;
mod packs;
mod params_applied;
mod picture_layout;
mod preview;
mod properties;
mod quality;
mod range_reads;
mod readme;
mod render;
mod report;
mod report_browser;
mod report_layout;
mod rule_bots;
mod sandbox;
mod scenarios;
mod scoring;
mod scoring_hooks;
mod serve;
mod serve_browser;
mod serve_docs;
mod serve_seats;
mod shards;
mod snapshots;
mod sweeps;
mod table_supply;
mod thin_samples;
mod threads_fit;
mod tile_rules;
mod tiles_left;
mod tilesets;
mod tower;
mod trace;
mod tune;
mod tutorials;
mod variants;
mod verdict;
mod verdict_words;
