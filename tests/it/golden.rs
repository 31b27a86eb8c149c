//! Golden outputs: the JSON, CSV, log, SVG and range outputs of a fixed set
//! of commands, recorded once and compared byte for byte, so that a change
//! of structure is seen to change no behaviour. Timings (`seconds`,
//! `games_per_sec`) are the only fields masked. Pictures (`.svg`) are
//! compared as XML: the same elements in the same order, the same
//! attributes in the same order with the same values, the same text;
//! whitespace between elements does not count.
//!
//! To record them again after a deliberate change of output:
//! `TOWERLAB_BLESS=1 cargo test --test it golden`.

use std::path::{Path, PathBuf};

use crate::common;

/// (golden file, command); `{dir}` is a scratch folder (relative, as the
/// pictures name their log) shared by the cases in order, so a later case can
/// read the log an earlier one wrote.
const CASES: &[(&str, &str)] = &[
    (
        "simulate-tower.json",
        "simulate --variant tower --games 60 --seed 3 --threads 2 --format json",
    ),
    (
        "simulate-black-tower-greedy.json",
        "simulate --variant black-tower --games 12 --seed 5 --players 3 --bots greedy,random,greedy --threads 2 --format json",
    ),
    (
        "simulate-packs.csv",
        "simulate --packs tower,black-tower,house/no-surprises --games 40 --seed 9 --threads 1 --format csv",
    ),
    (
        "compare.json",
        "compare tower black-tower tower-no-gaps tower-eye-for-an-eye --games 40 --seed 2 --threads 2 --format json",
    ),
    (
        "compare-greedy.csv",
        "compare tower tower,house/diagonal-steps --games 10 --seed 4 --bots greedy --threads 2 --format csv",
    ),
    (
        "play.json",
        "play --variant black-tower-no-gaps --seed 11 --players 4 --bots greedy,random,greedy,random --format json",
    ),
    (
        "log.jsonl",
        "simulate --variant black-tower --games 2 --seed 31 --bots greedy --threads 1 --log {dir}/run.jsonl --format json",
    ),
    (
        "render-log.svg",
        "render --log {dir}/run.jsonl --game 1 --turn 50",
    ),
    ("render-end.svg", "render --log {dir}/run.jsonl --game 0"),
    (
        "range.json",
        "range --variant black-tower-no-gaps --floors regular,black --board docs/images/range-board.txt --format json",
    ),
    (
        "range.svg",
        "range --variant black-tower-no-gaps --floors regular,black --board docs/images/range-board.txt --format svg",
    ),
    (
        "range-diagonal.txt",
        "range --variant tower-diagonal-steps --floors regular,regular,regular",
    ),
];

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Mask the timing fields, which are the only ones that vary between runs.
fn mask_timings(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = ["\"seconds\":", "\"games_per_sec\":"]
        .iter()
        .filter_map(|key| rest.find(key).map(|i| (i, key.len())))
        .min()
    {
        let (start, len) = at;
        out.push_str(&rest[..start + len]);
        rest = &rest[start + len..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
            .unwrap_or(rest.len());
        out.push('0');
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn outputs_match_their_golden_copies() {
    let dir = "target/golden-scratch";
    let scratch = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    std::fs::create_dir_all(&scratch).unwrap();
    let bless = std::env::var_os("TOWERLAB_BLESS").is_some();
    let mut differ = Vec::new();
    for (file, command) in CASES {
        let command = command.replace("{dir}", dir);
        let args: Vec<&str> = command.split_whitespace().collect();
        let out = common::succeeds(&args);
        let mut got = mask_timings(&common::stdout(&out));
        if *file == "log.jsonl" {
            got = std::fs::read_to_string(scratch.join("run.jsonl")).unwrap();
        }
        let path = golden_dir().join(file);
        if bless {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let same = if file.ends_with(".svg") {
            same_xml(&got, &want)
        } else {
            got == want
        };
        if !same {
            differ.push(format!("{file} ({command})"));
        }
    }
    std::fs::remove_dir_all(&scratch).ok();
    assert!(
        differ.is_empty(),
        "outputs differ from their golden copies: {differ:#?}"
    );
}

/// The nodes of an XML document that count, in document order: elements
/// (name, attributes in order) and text that is not only whitespace.
fn xml_nodes(text: &str) -> Result<Vec<String>, roxmltree::Error> {
    let doc = roxmltree::Document::parse(text)?;
    Ok(doc
        .descendants()
        .filter_map(|n| {
            if n.is_element() {
                let attributes: Vec<String> = n
                    .attributes()
                    .map(|a| format!("{}={:?}", a.name(), a.value()))
                    .collect();
                Some(format!(
                    "<{} {}>",
                    n.tag_name().name(),
                    attributes.join(" ")
                ))
            } else if n.is_text() {
                let t = n.text().unwrap_or("");
                (!t.trim().is_empty()).then(|| format!("text {t:?}"))
            } else {
                None
            }
        })
        .collect())
}

/// Two documents are the same XML (see the module's doc); a document that
/// does not parse is the same as no other.
fn same_xml(got: &str, want: &str) -> bool {
    match (xml_nodes(got), xml_nodes(want)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[test]
fn svg_is_compared_as_xml() {
    let a = "<svg a=\"1\" b=\"2\">\n<g><text>x &amp; y</text></g>\n</svg>\n";
    assert!(same_xml(
        a,
        "<svg a=\"1\" b=\"2\"><g><text>x &#38; y</text></g></svg>"
    ));
    // Attribute order, values, element order, names and text all count.
    assert!(!same_xml(
        a,
        "<svg b=\"2\" a=\"1\"><g><text>x &amp; y</text></g></svg>"
    ));
    assert!(!same_xml(
        a,
        "<svg a=\"1\" b=\"3\"><g><text>x &amp; y</text></g></svg>"
    ));
    assert!(!same_xml(
        a,
        "<svg a=\"1\" b=\"2\"><text>x &amp; y</text><g/></svg>"
    ));
    assert!(!same_xml(
        a,
        "<svg a=\"1\" b=\"2\"><g><text>x y</text></g></svg>"
    ));
    assert!(!same_xml(
        a,
        "<svg a=\"1\" b=\"2\"><g><text>x &amp; y</text></g>"
    ));
}

#[test]
fn timings_are_masked_and_nothing_else() {
    assert_eq!(
        mask_timings(r#"{"a":1,"seconds":0.25,"games_per_sec":4896.6e2,"b":[2]}"#),
        r#"{"a":1,"seconds":0,"games_per_sec":0,"b":[2]}"#
    );
}
