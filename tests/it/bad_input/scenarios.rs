//! Scenario files (`towerlab test --file`): every number is checked in
//! range where it is written — never cast round to a cell, seat or score in
//! range — a file of any size under the input limit ends in a result or a
//! clear error within bounded memory, and every error names the scenario
//! (its name and `file:line`), a hook's included.

use super::*;
use crate::common::{TowerPack, stdout};
use crate::inputs_bounded::limited;

/// The head of a one-scenario file: the scenario `n`, on line 1.
const HEAD: &str = "[[scenario]]\nname = \"n\"\n";

/// `towerlab test PACK --file FILE` with `text` as the file: the exit
/// code, and stdout then stderr with the file's path as `s.toml`.
fn test_file(pack: &str, text: &str) -> (Option<i32>, String) {
    let dir = Scratch::new("scenario");
    let path = dir.write("s.toml", text).display().to_string();
    let out = run(&["test", pack, "--file", &path]);
    let all = format!("{}{}", stdout(&out), common::stderr(&out)).replace(&path, "s.toml");
    (out.status.code(), all)
}

/// The error `text` gets under The Tower: exit 2, one error line, which
/// names the scenario.
fn error_of(text: &str) -> String {
    let (code, all) = test_file("tower", text);
    assert_eq!(code, Some(2), "{text}\n{all}");
    let line = all
        .lines()
        .find(|l| l.starts_with("error ") && l.contains("s.toml"))
        .unwrap_or_else(|| panic!("no error of the file:\n{all}"))
        .to_string();
    says(&line, "scenario `n` (s.toml:1)");
    line
}

/// Cells past the board: on it once wrapped to 32 bits, or past `i64::abs`.
const WRAPPING_CELLS: &[&str] = &[
    "-9223372036854775808",
    "9223372036854775807",
    "4294967297",
    "-4294967296",
    "4294967396",
    "2147483648",
    "101",
    "-101",
];

#[test]
fn a_cell_past_the_board_is_refused_at_its_place_whatever_its_size() {
    let tower = "tiles = [{ tile = \"tower/F\", at = [0, 0] }]\n\
                 towers = [{ at = [0, 0], floors = [\"regular\"] }]\n[scenario.expect]\n";
    for v in WRAPPING_CELLS {
        // Each file, and the cell's text where the error must point.
        let cases = [
            (
                format!("tiles = [{{ tile = \"tower/F\", at = [{v}, 0] }}]\n"),
                format!("[{v}, 0]"),
            ),
            (
                format!("tiles = [{{ tile = \"tower/F\", at = [0, {v}] }}]\n"),
                format!("[0, {v}]"),
            ),
            (
                format!("{tower}capturable = [{{ tower = [0, 0], meeples = [[{v}, 1]] }}]\n"),
                format!("[{v}, 1]"),
            ),
            (
                format!("{tower}range = [{{ tower = [0, 0], cells = [[1, {v}]] }}]\n"),
                format!("[[1, {v}]]"),
            ),
            (
                format!("{tower}top = [{{ tower = [{v}, 0], seats = [] }}]\n"),
                format!("[{v}, 0]"),
            ),
            (
                format!("steps = [{{ top = [{v}, 0] }}]\n"),
                format!("[{v}, 0]"),
            ),
            (
                format!("steps = [{{ capture = [0, {v}] }}]\n"),
                format!("[0, {v}]"),
            ),
        ];
        for (body, cell) in cases {
            let text = format!("{HEAD}{body}");
            let line = error_of(&text);
            says(&line, "is more than 100 cells from");
            says(&line, v);
            let (row, at) = text
                .lines()
                .enumerate()
                .find_map(|(i, l)| l.find(&cell).map(|c| (i + 1, c + 1)))
                .expect("the cell is written");
            says(&line, &format!("s.toml:{row}:{at}: cell ["));
        }
    }
}

