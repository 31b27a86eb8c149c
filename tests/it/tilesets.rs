//! The tile-set loader (G1, G9): the shipped files load and agree with the
//! tile reference; rotations are consistent; every validation error names
//! `file:line:col` and says what is wrong; no input makes the loader panic.

use proptest::prelude::*;
use towerlab::kernel::diag::Source;
use towerlab::kernel::geometry::{Dir, Half};
use towerlab::kernel::tiles::{EdgeKind, NO_SEGMENT, SegmentKind, TileKind, TileSet};

use crate::common::{rules_dir, tiles};

/// The tables of `reference/tiles.md`, row by row, prefixed with the set:
/// name | count | edges NESW | segments.
const REFERENCE: &str = "\
base | L | 4 | FFFF | cloister; field NL/NR/EL/ER/SL/SR/WL/WR |
base | LR | 2 | FFRF | cloister; road S; field NL/NR/EL/ER/SL/SR/WL/WR |
base | RCr | 4 | CRFR | city N; road W-E; field EL/WR (touches city at N); field ER/SL/SR/WL |
base | Cccc+ | 1 | CCCC | city N-W-S-E +pennant |
base | CccR+ | 2 | CCRC | city N-W-E +pennant; road S; field SL (touches city at N); field SR (touches city at N) |
base | CccR | 1 | CCRC | city N-W-E; road S; field SL (touches city at N); field SR (touches city at N) |
base | CFc+ | 2 | FCFC | city W-E +pennant; field NL/NR (touches city at W); field SL/SR (touches city at W) |
base | CFc.1 | 1 | FCFC | city W-E; field NL/NR (touches city at W); field SL/SR (touches city at W) |
base | Cc.1 | 3 | CFFC | city N-W; field SL/SR/EL/ER (touches city at N) |
base | Cc+ | 2 | CFFC | city N-W +pennant; field SL/SR/EL/ER (touches city at N) |
base | CcRr | 3 | CRRC | city N-W; road E-S; field EL/SR (touches city at N); field ER/SL |
base | CcRr+ | 2 | CRRC | city N-W +pennant; road E-S; field EL/SR (touches city at N); field ER/SL |
base | Ccc | 3 | CCFC | city N-E-W; field SL/SR (touches city at N) |
base | Ccc+ | 1 | CCFC | city N-E-W +pennant; field SL/SR (touches city at N) |
base | CRr | 3 | CRRF | city N; road E-S; field EL/WL/WR/SR (touches city at N); field ER/SL |
base | CRRR | 3 | CRRR | city N; road E; road S; road W; field WR/EL (touches city at N); field WL/SR; field ER/SL |
base | RrC | 3 | CFRR | city N; road S-W; field WR/EL/ER/SL (touches city at N); field WL/SR |
base | C | 5 | CFFF | city N; field WL/WR/SL/SR/EL/ER (touches city at N) |
base | CFC.2 | 3 | CFCF | city N; city S; field WL/WR/EL/ER (touches city at N+S) |
base | CC.2 | 2 | CFFC | city N; city W; field EL/ER/SL/SR (touches city at N+W) |
base | RRRR | 1 | RRRR | road N; road E; road S; road W; field WR/NL; field NR/EL; field ER/SL; field SR/WL |
base | RRR | 4 | FRRR | road E; road S; road W; field WR/NL/NR/EL; field ER/SL; field SR/WL |
base | Rr | 9 | FFRR | road W-S; field WR/NL/NR/EL/ER/SL; field SR/WL |
base | RFr | 8 | FRFR | road W-E; field WR/NL/NR/EL; field ER/SL/SR/WL |
tower | C | 2 | CFFF | **foundation**; city N; field WL/WR/SL/SR/EL/ER (touches city at N) |
tower | F | 1 | FFFF | **foundation**; field NL/NR/EL/ER/SL/SR/WL/WR |
tower | L | 1 | FFFF | **foundation**; cloister; field NL/NR/EL/ER/SL/SR/WL/WR |
tower | RR | 1 | FFRR | **foundation**; road W; road S; field WR/NL/NR/EL/ER/SL; field WL/SR |
tower | RRR | 1 | RRFR | **foundation**; road W; road N; road E; field WR/NL; field NR/EL; field ER/SL/SR/WL |
tower | RrRr.2 | 1 | RRRR | **foundation**; road N-W; road S-E; field NL/WR; field SL/ER; field NR/EL/SR/WL |
tower | RRRR.1 | 1 | RRRR | **foundation**; road N; road E; road S; road W; field WR/NL; field NR/EL; field ER/SL; field SR/WL |
tower | CRcr | 1 | RCRC | **foundation**; city W-E; road N-S; field NL (touches city at W); field NR (touches city at W); field SL (touches city at W); field SR (touches city at W) |
tower | CFR | 1 | CFRF | **foundation**; city N; road S; field WL/WR/SR (touches city at N); field EL/ER/SL (touches city at N) |
tower | RrC | 1 | CFRR | **foundation**; city N; road S-W; field WR/EL/ER/SL (touches city at N); field WL/SR |
tower | RCr | 1 | CRFR | **foundation**; city N; road W-E; field WR (touches city at N); field EL (touches city at N); field WL/SL/SR/ER |
tower | Cc | 1 | CFFC | **foundation**; city N-W; field SL/SR/EL/ER (touches city at N) |
tower | CcR! | 1 | CRFC | **foundation**; city N-W; road E; field EL (touches city at N); field ER (touches city at N); field SL/SR (touches city at N) |
tower | CC.2 | 1 | CFFC | **foundation**; city N; city W; field EL/ER/SL/SR (touches city at N+W) |
tower | CRCr.2 | 1 | CRCR | **foundation**; city N; city S; road W-E; field WR/EL (touches city at N); field ER/WL (touches city at S) |
tower | CccR | 1 | CCRC | **foundation**; city N-W-E; road S; field SL (touches city at N); field SR (touches city at N) |
tower | CccC+ | 1 | CCCC | **foundation**; city N-W-E +pennant; city S; field I (touches city at W+S) |
";

