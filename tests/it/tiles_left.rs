//! What the tiles still to draw leave possible (G1, G4, G5): the empty cells
//! an open road or city faces, how many undrawn tiles fit an empty cell,
//! and `mcts`'s evaluation, which takes a city's chance to complete from
//! what fits its cells — checked against the kernel's own `fits` and open
//! ends on positions of greedy games.

use towerlab::kernel::determinize::{Fitting, undrawn_counts};
use towerlab::kernel::geometry::Pos;
use towerlab::kernel::tiles::SegmentKind;
use towerlab::kernel::{Bot, Buffers, Game, play_turn};
use towerlab::play::bots::{Evaluator, FARM_SHARE, GreedyBot, Sight};
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common::home;

/// Every position of a greedy game of `variant` with `players`, after each
/// turn, handed to `check`.
fn positions(variant: &str, players: usize, seed: u64, mut check: impl FnMut(&Game)) {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), variant).unwrap();
    let rules = set.rules();
    let mut game = Game::new(set.tiles(), rules.as_ref(), players, seed).unwrap();
    let mut bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|s| Box::new(GreedyBot::new(seed, s)) as Box<dyn Bot>)
        .collect();
    let mut buf = Buffers::default();
    while play_turn(&mut game, &mut bots, &mut buf).unwrap() {
        check(&game);
    }
}

/// The open roads and cities of `game`, by root.
fn open_lines(game: &Game) -> Vec<u32> {
    let fs = game.features();
    fs.roots()
        .filter(|&r| matches!(fs.kind(r), SegmentKind::Road | SegmentKind::City))
        .filter(|&r| !fs.is_complete(r))
        .collect()
}

#[test]
fn g4_g5_an_open_line_faces_one_empty_cell_per_open_end() {
    let mut lines = 0;
    for seed in 1..=3 {
        positions("tower", 2, seed, |game| {
            for root in open_lines(game) {
                let mut cells: Vec<Pos> = Vec::new();
                game.open_cells(root, |cell| cells.push(cell));
                assert_eq!(
                    cells.len() as u32,
                    game.features().open_ends(root),
                    "seed {seed}: feature {root}'s cells {cells:?}"
                );
                assert!(cells.iter().all(|&c| !game.board().has_tile(c)));
                lines += 1;
            }
        });
    }
    assert!(lines > 1000, "only {lines} open lines seen");
}

#[test]
fn g1_the_undrawn_tiles_fitting_a_cell_are_those_the_board_accepts() {
    let mut fitting = Fitting::default();
    let mut spots = 0;
    let mut none_fit = 0;
    positions("black-tower", 3, 7, |game| {
        let counts = undrawn_counts(game);
        fitting.forget();
        let kinds = &game.tiles().kinds;
        for spot in game.board().open_spots() {
            let by_board: u32 = (counts.iter().zip(kinds))
                .filter(|&(_, kind)| (0..4).any(|rot| game.board().fits(kind, spot.pos, rot)))
                .map(|(&c, _)| c)
                .sum();
            assert_eq!(
                fitting.at(game, spot.pos),
                Some(by_board),
                "spot {:?}",
                spot.pos
            );
            none_fit += usize::from(by_board == 0);
            spots += 1;
        }
        let far = Pos::new(1000, 1000);
        assert_eq!(fitting.at(game, far), None, "no tile touches it");
    });
    assert!(spots > 1000, "only {spots} spots seen");
    assert!(
        none_fit > 0,
        "no spot without a fitting tile: the check saw no case"
    );
}

