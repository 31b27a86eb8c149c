//! A trace of hook calls, as the program reads it (`--trace` of `check`,
//! `test` and `play`): the calls, in the order they began, and what was
//! left out. The pack host fills it (`script::trace`); the command line
//! formats and writes it. It holds the text of each call, bounded: each
//! text cut to [`limits::TRACE_TEXT`] characters, and the whole to
//! [`limits::TRACE_BYTES`] (later calls counted, not kept).

use std::sync::{Arc, Mutex};

use crate::rules::script::limits;

/// Where traced calls go: one log, shared by every rules instance of the
/// scripts that hold it (handles are cloned), read once the games are
/// played.
#[derive(Clone, Default)]
pub struct Trace(Arc<Mutex<TraceLog>>);

impl std::fmt::Debug for Trace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Trace")
    }
}

/// What a trace holds.
#[derive(Debug, Default)]
pub struct TraceLog {
    /// Calls and notes, in the order they began.
    pub entries: Vec<TraceEntry>,
    /// Calls left out: the trace was full.
    pub omitted: u64,
    /// Bytes of text held.
    bytes: usize,
}

#[derive(Debug)]
pub enum TraceEntry {
    /// What the program was doing (a scenario begun, a game…).
    Note(String),
    Call(TracedCall),
}

/// One question to a hook.
#[derive(Debug)]
pub struct TracedCall {
    /// The hook's name.
    pub hook: &'static str,
    /// The pack that answered (the last of the hook's chain; `None`: no
    /// pack defines the hook, its default answered).
    pub pack: Option<String>,
    /// Calls of other hooks this one was asked inside (`capture_cells`…).
    pub depth: usize,
    /// The arguments by name, as the script saw them.
    pub arguments: Vec<(&'static str, String)>,
    /// What the call read, in order, with each value (for a kept answer:
    /// the reads that matched).
    pub reads: Vec<(String, String)>,
    /// It read what no trace holds: its answer was not kept.
    pub opaque: bool,
    /// The answer came from the memo: the hook was not run.
    pub kept: bool,
    pub debug: Vec<DebugLine>,
    /// Debug lines past [`limits::TRACE_DEBUG_LINES`], not kept.
    pub more_debug: u64,
    /// The answer, or the error.
    pub answer: Result<String, String>,
}

/// One `debug(…)` of a script.
#[derive(Debug, Clone)]
pub struct DebugLine {
    pub pack: String,
    /// The script's file and line.
    pub file: String,
    pub line: usize,
    pub text: String,
}

impl Trace {
    pub fn new() -> Trace {
        Trace::default()
    }

    /// What was traced so far, taken out of the trace.
    pub fn take(&self) -> TraceLog {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Note what the program does next (shown between the calls).
    pub fn note(&self, text: impl Into<String>) {
        let text = cut(&text.into());
        self.add(text.len() + 8, TraceEntry::Note(text));
    }

    /// Keep `entry` of `bytes` of text, unless the trace is full.
    pub(crate) fn add(&self, bytes: usize, entry: TraceEntry) {
        let mut log = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if log.bytes + bytes > limits::TRACE_BYTES {
            if matches!(entry, TraceEntry::Call(_)) {
                log.omitted += 1;
            }
            return;
        }
        log.bytes += bytes;
        log.entries.push(entry);
    }
}

impl TracedCall {
    /// Bytes of text it holds, with room for a line's labels: about what
    /// it takes written out.
    pub(crate) fn bytes(&self) -> usize {
        const LABELS: usize = 24;
        let answer = match &self.answer {
            Ok(a) | Err(a) => a.len(),
        };
        let arguments = self
            .arguments
            .iter()
            .map(|(n, a)| n.len() + a.len() + LABELS);
        let reads = self.reads.iter().map(|(n, v)| n.len() + v.len() + LABELS);
        let debug = self
            .debug
            .iter()
            .map(|d| d.file.len() + d.text.len() + LABELS);
        let heading = 4 * LABELS + self.pack.as_ref().map_or(0, String::len);
        answer + heading + arguments.chain(reads).chain(debug).sum::<usize>()
    }
}

/// `text` cut to [`limits::TRACE_TEXT`] characters.
pub(crate) fn cut(text: &str) -> String {
    match text.char_indices().nth(limits::TRACE_TEXT) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}
