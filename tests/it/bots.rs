//! The greedy bot: it beats the random bot, takes what a position plainly
//! offers (a city to complete, G5; an opponent's meeple to capture, T5; a
//! ransom when its supply is empty, T11), plays every shipped variant without
//! error, and is deterministic.
//!
//! Hand-built positions are set up through the public operations of a game;
//! the bot is then asked one decision with the options the kernel lists.

use towerlab::kernel::geometry::Pos;
use towerlab::kernel::tiles::{SegmentKind, TileSet};
use towerlab::kernel::{
    Action, Bot, CaptureChoice, Decision, Game, MEEPLES_PER_PLAYER, Placement, RansomChoice, Rules,
    play_game,
};
use towerlab::play::bots::{GreedyBot, RandomBot, Sight};
use towerlab::play::seed::game_seed;
use towerlab::rules::native::NativeTower;
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common::{home, kind, tiles, variants_dir};

// ---- helpers -------------------------------------------------------------

/// A game whose deck still holds 60 tiles (never drawn here: the tests place
/// tiles themselves), so that the bot sees a game far from its end.
fn game<'a>(tiles: &'a TileSet, rules: &'a dyn Rules) -> Game<'a> {
    let deck: Vec<u16> = tiles.deck().into_iter().take(60).collect();
    Game::with_deck(tiles, rules, 2, deck).expect("a game starts")
}

/// End empty turns until it is `player`'s turn.
fn hand_to(g: &mut Game, player: usize) {
    while g.current() != player {
        g.end_turn().unwrap();
    }
}

fn at(x: i32, y: i32, rot: u8) -> Placement {
    Placement {
        pos: Pos::new(x, y),
        rot,
    }
}

/// The first segment of kind `what` of the tile at `pos`.
fn segment_of(g: &Game, pos: Pos, what: SegmentKind) -> u8 {
    let t = g.board().tile_at(pos).expect("a tile there");
    let k = &g.tiles().kinds[t.kind as usize];
    k.segments
        .iter()
        .position(|s| s.kind == what)
        .unwrap_or_else(|| panic!("{} has no {}", k.name, what.name())) as u8
}

/// On `player`'s turn, place `name` at (x, y) turned `rot`, put a meeple on
/// its segment of kind `on` (if any); the turn stays open.
fn place(
    g: &mut Game,
    player: usize,
    name: &str,
    x: i32,
    y: i32,
    rot: u8,
    on: Option<SegmentKind>,
) {
    hand_to(g, player);
    let k = kind(g.tiles(), name);
    g.place_tile(k, at(x, y, rot))
        .unwrap_or_else(|e| panic!("{name} at ({x}, {y}): {e}"));
    if let Some(what) = on {
        let segment = segment_of(g, Pos::new(x, y), what);
        g.act(Action::Meeple { segment })
            .unwrap_or_else(|e| panic!("meeple on {name}'s {}: {e}", what.name()));
    }
}

/// A whole turn of [`place`].
fn turn(g: &mut Game, player: usize, name: &str, x: i32, y: i32, rot: u8, on: Option<SegmentKind>) {
    place(g, player, name, x, y, rot, on);
    g.end_turn().unwrap();
}

/// On `player`'s turn, a cloister tile at the easternmost spot that takes
/// one, far from the situation under test; with a meeple on its cloister if
/// `meeple`. The turn stays open. Returns where.
fn filler(g: &mut Game, player: usize, meeple: bool) -> Pos {
    hand_to(g, player);
    let k = kind(g.tiles(), "base/L");
    let mut spots = Vec::new();
    g.placements(k, &mut spots).unwrap();
    let spot = *spots
        .iter()
        .max_by_key(|p| (p.pos.x, p.pos.y))
        .expect("a cloister tile fits somewhere");
    g.place_tile(k, spot).expect("a listed placement");
    if meeple {
        let segment = segment_of(g, spot.pos, SegmentKind::Cloister);
        g.act(Action::Meeple { segment })
            .expect("a meeple on the cloister");
    }
    spot.pos
}

fn actions(g: &Game) -> Vec<Action> {
    let mut out = Vec::new();
    g.actions(&mut out).expect("actions");
    out
}

