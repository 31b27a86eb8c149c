//! Properties over many random games under the native Tower rules: meeples
//! are conserved, scores move only as the events say, every placed tile
//! matches its neighbours, the deck runs out, and a seed replays exactly.

use proptest::prelude::*;
use towerlab::kernel::geometry::Dir;
use towerlab::kernel::tiles::TileSet;
use towerlab::kernel::{
    Bot, Buffers, Event, Game, MEEPLES_PER_PLAYER, MeepleSpot, Stats, play_turn,
};
use towerlab::play::bots::RandomBot;
use towerlab::play::seed::game_seed;
use towerlab::play::sim::play_random;
use towerlab::rules::native::NativeTower;

use crate::common::tiles;

/// The master seed of the property runs.
const MASTER: u64 = 0x0070_17E5;

/// Games checked turn by turn.
const GAMES: u64 = 1000;

/// What a game leaves behind, for replay comparison.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    scores: Vec<u32>,
    stats: Stats,
    events: Vec<Event>,
}

fn bots(seed: u64, players: usize) -> Vec<Box<dyn Bot>> {
    (0..players)
        .map(|seat| Box::new(RandomBot::new(seed, seat)) as Box<dyn Bot>)
        .collect()
}

/// Play one game turn by turn, checking the invariants after every turn.
fn play_checked(tiles: &TileSet, rules: &NativeTower, players: usize, seed: u64) -> Outcome {
    let ctx = format!("{players} players, seed {seed}");
    let mut game = Game::new(tiles, rules, players, seed).expect("a game starts");
    game.record_events();
    let mut bots = bots(seed, players);
    let mut buf = Buffers::default();
    let floors_at_start = game.players()[0].floors[0];
    let mut floors_by = vec![0u32; players];
    let mut events = Vec::new();
    let mut scores = game.scores();
    loop {
        let more = play_turn(&mut game, &mut bots, &mut buf)
            .unwrap_or_else(|e| panic!("{ctx}: turn failed: {e:#}"));
        let new = game.take_events();
        if !more {
            events.extend(new);
            break;
        }
        check_scores(&ctx, &scores, &game.scores(), &new);
        for e in &new {
            if let Event::Floor { player, .. } = e {
                floors_by[*player] += 1;
            }
        }
        scores = game.scores();
        events.extend(new);
        check_pieces(&ctx, &game, floors_at_start, &floors_by);
    }
    game.final_scoring().unwrap();
    let new = game.take_events();
    check_scores(&ctx, &scores, &game.scores(), &new);
    for (after, before) in game.scores().iter().zip(&scores) {
        assert!(after >= before, "{ctx}: final scoring lowered a score");
    }
    assert!(
        matches!(new.last(), Some(Event::End { scores }) if *scores == game.scores()),
        "{ctx}: the game ends with an End event carrying the scores"
    );
    events.extend(new);
    check_pieces(&ctx, &game, floors_at_start, &floors_by);
    check_end(&ctx, &game);
    let ransom_points: u32 = events
        .iter()
        .map(|e| match e {
            Event::Ransom { cost, .. } => *cost,
            _ => 0,
        })
        .sum();
    assert_eq!(ransom_points, game.stats().ransom_points, "{ctx}");
    Outcome {
        scores: game.scores(),
        stats: game.stats().clone(),
        events,
    }
}

/// A turn changes each score by exactly the points scored and the ransoms
/// received, less the ransoms paid; nothing else lowers a score (T11, T12).
fn check_scores(ctx: &str, old: &[u32], new: &[u32], events: &[Event]) {
    for p in 0..old.len() {
        let (mut gained, mut paid) = (0i64, 0i64);
        for e in events {
            match e {
                Event::Score { player, points, .. } if *player == p => gained += *points,
                Event::Ransom {
                    player, to, cost, ..
                } => {
                    if *player == p {
                        paid += *cost as i64;
                    }
                    if *to == p {
                        gained += *cost as i64;
                    }
                }
                _ => {}
            }
        }
        assert_eq!(
            new[p] as i64 - old[p] as i64,
            gained - paid,
            "{ctx}: player {p}'s score moved from {} to {} with events {events:?}",
            old[p],
            new[p]
        );
        assert!(
            new[p] as i64 >= old[p] as i64 - paid,
            "{ctx}: player {p}'s score fell by more than the ransom paid"
        );
    }
}

