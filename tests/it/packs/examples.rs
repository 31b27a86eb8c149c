//! The rule pages' examples as cases: the cells each rule's tower captures from, worked out by hand from docs/rules.md.

use super::*;

/// One range example: a tower of `floors` under `rules`, on `board` (every
/// cell a tile when `None`), captures on exactly `cells`.
pub(super) struct Case {
    pub(super) rule: &'static str,
    pub(super) rules: Take,
    pub(super) floors: &'static [&'static str],
    pub(super) board: Option<&'static str>,
    pub(super) cells: &'static [Cell],
}

/// Gaps right next to the tower, tiles two away in each direction.
pub(super) const BOARD_GAPS: &str = "\
..#..
.....
#.T.#
.....
..#..
";

/// Lines of tiles with gaps at various distances: north (0,2), south (0,-1),
/// west (-2,0) are empty, east is full; the column x = 1 is full, so tiles
/// beyond a gap can be reached around it off the tower's lines.
pub(super) const BOARD_LINES: &str = "\
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
pub(super) const BOARD_DIAGONALS: &str = "\
#...#
..##.
.#T#.
..##.
#....
";

/// (0,1) and (-1,0) are empty: (0,2) and (-2,0) can be reached only by
/// detours of 4 orthogonal steps, (0,3) by one of 5; (2,2) is 4 steps away.
pub(super) const BOARD_DETOUR: &str = "\
...#...
...###.
....#..
.#.T##.
.###...
";

/// T6: the tower's tile and `floors` tiles in each orthogonal direction,
/// over gaps.
pub(super) const T6_CASES: &[Case] = &[
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
pub(super) const B6_CASES: &[Case] = &[
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
pub(super) const B5_CASES: &[Case] = &[
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
pub(super) const B7_CASES: &[Case] = &[
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
pub(super) const H1_CASES: &[Case] = &[
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
pub(super) const H3_CASES: &[Case] = &[
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
pub(super) const H4_CASES: &[Case] = &[
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
pub(super) const COMBO_CASES: &[Case] = &[
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
pub(super) fn check_library(cases: &[Case]) {
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