fn captures(g: &mut Game) -> Vec<CaptureChoice> {
    let mut out = Vec::new();
    g.capture_choices(&mut out).expect("capture choices");
    out
}

fn ransoms(g: &Game) -> Vec<RansomChoice> {
    let mut out = Vec::new();
    g.ransom_choices(&mut out).expect("ransom choices");
    out
}

/// Play one game: seat `s` is greedy when `greedy(s)`, else random.
fn play<'a>(
    tiles: &'a TileSet,
    rules: &'a dyn Rules,
    players: usize,
    seed: u64,
    greedy: impl Fn(usize) -> bool,
) -> Game<'a> {
    let mut g = Game::new(tiles, rules, players, seed).expect("a game starts");
    let mut bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|s| {
            if greedy(s) {
                Box::new(GreedyBot::new(seed, s)) as Box<dyn Bot>
            } else {
                Box::new(RandomBot::new(seed, s)) as Box<dyn Bot>
            }
        })
        .collect();
    play_game(&mut g, &mut bots).unwrap_or_else(|e| panic!("seed {seed}: {e:#}"));
    g
}

/// G3, T5, T10, T11: every meeple is on the board, in its owner's supply or
/// held by an opponent, 7 per player.
fn assert_meeples_kept(g: &Game) {
    let n = g.players().len();
    for p in 0..n {
        let on_board = g.meeples().iter().filter(|m| m.owner as usize == p).count() as u32;
        let held: u32 = (0..n).map(|c| g.prisoners(c, p)).sum();
        assert_eq!(
            on_board + held + g.players()[p].meeples as u32,
            MEEPLES_PER_PLAYER as u32,
            "player {p}'s meeples"
        );
    }
}

// ---- strength ------------------------------------------------------------

/// Over 200 seeded 2-player games of The Tower, greedy (seat 0 in even
/// games, seat 1 in odd ones) against random. Measured on these seeds:
/// greedy won all 200, 161.7 points to 5.7 on average (a lead of 156.0, never
/// under 96); on 2,000 other seeds likewise (lead 155.5, never under 92). The
/// asserts leave a wide margin.
#[test]
fn greedy_beats_random_clearly() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let games = 200;
    let (mut diff, mut wins) = (0i64, 0f64);
    for i in 0..games {
        let seed = game_seed(2024, i);
        let seat = (i % 2) as usize;
        let g = play(&tiles, &rules, 2, seed, |s| s == seat);
        let s = g.scores();
        let (mine, theirs) = (s[seat] as i64, s[1 - seat] as i64);
        diff += mine - theirs;
        wins += match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
    }
    let mean = diff as f64 / games as f64;
    let share = wins / games as f64;
    assert!(share > 0.95, "greedy won {share:.3} of the games");
    assert!(mean > 100.0, "greedy led by {mean:.1} points on average");
}

// ---- hand-built positions -------------------------------------------------

/// G5: player 0's meeple stands on a 2-tile city with one open end; the
/// drawn base/C closes it only at (0, 2) turned 2 (city S): 3 tiles, no
/// pennant, 2 × 3 = 6 points. Greedy picks that placement among all.
#[test]
fn g5_greedy_completes_its_city_when_it_can() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = game(&tiles, &rules);
    // base/CFc.1 (city W–E) turned 1: city N–S; its S closes the start
    // tile's city N, its N stays open at (0, 2).
    turn(&mut g, 0, "base/CFc.1", 0, 1, 1, Some(SegmentKind::City));
    filler(&mut g, 1, false);
    g.end_turn().unwrap();
    hand_to(&mut g, 0);
    let c = kind(&tiles, "base/C");
    let mut options = Vec::new();
    g.placements(c, &mut options).unwrap();
    let closing = at(0, 2, 2);
    assert!(options.contains(&closing));
    assert!(options.len() > 10, "{} placements", options.len());
    let mut bot = GreedyBot::new(1, 0);
    let i = bot
        .decide(
            &g,
            Decision::Placement {
                tile: c,
                options: &options,
            },
        )
        .expect("the rules answer");
    assert_eq!(options[i], closing);
    // And it scores as G5 says.
    let before = g.scores()[0];
    g.place_tile(c, options[i]).unwrap();
    g.end_turn().unwrap();
    assert_eq!(g.scores()[0], before + 6);
}

