//! A tile kind in words, as people name tiles ("a city cap with a straight
//! road", "a cloister with a road", "a crossroads"), derived from its
//! features alone — cities (by how many edges each joins, and how), roads
//! (ends and runs across), a cloister, a tower foundation — so that tiles a
//! pack adds are named with no more work. Mirror images (a road curving
//! left or right of a city) share a name, as they do when people speak.
//! A segment of a placed tile is named by where it lies on the board ("the
//! field north of the road", "the city to the east"), its rotation taken
//! into account (`segment_words`).

use crate::kernel::geometry::{Dir, Half};
use crate::kernel::tiles::{Segment, SegmentKind, TileKind};

/// `kind` in words: its main feature, then what else it has.
pub fn tile_words(kind: &TileKind) -> String {
    let segments = |k: SegmentKind| -> Vec<&Segment> {
        kind.segments.iter().filter(|s| s.kind == k).collect()
    };
    let cities = segments(SegmentKind::City);
    let roads = segments(SegmentKind::Road);
    let mut parts: Vec<String> = Vec::new();
    parts.extend(cities_words(&cities));
    // Pennants are told right after the largest city, which bears them.
    if cities.iter().any(|c| c.pennant) {
        parts.insert(1, pennants(&cities));
    }
    if kind.cloister.is_some() {
        parts.push("a cloister".into());
    }
    // A road beside something else is "a road" where alone it would be
    // "a road end".
    parts.extend(roads_words(&roads, !parts.is_empty()));
    if kind.foundation.is_some() {
        parts.push("a tower foundation".into());
    }
    let Some((main, rest)) = parts.split_first() else {
        return "a field".into();
    };
    if rest.is_empty() {
        return main.clone();
    }
    format!("{main} with {}", and_list(rest))
}

/// Segment `segment` of `kind` placed turned `rot` quarter turns, named by
/// where it lies: "the city to the north", "the road from west to east",
/// "the field north of the road", "the cloister". Should two segments of
/// one tile get the same words, each is told apart by its number.
pub fn segment_words(kind: &TileKind, rot: u8, segment: u8) -> String {
    let words = |s: u8| where_words(kind, rot, s);
    let said = words(segment);
    let alike = (0..kind.segments.len() as u8).any(|s| s != segment && words(s) == said);
    if alike {
        format!("{said} (segment {segment})")
    } else {
        said
    }
}

/// A segment named by where it lies, not told apart from the others.
fn where_words(kind: &TileKind, rot: u8, segment: u8) -> String {
    let Some(s) = kind.segments.get(segment as usize) else {
        return format!("segment {segment}");
    };
    let sides = || {
        let dirs: Vec<Dir> = Dir::ALL
            .into_iter()
            .filter(|d| s.edges & (1 << d.index()) != 0)
            .map(|d| d.rotated(rot))
            .collect();
        let mut dirs = dirs;
        dirs.sort_by_key(|d| d.index());
        dirs
    };
    match s.kind {
        SegmentKind::City => match sides().as_slice() {
            [] | [_, _, _, _] => "the city".into(),
            dirs => format!("the city to the {}", and_list(&compass_list(dirs))),
        },
        SegmentKind::Road => match sides().as_slice() {
            [] => "the road".into(),
            [d] => format!("the road to the {}", compass(*d)),
            // West to east, as maps are read; else clockwise from north.
            [Dir::E, Dir::W] => "the road from west to east".into(),
            [a, b] => format!("the road from {} to {}", compass(*a), compass(*b)),
            dirs => format!("the road to the {}", and_list(&compass_list(dirs))),
        },
        SegmentKind::Field => field_words(kind, rot, s),
        SegmentKind::Cloister => "the cloister".into(),
        SegmentKind::Foundation => "the tower foundation".into(),
    }
}