fn dir_letters(mask: u8) -> String {
    Dir::ALL
        .iter()
        .filter(|d| mask & (1 << d.index()) != 0)
        .map(|d| d.letter())
        .collect()
}

fn edge_letter(e: EdgeKind) -> char {
    match e {
        EdgeKind::City => 'C',
        EdgeKind::Road => 'R',
        EdgeKind::Field => 'F',
    }
}

/// A tile's segments in one canonical form, sorted: `city:NW+` (edges in
/// N E S W order, `+` for a pennant), `road:ES`, `field:ELSR>NW` (halves in
/// NL..WR order, then the cities it touches, each by its edges), `cloister`,
/// `foundation`.
fn canonical(kind: &TileKind) -> Vec<String> {
    let mut out: Vec<String> = kind
        .segments
        .iter()
        .map(|s| match s.kind {
            SegmentKind::City => {
                format!(
                    "city:{}{}",
                    dir_letters(s.edges),
                    if s.pennant { "+" } else { "" }
                )
            }
            SegmentKind::Road => format!("road:{}", dir_letters(s.edges)),
            SegmentKind::Field => {
                let halves: String = (0..8)
                    .filter(|h| s.halves & (1 << h) != 0)
                    .map(|h| Half::NAMES[h])
                    .collect();
                let mut cities: Vec<String> = s
                    .cities
                    .iter()
                    .map(|&c| dir_letters(kind.segments[c as usize].edges))
                    .collect();
                cities.sort();
                format!("field:{halves}>{}", cities.join(","))
            }
            SegmentKind::Cloister => "cloister".into(),
            SegmentKind::Foundation => "foundation".into(),
        })
        .collect();
    out.sort();
    out
}

