//! The rule packs against the rules they implement (docs/rules.md T, B, H): the
//! scripted `tower` pack against the native reference rules, each rule's
//! examples through the library and through `towerlab range`, and the
//! captures of played Black Tower games against the range the variant gives.
//!
//! Every expected cell set below is worked out by hand from docs/rules.md; the
//! board pictures carry north up, `T` the tower's tile, `#` a tile, `.` none.

use std::cell::Cell as Counter;
use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use towerlab::kernel::diag::Source;
use towerlab::kernel::{
    Asking, Board, Bot, CaptureChoice, Decision, Event, FloorKind, Game, Rules, StackView, Stats,
    Table, play_game,
};
use towerlab::play::bots::RandomBot;
use towerlab::play::query::{self, BoardMap};
use towerlab::play::seed::game_seed;
use towerlab::rules::Ruleset;

use crate::common::{home, towerlab};

/// An offset from the tower's tile: (dx east, dy north).
type Cell = (i32, i32);

// ---- the rules and their questions ------------------------------------------

/// Where a case's rules come from: a shipped variant or a pack list.
#[derive(Clone, Copy, Debug)]
enum Take {
    Variant(&'static str),
    Packs(&'static [&'static str]),
}

impl Take {
    fn load(self) -> Ruleset {
        let loaded = match self {
            Take::Variant(v) => Ruleset::from_variant(&home(), v),
            Take::Packs(p) => {
                let packs: Vec<String> = p.iter().map(|s| s.to_string()).collect();
                Ruleset::from_packs(&home(), &packs)
            }
        };
        loaded.unwrap_or_else(|e| panic!("{self:?} loads: {e:#}"))
    }

    /// The command-line flags that select these rules.
    fn flags(self) -> Vec<String> {
        match self {
            Take::Variant(v) => vec!["--variant".into(), v.into()],
            Take::Packs(p) => vec!["--packs".into(), p.join(",")],
        }
    }
}

/// The floor stack `names` (bottom to top) as floor kinds of `set`.
fn stack(set: &Ruleset, names: &[&str]) -> Vec<FloorKind> {
    names
        .iter()
        .map(|n| set.floor_kind(n).unwrap_or_else(|e| panic!("{e:#}")))
        .collect()
}

/// A tower of `floors`, with no meeple on top.
fn view(floors: &[FloorKind]) -> StackView<'_> {
    StackView {
        floors,
        topped: false,
    }
}

/// May seat 0 of two put a floor of `kind` on `stack`, outside a game?
fn may_place(rules: &dyn Rules, stack: &StackView, kind: FloorKind) -> bool {
    let board = Board::new();
    let table = Table::bare(&board, 2);
    let asking = Asking {
        seat: 0,
        owner: None,
        table: &table,
    };
    rules.may_place_floor(stack, kind, &asking).unwrap().yes
}

/// May seat 0 of two put a meeple on top of `stack`, outside a game?
fn may_top(rules: &dyn Rules, stack: &StackView) -> bool {
    let board = Board::new();
    let table = Table::bare(&board, 2);
    let asking = Asking {
        seat: 0,
        owner: None,
        table: &table,
    };
    rules.may_top(stack, &asking).unwrap().yes
}

fn board_map(text: &str) -> BoardMap {
    BoardMap::parse(&Source::new("board", text)).unwrap_or_else(|e| panic!("{e:#}"))
}

fn sorted(cells: impl IntoIterator<Item = Cell>) -> Vec<Cell> {
    let mut v: Vec<Cell> = cells.into_iter().collect();
    v.sort_unstable();
    v
}

/// What `query::capture_cells` (the library behind `towerlab range`) says,
/// sorted.
fn library_cells(set: &Ruleset, floors: &[&str], board: Option<&str>) -> Vec<Cell> {
    let rules = set.rules();
    let map = board.map(board_map);
    let cells = query::capture_cells(
        rules.as_ref(),
        &set.tiles,
        &stack(set, floors),
        map.as_ref(),
    )
    .unwrap_or_else(|e| panic!("{} with {floors:?}: {e:#}", set.name));
    sorted(cells)
}

// ---- the rule pages' examples -------------------------------------------

/// One range example: a tower of `floors` under `rules`, on `board` (every
/// cell a tile when `None`), captures on exactly `cells`.
struct Case {
    rule: &'static str,
    rules: Take,
    floors: &'static [&'static str],
    board: Option<&'static str>,
    cells: &'static [Cell],
}

/// Gaps right next to the tower, tiles two away in each direction.
const BOARD_GAPS: &str = "\
..#..
.....
#.T.#
.....
..#..
";

/// Lines of tiles with gaps at various distances: north (0,2), south (0,-1),
/// west (-2,0) are empty, east is full; the column x = 1 is full, so tiles
/// beyond a gap can be reached around it off the tower's lines.
const BOARD_LINES: &str = "\
...##..
....#..
...##..
#.#T###
....#..
...##..
...#...
";

/// Diagonals: north-east full, south-east cut at (2,-2), north-west and
/// south-west cut next to the tower; orthogonal neighbours all tiles.
const BOARD_DIAGONALS: &str = "\
#...#
..##.
.#T#.
..##.
#....
";

