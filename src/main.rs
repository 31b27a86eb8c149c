//! The `towerlab` binary: parse the command line, run it, map the outcome to
//! an exit code (0 ok, 2 bad input or usage, 1 other failure).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = towerlab::cli::Cli::parse();
    match towerlab::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            if towerlab::diag::is_bad_input(&err) {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
