//! Finding the pack a name means: a folder of the rules folders, a path
//! to a folder on disk, a native rule set (`native:tower`), or the files a
//! game log carries; as the pack when it is whole, or with every problem.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;

use super::pack::{Pack, read_pack};
use crate::kernel::diag::{Source, bad_input, did_you_mean};
use crate::rules::home::{Dir, describe_dirs};
use crate::rules::native::{NATIVES, Native};

/// Find and load the pack called `reference`: a folder under `rules_dir`, a
/// path to any folder holding a `pack.toml`, or `native:tower`. (A
/// [`crate::rules::Home`] looks in its folder and the shipped packs.)
pub fn load_pack(rules_dir: &Path, reference: &str) -> Result<Pack> {
    load_pack_from(&[Dir::Disk(rules_dir.to_path_buf())], reference)
}

/// Find and load the pack called `reference`: a folder under the first of
/// `rules_dirs` that has it, a path to any folder holding a `pack.toml`, or
/// `native:tower`.
pub fn load_pack_from(rules_dirs: &[Dir], reference: &str) -> Result<Pack> {
    only_if_whole(load_pack_checked(rules_dirs, reference))
}

/// A pack read with its problems, as the pack when it has none, else its
/// first problem.
fn only_if_whole(read: Result<(Pack, Vec<anyhow::Error>), Vec<anyhow::Error>>) -> Result<Pack> {
    match read {
        Ok((pack, problems)) if problems.is_empty() => Ok(pack),
        Ok((_, mut problems)) | Err(mut problems) => Err(problems.swap_remove(0)),
    }
}

/// [`load_pack_from`], with every problem of the manifest and of the files
/// it names, not only the first: the pack as far as it is valid (its
/// requirements, its valid floor kinds…) with its problems, or, when not even
/// its manifest can be read, that problem.
pub fn load_pack_checked(
    rules_dirs: &[Dir],
    reference: &str,
) -> Result<(Pack, Vec<anyhow::Error>), Vec<anyhow::Error>> {
    if let Some(native) = crate::rules::native::native(reference) {
        return native_pack(rules_dirs, native)
            .map(|p| (p, Vec::new()))
            .map_err(|e| vec![e]);
    }
    // Packs held in memory (a browser's) name packs, never files on disk:
    // not a path of the disk, nor one that climbs out of a folder.
    let held = rules_dirs.iter().any(|d| matches!(d, Dir::Inline(..)));
    if held && !is_plain_name(reference) {
        return Err(vec![unknown_pack(rules_dirs, reference)]);
    }
    let named = rules_dirs
        .iter()
        .map(|d| d.join(reference))
        .find(|d| !reference.is_empty() && d.has("pack.toml"));
    let dir = match named {
        Some(dir) => dir,
        None if !held && Path::new(reference).join("pack.toml").is_file() => {
            Dir::Disk(PathBuf::from(reference))
        }
        None => return Err(vec![unknown_pack(rules_dirs, reference)]),
    };
    read_pack(&dir, reference)
}

/// A pack's name as a folder of `rules/` holds it (`tower`,
/// `house/no-gaps`): parts of letters, digits, `-`, `_` and `.`, none of
/// them `.` or `..`, not starting with `/`.
fn is_plain_name(reference: &str) -> bool {
    reference.split('/').all(|part| {
        !part.is_empty()
            && part != "."
            && part != ".."
            && part
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
    })
}

fn unknown_pack(rules_dirs: &[Dir], reference: &str) -> anyhow::Error {
    let mut known: Vec<String> = rules_dirs.iter().flat_map(Dir::packs).collect();
    known.sort();
    known.dedup();
    known.extend(NATIVES.map(|n| n.name.to_string()));
    let name = reference.strip_suffix(".toml").unwrap_or(reference);
    let hint = did_you_mean(name, known.iter().map(String::as_str));
    let hint = if hint.is_empty() {
        format!(" (known packs: {})", known.join(", "))
    } else {
        hint
    };
    bad_input(format!(
        "unknown pack `{reference}`: no `{reference}/pack.toml` under {} or on disk{hint}",
        describe_dirs(rules_dirs)
    ))
}

/// The pack `reference` from its files as a game log carries them (by name
/// relative to the pack's folder), named `label` in errors.
pub fn inline_pack(
    reference: &str,
    label: &str,
    files: &std::collections::BTreeMap<String, String>,
) -> Result<Pack> {
    only_if_whole(read_pack(
        &Dir::Inline(label.to_string(), files.clone()),
        reference,
    ))
}

/// A native rule set as a pack: The Tower's tiles and the floors of the
/// packs it mirrors, with hooks written in Rust (`crate::rules::native`).
fn native_pack(rules_dirs: &[Dir], native: &'static Native) -> Result<Pack> {
    let name = native.name;
    let dir = rules_dirs
        .iter()
        .map(|d| d.join("tower"))
        .find(|d| d.has("tiles.toml"))
        .ok_or_else(|| {
            bad_input(format!(
                "`{name}` plays The Tower's tiles: no `tower/tiles.toml` under {}",
                describe_dirs(rules_dirs)
            ))
        })?;
    let mut floors = Vec::new();
    for mirror in native.mirrors {
        floors.extend(load_pack_from(rules_dirs, mirror)?.floors);
    }
    // The native rules know their floor kinds by position.
    let names: Vec<&str> = floors.iter().map(|f| f.name.as_str()).collect();
    let kinds = (native.rules)().floor_kinds().to_vec();
    if names != kinds {
        return Err(bad_input(format!(
            "`{name}` plays the floor kinds {}, but the packs it mirrors ({}) declare {}",
            kinds.join(", "),
            native.mirrors.join(","),
            names.join(", ")
        )));
    }
    Ok(Pack {
        reference: name.to_string(),
        name: name.to_string(),
        title: native.title.to_string(),
        description: native.description.to_string(),
        requires: Vec::new(),
        requires_spans: Vec::new(),
        floors,
        params: BTreeMap::new(),
        state: Vec::new(),
        tiles: Some(dir.read("tiles.toml")?),
        dir: dir.path(),
        origin: dir.origin(),
        script: None,
        native: Some(native),
        manifest: Source::new(name, ""),
    })
}
