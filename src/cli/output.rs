//! Output helpers shared by the commands: printing that treats a closed
//! stdout as an error (not a panic), what a command prints kept as text
//! instead for a program that runs it ([`captured`]), tables sized to the
//! terminal, the progress bar, and writing output files whole or not at all.

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Result;
use comfy_table::{ContentArrangement, Table};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::analysis::verdict::thousands;
use crate::kernel::diag::bad_input;

/// `println!` that returns an error instead of panicking when stdout is
/// closed (e.g. piped into `head`); `main` treats a broken pipe as success.
macro_rules! out {
    ($($arg:tt)*) => {
        writeln!($crate::cli::output::stdout(), $($arg)*)?
    };
}

/// `print!`, likewise.
macro_rules! outp {
    ($($arg:tt)*) => {
        write!($crate::cli::output::stdout(), $($arg)*)?
    };
}

thread_local! {
    /// What this thread's command printed, while [`captured`] keeps it.
    static CAPTURE: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// Where a command prints: stdout, or the text [`captured`] keeps.
pub struct Stdout;

/// The command's standard output (every command prints through it).
pub fn stdout() -> Stdout {
    Stdout
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let kept = CAPTURE.with_borrow_mut(|kept| {
            kept.as_mut()
                .map(|text| text.extend_from_slice(buf))
                .is_some()
        });
        if kept {
            Ok(buf.len())
        } else {
            std::io::stdout().write(buf)
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().flush()
    }
}

/// Run `work` with what it prints on this thread kept, and return it with
/// `work`'s result.
pub fn captured<T>(work: impl FnOnce() -> T) -> (T, Vec<u8>) {
    let earlier = CAPTURE.replace(Some(Vec::new()));
    let value = work();
    let text = CAPTURE.replace(earlier).unwrap_or_default();
    (value, text)
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

/// A table that fits the terminal's width when stdout is one, else 100
/// columns (as `compare --width` defaults), so a table piped to a file or
/// a pager wraps its long cells instead of running hundreds of columns.
pub fn new_table<S: ToString>(header: impl IntoIterator<Item = S>) -> Table {
    let mut table = Table::new();
    if table.width().is_none() {
        table.set_width(100);
    }
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

/// Write `text` to `path`, whole or not at all ([`OutputFile`]).
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    let mut file = OutputFile::create(path)?;
    file.write_all(text.as_bytes())
        .map_err(|e| cannot_write(path, e))?;
    file.finish()
}

/// Write `text` to `path` whole ([`write_file`]) and name the file on
/// stderr (`wrote PATH (N KB)`): every file a command writes is named.
pub fn write_reported(path: &Path, text: &str) -> Result<()> {
    write_file(path, text)?;
    writeln!(
        std::io::stderr(),
        "wrote {} ({} KB)",
        path.display(),
        text.len().div_ceil(1024)
    )?;
    Ok(())
}

/// An output file that takes the place of `path` only when the command has
/// written all of it ([`OutputFile::finish`]): until then it is a hidden
/// file beside it, removed if the command fails, so a failed run leaves
/// any earlier file at `path` as it was. A path that exists and is no
/// regular file (`/dev/null`, a pipe) is written to directly; a link is
/// followed, so the file it points at is the one replaced.
pub struct OutputFile {
    path: PathBuf,
    sink: Sink,
}

enum Sink {
    Beside(BufWriter<tempfile::NamedTempFile>),
    Direct(BufWriter<File>),
}

impl OutputFile {
    /// Begin the file for `path`: the folder must exist and take a new
    /// file, which is checked here, before the command's work.
    pub fn create(path: &Path) -> Result<OutputFile> {
        match std::fs::metadata(path) {
            Ok(meta) if !meta.is_file() => Ok(OutputFile {
                path: path.to_path_buf(),
                sink: Sink::Direct(BufWriter::new(
                    File::create(path).map_err(|e| cannot_write(path, e))?,
                )),
            }),
            existing => Self::beside(path, existing.ok().map(|m| m.permissions())),
        }
    }

    /// A hidden file beside the file `path` names (the file a link points
    /// at), with the permissions of the file it will replace, if any.
    fn beside(path: &Path, replaced: Option<std::fs::Permissions>) -> Result<OutputFile> {
        let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let folder = match target.parent() {
            Some(f) if !f.as_os_str().is_empty() => f,
            _ => Path::new("."),
        };
        let mut temp = tempfile::Builder::new()
            .prefix(".towerlab-")
            .suffix(".part")
            .tempfile_in(folder)
            .map_err(|e| cannot_write(path, e))?;
        temp.as_file_mut()
            .set_permissions(replaced.unwrap_or_else(new_file_permissions))
            .map_err(|e| cannot_write(path, e))?;
        Ok(OutputFile {
            path: target,
            sink: Sink::Beside(BufWriter::new(temp)),
        })
    }

    /// Put the file in its place: everything written is flushed, then the
    /// file replaces what was at the path.
    pub fn finish(self) -> Result<()> {
        let path = self.path;
        match self.sink {
            Sink::Direct(mut w) => w.flush().map_err(|e| cannot_write(&path, e)),
            Sink::Beside(w) => {
                let temp = w
                    .into_inner()
                    .map_err(|e| cannot_write(&path, e.into_error()))?;
                temp.persist(&path)
                    .map_err(|e| cannot_write(&path, e.error))?;
                Ok(())
            }
        }
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.sink {
            Sink::Beside(w) => w.write(buf),
            Sink::Direct(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.sink {
            Sink::Beside(w) => w.flush(),
            Sink::Direct(w) => w.flush(),
        }
    }
}

/// The permissions of a new output file: read and write for its owner,
/// read for all (what `File::create` gives under the usual umask 022),
/// where the temporary file beside it starts private. The umask is not
/// read: it can only be read by setting it, for every thread at once.
fn new_file_permissions() -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    std::fs::Permissions::from_mode(0o644)
}

/// A path that cannot be written: bad input, naming it, with the system's
/// reason alone: `tempfile` appends ` at path "…"` with the hidden file's
/// name, and keeps the system's error only as text, so that is cut off.
/// A path the user can fix (no such folder, no permission, a folder) is
/// bad input; the system failing to write (a full disk) is not.
fn cannot_write(path: &Path, e: std::io::Error) -> anyhow::Error {
    use std::io::ErrorKind::*;
    let reason = e.to_string();
    let reason = reason.split(" at path \"").next().unwrap_or_default();
    let message = format!("cannot write `{}`: {reason}", path.display());
    match e.kind() {
        NotFound | PermissionDenied | IsADirectory | NotADirectory | ReadOnlyFilesystem
        | InvalidFilename | InvalidInput => bad_input(message),
        _ => anyhow::anyhow!(message),
    }
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