/// Set up for T5: player 1's meeple on a cloister at (1, -1), beside a bare
/// foundation at (0, -1) (tower/F); player 0 has just placed a filler tile
/// in the east. Returns the tower's index.
fn capture_position(g: &mut Game) -> usize {
    // tower/F (all fields) under the start tile's field S.
    turn(g, 0, "tower/F", 0, -1, 0, None);
    turn(g, 1, "base/L", 1, -1, 0, Some(SegmentKind::Cloister));
    filler(g, 0, false);
    g.tower_at(Pos::new(0, -1)).expect("a foundation")
}

/// T5, T6: a first floor on the foundation reaches (1, -1), one tile east;
/// greedy builds it and takes player 1's meeple rather than putting a meeple
/// on its own new tile or passing.
fn greedy_captures(rules: &dyn Rules, tiles: &TileSet) {
    let mut g = game(tiles, rules);
    let tower = capture_position(&mut g);
    let options = actions(&g);
    assert!(
        options.iter().any(|a| matches!(a, Action::Meeple { .. })),
        "a meeple could go on the new tile too"
    );
    let mut bot = GreedyBot::new(3, 0);
    let i = bot
        .decide(&g, Decision::Action(&options))
        .expect("the rules answer");
    let Action::Floor { tower: t, kind } = options[i] else {
        panic!("greedy chose {:?} among {options:?}", options[i]);
    };
    assert_eq!(t as usize, tower);
    g.act(Action::Floor { tower: t, kind }).unwrap();
    let choices = captures(&mut g);
    let i = bot
        .decide(&g, Decision::Capture(&choices))
        .expect("the rules answer");
    let CaptureChoice::Take { meeple } = choices[i] else {
        panic!("greedy declined among {choices:?}");
    };
    let m = g.meeples()[meeple as usize];
    assert_eq!((m.owner, m.pos), (1, Pos::new(1, -1)));
    g.capture(meeple as usize).unwrap();
    assert_eq!(g.prisoners(0, 1), 1);
}

#[test]
fn t5_greedy_captures_an_opponents_meeple_with_a_floor() {
    greedy_captures(&NativeTower::default(), &tiles());
}

/// T5 at the start of a turn: player 1's meeple stands in reach of a first
/// floor on the foundation. Player 0, to move, could take it at once: their
/// initiative (what the `mcts` bot adds to the value of the positions its
/// search stops at) is worth something. Handed to player 1 in the same
/// position, with no meeple of player 0's in reach, it is worth nothing.
#[test]
fn t5_the_initiative_is_the_capture_the_player_to_move_could_make() {
    let (rules, tiles) = (NativeTower::default(), tiles());
    let mut g = game(&tiles, &rules);
    turn(&mut g, 0, "tower/F", 0, -1, 0, None);
    turn(&mut g, 1, "base/L", 1, -1, 0, Some(SegmentKind::Cloister));
    assert_eq!(g.current(), 0);
    let mut bot = GreedyBot::new(3, 0);
    let mover = bot.initiative(&g).expect("the rules answer");
    assert!(mover > 0.0, "player 0 could capture: {mover}");
    g.end_turn().unwrap();
    assert_eq!(g.current(), 1);
    let other = bot.initiative(&g).expect("the rules answer");
    assert_eq!(other, 0.0, "player 1 has nothing to capture");
}

/// The same under Black Tower: of its floor kinds, only one whose range
/// reaches (1, -1) serves (a black floor reaches diagonals only, B6; a white
/// one cannot go on a bare foundation, B7); the bot finds it through the
/// rules alone.
#[test]
fn b6_greedy_picks_a_floor_kind_that_reaches_the_meeple() {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "black-tower")
        .expect("the variant loads");
    let rules = set.rules();
    greedy_captures(rules.as_ref(), set.tiles());
}

