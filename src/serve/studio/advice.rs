//! What a failing scenario means and what to do, in plain words, for the
//! Tests tab to show where the failure shows: an expectation the rules no
//! longer meet (written for another rule: maybe the template's, which the
//! page started from), a key of the scenario file to change, or a hook's
//! error to fix in the script (the scenario is not at fault).

use super::super::wire::{ScenarioFailure, StudioProblem};
use super::starts::starts;

/// The advice for a scenario whose expectations `failures` did not hold,
/// in `file` (`my-rule/tests/capture.toml`, its text `text`).
pub fn unmet(file: &str, text: &str, failures: &[ScenarioFailure]) -> String {
    let keys: Vec<String> = failures
        .iter()
        .filter_map(|f| {
            let (line, col) = line_col(&f.at)?;
            Some(format!("`{}` (line {line})", key_at(text, line, col)?))
        })
        .fold(Vec::new(), |mut keys, k| {
            if !keys.contains(&k) {
                keys.push(k);
            }
            keys
        });
    let named = match keys.is_empty() {
        true => "its `expect`".to_string(),
        false => keys.join(" and "),
    };
    let origin = match came_with(file, text) {
        Some(start) => format!(
            " This file came with “{start}”, which you started from: its `expect` holds that \
             pack's rule, not yours, so it fails once you change the rule."
        ),
        None => String::new(),
    };
    format!(
        "The rules answered otherwise than the scenario expects: {named} says what it expected, \
         “got” what the rules answer now.{origin} If you changed the rule on purpose, write what \
         the rules answer now in {named}, or set the position up on the board (See it answer), \
         Save as a scenario and remove this one. If not, the rule does not do what the scenario \
         says: look at the script."
    )
}

/// The advice for an error that stopped a scenario (or its whole file):
/// a hook's (`hook`, placed in the scripts sent), to fix in the script, or
/// the file's, at a key to change.
pub fn stopped(
    file: &str,
    text: &str,
    error: &StudioProblem,
    hook: Option<&StudioProblem>,
) -> String {
    let in_file = error.file.as_deref() == Some(file);
    if hook.is_some() || !in_file {
        let error = hook.unwrap_or(error);
        let at = match (&error.file, error.line) {
            (Some(f), Some(line)) => format!(" (`{f}`, line {line})"),
            _ => String::new(),
        };
        return format!(
            "A hook of the rules failed while the scenario ran{at}: the scenario is not at \
             fault. Fix the script where the message says, then run the tests again; Check \
             with test games finds such errors too."
        );
    }
    let key = match (error.line, error.col) {
        (Some(line), Some(col)) => key_at(text, line, col)
            .map(|k| format!(" `{k}` (line {line}) is the key to change:"))
            .unwrap_or_else(|| format!(" Line {line} is the place to change:")),
        _ => String::new(),
    };
    format!(
        "The scenario cannot be set up as the file writes it.{key} the message says why, and \
         what would do. The Reference's “Scenario files” lists every key with an example; or set \
         the position up on the board (See it answer) and Save as a scenario, which writes the \
         keys for you."
    )
}

/// The title of the start (template, example or shipped pack) whose file
/// `file` (`my-rule/tests/capture.toml`) is, word for word: a scenario it
/// brought, written for its rule.
fn came_with(file: &str, text: &str) -> Option<String> {
    let (_, rest) = file.split_once("/tests/")?;
    let name = format!("tests/{rest}");
    starts()
        .starts
        .into_iter()
        .find(|s| {
            s.files
                .get(&name)
                .is_some_and(|t| t.trim_end() == text.trim_end())
        })
        .map(|s| match s.title.is_empty() {
            true => s.pack,
            false => s.title,
        })
}

/// The line and column of a place written `file:line:col`.
fn line_col(at: &str) -> Option<(usize, usize)> {
    let mut parts = at.rsplit(':');
    let col = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    Some((line, col))
}

/// The key of a TOML text whose value holds the place `line`:`col` (from
/// 1): the key itself when the place is on one, else the nearest key
/// before it whose value encloses it (an entry `{ … }` of `tiles = [ … ]`
/// is `tiles`'s).
fn key_at(text: &str, line: usize, col: usize) -> Option<String> {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum();
    let at = text
        .get(start..)?
        .char_indices()
        .nth(col.checked_sub(1)?)?
        .0
        + start;
    let word = |end: usize| -> Option<String> {
        let before = text[..end].trim_end();
        let from = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .map_or(0, |i| i + 1);
        let key = &before[from..];
        (!key.is_empty()).then(|| key.to_string())
    };
    // Inside a string when an odd number of quotes stand before it on its
    // line.
    let inside = text[start..at].matches('"').count() % 2 == 1;
    // On a key: the word there, when `=` follows it.
    let rest = &text[at..];
    let len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    if !inside && len > 0 && rest[len..].trim_start().starts_with('=') {
        return Some(rest[..len].to_string());
    }
    // Else back to the `=` of the value that holds the place, over the
    // closed brackets and strings between.
    let (mut closed, mut quoted) = (0usize, inside);
    for (i, c) in text[..at].char_indices().rev() {
        match c {
            '"' => quoted = !quoted,
            _ if quoted => {}
            '}' | ']' => closed += 1,
            '{' | '[' => closed = closed.saturating_sub(1),
            '=' if closed == 0 => return word(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "[[scenario]]\nname = \"x = y\"\n\
                        tiles = [{ tile = \"tower/F\", at = [0, 0] }, { tile = \"base/Q\", at = [1, 0] }]\n\
                        [scenario.expect]\ncapturable = [{ tower = [0, 0], meeples = [] }]\n";

    #[test]
    fn the_key_is_the_one_whose_value_holds_the_place() {
        // An entry of `tiles`, its second: `tiles`.
        let second = FILE
            .lines()
            .nth(2)
            .unwrap()
            .find("{ tile = \"base")
            .unwrap()
            + 1;
        assert_eq!(key_at(FILE, 3, second).as_deref(), Some("tiles"));
        // A value: its key.
        let value = FILE.lines().nth(2).unwrap().find("\"base/Q\"").unwrap() + 1;
        assert_eq!(key_at(FILE, 3, value).as_deref(), Some("tile"));
        // On a key: that key.
        assert_eq!(key_at(FILE, 5, 1).as_deref(), Some("capturable"));
        // An expectation's entry: the expectation.
        assert_eq!(key_at(FILE, 5, 15).as_deref(), Some("capturable"));
        // A name holding `=`: its key, not a word of the string.
        assert_eq!(key_at(FILE, 2, 9).as_deref(), Some("name"));
        assert_eq!(key_at(FILE, 9, 1), None);
    }

    #[test]
    fn a_place_is_read_from_its_end() {
        assert_eq!(line_col("my-rule/tests/a.toml:16:15"), Some((16, 15)));
        assert_eq!(line_col("nowhere"), None);
    }
}
