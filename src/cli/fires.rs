//! `--fires` of `simulate` and `compare`: did the rules fire? A table of
//! each variant's pack hooks — asked, changed the answer, games changed —
//! in the games played, and apart in bots' search; and a sentence for each
//! that never changed an answer the games asked.

use std::io::Write;

use anyhow::Result;

use super::output::new_table;
use crate::analysis::compare::VariantFires;

/// Print the fires of every variant of a run, after its other output.
pub fn print(fires: &[VariantFires]) -> Result<()> {
    out!("");
    out!(
        "Did the rules fire? Per pack and hook, in the games played (questions the game asked: a decision's options, a choice carried out, scoring) and, apart, in bots' search (questions asked while a bot decided, of positions no game may reach): questions asked, answers it changed (against the packs before it, or the default), games in which it changed one"
    );
    let mut table = new_table([
        "variant",
        "pack",
        "hook",
        "in play: asked",
        "changed",
        "games changed",
        "in search: asked",
        "changed",
    ]);
    for v in fires {
        for f in &v.hooks {
            let unknown = |n: u64| match n {
                0 => String::new(),
                n => format!(" ({n} not compared)"),
            };
            let (play, search) = (&f.in_play, &f.in_search);
            table.add_row([
                v.variant.clone(),
                f.pack.clone(),
                f.hook.name().to_string(),
                play.asked.to_string(),
                format!("{}{}", play.changed, unknown(play.unknown)),
                format!("{} of {}", play.games_changed, v.games),
                search.asked.to_string(),
                format!("{}{}", search.changed, unknown(search.unknown)),
            ]);
        }
    }
    out!("{table}");
    for v in fires {
        if v.hooks.is_empty() {
            out!("{}: native rules, no packs to count", v.variant);
        }
        for sentence in v.never_changed() {
            out!("{}: {sentence}", v.variant);
        }
    }
    Ok(())
}
