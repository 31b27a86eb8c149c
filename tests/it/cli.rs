//! The command line through the real binary: output formats, determinism, and
//! exit code 2 with a message on stderr for every kind of bad input.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{self, copy_dir, fails, json, refused, run, stderr, stdout};

fn uint(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` is not a non-negative integer in {v}"))
}

/// The play report without its `seed` field, which differs trivially.
fn without_seed(mut v: Value) -> Value {
    v.as_object_mut().expect("a JSON object").remove("seed");
    v
}

/// A scratch home folder (`--home`): copies of the shipped `rules/` and
/// `variants/`, with `base` as the base set's tiles.toml; removed on drop.
struct TempHome {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl TempHome {
    fn new(name: &str, base: &str) -> TempHome {
        let folder = crate::common::temp_dir(&format!("cli-{name}"));
        let dir = folder.path().to_path_buf();
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR"));
        copy_dir(&shipped.join("rules"), &dir.join("rules"));
        copy_dir(&shipped.join("variants"), &dir.join("variants"));
        std::fs::write(dir.join("rules").join("base").join("tiles.toml"), base).unwrap();
        TempHome {
            path: dir,
            _dir: folder,
        }
    }

    fn path(&self) -> &str {
        self.path.to_str().expect("a UTF-8 temp path")
    }

    /// The base tile file as error messages name it.
    fn base_tiles(&self) -> String {
        self.path
            .join("rules")
            .join("base")
            .join("tiles.toml")
            .display()
            .to_string()
    }
}

// ---- play ----------------------------------------------------------------

#[test]
fn play_json_reports_scores_per_player_and_counts() {
    // G9: the deck is every tile of both sets less the start tile, and every
    // turn draws at least one tile, so there are at most that many turns.
    let deck = common::tiles().total_tiles() as u64 - 1;
    for n in 2..=8usize {
        let players = n.to_string();
        let v = json(&[
            "play",
            "--seed",
            "11",
            "--players",
            &players,
            "--format",
            "json",
        ]);
        let scores = v["scores"]
            .as_array()
            .unwrap_or_else(|| panic!("no `scores` array in {v}"));
        assert_eq!(scores.len(), n, "{v}");
        assert!(scores.iter().all(Value::is_u64), "{v}");
        assert_eq!(uint(&v, "players"), n as u64, "{v}");
        assert_eq!(uint(&v, "seed"), 11, "{v}");
        let turns = uint(&v, "turns");
        assert!(turns >= 1 && turns <= deck, "{turns} turns, deck of {deck}");
        uint(&v, "captures");
        uint(&v, "ransoms");
    }
}

#[test]
fn play_same_seed_prints_the_same_output() {
    let args = ["play", "--seed", "42", "--players", "3", "--format", "json"];
    let first = run(&args);
    let second = run(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(stdout(&first), stdout(&second));
    // The text format too.
    let text = ["play", "--seed", "42", "--players", "3"];
    assert_eq!(stdout(&run(&text)), stdout(&run(&text)));
}

#[test]
fn play_different_seeds_play_different_games() {
    let games: Vec<Value> = (1..=6)
        .map(|s| {
            let seed = s.to_string();
            without_seed(json(&["play", "--seed", &seed, "--format", "json"]))
        })
        .collect();
    let distinct = games
        .iter()
        .enumerate()
        .filter(|(i, g)| !games[..*i].contains(g))
        .count();
    assert!(
        distinct >= 2,
        "six seeds gave one and the same game: {}",
        games[0]
    );
}

#[test]
fn play_text_mentions_each_player() {
    for n in [2usize, 5] {
        let players = n.to_string();
        let out = run(&["play", "--seed", "3", "--players", &players]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        for p in 1..=n {
            assert!(
                text.contains(&format!("player {p}:")),
                "no player {p}:\n{text}"
            );
        }
        let extra = n + 1;
        assert!(
            !text.contains(&format!("player {extra}:")),
            "a player {extra} in a {n}-player game:\n{text}"
        );
    }
}

// ---- simulate ------------------------------------------------------------

#[test]
fn simulate_json_reports_speed_and_mean_scores() {
    let v = json(&[
        "simulate",
        "--games",
        "50",
        "--seed",
        "3",
        "--players",
        "3",
        "--format",
        "json",
    ]);
    let speed = v["games_per_sec"]
        .as_f64()
        .unwrap_or_else(|| panic!("no `games_per_sec` number in {v}"));
    assert!(speed > 0.0, "{v}");
    let means = v["mean_scores"]
        .as_array()
        .unwrap_or_else(|| panic!("no `mean_scores` array in {v}"));
    assert_eq!(means.len(), 3, "{v}");
    assert!(
        means.iter().all(|m| m.as_f64().is_some_and(|m| m >= 0.0)),
        "{v}"
    );
    assert_eq!(uint(&v, "games"), 50, "{v}");
}

#[test]
fn simulate_results_do_not_depend_on_threads() {
    let run_with = |threads: &str| {
        json(&[
            "simulate",
            "--games",
            "50",
            "--seed",
            "3",
            "--players",
            "3",
            "--threads",
            threads,
            "--format",
            "json",
        ])
    };
    let one = run_with("1");
    let two = run_with("2");
    assert_eq!(uint(&one, "threads"), 1);
    assert_eq!(uint(&two, "threads"), 2);
    assert_eq!(one["mean_scores"], two["mean_scores"]);
    assert_eq!(one["mean_turns"], two["mean_turns"]);
    assert_eq!(one["mean_captures"], two["mean_captures"]);
    assert_eq!(one["mean_ransoms"], two["mean_ransoms"]);
}

// ---- bad usage and bad input: exit 2 ---------------------------------------

#[test]
fn nine_players_are_refused() {
    // A game is for 2 to 8 players.
    let err = refused(&["play", "--players", "9"]);
    assert!(err.contains("--players") && err.contains('9'), "{err}");
    let err = refused(&["simulate", "--games", "1", "--players", "9"]);
    assert!(err.contains("--players"), "{err}");
}

#[test]
fn one_player_is_refused() {
    let err = refused(&["play", "--players", "1"]);
    assert!(err.contains("--players") && err.contains('1'), "{err}");
}

#[test]
fn an_unknown_flag_is_refused() {
    let err = refused(&["play", "--colour", "red"]);
    assert!(err.contains("--colour"), "{err}");
}

#[test]
fn an_unknown_format_is_refused() {
    let err = refused(&["play", "--format", "xml"]);
    assert!(err.contains("xml"), "{err}");
    assert!(
        err.contains("json"),
        "the message should list the formats: {err}"
    );
}

#[test]
fn zero_games_are_refused() {
    let err = refused(&["simulate", "--games", "0"]);
    assert!(err.contains("--games") && err.contains('0'), "{err}");
}

#[test]
fn a_missing_home_is_refused_by_name() {
    let err = refused(&["play", "--home", "/nonexistent"]);
    assert!(err.contains("/nonexistent"), "{err}");
    let err = refused(&["simulate", "--games", "1", "--home", "/nonexistent"]);
    assert!(err.contains("/nonexistent"), "{err}");
}

#[test]
fn a_tile_file_syntax_error_is_reported_at_its_line() {
    // Line 4 has a key with no value.
    let home = TempHome::new("syntax", "[set]\nname = \"base\"\ntotal = 1\nstart =\n");
    let err = refused(&["play", "--home", home.path()]);
    let file = home.base_tiles();
    let at = err
        .find(&format!("{file}:"))
        .unwrap_or_else(|| panic!("no `{file}:LINE:COL` in {err}"));
    let place: Vec<&str> = err[at + file.len() + 1..].splitn(3, ':').take(2).collect();
    assert_eq!(place.len(), 2, "{err}");
    assert_eq!(place[0], "4", "wrong line: {err}");
    assert!(
        place[1].parse::<u32>().is_ok_and(|c| c >= 1),
        "no column: {err}"
    );
}

#[test]
fn g1_a_bad_edge_letter_is_reported_at_line_and_column() {
    // G1: an edge shows a city, a road or a field; `Q` is none of them. The
    // value `"CRQF"` starts at line 10, column 9.
    let broken = "\
[set]
name = \"base\"
total = 1
start = \"X\"

[[tile]]
name = \"X\"
count = 1
# the third edge is wrong
edges = \"CRQF\"
";
    let home = TempHome::new("edge", broken);
    let err = refused(&["play", "--home", home.path()]);
    assert!(
        err.contains(&format!("{}:10:9:", home.base_tiles())),
        "{err}"
    );
    assert!(err.contains('Q'), "{err}");
}

// ---- help ----------------------------------------------------------------

#[test]
fn help_lists_the_subcommands() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("play"), "{text}");
    assert!(text.contains("simulate"), "{text}");
}

#[test]
fn play_takes_bots_per_seat() {
    // The same seed deals the same tiles; a greedy first seat outscores a
    // random second one over a few seeds, and names are checked.
    let mut lead = 0i64;
    for seed in ["1", "2", "3", "4", "5"] {
        let v = json(&[
            "play",
            "--seed",
            seed,
            "--bots",
            "greedy,random",
            "--format",
            "json",
        ]);
        let scores = v["scores"].as_array().expect("scores");
        lead += scores[0].as_i64().unwrap() - scores[1].as_i64().unwrap();
        let again = json(&[
            "play",
            "--seed",
            seed,
            "--bots",
            "greedy,random",
            "--format",
            "json",
        ]);
        assert_eq!(v, again, "same seed, same game");
    }
    assert!(lead > 0, "greedy leads random by {lead} over five games");
    let err = refused(&["play", "--bots", "greedie"]);
    assert!(err.contains("did you mean `greedy`"), "{err}");
}

/// A native rule set stands alone, and says which scripted packs to take
/// instead; a misspelt one is named.
#[test]
fn a_native_rule_set_stands_alone_and_is_found_by_its_name() {
    let msg = fails(
        2,
        &[
            "simulate",
            "--packs",
            "native:black-tower,tower",
            "--games",
            "1",
        ],
    );
    assert!(
        msg.contains("`native:black-tower` is native reference rules and stands alone"),
        "{msg}"
    );
    assert!(msg.contains("(`tower,black-tower`)"), "{msg}");
    // The list it suggests plays: the mirror in the native's place, every
    // pack after what it requires.
    for (packs, fixed) in [
        ("native:tower,house/no-gaps", "tower,house/no-gaps"),
        (
            "house/no-gaps,native:black-tower",
            "tower,house/no-gaps,black-tower",
        ),
    ] {
        let msg = fails(2, &["simulate", "--packs", packs, "--games", "1"]);
        assert!(msg.contains(&format!("e.g. --packs {fixed}")), "{msg}");
        let out = run(&["simulate", "--packs", fixed, "--games", "1"]);
        assert!(out.status.success(), "{fixed}: {}", common::stderr(&out));
    }
    let msg = fails(
        2,
        &["simulate", "--packs", "native:black-towr", "--games", "1"],
    );
    assert!(msg.contains("did you mean `native:black-tower`?"), "{msg}");
    let out = stdout(&run(&["info", "native:black-tower"]));
    assert!(out.contains("hooks: native Rust"), "{out}");
    assert!(out.contains("black") && out.contains("white"), "{out}");
    // A home folder whose `black-tower` declares other floors: the native
    // rules, which know their kinds by position, refuse to play them.
    let home = common::temp_dir("native-floors");
    let manifest = "[pack]\nname = \"black-tower\"\nrequires = [\"tower\"]\n\n\
                    [[floor]]\nname = \"white\"\n\n[[floor]]\nname = \"black\"\n";
    common::write_pack(&home.path().join("rules"), "black-tower", manifest, &[]);
    let home = home.path().to_str().expect("a UTF-8 path");
    let msg = fails(
        2,
        &[
            "simulate",
            "--packs",
            "native:black-tower",
            "--games",
            "1",
            "--home",
            home,
        ],
    );
    assert!(
        msg.contains("`native:black-tower` plays the floor kinds regular, black, white"),
        "{msg}"
    );
    assert!(msg.contains("declare regular, white, black"), "{msg}");
}

/// A table written to a pipe or a file is laid out 100 columns wide, its
/// long cells wrapped (a simulate table ran to 184 columns).
#[test]
fn tables_written_to_a_pipe_are_at_most_100_columns_wide() {
    for args in [
        &["simulate", "--games", "4", "--threads", "1"][..],
        &[
            "sweep",
            "--param",
            "tower.ransom_cost=2,3",
            "--games",
            "2",
            "--threads",
            "1",
        ][..],
    ] {
        let text = stdout(&run(args));
        // The table's lines (the title above it is a sentence).
        let widest = text
            .lines()
            .filter(|l| l.starts_with(['│', '┌', '╞', '├', '└']))
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        assert!(widest <= 100, "{args:?}: {widest} columns:\n{text}");
        assert!(text.contains("score.seat1"), "{text}");
    }
}