/// (0,1) and (-1,0) are empty: (0,2) and (-2,0) can be reached only by
/// detours of 4 orthogonal steps, (0,3) by one of 5; (2,2) is 4 steps away.
const BOARD_DETOUR: &str = "\
...#...
...###.
....#..
.#.T##.
.###...
";

/// T6: the tower's tile and `floors` tiles in each orthogonal direction,
/// over gaps.
const T6_CASES: &[Case] = &[
    Case {
        rule: "T6",
        rules: Take::Variant("tower"),
        floors: &["regular"],
        board: None,
        cells: &[(0, 0), (0, 1), (1, 0), (0, -1), (-1, 0)],
    },
    Case {
        rule: "T6",
        rules: Take::Variant("tower"),
        floors: &["regular", "regular"],
        board: None,
        cells: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 0),
            (2, 0),
            (0, -1),
            (0, -2),
            (-1, 0),
            (-2, 0),
        ],
    },
    Case {
        rule: "T6",
        rules: Take::Variant("tower"),
        floors: &["regular", "regular"],
        board: Some(BOARD_GAPS),
        cells: &[(0, 0), (0, 2), (2, 0), (0, -2), (-2, 0)],
    },
    Case {
        rule: "T6",
        rules: Take::Variant("tower"),
        floors: &["regular"],
        board: Some(BOARD_GAPS),
        cells: &[(0, 0)],
    },
    Case {
        rule: "T6",
        rules: Take::Variant("tower"),
        floors: &["regular", "regular", "regular"],
        board: Some(BOARD_LINES),
        cells: &[
            (0, 0),
            (0, 1),
            (0, 3),
            (1, 0),
            (2, 0),
            (3, 0),
            (0, -2),
            (0, -3),
            (-1, 0),
            (-3, 0),
        ],
    },
];

/// B6: a black top captures along the diagonals only, as far as the total
/// number of floors; its own tile stays in range (Ruling).
const B6_CASES: &[Case] = &[
    Case {
        rule: "B6",
        rules: Take::Variant("black-tower"),
        floors: &["black"],
        board: None,
        cells: &[(0, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)],
    },
    Case {
        rule: "B6",
        rules: Take::Variant("black-tower"),
        floors: &["black", "black"],
        board: None,
        cells: &[
            (0, 0),
            (1, 1),
            (2, 2),
            (1, -1),
            (2, -2),
            (-1, 1),
            (-2, 2),
            (-1, -1),
            (-2, -2),
        ],
    },
    // All colours count: a regular floor under the black top adds reach.
    Case {
        rule: "B6",
        rules: Take::Variant("black-tower"),
        floors: &["regular", "black"],
        board: None,
        cells: &[
            (0, 0),
            (1, 1),
            (2, 2),
            (1, -1),
            (2, -2),
            (-1, 1),
            (-2, 2),
            (-1, -1),
            (-2, -2),
        ],
    },
    // Without H1 the diagonals pass over gaps, and never take the tiles
    // orthogonally next to the tower.
    Case {
        rule: "B6",
        rules: Take::Variant("black-tower"),
        floors: &["regular", "black"],
        board: Some(BOARD_DIAGONALS),
        cells: &[(0, 0), (1, 1), (2, 2), (1, -1), (-2, 2), (-2, -2)],
    },
];

/// B5: the top floor decides; a regular floor restores orthogonal capture.
const B5_CASES: &[Case] = &[
    Case {
        rule: "B5",
        rules: Take::Variant("black-tower"),
        floors: &["black", "regular"],
        board: None,
        cells: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 0),
            (2, 0),
            (0, -1),
            (0, -2),
            (-1, 0),
            (-2, 0),
        ],
    },
    Case {
        rule: "B5",
        rules: Take::Variant("black-tower"),
        floors: &["black", "black", "regular"],
        board: Some(BOARD_LINES),
        cells: &[
            (0, 0),
            (0, 1),
            (0, 3),
            (1, 0),
            (2, 0),
            (3, 0),
            (0, -2),
            (0, -3),
            (-1, 0),
            (-3, 0),
        ],
    },
    // A regular tower of 3 floors on the same board: the black floors below
    // changed nothing.
    Case {
        rule: "B5",
        rules: Take::Variant("black-tower"),
        floors: &["regular", "regular", "regular"],
        board: Some(BOARD_LINES),
        cells: &[
            (0, 0),
            (0, 1),
            (0, 3),
            (1, 0),
            (2, 0),
            (3, 0),
            (0, -2),
            (0, -3),
            (-1, 0),
            (-3, 0),
        ],
    },
];

/// B7: a white tower captures nothing, not even when its white floor is
/// placed (Ruling), whatever lies below it.
const B7_CASES: &[Case] = &[
    Case {
        rule: "B7",
        rules: Take::Variant("black-tower"),
        floors: &["regular", "white"],
        board: None,
        cells: &[],
    },
    Case {
        rule: "B7",
        rules: Take::Variant("black-tower"),
        floors: &["black", "black", "white"],
        board: None,
        cells: &[],
    },
    Case {
        rule: "B7",
        rules: Take::Variant("black-tower-no-gaps"),
        floors: &["black", "regular", "white"],
        board: Some(BOARD_DIAGONALS),
        cells: &[],
    },
];

