//! Home folders and the shipped files: the binary carries `rules/` and
//! `variants/`, so a copy of it runs from an empty folder; a home folder
//! (`--home`, `TOWERLAB_HOME`, or the current folder when it has `rules/` or
//! `variants/`) adds packs and variants, and its names win.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;
use towerlab::rules::{Home, Origin};

/// A copy of the built binary in a folder of its own, far from the source
/// tree, and an empty folder to run it from.
struct Installed {
    _bin: TempDir,
    exe: PathBuf,
    empty: TempDir,
}

impl Installed {
    fn new() -> Installed {
        let bin = TempDir::new().expect("a temp folder");
        let exe = bin.path().join("towerlab");
        std::fs::copy(env!("CARGO_BIN_EXE_towerlab"), &exe).expect("copy the binary");
        Installed {
            _bin: bin,
            exe,
            empty: TempDir::new().expect("a temp folder"),
        }
    }

    /// The binary, run from `dir`, with no home folder from the environment.
    fn command_in(&self, dir: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(&self.exe);
        cmd.args(args).current_dir(dir).env_remove("TOWERLAB_HOME");
        cmd
    }

    fn run_in(&self, dir: &Path, args: &[&str]) -> Output {
        // A binary copied a moment ago may still be open for writing in a
        // process another test thread forked meanwhile ("text file busy").
        for _ in 0..50 {
            match self.command_in(dir, args).output() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                result => return result.expect("the binary runs"),
            }
        }
        panic!("the copied binary stays busy")
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_in(self.empty.path(), args)
    }
}