/// A scenario's numbers out of their range, each with what its error says
/// (a tile `base/L` at [0, 0] is added unless the case places its own).
const NUMBERS: &[(&str, &str)] = &[
    (
        "scores = [4294967296, 0]\n",
        "a score must be 0 to 4294967295, not 4294967296",
    ),
    (
        "scores = [-1, 0]\n",
        "a score must be 0 to 4294967295, not -1",
    ),
    ("players = -9223372036854775808\n", "players must be 2 to 8"),
    (
        "players = 4294967298\n",
        "players must be 2 to 8, not 4294967298",
    ),
    (
        "current = 4294967296\n",
        "seat 4294967296: the game has seats 0 to 1",
    ),
    ("current = -1\n", "seat -1: the game has seats 0 to 1"),
    ("turn = 4294967296\n", "turn must be 0 to 4294967295"),
    (
        "turn = -9223372036854775808\n",
        "turn must be 0 to 4294967295",
    ),
    ("tiles_left = 4294967296\n", "tiles_left must be 0 to 10000"),
    (
        "prisoners = [{ captor = 1, owner = 0, count = 4294967297 }]\n",
        "count must be 0 to 7",
    ),
    (
        "prisoners = [{ captor = 4294967297, owner = 0 }]\n",
        "seat 4294967297",
    ),
    (
        "meeples = [{ owner = 0, at = [0, 0], segment = 4294967296 }]\n",
        "has no segment 4294967296: write",
    ),
    (
        "meeples = [{ owner = 0, at = [0, 0], segment = -1 }]\n",
        "has no segment -1: write",
    ),
    (
        "meeples = [{ owner = 4294967296, at = [0, 0], segment = 0 }]\n",
        "seat 4294967296",
    ),
    (
        "supply = [{ seat = 0, floors = { regular = 4294967296 } }]\n",
        "a floor count must be 0 to 4294967295",
    ),
    (
        "supply = [{ seat = 0, floors = { regular = -1 } }]\n",
        "a floor count must be 0 to 4294967295",
    ),
    (
        "steps = [{ meeple = 4294967296 }]\n",
        "a segment must be 0 to 255",
    ),
    ("steps = [{ meeple = -1 }]\n", "a segment must be 0 to 255"),
    ("steps = [{ ransom = -4294967295 }]\n", "seat -4294967295"),
    (
        "steps = [{ tile = \"base/L\", at = [1, 0], rot = 4294967386 }]\n",
        "a rotation is 0, 90, 180 or 270",
    ),
    (
        "[scenario.expect]\nscores = [4294967296, 0]\n",
        "a score must be 0 to 4294967295",
    ),
    (
        "[scenario.expect]\nend_scores = [0, -4294967296]\n",
        "a score must be 0 to 4294967295",
    ),
    (
        "[scenario.expect]\nprisoners = [{ captor = 1, owner = 0, count = 4294967296 }]\n",
        "a count of prisoners must be 0 to 7",
    ),
    (
        "[scenario.expect]\nransom = [{ captor = 1, cost = 4294967296 }]\n",
        "a ransom's cost must be 0 to 4294967295",
    ),
    (
        "[scenario.expect]\nransom = [{ captor = 1, cost = -1 }]\n",
        "a ransom's cost must be 0 to 4294967295",
    ),
    (
        "[scenario.expect]\nransom = [{ payer = 4294967296, captor = 1, cost = 3 }]\n",
        "seat 4294967296",
    ),
    (
        "[scenario.expect]\nsupply = [{ seat = 0, floors = { regular = 4294967296 } }]\n",
        "a floor count must be 0 to 4294967295",
    ),
    (
        "tiles = [{ tile = \"tower/F\", at = [0, 0] }]\n[scenario.expect]\ntop = [{ tower = [0, 0], seats = [4294967296] }]\n",
        "seat 4294967296: the game has seats 0 to 1",
    ),
];

/// A newcomer's first mistakes, each answered with the key to change and a
/// value that works there: a tile that fits only turned, a meeple on a
/// kind the tile has twice, on a kind it lacks, with both `segment` and
/// `on`, with neither.
#[test]
fn a_scenario_error_names_the_key_to_change_and_a_value_that_works() {
    // A road west to east at [0, 0]; north of it a road turned north to
    // south cannot join its field: unturned (or half-turned) it fits.
    let road = "tiles = [\n  { tile = \"base/RFr\", at = [0, 0] },\n  { tile = \"base/RFr\", at = [0, 1], rot = 90 },\n]\n";
    let line = error_of(&format!("{HEAD}{road}"));
    says(&line, "s.toml:5:");
    says(&line, "does not match the edges");
    says(&line, "write `rot = 0` or `rot = 180`");
    let one = "tiles = [{ tile = \"base/RFr\", at = [0, 0] }]\n";
    let meeple = |how: &str| format!("{HEAD}{one}meeples = [{{ owner = 0, at = [0, 0]{how} }}]\n");
    for (how, want) in [
        (
            ", on = \"field\"",
            "tile base/RFr has 2 field segments: in place of `on = \"field\"`, write `segment = ",
        ),
        (
            ", on = \"field\"",
            "(the field north of the road) or `segment = ",
        ),
        (
            ", on = \"city\"",
            "tile base/RFr has no city: write `on = \"road\"` or `segment = ",
        ),
        (
            ", on = \"road\", segment = 0",
            "give `segment` or `on`, not both: keep `segment = 0` and remove `on = \"road\"`",
        ),
        (
            "",
            "say where the meeple stands: write `on = \"road\"` or `segment = ",
        ),
        (", on = \"feild\"", "did you mean `field`"),
    ] {
        let line = error_of(&meeple(how));
        says(&line, want);
    }
}

