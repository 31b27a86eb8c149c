//! A game's events in words for the page's list, each with the turn it
//! happened in and the ID of the rule (RULES.md) behind it, as
//! `play::words` tells them.

use serde_json::{Value, json};

use crate::kernel::{Event, Game};
use crate::play::words::tell;
use crate::rules::Ruleset;

/// Every event so far, oldest first.
pub fn described(game: &Game, set: &Ruleset) -> Vec<Value> {
    let mut turn = 0u32;
    let mut out = Vec::with_capacity(game.events().len());
    for e in game.events() {
        if matches!(e, Event::Tile { .. }) {
            turn += 1;
        }
        let told = tell(e, game, set);
        out.push(json!({"turn": turn, "rule": told.rule, "text": told.text}));
    }
    out
}