/// T11: player 0 has 4 points, no meeple in supply and one held by player
/// 1: greedy pays the ransom. With meeples still in supply it declines.
#[test]
fn t11_greedy_pays_a_ransom_when_its_supply_is_empty() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = game(&tiles, &rules);
    // G5: base/C turned 2 closes the start tile's city: 2 × 2 = 4 points.
    turn(&mut g, 0, "base/C", 0, 1, 2, Some(SegmentKind::City));
    assert_eq!(g.scores(), vec![4, 0]);
    turn(&mut g, 1, "tower/F", 0, -1, 0, None);
    turn(&mut g, 0, "base/L", 1, -1, 0, Some(SegmentKind::Cloister));
    // Player 1 raises the tower and takes the cloister meeple (T5).
    filler(&mut g, 1, false);
    let tower = g.tower_at(Pos::new(0, -1)).unwrap() as u16;
    g.act(Action::Floor { tower, kind: 0 }).unwrap();
    let taken = g
        .meeples()
        .iter()
        .position(|m| m.pos == Pos::new(1, -1))
        .unwrap();
    g.capture(taken).unwrap();
    g.end_turn().unwrap();
    assert_eq!(g.prisoners(1, 0), 1);
    let mut bot = GreedyBot::new(5, 0);
    // Player 0 puts its other meeples on cloisters; before each, with
    // meeples in supply, it declines the ransom.
    while g.players()[0].meeples > 0 {
        filler(&mut g, 0, false);
        let choices = ransoms(&g);
        assert_eq!(choices.len(), 2, "{choices:?}");
        let i = bot
            .decide(&g, Decision::Ransom(&choices))
            .expect("the rules answer");
        assert_eq!(
            choices[i],
            RansomChoice::Decline,
            "with {} meeples in supply",
            g.players()[0].meeples
        );
        let segment = segment_of(
            &g,
            g.board().tiles().last().unwrap().pos,
            SegmentKind::Cloister,
        );
        g.act(Action::Meeple { segment }).unwrap();
        g.end_turn().unwrap();
        filler(&mut g, 1, false);
        g.end_turn().unwrap();
    }
    filler(&mut g, 0, false);
    let choices = ransoms(&g);
    assert_eq!(
        choices,
        vec![
            RansomChoice::Decline,
            RansomChoice::Pay { captor: 1, cost: 3 }
        ]
    );
    let i = bot
        .decide(&g, Decision::Ransom(&choices))
        .expect("the rules answer");
    assert_eq!(choices[i], RansomChoice::Pay { captor: 1, cost: 3 });
    g.pay_ransom(1).unwrap();
    assert_eq!(g.scores(), vec![1, 3]);
    assert_eq!(g.players()[0].meeples, 1);
}

// ---- robustness and determinism ---------------------------------------------

/// The shipped variants, by name.
fn shipped_variants() -> Vec<String> {
    let mut variants: Vec<String> = std::fs::read_dir(variants_dir())
        .expect("variants/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    variants.sort();
    assert!(variants.len() >= 7, "{variants:?}");
    variants
}

/// Play `games` games of each shipped variant, game `i` with 2 + i % 5
/// players (2 to 6 in turn), greedy in every seat except one random seat in
/// odd games: no error, every meeple accounted for at the end, and floors
/// placed in every variant with foundations (none in the base game alone).
fn every_variant(games: impl Fn(usize) -> std::ops::Range<u64>) {
    for (v, name) in shipped_variants().iter().enumerate() {
        let set = Ruleset::from_variant(&home(), &LoadOptions::default(), name)
            .expect("a shipped variant loads");
        let rules = set.rules();
        let mut floors = 0;
        for i in games(v) {
            let players = 2 + (i % 5) as usize;
            let seed = game_seed(77, i);
            let random_seat = (i % 2 == 1).then_some((i / 2) as usize % players);
            let g = play(set.tiles(), rules.as_ref(), players, seed, |s| {
                Some(s) != random_seat
            });
            assert_meeples_kept(&g);
            floors += g.stats().floors_placed;
        }
        // Floors in every variant that has foundations (the base game alone
        // has none: no floor can be placed).
        let towers = set.tiles().foundation_tiles() > 0;
        assert_eq!(floors > 0, towers, "{name}: {floors} floors placed");
    }
}

/// 210 games over all the shipped variants, 2 to 6 players: 30 games of
/// each variant (6 with each player count), which keeps the test quick in a
/// debug build; the long run below plays 200 of each.
#[test]
fn greedy_plays_every_shipped_variant_without_error() {
    every_variant(|v| 30 * v as u64..30 * (v as u64 + 1));
}

/// The long run: 200 games of every shipped variant (40 with each player
/// count). About a minute in a debug build; `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn greedy_plays_200_games_of_every_shipped_variant_without_error() {
    every_variant(|_| 0..200);
}