/// H1: the range stops at the first empty space; along diagonals too with a
/// black tower (Ruling).
const H1_CASES: &[Case] = &[
    Case {
        rule: "H1",
        rules: Take::Variant("tower-no-gaps"),
        floors: &["regular", "regular"],
        board: Some(BOARD_GAPS),
        cells: &[(0, 0)],
    },
    Case {
        rule: "H1",
        rules: Take::Variant("tower-no-gaps"),
        floors: &["regular"],
        board: Some(BOARD_LINES),
        cells: &[(0, 0), (0, 1), (1, 0), (-1, 0)],
    },
    Case {
        rule: "H1",
        rules: Take::Variant("tower-no-gaps"),
        floors: &["regular", "regular"],
        board: Some(BOARD_LINES),
        cells: &[(0, 0), (0, 1), (1, 0), (2, 0), (-1, 0)],
    },
    // North stops before (0,2), south before (0,-1), west before (-2,0);
    // the tiles of column x = 1 lead around the gaps but off the lines.
    Case {
        rule: "H1",
        rules: Take::Variant("tower-no-gaps"),
        floors: &["regular", "regular", "regular"],
        board: Some(BOARD_LINES),
        cells: &[(0, 0), (0, 1), (1, 0), (2, 0), (3, 0), (-1, 0)],
    },
    Case {
        rule: "H1",
        rules: Take::Variant("black-tower-no-gaps"),
        floors: &["black", "black"],
        board: Some(BOARD_DIAGONALS),
        cells: &[(0, 0), (1, 1), (2, 2), (1, -1)],
    },
    Case {
        rule: "H1",
        rules: Take::Variant("black-tower-no-gaps"),
        floors: &["regular", "black"],
        board: Some(BOARD_DIAGONALS),
        cells: &[(0, 0), (1, 1), (2, 2), (1, -1)],
    },
    // With the full board nothing is cut: all 4 diagonals, 2 deep.
    Case {
        rule: "H1",
        rules: Take::Variant("black-tower-no-gaps"),
        floors: &["regular", "black"],
        board: None,
        cells: &[
            (0, 0),
            (1, 1),
            (2, 2),
            (1, -1),
            (2, -2),
            (-1, 1),
            (-2, 2),
            (-1, -1),
            (-2, -2),
        ],
    },
    // B5 under H1: the restored regular tower is cut on its lines; every
    // orthogonal neighbour is a tile, the cells 2 away are not.
    Case {
        rule: "H1",
        rules: Take::Variant("black-tower-no-gaps"),
        floors: &["black", "regular"],
        board: Some(BOARD_DIAGONALS),
        cells: &[(0, 0), (0, 1), (1, 0), (0, -1), (-1, 0)],
    },
];

/// H3: range = floors - 1.
const H3_CASES: &[Case] = &[
    Case {
        rule: "H3",
        rules: Take::Variant("tower-no-surprises"),
        floors: &["regular"],
        board: None,
        cells: &[(0, 0)],
    },
    Case {
        rule: "H3",
        rules: Take::Variant("tower-no-surprises"),
        floors: &["regular", "regular"],
        board: None,
        cells: &[(0, 0), (0, 1), (1, 0), (0, -1), (-1, 0)],
    },
    Case {
        rule: "H3",
        rules: Take::Variant("tower-no-surprises"),
        floors: &["regular", "regular", "regular"],
        board: None,
        cells: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 0),
            (2, 0),
            (0, -1),
            (0, -2),
            (-1, 0),
            (-2, 0),
        ],
    },
];

/// H4: a tile is in range within `floors` orthogonal steps (|dx| + |dy|).
const H4_CASES: &[Case] = &[
    Case {
        rule: "H4",
        rules: Take::Variant("tower-diagonal-steps"),
        floors: &["regular"],
        board: None,
        cells: &[(0, 0), (0, 1), (1, 0), (0, -1), (-1, 0)],
    },
    Case {
        rule: "H4",
        rules: Take::Variant("tower-diagonal-steps"),
        floors: &["regular", "regular"],
        board: None,
        cells: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (1, 0),
            (2, 0),
            (0, -1),
            (0, -2),
            (-1, 0),
            (-2, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ],
    },
    // Over gaps, like T6: every tile of the diamond but (2,2) (4 steps).
    Case {
        rule: "H4",
        rules: Take::Variant("tower-diagonal-steps"),
        floors: &["regular", "regular", "regular"],
        board: Some(BOARD_DETOUR),
        cells: &[
            (0, 0),
            (0, 3),
            (0, 2),
            (1, 2),
            (1, 1),
            (-2, 0),
            (1, 0),
            (2, 0),
            (-2, -1),
            (-1, -1),
            (0, -1),
        ],
    },
];