#[test]
fn every_number_of_a_scenario_is_checked_in_range_at_its_place() {
    let tile = "tiles = [{ tile = \"base/L\", at = [0, 0] }]\n";
    for (body, want) in NUMBERS {
        let text = format!(
            "{HEAD}{}{body}",
            if body.contains("tile = ") { "" } else { tile }
        );
        let line = error_of(&text);
        says(&line, want);
        assert!(
            line.matches("s.toml:").count() >= 2,
            "the number's own place, past the scenario's: {line}"
        );
    }
}

#[test]
fn a_score_taken_past_its_most_is_an_error_never_a_score_that_wraps() {
    let cloister = "tiles = [{ tile = \"base/L\", at = [0, 0] }]\n\
                    meeples = [{ owner = 0, at = [0, 0], on = \"cloister\" }]\n";
    // The cloister's 1 point at the end, on the most a score holds: the
    // wrapped score would be 0, which the scenario expects.
    let line = error_of(&format!(
        "{HEAD}scores = [4294967295, 7]\n{cloister}[scenario.expect]\nend_scores = [0, 7]\n"
    ));
    says(&line, "the expectation at s.toml:7:");
    says(&line, "player 0's score 4294967296, more than 4294967295");
    // A road completed by a step, ending its turn.
    let road = "tiles = [{ tile = \"base/LR\", at = [0, 0] }]\n\
                meeples = [{ owner = 1, at = [0, 0], on = \"road\" }]\n";
    for steps in [
        "steps = [{ tile = \"base/LR\", at = [0, -1], rot = 180 }, { end = \"turn\" }]\n",
        "steps = [{ tile = \"base/LR\", at = [0, -1], rot = 180 }, { end = \"turn\" }, { ransom = 0 }]\n",
    ] {
        let (code, all) = test_file(
            "tower",
            &format!(
                "{HEAD}scores = [0, 4294967294]\n{road}{steps}[scenario.expect]\nscores = [0, 0]\n"
            ),
        );
        assert_eq!(code, Some(2), "{all}");
        says(&all, "error scenario `n` (s.toml:1): step 2 (s.toml:6:");
        says(
            &all,
            "a feature's 2 points would make player 1's score 4294967296, more than 4294967295, the most a score holds",
        );
    }
    // A ransom paid to a captor near the most.
    let line = error_of(&format!(
        "{HEAD}tiles = [{{ tile = \"base/L\", at = [0, 0] }}]\nscores = [10, 4294967294]\n\
         prisoners = [{{ captor = 1, owner = 0 }}]\n\
         steps = [{{ tile = \"base/L\", at = [1, 0] }}, {{ ransom = 1 }}]\n"
    ));
    says(&line, "step 2 (s.toml:6:");
    says(
        &line,
        "a ransom of 3 would make player 1's score 4294967297, more than 4294967295",
    );
    // A turn count at its most: the next tile is refused, not counted as 0.
    let line = error_of(&format!(
        "{HEAD}turn = 4294967295\nsteps = [{{ tile = \"base/L\", at = [0, 0] }}]\n"
    ));
    says(&line, "step 1 (s.toml:4:");
    says(&line, "turn count past 4294967295");
}

