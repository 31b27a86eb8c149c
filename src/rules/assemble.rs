//! What a ruleset is assembled from, its packs once in order: the
//! reference tiles its deck is dealt against, its floor kinds (each name
//! once), its fingerprint, the packs' scripts compiled, and the parameter
//! values each script sees (set or default), which the compiled scripts
//! take again for other values.

use std::collections::BTreeMap;

use anyhow::Result;

use super::param::ParamValue;
use super::script::{ScriptSource, Scripts};
use super::setting::Checked;
use super::state::MAX_PLACE_VARS;
use super::{FloorDecl, Home, LoadOptions, Pack, manifest, worths};
use crate::kernel::diag::{Source, bad_input};
use crate::kernel::effects::Scope;
use crate::kernel::tiles::TileSet;

/// The tiles every variant's deck is dealt against: the base game's and
/// The Tower's (the home folder's, where it has its own). The copies a
/// variant shares with these keep their order for a seed in every variant;
/// a variant holding exactly these deals them as a lone set would, and a
/// pack's extra tiles are placed among them by a stream of their own
/// (`kernel::tiles::Dealing`).
pub fn reference_tiles(home: &Home) -> Result<TileSet> {
    TileSet::from_sources(&[home.base_tiles()?, home.tiles("tower")?])
}

/// The fingerprint of a ruleset made of `tiles`, `packs` and `params`.
pub(super) fn fingerprint_of(tiles: &[Source], packs: &[Pack], params: &Checked) -> String {
    let params = toml::to_string(&params.written()).unwrap_or_default();
    let mut parts: Vec<&[u8]> = tiles.iter().map(|t| t.text.as_bytes()).collect();
    for p in packs {
        parts.push(p.reference.as_bytes());
        parts.push(p.manifest.text.as_bytes());
        if let Some(s) = &p.script {
            parts.push(s.text.as_bytes());
        }
    }
    parts.push(params.as_bytes());
    worths::fingerprint(parts)
}

/// Floor kinds: every pack's, in order, each name once.
pub(super) fn floor_kinds(packs: &[Pack]) -> Result<Vec<FloorDecl>> {
    let mut floors: Vec<FloorDecl> = Vec::new();
    let mut owner: Vec<&str> = Vec::new();
    for pack in packs {
        for f in &pack.floors {
            if let Some(i) = floors.iter().position(|g| g.name == f.name) {
                return Err(bad_input(format!(
                    "floor kind `{}` is declared by both pack `{}` and pack `{}`",
                    f.name, owner[i], pack.reference
                )));
            }
            if floors.len() >= manifest::MAX_FLOOR_KINDS {
                return Err(bad_input(format!(
                    "{}: floor kind `{}` is one more than the {} floor kinds a variant may have",
                    pack.manifest.path.display(),
                    f.name,
                    manifest::MAX_FLOOR_KINDS
                )));
            }
            floors.push(f.clone());
            owner.push(&pack.reference);
        }
    }
    Ok(floors)
}

/// The packs' state variables kept per tower or per cell, at most
/// [`MAX_PLACE_VARS`] together; bad input naming each pack that declares
/// some, otherwise.
fn place_vars_within(packs: &[Pack]) -> Result<()> {
    let per_place = |p: &Pack| {
        p.state
            .iter()
            .filter(|d| matches!(d.scope, Scope::Tower | Scope::Cell))
            .count()
    };
    let total: usize = packs.iter().map(per_place).sum();
    if total <= MAX_PLACE_VARS {
        return Ok(());
    }
    let by: Vec<String> = packs
        .iter()
        .filter(|p| per_place(p) > 0)
        .map(|p| {
            format!(
                "`{}` ({}: {})",
                p.reference,
                p.dir.join("pack.toml").display(),
                per_place(p)
            )
        })
        .collect();
    Err(bad_input(format!(
        "{total} state variables kept per tower or per cell, by packs {}: the packs of a game \
         keep at most {MAX_PLACE_VARS} together (each holds a value on every cell of a board of \
         up to {} tiles, copied with every position a bot searches)",
        by.join(", "),
        crate::kernel::tiles::MAX_DECK
    )))
}

/// Compile the packs' scripts with the parameter values they see.
pub(super) fn compile_scripts(
    load: &LoadOptions,
    packs: &[Pack],
    params: &Checked,
    floors: &[FloorDecl],
) -> Result<Scripts> {
    place_vars_within(packs)?;
    let kinds: Vec<String> = floors.iter().map(|f| f.name.clone()).collect();
    let table = floors
        .iter()
        .enumerate()
        .filter(|(_, f)| f.table)
        .fold(0u64, |bits, (k, _)| bits | 1 << k);
    let mut maps = param_maps(packs, params)?;
    let sources: Vec<ScriptSource> = packs
        .iter()
        .filter_map(|pack| Some((pack, pack.script.as_ref()?)))
        .map(|(pack, source)| ScriptSource {
            pack: &pack.reference,
            rule: &pack.name,
            source,
            params: maps.remove(&pack.reference).unwrap_or_default(),
            state: &pack.state,
        })
        .collect();
    Ok(load.compile(&sources, &kinds)?.with_table_kinds(table))
}

/// The parameters each pack's script sees, by pack reference: its declared
/// defaults, overridden by the values `params` sets (checked as they came
/// in, by `setting::resolve`).
pub(super) fn param_maps(packs: &[Pack], params: &Checked) -> Result<BTreeMap<String, rhai::Map>> {
    let mut maps = BTreeMap::new();
    for pack in packs {
        let mut map = rhai::Map::new();
        for (name, decl) in &pack.params {
            let value = match params.get(&pack.reference, name) {
                Some(set) => set.dynamic(),
                None => default_value(&decl.default)?,
            };
            map.insert(name.as_str().into(), value);
        }
        maps.insert(pack.reference.clone(), map);
    }
    Ok(maps)
}

/// A declared default as a script reads it.
fn default_value(value: &toml::Value) -> Result<rhai::Dynamic> {
    match ParamValue::of(value) {
        Some(v) => Ok(v.dynamic()),
        None => Err(bad_input(format!(
            "a parameter is an integer, float, bool or string, not {}",
            value.type_str()
        ))),
    }
}
