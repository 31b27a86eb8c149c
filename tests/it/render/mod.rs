//! Board pictures (SVG): their structure counted against the games they show,
//! range overlays against `towerlab range`, and `towerlab render` through the
//! real binary.
//!
//! Here: reading the pictures (classes, attributes, range cells) and the
//! logs drawn; the tests by concern in the modules below.

use std::collections::BTreeSet;

use serde_json::Value;
use towerlab::kernel::geometry::Pos;
use towerlab::kernel::{Game, MeepleSpot};
use towerlab::play::bots::BotKind;
use towerlab::play::query::tower_range;
use towerlab::rules::{LoadOptions, Ruleset};
use towerlab::views::render::{board_svg, tile_sheet_svg};
use towerlab::views::scene::{SceneOptions, game_scene, palette};

use crate::common::{Scratch, home, log_records, refused, stdout, succeeds};

mod command;
mod pictures;
mod range;
mod tiles;

/// Elements whose `class` attribute holds `class`.
fn with_class<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split_whitespace().any(|w| w == class))
        })
        .collect()
}

fn int(node: &roxmltree::Node, attr: &str) -> i64 {
    node.attribute(attr)
        .unwrap_or_else(|| panic!("<{}> without `{attr}`", node.tag_name().name()))
        .parse()
        .unwrap_or_else(|e| panic!("`{attr}` is not an integer: {e}"))
}

fn text<'a>(node: &roxmltree::Node<'a, '_>, attr: &str) -> &'a str {
    node.attribute(attr)
        .unwrap_or_else(|| panic!("<{}> without `{attr}`", node.tag_name().name()))
}

/// Parse an SVG document, failing the test with the parser's message.
fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    doc
}

/// The range cells an SVG marks, as (dx, dy) relative to the tower.
fn range_cells(doc: &roxmltree::Document) -> BTreeSet<(i64, i64)> {
    let marks = with_class(doc, "range");
    let cells: BTreeSet<(i64, i64)> = marks
        .iter()
        .map(|n| (int(n, "data-x"), int(n, "data-y")))
        .collect();
    assert_eq!(cells.len(), marks.len(), "a cell marked twice");
    cells
}

fn ok(args: &[&str]) -> String {
    stdout(&succeeds(args))
}

/// Write a one-game log with `simulate --log`.
fn simulate_log(dir: &Scratch, variant: &str, seed: &str) -> String {
    let log = dir.file(&format!("{variant}.jsonl"));
    ok(&[
        "simulate",
        "--variant",
        variant,
        "--games",
        "1",
        "--seed",
        seed,
        "--log",
        &log,
        "--format",
        "json",
    ]);
    log
}

/// A board with gaps around the tower, in every direction.
const GAPPY: &str = "\
#.#.#.#
.##.##.
##.#.##
#.#T#.#
.#.##..
#.##.##
###.#.#
";