#[test]
fn g5_a_city_the_undrawn_tiles_cannot_close_counts_no_chance_to_complete() {
    let worths = std::sync::Arc::new(Default::default());
    let mut sees = Evaluator::new(std::sync::Arc::clone(&worths), Sight::Threats);
    let mut ends_only = Evaluator::new(worths, Sight::Baseline);
    let mut fitting = Fitting::default();
    let (mut with_dead, mut lowered) = (0, 0);
    for seed in 1..=4 {
        positions("tower", 2, seed, |game| {
            let seen: Vec<f32> = sees
                .terms(game)
                .expect("terms")
                .iter()
                .map(|t| t.cities)
                .collect();
            let ends: Vec<f32> = ends_only
                .terms(game)
                .expect("terms")
                .iter()
                .map(|t| t.cities)
                .collect();
            for (p, (s, e)) in seen.iter().zip(&ends).enumerate() {
                assert!(s <= e, "seed {seed}, player {p}: {s} above {e}");
                lowered += usize::from(s < e);
            }
            // A led city that no undrawn tile can close loses its chance,
            // so some leader's term is below the open ends' count.
            fitting.forget();
            if game.deck_left() > 0 && dead_cities(game, &mut fitting) > 0 {
                with_dead += 1;
                let below = seen.iter().zip(&ends).any(|(s, e)| s < e);
                assert!(below, "seed {seed}: a dead city kept its chance");
            }
        });
    }
    assert!(with_dead > 0, "no city was ever left unclosable");
    assert!(lowered > with_dead, "cities short of tiles are lowered too");
}

/// G8: `mcts`'s value counts a share of what a field's open cities would
/// pay its farmers, for the field's leaders only, never more than their
/// full 3 points each; the reference counts none.
#[test]
fn g8_a_led_field_counts_a_share_of_its_open_cities_for_its_leaders_alone() {
    let worths = std::sync::Arc::new(Default::default());
    let mut sees = Evaluator::new(std::sync::Arc::clone(&worths), Sight::Threats);
    let mut reference = Evaluator::new(worths, Sight::Baseline);
    let (mut counted, mut cities) = (0, Vec::new());
    for seed in 1..=4 {
        positions("tower", 2, seed, |game| {
            let farms: Vec<f32> = sees.terms(game).unwrap().iter().map(|t| t.farms).collect();
            let most = most_a_field_may_pay(game, &mut cities);
            for (p, &f) in farms.iter().enumerate() {
                assert!(
                    f >= 0.0 && f <= most[p] + 1e-3,
                    "seed {seed}, player {p}: {f}"
                );
                counted += usize::from(f > 0.0);
            }
            let none = reference
                .terms(game)
                .unwrap()
                .iter()
                .all(|t| t.farms == 0.0);
            assert!(none, "seed {seed}: the reference counted a farm");
        });
    }
    assert!(
        counted > 20,
        "a field's open cities counted {counted} times"
    );
}

/// Per player: the share of 3 points for each open city a field they lead
/// borders — what their farms could count at most, every city certain.
fn most_a_field_may_pay(game: &Game, cities: &mut Vec<u32>) -> Vec<f32> {
    let n = game.players().len();
    let mut on = Vec::new();
    game.meeples_by_feature(&mut on);
    let mut most = vec![0f32; n];
    let fs = game.features();
    let mut fields: Vec<u32> = on.iter().map(|&(f, _)| f).collect();
    fields.dedup();
    for field in fields
        .into_iter()
        .filter(|&f| fs.kind(f) == SegmentKind::Field)
    {
        let count = |p: usize| {
            on.iter()
                .filter(|&&(f, o)| f == field && o as usize == p)
                .count()
        };
        let top = (0..n).map(count).max().unwrap_or(0);
        game.open_cities_touching(field, cities);
        for p in (0..n).filter(|&p| count(p) == top) {
            most[p] += FARM_SHARE * 3.0 * cities.len() as f32;
        }
    }
    most
}

/// Open cities with a meeple on them and a cell no undrawn tile fits.
fn dead_cities(game: &Game, fitting: &mut Fitting) -> usize {
    let fs = game.features();
    let mut on = Vec::new();
    game.meeples_by_feature(&mut on);
    open_lines(game)
        .into_iter()
        .filter(|&r| fs.kind(r) == SegmentKind::City && on.iter().any(|&(f, _)| f == r))
        .filter(|&r| {
            let mut dead = false;
            game.open_cells(r, |c| dead |= fitting.at(game, c) == Some(0));
            dead
        })
        .count()
}
