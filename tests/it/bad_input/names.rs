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