/// Packs combined: H1 with H3 on a black tower; H1 with H4.
const COMBO_CASES: &[Case] = &[
    // B6 + H3: reach = floors - 1 along the diagonals; + H1: cut at gaps.
    Case {
        rule: "H1+H3",
        rules: Take::Packs(&[
            "tower",
            "black-tower",
            "house/no-gaps",
            "house/no-surprises",
        ]),
        floors: &["black"],
        board: Some(BOARD_DIAGONALS),
        cells: &[(0, 0)],
    },
    Case {
        rule: "H1+H3",
        rules: Take::Packs(&[
            "tower",
            "black-tower",
            "house/no-gaps",
            "house/no-surprises",
        ]),
        floors: &["black", "black"],
        board: Some(BOARD_DIAGONALS),
        cells: &[(0, 0), (1, 1), (1, -1)],
    },
    Case {
        rule: "H1+H3",
        rules: Take::Packs(&[
            "tower",
            "black-tower",
            "house/no-gaps",
            "house/no-surprises",
        ]),
        floors: &["regular", "black", "black"],
        board: Some(BOARD_DIAGONALS),
        cells: &[(0, 0), (1, 1), (2, 2), (1, -1)],
    },
    // The house rules in the other order answer the same.
    Case {
        rule: "H1+H3",
        rules: Take::Packs(&[
            "tower",
            "black-tower",
            "house/no-surprises",
            "house/no-gaps",
        ]),
        floors: &["regular", "black", "black"],
        board: Some(BOARD_DIAGONALS),
        cells: &[(0, 0), (1, 1), (2, 2), (1, -1)],
    },
    Case {
        rule: "H1+H3",
        rules: Take::Packs(&[
            "tower",
            "black-tower",
            "house/no-gaps",
            "house/no-surprises",
        ]),
        floors: &["black", "black", "regular"],
        board: Some(BOARD_DIAGONALS),
        cells: &[(0, 0), (0, 1), (1, 0), (0, -1), (-1, 0)],
    },
    // H4 + H1, 3 floors: shortest paths through tiles inside the diamond:
    // (1,0) 1, (0,-1) 1, (2,0) 2, (1,1) 2, (-1,-1) 2, (1,2) 3, (-2,-1) 3;
    // (0,2) and (-2,0) need 4 steps, (0,3) 5: out.
    Case {
        rule: "H1+H4",
        rules: Take::Packs(&["tower", "house/diagonal-steps", "house/no-gaps"]),
        floors: &["regular", "regular", "regular"],
        board: Some(BOARD_DETOUR),
        cells: &[
            (0, 0),
            (1, 0),
            (0, -1),
            (2, 0),
            (1, 1),
            (-1, -1),
            (1, 2),
            (-2, -1),
        ],
    },
    // 4 floors: the 4-step detours now fit, and (2,2) is in the diamond;
    // (0,3) still needs 5.
    Case {
        rule: "H1+H4",
        rules: Take::Packs(&["tower", "house/diagonal-steps", "house/no-gaps"]),
        floors: &["regular", "regular", "regular", "regular"],
        board: Some(BOARD_DETOUR),
        cells: &[
            (0, 0),
            (1, 0),
            (0, -1),
            (2, 0),
            (1, 1),
            (-1, -1),
            (1, 2),
            (-2, -1),
            (0, 2),
            (-2, 0),
            (2, 2),
        ],
    },
    // Plain H1 on the same board, for contrast: only the lines.
    Case {
        rule: "H1",
        rules: Take::Variant("tower-no-gaps"),
        floors: &["regular", "regular", "regular"],
        board: Some(BOARD_DETOUR),
        cells: &[(0, 0), (1, 0), (2, 0), (0, -1)],
    },
];

/// Check every case through the library against its hand-worked cells.
fn check_library(cases: &[Case]) {
    for case in cases {
        let expected = sorted(case.cells.iter().copied());
        let unique: BTreeSet<Cell> = case.cells.iter().copied().collect();
        assert_eq!(unique.len(), case.cells.len(), "a cell listed twice");
        let set = case.rules.load();
        assert_eq!(
            library_cells(&set, case.floors, case.board),
            expected,
            "{}: {:?} with floors {:?} on {:?}",
            case.rule,
            case.rules,
            case.floors,
            case.board
        );
    }
}

// ---- T: The Tower ----------------------------------------------------------

#[test]
fn t6_one_floor_range_is_five_tiles_in_the_tower_pack() {
    check_library(&T6_CASES[..1]);
}

#[test]
fn t6_two_floors_reach_nine_tiles() {
    check_library(&T6_CASES[1..2]);
}

#[test]
fn t6_range_passes_over_gaps() {
    check_library(&T6_CASES[2..]);
}

/// T6: the native reference rules give the same ranges as the scripted pack.
#[test]
fn t6_native_tower_ranges_match_the_scripted_pack() {
    let native = Take::Packs(&["native:tower"]).load();
    for case in T6_CASES {
        assert_eq!(
            library_cells(&native, case.floors, case.board),
            sorted(case.cells.iter().copied()),
            "native:tower with {:?} on {:?}",
            case.floors,
            case.board
        );
    }
}

// ---- B: Black Tower --------------------------------------------------------

/// B2 (and T1 for the regular floors it replaces): floors per player.
#[test]
fn b2_floor_supply_per_player_count() {
    let set = Take::Variant("black-tower").load();
    let rules = set.rules();
    // (players, black, white, regular), from B2's table.
    let table = [
        (2, 4, 2, 8),
        (3, 3, 2, 7),
        (4, 3, 1, 6),
        (5, 2, 1, 5),
        (6, 2, 1, 4),
    ];
    for (players, black, white, regular) in table {
        let got = supply(&set, rules.as_ref(), players, 18);
        assert_eq!(got, (regular, black, white), "{players} players");
    }
    assert_eq!(set.tiles.foundation_tiles(), 18, "G9: 18 Tower tiles");
    // A game starts with exactly that supply for every player.
    for (players, black, white, regular) in table {
        let game = Game::new(&set.tiles, rules.as_ref(), players, 7).expect("a game starts");
        for p in game.players() {
            let per_kind = |name: &str| p.floors[set.floor_kind(name).unwrap() as usize];
            assert_eq!(
                (per_kind("regular"), per_kind("black"), per_kind("white")),
                (regular, black, white),
                "{players} players in a game"
            );
        }
    }
}

