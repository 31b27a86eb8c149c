//! `--fires` of `simulate` and `compare`: did the rules fire? A table of
//! each variant's pack hooks — asked, changed the answer, games changed —
//! and a sentence for each that never changed one.

use std::io::Write;

use anyhow::Result;

use super::output::new_table;
use crate::analysis::compare::VariantFires;

/// Print the fires of every variant of a run, after its other output.
pub fn print(fires: &[VariantFires]) -> Result<()> {
    out!("");
    out!(
        "Did the rules fire? Per pack and hook: questions asked, answers it changed (against the packs before it, or the default), games in which it changed one"
    );
    let mut table = new_table([
        "variant",
        "pack",
        "hook",
        "asked",
        "changed",
        "games changed",
    ]);
    for v in fires {
        for f in &v.hooks {
            let unknown = match f.unknown {
                0 => String::new(),
                n => format!(" ({n} not compared)"),
            };
            table.add_row([
                v.variant.clone(),
                f.pack.clone(),
                f.hook.name().to_string(),
                f.asked.to_string(),
                format!("{}{unknown}", f.changed),
                format!("{} of {}", f.games_changed, v.games),
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