/// A field named by the side of the tile it lies on, as seen from the
/// tile's road (or city, or cloister) that it borders: "the field north of
/// the road", "the field around the cloister", "the field to the west".
fn field_words(kind: &TileKind, rot: u8, field: &Segment) -> String {
    // Where each half-edge lies, from the tile's middle (x east, y north):
    // NL is the west half of the north edge, EL the north half of the
    // east edge, and so on clockwise.
    const AT: [(f64, f64); 8] = [
        (-0.5, 1.0),
        (0.5, 1.0),
        (1.0, 0.5),
        (1.0, -0.5),
        (0.5, -1.0),
        (-0.5, -1.0),
        (-1.0, -0.5),
        (-1.0, 0.5),
    ];
    let (mut x, mut y) = (0.0, 0.0);
    for h in (0..8u8).filter(|h| field.halves & (1 << h) != 0) {
        let (hx, hy) = AT[Half(h).rotated(rot).0 as usize];
        x += hx;
        y += hy;
    }
    let has = |k: SegmentKind| kind.segments.iter().any(|s| s.kind == k);
    let beside = if has(SegmentKind::Road) {
        Some("the road")
    } else if has(SegmentKind::City) {
        Some("the city")
    } else {
        None
    };
    if x.abs() < 0.25 && y.abs() < 0.25 {
        return match kind.cloister {
            Some(_) => "the field around the cloister".into(),
            None => "the field".into(),
        };
    }
    let side = eighth(x, y);
    // Two half-edges around one corner: a corner cut off by a road.
    // (NR and EL around the north-east corner, …, WR and NL around the
    // north-west one.)
    let corner = (0..4u8).any(|c| {
        field.halves.count_ones() == 2 && {
            let (a, b) = (2 * c + 1, (2 * c + 2) % 8);
            field.halves & (1 << a) != 0 && field.halves & (1 << b) != 0
        }
    });
    if corner {
        return format!("the field in the {side} corner");
    }
    match beside {
        Some(what) => format!("the field {side} of {what}"),
        None => format!("the field to the {side}"),
    }
}

/// The compass point (of eight) a direction from the tile's middle points
/// to.
fn eighth(x: f64, y: f64) -> &'static str {
    const POINTS: [&str; 8] = [
        "east",
        "north-east",
        "north",
        "north-west",
        "west",
        "south-west",
        "south",
        "south-east",
    ];
    let turn = y.atan2(x).rem_euclid(std::f64::consts::TAU) / std::f64::consts::TAU;
    POINTS[((turn * 8.0).round() as usize) % 8]
}

fn compass(d: Dir) -> &'static str {
    match d {
        Dir::N => "north",
        Dir::E => "east",
        Dir::S => "south",
        Dir::W => "west",
    }
}

fn compass_list(dirs: &[Dir]) -> Vec<String> {
    dirs.iter().map(|&d| compass(d).to_string()).collect()
}

/// How many edges a city or road segment touches.
fn edges(s: &Segment) -> u32 {
    s.edges.count_ones()
}

/// Two edges are opposite (north and south, east and west).
fn opposite(mask: u8) -> bool {
    mask == 0b0101 || mask == 0b1010
}

/// The cities of a tile: one phrase for a lone city or for caps alike,
/// else each city in turn, largest first.
fn cities_words(cities: &[&Segment]) -> Vec<String> {
    let caps: Vec<&&Segment> = cities.iter().filter(|c| edges(c) == 1).collect();
    if cities.len() == 2 && caps.len() == 2 {
        let side = if opposite(caps[0].edges | caps[1].edges) {
            "opposite"
        } else {
            "adjacent"
        };
        return vec![format!("two {side} city caps")];
    }
    let mut sorted: Vec<&&Segment> = cities.iter().collect();
    sorted.sort_by_key(|c| std::cmp::Reverse(edges(c)));
    sorted.iter().map(|c| city_words(c)).collect()
}

fn city_words(city: &Segment) -> String {
    match edges(city) {
        1 => "a city cap",
        2 if opposite(city.edges) => "a city passage",
        2 => "a city corner",
        3 => "a three-sided city",
        _ => "a full city",
    }
    .into()
}

fn pennants(cities: &[&Segment]) -> String {
    match cities.iter().filter(|c| c.pennant).count() {
        1 => "a pennant".into(),
        n => format!("{n} pennants"),
    }
}

