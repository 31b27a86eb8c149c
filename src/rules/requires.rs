//! Which pack a name means, and what a pack requires: one answer for the
//! ruleset's list, `check`, `info`, the problems report and the server's
//! catalog. A pack is named as a list names it (its reference: a name under
//! `rules/` or a path) or by its manifest's `name`; requirements are walked
//! at most [`MAX_DEPTH`] deep, past which they go round in a circle.

use anyhow::Result;

use super::Home;
use super::manifest::Pack;
use crate::kernel::diag::bad_input;

/// How deep requirements may nest: deeper, they go round in a circle.
pub const MAX_DEPTH: usize = 16;

impl Pack {
    /// Does `key` name this pack: its reference, or its manifest's name?
    pub fn is(&self, key: &str) -> bool {
        self.reference == key || self.name == key
    }
}

/// The pack of `packs` that `key` names: the one listed as `key`, else the
/// one whose manifest is named `key`.
pub fn find<'p>(packs: &'p [Pack], key: &str) -> Option<&'p Pack> {
    packs
        .iter()
        .find(|p| p.reference == key)
        .or_else(|| packs.iter().find(|p| p.name == key))
}

/// The packs `pack` requires that `out` does not hold yet, each loaded from
/// `home` once and put after what it requires, then `pack` itself. A
/// requirement that does not load is an error at its line of the manifest;
/// requirements nested past [`MAX_DEPTH`] are an error.
pub fn with_requirements(home: &Home, pack: Pack, out: &mut Vec<Pack>) -> Result<()> {
    walk(home, pack, out, 0)
}

fn walk(home: &Home, pack: Pack, out: &mut Vec<Pack>, depth: usize) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(bad_input(format!(
            "pack `{}`: requirements nest too deep (a cycle?)",
            pack.reference
        )));
    }
    for (k, req) in pack.requires.iter().enumerate() {
        if out.iter().any(|p| p.is(req)) {
            continue;
        }
        let dep = home
            .load_pack(req)
            .map_err(|e| match pack.requires_spans.get(k) {
                Some(span) => pack
                    .manifest
                    .error_at(span.clone(), format!("`requires`: {e:#}")),
                None => e,
            })?;
        walk(home, dep, out, depth + 1)?;
    }
    if !out.iter().any(|p| p.reference == pack.reference) {
        out.push(pack);
    }
    Ok(())
}