/// B1: 12 black and 6 white floors join The Tower's: the variant's floor
/// kinds are The Tower's `regular`, then `black` and `white`, and no setup
/// hands out more black or white floors than the box holds, six players
/// taking them all.
#[test]
fn b1_twelve_black_and_six_white_floors_join_the_towers() {
    let set = Take::Variant("black-tower").load();
    let names: Vec<&str> = set.floors.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["regular", "black", "white"]);
    let rules = set.rules();
    for players in 2..=6u32 {
        let (_, black, white) = supply(&set, rules.as_ref(), players as usize, 18);
        assert!(
            black * players <= 12,
            "{players} players: {black} black each"
        );
        assert!(
            white * players <= 6,
            "{players} players: {white} white each"
        );
        if players == 6 {
            assert_eq!((black * players, white * players), (12, 6));
        }
    }
}

/// (regular, black, white) floors per player.
fn supply(set: &Ruleset, rules: &dyn Rules, players: usize, foundations: usize) -> (u32, u32, u32) {
    let s = rules
        .floor_supply(players, foundations)
        .unwrap_or_else(|e| panic!("{e:#}"));
    let of = |name: &str| s[set.floor_kind(name).unwrap() as usize];
    (of("regular"), of("black"), of("white"))
}

/// B3: per 4 extra foundation tiles +1 black and +2 regular; with 8 or more
/// extra, +1 white in a 4–6 player game; never more than 2 white.
#[test]
fn b3_extra_foundation_tiles_add_floors() {
    let set = Take::Variant("black-tower").load();
    let rules = set.rules();
    // (extra, players, regular, black, white)
    let table = [
        (4, 2, 10, 5, 2),
        (4, 3, 9, 4, 2),
        (4, 4, 8, 4, 1),
        (4, 5, 7, 3, 1),
        (4, 6, 6, 3, 1),
        (8, 2, 12, 6, 2),
        (8, 3, 11, 5, 2),
        (8, 4, 10, 5, 2),
        (8, 5, 9, 4, 2),
        (8, 6, 8, 4, 2),
        (12, 2, 14, 7, 2),
        (12, 3, 13, 6, 2),
        (12, 4, 12, 6, 2),
        (12, 5, 11, 5, 2),
        (12, 6, 10, 5, 2),
        // Fewer than 4 extra: B2's table unchanged.
        (3, 2, 8, 4, 2),
        (3, 6, 4, 2, 1),
        (7, 4, 8, 4, 1),
    ];
    for (extra, players, regular, black, white) in table {
        assert_eq!(
            supply(&set, rules.as_ref(), players, 18 + extra),
            (regular, black, white),
            "{players} players, {extra} extra foundation tiles"
        );
    }
    for players in 2..=6 {
        for extra in 0..=60 {
            let (_, _, white) = supply(&set, rules.as_ref(), players, 18 + extra);
            assert!(
                white <= 2,
                "{players} players, {extra} extra: {white} white"
            );
        }
    }
}

/// B4: a black floor goes on a foundation, on a regular or black top, never
/// on a white tower nor on a closed one.
#[test]
fn b4_black_floor_on_foundation_regular_black_not_white() {
    let set = Take::Variant("black-tower").load();
    let rules = set.rules();
    let black = set.floor_kind("black").unwrap();
    for (below, allowed) in [
        (&[][..], true),
        (&["regular"][..], true),
        (&["black"][..], true),
        (&["regular", "black", "regular"][..], true),
        (&["regular", "white"][..], false),
        (&["black", "white"][..], false),
    ] {
        let floors = stack(&set, below);
        assert_eq!(
            may_place(rules.as_ref(), &view(&floors), black),
            allowed,
            "black on {below:?}"
        );
        let mut with_black = below.to_vec();
        with_black.push("black");
        assert_eq!(
            query::check_stack(rules.as_ref(), &stack(&set, &with_black)).is_ok(),
            allowed,
            "check_stack {with_black:?}"
        );
    }
}

/// B8: a meeple may go on a black tower, and closes it as on a regular one
/// (T8): no floor of any kind goes on it after.
#[test]
fn b8_meeple_on_a_black_tower_is_allowed_and_closes_it() {
    let set = Take::Variant("black-tower").load();
    let rules = set.rules();
    for below in [&["black"][..], &["regular", "black"], &["black", "black"]] {
        let floors = stack(&set, below);
        assert!(
            may_top(rules.as_ref(), &view(&floors)),
            "a meeple on {below:?}"
        );
        let closed = StackView {
            floors: &floors,
            topped: true,
        };
        for kind in ["regular", "black", "white"] {
            let k = set.floor_kind(kind).unwrap();
            assert!(
                !may_place(rules.as_ref(), &closed, k),
                "{kind} on {below:?} closed by a meeple"
            );
        }
    }
}

#[test]
fn b5_regular_floor_on_black_tower_restores_orthogonal_capture() {
    check_library(B5_CASES);
}

#[test]
fn b6_two_floor_black_top_reaches_own_tile_and_eight_diagonals() {
    check_library(&B6_CASES[..2]);
}

