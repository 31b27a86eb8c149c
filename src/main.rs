//! The `towerlab` binary: parse the command line, run it, map the outcome to
//! an exit code (0 ok, 2 bad input or usage, 1 other failure).

use std::process::ExitCode;

use clap::Parser;

/// The rule packs' memory limit counts the bytes each thread holds through
/// this allocator (`towerlab::rules::script::memory`).
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

fn main() -> ExitCode {
    let cli = towerlab::cli::Cli::parse();
    match towerlab::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            if towerlab::kernel::diag::is_bad_input(&err) {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

/// Output piped into a reader that stopped reading (`| head`) is not a failure.
fn broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
