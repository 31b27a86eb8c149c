//! Bad input, through the real binary: malformed pack manifests, variant files,
//! scripts and board files are refused with exit code 2 and `FILE:LINE:COL`;
//! unknown names get "did you mean"; hooks answering with the wrong type are
//! named with what they returned and what was expected; `towerlab check`
//! lists every problem of a broken pack. Then property tests: the board and
//! variant parsers never panic, whatever the text.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use towerlab::kernel::diag::{Source, is_bad_input};
use towerlab::play::query::BoardMap;
use towerlab::rules::manifest::{load_pack, load_variant};

use crate::common::{self, refused, run};

/// A fresh temporary folder (its path, and the folder, removed on drop).
struct TempDir {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl TempDir {
    fn new(test: &str) -> TempDir {
        let dir = common::temp_dir(&format!("bad-input-{test}"));
        TempDir {
            path: dir.path().to_path_buf(),
            _dir: dir,
        }
    }

    /// Write `text` to `name` in the folder (creating sub-folders); its path.
    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create a sub-folder");
        }
        std::fs::write(&path, text).expect("write a temporary file");
        path
    }

    /// A pack folder `name` with `pack.toml` and, if given, `script.rhai`;
    /// its path as a command-line reference.
    fn pack(&self, name: &str, manifest: &str, script: Option<&str>) -> String {
        self.write(&format!("{name}/pack.toml"), manifest);
        if let Some(script) = script {
            self.write(&format!("{name}/script.rhai"), script);
        }
        self.path.join(name).display().to_string()
    }
}

