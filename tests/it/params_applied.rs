//! Parameter values are checked once and applied as they are: a ruleset
//! made again with them reads no pack and compiles no script, and its
//! scripts read the new values.

use towerlab::rules::param::Given;
use towerlab::rules::script::compiled_on_this_thread;
use towerlab::rules::setting::{self, Setting};
use towerlab::rules::{Home, LoadOptions, Ruleset};

use crate::common::temp_dir;

/// The Tower and a copy of the red floor's pack (in a folder of its own,
/// which the caller may remove), loaded.
fn red_floor() -> (tempfile::TempDir, Ruleset) {
    let dir = temp_dir("params-applied");
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/red-floor");
    for file in ["pack.toml", "red-floor.rhai"] {
        std::fs::copy(example.join(file), dir.path().join(file)).expect("a copy");
    }
    let packs = ["tower".to_string(), dir.path().display().to_string()];
    let set =
        Ruleset::from_packs(&Home::shipped(), &LoadOptions::default(), &packs).expect("loads");
    (dir, set)
}

fn reds(set: &Ruleset) -> u32 {
    let red = set.floor_kind("red").expect("red") as usize;
    let supply = set
        .rules()
        .seat_supply(2, set.tiles().foundation_tiles(), 0)
        .expect("supply");
    supply[red]
}

#[test]
fn applied_values_read_no_pack_and_compile_no_script() {
    let (dir, set) = red_floor();
    let red_pack = set.pack_names()[1].clone();
    let reference = format!("{}.red_per_player=7", red_pack);
    let settings = [Setting {
        pack: "red-floor",
        name: "red_per_player",
        value: Given::Text("7"),
    }];
    let checked = setting::resolve(set.packs(), &settings).expect("7 is within 0 to 10");
    // The same rules made from the files, for what they should be.
    let from_files = Ruleset::from_packs_with(
        &Home::shipped(),
        &LoadOptions::default(),
        set.pack_names(),
        &checked.written(),
    )
    .expect("loads");
    drop(dir);
    let compiled = compiled_on_this_thread();
    let with = set
        .with_params(&Home::shipped(), &checked)
        .unwrap_or_else(|e| panic!("applied without the pack's folder ({reference}): {e:#}"));
    assert_eq!(
        compiled_on_this_thread(),
        compiled,
        "no script compiled again"
    );
    assert_eq!(reds(&with), 7, "the script reads the value set");
    assert_eq!(reds(&set), 2, "the rules it was made from keep theirs");
    assert_eq!(with.fingerprint(), from_files.fingerprint());
    assert_eq!(with.params(), from_files.params());
    assert_eq!(
        with.params()[&red_pack]["red_per_player"],
        toml::Value::Integer(7)
    );
    // Applied again over those, a value replaces the one set before.
    let eight = [Setting {
        value: Given::Text("8"),
        ..settings[0]
    }];
    let eight = setting::resolve(with.packs(), &eight).expect("8 is within 0 to 10");
    assert_eq!(
        reds(&with.with_params(&Home::shipped(), &eight).unwrap()),
        8
    );
    assert_eq!(compiled_on_this_thread(), compiled);
}

#[test]
fn values_checked_against_other_packs_are_not_applied() {
    let (_dir, set) = red_floor();
    let tower = Ruleset::from_variant(&Home::shipped(), &LoadOptions::default(), "tower").unwrap();
    let settings = [Setting {
        pack: "tower",
        name: "ransom_cost",
        value: Given::Text("2"),
    }];
    let checked = setting::resolve(tower.packs(), &settings).unwrap();
    let Err(e) = set.with_params(&Home::shipped(), &checked) else {
        panic!("values checked against The Tower alone applied to other rules");
    };
    assert!(
        format!("{e:#}").contains("checked against other packs"),
        "{e:#}"
    );
    assert!(
        !towerlab::kernel::diag::is_bad_input(&e),
        "not the user's input"
    );
}
