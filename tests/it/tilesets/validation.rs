//! Validation errors of a tile-set file, each at its line and column: keys,
//! edge letters, half-edges and fields, counts, names, the start tile,
//! syntax.

use super::*;

const PATH: &str = "packs/mini/tiles.toml";

/// A small valid set: the start tile (RCr's shape) and a cloister. Line
/// numbers below count from `[set]` on line 1.
const MINI: &str = r#"[set]
name = "mini"
total = 3
start = "S"

[[tile]]
name = "S"
count = 1
edges = "CRFR"
cities = [{ edges = ["N"] }]
roads = [["W", "E"]]
fields = [
  { halves = ["EL", "WR"], cities = ["N"] },
  { halves = ["ER", "SL", "SR", "WL"] },
]

[[tile]]
name = "X"
count = 2
edges = "FFFF"
fields = [{ halves = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"] }]
cloister = true
"#;

/// MINI with `from` replaced by `to` (which must occur exactly once).
fn mini_with(from: &str, to: &str) -> String {
    assert_eq!(MINI.matches(from).count(), 1, "`{from}` once in MINI");
    MINI.replace(from, to)
}

/// Load `text` as the only set; it must be refused as bad input at
/// `line:col` with a message containing `what`.
fn assert_refused(text: &str, line: usize, col: usize, what: &str) {
    let err = TileSet::from_sources(&[Source::new(PATH, text)])
        .err()
        .unwrap_or_else(|| panic!("accepted:\n{text}"));
    assert!(towerlab::kernel::diag::is_bad_input(&err), "{err}");
    let msg = err.to_string();
    let at = format!("{PATH}:{line}:{col}: ");
    assert!(msg.starts_with(&at), "expected `{at}…`, got `{msg}`");
    assert!(msg.contains(what), "expected `{what}` in `{msg}`");
}

#[test]
fn the_small_set_used_below_is_valid() {
    let tiles = TileSet::from_sources(&[Source::new(PATH, MINI)]).unwrap();
    assert_eq!(tiles.sets, vec!["mini"]);
    assert_eq!(tiles.kinds[tiles.start].name, "mini/S");
    assert_eq!(tiles.total_tiles(), 3);
}

#[test]
fn an_unknown_key_is_named_where_it_stands() {
    // Line 22 is `cloister = true`, in the second tile.
    let text = mini_with("cloister = true", "colour = \"red\"");
    assert_refused(&text, 22, 1, "unknown field `colour`");
    // In `[set]`: line 3.
    let text = mini_with("total = 3", "totl = 3");
    assert_refused(&text, 3, 1, "unknown field `totl`");
}

#[test]
fn g1_a_bad_edge_letter_is_named() {
    // Line 20: `edges = "FFXF"`; the value starts at column 9.
    let text = mini_with("\"FFFF\"", "\"FFXF\"");
    assert_refused(&text, 20, 9, "edge letter `X` is not C, R or F");
    // Line 20 with three letters.
    let text = mini_with("\"FFFF\"", "\"FFF\"");
    assert_refused(&text, 20, 9, "edges must be 4 letters");
    // Line 11: `roads = [["W", "Q"]]`; "Q" is at column 16.
    let text = mini_with("[[\"W\", \"E\"]]", "[[\"W\", \"Q\"]]");
    assert_refused(&text, 11, 16, "`Q` is not an edge");
}

#[test]
fn a_half_edge_in_two_fields_is_refused() {
    // Line 14: `  { halves = ["ER", "SL", "SR", "WL", "EL"] },`; the second
    // "EL" (the first is on line 13) is at column 39.
    let text = mini_with("\"SR\", \"WL\"] }", "\"SR\", \"WL\", \"EL\"] }");
    assert_refused(&text, 14, 39, "half-edge EL belongs to two fields");
}

#[test]
fn a_half_edge_in_no_field_is_refused() {
    // WL dropped from line 14: reported at the tile's name, line 7 column 8.
    let text = mini_with("\"SR\", \"WL\"] }", "\"SR\"] }");
    assert_refused(&text, 7, 8, "half-edge WL belongs to no field");
}

#[test]
fn a_half_edge_on_a_city_edge_is_refused() {
    // Line 13: `  { halves = ["EL", "WR", "NL"], …`: N is the city; "NL" at column 27.
    let text = mini_with("[\"EL\", \"WR\"]", "[\"EL\", \"WR\", \"NL\"]");
    assert_refused(&text, 13, 27, "half-edge NL lies on a city edge");
}

#[test]
fn a_field_touching_a_city_on_a_non_city_edge_is_refused() {
    // Line 14: `  { halves = [...], cities = ["E"] },`: E is a road; "E" at column 50.
    let text = mini_with(
        "[\"ER\", \"SL\", \"SR\", \"WL\"] }",
        "[\"ER\", \"SL\", \"SR\", \"WL\"], cities = [\"E\"] }",
    );
    assert_refused(
        &text,
        14,
        50,
        "touches a city at E but no city is on that edge",
    );
}

#[test]
fn a_city_on_a_non_city_edge_is_refused() {
    // Line 10: `cities = [{ edges = ["N", "E"] }]`: the city table at column 11.
    let text = mini_with("[{ edges = [\"N\"] }]", "[{ edges = [\"N\", \"E\"] }]");
    assert_refused(&text, 10, 11, "a city touches edge E which is not city");
}

#[test]
fn g9_counts_not_adding_up_to_the_total_are_refused() {
    // Line 3: `total = 4`, value at column 9; the counts are 1 + 2 = 3.
    let text = mini_with("total = 3", "total = 4");
    assert_refused(&text, 3, 9, "declares 4 tiles but its counts add up to 3");
}

#[test]
fn counts_too_large_to_add_are_refused_not_a_panic() {
    // 1 + 4294967295 does not fit a u32: the sum must not overflow. A count
    // past the most tiles a game may have is refused at its own line first.
    let text = mini_with("count = 2", "count = 4294967295");
    assert_refused(&text, 19, 9, "count 4294967295 is more than 1000");
}

#[test]
fn a_duplicate_tile_name_is_refused() {
    // Line 18: `name = "S"` for the second tile; the value at column 8.
    let text = mini_with("name = \"X\"", "name = \"S\"");
    assert_refused(&text, 18, 8, "tile `S` is defined twice");
}

#[test]
fn no_start_tile_is_refused_at_the_set_header() {
    // Two comment lines first: `[set]` is on line 3.
    let text = format!(
        "# a set without a start\n\n{}",
        mini_with("start = \"S\"\n", "")
    );
    assert_refused(&text, 3, 1, "no loaded tile set names a start tile");
}

#[test]
fn an_unknown_start_tile_is_named_with_a_suggestion() {
    // Line 4: `start = "SS"`, value at column 9.
    let text = mini_with("start = \"S\"", "start = \"SS\"");
    assert_refused(
        &text,
        4,
        9,
        "start tile `SS` is not in this set, did you mean `S`?",
    );
}

#[test]
fn a_second_start_tile_in_another_file_is_refused() {
    let other = "[set]\nname = \"more\"\ntotal = 1\nstart = \"Y\"\n\n[[tile]]\nname = \"Y\"\ncount = 1\nedges = \"FFFF\"\nfields = [{ halves = [\"NL\", \"NR\", \"EL\", \"ER\", \"SL\", \"SR\", \"WL\", \"WR\"] }]\n";
    let err = TileSet::from_sources(&[Source::new(PATH, MINI), Source::new("more.toml", other)])
        .unwrap_err()
        .to_string();
    // Line 4 of more.toml: `start = "Y"`, value at column 9.
    assert!(err.starts_with("more.toml:4:9: "), "{err}");
    assert!(err.contains("a second start tile"), "{err}");
}

#[test]
fn a_toml_syntax_error_is_placed() {
    // Line 8: `count = ` with no value.
    let text = mini_with("count = 1", "count = ");
    let err = TileSet::from_sources(&[Source::new(PATH, text.as_str())])
        .unwrap_err()
        .to_string();
    assert!(err.starts_with(&format!("{PATH}:8:")), "{err}");
}
