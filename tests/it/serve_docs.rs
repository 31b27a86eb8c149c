//! docs/serve.md and docs/studio.md say what the server's types say. Every ```json block of
//! it names a type of `towerlab::serve::wire` (` ```json GameState `, or
//! ` ```json [Status] ` for a list of examples) and is that type's JSON:
//! parsed into the type and written back, it is the same JSON, so no field
//! is missing, extra, renamed or of another shape on either side. And every
//! struct and every enum variant of `src/serve/wire/` shows in some
//! example (found in the examples' parsed values, by their `Debug` text).

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use towerlab::serve::wire;

use crate::common::code_blocks;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// `text`, an example (or with `list`, an array of examples) of `T`: each
/// parsed into `T` and written back must be the same JSON. The `Debug` text
/// of the values parsed.
fn round_trip<T>(text: &str, list: bool) -> Result<String, String>
where
    T: Serialize + DeserializeOwned + Debug,
{
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let examples = match (list, value) {
        (false, one) => vec![one],
        (true, Value::Array(all)) => all,
        (true, other) => return Err(format!("a list of examples is an array, not {other}")),
    };
    let mut shown = String::new();
    for example in examples {
        let typed: T = serde_json::from_value(example.clone()).map_err(|e| format!("{e}"))?;
        let back = serde_json::to_value(&typed).map_err(|e| format!("{e}"))?;
        if back != example {
            return Err(format!("{example}\nis written back as\n{back}"));
        }
        shown.push_str(&format!("{typed:?}\n"));
    }
    Ok(shown)
}

/// The example `text` of the type `label` names, checked; the `Debug` text
/// of its values.
fn check(label: &str, text: &str) -> Result<String, String> {
    let (name, list) = match label.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
        Some(name) => (name, true),
        None => (label, false),
    };
    macro_rules! types {
        ($($t:ident),* $(,)?) => {
            match name {
                $(stringify!($t) => round_trip::<wire::$t>(text, list),)*
                _ => Err(format!(
                    "`{name}` is none of the types this test knows (add it to `check`'s list)"
                )),
            }
        };
    }
    types!(
        NewGame,
        Choose,
        Advance,
        AskHint,
        Reissue,
        View,
        SeatKey,
        Poll,
        Hint,
        Weighed,
        ErrorBody,
        Catalog,
        PlayerCount,
        GameState,
        Status,
        Progress,
        DecisionKind,
        Player,
        FloorCount,
        Prisoners,
        Question,
        TileArt,
        PlacementOption,
        RansomOption,
        ActionOption,
        ActionKind,
        CaptureOption,
        Board,
        EventLine,
        StudioStarts,
        Reference,
        StudioCheck,
        StudioReport,
        StudioAsk,
        Answers,
        StudioTest,
        StudioTests,
        StudioCompare,
        CompareJob,
    )
}

/// The `Debug` text of the examples of `markdown`'s ```json blocks, or the
/// errors of those that are not their type's JSON.
fn checked_examples(markdown: &str) -> Result<String, Vec<String>> {
    let mut shown = String::new();
    let mut errors = Vec::new();
    for block in code_blocks(markdown) {
        let Some(rest) = block.info.strip_prefix("json") else {
            continue;
        };
        let line = block.line;
        match check(rest.trim(), &block.text) {
            Ok(debug) => shown.push_str(&debug),
            Err(e) if rest.trim().is_empty() => {
                errors.push(format!("line {line}: a json block names no type ({e})"))
            }
            Err(e) => errors.push(format!("line {line}: ```json {}: {e}", rest.trim())),
        }
    }
    if errors.is_empty() {
        Ok(shown)
    } else {
        Err(errors)
    }
}

/// How a name shows in `Debug` text: `Name {` for a struct (or a struct
/// variant), `Name(` for a tuple variant, a bare `Name` for a unit variant.
fn shapes(debug: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut chars = debug.chars().peekable();
    let mut word = String::new();
    while let Some(c) = chars.next() {
        if c == '"' {
            // A string's text is no name: skip it, escapes too.
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => break,
                    _ => {}
                }
            }
            continue;
        }
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            let next = if c == ' ' {
                chars.peek().copied()
            } else {
                Some(c)
            };
            let mark = match next {
                Some('{') => "{",
                Some('(') if c == '(' => "(",
                _ => "",
            };
            found.insert(format!("{word}{mark}"));
            word.clear();
        }
    }
    if !word.is_empty() {
        found.insert(word);
    }
    found
}

