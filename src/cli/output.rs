//! Output helpers shared by the commands: printing that treats a closed
//! stdout as an error (not a panic), tables sized to the terminal, the
//! progress bar, and writing output files.

use std::path::Path;

use anyhow::Result;
use comfy_table::{ContentArrangement, Table};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::analysis::verdict::thousands;
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
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {rate}  ETA {eta}")
            .map(|style| {
                style.with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{}", games_per_sec(state.per_sec()));
                    },
                )
            })
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// `n` and the noun, in the plural unless `n` is 1: "1 cell", "8 cells".
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A rate as people read it: "612 games/s", "1,250 games/s".
pub fn games_per_sec(rate: f64) -> String {
    format!("{} games/s", thousands(rate.round().max(0.0) as u64))
}

/// The speed line under a run's table: "612 games/s (3.27 s, 1 thread)".
pub fn speed_line(rate: f64, seconds: f64, threads: usize) -> String {
    let threads = if threads == 1 {
        "1 thread".to_string()
    } else {
        format!("{threads} threads")
    };
    format!("{} ({seconds:.2} s, {threads})", games_per_sec(rate))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_whole_games_per_second_and_one_thread_is_singular() {
        assert_eq!(games_per_sec(612.5508), "613 games/s");
        assert_eq!(games_per_sec(14_720.4), "14,720 games/s");
        assert_eq!(
            speed_line(845.2, 18.944, 1),
            "845 games/s (18.94 s, 1 thread)"
        );
        assert_eq!(
            speed_line(845.2, 18.944, 2),
            "845 games/s (18.94 s, 2 threads)"
        );
    }
}
