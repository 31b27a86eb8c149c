//! Decks of variants whose tiles differ: the tiles they share keep their
//! relative order for every seed, each variant's deck is its own whatever it
//! is compared with, The Tower's deck is the seed's shuffle as it always
//! was, and `compare` says how the decks differ.

use std::path::Path;

use serde_json::Value;
use towerlab::play::seed::{DECK_STREAM, Stream, game_seed};
use towerlab::rules::{Home, LoadOptions, Ruleset};

use crate::common::{stdout, succeeds, temp_dir, write_pack};

/// Three kinds, five tiles, none of them the base game's or The Tower's.
const FAN_TILES: &str = r#"
[set]
name = "fan"
total = 5

[[tile]]
name = "L"
count = 2
edges = "FFFF"
fields = [{ halves = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"] }]
cloister = true

[[tile]]
name = "F"
count = 2
edges = "FFFF"
fields = [{ halves = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"] }]

[[tile]]
name = "RFr"
count = 1
edges = "FRFR"
roads = [["E", "W"]]
fields = [{ halves = ["NL", "NR", "EL", "WR"] }, { halves = ["ER", "SL", "SR", "WL"] }]
"#;

/// A home folder with a pack `fan` that only adds tiles, a pack `alone`
/// that needs no other, and their variants: `tower-fan` (The Tower and the
/// fan's tiles) and `alone` (the base game's tiles, The Tower's left out).
fn fan_home() -> tempfile::TempDir {
    let dir = temp_dir("decks");
    let rules = dir.path().join("rules");
    let fan = "[pack]\nname = \"fan\"\ntiles = \"tiles.toml\"\n";
    write_pack(&rules, "fan", fan, &[("tiles.toml", FAN_TILES)]);
    write_pack(&rules, "alone", "[pack]\nname = \"alone\"\n", &[]);
    let variants = dir.path().join("variants");
    std::fs::create_dir_all(&variants).unwrap();
    for (name, packs) in [("tower-fan", "\"tower\", \"fan\""), ("alone", "\"alone\"")] {
        let text = format!("name = \"{name}\"\npacks = [{packs}]\n");
        std::fs::write(variants.join(format!("{name}.toml")), text).unwrap();
    }
    dir
}

fn ruleset(home: &Home, packs: &[&str]) -> Ruleset {
    let packs: Vec<String> = packs.iter().map(|p| p.to_string()).collect();
    Ruleset::from_packs(home, &LoadOptions::default(), &packs)
        .unwrap_or_else(|e| panic!("{packs:?}: {e:#}"))
}

/// The deck `set` deals for `seed`, by kind name.
fn deck(set: &Ruleset, seed: u64) -> Vec<String> {
    let names = |k: u16| set.tiles().kinds[k as usize].name.clone();
    set.tiles().deal(seed).into_iter().map(names).collect()
}

/// `deck` without the tiles whose kind `other` has none of.
fn common(deck: &[String], other: &[String]) -> Vec<String> {
    deck.iter().filter(|t| other.contains(t)).cloned().collect()
}

#[test]
fn g9_shared_tiles_keep_their_order_when_a_pack_adds_or_leaves_out_tiles() {
    let dir = fan_home();
    let home = Home::at(dir.path());
    let tower = ruleset(&home, &["tower"]);
    let sets = [
        ("tower,fan", ruleset(&home, &["tower", "fan"])),
        ("alone", ruleset(&home, &["alone"])),
        ("alone,fan", ruleset(&home, &["alone", "fan"])),
    ];
    let mut fan_places = Vec::new();
    for i in 0..20 {
        let seed = game_seed(3, i);
        // The Tower's deck is the seed's shuffle of its tiles, as it was
        // before any pack could add tiles.
        let mut old = tower.tiles().deck();
        Stream::new(seed, DECK_STREAM).shuffle(&mut old);
        assert_eq!(tower.tiles().deal(seed), old, "seed {seed}");
        let t = deck(&tower, seed);
        for (name, set) in &sets {
            let d = deck(set, seed);
            let mut sorted = d.clone();
            sorted.sort();
            let mut all: Vec<String> = set
                .tiles()
                .deck()
                .into_iter()
                .map(|k| set.tiles().kinds[k as usize].name.clone())
                .collect();
            all.sort();
            assert_eq!(sorted, all, "{name}: every tile of the set, once");
            assert_eq!(
                common(&d, &t),
                common(&t, &d),
                "{name}, seed {seed}: the shared tiles' order"
            );
        }
        // Two variants that both add the fan's tiles agree on them too.
        let (with_tower, without) = (deck(&sets[0].1, seed), deck(&sets[2].1, seed));
        assert_eq!(common(&with_tower, &without), common(&without, &with_tower));
        let n = with_tower.len() as f64;
        fan_places.extend(
            with_tower
                .iter()
                .enumerate()
                .filter(|(_, t)| t.starts_with("fan/"))
                .map(|(at, _)| at as f64 / n),
        );
    }
    // The added tiles are spread through the deck, not put at one end.
    assert_eq!(fan_places.len(), 20 * 5);
    let mean = fan_places.iter().sum::<f64>() / fan_places.len() as f64;
    assert!((0.35..0.65).contains(&mean), "mean place {mean}");
    assert!(fan_places.iter().any(|&p| p < 0.2) && fan_places.iter().any(|&p| p > 0.8));
}

/// What the command `line` prints, run with `home` as the home folder.
fn run_in(home: &Path, line: &str) -> String {
    let mut args = vec!["--home", home.to_str().unwrap()];
    args.extend(line.split_whitespace());
    stdout(&succeeds(&args))
}

/// `compare --format json` of `variants` in the fan home, 4 random games.
fn compare(home: &Path, variants: &str, threads: u32) -> Value {
    let line = format!(
        "compare {variants} --games 4 --bots random,random --seed 5 --threads {threads} --format json"
    );
    serde_json::from_str(&run_in(home, &line)).unwrap()
}

/// The metrics' means of variant `v` of a comparison.
fn means(c: &Value, v: usize) -> Vec<f64> {
    c["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["values"][v]["mean"].as_f64().unwrap())
        .collect()
}

/// The variants compared: the baseline, one adding tiles, one leaving
/// tiles out, one with the same tiles.
const FOUR: &str = "tower tower-fan alone black-tower";

#[test]
fn compare_says_how_decks_differ_and_a_variant_plays_the_same_games_whatever_its_partner() {
    let dir = fan_home();
    let home = dir.path();
    let c = compare(home, FOUR, 1);
    let decks = &c["decks"];
    assert_eq!(decks["shared"], 71, "{decks}");
    let v = &decks["variants"];
    assert_eq!(v[0]["tiles"], 89);
    assert_eq!(
        (&v[1]["added_kinds"], &v[1]["added_tiles"]),
        (&3.into(), &5.into())
    );
    assert_eq!(v[1]["removed_tiles"], 0);
    assert_eq!(
        (&v[2]["removed_kinds"], &v[2]["removed_tiles"]),
        (&17.into(), &18.into())
    );
    assert_eq!(
        (&v[3]["added_tiles"], &v[3]["removed_tiles"]),
        (&0.into(), &0.into())
    );
    // 1 or 2 threads: the same games.
    let mut two = compare(home, FOUR, 2);
    let mut one = c.clone();
    for key in ["seconds", "games_per_sec", "threads"] {
        one.as_object_mut().unwrap().remove(key);
        two.as_object_mut().unwrap().remove(key);
    }
    assert_eq!(one, two);
    // `tower-fan` plays the same games against another baseline, and alone.
    let other = compare(home, "alone tower-fan", 1);
    assert_eq!(means(&other, 1), means(&c, 1));
    let line = "simulate --variant tower-fan --games 4 --bots random,random --seed 5 --format json";
    let alone: Value = serde_json::from_str(&run_in(home, line)).unwrap();
    let simulated: Vec<f64> = alone["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["mean"].as_f64().unwrap())
        .collect();
    assert_eq!(simulated, means(&c, 1));
    // The text says it in words.
    let text = run_in(
        home,
        "compare tower tower-fan alone --games 2 --bots random,random --width 200",
    );
    assert!(
        text.contains("Decks against the baseline tower (89 tiles): tower-fan adds 3 kinds, 5 tiles; alone leaves out 17 kinds, 18 tiles; the 71 shared tiles keep their order per seed."),
        "{text}"
    );
}
