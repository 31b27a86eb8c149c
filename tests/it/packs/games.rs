//! Games: the scripted pack plays as the native rules, and captures stay inside the variant's range.

use super::*;

/// Play one game with random bots, recording its events.
pub(super) fn play_recorded<'a>(
    set: &'a Ruleset,
    rules: &'a dyn Rules,
    players: usize,
    seed: u64,
) -> Game<'a> {
    let mut game = Game::new(set.tiles(), rules, players, seed).expect("a game starts");
    game.record_events();
    let mut bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|seat| Box::new(RandomBot::new(seed, seat)) as Box<dyn Bot>)
        .collect();
    play_game(&mut game, &mut bots)
        .unwrap_or_else(|e| panic!("{players} players, seed {seed}: {e:#}"));
    game
}

/// Games per player count in the differential run (5 player counts).
pub(super) const DIFFERENTIAL_GAMES: u64 = 200;

/// T1–T12: the scripted `tower` pack and `native:tower` play identical games
/// from the same seeds: same events, same final scores, same counters.
#[test]
fn t1_t12_scripted_tower_plays_the_same_games_as_native_tower() {
    let totals = plays_the_same_games(&["tower"], &["native:tower"], 0x7043_0000);
    let sum = |f: fn(&Stats) -> u32| totals.iter().map(f).sum::<u32>();
    assert!(sum(|s| s.own_captures) > 0, "no own meeple taken back");
    assert!(sum(|s| s.exchanges) > 0, "no exchange");
    assert!(sum(|s| s.ransoms) > 0, "no ransom");
}

/// B1–B9: the scripted packs `tower,black-tower` and `native:black-tower`
/// play identical games from the same seeds, every floor kind placed.
#[test]
fn b1_b9_scripted_black_tower_plays_the_same_games_as_native_black_tower() {
    let totals = plays_the_same_games(
        &["tower", "black-tower"],
        &["native:black-tower"],
        0xb1b9_0000,
    );
    for (players, t) in (2..).zip(&totals) {
        for kind in 0..3 {
            let placed = t.floors_by_kind.get(kind).copied().unwrap_or(0);
            assert!(
                placed > 0,
                "{players} players: no floor of kind {kind} placed"
            );
        }
    }
}