/// Same seed, same game: every event and score, under Black Tower.
#[test]
fn greedy_same_seed_same_game() {
    let set = Ruleset::from_variant(&home(), &LoadOptions::default(), "black-tower")
        .expect("the variant loads");
    let rules = set.rules();
    let run = |seed: u64| {
        let mut g = Game::new(set.tiles(), rules.as_ref(), 3, seed).unwrap();
        g.record_events();
        let mut bots: Vec<Box<dyn Bot>> = (0..3)
            .map(|s| Box::new(GreedyBot::new(seed, s)) as Box<dyn Bot>)
            .collect();
        play_game(&mut g, &mut bots).unwrap();
        (g.events().to_vec(), g.scores())
    };
    for seed in [1, 2, 3] {
        let (a, b) = (run(seed), run(seed));
        assert!(a.0.len() > 100);
        assert_eq!(a, b, "seed {seed}");
    }
    assert_ne!(run(1).0, run(2).0);
}

/// Ties are broken on the bot's own stream: two bots of different game
/// seeds, in one position where many placements are worth the same, do not
/// all choose alike.
#[test]
fn greedy_breaks_ties_on_its_own_stream() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let g = game(&tiles, &rules);
    // A lone road tile: no meeple stands anywhere, so no placement changes
    // any player's standing and many tie.
    let k = kind(&tiles, "base/RFr");
    let mut options = Vec::new();
    g.placements(k, &mut options).unwrap();
    let picks: Vec<Placement> = (0..20)
        .map(|seed| {
            let i = GreedyBot::new(seed, 0)
                .decide(
                    &g,
                    Decision::Placement {
                        tile: k,
                        options: &options,
                    },
                )
                .expect("the rules answer");
            options[i]
        })
        .collect();
    let mut distinct = picks.clone();
    distinct.sort_by_key(|p| (p.pos, p.rot));
    distinct.dedup();
    assert!(distinct.len() > 1, "{picks:?}");
    // The same seed picks the same.
    let again = GreedyBot::new(0, 0)
        .decide(
            &g,
            Decision::Placement {
                tile: k,
                options: &options,
            },
        )
        .expect("the rules answer");
    assert_eq!(options[again], picks[0]);
}

/// A floor's later worth: under a rule where a tower captures only from its
/// second floor (`tests/packs/second-floor`), greedy builds — it leaves at
/// most half its floors unused — where the reference's greedy
/// (`Sight::Baseline`), which weighs only what a floor takes at once,
/// leaves most of them in its supply.
#[test]
fn greedy_builds_where_a_floor_captures_only_from_the_second_floor_on() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/second-floor");
    let packs = ["tower".to_string(), dir.to_string_lossy().into_owned()];
    let set =
        Ruleset::from_packs(&home(), &LoadOptions::default(), &packs).expect("the test pack loads");
    let rules = set.rules();
    // Floors (left unused, dealt) over a few games of two bots of `sight`.
    let unused = |sight: Sight| {
        let (mut left, mut dealt) = (0, 0);
        for seed in 1..=4 {
            let seed = game_seed(5, seed);
            let mut game = Game::new(set.tiles(), rules.as_ref(), 2, seed).unwrap();
            dealt += game.players().iter().flat_map(|p| &p.floors).sum::<u32>();
            let mut bots: Vec<Box<dyn Bot>> = (0..2)
                .map(|s| {
                    let bot = GreedyBot::with_sight(seed, s, set.worths().clone(), sight);
                    Box::new(bot) as Box<dyn Bot>
                })
                .collect();
            play_game(&mut game, &mut bots).unwrap();
            left += game.players().iter().flat_map(|p| &p.floors).sum::<u32>();
        }
        (left, dealt)
    };
    let (left, dealt) = unused(Sight::Ahead);
    assert!(2 * left <= dealt, "greedy left {left} of {dealt} floors");
    let (left, dealt) = unused(Sight::Baseline);
    assert!(
        2 * left > dealt,
        "the reference's greedy left only {left} of {dealt}"
    );
}
