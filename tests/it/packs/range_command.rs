//! The same cases through `towerlab range`, and the stacks it refuses.

use super::*;

/// Run `towerlab range` for every case with `--format json` and compare its
/// cells to the library's answer and to the hand-worked set.
pub(super) fn check_binary(cases: &[Case]) {
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