/// The files of the server's JSON types: the game's API and the studio's.
const WIRE: [&str; 2] = ["src/serve/wire/mod.rs", "src/serve/wire/studio.rs"];

/// Every struct and enum variant of `source`, as its value shows in `Debug`
/// text (see [`shapes`]), with its name for messages.
fn wire_names(source: &str) -> Vec<(String, String)> {
    let file = syn::parse_file(source).expect("the wire types parse");
    let shape = |name: String, fields: &syn::Fields| match fields {
        syn::Fields::Named(_) => format!("{name}{{"),
        syn::Fields::Unnamed(_) => format!("{name}("),
        syn::Fields::Unit => name,
    };
    let mut names = Vec::new();
    for item in file.items {
        match item {
            syn::Item::Struct(s) => {
                let name = s.ident.to_string();
                names.push((name.clone(), shape(name, &s.fields)));
            }
            syn::Item::Enum(e) => {
                for v in &e.variants {
                    let name = v.ident.to_string();
                    names.push((format!("{}::{name}", e.ident), shape(name, &v.fields)));
                }
            }
            _ => {}
        }
    }
    names
}

/// The names of `source`'s types and variants that no example shows.
fn unshown(source: &str, shown: &str) -> Vec<String> {
    let found = shapes(shown);
    wire_names(source)
        .into_iter()
        .filter(|(_, shape)| !found.contains(shape))
        .map(|(name, _)| name)
        .collect()
}

#[test]
fn every_example_of_docs_serve_is_its_types_json_and_every_type_has_one() {
    // The game's API and the studio's, each on its page.
    let mut shown = String::new();
    for page in ["docs/serve.md", "docs/studio.md"] {
        shown += &checked_examples(&read(page))
            .unwrap_or_else(|errors| panic!("{page}:\n{}", errors.join("\n\n")));
    }
    let missing: Vec<String> = WIRE
        .iter()
        .flat_map(|file| unshown(&read(file), &shown))
        .collect();
    assert!(
        missing.is_empty(),
        "no example in docs/serve.md or docs/studio.md shows {missing:?}"
    );
}

/// The check fails on docs that disagree with the types: a renamed field, a
/// missing one, an extra one, a value of another shape, an unknown type, an
/// unlabelled block; and on a type or variant no example shows.
#[test]
fn docs_that_disagree_with_the_types_are_found() {
    let block = |label: &str, json: &str| format!("text\n\n```json {label}\n{json}\n```\n");
    let good = block("Advance", r#"{"token": 4}"#);
    assert!(checked_examples(&good).is_ok());
    for (label, json, says) in [
        ("Advance", r#"{"tokens": 4}"#, "unknown field"),
        (
            "Choose",
            r#"{"decision": "action", "token": 4}"#,
            "missing field",
        ),
        (
            "RansomOption",
            r#"{"index": 0, "label": "Pay no ransom", "at": null}"#,
            "written back",
        ),
        ("Board", r#"{"svg": "<svg/>", "cell": 60}"#, "written back"),
        ("Status", r#""thinking""#, "did not match"),
        ("[Status]", r#""bot""#, "an array"),
        ("Turn", r#"{"turn": 1}"#, "none of the types"),
        ("", r#"{"token": 4}"#, "names no type"),
    ] {
        let errors = checked_examples(&block(label, json)).expect_err(json);
        assert!(errors[0].contains(says), "{label} {json}: {errors:?}");
        assert!(errors[0].starts_with("line 3:"), "{errors:?}");
    }
    // Examples that show only part of the types: what they leave out is
    // named, the variants of an enum one by one.
    let source = "struct Advance { token: u64 }\nstruct Board { svg: String }\n\
                  enum Progress { Bot, Over }\nenum Question { Ransom { options: Vec<u8> } }";
    let statuses = block("[Status]", r#"["bot", "placement"]"#);
    let shown = format!("{good}{statuses}");
    let shown = checked_examples(&shown).unwrap();
    assert_eq!(
        unshown(source, &shown),
        ["Board", "Progress::Over", "Question::Ransom"]
    );
    // A string that spells a name shows nothing.
    let shown = checked_examples(&block("ErrorBody", r#"{"error": "Over Board {"}"#)).unwrap();
    assert_eq!(
        unshown("enum Progress { Over }", &shown),
        ["Progress::Over"]
    );
}
