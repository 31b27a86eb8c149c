//! No command loses a file: an output path that is one of the command's
//! inputs, or that two of its outputs share, is refused before any work
//! (exit 2, naming both flags), and the file is left byte for byte as it
//! was. Paths are compared as files: `./x`, `x`, `dir/../x` and a link to
//! `x` are one.

use std::path::Path;
use std::process::Output;

use crate::common::{run, stderr, temp_dir, words};

/// Run `line` (words) in `dir`.
fn in_dir(dir: &Path, line: &str) -> Output {
    crate::common::towerlab()
        .current_dir(dir)
        .args(words(line))
        .env_remove("TOWERLAB_HOME")
        .output()
        .unwrap()
}

/// Run `line` in `dir`: refused with exit 2, naming the two flags of
/// `flags` (words); every file of `kept` unchanged.
fn refused_keeping(dir: &Path, line: &str, flags: &str, kept: &[&str]) {
    let before: Vec<Vec<u8>> = kept
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    let out = in_dir(dir, line);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{line}: {text}");
    for flag in words(flags) {
        assert!(text.contains(flag), "{line} should name {flag}: {text}");
    }
    for (f, bytes) in kept.iter().zip(before) {
        let after = std::fs::read(dir.join(f)).unwrap();
        assert_eq!(after, bytes, "{f} changed: {line}");
    }
}