/// Meeples (G3, T5, T10, T11), floors (T1, T3) and towers (T8) add up.
fn check_pieces(ctx: &str, game: &Game, floors_at_start: u32, floors_by: &[u32]) {
    let n = game.players().len();
    assert_eq!(floors_by.len(), n);
    for (p, &placed) in floors_by.iter().enumerate() {
        let on_board = game
            .meeples()
            .iter()
            .filter(|m| m.owner as usize == p)
            .count() as u32;
        let held: u32 = (0..n).map(|c| game.prisoners(c, p)).sum();
        let supply = game.players()[p].meeples as u32;
        assert_eq!(
            on_board + supply + held,
            MEEPLES_PER_PLAYER as u32,
            "{ctx}: player {p} has {on_board} on the board, {supply} in supply, {held} held"
        );
        assert_eq!(
            game.prisoners(p, p),
            0,
            "{ctx}: player {p} holds their own meeple"
        );
        for q in 0..n {
            assert!(
                game.prisoners(p, q) == 0 || game.prisoners(q, p) == 0,
                "{ctx}: players {p} and {q} hold each other's meeples without exchange (T10)"
            );
        }
        assert_eq!(
            game.players()[p].floors[0] + placed,
            floors_at_start,
            "{ctx}: player {p}'s floors"
        );
    }
    let on_towers: usize = game.towers().iter().map(|t| t.floors.len()).sum();
    assert_eq!(on_towers as u32, game.stats().floors_placed, "{ctx}");
    for (i, t) in game.towers().iter().enumerate() {
        let top = game
            .meeples()
            .iter()
            .find(|m| m.spot == MeepleSpot::Tower && m.pos == t.pos);
        assert_eq!(
            t.meeple,
            top.map(|m| m.owner),
            "{ctx}: tower {i} at {} and the meeple on it",
            t.pos
        );
        if t.meeple.is_some() {
            assert!(
                !t.floors.is_empty(),
                "{ctx}: a bare foundation is closed (T4)"
            );
        }
    }
    // Each feature's meeple count is the number of meeples standing on it.
    let features = game.features();
    for m in game.meeples() {
        if let MeepleSpot::Segment(s) = m.spot {
            let root = features.root(game.segment_id(m.pos, s).expect("on a tile"));
            let here = game
                .meeples()
                .iter()
                .filter(|o| match o.spot {
                    MeepleSpot::Segment(t) => {
                        features.root(game.segment_id(o.pos, t).expect("on a tile")) == root
                    }
                    MeepleSpot::Tower => false,
                })
                .count() as u32;
            assert_eq!(features.meeples(root), here, "{ctx}: meeples on a feature");
        }
    }
}

/// At the end: deck empty, every tile drawn was placed or discarded (G1, G9),
/// and every shared edge matches (G1).
fn check_end(ctx: &str, game: &Game) {
    assert_eq!(game.deck_left(), 0, "{ctx}");
    let stats = game.stats();
    assert_eq!(stats.turns + stats.discards, 89, "{ctx}: turns + discards");
    let board = game.board();
    assert_eq!(
        board.tiles().len() as u32,
        stats.turns + 1,
        "{ctx}: start tile + turns"
    );
    let kinds = &game.tiles().kinds;
    for t in board.tiles() {
        let mine = &kinds[t.kind as usize].rotations[t.rot as usize];
        let mut touching = 0;
        for d in Dir::ALL {
            let Some(o) = board.tile_at(t.pos.step(d)) else {
                continue;
            };
            touching += 1;
            let theirs = &kinds[o.kind as usize].rotations[o.rot as usize];
            assert_eq!(
                mine.edges[d.index()],
                theirs.edges[d.opposite().index()],
                "{ctx}: {} at {} and {} at {} meet across edge {}",
                kinds[t.kind as usize].name,
                t.pos,
                kinds[o.kind as usize].name,
                o.pos,
                d.letter()
            );
        }
        assert!(
            touching > 0 || board.tiles().len() == 1,
            "{ctx}: a tile touches none"
        );
    }
}

