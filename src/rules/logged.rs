//! The packs as a game log carries them: each pack's own files (manifest,
//! script, tile file) inline in the `start` record, so that `replay` and
//! `render` rebuild the rules a game was played under on any machine, from
//! any folder, with the pack's folder gone.
//!
//! Shipped packs are in every binary and are logged by name only, as is a
//! copy of one on disk with the same files. Every other pack found on disk (a
//! path, or a home folder's, which may stand in for a shipped name) is logged
//! with its files. When a log carries a pack's files,
//! they are the rules that are rebuilt, whatever a pack of that name here
//! now says: the log records a game played under those files, and only they
//! can confirm it.

use std::collections::BTreeMap;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::manifest::{self, Pack};
use super::{Dir, Home, Origin};
use crate::kernel::diag::{Source, bad_input};

/// One pack's files, by name relative to its folder.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PackFiles {
    /// The pack as the variant (or `--packs`) names it.
    pub pack: String,
    pub files: BTreeMap<String, String>,
}

impl PackFiles {
    /// The files of `pack`, unless it is shipped (or native).
    pub fn of(pack: &Pack) -> Option<PackFiles> {
        if pack.native.is_some() || pack.origin == Origin::Shipped {
            return None;
        }
        let mut files = BTreeMap::new();
        files.insert("pack.toml".to_string(), pack.manifest.text.clone());
        for source in [&pack.script, &pack.tiles].into_iter().flatten() {
            files.insert(relative(pack, source), source.text.clone());
        }
        if is_shipped_copy(&pack.reference, &files) {
            return None;
        }
        Some(PackFiles {
            pack: pack.reference.clone(),
            files,
        })
    }
}

/// Are `files` those of the shipped pack called `reference` (a home folder
/// holding a copy of the shipped files, as the source tree does)?
fn is_shipped_copy(reference: &str, files: &BTreeMap<String, String>) -> bool {
    let shipped = Dir::Shipped("rules".to_string()).join(reference);
    shipped.has("pack.toml")
        && files
            .iter()
            .all(|(name, text)| shipped.read(name).is_ok_and(|s| s.text == *text))
}

/// A pack file's name relative to the pack's folder.
fn relative(pack: &Pack, source: &Source) -> String {
    source
        .path
        .strip_prefix(&pack.dir)
        .unwrap_or(&source.path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Load each of `packs`: from the files `logged` carries for it, else by
/// name from `home`. `label` names the log in errors. A pack logged twice
/// is bad input: which of its two sets of files the game was played under
/// cannot be told.
pub fn load_logged(
    home: &Home,
    packs: &[String],
    logged: &[PackFiles],
    label: &str,
) -> Result<Vec<Pack>> {
    if let Some((i, twice)) = logged
        .iter()
        .enumerate()
        .find(|(i, f)| logged[..*i].iter().any(|g| g.pack == f.pack))
    {
        return Err(bad_input(format!(
            "`pack_files` lists pack `{}` twice (entries {} and {}): a log carries one set of files per pack",
            twice.pack,
            logged
                .iter()
                .position(|g| g.pack == twice.pack)
                .unwrap_or(0)
                + 1,
            i + 1
        )));
    }
    packs
        .iter()
        .map(|p| match logged.iter().find(|f| &f.pack == p) {
            Some(f) => manifest::inline_pack(p, &format!("{label} ({p}, as logged)"), &f.files),
            None => home.load_pack(p),
        })
        .collect()
}