/// A manifest for a pack `name` whose script is `script.rhai`.
fn scripted(name: &str) -> String {
    format!("[pack]\nname = \"{name}\"\nscript = \"script.rhai\"\n")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Assert that `err` holds `needle`.
fn says(err: &str, needle: &str) {
    assert!(err.contains(needle), "expected `{needle}` in:\n{err}");
}

fn at(path: &Path, line: usize, col: usize) -> String {
    format!("{}:{line}:{col}: ", path.display())
}

/// `towerlab range` with The Tower then `pack`, for a one-floor tower.
fn range_with(pack: &str) -> String {
    refused(&[
        "range",
        "--packs",
        &format!("tower,{pack}"),
        "--floors",
        "regular",
    ])
}

// ----- pack manifests -------------------------------------------------------

#[test]
fn pack_toml_syntax_error_points_at_line_and_column() {
    let tmp = TempDir::new("toml-syntax");
    let pack = tmp.pack(
        "p",
        "[pack]\nname = \"bad\"\ntitle = \"unterminated\n",
        None,
    );
    let err = range_with(&pack);
    // Line 3 ends after `title = "unterminated` (21 characters).
    says(&err, &at(&tmp.path.join("p/pack.toml"), 3, 22));
}

#[test]
fn pack_toml_unknown_key_points_at_it() {
    let tmp = TempDir::new("toml-key");
    let pack = tmp.pack("p", "[pack]\nname = \"bad\"\ncolor = \"red\"\n", None);
    let err = range_with(&pack);
    says(&err, &at(&tmp.path.join("p/pack.toml"), 3, 1));
    says(&err, "unknown field `color`");
}

#[test]
fn pack_toml_wrong_type_points_at_the_value() {
    let tmp = TempDir::new("toml-type");
    let pack = tmp.pack("p", "[pack]\nname = \"bad\"\nrequires = \"tower\"\n", None);
    let err = range_with(&pack);
    // `requires` takes a list; the string starts at column 12.
    says(&err, &at(&tmp.path.join("p/pack.toml"), 3, 12));
    says(&err, "expected a sequence");
}

#[test]
fn pack_toml_naming_a_missing_script_points_at_it() {
    let tmp = TempDir::new("toml-script");
    let pack = tmp.pack(
        "p",
        "[pack]\nname = \"bad\"\nscript = \"gone.rhai\"\n",
        None,
    );
    let err = range_with(&pack);
    says(&err, &at(&tmp.path.join("p/pack.toml"), 3, 10));
    says(&err, "gone.rhai");
}

// ----- variant files --------------------------------------------------------

#[test]
fn variant_file_syntax_error_points_at_line_and_column() {
    let tmp = TempDir::new("variant-syntax");
    let path = tmp.write("v.toml", "name = \"v\"\npacks = [\"tower\"\nplayers = 2\n");
    let err = refused(&[
        "simulate",
        "--variant",
        &path.display().to_string(),
        "--games",
        "1",
    ]);
    // The list is not closed: the parser stops at the next line's key.
    says(&err, &at(&path, 3, 1));
}

#[test]
fn variant_file_wrong_type_points_at_the_value() {
    let tmp = TempDir::new("variant-type");
    let path = tmp.write(
        "v.toml",
        "name = \"v\"\npacks = [\"tower\"]\nplayers = \"two\"\n",
    );
    let err = refused(&["play", "--variant", &path.display().to_string()]);
    says(&err, &at(&path, 3, 11));
}

#[test]
fn variant_file_naming_an_unknown_pack_points_at_it() {
    let tmp = TempDir::new("variant-pack");
    let path = tmp.write(
        "v.toml",
        "name = \"v\"\npacks = [\"tower\", \"blak-tower\"]\n",
    );
    let err = refused(&["play", "--variant", &path.display().to_string()]);
    says(&err, &at(&path, 2, 19));
    says(&err, "did you mean `black-tower`?");
}

#[test]
fn variant_setting_an_undeclared_parameter_suggests_a_near_name() {
    let tmp = TempDir::new("variant-param");
    let path = tmp.write(
        "v.toml",
        "name = \"v\"\npacks = [\"tower\"]\n\n[params.tower]\nransom_cots = 4\n",
    );
    let err = refused(&[
        "simulate",
        "--variant",
        &path.display().to_string(),
        "--games",
        "1",
    ]);
    says(
        &err,
        "no parameter `ransom_cots`, did you mean `ransom_cost`?",
    );
}

// ----- names on the command line --------------------------------------------

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

// ----- hooks answering with the wrong type ----------------------------------

#[test]
fn range_returning_a_string_is_named_with_what_was_expected() {
    let tmp = TempDir::new("range-type");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        Some("fn range(tower, reach) {\n    \"north\"\n}\n"),
    );
    let err = range_with(&pack);
    says(
        &err,
        &format!(
            "hook `range` of pack `{pack}` ({}) returned string `north`",
            tmp.path.join("p/script.rhai").display()
        ),
    );
    says(&err, "expected an array of [dx, dy] pairs of integers");
}

#[test]
fn setup_returning_an_array_is_named_with_what_was_expected() {
    let tmp = TempDir::new("setup-type");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        Some("fn setup(players, foundations) {\n    [1, 2]\n}\n"),
    );
    let err = refused(&[
        "simulate",
        "--packs",
        &format!("tower,{pack}"),
        "--games",
        "3",
    ]);
    says(&err, &format!("hook `setup` of pack `{pack}`"));
    says(&err, "returned array `[1, 2]`");
    says(&err, "expected a map from floor kind to a count");
}

#[test]
fn may_place_floor_returning_1_is_named_with_what_was_expected() {
    let tmp = TempDir::new("place-type");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        Some("fn may_place_floor(tower, kind) {\n    1\n}\n"),
    );
    let err = range_with(&pack);
    says(&err, &format!("hook `may_place_floor` of pack `{pack}`"));
    says(&err, "`1`");
    says(&err, "expected a bool (true or false)");
}

// ----- scripts ----------------------------------------------------------------

#[test]
fn script_syntax_error_points_at_line_and_column() {
    let tmp = TempDir::new("script-syntax");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        Some("// A missing value.\nfn range(tower, reach) {\n    let x = ;\n    []\n}\n"),
    );
    let err = range_with(&pack);
    // `    let x = ` is 12 characters: the `;` is at column 13.
    says(&err, &format!("pack `{pack}`: "));
    says(&err, &at(&tmp.path.join("p/script.rhai"), 3, 13));
}

