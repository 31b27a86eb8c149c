//! Pack manifests and variant files: syntax errors, unknown keys, wrong types
//! and missing names pointed at with `FILE:LINE:COL`; a parameter a variant
//! sets that no pack declares answered with the nearest name.

use super::*;

#[test]
fn pack_toml_syntax_error_points_at_line_and_column() {
    let tmp = Scratch::new("toml-syntax");
    let pack = tmp.pack("p", "[pack]\nname = \"bad\"\ntitle = \"unterminated\n", &[]);
    let err = range_with(&pack);
    // Line 3 ends after `title = "unterminated` (21 characters).
    says(&err, &at(&tmp.path().join("p/pack.toml"), 3, 22));
}

#[test]
fn pack_toml_unknown_key_points_at_it() {
    let tmp = Scratch::new("toml-key");
    let pack = tmp.pack("p", "[pack]\nname = \"bad\"\ncolor = \"red\"\n", &[]);
    let err = range_with(&pack);
    says(&err, &at(&tmp.path().join("p/pack.toml"), 3, 1));
    says(&err, "unknown field `color`");
}

#[test]
fn pack_toml_wrong_type_points_at_the_value() {
    let tmp = Scratch::new("toml-type");
    let pack = tmp.pack("p", "[pack]\nname = \"bad\"\nrequires = \"tower\"\n", &[]);
    let err = range_with(&pack);
    // `requires` takes a list; the string starts at column 12.
    says(&err, &at(&tmp.path().join("p/pack.toml"), 3, 12));
    says(&err, "expected a sequence");
}

#[test]
fn pack_toml_naming_a_missing_script_points_at_it() {
    let tmp = Scratch::new("toml-script");
    let pack = tmp.pack("p", "[pack]\nname = \"bad\"\nscript = \"gone.rhai\"\n", &[]);
    let err = range_with(&pack);
    says(&err, &at(&tmp.path().join("p/pack.toml"), 3, 10));
    says(&err, "gone.rhai");
}

#[test]
fn variant_file_syntax_error_points_at_line_and_column() {
    let tmp = Scratch::new("variant-syntax");
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
    let tmp = Scratch::new("variant-type");
    let path = tmp.write(
        "v.toml",
        "name = \"v\"\npacks = [\"tower\"]\nplayers = \"two\"\n",
    );
    let err = refused(&["play", "--variant", &path.display().to_string()]);
    says(&err, &at(&path, 3, 11));
}

#[test]
fn variant_file_naming_an_unknown_pack_points_at_it() {
    let tmp = Scratch::new("variant-pack");
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
    let tmp = Scratch::new("variant-param");
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
        "no parameter `ransom_cots` (its parameters: ransom_cost), did you mean `ransom_cost`?",
    );
}

/// A pack may bound a number parameter (`min`, `max`): a value out of them,
/// or a float that is not finite, is refused where it is set — the variant
/// file's line and column, the `--param` named — not in the script that
/// would have used it.
#[test]
fn a_parameter_out_of_its_declared_bounds_is_refused_where_it_is_set() {
    let tmp = Scratch::new("param-bounds");
    let manifest = "[pack]\nname = \"b\"\nrequires = [\"tower\"]\nscript = \"b.rhai\"\n\n\
                    [param.cost]\ndefault = 2\nmin = 0\nmax = 5\n\n\
                    [param.ratio]\ndefault = 0.5\nmin = 0.0\nmax = 1.0\n";
    let script =
        "fn ransom(player, captor) { param(\"cost\") + (param(\"ratio\") * 0).to_int() }\n";
    let pack = tmp.pack("b", manifest, &[("b.rhai", script)]);
    let packs = format!("tower,{pack}");
    for (set, why) in [
        ("b.cost=-1", "is set to -1: below its least value, 0"),
        ("b.cost=6", "is set to 6: above its greatest value, 5"),
        ("b.ratio=1.5", "is set to 1.5: above its greatest value, 1"),
        (
            "b.ratio=NaN",
            "is set to nan: a float parameter takes a finite number",
        ),
        (
            "b.ratio=inf",
            "is set to inf: a float parameter takes a finite number",
        ),
        (
            "b.ratio=1e999",
            "is set to inf: a float parameter takes a finite number",
        ),
        (
            "b.cost=4294967296",
            "is set to 4294967296: above its greatest value, 5",
        ),
        (
            "b.cost=2.0",
            "is a whole number (like its default, 2), not `2.0`",
        ),
    ] {
        let err = refused(&["play", "--packs", &packs, "--param", set]);
        says(&err, why);
    }
    assert!(
        run(&["play", "--packs", &packs, "--param", "b.cost=5"])
            .status
            .success()
    );
    // In a variant file, at the value's place; a float TOML writes `nan`
    // is refused by the pack's check too.
    for (file, set, why) in [
        ("v.toml", "cost = 9", "above its greatest value, 5"),
        (
            "w.toml",
            "ratio = nan",
            "a float parameter takes a finite number",
        ),
    ] {
        let variant = tmp.write(
            file,
            format!("name = \"v\"\npacks = [\"tower\", \"{pack}\"]\n\n[params.b]\n{set}\n"),
        );
        let err = refused(&["play", "--variant", &variant.display().to_string()]);
        says(&err, &at(&variant, 5, 1));
        says(&err, why);
    }
    let info = crate::common::stdout(&run(&["info", &pack]));
    says(&info, "parameter cost (integer from 0 to 5, default 2)");
}

#[test]
fn bounds_that_cannot_hold_are_refused_in_the_manifest() {
    let tmp = Scratch::new("param-bounds-bad");
    for (param, line, col, why) in [
        (
            "default = \"x\"\nmin = 1\n",
            6,
            7,
            "is a string: `min` bounds a number",
        ),
        (
            "default = 1\nmax = nan\n",
            6,
            7,
            "`max` must be a finite number",
        ),
        (
            "default = 1\nmin = 3\nmax = 2\n",
            0,
            0,
            "`min` 3 is above `max` 2",
        ),
        (
            "default = 7\nmax = 2\n",
            0,
            0,
            "the default 7 is above its greatest value, 2",
        ),
    ] {
        let manifest = format!("[pack]\nname = \"q\"\n\n[param.p]\n{param}");
        let pack = tmp.pack("q", &manifest, &[]);
        let err = range_with(&pack);
        says(&err, why);
        if line > 0 {
            says(&err, &at(&tmp.path().join("q/pack.toml"), line, col));
        }
    }
}

#[test]
fn a_pack_a_variant_file_lists_twice_is_pointed_at() {
    let tmp = Scratch::new("variant-twice");
    let path = tmp.write("v.toml", "name = \"v\"\npacks = [\"tower\", \"tower\"]\n");
    let err = refused(&["play", "--variant", &path.display().to_string()]);
    says(&err, &at(&path, 2, 19));
    says(&err, "pack `tower` is listed twice");
}

#[test]
fn a_tower_taller_than_any_game_is_refused_before_the_hooks_are_asked() {
    let floors = vec!["regular"; 65].join(",");
    let err = refused(&["range", "--packs", "tower", "--floors", &floors]);
    says(
        &err,
        "a stack of 65 floors: a tower asked about has at most 64",
    );
    let floors = vec!["regular"; 64].join(",");
    assert!(
        run(&["range", "--packs", "tower", "--floors", &floors])
            .status
            .success()
    );
}
