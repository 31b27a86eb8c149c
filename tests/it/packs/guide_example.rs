//! The author's guide's worked example, run as a pack.

use super::*;

/// The red floor of docs/packs.md, a fan expansion written from scratch,
/// runs from its folder with nothing recompiled: a red top captures on its
/// own tile and a knight's move away; with H1 no path of tiles joins those
/// cells, so only its own tile is left.
#[test]
fn docs_red_floor_example_runs_as_a_pack() {
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/red-floor");
    let example = example.to_str().expect("UTF-8 path").to_string();
    let set = Ruleset::from_packs(
        &home(),
        &LoadOptions::default(),
        &["tower".to_string(), example.clone()],
    )
    .unwrap();
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
        rules.seat_supply(2, 18, 0).unwrap(),
        vec![10, 2],
        "T1 plus 2 red"
    );
    let gaps = Ruleset::from_packs(
        &home(),
        &LoadOptions::default(),
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