fn succeeded(args: &[&str], out: Output) -> String {
    assert!(
        out.status.success(),
        "{args:?} failed: {:?}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A home folder holding the example red-floor pack as `rules/red-floor`.
fn home_with_red_floor() -> TempDir {
    let home = TempDir::new().expect("a temp folder");
    let pack = home.path().join("rules/red-floor");
    std::fs::create_dir_all(&pack).unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/red-floor");
    for file in ["pack.toml", "red-floor.rhai"] {
        std::fs::copy(example.join(file), pack.join(file)).unwrap();
    }
    home
}

/// A home folder with its own `tower` pack: the shipped one, with `reach`
/// broken on line `line` of the copy.
fn home_with_own_tower() -> (TempDir, PathBuf) {
    let home = TempDir::new().expect("a temp folder");
    let pack = home.path().join("rules/tower");
    std::fs::create_dir_all(&pack).unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tower");
    for file in ["pack.toml", "tiles.toml"] {
        std::fs::copy(shipped.join(file), pack.join(file)).unwrap();
    }
    let script = std::fs::read_to_string(shipped.join("tower.rhai")).unwrap();
    let broken = script.replacen("fn reach(tower) {", "fn reach(tower) {\n    ((", 1);
    assert_ne!(script, broken, "the shipped tower.rhai defines reach");
    std::fs::write(pack.join("tower.rhai"), broken).unwrap();
    let file = pack.join("tower.rhai");
    (home, file)
}

#[test]
fn a_copied_binary_plays_from_an_empty_folder() {
    let bin = Installed::new();
    let args = ["play", "--seed", "7", "--format", "json"];
    let out = succeeded(&args, bin.run(&args));
    assert!(out.contains(r#""variant":"tower""#), "{out}");
    let args = [
        "simulate",
        "--variant",
        "black-tower",
        "--games",
        "4",
        "--format",
        "json",
    ];
    let out = succeeded(&args, bin.run(&args));
    assert!(out.contains(r#""packs":["tower","black-tower"]"#), "{out}");
}

#[test]
fn shipped_files_give_the_same_game_and_names_as_the_source_tree() {
    let bin = Installed::new();
    let args = [
        "play",
        "--variant",
        "black-tower",
        "--seed",
        "11",
        "--format",
        "json",
    ];
    let shipped = succeeded(&args, bin.run(&args));
    let tree = Path::new(env!("CARGO_MANIFEST_DIR"));
    let from_tree = succeeded(&args, bin.run_in(tree, &args));
    assert_eq!(shipped, from_tree);
}

#[test]
fn check_of_a_shipped_variant_says_it_is_shipped() {
    let bin = Installed::new();
    let args = ["check", "black-tower", "--games", "2"];
    let out = succeeded(&args, bin.run(&args));
    assert!(out.contains("variant `black-tower`: shipped"), "{out}");
    assert!(out.contains("pack `tower`: shipped"), "{out}");
    assert!(out.contains("pack `black-tower`: shipped"), "{out}");
}

#[test]
fn a_pack_in_a_home_folder_is_used_by_name_beside_the_shipped_ones() {
    let bin = Installed::new();
    let home = home_with_red_floor();
    let dir = home.path().to_str().unwrap();
    let args = [
        "--home",
        dir,
        "simulate",
        "--packs",
        "tower,red-floor",
        "--games",
        "3",
        "--format",
        "json",
    ];
    let out = succeeded(&args, bin.run(&args));
    assert!(out.contains(r#""packs":["tower","red-floor"]"#), "{out}");
    // The same folder named by the environment.
    let args = ["check", "red-floor", "--games", "2"];
    let out = bin
        .command_in(bin.empty.path(), &args)
        .env("TOWERLAB_HOME", dir)
        .output()
        .unwrap();
    let out = succeeded(&args, out);
    let own = home.path().join("rules/red-floor");
    assert!(
        out.contains(&format!("pack `red-floor`: {}", own.display())),
        "{out}"
    );
    assert!(out.contains("pack `tower`: shipped"), "{out}");
}

#[test]
fn the_current_folder_with_rules_is_a_home_folder() {
    let bin = Installed::new();
    let home = home_with_red_floor();
    let args = ["simulate", "--packs", "tower,red-floor", "--games", "2"];
    succeeded(&args, bin.run_in(home.path(), &args));
}

#[test]
fn the_current_folder_with_only_variants_is_a_home_folder() {
    let bin = Installed::new();
    let home = tempfile::tempdir().unwrap();
    let variants = home.path().join("variants");
    std::fs::create_dir_all(&variants).unwrap();
    std::fs::write(
        variants.join("mine.toml"),
        "name = \"mine\"\npacks = [\"tower\", \"house/no-gaps\"]\n",
    )
    .unwrap();
    let args = ["play", "--variant", "mine"];
    let out = succeeded(&args, bin.run_in(home.path(), &args));
    assert!(out.starts_with("mine (tower + house/no-gaps)"), "{out}");
    // `mine.toml` names the same variant, not `mine.toml.toml`.
    let args = ["play", "--variant", "mine.toml"];
    let out = succeeded(&args, bin.run_in(home.path(), &args));
    assert!(out.starts_with("mine (tower + house/no-gaps)"), "{out}");
}

#[test]
fn a_variant_in_a_home_folder_lists_shipped_packs() {
    let bin = Installed::new();
    let home = home_with_red_floor();
    let variants = home.path().join("variants");
    std::fs::create_dir_all(&variants).unwrap();
    std::fs::write(
        variants.join("red.toml"),
        "name = \"red\"\npacks = [\"tower\", \"black-tower\", \"red-floor\"]\n",
    )
    .unwrap();
    let dir = home.path().to_str().unwrap();
    let args = ["--home", dir, "check", "red", "--games", "2"];
    let out = succeeded(&args, bin.run(&args));
    let file = variants.join("red.toml");
    assert!(
        out.contains(&format!("variant `red`: {}", file.display())),
        "{out}"
    );
    assert!(out.contains("pack `black-tower`: shipped"), "{out}");
    // The shipped variants are still there.
    let args = ["--home", dir, "play", "--variant", "black-tower"];
    succeeded(&args, bin.run(&args));
}

#[test]
fn a_home_folder_pack_named_like_a_shipped_one_wins() {
    let bin = Installed::new();
    let (home, broken) = home_with_own_tower();
    let dir = home.path().to_str().unwrap();
    let args = ["--home", dir, "play"];
    let out = bin.run(&args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}:", broken.display())),
        "the home folder's tower.rhai is the one loaded: {err}"
    );
    let args = ["--home", dir, "check", "tower", "--games", "1"];
    let out = bin.run(&args);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert!(text.contains(&broken.display().to_string()), "{text}");
}

#[test]
fn check_says_which_pack_of_a_name_is_used() {
    let (home, _) = home_with_own_tower();
    // Mend the copy: the folder's pack is then a working `tower`.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tower/tower.rhai");
    std::fs::copy(shipped, home.path().join("rules/tower/tower.rhai")).unwrap();
    let bin = Installed::new();
    let dir = home.path().to_str().unwrap();
    let args = ["--home", dir, "check", "tower", "--games", "1"];
    let out = succeeded(&args, bin.run(&args));
    let own = home.path().join("rules/tower");
    assert!(
        out.contains(&format!("pack `tower`: {}", own.display())),
        "{out}"
    );
}

#[test]
fn a_home_folder_that_does_not_exist_is_bad_input() {
    let bin = Installed::new();
    let missing = bin.empty.path().join("no-such-home");
    let dir = missing.to_str().unwrap();
    let out = bin.run(&["--home", dir, "play"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("home folder `{dir}` (from --home) does not exist")),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let out = bin
        .command_in(bin.empty.path(), &["play"])
        .env("TOWERLAB_HOME", dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("(from TOWERLAB_HOME) does not exist"));
}

#[test]
fn shipped_files_are_named_as_shipped_in_errors() {
    let home = Home::shipped();
    let pack = home.load_pack("tower").expect("the shipped tower pack");
    assert_eq!(pack.origin, Origin::Shipped);
    assert_eq!(pack.manifest.path, Path::new("rules/tower/pack.toml"));
    let err = pack.manifest.error_at(0..0, "a problem");
    assert_eq!(err.to_string(), "rules/tower/pack.toml:1:1: a problem");
    let script = pack.script.expect("a script");
    assert_eq!(script.path, Path::new("rules/tower/tower.rhai"));
    let variant = home.load_variant("black-tower").expect("a shipped variant");
    assert_eq!(variant.source.path, Path::new("variants/black-tower.toml"));
}

#[test]
fn the_shipped_names_are_the_source_tree_s() {
    let shipped = Home::shipped();
    let tree = towerlab::rules::Dir::Disk(crate::common::rules_dir());
    assert_eq!(shipped.packs(), tree.packs());
    let variants = towerlab::rules::Dir::Disk(crate::common::variants_dir());
    assert_eq!(shipped.variants(), variants.variants());
    assert!(shipped.packs().contains(&"house/no-gaps".to_string()));
}

#[test]
fn the_tests_run_on_the_counting_allocator() {
    // Installed in tests/it/main.rs, as src/main.rs installs it in the binary.
    assert!(towerlab::rules::script::memory::is_installed());
}

/// The red-floor example pack, copied to a folder of its own.
fn red_floor_in_temp() -> (TempDir, PathBuf) {
    let dir = TempDir::new().expect("a temp folder");
    let pack = dir.path().join("red-floor");
    std::fs::create_dir_all(&pack).unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/red-floor");
    for file in ["pack.toml", "red-floor.rhai"] {
        std::fs::copy(example.join(file), pack.join(file)).unwrap();
    }
    (dir, pack)
}

#[test]
fn a_log_replays_and_renders_after_its_packs_folder_is_deleted_from_another_folder() {
    let installed = Installed::new();
    let (dir, pack) = red_floor_in_temp();
    let logs = TempDir::new().expect("a temp folder");
    let log = logs.path().join("run.jsonl");
    let packs = format!("tower,{}", pack.display());
    let (log_s, packs_s) = (log.to_str().unwrap(), packs.as_str());
    let args = [
        "simulate", "--packs", packs_s, "--games", "20", "--log", log_s,
    ];
    succeeded(&args, installed.run_in(dir.path(), &args));
    let text = std::fs::read_to_string(&log).unwrap();
    let start: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let files = &start["pack_files"][0];
    assert_eq!(files["pack"], packs_s.split(',').nth(1).unwrap());
    assert!(files["files"]["red-floor.rhai"].is_string(), "{start}");
    assert_eq!(
        start["pack_files"].as_array().unwrap().len(),
        1,
        "the shipped tower pack is logged by name only"
    );
    assert!(text.contains("\"kind\":\"red\""), "red floors were played");
    drop(dir);
    assert!(!pack.exists());
    let replay = ["replay", log_s];
    let said = succeeded(&replay, installed.run(&replay));
    assert!(said.contains("20 games"), "{said}");
    let render = ["render", "--log", log_s, "--game", "3"];
    let svg = succeeded(&render, installed.run(&render));
    assert!(svg.starts_with("<svg"), "{svg}");
}

#[test]
fn the_logged_files_win_over_a_changed_pack_of_the_same_path() {
    let installed = Installed::new();
    let (dir, pack) = red_floor_in_temp();
    let log = dir.path().join("run.jsonl");
    let packs = format!("tower,{}", pack.display());
    let args = [
        "simulate",
        "--packs",
        &packs,
        "--games",
        "5",
        "--log",
        log.to_str().unwrap(),
    ];
    succeeded(&args, installed.run(&args));
    // The pack now throws in every hook; the log's copy is what replays.
    std::fs::write(
        pack.join("red-floor.rhai"),
        "fn reach(tower) { throw \"changed\" }",
    )
    .unwrap();
    let replay = ["replay", log.to_str().unwrap()];
    succeeded(&replay, installed.run(&replay));
}
