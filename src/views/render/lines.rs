//! Text laid out in lines for the side panel: how wide a line is drawn
//! (estimated from DejaVu Sans's advance widths, the pictures' first font;
//! Verdana's are close to them, Arial's narrower), and wrapping that breaks
//! a line between phrases (after `,`, `;`, `:` or `·`) and inside a phrase
//! only when the phrase alone is too wide.

/// The width of `text` drawn at `size` pixels, bold or not.
pub(super) fn width(text: &str, size: f64, bold: bool) -> f64 {
    let ems: f64 = text.chars().map(advance).sum();
    ems * size * if bold { 1.1 } else { 1.0 }
}

/// A character's advance in ems (DejaVu Sans's, rounded up; other
/// characters as a wide letter).
fn advance(c: char) -> f64 {
    match c {
        'i' | 'j' | 'l' | '\'' | '|' | '.' | ',' | ':' | ';' | '!' => 0.28,
        ' ' | '·' => 0.32,
        'f' | 't' | 'I' | '(' | ')' | '[' | ']' | '-' | '/' => 0.4,
        'r' => 0.42,
        's' | 'z' => 0.53,
        'c' => 0.56,
        'k' | 'v' | 'x' | 'y' => 0.6,
        'w' => 0.82,
        'm' => 0.98,
        'M' | 'W' | '%' | '×' | '—' => 1.0,
        'A'..='Z' => 0.78,
        '0'..='9' | 'a'..='z' => 0.64,
        _ => 0.84,
    }
}

/// `text` in lines no wider than `max` pixels at `size`, broken between
/// phrases where it can be, else between words; a word wider than `max`
/// stays whole on its own line.
pub(super) fn wrap(text: &str, max: f64, size: f64, bold: bool) -> Vec<String> {
    let fits = |line: &str| width(line, size, bold) <= max;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for phrase in phrases(text) {
        let joined = join(&line, &phrase);
        if fits(&joined) {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // The phrase alone: whole when it fits, else word by word (a
        // parenthesis kept whole).
        for word in units(&phrase) {
            let joined = join(&line, &word);
            if line.is_empty() || fits(&joined) {
                line = joined;
            } else {
                lines.push(std::mem::replace(&mut line, word));
            }
        }
    }
    lines.push(line);
    lines
}

/// Two pieces of a line, a space between them.
fn join(line: &str, more: &str) -> String {
    if line.is_empty() {
        more.to_string()
    } else {
        format!("{line} {more}")
    }
}

/// The words of `phrase`, those inside parentheses joined as one.
fn units(phrase: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut depth = 0i32;
    for word in phrase.split(' ') {
        match out.last_mut() {
            Some(last) if depth > 0 => *last = join(last, word),
            _ => out.push(word.to_string()),
        }
        depth =
            (depth + word.matches('(').count() as i32 - word.matches(')').count() as i32).max(0);
    }
    out
}

/// The phrases of `text`: runs of words, each ending after a word that
/// ends in `,` `;` `:` or is `·` — outside parentheses: `(regular,
/// regular)` stays one phrase.
fn phrases(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut phrase = String::new();
    let mut depth = 0i32;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        phrase = join(&phrase, word);
        depth += word.matches('(').count() as i32 - word.matches(')').count() as i32;
        if depth <= 0 && (word == "·" || word.ends_with([',', ';', ':'])) {
            out.push(std::mem::take(&mut phrase));
            depth = 0;
        }
    }
    if !phrase.is_empty() || out.is_empty() {
        out.push(phrase);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_break_between_phrases() {
        let size = 12.0;
        let max = width("after turn 79 · 10 tiles left", size, false);
        assert_eq!(
            wrap("after turn 79 · 10 tiles left to draw", max, size, false),
            ["after turn 79 ·", "10 tiles left to draw"]
        );
        // A phrase wider than the line breaks between its words.
        let max = width("one two three", size, false);
        assert_eq!(
            wrap("one two three four five six", max, size, false),
            ["one two three", "four five six"]
        );
        // A comma inside parentheses ends no phrase.
        let max = width("tower of 2 floors (regular,", size, false);
        assert_eq!(
            wrap(
                "tower of 2 floors (regular, regular) at 3,4",
                max,
                size,
                false
            ),
            ["tower of 2 floors", "(regular, regular) at 3,4"]
        );
        assert_eq!(wrap("short", 100.0, size, false), ["short"]);
        assert_eq!(wrap("", 100.0, size, false), [""]);
    }

    #[test]
    fn wide_letters_are_wider() {
        assert!(width("mmmm", 12.0, false) > width("iiii", 12.0, false) * 3.0);
        assert!(width("ab", 12.0, true) > width("ab", 12.0, false));
    }
}
