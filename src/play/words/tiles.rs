//! A tile kind in words, as people name tiles ("a city cap with a straight
//! road", "a cloister with a road", "a crossroads"), derived from its
//! features alone — cities (by how many edges each joins, and how), roads
//! (ends and runs across), a cloister, a tower foundation — so that tiles a
//! pack adds are named with no more work. Mirror images (a road curving
//! left or right of a city) share a name, as they do when people speak.

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
    use crate::rules::{Home, MemoryLimit, Ruleset};

    fn names(variant: &str) -> Vec<(String, String)> {
        let home = Home::shipped().with_memory_limit(MemoryLimit::Off);
        let set = Ruleset::from_variant(&home, variant).unwrap();
        set.tiles
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