/// The roads of a tile: those that end on it (at a junction, a cloister, a
/// city's gate or a foundation) together, then those that run across it.
fn roads_words(roads: &[&Segment], beside: bool) -> Vec<String> {
    let ends = roads.iter().filter(|r| edges(r) == 1).count();
    let mut words = Vec::new();
    match ends {
        0 => {}
        1 if beside => words.push("a road".to_string()),
        1 => words.push("a road end".to_string()),
        2 => words.push("two road ends".to_string()),
        3 => words.push("a three-way junction".to_string()),
        4 => words.push("a crossroads".to_string()),
        n => words.push(format!("a junction of {n} roads")),
    }
    let across: Vec<&&Segment> = roads.iter().filter(|r| edges(r) >= 2).collect();
    let straight = across.iter().filter(|r| opposite(r.edges)).count();
    let curved = across.len() - straight;
    for (n, what) in [(straight, "straight road"), (curved, "curved road")] {
        match n {
            0 => {}
            1 => words.push(format!("a {what}")),
            2 => words.push(format!("two {what}s")),
            n => words.push(format!("{n} {what}s")),
        }
    }
    words
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Home, LoadOptions, Ruleset};

    fn names(variant: &str) -> Vec<(String, String)> {
        let set =
            Ruleset::from_variant(&Home::shipped(), &LoadOptions::unit_tests(), variant).unwrap();
        set.tiles()
            .kinds
            .iter()
            .map(|k| (k.name.clone(), tile_words(k)))
            .collect()
    }

    fn named<'a>(all: &'a [(String, String)], code: &str) -> &'a str {
        &all.iter().find(|(n, _)| n == code).unwrap().1
    }

    #[test]
    fn shipped_tiles_are_named_as_people_name_them() {
        let all = names("tower");
        for (code, words) in [
            ("base/L", "a cloister"),
            ("base/LR", "a cloister with a road"),
            ("base/RCr", "a city cap with a straight road"),
            ("base/CRr", "a city cap with a curved road"),
            ("base/CRRR", "a city cap with a three-way junction"),
            ("base/RFr", "a straight road"),
            ("base/Rr", "a curved road"),
            ("base/RRR", "a three-way junction"),
            ("base/RRRR", "a crossroads"),
            ("base/Cccc+", "a full city with a pennant"),
            ("base/CccR+", "a three-sided city with a pennant and a road"),
            ("base/CFc.1", "a city passage"),
            ("base/Cc+", "a city corner with a pennant"),
            ("base/CFC.2", "two opposite city caps"),
            ("base/CC.2", "two adjacent city caps"),
            ("tower/F", "a tower foundation"),
            ("tower/RR", "two road ends with a tower foundation"),
            (
                "tower/CccC+",
                "a three-sided city with a pennant, a city cap and a tower foundation",
            ),
            (
                "tower/CRcr",
                "a city passage with a straight road and a tower foundation",
            ),
        ] {
            assert_eq!(named(&all, code), words, "{code}");
        }
    }

    /// Segments are named by where they lie on the board, turned with
    /// their tile; no two segments of a shipped tile at any rotation share
    /// their words (so none needs its number).
    #[test]
    fn segments_are_named_by_where_they_lie() {
        let set =
            Ruleset::from_variant(&Home::shipped(), &LoadOptions::unit_tests(), "black-tower")
                .unwrap();
        let kind = |code: &str| set.tiles().kinds.iter().find(|k| k.name == code).unwrap();
        let named = |code: &str, rot: u8| {
            let k = kind(code);
            (0..k.segments.len() as u8)
                .map(|s| segment_words(k, rot, s))
                .collect::<Vec<_>>()
        };
        // A city cap to the north, a straight road from west to east.
        let rcr = named("base/RCr", 0);
        assert!(
            rcr.contains(&"the city to the north".to_string()),
            "{rcr:?}"
        );
        assert!(
            rcr.contains(&"the road from west to east".to_string()),
            "{rcr:?}"
        );
        assert!(
            rcr.contains(&"the field north of the road".to_string()),
            "{rcr:?}"
        );
        assert!(
            rcr.contains(&"the field south of the road".to_string()),
            "{rcr:?}"
        );
        // Turned a quarter clockwise: the city lies east, the road runs
        // north to south.
        let turned = named("base/RCr", 1);
        assert!(
            turned.contains(&"the city to the east".to_string()),
            "{turned:?}"
        );
        assert!(
            turned.contains(&"the road from north to south".to_string()),
            "{turned:?}"
        );
        assert!(
            turned.contains(&"the field west of the road".to_string()),
            "{turned:?}"
        );
        // A corner cut off by a curved road is named as a corner.
        let corner = named("base/CcRr", 0);
        assert!(
            corner.contains(&"the field in the south-east corner".to_string()),
            "{corner:?}"
        );
        let mut cloister = named("base/L", 0);
        cloister.sort();
        assert_eq!(cloister, ["the cloister", "the field around the cloister"]);
        for k in &set.tiles().kinds {
            for rot in 0..4 {
                let words = named(&k.name, rot);
                for w in &words {
                    assert!(!w.contains("segment"), "{} turned {rot}: {words:?}", k.name);
                }
            }
        }
    }

    /// Kinds that differ by more than a mirror image have different names:
    /// each name of the base game's tiles names kinds of one shape.
    #[test]
    fn different_tiles_get_different_names() {
        let all = names("tower");
        let mut seen: std::collections::HashMap<&str, Vec<&str>> = Default::default();
        for (code, words) in &all {
            seen.entry(words.as_str()).or_default().push(code);
        }
        for (words, codes) in seen {
            // The same tile in two sets, or mirror images.
            let allowed = [vec!["base/CRr", "base/RrC"]];
            assert!(
                codes.len() == 1 || allowed.iter().any(|a| codes.iter().all(|c| a.contains(c))),
                "{words}: {codes:?}"
            );
        }
    }
}
