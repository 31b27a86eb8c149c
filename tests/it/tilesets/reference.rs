//! The shipped tile sets against a reference written out by hand (G9), and
//! every rotation the printed tile turned (G1).

use super::*;

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