#[test]
fn hook_with_the_wrong_number_of_parameters_is_refused() {
    let tmp = TempDir::new("arity");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        Some("// One parameter short.\nfn range(tower) {\n    []\n}\n"),
    );
    let err = range_with(&pack);
    says(&err, &at(&tmp.path.join("p/script.rhai"), 2, 1));
    says(
        &err,
        "hook `range` takes 2 parameters (tower, reach), not 1",
    );
}

// ----- board files ------------------------------------------------------------

fn board_refused(name: &str, board: &str) -> (PathBuf, String, TempDir) {
    let tmp = TempDir::new(name);
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

// ----- towerlab check -----------------------------------------------------------

#[test]
fn check_accepts_a_good_pack() {
    let tmp = TempDir::new("check-good");
    let pack = tmp.pack(
        "knight",
        "[pack]\nname = \"knight\"\nrequires = [\"tower\"]\nscript = \"script.rhai\"\n",
        Some(
            "// Adds a knight's move to every tower's range.\nfn range(tower, reach) {\n    previous(tower, reach) + [[1, 2]]\n}\n",
        ),
    );
    for target in ["tower", pack.as_str()] {
        let out = run(&["check", target, "--games", "3"]);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "check {target}: {stdout}\n{}",
            text(&out.stderr)
        );
        says(&stdout, "ok: ");
        says(&stdout, "3 random games played");
        assert!(!stdout.contains("problem:"), "{stdout}");
    }
}

#[test]
fn check_lists_every_problem_of_a_broken_pack() {
    let tmp = TempDir::new("check-broken");
    let pack = tmp.pack(
        "broken",
        "[pack]\nname = \"broken\"\nrequires = [\"tower\"]\nscript = \"script.rhai\"\n\n[[floor]]\nname = \"red\"\n\n[[floor]]\nname = \"blue\"\n",
        Some(concat!(
            "// Broken three ways.\n",
            "fn setup(players, foundations) {\n",
            "    throw \"no floors today\";\n",
            "}\n",
            "\n",
            "fn may_place_floor(tower, kind) {\n",
            "    if kind == \"red\" {\n",
            "        return 1;\n",
            "    }\n",
            "    previous(tower, kind)\n",
            "}\n",
            "\n",
            "fn range(tower, reach) {\n",
            "    if tower.top == \"blue\" {\n",
            "        return \"north\";\n",
            "    }\n",
            "    previous(tower, reach)\n",
            "}\n",
        )),
    );
    let out = run(&["check", &pack, "--games", "3"]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    let script = tmp.path.join("broken/script.rhai");
    let problems: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("problem: "))
        .collect();
    assert_eq!(problems.len(), 3, "{stdout}");
    // The setup error, once (not once per player count), with its line.
    assert!(
        problems[0].contains("setup")
            && problems[0].contains(&at(&script, 3, 5))
            && problems[0].contains("no floors today"),
        "{stdout}"
    );
    assert!(
        problems.iter().any(|p| p.contains("floor kind `red`")
            && p.contains("hook `may_place_floor`")
            && p.contains("`1`")),
        "{stdout}"
    );
    assert!(
        problems.iter().any(|p| p.contains("floor kind `blue`")
            && p.contains("hook `range`")
            && p.contains("`north`")),
        "{stdout}"
    );
    says(&stderr, &format!("3 problem(s) found in `{pack}`"));
    assert!(!stdout.contains("ok: "), "{stdout}");
}