#[test]
fn b6_regular_floor_under_black_top_still_counts() {
    check_library(&B6_CASES[2..]);
}

/// B7: a white cap takes no floor and no meeple, captures nothing, and never
/// goes on a bare foundation.
#[test]
fn b7_white_cap_closes_the_tower_for_good() {
    check_library(B7_CASES);
    for take in [
        Take::Variant("black-tower"),
        Take::Variant("black-tower-no-gaps"),
    ] {
        let set = take.load();
        let rules = set.rules();
        let white = set.floor_kind("white").unwrap();
        for below in [&["regular"][..], &["black"], &["black", "regular"]] {
            let floors = stack(&set, below);
            assert!(
                may_place(rules.as_ref(), &view(&floors), white),
                "{take:?}: white on {below:?} (a tower under construction)"
            );
            let mut capped = below.to_vec();
            capped.push("white");
            let capped = stack(&set, &capped);
            query::check_stack(rules.as_ref(), &capped).expect("a capped stack builds");
            for kind in ["regular", "black", "white"] {
                let k = set.floor_kind(kind).unwrap();
                assert!(
                    !may_place(rules.as_ref(), &view(&capped), k),
                    "{take:?}: {kind} on {below:?} + white"
                );
            }
            assert!(
                !may_top(rules.as_ref(), &view(&capped)),
                "{take:?}: a meeple on {below:?} + white"
            );
            let mut range = Vec::new();
            rules.capture_range(&view(&capped), &mut range).unwrap();
            assert!(range.is_empty(), "{take:?}: range of {below:?} + white");
        }
        // Never on a bare foundation.
        assert!(!may_place(rules.as_ref(), &view(&[]), white));
        let err = query::check_stack(rules.as_ref(), &[white]).unwrap_err();
        assert!(
            format!("{err:#}").contains("`white` floor on a bare foundation"),
            "{err:#}"
        );
        // Nor is a bare foundation's meeple allowed (T4, unchanged).
        assert!(!may_top(rules.as_ref(), &view(&[])), "T4");
    }
}

/// B9: Black Tower changes no scoring: its games score features as the
/// base game does and give no end-of-game points of their own, and a
/// ransom costs what it costs under The Tower.
#[test]
fn b9_black_tower_changes_no_scoring() {
    let set = Take::Variant("black-tower").load();
    let tower = Take::Variant("tower").load();
    let (rules, tower_rules) = (set.rules(), tower.rules());
    for score in [0, 2, 3, 4, 10, 250] {
        for paid in [0, 1, 2] {
            assert_eq!(
                rules.ransom_cost(score, paid).unwrap(),
                tower_rules.ransom_cost(score, paid).unwrap(),
                "ransom at {score} points, {paid} paid"
            );
        }
    }
    let mut scored = 0;
    for i in 0..12 {
        let seed = game_seed(0xB9, i);
        let game = play_recorded(&set, rules.as_ref(), 2 + (i as usize % 5), seed);
        for e in game.events() {
            match e {
                Event::RuleScore { .. } => panic!("seed {seed}: the rules scored: {e:?}"),
                Event::Score { .. } => scored += 1,
                _ => {}
            }
        }
    }
    assert!(
        scored > 100,
        "too few features scored ({scored}) to mean anything"
    );
}

// ---- H: house rules --------------------------------------------------------

#[test]
fn h1_no_gaps_cuts_each_line_at_its_first_gap() {
    check_library(&H1_CASES[..4]);
}

#[test]
fn h1_no_gaps_cuts_black_diagonals_at_their_first_gap() {
    check_library(&H1_CASES[4..]);
}

/// H2: no ransom is ever offered; The Tower's own is 3 points once a turn.
#[test]
fn h2_eye_for_an_eye_offers_no_ransom() {
    let eye = Take::Variant("tower-eye-for-an-eye").load();
    let tower = Take::Variant("tower").load();
    let (eye, tower) = (eye.rules(), tower.rules());
    for score in [0, 2, 3, 4, 10, 250] {
        for paid in [0, 1, 2] {
            assert_eq!(
                eye.ransom_cost(score, paid).unwrap(),
                None,
                "{score}, {paid}"
            );
        }
        // T11 for contrast: 3 points, once per turn.
        assert_eq!(tower.ransom_cost(score, 0).unwrap(), Some(3));
        assert_eq!(tower.ransom_cost(score, 1).unwrap(), None);
    }
}

/// H2 in play: prisoners are taken, yet no ransom is ever paid.
#[test]
fn h2_eye_for_an_eye_games_pay_no_ransom() {
    let set = Take::Variant("tower-eye-for-an-eye").load();
    let rules = set.rules();
    let mut captures = 0;
    for i in 0..40 {
        let seed = game_seed(0x00E7_E4E7, i);
        let game = play_recorded(&set, rules.as_ref(), 2 + (i as usize % 3), seed);
        captures += game.stats().captures;
        assert_eq!(game.stats().ransoms, 0, "seed {seed}");
        assert!(
            !game
                .events()
                .iter()
                .any(|e| matches!(e, Event::Ransom { .. })),
            "seed {seed}"
        );
    }
    assert!(
        captures > 20,
        "too few prisoners taken ({captures}) to mean anything"
    );
}

#[test]
fn h3_one_floor_captures_on_own_tile_only() {
    check_library(&H3_CASES[..1]);
}

