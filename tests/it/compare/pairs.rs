//! `compare`: variants paired on the same seeds, so the same deck (G1); a
//! variant against itself differs by nothing; the library's comparison is
//! the JSON the command prints.

use super::*;

#[test]
fn compare_pairs_the_variants_on_the_same_seeds() {
    let log = ScratchFile::new("pairs.jsonl");
    let r = json(&with_log(
        "compare tower black-tower --games 80 --format json",
        &log,
    ));
    assert_eq!(r["variants"], serde_json::json!(["tower", "black-tower"]));
    assert_eq!(r["games"], 80);
    for m in r["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let values = m["values"].as_array().unwrap();
        assert_eq!(values.len(), 2, "{name}");
        assert_eq!(values[0]["variant"], "tower");
        assert_eq!(values[1]["variant"], "black-tower");
        assert!(
            values[0].get("diff").is_none(),
            "{name}: the baseline has no diff"
        );
        let d = &values[1]["diff"];
        let (mean, low, high) = (num(&d["mean"]), num(&d["ci"][0]), num(&d["ci"][1]));
        assert!(num(&d["sd"]) >= 0.0, "{name}: {d}");
        assert!(low <= high, "{name}: {d}");
        assert_eq!(
            d["significant"].as_bool(),
            Some(low > 0.0 || high < 0.0),
            "{name}: significant means the interval excludes 0: {d}"
        );
        // The mean of paired differences is the difference of the means
        // (balance: of the two point estimates).
        let gap = num(&values[1]["mean"]) - num(&values[0]["mean"]);
        assert!((mean - gap).abs() < 1e-9, "{name}: diff {mean} vs {gap}");
    }

    // The log holds tower's 80 games, then black-tower's, game i of each
    // with the same seed: that is what makes the differences paired.
    let starts: Vec<Value> = log_records(&log.read())
        .into_iter()
        .filter(|r| r["event"] == "start")
        .collect();
    assert_eq!(starts.len(), 160);
    for (a, b) in starts[..80].iter().zip(&starts[80..]) {
        assert_eq!(a["packs"], serde_json::json!(["tower"]));
        assert_eq!(b["packs"], serde_json::json!(["tower", "black-tower"]));
        assert_eq!(a["game"], b["game"]);
        assert_eq!(a["seed"], b["seed"], "game {}", a["game"]);
    }
    let seeds: std::collections::HashSet<u64> = starts[..80]
        .iter()
        .map(|s| s["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds.len(), 80, "every game has its own seed");
}

#[test]
fn b2_black_tower_builds_more_towers_than_the_tower() {
    // B2 gives each of 2 players 4 black + 2 white + 8 regular = 14 floors,
    // against T1's 10, and B4/B7 let black and white floors go where regular
    // ones do (white only onto a started tower), so random players place
    // more floors and put a floor on more foundations; a white floor also
    // caps its tower (B7), sending later floors to other foundations. The
    // deck (and so the foundations drawn) is the same game for game, so the
    // paired difference in `towers` is large next to its noise.
    let r = json(&words("compare tower black-tower --games 80 --format json"));
    let towers = metric(&r, "towers");
    let d = &towers[1]["diff"];
    assert!(num(&d["mean"]) > 0.0, "{d}");
    assert_eq!(d["significant"], true, "{d}");
    // At most 18 foundations are drawn (T2, G9), in either variant.
    for v in towers {
        assert!(num(&v["mean"]) <= 18.0, "{v}");
    }
    // G1, G9: a game places at most the 89 tiles of the deck (90 with the
    // start tile), in either variant.
    for v in metric(&r, "turns") {
        let mean = num(&v["mean"]);
        assert!(mean > 0.0 && mean <= 89.0, "{v}");
    }
}

#[test]
fn comparing_a_variant_with_itself_gives_zero_differences() {
    let r = json(&words("compare tower tower --games 40 --format json"));
    for m in r["metrics"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let values = m["values"].as_array().unwrap();
        assert_eq!(values[0]["mean"], values[1]["mean"], "{name}");
        assert_eq!(values[0]["ci"], values[1]["ci"], "{name}");
        let d = &values[1]["diff"];
        assert_eq!(num(&d["mean"]), 0.0, "{name}: {d}");
        // 40 games that all agree: the bound their count allows (about
        // 3/40 of a unit either way), never an interval of zero width.
        let (low, high) = (num(&d["ci"][0]), num(&d["ci"][1]));
        assert!(low < 0.0 && high > 0.0, "{name}: {d}");
        assert!((low + high).abs() < 1e-12, "{name}: {d}");
        assert_eq!(d["significant"], false, "{name}: {d}");
        assert_eq!(num(&d["p"]), 1.0, "{name}: {d}");
    }
}

#[test]
fn compare_csv_and_table_list_both_variants() {
    let args = "compare tower black-tower --games 10";
    let text = ok(&words(&format!("{args} --format csv")));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().collect::<Result<_, _>>().unwrap();
    // 26 metrics for 2 players, one row per variant each.
    assert_eq!(rows.len(), 2 * 26, "{text}");
    for pair in rows.chunks(2) {
        assert_eq!(pair[0][0], pair[1][0], "rows of a metric are adjacent");
        assert_eq!((&pair[0][1], &pair[1][1]), ("tower", "black-tower"));
        assert_eq!(&pair[0][5], "", "the baseline has no diff");
        assert!(pair[1][5].parse::<f64>().is_ok(), "{:?}", pair[1]);
    }
    let table = ok(&words(&format!("{args} --format table")));
    for word in ["tower", "black-tower - tower", "towers", "turns", "balance"] {
        assert!(table.contains(word), "the table lacks `{word}`:\n{table}");
    }
}

#[test]
fn g1_every_variant_draws_the_same_deck_for_a_seed() {
    // The deck is shuffled by the seed's own stream (src/seed.rs), and every
    // tile is drawn in deck order: placed, or discarded when it fits nowhere
    // (G1), after which the next is drawn. So the tile and discard records of
    // a game, in order, spell out the whole deck, whatever the players did
    // with it: they agree between variants from the first tile to the last,
    // even where placements and discards differ.
    let (a, b) = (
        ScratchFile::new("deck-tower.jsonl"),
        ScratchFile::new("deck-black.jsonl"),
    );
    for (variant, log) in [("tower", &a), ("black-tower", &b)] {
        let line = format!("simulate --variant {variant} --games 6 --seed 41 --format json");
        ok(&with_log(&line, log));
    }
    let (ta, tb) = (a.read(), b.read());
    let (da, db) = (drawn(&ta), drawn(&tb));
    assert_eq!(da.len(), 6);
    assert_eq!(db.len(), 6);
    let tiles = crate::common::tiles();
    // G9: 72 base tiles with the start tile, 18 Tower tiles; the start tile is
    // not drawn.
    assert_eq!(tiles.deck().len(), 72 + 18 - 1);
    for (g, (x, y)) in da.iter().zip(&db).enumerate() {
        assert_eq!(x.0, y.0, "game {g}: the same seed in both runs");
        assert_eq!(
            x.1, y.1,
            "game {g}: the deck order differs between variants"
        );
        // ... and it is the seed's deck, tile for tile.
        let mut deck = tiles.deck();
        Stream::new(x.0, DECK_STREAM).shuffle(&mut deck);
        let names: Vec<&str> = deck
            .iter()
            .map(|&k| tiles.kinds[k as usize].name.as_str())
            .collect();
        assert_eq!(
            x.1, names,
            "game {g}: the drawn tiles are the deck in order"
        );
    }
    assert_ne!(da[0], da[1], "games of a run are dealt different decks");
    // The games themselves differ: black floors are placed only under
    // Black Tower, so the logs cannot be the same.
    assert!(!ta.contains(r#""kind":"black""#));
    assert!(tb.contains(r#""kind":"black""#));
}

/// The comparison as a library value: two variants played on the same seeds
/// with bots resolved once.
fn library_comparison(games: u64) -> towerlab::analysis::compare::Comparison {
    use towerlab::analysis::compare::{self, Plan};
    use towerlab::play::bots::BotKind;
    use towerlab::rules::{LoadOptions, Ruleset};
    let home = crate::common::home();
    let sets = vec![
        Ruleset::from_variant(&home, &LoadOptions::default(), "tower").expect("tower loads"),
        Ruleset::from_variant(&home, &LoadOptions::default(), "black-tower")
            .expect("black-tower loads"),
    ];
    let bots = vec![BotKind::RANDOM; 2];
    let plan = Plan {
        sets: &sets,
        bots: &bots,
        games,
        seed: 7,
        threads: 1,
        log: false,
        fires: false,
    };
    let seen = std::cell::Cell::new(0);
    let c = compare::run(&plan, &|_| {}, |_| {
        seen.set(seen.get() + 1);
        Ok(())
    })
    .expect("the comparison runs");
    assert_eq!(
        seen.get(),
        2 * games,
        "every game of every variant is handed on"
    );
    c
}

#[test]
fn the_library_comparison_is_the_json_compare_prints() {
    let c = library_comparison(12);
    // Through text, as the CLI's output is read (parsing may round a float).
    let text = serde_json::to_string(&c).unwrap();
    let mut lib = without_timing(serde_json::from_str(&text).unwrap());
    let verdict = towerlab::analysis::verdict::Verdict::of(&c);
    lib["verdict"] = serde_json::from_str(&serde_json::to_string(&verdict).unwrap()).unwrap();
    let cli = without_timing(json(&words(
        "compare tower black-tower --games 12 --seed 7 --threads 1 --format json",
    )));
    assert_eq!(lib, cli);
    // Per-game rows and game 0 are kept for the report, not printed.
    assert_eq!(c.per_game.len(), 2);
    assert!(c.per_game.iter().all(|rows| rows.len() == 12));
    assert_eq!(c.first_games[0].seed, c.first_games[1].seed, "same deal");
    assert!(c.first_games[0].bounds.is_some());
}

#[test]
fn the_baseline_has_no_difference_and_the_others_pair_against_it() {
    let c = library_comparison(20);
    let turns = c.metric("turns").expect("a turns metric");
    assert!(turns.values[0].diff.is_none());
    let d = turns.values[1].diff.expect("a paired difference");
    let expected = turns.values[1].mean - turns.values[0].mean;
    assert!((d.mean - expected).abs() < 1e-9, "{} vs {expected}", d.mean);
    assert_eq!(
        c.metric_index("turns"),
        c.metrics.iter().position(|m| m.name == "turns")
    );
}

#[test]
fn a_comparison_without_games_is_refused_not_a_panic() {
    use towerlab::analysis::compare::{self, Plan};
    use towerlab::play::bots::BotKind;
    let plan = Plan {
        sets: &[],
        bots: &[BotKind::RANDOM; 2],
        games: 0,
        seed: 1,
        threads: 1,
        log: false,
        fires: false,
    };
    assert!(compare::run(&plan, &|_| {}, |_| Ok(())).is_err());
}

#[test]
fn the_base_game_is_a_variant_so_the_expansion_itself_can_be_compared() {
    let r = json(&words(
        "compare base tower black-tower --games 6 --bots random --format json",
    ));
    assert_eq!(
        r["variants"],
        serde_json::json!(["base", "tower", "black-tower"])
    );
    // No foundation in the base game: no tower, no capture; 71 tiles after
    // the start tile, where The Tower adds 18.
    for name in ["towers", "captures", "ransoms", "exchanges"] {
        assert_eq!(num(&metric(&r, name)[0]["mean"]), 0.0, "{name}");
    }
    assert!(num(&metric(&r, "turns")[0]["mean"]) <= 71.0);
    assert!(num(&metric(&r, "turns")[1]["mean"]) > 80.0);
    assert!(num(&metric(&r, "towers")[1]["mean"]) > 0.0);
    let added = &r["decks"]["variants"][1];
    assert_eq!(added["added_tiles"], 18, "{}", r["decks"]);
}
