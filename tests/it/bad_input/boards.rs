//! Board files refused with the place of what is wrong: two towers, none, a
//! bad character (columns counted in characters).

use super::*;

fn board_refused(name: &str, board: &str) -> (PathBuf, String, Scratch) {
    let tmp = Scratch::new(name);
    let path = tmp.write("board.txt", board);
    let err = refused(&[
        "range",
        "--variant",
        "tower",
        "--floors",
        "regular",
        "--board",
        &path.display().to_string(),
    ]);
    (path, err, tmp)
}

#[test]
fn board_with_two_towers_points_at_the_second() {
    let (path, err, _tmp) = board_refused("board-two", ".#.\n#TT\n.#.\n");
    says(&err, &at(&path, 2, 3));
    says(&err, "a second `T`");
}

#[test]
fn board_with_no_tower_is_refused_with_a_place() {
    let (path, err, _tmp) = board_refused("board-none", ".#.\n###\n");
    says(&err, &at(&path, 1, 1));
    says(&err, "no `T`");
}

#[test]
fn board_with_a_bad_character_points_at_it() {
    let (path, err, _tmp) = board_refused("board-char", ".#.\n#T#\n.x.\n");
    says(&err, &at(&path, 3, 2));
    says(
        &err,
        "`x` is not `#` (tile), `.` (no tile) or `T` (the tower)",
    );
}

#[test]
fn board_with_a_wide_character_counts_columns_in_characters() {
    let (path, err, _tmp) = board_refused("board-wide", "#é#\n#T#\n");
    says(&err, &at(&path, 1, 2));
}
