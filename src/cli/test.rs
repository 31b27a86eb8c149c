//! `towerlab test`: run the scenario tests of packs and variants and print
//! each scenario's result, and for each failure where, what was expected
//! and what the rules gave.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;

use crate::kernel::diag::{Source, bad_input, is_bad_input};
use crate::play::scenario::{Outcome, suite};
use crate::rules::{Home, LoadOptions};

#[derive(clap::Args, Debug)]
pub struct TestArgs {
    /// Packs (name under rules/ or folder path), pack lists
    /// (`tower,house/no-gaps`) or variants. A pack's scenarios are the
    /// `tests/*.toml` of its folder, run under the pack and the packs it
    /// requires; a pack list's or variant's are its last pack's, run under
    /// the whole list.
    #[arg(required = true, value_name = "PACK|VARIANT")]
    pub targets: Vec<String>,
    /// A scenario file to run as well, under each target's rules
    /// (repeatable).
    #[arg(long = "file", value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print every scenario, not only those that fail.
    #[arg(long, short)]
    pub verbose: bool,
    #[command(flatten)]
    pub budget: super::args::BudgetArgs,
    /// Trace every hook call of the packs to FILE (text): the pack, the
    /// arguments, what it read, its `debug(…)` lines and its answer
    /// (bounded; see docs/how-to/debug-a-pack.md)
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
}

pub fn run(home: &Home, load: &LoadOptions, args: &TestArgs) -> Result<()> {
    let extra = args
        .files
        .iter()
        .map(|f| Source::read(f))
        .collect::<Result<Vec<_>>>()?;
    let (mut failed, mut bad, mut other) = (0, 0, 0);
    for target in &args.targets {
        let suite = suite(home, load, target, &extra)?;
        for result in &suite.results {
            match result {
                Ok(o) if o.passed() => {
                    if args.verbose {
                        out!("ok    {}  {}", o.at, title(o));
                    }
                }
                Ok(o) => {
                    failed += 1;
                    print_failure(o)?;
                }
                Err(e) => {
                    if is_bad_input(e) {
                        bad += 1;
                    } else {
                        other += 1;
                    }
                    out!("error {e:#}");
                }
            }
        }
        out!(
            "{}: {} scenario(s) under {}: {} passed, {} failed",
            target,
            suite.results.len(),
            suite.packs.join(","),
            suite.passed(),
            suite.results.len() - suite.passed()
        );
    }
    if bad > 0 {
        return Err(bad_input(format!(
            "{bad} scenario(s) could not run: bad input"
        )));
    }
    if failed + other > 0 {
        anyhow::bail!("{} scenario(s) failed", failed + other);
    }
    Ok(())
}

fn title(o: &Outcome) -> String {
    if o.rules.is_empty() {
        o.name.clone()
    } else {
        format!("{} ({})", o.name, o.rules.join(", "))
    }
}

fn print_failure(o: &Outcome) -> Result<()> {
    out!("FAIL  {}  {}", o.at, title(o));
    for f in &o.failures {
        out!("      {}: {}", f.at, f.what);
        out!("        expected: {}", indent(&f.expected));
        out!("        got:      {}", indent(&f.got));
    }
    Ok(())
}

/// A multi-line value indented under its label.
fn indent(text: &str) -> String {
    text.replace('\n', "\n          ")
}
