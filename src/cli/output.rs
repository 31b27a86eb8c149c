//! Output helpers shared by the commands: printing that treats a closed
//! stdout as an error (not a panic), tables sized to the terminal, the
//! progress bar, and writing output files.

use std::path::Path;

use anyhow::Result;
use comfy_table::{ContentArrangement, Table};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::kernel::diag::bad_input;

/// `println!` that returns an error instead of panicking when stdout is
/// closed (e.g. piped into `head`); `main` treats a broken pipe as success.
macro_rules! out {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout(), $($arg)*)?
    };
}

/// `print!`, likewise.
macro_rules! outp {
    ($($arg:tt)*) => {
        write!(std::io::stdout(), $($arg)*)?
    };
}

/// A progress bar on stderr when it is a terminal; nothing otherwise.
pub fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// A table that fits the terminal's width when stdout is one.
pub fn new_table<S: ToString>(header: impl IntoIterator<Item = S>) -> Table {
    let mut table = Table::new();
    table
        .load_style(comfy_table::presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(
            header
                .into_iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>(),
        );
    table
}

/// Write `text` to `path`; a path that cannot be written is bad input.
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text)
        .map_err(|e| bad_input(format!("cannot write `{}`: {e}", path.display())))
}