#[test]
fn check_reports_a_pack_that_does_not_load() {
    let tmp = TempDir::new("check-load");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        Some("fn range(tower, reach) {\n    [\n}\n"),
    );
    let out = run(&["check", &pack, "--games", "3"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    let problem = stdout
        .lines()
        .find(|l| l.starts_with("problem: "))
        .unwrap_or_else(|| panic!("no problem listed:\n{stdout}"));
    says(
        problem,
        &format!("{}:3:", tmp.path.join("p/script.rhai").display()),
    );
}

// ----- the parsers never panic ------------------------------------------------

/// Text made of a real file with a few random edits: at a random place,
/// delete up to 3 characters and insert up to 4, drawn mostly from the
/// characters that matter to the format.
fn mutated(originals: Vec<String>) -> impl Strategy<Value = String> {
    let insert = prop_oneof![
        "[#.T \\n\\r\\t\\[\\]{}=\"',#a-z0-9_\\-é]{0,4}",
        ".{0,4}",
        Just("\u{0}".to_string()),
    ];
    let edit = (any::<prop::sample::Index>(), 0usize..4, insert);
    (
        prop::sample::select(originals),
        prop::collection::vec(edit, 1..6),
    )
        .prop_map(|(original, edits)| {
            let mut chars: Vec<char> = original.chars().collect();
            for (at, delete, insert) in edits {
                let i = at.index(chars.len() + 1);
                let end = (i + delete).min(chars.len());
                chars.splice(i..end, insert.chars());
            }
            chars.into_iter().collect()
        })
}

/// Any text: arbitrary, or from the board alphabet, or mutated `originals`.
fn texts(originals: Vec<String>) -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), "[#.T \\n\\r]{0,60}", mutated(originals),]
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: 512,
        failure_persistence: None,
        ..Config::default()
    })
}

