//! towerlab from Python: the `towerlab._towerlab` extension module.
//!
//! Two entries: [`run`], the command line run in this process with what it
//! prints returned (the package reads `--format json` and `--per-game`
//! from it, so its DataFrames are the command line's numbers), and
//! [`host::Host`], one game played a decision at a time on a stack of its
//! own, on the calling thread (the PettingZoo and Gymnasium environments).
//! No Rust panic crosses into Python: each call catches it and raises
//! `TowerlabError`.

mod host;
mod layout;
mod stack;

use std::panic::{AssertUnwindSafe, catch_unwind};

use clap::Parser;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

/// Rule packs are held to their memory limit by counting the bytes each
/// thread holds, through this allocator (as the `towerlab` binary does).
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

create_exception!(
    _towerlab,
    TowerlabError,
    PyException,
    "towerlab refused or failed: the message is towerlab's own."
);
create_exception!(
    _towerlab,
    BadInput,
    TowerlabError,
    "Bad input (the command line's exit 2): an unknown name, a bad value, a file's error at file:line:col."
);

/// A towerlab error as the Python exception of its kind.
pub(crate) fn to_py(err: &anyhow::Error) -> PyErr {
    let message = format!("{err:#}");
    if towerlab::kernel::diag::is_bad_input(err) {
        BadInput::new_err(message)
    } else {
        TowerlabError::new_err(message)
    }
}

/// `work`, with a panic turned into an error (never unwound into Python).
pub(crate) fn guarded<T>(work: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
    catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("no message");
        Err(anyhow::anyhow!("towerlab broke down: {why}"))
    })
}

/// Run the command line `towerlab ARGS…` in this process and return what
/// it prints on stdout. Usage errors and bad input raise `BadInput`, other
/// failures `TowerlabError`, with the message the command line prints.
#[pyfunction]
fn run(py: Python<'_>, args: Vec<String>) -> PyResult<String> {
    let argv = std::iter::once("towerlab".to_string()).chain(args);
    let cli = match towerlab::cli::Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => return Err(BadInput::new_err(e.render().to_string())),
        // --help and --version: their text is the answer.
        Err(e) => return Ok(e.render().to_string()),
    };
    py.detach(|| guarded(|| towerlab::cli::run_captured(cli)))
        .map_err(|e| to_py(&e))
}

#[pymodule]
fn _towerlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_class::<host::Host>()?;
    m.add("TowerlabError", m.py().get_type::<TowerlabError>())?;
    m.add("BadInput", m.py().get_type::<BadInput>())?;
    Ok(())
}
