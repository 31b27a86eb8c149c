//! Names on the command line: unknown packs, variants and floor kinds get
//! "did you mean"; packs out of order and `--variant` with `--packs` are
//! refused.

use super::*;

#[test]
fn unknown_pack_suggests_a_near_name() {
    let err = refused(&["simulate", "--packs", "towr", "--games", "1"]);
    says(&err, "unknown pack `towr`");
    says(&err, "did you mean `tower`?");
}

#[test]
fn unknown_variant_suggests_a_near_name() {
    let err = refused(&["simulate", "--variant", "blak-tower", "--games", "1"]);
    says(&err, "unknown variant `blak-tower`");
    says(&err, "did you mean `black-tower`?");
}

#[test]
fn unknown_floor_kind_suggests_a_near_name() {
    let err = refused(&[
        "range",
        "--variant",
        "black-tower",
        "--floors",
        "regular,blak",
    ]);
    says(&err, "unknown floor kind `blak`");
    says(&err, "did you mean `black`?");
}

#[test]
fn a_pack_requiring_one_not_listed_before_it_is_refused() {
    // B1: the Black Tower plays on top of The Tower.
    for packs in ["black-tower", "black-tower,tower"] {
        let err = refused(&["range", "--packs", packs, "--floors", "black"]);
        says(
            &err,
            "pack `black-tower` requires pack `tower` earlier in the list",
        );
        says(&err, "--packs tower,black-tower");
    }
}

#[test]
fn variant_and_packs_together_are_refused() {
    let err = refused(&[
        "range",
        "--variant",
        "tower",
        "--packs",
        "tower",
        "--floors",
        "regular",
    ]);
    says(&err, "--variant");
    says(&err, "--packs");
}

/// Names that differ in case, a variant file that is not there, and a
/// folder given as a variant are each said as what they are.
#[test]
fn case_missing_variant_files_and_folders_are_named_as_such() {
    says(
        &refused(&["play", "--bots", "MCTS"]),
        "did you mean `mcts`?",
    );
    says(
        &refused(&["play", "--packs", "TOWER"]),
        "did you mean `tower`?",
    );
    for command in ["info", "test"] {
        let err = refused(&[command, "nothere.toml"]);
        says(&err, "unknown variant `nothere.toml`");
    }
    // check lists its problems on stdout.
    let out = run(&["check", "nothere.toml"]);
    assert_eq!(out.status.code(), Some(2));
    says(&text(&out.stdout), "unknown variant `nothere.toml`");
    says(
        &refused(&["tiles", "nothere.toml"]),
        "cannot read `nothere.toml`",
    );
    let tmp = Scratch::new("variant-folder");
    let folder = tmp.path().display().to_string();
    says(
        &refused(&["play", "--variant", &folder]),
        "is a folder, not a variant file",
    );
}
