//! Who reads the report, and how the page speaks to a reader without a
//! command line.

/// Who reads the report: one with the command line at hand (`compare
/// --html`), or someone in a browser (the studio), whom the page never
/// asks to run a command or set an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    CommandLine,
    Browser,
}

/// A sentence of the verdict for a reader with no command line: its
/// mention of the option that sets the practical thresholds left out.
pub fn without_options(sentence: &str) -> String {
    sentence.replace(", --min-effect)", ")")
}