/// The same canonical form, read from a reference row's segments column.
fn canonical_reference(segments: &str) -> Vec<String> {
    let parts: Vec<&str> = segments.split("; ").map(str::trim).collect();
    let edges_of = |list: &str| -> u8 {
        list.split('-')
            .map(|d| 1u8 << Dir::parse(d).unwrap_or_else(|| panic!("edge {d}")).index())
            .fold(0, |a, b| a | b)
    };
    // City masks, to name a touched city by all of its edges.
    let cities: Vec<u8> = parts
        .iter()
        .filter_map(|p| p.strip_prefix("city "))
        .map(|c| edges_of(c.trim_end_matches(" +pennant")))
        .collect();
    let mut out: Vec<String> = parts
        .iter()
        .map(|&p| {
            if p == "cloister" {
                "cloister".into()
            } else if p == "**foundation**" {
                "foundation".into()
            } else if let Some(c) = p.strip_prefix("city ") {
                let pennant = c.ends_with(" +pennant");
                let mask = edges_of(c.trim_end_matches(" +pennant"));
                format!(
                    "city:{}{}",
                    dir_letters(mask),
                    if pennant { "+" } else { "" }
                )
            } else if let Some(r) = p.strip_prefix("road ") {
                format!("road:{}", dir_letters(edges_of(r)))
            } else if let Some(f) = p.strip_prefix("field ") {
                let (halves, touches) = match f.split_once(" (touches city at ") {
                    Some((h, t)) => (h, t.trim_end_matches(')')),
                    None => (f, ""),
                };
                let mut mask = 0u8;
                if halves != "I" {
                    for h in halves.split('/') {
                        mask |= 1 << Half::parse(h).unwrap_or_else(|| panic!("half {h}")).0;
                    }
                }
                let halves: String = (0..8)
                    .filter(|h| mask & (1 << h) != 0)
                    .map(|h| Half::NAMES[h])
                    .collect();
                let mut touched: Vec<String> = touches
                    .split('+')
                    .filter(|t| !t.is_empty())
                    .map(|t| {
                        let bit = edges_of(t);
                        let city = cities.iter().find(|&&c| c & bit != 0);
                        dir_letters(*city.unwrap_or_else(|| panic!("no city at {t}")))
                    })
                    .collect();
                touched.sort();
                format!("field:{halves}>{}", touched.join(","))
            } else {
                panic!("unreadable reference segment `{p}`")
            }
        })
        .collect();
    out.sort();
    out
}

// ---- the shipped files -----------------------------------------------------------

#[test]
fn g9_the_shipped_tile_sets_load() {
    let dir = rules_dir();
    let tiles = TileSet::load(&[dir.join("base/tiles.toml"), dir.join("tower/tiles.toml")])
        .expect("the shipped tile sets load");
    assert_eq!(tiles.sets, vec!["base", "tower"]);
    assert_eq!(tiles.kinds.len(), 24 + 17);
    assert_eq!(tiles.kinds[tiles.start].name, "base/RCr");
    // The base set alone is a complete game too.
    let base = TileSet::load(&[dir.join("base/tiles.toml")]).expect("base alone loads");
    assert_eq!(base.total_tiles(), 72);
    assert_eq!(base.foundation_tiles(), 0);
    // The Tower alone names no start tile.
    let err = TileSet::load(&[dir.join("tower/tiles.toml")]).unwrap_err();
    assert!(err.to_string().contains("start tile"), "{err}");
}

#[test]
fn g9_every_tile_kind_matches_the_reference() {
    let tiles = tiles();
    let rows: Vec<&str> = REFERENCE.lines().collect();
    assert_eq!(rows.len(), tiles.kinds.len(), "one reference row per kind");
    for row in rows {
        let cols: Vec<&str> = row.split('|').map(str::trim).collect();
        let [set, name, count, edges, segments, ..] = cols[..] else {
            panic!("bad row {row}")
        };
        let full = format!("{set}/{name}");
        let kind = &tiles.kinds[tiles.find(&full).unwrap_or_else(|e| panic!("{e}"))];
        assert_eq!(kind.count.to_string(), count, "{full} count");
        let shown: String = kind.rotations[0]
            .edges
            .iter()
            .map(|&e| edge_letter(e))
            .collect();
        assert_eq!(shown, edges, "{full} edges");
        assert_eq!(
            canonical(kind),
            canonical_reference(segments),
            "{full} segments"
        );
        assert_eq!(
            kind.cloister.is_some(),
            segments.contains("cloister"),
            "{full}"
        );
        assert_eq!(
            kind.foundation.is_some(),
            segments.contains("foundation"),
            "{full}"
        );
    }
}