/// A folder with a two-game log `g.jsonl`, two shards `p0.json` and
/// `p1.json`, a variant file `v.toml`, a pack `p` and a folder `sub`.
fn folder() -> tempfile::TempDir {
    let dir = temp_dir("clobber");
    let log = dir.path().join("g.jsonl");
    let out = run(&["simulate", "--games", "2", "--log", log.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    crate::inputs_bounded::shards(dir.path());
    std::fs::write(
        dir.path().join("v.toml"),
        "name = \"v\"\npacks = [\"tower\"]\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let pack = crate::common::script_pack(dir.path(), "p", "fn reach(tower) { 1 }\n");
    std::fs::create_dir(pack.join("sub")).unwrap();
    dir
}

#[test]
fn an_output_over_an_input_is_refused_and_the_input_kept() {
    let dir = folder();
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "render --log g.jsonl --output g.jsonl",
            "--output --log",
            &["g.jsonl"],
        ),
        (
            "render --log g.jsonl --output ./g.jsonl",
            "--output --log",
            &["g.jsonl"],
        ),
        (
            "merge p0.json p1.json --html p0.json",
            "--html PART",
            &["p0.json", "p1.json"],
        ),
        (
            "merge p0.json p1.json --per-game sub/../p1.json",
            "--per-game PART",
            &["p1.json"],
        ),
        (
            "simulate --variant v.toml --games 2 --log v.toml",
            "--log --variant",
            &["v.toml"],
        ),
        (
            "compare tower ./v.toml --games 2 --html v.toml",
            "--html VARIANT",
            &["v.toml"],
        ),
        (
            "sweep --variant v.toml --param tower.ransom_cost=1,2 --games 2 --per-game v.toml",
            "--per-game --variant",
            &["v.toml"],
        ),
        (
            "simulate --packs tower,./p --games 2 --log p/p.rhai",
            "--log --packs",
            &["p/p.rhai"],
        ),
        (
            "compare tower tower,p --games 2 --per-game ./p/sub/../pack.toml",
            "--per-game VARIANT",
            &["p/pack.toml"],
        ),
    ];
    for (line, flags, kept) in cases {
        refused_keeping(dir.path(), line, flags, kept);
    }
}

#[test]
fn two_outputs_on_one_path_are_refused_and_the_file_kept() {
    let dir = folder();
    let d = dir.path();
    std::fs::write(d.join("x"), "precious").unwrap();
    std::os::unix::fs::symlink(d.join("x"), d.join("link")).unwrap();
    let cases = [
        "simulate --games 2 --log x --per-game x",
        "simulate --games 2 --log x --per-game link",
        "compare tower black-tower --games 2 --log x --html ./x",
        "compare tower black-tower --games 2 --per-game x --html x",
        "sweep --variant tower --param tower.ransom_cost=1,2 --games 2 --per-game x --html x",
        "merge p0.json p1.json --per-game x --html x",
    ];
    for line in cases {
        let flags: Vec<&str> = words(line)
            .into_iter()
            .filter(|w| w.starts_with("--") && !["--games", "--variant", "--param"].contains(w))
            .collect();
        refused_keeping(d, line, &flags.join(" "), &["x"]);
    }
    // Two outputs that do not exist yet, spelled apart, are one file too;
    // nothing is written.
    refused_keeping(
        d,
        "simulate --games 2 --log new.jsonl --per-game sub/../new.jsonl",
        "--log --per-game",
        &[],
    );
    assert!(!d.join("new.jsonl").exists());
}

#[test]
fn distinct_outputs_and_devices_are_written() {
    let dir = folder();
    let d = dir.path();
    for line in [
        "simulate --games 2 --log a.jsonl --per-game b.csv",
        "simulate --games 2 --log /dev/null --per-game /dev/null",
        "render --log g.jsonl --output g.svg",
    ] {
        let out = in_dir(d, line);
        assert!(out.status.success(), "{line}: {}", stderr(&out));
    }
    assert!(d.join("a.jsonl").exists() && d.join("b.csv").exists());
    assert!(d.join("g.svg").exists());
}

/// A home folder `h` with a variant `mine`, a pack `mypack` and a tuned
/// values file: the files a run reads by name, not by path.
fn home_folder() -> tempfile::TempDir {
    let dir = temp_dir("clobber-home");
    let home = dir.path().join("h");
    std::fs::create_dir_all(home.join("variants")).unwrap();
    std::fs::create_dir_all(home.join("tuned")).unwrap();
    std::fs::write(
        home.join("variants/mine.toml"),
        "name = \"mine\"\npacks = [\"tower\", \"mypack\"]\n",
    )
    .unwrap();
    std::fs::write(home.join("tuned/0.toml"), "# kept\n").unwrap();
    crate::common::script_pack(&home.join("rules"), "mypack", "fn reach(tower) { 1 }\n");
    dir
}

#[test]
fn an_output_into_the_home_folders_packs_variants_or_tuned_values_is_refused() {
    let dir = home_folder();
    let script = "h/rules/mypack/mypack.rhai";
    let kept = ["h/variants/mine.toml", "h/tuned/0.toml", script];
    let cases = [
        "play --home h --variant mine --log h/variants/mine.toml".to_string(),
        format!("play --home h --variant mine --trace {script}"),
        "simulate --home h --variant mine --games 2 --per-game h/tuned/0.toml".to_string(),
        // A new file there too: a log named .toml would be read as a variant.
        "simulate --home h --variant mine --games 2 --log h/variants/new.toml".to_string(),
        // The current folder is the home when it has rules/, variants/ or tuned/.
        "play --variant mine --log ./variants/mine.toml".to_string(),
    ];
    for line in &cases {
        let in_home = line.contains("./variants");
        let at = if in_home {
            dir.path().join("h")
        } else {
            dir.path().to_path_buf()
        };
        let kept: Vec<&str> = kept
            .iter()
            .map(|k| if in_home { &k[2..] } else { k })
            .collect();
        refused_keeping(&at, line, "home folder's", &kept);
    }
    assert!(!dir.path().join("h/variants/new.toml").exists());
    // Beside the library, in the home folder itself, outputs are written.
    let out = in_dir(
        dir.path(),
        "play --home h --variant mine --log h/game.jsonl",
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn a_run_that_fails_leaves_the_earlier_outputs_as_they_were() {
    let dir = temp_dir("clobber-late");
    // A pack whose hook fails once a game is well under way: some games
    // end before it does.
    crate::common::script_pack(
        dir.path(),
        "late",
        "fn may_capture(tower, meeple, board) {\n  if game().turn > 40 && game().score(0) > 10 { throw \"late failure\"; }\n  previous(tower, meeple, board)\n}\n",
    );
    std::fs::write(dir.path().join("old.jsonl"), "earlier log\n").unwrap();
    std::fs::write(dir.path().join("old.csv"), "earlier rows\n").unwrap();
    let line =
        "simulate --packs tower,./late --games 20 --threads 1 --log old.jsonl --per-game old.csv";
    let out = in_dir(dir.path(), line);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("late failure"), "{}", stderr(&out));
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).unwrap();
    assert_eq!(read("old.jsonl"), "earlier log\n");
    assert_eq!(read("old.csv"), "earlier rows\n");
    // Nothing half-written is left beside them.
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".towerlab-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // A run that succeeds replaces them, readable by all as a new file is.
    let out = in_dir(
        dir.path(),
        "simulate --games 2 --threads 1 --log new.jsonl --per-game old.csv",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(read("new.jsonl").lines().count() > 2);
    assert!(
        read("old.csv").starts_with("variant,game,seed"),
        "{}",
        read("old.csv")
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.path().join("new.jsonl"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o644);
}

#[test]
fn an_output_in_no_folder_is_refused_before_the_work_and_a_full_disk_is_no_bad_input() {
    let dir = temp_dir("clobber-folder");
    for line in [
        "play --trace none/x.txt",
        "simulate --games 2 --log none/x.jsonl",
        "compare tower black-tower --games 2 --html none/x.html",
    ] {
        let out = in_dir(dir.path(), line);
        assert_eq!(out.status.code(), Some(2), "{line}");
        assert!(
            stderr(&out).contains("there is no folder `none` to write it in"),
            "{line}: {}",
            stderr(&out)
        );
        // Refused before any game: nothing was printed.
        assert!(out.stdout.is_empty(), "{line}");
    }
    if Path::new("/dev/full").exists() {
        for line in [
            "play --log /dev/full",
            "simulate --games 2 --per-game /dev/full",
        ] {
            let out = in_dir(dir.path(), line);
            assert_eq!(out.status.code(), Some(1), "{line}: {}", stderr(&out));
            assert!(stderr(&out).contains("No space left on device"), "{line}");
        }
    }
}