#[test]
fn h3_each_further_floor_adds_one_tile_each_way() {
    check_library(&H3_CASES[1..]);
}

#[test]
fn h4_two_floors_reach_thirteen_tiles() {
    check_library(&H4_CASES[1..2]);
    check_library(&H4_CASES[2..]);
}

/// H4: a diagonal neighbour is 2 steps away: in range at 2 floors, not at 1.
#[test]
fn h4_diagonal_neighbour_needs_two_floors() {
    check_library(&H4_CASES[..1]);
    let set = Take::Variant("tower-diagonal-steps").load();
    assert!(!library_cells(&set, &["regular"], None).contains(&(1, 1)));
    assert!(library_cells(&set, &["regular", "regular"], None).contains(&(1, 1)));
}

/// H1 + H3 on a black tower: diagonals of floors - 1, cut at gaps, in
/// either order of the house rules.
#[test]
fn h1_h3_black_tower_no_gaps_no_surprises() {
    check_library(&COMBO_CASES[..5]);
}

/// H1 + H4 (H1's Ruling): a tile is in range only through a path of
/// orthogonal steps over tiles no longer than the range; a longer detour
/// leaves it out.
#[test]
fn h1_h4_detour_longer_than_the_reach_is_out() {
    check_library(&COMBO_CASES[5..]);
}

// ---- the same cases through `towerlab range` --------------------------------

/// Run `towerlab range` for every case with `--format json` and compare its
/// cells to the library's answer and to the hand-worked set.
fn check_binary(cases: &[Case]) {
    let dir = crate::common::temp_dir("packs");
    for (i, case) in cases.iter().enumerate() {
        let mut args: Vec<String> = vec!["range".into()];
        args.extend(case.rules.flags());
        args.extend(["--floors".into(), case.floors.join(",")]);
        if let Some(board) = case.board {
            let file = dir.path().join(format!("board-{i}.txt"));
            std::fs::write(&file, board).expect("a board file");
            args.extend(["--board".into(), file.display().to_string()]);
        }
        args.extend(["--format".into(), "json".into()]);
        let out = towerlab().args(&args).output().expect("towerlab runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        let json: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e})"));
        let cells = json["cells"]
            .as_array()
            .unwrap_or_else(|| panic!("{args:?}: no `cells` array in {json}"))
            .iter()
            .map(|c| {
                let xy = c.as_array().filter(|a| a.len() == 2);
                let xy = xy.unwrap_or_else(|| panic!("{args:?}: `{c}` is not [dx, dy]"));
                (
                    xy[0].as_i64().unwrap() as i32,
                    xy[1].as_i64().unwrap() as i32,
                )
            });
        let cells = sorted(cells);
        let set = case.rules.load();
        assert_eq!(
            cells,
            library_cells(&set, case.floors, case.board),
            "{}: {args:?}: binary and library differ",
            case.rule
        );
        assert_eq!(
            cells,
            sorted(case.cells.iter().copied()),
            "{}: {args:?}: binary and hand-worked set differ",
            case.rule
        );
    }
}

#[test]
fn t6_range_command_matches_library_and_hand_sets() {
    check_binary(T6_CASES);
}

#[test]
fn b5_b6_b7_range_command_matches_library_and_hand_sets() {
    check_binary(B5_CASES);
    check_binary(B6_CASES);
    check_binary(B7_CASES);
}

#[test]
fn h1_range_command_matches_library_and_hand_sets() {
    check_binary(H1_CASES);
}

#[test]
fn h3_h4_range_command_matches_library_and_hand_sets() {
    check_binary(H3_CASES);
    check_binary(H4_CASES);
    check_binary(COMBO_CASES);
}

/// B4, B7: a floor stack the variant cannot build is refused with exit code
/// 2 and the reason; so is a floor kind it does not have.
#[test]
fn b4_b7_range_refuses_a_stack_the_variant_cannot_build() {
    for (take, floors, reason) in [
        (
            Take::Variant("black-tower"),
            "white",
            "do not allow a `white` floor on a bare foundation (floor 1 of the stack)",
        ),
        (
            Take::Variant("black-tower"),
            "regular,white,black",
            "do not allow a `black` floor on [regular, white] (floor 3 of the stack)",
        ),
        (
            Take::Variant("black-tower-no-gaps"),
            "black,white,regular",
            "do not allow a `regular` floor on [black, white] (floor 3 of the stack)",
        ),
        (
            Take::Variant("black-tower"),
            "black,white,white",
            "do not allow a `white` floor on [black, white] (floor 3 of the stack)",
        ),
        (
            Take::Variant("tower"),
            "regular,black",
            "unknown floor kind `black` (this variant has: regular)",
        ),
    ] {
        let mut args: Vec<String> = vec!["range".into()];
        args.extend(take.flags());
        args.extend([
            "--floors".into(),
            floors.into(),
            "--format".into(),
            "json".into(),
        ]);
        let out = towerlab().args(&args).output().expect("towerlab runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: printed a range");
    }
}

// ---- games: the scripted pack against the native rules ----------------------

