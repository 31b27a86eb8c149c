//! Errors that point into a file: `path:line:col: message`, for every data file
//! towerlab reads (tile sets, pack manifests, variants, board files), and
//! "did you mean" suggestions for unknown names.
//!
//! [`BadInput`] marks an error as the user's input being wrong, which the CLI
//! maps to exit code 2.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The input given to towerlab was wrong (a file, a name, a flag): exit 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Shorthand: an `anyhow::Error` that the CLI reports as bad input.
pub fn bad_input(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(BadInput(message.into()))
}

/// Bad input of one kind: the rules spent all the work a game may ask of
/// them (its hook budget), so the pack is too slow for that budget. Typed
/// apart so that a caller that can ask for less work (a hint's search) tells
/// it from every other error; the CLI reports it as bad input (exit 2).
#[derive(Debug)]
pub struct BudgetSpent(pub String);

impl fmt::Display for BudgetSpent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BudgetSpent {}

/// True when `err` (or anything in its chain) is bad input, a spent budget
/// included.
pub fn is_bad_input(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|e| e.is::<BadInput>() || e.is::<BudgetSpent>())
}

/// True when `err` (or anything in its chain) says the rules spent a game's
/// hook budget.
pub fn is_budget_spent(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.is::<BudgetSpent>())
}

/// The largest input file read (tile sets, packs, variants, board files,
/// logs): 64 MB.
pub const MAX_INPUT: usize = 64 << 20;

/// The most tokens (keys, values, brackets, commas…) a TOML file may hold.
/// The parser keeps tens of bytes for each, so a file within [`MAX_INPUT`]
/// made of tiny values would need gigabytes; a million tokens is hundreds of
/// times what the largest shipped file (a scenario file) holds.
pub const MAX_TOML_TOKENS: usize = 1_000_000;

/// A text file kept with its name so that byte offsets can be reported as
/// `path:line:col`.
#[derive(Clone, Debug)]
pub struct Source {
    pub path: PathBuf,
    pub text: String,
}

impl Source {
    /// Read a text file of at most [`MAX_INPUT`] bytes: a larger one (or an
    /// endless one, such as `/dev/zero`) is refused once that much is read,
    /// and text that is not UTF-8 is refused with the place where it stops
    /// being UTF-8.
    pub fn read(path: &Path) -> anyhow::Result<Source> {
        use std::io::Read;
        let cannot =
            |e: &dyn fmt::Display| bad_input(format!("cannot read `{}`: {e}", path.display()));
        let file = std::fs::File::open(path).map_err(|e| cannot(&e))?;
        let mut bytes = Vec::new();
        file.take(MAX_INPUT as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| cannot(&e))?;
        if bytes.len() > MAX_INPUT {
            return Err(bad_input(format!(
                "`{}` is larger than {} MB, the limit for input files",
                path.display(),
                MAX_INPUT >> 20
            )));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let good = e.utf8_error().valid_up_to();
            let valid = String::from_utf8_lossy(&e.as_bytes()[..good]).into_owned();
            let (line, col) = Source::new(path, valid).line_col(good);
            bad_input(format!(
                "{}:{line}:{col}: not UTF-8 text (input files are UTF-8)",
                path.display()
            ))
        })?;
        Ok(Source {
            path: path.to_path_buf(),
            text,
        })
    }

    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Source {
        Source {
            path: path.into(),
            text: text.into(),
        }
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..floor_char_boundary(&self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let col = before.rfind('\n').map_or(before.chars().count(), |nl| {
            before[nl + 1..].chars().count()
        }) + 1;
        (line, col)
    }

    /// A bad-input error at the start of `span`.
    pub fn error_at(&self, span: Range<usize>, message: impl fmt::Display) -> anyhow::Error {
        let (line, col) = self.line_col(span.start);
        bad_input(format!("{}:{line}:{col}: {message}", self.path.display()))
    }

    /// Parse TOML into `T`, reporting a syntax or shape error with its place.
    /// A file of more than [`MAX_TOML_TOKENS`] tokens is refused before it
    /// is parsed, at the token past the limit.
    pub fn parse_toml<T: serde::de::DeserializeOwned>(&self) -> anyhow::Result<T> {
        self.within_toml_tokens()?;
        toml::from_str(&self.text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            self.error_at(span, in_words(e.message().trim_end()))
        })
    }

    /// At most [`MAX_TOML_TOKENS`] tokens, counted by the TOML lexer as it
    /// goes (it allocates nothing), so memory stays bounded whatever the
    /// file holds.
    fn within_toml_tokens(&self) -> anyhow::Result<()> {
        use toml_parser::lexer::TokenKind;
        let tokens = toml_parser::Source::new(&self.text).lex().filter(|t| {
            !matches!(
                t.kind(),
                TokenKind::Whitespace | TokenKind::Newline | TokenKind::Comment | TokenKind::Eof
            )
        });
        match tokens.enumerate().find(|(i, _)| *i >= MAX_TOML_TOKENS) {
            Some((_, past)) => Err(self.error_at(
                past.span().start()..past.span().end(),
                format!(
                    "more than {MAX_TOML_TOKENS} keys, values and punctuation marks, the most a \
                     TOML file may hold"
                ),
            )),
            None => Ok(()),
        }
    }
}

/// A TOML reader's message with Rust's type names in words: "expected
/// u32" says the numbers it takes, and a number past 64 bits (read as
/// "integer `N` as i128") is too large.
fn in_words(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("invalid type: integer `")
        && let Some((number, _)) = rest.split_once("` as i128")
    {
        return format!("the number `{number}` is too large");
    }
    let types: [(&str, u64); 5] = [
        ("u8", u8::MAX.into()),
        ("u16", u16::MAX.into()),
        ("u32", u32::MAX.into()),
        ("u64", u64::MAX),
        ("usize", usize::MAX as u64),
    ];
    for (name, max) in types {
        if let Some(head) = message.strip_suffix(&format!("expected {name}")) {
            return format!("{head}expected a whole number from 0 to {max}");
        }
    }
    message.replace("expected i64", "expected a whole number")
}

/// A type's name with its article: "an integer", "a float".
pub fn with_article(type_name: &str) -> String {
    let article = if type_name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {type_name}")
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// ", did you mean `x`?" when a known name is close to `name`, else "";
/// case does not count (`MCTS` is close to `mcts`).
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let name = name.to_lowercase();
    let best = known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(&name, &k.to_lowercase()), k))
        .filter(|(score, _)| *score > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match best {
        Some((_, k)) => format!(", did you mean `{k}`?"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based() {
        let src = Source::new("f.toml", "a = 1\nbb = 2\n");
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(6), (2, 1));
        assert_eq!(src.line_col(9), (2, 4));
    }

    #[test]
    fn suggestions_only_for_close_names() {
        assert_eq!(
            did_you_mean("keep-towr", ["tower", "keep-tower"]),
            ", did you mean `keep-tower`?"
        );
        assert_eq!(did_you_mean("zzz", ["tower"]), "");
    }

    #[test]
    fn toml_messages_name_numbers_in_words() {
        let src = Source::new("t.toml", "count = -2\nbig = 99999999999999999999\n");
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Count {
            count: u32,
        }
        let err = src.parse_toml::<Count>().unwrap_err().to_string();
        assert_eq!(
            err,
            "t.toml:1:9: invalid value: integer `-2`, expected a whole number from 0 to 4294967295"
        );
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Big {
            count: i64,
            big: i64,
        }
        let err = src.parse_toml::<Big>().unwrap_err().to_string();
        assert_eq!(
            err,
            "t.toml:2:7: the number `99999999999999999999` is too large"
        );
    }
}
