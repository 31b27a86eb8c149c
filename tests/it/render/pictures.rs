//! Pictures of played games: every tile, meeple and tower of the game drawn,
//! counted against the game (G3, T3, B5).

use super::*;

/// What the picture shows must be what the game holds: one tile element per
/// placed tile (position, kind, rotation), one meeple mark per meeple on the
/// board (owner, cell, what it stands on; tower tops included), one tower
/// group per tower with floors (its stack). Returns (field meeples, tower
/// meeples) seen, so callers can check both kinds were covered.
fn check_picture(game: &Game, set: &Ruleset) -> (usize, usize) {
    let scene = game_scene(game, set, &SceneOptions::default());
    let svg = board_svg(&scene, set.tiles(), &palette(set));
    let doc = parse(&svg);

    let mut drawn: Vec<(i64, i64, String, i64)> = with_class(&doc, "tile")
        .iter()
        .map(|n| {
            (
                int(n, "data-x"),
                int(n, "data-y"),
                text(n, "data-tile").to_string(),
                int(n, "data-rot"),
            )
        })
        .collect();
    let mut placed: Vec<(i64, i64, String, i64)> = game
        .board()
        .tiles()
        .iter()
        .map(|t| {
            (
                t.pos.x as i64,
                t.pos.y as i64,
                set.tiles().kinds[t.kind as usize].name.clone(),
                t.rot as i64 * 90,
            )
        })
        .collect();
    drawn.sort();
    placed.sort();
    assert_eq!(drawn, placed, "one tile element per placed tile");

    let mut marks: Vec<(i64, i64, i64, String)> = with_class(&doc, "meeple")
        .iter()
        .map(|n| {
            (
                int(n, "data-owner"),
                int(n, "data-x"),
                int(n, "data-y"),
                text(n, "data-on").to_string(),
            )
        })
        .collect();
    let mut meeples: Vec<(i64, i64, i64, String)> = game
        .meeples()
        .iter()
        .map(|m| {
            (
                m.owner as i64,
                m.pos.x as i64,
                m.pos.y as i64,
                game.spot_name(m.pos, m.spot).to_string(),
            )
        })
        .collect();
    marks.sort();
    meeples.sort();
    assert_eq!(marks, meeples, "one meeple mark per meeple on the board");

    let mut towers: Vec<(i64, i64, String)> = with_class(&doc, "tower")
        .iter()
        .map(|n| {
            (
                int(n, "data-x"),
                int(n, "data-y"),
                text(n, "data-floors").to_string(),
            )
        })
        .collect();
    let mut built: Vec<(i64, i64, String)> = game
        .towers()
        .iter()
        .filter(|t| !t.floors.is_empty())
        .map(|t| {
            let names: Vec<&str> = t
                .floors
                .iter()
                .map(|&k| set.floors()[k as usize].name.as_str())
                .collect();
            (t.pos.x as i64, t.pos.y as i64, names.join(","))
        })
        .collect();
    towers.sort();
    built.sort();
    assert_eq!(towers, built, "one tower group per tower with floors");
    // Each floor of a stack is drawn in its kind's colour.
    for tower in with_class(&doc, "tower") {
        for floor in tower
            .descendants()
            .filter(|n| n.attribute("class") == Some("floor"))
        {
            let kind = text(&floor, "data-kind");
            let decl = set
                .floors()
                .iter()
                .find(|f| f.name == kind)
                .expect("a floor kind");
            assert_eq!(floor.attribute("fill"), Some(decl.colour.as_str()));
        }
    }

    let fields = game
        .meeples()
        .iter()
        .filter(|m| game.spot_name(m.pos, m.spot) == "field")
        .count();
    let tops = game
        .meeples()
        .iter()
        .filter(|m| m.spot == MeepleSpot::Tower)
        .count();
    (fields, tops)
}

/// Play seeded games of `variant`, checking the picture at several turns
/// (the start, the middle, the last turn and after final scoring).
fn check_games(variant: &str, seeds: &[u64]) -> (usize, usize) {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), variant)
        .expect("the variant loads");
    let rules = set.rules();
    let bots = [BotKind::RANDOM, BotKind::RANDOM];
    let (mut fields, mut tops) = (0, 0);
    for &seed in seeds {
        let mut checked = 0;
        towerlab::play::sim::play_observed(
            set.tiles(),
            rules.as_ref(),
            &bots,
            set.worths(),
            seed,
            |game| {
                let turn = game.stats().turns;
                if [0, 1, 10, 25, 45, 70].contains(&turn) || game.deck_left() == 0 {
                    let (f, t) = check_picture(game, &set);
                    fields += f;
                    tops += t;
                    checked += 1;
                }
                Ok(())
            },
        )
        .expect("the game plays");
        assert!(checked >= 7, "seed {seed}: only {checked} pictures checked");
    }
    (fields, tops)
}

/// G3, T3: every placed tile and every meeple (farmers and tower tops
/// included) has exactly one mark in pictures of Tower games.
#[test]
fn g3_t3_tower_pictures_mark_every_tile_meeple_and_tower() {
    let (fields, tops) = check_games("tower", &[1, 2, 3]);
    assert!(
        fields > 0,
        "no farmer was drawn in these games: pick other seeds"
    );
    assert!(
        tops > 0,
        "no tower meeple was drawn in these games: pick other seeds"
    );
}

/// B5: Black Tower pictures: stacks of mixed floors, each floor in its
/// kind's colour, and every meeple marked once.
#[test]
fn b5_black_tower_pictures_mark_every_tile_meeple_and_tower() {
    let (fields, tops) = check_games("black-tower", &[4, 5, 6]);
    assert!(fields > 0 && tops > 0, "fields {fields}, tower tops {tops}");
}
