//! `--trace FILE` of `check`, `test` and `play`: the packs' hook calls of
//! the command, traced by the host (`rules::trace::Trace`), written to
//! FILE as text — whatever the command's outcome, so a failing game's last
//! calls are there to read.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;

use super::output::write_reported;
use crate::analysis::verdict::thousands;
use crate::rules::LoadOptions;
use crate::rules::script::limits::{TRACE_BYTES, TRACE_DEBUG_LINES};
use crate::rules::trace::{Trace, TraceEntry, TraceLog, TracedCall};

/// Run `work` with packs loaded under `load`, their hook calls traced into
/// `path` when given. The trace is written whether or not `work` succeeds;
/// `work`'s error comes first.
pub fn traced<T>(
    path: Option<&Path>,
    load: LoadOptions,
    work: impl FnOnce(&LoadOptions) -> Result<T>,
) -> Result<T> {
    let Some(path) = path else {
        return work(&load);
    };
    let trace = Trace::new();
    let result = work(&load.with_trace(trace.clone()));
    let written = write_reported(path, &text(&trace.take()));
    let value = result?;
    written?;
    Ok(value)
}

/// The trace as text: each call numbered in the order asked, a call asked
/// inside another indented under it.
pub fn text(log: &TraceLog) -> String {
    let mut out = String::from(
        "towerlab trace: every hook call, in the order asked (a call asked inside another is \
         indented under it); \"kept\": answered from the memo, the hook not run\n",
    );
    let mut number = 0;
    for entry in &log.entries {
        match entry {
            TraceEntry::Note(note) => {
                let _ = writeln!(out, "\n== {note}");
            }
            TraceEntry::Call(call) => {
                number += 1;
                call_text(&mut out, number, call);
            }
        }
    }
    if number == 0 && log.omitted == 0 {
        out.push_str("(no hook call: native rules, or no hook was asked)\n");
    }
    if log.omitted > 0 {
        let _ = writeln!(
            out,
            "… {} more {} not shown (a trace holds at most {} MB)",
            thousands(log.omitted),
            if log.omitted == 1 { "call" } else { "calls" },
            TRACE_BYTES >> 20
        );
    }
    out
}

fn call_text(out: &mut String, number: usize, call: &TracedCall) {
    let pad = "  ".repeat(call.depth);
    let by = match &call.pack {
        Some(pack) => format!("pack `{pack}`"),
        None => "the default (no pack defines it)".to_string(),
    };
    let kept = if call.kept {
        ": kept (the memo's answer, under the reads below; the hook not run)"
    } else {
        ""
    };
    let _ = writeln!(out, "{pad}#{number} {}, answered by {by}{kept}", call.hook);
    for (name, value) in &call.arguments {
        let _ = writeln!(out, "{pad}   {name}: {value}");
    }
    for (read, value) in &call.reads {
        let _ = writeln!(out, "{pad}   read {read} = {value}");
    }
    if call.opaque {
        let _ = writeln!(
            out,
            "{pad}   (it read what no trace holds, e.g. cells of its own: its answer is not kept)"
        );
    }
    for d in &call.debug {
        let _ = writeln!(out, "{pad}   debug {}:{}: {}", d.file, d.line, d.text);
    }
    if call.more_debug > 0 {
        let _ = writeln!(
            out,
            "{pad}   … {} more debug {} not kept (at most {TRACE_DEBUG_LINES} a call)",
            thousands(call.more_debug),
            if call.more_debug == 1 {
                "line"
            } else {
                "lines"
            }
        );
    }
    match &call.answer {
        Ok(answer) => {
            let _ = writeln!(out, "{pad}   answer {answer}");
        }
        Err(e) => {
            let _ = writeln!(out, "{pad}   error {e}");
        }
    }
}