/// Play one game with random bots, recording its events.
fn play_recorded<'a>(
    set: &'a Ruleset,
    rules: &'a dyn Rules,
    players: usize,
    seed: u64,
) -> Game<'a> {
    let mut game = Game::new(&set.tiles, rules, players, seed).expect("a game starts");
    game.record_events();
    let mut bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|seat| Box::new(RandomBot::new(seed, seat)) as Box<dyn Bot>)
        .collect();
    play_game(&mut game, &mut bots)
        .unwrap_or_else(|e| panic!("{players} players, seed {seed}: {e:#}"));
    game
}

/// Games per player count in the differential run (5 player counts).
const DIFFERENTIAL_GAMES: u64 = 200;

/// T1–T12: the scripted `tower` pack and `native:tower` play identical games
/// from the same seeds: same events, same final scores, same counters.
#[test]
fn t1_t12_scripted_tower_plays_the_same_games_as_native_tower() {
    let scripted = Take::Variant("tower").load();
    let native = Take::Packs(&["native:tower"]).load();
    assert!(native.scripts().is_none() && scripted.scripts().is_some());
    let names =
        |s: &Ruleset| -> Vec<String> { s.tiles.kinds.iter().map(|k| k.name.clone()).collect() };
    assert_eq!(names(&scripted), names(&native), "the same tile set");
    let totals = std::thread::scope(|scope| {
        let workers: Vec<_> = (2..=6usize)
            .map(|players| {
                let (scripted, native) = (&scripted, &native);
                scope.spawn(move || {
                    let (s_rules, n_rules) = (scripted.rules(), native.rules());
                    let mut totals = Stats::default();
                    for i in 0..DIFFERENTIAL_GAMES {
                        let seed = game_seed(0x7043_0000 + players as u64, i);
                        let a = play_recorded(scripted, s_rules.as_ref(), players, seed);
                        let b = play_recorded(native, n_rules.as_ref(), players, seed);
                        let ctx = format!("{players} players, seed {seed}");
                        assert_eq!(a.events(), b.events(), "{ctx}: events differ");
                        assert_eq!(a.scores(), b.scores(), "{ctx}: final scores differ");
                        assert_eq!(a.stats(), b.stats(), "{ctx}: counters differ");
                        let end = Event::End { scores: a.scores() };
                        assert_eq!(a.events().last(), Some(&end), "{ctx}: the game ends");
                        let s = a.stats();
                        totals.captures += s.captures;
                        totals.own_captures += s.own_captures;
                        totals.exchanges += s.exchanges;
                        totals.ransoms += s.ransoms;
                        totals.floors_placed += s.floors_placed;
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
    let sum = |f: fn(&Stats) -> u32| totals.iter().map(f).sum::<u32>();
    assert!(sum(|s| s.own_captures) > 0, "no own meeple taken back");
    assert!(sum(|s| s.exchanges) > 0, "no exchange");
    assert!(sum(|s| s.ransoms) > 0, "no ransom");
}

// ---- games: captures stay inside the variant's range ------------------------

/// The range of a tower of `floors` on the tiles `board`, straight from
/// docs/rules.md for Black Tower with H1: the tower's tile; a white top nothing
/// (B7); a black top the 4 diagonals (B6), a regular top the 4 orthogonal
/// lines (T6, B5), each as far as the floors and cut at its first gap (H1).
fn black_no_gaps_range(
    set: &Ruleset,
    floors: &[FloorKind],
    board: &BTreeSet<Cell>,
    tower: Cell,
) -> BTreeSet<Cell> {
    let top = set.floors[*floors.last().expect("a tower has floors") as usize]
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
fn map_around(board: &BTreeSet<Cell>, tower: Cell) -> BoardMap {
    BoardMap {
        tiles: board
            .iter()
            .map(|&(x, y)| (x - tower.0, y - tower.1))
            .collect(),
    }
}

/// A random bot that, whenever it may capture, first checks that the
/// meeples offered are exactly those standing inside the variant's range.
struct CheckingBot<'s> {
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
                &self.set.tiles,
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
        let mut game = Game::new(&set.tiles, rules.as_ref(), players, seed).expect("a game");
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
                        &set.tiles,
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

// ---- the author's guide's worked example ---------------------------------

/// The red floor of docs/packs.md, a fan expansion written from scratch,
/// runs from its folder with nothing recompiled: a red top captures on its
/// own tile and a knight's move away; with H1 no path of tiles joins those
/// cells, so only its own tile is left.
#[test]
fn docs_red_floor_example_runs_as_a_pack() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/red-floor");
    let example = example.to_str().expect("UTF-8 path").to_string();
    let set = Ruleset::from_packs(&home(), &["tower".to_string(), example.clone()]).unwrap();
    let knight = sorted([
        (0, 0),
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ]);
    assert_eq!(library_cells(&set, &["regular", "red"], None), knight);
    // A regular floor on the red one makes it a regular tower again (T6).
    assert_eq!(
        library_cells(&set, &["regular", "red", "regular"], None).len(),
        13
    );
    let rules = set.rules();
    assert_eq!(
        rules.floor_supply(2, 18).unwrap(),
        vec![10, 2],
        "T1 plus 2 red"
    );
    let gaps = Ruleset::from_packs(
        &home(),
        &[
            "tower".to_string(),
            example.clone(),
            "house/no-gaps".to_string(),
        ],
    )
    .unwrap();
    assert_eq!(
        library_cells(&gaps, &["regular", "red"], None),
        vec![(0, 0)]
    );

    let out = towerlab().args(["check", &example]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok:"));
}