/// Over 1,000 random games of 2 to 6 players, every invariant holds after
/// every turn, and the tower machinery was exercised.
#[test]
fn invariants_hold_after_every_turn_of_a_thousand_games() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut totals = Stats::default();
    let mut per_count = [0u32; 7];
    for i in 0..GAMES {
        let players = 2 + (i % 5) as usize;
        let out = play_checked(&tiles, &rules, players, game_seed(MASTER, i));
        per_count[players] += 1;
        totals.captures += out.stats.captures;
        totals.own_captures += out.stats.own_captures;
        totals.exchanges += out.stats.exchanges;
        totals.ransoms += out.stats.ransoms;
        totals.floors_placed += out.stats.floors_placed;
    }
    assert!(per_count[2..].iter().all(|&n| n == 200), "{per_count:?}");
    // Not vacuous: every operation happened many times.
    assert!(totals.floors_placed > 10_000, "{totals:?}");
    assert!(totals.captures > 1_000, "{totals:?}");
    assert!(totals.own_captures > 100, "{totals:?}");
    assert!(totals.exchanges > 100, "{totals:?}");
    assert!(totals.ransoms > 100, "{totals:?}");
}

/// The same seed gives the same game: scores, counters and every event; and
/// the turn loop above plays the very game that `play_random` plays.
#[test]
fn a_seed_replays_exactly() {
    let tiles = tiles();
    let rules = NativeTower::default();
    for i in (0..GAMES).step_by(5) {
        let players = 2 + (i / 5 % 5) as usize;
        let seed = game_seed(MASTER, i);
        let first = play_checked(&tiles, &rules, players, seed);
        let again = play_checked(&tiles, &rules, players, seed);
        assert_eq!(first, again, "{players} players, seed {seed}");
        let game = play_random(&tiles, &rules, players, seed).expect("a game");
        assert_eq!(game.scores(), first.scores, "seed {seed}");
        assert_eq!(*game.stats(), first.stats, "seed {seed}");
    }
    // And different seeds give different games.
    let a = play_checked(&tiles, &rules, 4, game_seed(MASTER, 1));
    let b = play_checked(&tiles, &rules, 4, game_seed(MASTER, 2));
    assert_ne!(a.events, b.events);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Whatever the seed and the player count, a game plays to its end.
    #[test]
    fn the_game_loop_never_fails(seed in any::<u64>(), players in 2usize..=6) {
        let tiles = tiles();
        let rules = NativeTower::default();
        let game = play_random(&tiles, &rules, players, seed);
        prop_assert!(game.is_ok(), "{:#}", game.err().unwrap());
        let game = game.unwrap();
        prop_assert_eq!(game.deck_left(), 0);
        prop_assert_eq!(game.stats().turns + game.stats().discards, 89);
    }
}

/// A board's stamp names its content and nothing else: boards with the same
/// tiles placed in another order share it, a board with another tile has
/// another, and no counter of the process is involved (two games played
/// one after the other from the same seed end with the same stamp).
#[test]
fn a_board_s_stamp_is_a_function_of_its_tiles() {
    use towerlab::kernel::Board;
    use towerlab::kernel::geometry::Pos;
    let set = &tiles();
    let road = crate::common::kind(set, "base/L");
    let kind = &set.kinds[road as usize];
    let (a, b) = (Pos::new(0, 0), Pos::new(5, 5));
    let mut first = Board::new();
    first.place(road, kind, a, 0, 0);
    first.place(road, kind, b, 0, 0);
    let mut second = Board::new();
    second.place(road, kind, b, 0, 0);
    second.place(road, kind, a, 0, 0);
    assert_eq!(first.stamp(), second.stamp());
    let mut turned = Board::new();
    turned.place(road, kind, a, 0, 0);
    turned.place(road, kind, b, 1, 0);
    assert_ne!(first.stamp(), turned.stamp());
    assert_ne!(Board::new().stamp(), first.stamp());
    assert_eq!(Board::new().stamp(), Board::new().stamp());
    let end = |seed| {
        let rules = NativeTower::default();
        let mut game = Game::new(set, &rules, 2, seed).expect("a game starts");
        let (mut bots, mut buf) = (bots(seed, 2), Buffers::default());
        while play_turn(&mut game, &mut bots, &mut buf).expect("a turn") {}
        game.board().stamp()
    };
    assert_eq!(end(7), end(7));
}