#[test]
fn g1_every_rotation_is_the_printed_tile_turned() {
    for kind in &tiles().kinds {
        let r0 = &kind.rotations[0];
        // The printed orientation agrees with the segments.
        for (s, seg) in kind.segments.iter().enumerate() {
            for d in Dir::ALL {
                if seg.edges & (1 << d.index()) != 0 {
                    assert_eq!(r0.edge_segment[d.index()] as usize, s, "{}", kind.name);
                    let want = match seg.kind {
                        SegmentKind::City => EdgeKind::City,
                        _ => EdgeKind::Road,
                    };
                    assert_eq!(r0.edges[d.index()], want, "{}", kind.name);
                }
            }
            for h in 0..8u8 {
                if seg.halves & (1 << h) != 0 {
                    assert_eq!(r0.half_segment[h as usize] as usize, s, "{}", kind.name);
                }
            }
        }
        for d in Dir::ALL {
            let on_field = r0.edges[d.index()] == EdgeKind::Field;
            assert_eq!(
                r0.edge_segment[d.index()] == NO_SEGMENT,
                on_field,
                "{}",
                kind.name
            );
            for h in d.halves() {
                let on_city = r0.edges[d.index()] == EdgeKind::City;
                assert_eq!(
                    r0.half_segment[h.0 as usize] == NO_SEGMENT,
                    on_city,
                    "{}",
                    kind.name
                );
            }
        }
        // Turned q quarters clockwise, what was on edge d is on edge d + q.
        for q in 0..4u8 {
            let rq = &kind.rotations[q as usize];
            for d in Dir::ALL {
                let to = d.rotated(q).index();
                assert_eq!(rq.edges[to], r0.edges[d.index()], "{} rot {q}", kind.name);
                assert_eq!(
                    rq.edge_segment[to],
                    r0.edge_segment[d.index()],
                    "{} rot {q}",
                    kind.name
                );
            }
            for h in 0..8u8 {
                let to = Half(h).rotated(q).0 as usize;
                assert_eq!(
                    rq.half_segment[to], r0.half_segment[h as usize],
                    "{} rot {q}",
                    kind.name
                );
            }
            // A rotation fits the pattern of its own four edges; when it only
            // repeats an earlier rotation (it looks the same), that earlier
            // one is offered instead, with the same edges.
            let own: u8 = Dir::ALL
                .iter()
                .map(|&d| towerlab::kernel::tiles::pattern_bits(d, rq.edges[d.index()]))
                .fold(0, |a, b| a | b);
            let offered = kind.fitting_rotations(own);
            if kind.distinct_rotations & (1 << q) != 0 {
                assert_ne!(offered & (1 << q), 0, "{} rot {q}", kind.name);
            } else {
                assert_ne!(q, 0, "{}: rotation 0 is always offered", kind.name);
                let earlier = (0..q as usize)
                    .any(|p| offered & (1 << p) != 0 && kind.rotations[p].edges == rq.edges);
                assert!(earlier, "{} rot {q}", kind.name);
            }
        }
    }
}

