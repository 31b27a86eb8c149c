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
        "no parameter `ransom_cots`, did you mean `ransom_cost`?",
    );
}
