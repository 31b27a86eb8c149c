//! What a ruleset is assembled from, its packs once in order: the
//! reference tiles its deck is dealt against, its floor kinds (each name
//! once), its fingerprint, and the packs' scripts compiled with the
//! parameter values they see.

use std::collections::BTreeMap;

use anyhow::Result;

use super::script::{ScriptSource, Scripts};
use super::state::MAX_PLACE_VARS;
use super::{FloorDecl, Home, LoadOptions, Pack, Params, manifest, worths};
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
pub(super) fn fingerprint_of(tiles: &[Source], packs: &[Pack], params: &Params) -> String {
    let params = toml::to_string(params).unwrap_or_default();
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
    params: &Params,
    floors: &[FloorDecl],
) -> Result<Scripts> {
    place_vars_within(packs)?;
    let kinds: Vec<String> = floors.iter().map(|f| f.name.clone()).collect();
    let table = floors
        .iter()
        .enumerate()
        .filter(|(_, f)| f.table)
        .fold(0u64, |bits, (k, _)| bits | 1 << k);
    let mut sources = Vec::new();
    for pack in packs {
        let values = params.get(&pack.reference).cloned().unwrap_or_default();
        let map = param_map(pack, &values)?;
        if let Some(source) = &pack.script {
            sources.push((pack, source, map));
        }
    }
    let sources: Vec<ScriptSource> = sources
        .iter()
        .map(|(pack, source, params)| ScriptSource {
            pack: &pack.reference,
            rule: &pack.name,
            source,
            params: params.clone(),
            state: &pack.state,
        })
        .collect();
    Ok(load.compile(&sources, &kinds)?.with_table_kinds(table))
}

/// The parameters a pack's script sees: declared defaults, overridden by the
/// values set (each checked by `param::resolve` as it came in).
fn param_map(pack: &Pack, values: &BTreeMap<String, toml::Value>) -> Result<rhai::Map> {
    let mut map = rhai::Map::new();
    for (name, decl) in &pack.params {
        let value = values.get(name).unwrap_or(&decl.default);
        map.insert(name.as_str().into(), to_dynamic(value)?);
    }
    Ok(map)
}

fn to_dynamic(value: &toml::Value) -> Result<rhai::Dynamic> {
    Ok(match value {
        toml::Value::Integer(i) => (*i).into(),
        toml::Value::Float(f) => (*f).into(),
        toml::Value::Boolean(b) => (*b).into(),
        toml::Value::String(s) => s.clone().into(),
        other => {
            return Err(bad_input(format!(
                "a parameter is an integer, float, bool or string, not {}",
                other.type_str()
            )));
        }
    })
}