/// The `LINE:COL` after `path:` at the start of `message`, if any.
fn place(message: &str, path: &str) -> Option<(usize, usize)> {
    let rest = message.strip_prefix(path)?.strip_prefix(':')?;
    let mut parts = rest.splitn(3, ':');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

#[test]
fn board_parser_never_panics() {
    let boards = [
        "T\n",
        ".#.\n#T#\n.#.\n",
        "#####\n#...#\n#.T.#\n#...#\n#####\n",
        "..#..\n..#..\n##T##\n..#..\n..#..\n",
        "#.#\r\n.T.\r\n#.#\r\n",
        "\n\n  #T#  \n\n",
    ];
    let strategy = texts(boards.iter().map(|b| b.to_string()).collect());
    runner()
        .run(&strategy, |text| {
            match BoardMap::parse(&Source::new("board.txt", text.as_str())) {
                Ok(map) => {
                    // Exactly one `T`, and it is the origin.
                    prop_assert_eq!(text.matches('T').count(), 1);
                    prop_assert!(map.tiles.contains(&(0, 0)));
                }
                Err(e) => {
                    let message = format!("{e:#}");
                    prop_assert!(is_bad_input(&e), "not bad input: {}", message);
                    let (line, col) = place(&message, "board.txt")
                        .ok_or_else(|| TestCaseError::fail(format!("no place: {message}")))?;
                    prop_assert!(line >= 1 && line <= text.lines().count().max(1));
                    prop_assert!(col >= 1);
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn variant_loader_never_panics() {
    let variants = common::variants_dir();
    let originals: Vec<String> = std::fs::read_dir(&variants)
        .expect("variants/ exists")
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).expect("a readable variant"))
        .collect();
    assert!(!originals.is_empty());
    let tmp = TempDir::new("variant-fuzz");
    let path = tmp.path.join("fuzzed.toml");
    let reference = path.display().to_string();
    runner()
        .run(&texts(originals), |text| {
            std::fs::write(&path, &text).expect("write the variant");
            match load_variant(&variants, &reference) {
                Ok(v) => prop_assert!(!v.packs.is_empty()),
                Err(e) => {
                    let message = format!("{e:#}");
                    prop_assert!(is_bad_input(&e), "not bad input: {}", message);
                    prop_assert!(
                        place(&message, &reference).is_some(),
                        "no place: {}",
                        message
                    );
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn pack_loader_never_panics() {
    let rules = common::rules_dir();
    let originals: Vec<String> = ["tower", "black-tower", "house/no-gaps"]
        .iter()
        .map(|p| std::fs::read_to_string(rules.join(p).join("pack.toml")).expect("a manifest"))
        .collect();
    let tmp = TempDir::new("pack-fuzz");
    tmp.write("p/tower.rhai", "fn reach(tower) {\n    tower.height\n}\n");
    let reference = tmp.path.join("p").display().to_string();
    runner()
        .run(&texts(originals), |text| {
            tmp.write("p/pack.toml", &text);
            if let Err(e) = load_pack(&rules, &reference) {
                let message = format!("{e:#}");
                prop_assert!(is_bad_input(&e), "not bad input: {}", message);
            }
            Ok(())
        })
        .unwrap();
}

/// A hook that fails ends the game with its error whichever bot asked: the
/// greedy bot, which asks `range` and `may_capture` to weigh its floors,
/// passes the error on like the game's own questions do (exit 2).
#[test]
fn a_failing_capture_hook_ends_the_game_for_every_bot() {
    let tmp = TempDir::new("capture-throws");
    let hooks = [
        (
            "may_capture",
            "fn may_capture(tower, meeple, board) {\n    throw \"NO CAPTURE TODAY\";\n}\n",
        ),
        (
            "range",
            "fn range(tower, reach) {\n    throw \"NO CAPTURE TODAY\";\n}\n",
        ),
    ];
    for (hook, script) in hooks {
        let pack = tmp.pack(hook, &scripted(hook), Some(script));
        let packs = format!("tower,{pack}");
        // Random bots meet the error when a floor they place asks it. In
        // this one greedy game, the hook fails only when the bots ask it
        // (weighing floors they then never place), so the error must come
        // through the bot.
        let runs = [("random,random", "4"), ("greedy,greedy", "1")];
        for (bots, games) in runs {
            let args = [
                "simulate", "--packs", &packs, "--bots", bots, "--games", games, "--seed", "1",
            ];
            let err = refused(&args);
            says(&err, &format!("hook `{hook}`"));
            says(&err, "NO CAPTURE TODAY");
        }
    }
}

/// The hooks cached per floor stack see only what the cache key covers (the
/// floors, whether a meeple tops them): reading whose meeple tops the tower
/// there is an error that names what they may read; `may_capture`, asked
/// afresh, reads it, and so do `may_place_floor` and `may_top`, whose
/// answers are kept under what they read.
#[test]
fn a_cached_hook_reading_the_top_meeples_owner_is_told_what_it_may_read() {
    let tmp = TempDir::new("cached-owner");
    let cached = [
        (
            "reach",
            "fn reach(tower) {\n    if tower.meeple_owner == () { 1 } else { 0 }\n}\n",
        ),
        (
            "range",
            "fn range(tower, reach) {\n    if tower.meeple_owner == () { [[0, 0]] } else { [] }\n}\n",
        ),
    ];
    for (hook, script) in cached {
        let pack = tmp.pack(hook, &scripted(hook), Some(script));
        let packs = format!("tower,{pack}");
        let err = refused(&["simulate", "--packs", &packs, "--games", "2"]);
        says(&err, &format!("hook `{hook}`"));
        says(&err, "`tower.meeple_owner` is only known in `may_capture`");
        says(
            &err,
            "may read only `tower.height`, `tower.floors`, `tower.top`, `tower.count(kind)` and `tower.has_meeple`",
        );
    }
    let readers = [
        (
            "capture",
            "fn may_capture(tower, meeple, board) {\n    tower.meeple_owner != meeple.owner && tower.x == tower.x\n}\n",
        ),
        (
            "top",
            "fn may_top(tower) {\n    tower.meeple_owner == () && previous(tower)\n}\n",
        ),
        (
            "place",
            "fn may_place_floor(tower, kind) {\n    tower.meeple_owner == () && previous(tower, kind)\n}\n",
        ),
    ];
    for (name, script) in readers {
        let pack = tmp.pack(name, &scripted(name), Some(script));
        let packs = format!("tower,{pack}");
        crate::common::succeeds(&["simulate", "--packs", &packs, "--games", "2"]);
    }
}