#[test]
fn a_file_of_tiny_values_under_the_input_limit_is_refused_in_bounded_memory() {
    let dir = Scratch::new("scenario-huge");
    // 61 MB of `0,`: about 30 million values.
    let mut text = String::from("[[scenario]]\nname = \"n\"\n[scenario.expect]\nscores = [");
    text.push_str(&"0,".repeat(30_500_000));
    text.push_str("0]\n");
    assert!(text.len() > 61_000_000 && text.len() < 64 << 20);
    let path = dir.write("huge.toml", &text).display().to_string();
    let started = std::time::Instant::now();
    // An address space of 1 GiB: parsing it whole would take gigabytes.
    let out = limited(1 << 20, &["test", "tower", "--file", &path]);
    let all = format!("{}{}", stdout(&out), common::stderr(&out));
    assert_eq!(out.status.code(), Some(2), "{all}");
    says(&all, &format!("{path}:4:"));
    says(&all, "more than 1000000 keys, values and punctuation marks");
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
}

#[test]
fn a_file_of_more_scenarios_than_a_run_takes_is_refused_at_the_first_past_them() {
    let text = "[[scenario]]\nname = \"n\"\n".repeat(10_001);
    let (code, all) = test_file("tower", &text);
    assert_eq!(code, Some(2), "{all}");
    says(
        &all,
        "s.toml:20001:1: more than 10000 scenarios, the most a file may hold",
    );
}

#[test]
fn a_hook_s_error_names_the_scenario_its_place_and_the_step() {
    let pack = TowerPack::new(
        "thrower",
        "fn ransom(score, paid) { throw \"no ransom today\"; }\n\
         fn end(towers) { [#{ player: 0, points: 9223372036854775807, feature: \"huge\" }] }\n",
    );
    let prisoner = "tiles = [{ tile = \"base/L\", at = [0, 0] }]\n\
                    prisoners = [{ captor = 1, owner = 0 }]\n";
    let file = format!(
        "[[scenario]]\nname = \"pays\"\n{prisoner}\
         steps = [{{ tile = \"base/L\", at = [1, 0] }}, {{ ransom = 1 }}]\n\n\
         [[scenario]]\nname = \"asks\"\n{prisoner}\
         [scenario.expect]\nransom = [{{ captor = 1, cost = 3 }}]\n\n\
         [[scenario]]\nname = \"ends\"\n\
         tiles = [{{ tile = \"base/L\", at = [0, 0] }}]\n[scenario.expect]\nend_scores = [0, 0]\n"
    );
    let (code, all) = test_file(&pack.path, &file);
    assert_eq!(code, Some(2), "{all}");
    let lines: Vec<&str> = all.lines().filter(|l| l.starts_with("error ")).collect();
    assert_eq!(lines.len(), 3, "{all}");
    says(lines[0], "scenario `pays` (s.toml:1): step 2 (s.toml:5:");
    says(lines[0], "no ransom today");
    says(
        lines[1],
        "scenario `asks` (s.toml:7): the expectation at s.toml:12:",
    );
    says(lines[1], "no ransom today");
    says(
        lines[2],
        "scenario `ends` (s.toml:14): the expectation at s.toml:18:",
    );
    // Points no score holds: the hook's answer refused at its line.
    says(lines[2], "thrower.rhai:2:1: hook `end`");
    says(
        lines[2],
        "at most 4294967295 either way, what a score holds",
    );
}

#[test]
fn an_end_score_past_the_most_or_below_0_says_which_in_numbers_that_do_not_wrap() {
    let ender = |points: &str| {
        let pack = TowerPack::new(
            "ender",
            &format!(
                "fn end(towers) {{ [#{{ player: 0, points: {points}, feature: \"big\" }}] }}\n"
            ),
        );
        refused(&["simulate", "--packs", &pack.packs(), "--games", "1"])
    };
    for (points, says_what) in [
        // Each added to the score the game gave player 0 (a few points).
        ("4294967295", "would make player 0's score 42949673"),
        ("-4294967295", "would make player 0's score -42949672"),
    ] {
        let err = ender(points);
        says(
            &err,
            &format!("the rules' end score `big` of {points} points"),
        );
        says(&err, says_what);
        let why = match points.starts_with('-') {
            true => ": a score never goes below 0",
            false => ", more than 4294967295, the most a score holds",
        };
        says(&err, why);
    }
    // Points no score could hold either way are the hook's answer refused,
    // at its pack and line.
    for points in ["4294967296", "9223372036854775807", "-9223372036854775808"] {
        let err = ender(points);
        says(&err, "hook `end`");
        says(&err, "at most 4294967295 either way, what a score holds");
    }
}
