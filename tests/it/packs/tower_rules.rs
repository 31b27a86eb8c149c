//! T, The Tower: the range of one and two floors, over gaps, in the tower pack and as the native rules draw it.

use super::*;

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
