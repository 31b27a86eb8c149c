//! Tuned values (`tuned/FINGERPRINT.toml` in a home folder) are an input
//! like any other: read under the input limit, every value in its range,
//! used only for the rules whose fingerprint they record, part of a run's
//! identity (merge refuses a mix) and named in every output they change.

use towerlab::rules::worths::{text, tuned_path};
use towerlab::rules::{Home, LoadOptions, Ruleset, Tuned, Worths};

use super::*;
use crate::common::{json, stdout, succeeds};
use crate::inputs_bounded::limited;

/// A home folder holding values tuned for the shipped `variant`, with a
/// prisoner worth `prisoner`; the home and the file.
fn tuned_home(variant: &str, prisoner: f32) -> (Scratch, std::path::PathBuf) {
    let home = Scratch::new("tuned-home");
    let set = Ruleset::from_variant(&Home::shipped(), &LoadOptions::default(), variant)
        .expect("a shipped variant");
    let tuned = Tuned {
        variant: variant.to_string(),
        fingerprint: set.fingerprint().clone(),
        seed: 1,
        games: 10,
        players: 2,
        worths: Worths {
            prisoner,
            ..Worths::default()
        },
    };
    let path = tuned_path(home.path(), set.fingerprint());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text(&tuned).unwrap()).unwrap();
    (home, path)
}

fn home_arg(home: &Scratch) -> String {
    home.path().display().to_string()
}

#[test]
fn a_tuned_file_that_is_endless_a_pipe_or_too_large_is_refused_at_once() {
    let (home, path) = tuned_home("tower", 1.5);
    let fifo = path.with_extension("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let huge = path.with_extension("huge");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&format!("# {}\n", "x".repeat(65 << 20)));
    std::fs::write(&huge, text).unwrap();
    for (target, why) in [
        (std::path::Path::new("/dev/zero"), "is not a file"),
        (fifo.as_path(), "is not a file"),
        (huge.as_path(), "larger than 64 MB"),
    ] {
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(target, &path).unwrap();
        let started = std::time::Instant::now();
        let out = limited(
            1 << 20,
            &["simulate", "--games", "1", "--home", &home_arg(&home)],
        );
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        says(&err, &path.display().to_string());
        says(&err, why);
        assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    }
}

#[test]
fn values_tuned_for_other_rules_are_refused_with_both_fingerprints() {
    // Black Tower's values, renamed to The Tower's fingerprint.
    let (home, black) = tuned_home("black-tower", 1.5);
    let tower = Ruleset::from_variant(&Home::shipped(), &LoadOptions::default(), "tower").unwrap();
    let renamed = tuned_path(home.path(), tower.fingerprint());
    std::fs::rename(&black, &renamed).unwrap();
    let black_fp = black.file_stem().unwrap().to_str().unwrap().to_string();
    for command in [
        "simulate --games 1",
        "play",
        "arena random greedy --games 2",
        "info tower",
    ] {
        let mut args = common::words(command);
        let home = home_arg(&home);
        args.extend(["--home", &home]);
        let err = refused(&args);
        says(&err, &renamed.display().to_string());
        says(
            &err,
            &format!("tuned for the rules of fingerprint {black_fp}"),
        );
        says(&err, &format!("not for these ({})", tower.fingerprint()));
    }
    // Black Tower itself, with no file of its own, plays the defaults.
    let v = json(&[
        "simulate",
        "--variant",
        "black-tower",
        "--games",
        "1",
        "--format",
        "json",
        "--home",
        &home_arg(&home),
    ]);
    assert_eq!(v["bot_values"], "defaults");
}

#[test]
fn a_tuned_value_out_of_its_range_is_refused_at_its_place() {
    for (from, to) in [
        ("prisoner = 1.5", "prisoner = 1e30"),
        ("prisoner = 1.5", "prisoner = -1.0"),
        ("open_share = 0.8", "open_share = 1.5"),
        ("cloister_drop = 0.05", "cloister_drop = nan"),
    ] {
        let (home, path) = tuned_home("tower", 1.5);
        let good = std::fs::read_to_string(&path).unwrap();
        assert!(good.contains(from), "{good}");
        let bad = good.replace(from, to);
        std::fs::write(&path, &bad).unwrap();
        let err = refused(&["simulate", "--games", "1", "--home", &home_arg(&home)]);
        let line = bad.lines().position(|l| l == to).unwrap() + 1;
        says(&err, &format!("{}:{line}:", path.display()));
        says(&err, "not a finite number from 0 to");
    }
}

#[test]
fn every_output_the_values_change_names_them() {
    let (home, path) = tuned_home("tower", 1.5);
    let home = home_arg(&home);
    let file = format!("tuned/{}", path.file_name().unwrap().to_str().unwrap());
    let with = |line: &str| {
        let mut args = common::words(line);
        args.extend(["--home", &home]);
        stdout(&succeeds(&args))
    };
    for line in [
        "simulate --games 2",
        "compare tower black-tower --games 2",
        "play --seed 3",
        "arena random greedy --games 2",
        "sweep --param tower.ransom_cost=3 --games 2",
    ] {
        let text = with(line);
        says(&text, "bot values: ");
        says(&text, &file);
    }
    let sim: serde_json::Value =
        serde_json::from_str(&with("simulate --games 2 --format json")).unwrap();
    let named = sim["bot_values"].as_str().unwrap();
    assert!(named.starts_with(&format!("{file}, values ")), "{named}");
    let cmp: serde_json::Value =
        serde_json::from_str(&with("compare tower black-tower --games 2 --format json")).unwrap();
    assert_eq!(cmp["bot_values"][0], named);
    assert_eq!(cmp["bot_values"][1], "defaults");
    let play: serde_json::Value = serde_json::from_str(&with("play --format json")).unwrap();
    assert_eq!(play["bot_values"], named);
    let arena: serde_json::Value =
        serde_json::from_str(&with("arena random greedy --games 2 --format json")).unwrap();
    assert_eq!(arena["bot_values"], named);
    let dir = Scratch::new("tuned-html");
    let html = dir.file("r.html");
    with(&format!(
        "compare tower black-tower --games 2 --html {html}"
    ));
    let page = std::fs::read_to_string(&html).unwrap();
    says(
        &page,
        &format!("bot values: tower {named}; black-tower defaults"),
    );
    // Without the file: the defaults, said so.
    says(
        &stdout(&succeeds(&["simulate", "--games", "2"])),
        "bot values: defaults",
    );
}

#[test]
fn merge_refuses_shards_played_with_other_bot_values_naming_them() {
    let (home, _) = tuned_home("tower", 1.5);
    let dir = Scratch::new("tuned-merge");
    let shard = |k: u32, home: Option<&str>| {
        let spec = format!("{k}/2");
        let mut args = vec![
            "simulate", "--games", "4", "--shard", &spec, "--format", "partial",
        ];
        if let Some(h) = home {
            args.extend(["--home", h]);
        }
        let path = dir.write(&format!("p{k}.json"), stdout(&succeeds(&args)));
        path.display().to_string()
    };
    let home = home_arg(&home);
    let (tuned, plain) = (shard(0, Some(&home)), shard(1, None));
    let err = refused(&["merge", &tuned, &plain]);
    says(&err, "is from another run than");
    says(&err, "bot values `defaults`, not `tuned/");
    // The same values on both sides merge.
    let both = shard(1, Some(&home));
    says(
        &stdout(&succeeds(&["merge", &tuned, &both])),
        "bot values: tuned/",
    );
}