/// Play `DIFFERENTIAL_GAMES` games for each player count from 2 to 6 with
/// the scripted `packs` and with the native rule set `native`, from the
/// same seeds, checking each pair is the same game; the counters of the
/// scripted games per player count, each with floors placed and captures.
fn plays_the_same_games(
    packs: &'static [&'static str],
    native: &'static [&'static str],
    seeds: u64,
) -> Vec<Stats> {
    let scripted = Take::Packs(packs).load();
    let native = Take::Packs(native).load();
    assert!(native.scripts().is_none() && scripted.scripts().is_some());
    let names =
        |s: &Ruleset| -> Vec<String> { s.tiles().kinds.iter().map(|k| k.name.clone()).collect() };
    assert_eq!(names(&scripted), names(&native), "the same tile set");
    let floors =
        |s: &Ruleset| -> Vec<String> { s.floors().iter().map(|f| f.name.clone()).collect() };
    assert_eq!(floors(&scripted), floors(&native), "the same floor kinds");
    let totals = std::thread::scope(|scope| {
        let workers: Vec<_> = (2..=6usize)
            .map(|players| {
                let (scripted, native) = (&scripted, &native);
                scope.spawn(move || {
                    let (s_rules, n_rules) = (scripted.rules(), native.rules());
                    let mut totals = Stats::default();
                    for i in 0..DIFFERENTIAL_GAMES {
                        let seed = game_seed(seeds + players as u64, i);
                        let a = play_recorded(scripted, s_rules.as_ref(), players, seed);
                        let b = play_recorded(native, n_rules.as_ref(), players, seed);
                        let ctx = format!("{players} players, seed {seed}");
                        assert_eq!(a.events(), b.events(), "{ctx}: events differ");
                        assert_eq!(a.scores(), b.scores(), "{ctx}: final scores differ");
                        assert_eq!(a.stats(), b.stats(), "{ctx}: counters differ");
                        let end = Event::End { scores: a.scores() };
                        assert_eq!(a.events().last(), Some(&end), "{ctx}: the game ends");
                        add(&mut totals, a.stats());
                    }
                    totals
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker finishes"))
            .collect::<Vec<_>>()
    });
    // The games exercised every part of the tower rules being compared.
    for (players, t) in (2..).zip(&totals) {
        assert!(t.floors_placed > 0, "{players} players: no floor placed");
        assert!(t.captures > 0, "{players} players: no capture");
    }
    totals
}

/// Add a game's counters of towers to `totals`.
fn add(totals: &mut Stats, s: &Stats) {
    totals.captures += s.captures;
    totals.own_captures += s.own_captures;
    totals.exchanges += s.exchanges;
    totals.ransoms += s.ransoms;
    totals.floors_placed += s.floors_placed;
    if totals.floors_by_kind.len() < s.floors_by_kind.len() {
        totals.floors_by_kind.resize(s.floors_by_kind.len(), 0);
    }
    for (t, n) in totals.floors_by_kind.iter_mut().zip(&s.floors_by_kind) {
        *t += n;
    }
}

// ---- games: captures stay inside the variant's range ------------------------

/// The range of a tower of `floors` on the tiles `board`, straight from
/// docs/rules.md for Black Tower with H1: the tower's tile; a white top nothing
/// (B7); a black top the 4 diagonals (B6), a regular top the 4 orthogonal
/// lines (T6, B5), each as far as the floors and cut at its first gap (H1).
pub(super) fn black_no_gaps_range(
    set: &Ruleset,
    floors: &[FloorKind],
    board: &BTreeSet<Cell>,
    tower: Cell,
) -> BTreeSet<Cell> {
    let top = set.floors()[*floors.last().expect("a tower has floors") as usize]
        .name
        .as_str();
    let dirs: &[Cell] = match top {
        "white" => return BTreeSet::new(),
        "black" => &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
        _ => &[(0, 1), (1, 0), (0, -1), (-1, 0)],
    };
    let mut cells = BTreeSet::from([(0, 0)]);
    for &(sx, sy) in dirs {
        for step in 1..=floors.len() as i32 {
            let c = (sx * step, sy * step);
            if !board.contains(&(tower.0 + c.0, tower.1 + c.1)) {
                break;
            }
            cells.insert(c);
        }
    }
    cells
}

/// Board tiles as offsets from `tower`.
pub(super) fn map_around(board: &BTreeSet<Cell>, tower: Cell) -> BoardMap {
    BoardMap {
        tiles: board
            .iter()
            .map(|&(x, y)| (x - tower.0, y - tower.1))
            .collect(),
    }
}

/// A random bot that, whenever it may capture, first checks that the
/// meeples offered are exactly those standing inside the variant's range.
pub(super) struct CheckingBot<'s> {
    inner: RandomBot,
    set: &'s Ruleset,
    rules: &'s dyn Rules,
    checked: &'s Counter<u32>,
}

impl Bot for CheckingBot<'_> {
    fn decide(&mut self, game: &Game, decision: Decision) -> anyhow::Result<usize> {
        if let Decision::Capture(options) = decision {
            let Some(Event::Floor { pos, floors, .. }) = game
                .events()
                .iter()
                .rev()
                .find(|e| matches!(e, Event::Floor { .. }))
            else {
                panic!("a capture without a floor placed");
            };
            let tower = (pos.x, pos.y);
            let board: BTreeSet<Cell> = game
                .board()
                .tiles()
                .iter()
                .map(|t| (t.pos.x, t.pos.y))
                .collect();
            let cells = query::capture_cells(
                self.rules,
                self.set.tiles(),
                floors,
                Some(&map_around(&board, tower)),
            )
            .expect("the range of a built tower");
            let by_hand = black_no_gaps_range(self.set, floors, &board, tower);
            assert_eq!(
                sorted(cells.iter().copied()),
                sorted(by_hand.iter().copied())
            );
            let offered: BTreeSet<usize> = options
                .iter()
                .filter_map(|o| match o {
                    CaptureChoice::Take { meeple } => Some(*meeple as usize),
                    CaptureChoice::Decline => None,
                })
                .collect();
            let inside: BTreeSet<usize> = game
                .meeples()
                .iter()
                .enumerate()
                .filter(|(_, m)| by_hand.contains(&(m.pos.x - tower.0, m.pos.y - tower.1)))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(offered, inside, "tower at {pos} with floors {floors:?}");
            self.checked.set(self.checked.get() + 1);
        }
        self.inner.decide(game, decision)
    }
}

/// B5–B7 + H1 in play: in black-tower-no-gaps games, every capture takes a
/// meeple inside the range the variant gives at that moment — replayed from
/// the events through `query::capture_cells` and by hand — and the capture
/// choices offered are exactly the meeples in that range. Also B4 and B7 on
/// the floors placed: black may begin a tower, white never does, and nothing
/// goes on a white floor.
#[test]
fn b6_h1_black_tower_no_gaps_games_capture_only_in_range() {
    let set = Take::Variant("black-tower-no-gaps").load();
    let rules = set.rules();
    let white = set.floor_kind("white").unwrap();
    let black = set.floor_kind("black").unwrap();
    let checked = Counter::new(0);
    let (mut captures, mut by_black, mut diagonal, mut whites) = (0, 0, 0, 0);
    let mut black_first = 0;
    for i in 0..200u64 {
        let players = 2 + (i as usize % 5);
        let seed = game_seed(0x00B1_AC70, i);
        let mut game = Game::new(set.tiles(), rules.as_ref(), players, seed).expect("a game");
        game.record_events();
        let mut bots: Vec<Box<dyn Bot + '_>> = (0..players)
            .map(|seat| {
                Box::new(CheckingBot {
                    inner: RandomBot::new(seed, seat),
                    set: &set,
                    rules: rules.as_ref(),
                    checked: &checked,
                }) as Box<dyn Bot + '_>
            })
            .collect();
        play_game(&mut game, &mut bots).unwrap_or_else(|e| panic!("seed {seed}: {e:#}"));
        // Replay the board from the events; check every capture against it.
        let mut board = BTreeSet::from([(0, 0)]);
        for e in game.events() {
            match e {
                Event::Tile { pos, .. } => {
                    assert!(board.insert((pos.x, pos.y)), "a tile placed twice at {pos}");
                }
                Event::Floor {
                    kind, floors, pos, ..
                } => {
                    // B4: black may start a tower; B7: white never does, and
                    // nothing goes on a white floor.
                    let below = &floors[..floors.len() - 1];
                    assert!(
                        !(below.is_empty() && *kind == white),
                        "seed {seed}: B7: white on a bare foundation at {pos}"
                    );
                    assert_ne!(below.last(), Some(&white), "seed {seed}: B7 at {pos}");
                    if *kind == white {
                        whites += 1;
                    }
                    if below.is_empty() && *kind == black {
                        black_first += 1;
                    }
                }
                Event::Capture {
                    tower, floors, at, ..
                } => {
                    let t = (tower.x, tower.y);
                    let d = (at.x - t.0, at.y - t.1);
                    let cells = query::capture_cells(
                        rules.as_ref(),
                        set.tiles(),
                        floors,
                        Some(&map_around(&board, t)),
                    )
                    .unwrap_or_else(|e| panic!("seed {seed}: {e:#}"));
                    let ctx = format!("seed {seed}: capture at {at} by tower {tower} {floors:?}");
                    assert!(cells.contains(&d), "{ctx}: outside {cells:?}");
                    let by_hand = black_no_gaps_range(&set, floors, &board, t);
                    assert!(by_hand.contains(&d), "{ctx}: outside {by_hand:?}");
                    assert_ne!(floors.last(), Some(&white), "{ctx}: B7");
                    captures += 1;
                    if floors.last() == Some(&black) {
                        by_black += 1;
                        if d != (0, 0) {
                            assert!(d.0 != 0 && d.1 != 0, "{ctx}: B6 takes no straight line");
                            diagonal += 1;
                        }
                    }
                }
                _ => {}
            }
        }
        let all: BTreeSet<Cell> = game
            .board()
            .tiles()
            .iter()
            .map(|t| (t.pos.x, t.pos.y))
            .collect();
        assert_eq!(board, all, "seed {seed}: the replayed board");
    }
    // The games exercised what they check.
    assert!(captures > 200, "{captures} captures");
    assert!(by_black > 20, "{by_black} captures by black towers");
    assert!(diagonal > 10, "{diagonal} diagonal captures");
    assert!(whites > 50, "{whites} white floors placed");
    assert!(black_first > 50, "{black_first} towers begun with black");
    assert!(
        checked.get() > 200,
        "{} capture choices checked",
        checked.get()
    );
}