#[test]
fn g1_a_turned_tile_shows_its_edges_shifted() {
    let tiles = tiles();
    let rcr = &tiles.kinds[tiles.find("base/RCr").unwrap()];
    let shown = |q: usize| -> String {
        rcr.rotations[q]
            .edges
            .iter()
            .map(|&e| edge_letter(e))
            .collect()
    };
    // CRFR turned clockwise: the west road comes to the north, the city to the east.
    assert_eq!(shown(0), "CRFR");
    assert_eq!(shown(1), "RCRF");
    assert_eq!(shown(2), "FRCR");
    assert_eq!(shown(3), "RFRC");
    // One city on all four edges and no field: every turn looks the same.
    let cccc = &tiles.kinds[tiles.find("base/Cccc+").unwrap()];
    assert_eq!(cccc.distinct_rotations, 0b0001);
    let cloister = &tiles.kinds[tiles.find("base/L").unwrap()];
    assert_eq!(cloister.distinct_rotations, 0b0001);
    // A city on one edge: four different turns.
    let c = &tiles.kinds[tiles.find("base/C").unwrap()];
    assert_eq!(c.distinct_rotations, 0b1111);
}

// ---- validation errors -----------------------------------------------------------

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
    assert_refused(&text, 19, 9, "count 4294967295 is more than 5000");
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

// ---- the loader never panics -------------------------------------------------------

fn shipped(set: &str) -> String {
    std::fs::read_to_string(rules_dir().join(set).join("tiles.toml")).expect("shipped file")
}

/// Load `base` (as the base set, with the shipped tower set after it) and
/// alone. Ok or Err, never a panic; every error names the file it is in.
fn load_never_panics(base: &str) -> Result<(), TestCaseError> {
    let tower = shipped("tower");
    for sources in [
        vec![Source::new("base/tiles.toml", base)],
        vec![
            Source::new("base/tiles.toml", base),
            Source::new("tower/tiles.toml", tower.as_str()),
        ],
    ] {
        if let Err(e) = TileSet::from_sources(&sources) {
            let msg = e.to_string();
            prop_assert!(
                msg.starts_with("base/tiles.toml:") || msg.starts_with("tower/tiles.toml:"),
                "error without a place: {}",
                msg
            );
        }
    }
    Ok(())
}

fn cut_at(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Values that stress the loader when put in place of any value.
const VALUES: &[&str] = &[
    "\"\"",
    "0",
    "1",
    "-1",
    "4294967295",
    "4294967296",
    "true",
    "[]",
    "[[]]",
    "{}",
    "[\"N\", \"N\"]",
    "[\"I\"]",
    "\"CCCC\"",
    "\"RRRR\"",
    "\"C\u{e9}RF\"",
    "\"a/b\"",
    "[{ edges = [] }]",
    "[{ halves = [] }]",
    "[{ halves = [], cities = [\"N\"] }]",
];

proptest! {
    #[test]
    fn truncated_base_files_never_panic(i in any::<prop::sample::Index>()) {
        let base = shipped("base");
        let end = cut_at(&base, i.index(base.len() + 1));
        load_never_panics(&base[..end])?;
    }

    #[test]
    fn base_files_with_a_span_deleted_or_inserted_never_panic(
        i in any::<prop::sample::Index>(),
        len in 0usize..80,
        insert in "\\PC{0,12}",
    ) {
        let base = shipped("base");
        let start = cut_at(&base, i.index(base.len() + 1));
        let end = cut_at(&base, start + len).max(start);
        let mutated = format!("{}{}{}", &base[..start], insert, &base[end..]);
        load_never_panics(&mutated)?;
    }

    #[test]
    fn base_files_with_a_value_replaced_never_panic(
        line in any::<prop::sample::Index>(),
        value in prop::sample::select(VALUES),
    ) {
        let base = shipped("base");
        let mut lines: Vec<String> = base.lines().map(String::from).collect();
        let n = line.index(lines.len());
        if let Some((key, _)) = lines[n].split_once(" = ") {
            lines[n] = format!("{key} = {value}");
        } else {
            lines[n] = value.to_string();
        }
        load_never_panics(&lines.join("\n"))?;
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        load_never_panics(&text)?;
    }

    #[test]
    fn toml_like_text_never_panics(text in "(\\[\\[?(set|tile)\\]\\]?\n|[a-z]{1,8} = (\"[A-Z]{0,5}\"|[0-9]{1,11}|true|\\[\"[A-Z]{1,2}\"(, \"[A-Z]{1,2}\")*\\])\n){0,30}") {
        load_never_panics(&text)?;
    }
}
