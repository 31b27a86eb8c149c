//! A pack's manifest (`pack.toml`): the [`Pack`] it makes, its format, and
//! its validation with `file:line:col` errors (floor kinds, parameters,
//! state variables and figures, the files it names), every problem found.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Result;
use serde::Deserialize;
use toml::Spanned;

use crate::kernel::diag::{Source, bad_input, did_you_mean};
use crate::rules::home::{Dir, Origin};
use crate::rules::native::Native;
use crate::rules::param::{ParamDecl, RawParam, param_decl};
use crate::rules::state::{
    MAX_STATE_VARS, RawFigure, RawState, StateDecl, figure_decl, state_decl,
};

/// A floor kind a pack introduces.
#[derive(Clone, Debug, PartialEq)]
pub struct FloorDecl {
    pub name: String,
    /// CSS colour for pictures.
    pub colour: String,
    pub description: String,
    /// Held by the table (`held = "table"`): `setup`'s count of the kind
    /// is the table's stock, which any seat builds with; else each seat
    /// holds its own.
    pub table: bool,
}

/// A loaded pack manifest.
#[derive(Clone, Debug)]
pub struct Pack {
    /// The name the pack was asked for by (`tower`, `house/no-gaps`, a path,
    /// or `native:tower`).
    pub reference: String,
    /// The name the manifest gives.
    pub name: String,
    pub title: String,
    pub description: String,
    pub requires: Vec<String>,
    /// Where each of `requires` is written in the manifest, for errors.
    pub requires_spans: Vec<std::ops::Range<usize>>,
    pub floors: Vec<FloorDecl>,
    pub params: BTreeMap<String, ParamDecl>,
    /// The state variables it declares, by name.
    pub state: Vec<StateDecl>,
    /// The pack's folder (as shipped, `rules/tower`, for a shipped pack).
    pub dir: PathBuf,
    /// Where the pack was found: shipped, or its folder on disk.
    pub origin: Origin,
    /// The script, if any: its path and text.
    pub script: Option<Source>,
    /// An extra tile set, if any: its path and text.
    pub tiles: Option<Source>,
    /// The native rule set (`native:tower`…) it is, whose hooks are Rust
    /// code; `None` for a scripted pack.
    pub native: Option<&'static Native>,
    /// Where the manifest is, for error messages.
    pub manifest: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    pack: RawPack,
    #[serde(default)]
    floor: Vec<RawFloor>,
    #[serde(default)]
    param: BTreeMap<String, RawParam>,
    #[serde(default)]
    state: BTreeMap<String, RawState>,
    #[serde(default)]
    figure: BTreeMap<String, RawFigure>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPack {
    name: Spanned<String>,
    #[serde(default)]
    title: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    requires: Vec<Spanned<String>>,
    script: Option<Spanned<String>>,
    tiles: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFloor {
    name: Spanned<String>,
    #[serde(default = "default_colour")]
    colour: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    held: Option<Spanned<String>>,
}

fn default_colour() -> String {
    "#b08850".to_string()
}

/// Read and validate the pack in `dir`: the pack as far as it is valid and
/// every problem found (floor kinds first, then the files it names); only
/// the problem when the manifest cannot be read.
pub(super) fn read_pack(
    dir: &Dir,
    reference: &str,
) -> Result<(Pack, Vec<anyhow::Error>), Vec<anyhow::Error>> {
    let manifest = dir.read("pack.toml").map_err(|e| vec![e])?;
    let raw: RawManifest = manifest.parse_toml().map_err(|e| vec![e])?;
    let mut problems = Vec::new();
    let floors = floor_decls(&manifest, &raw.floor, &mut problems);
    let mut file = |what: &str, name: Option<&Spanned<String>>| {
        pack_file(dir, &manifest, name, what).unwrap_or_else(|e| {
            problems.push(e);
            None
        })
    };
    let script = file("script", raw.pack.script.as_ref());
    let tiles = file("tile file", raw.pack.tiles.as_ref());
    let pack = Pack {
        reference: reference.to_string(),
        name: raw.pack.name.get_ref().clone(),
        title: raw.pack.title,
        description: raw.pack.description,
        requires: raw
            .pack
            .requires
            .iter()
            .map(|r| r.get_ref().clone())
            .collect(),
        requires_spans: raw.pack.requires.iter().map(|r| r.span()).collect(),
        floors,
        params: raw
            .param
            .into_iter()
            .map(|(k, p)| {
                let decl = param_decl(&manifest, &k, p, &mut problems);
                (k, decl)
            })
            .collect(),
        state: state_decls(&manifest, raw.state, raw.figure, &mut problems),
        dir: dir.path(),
        origin: dir.origin(),
        script,
        tiles,
        native: None,
        manifest,
    };
    Ok((pack, problems))
}

/// The most floor kinds a variant may have, all its packs together (the
/// kernel numbers floor kinds by `u8` and keeps a stack's floors in a
/// 32-kind key; see docs/packs.md).
pub const MAX_FLOOR_KINDS: usize = 32;

/// The floor kinds a manifest declares, each a valid name, each once; a
/// problem in `problems` for each that is not.
fn floor_decls(
    manifest: &Source,
    raw: &[RawFloor],
    problems: &mut Vec<anyhow::Error>,
) -> Vec<FloorDecl> {
    let mut floors = Vec::new();
    for f in raw {
        let name = f.name.get_ref();
        if floors.len() >= MAX_FLOOR_KINDS {
            problems.push(manifest.error_at(
                f.name.span(),
                format!("more than {MAX_FLOOR_KINDS} floor kinds (the limit for a variant)"),
            ));
            break;
        }
        if !valid_name(name) {
            problems.push(manifest.error_at(
                f.name.span(),
                format!("floor kind `{name}`: use letters, digits, `-` and `_` only"),
            ));
            continue;
        }
        if !written_after_a_dot(name) {
            problems.push(manifest.error_at(
                f.name.span(),
                format!(
                    "floor kind `{name}`: a script could not write `supply.{name}`, as Rhai keeps \
                     `{name}` for itself (a keyword, or a name starting with a digit): name it \
                     otherwise"
                ),
            ));
            continue;
        }
        if floors.iter().any(|d: &FloorDecl| &d.name == name) {
            problems.push(
                manifest.error_at(f.name.span(), format!("floor kind `{name}` declared twice")),
            );
            continue;
        }
        let table = match f.held.as_ref().map(|h| h.get_ref().as_str()) {
            None | Some("seat") => false,
            Some("table") => true,
            Some(other) => {
                let span = f.held.as_ref().map(|h| h.span()).unwrap_or_default();
                problems.push(manifest.error_at(
                    span,
                    format!(
                        "floor kind `{name}`: `held = \"{other}\"` is not `seat` or `table`{}",
                        did_you_mean(other, ["seat", "table"].into_iter())
                    ),
                ));
                continue;
            }
        };
        floors.push(FloorDecl {
            name: name.clone(),
            colour: f.colour.clone(),
            description: f.description.clone(),
            table,
        });
    }
    floors
}

/// A file the manifest names (`what`: "script" or "tile file"), read from
/// the pack's folder.
fn pack_file(
    dir: &Dir,
    manifest: &Source,
    file: Option<&Spanned<String>>,
    what: &str,
) -> Result<Option<Source>> {
    let Some(file) = file else {
        return Ok(None);
    };
    if let Err(why) = dir.confines(file.get_ref()) {
        return Err(manifest.error_at(
            file.span(),
            format!(
                "{what} `{}` {why}: a pack's files are inside its folder",
                file.get_ref()
            ),
        ));
    }
    if !dir.has(file.get_ref()) {
        return Err(manifest.error_at(
            file.span(),
            format!("{what} `{}` not found in the pack's folder", file.get_ref()),
        ));
    }
    Ok(Some(dir.read(file.get_ref())?))
}

/// The state variables and neutral figures a manifest declares, each
/// valid, at most [`MAX_STATE_VARS`] in all, their names distinct; a
/// problem in `problems` for each that is not.
fn state_decls(
    manifest: &Source,
    raw: BTreeMap<String, RawState>,
    figures: BTreeMap<String, RawFigure>,
    problems: &mut Vec<anyhow::Error>,
) -> Vec<StateDecl> {
    let file = manifest.path.display();
    if raw.len() + figures.len() > MAX_STATE_VARS {
        problems.push(bad_input(format!(
            "{file}: {} state variables and figures; a pack declares at most {MAX_STATE_VARS}",
            raw.len() + figures.len()
        )));
        return Vec::new();
    }
    let mut named = |what: &str, name: &str| {
        let ok = valid_name(name);
        if !ok {
            problems.push(bad_input(format!(
                "{file}: {what} `{name}`: a name is letters, digits, `-` and `_`"
            )));
        }
        ok
    };
    let figures: Vec<StateDecl> = figures
        .into_iter()
        .filter(|(name, _)| named("figure", name))
        .map(|(name, r)| figure_decl(&name, r))
        .collect();
    let mut decls: Vec<StateDecl> = raw
        .into_iter()
        .filter(|(name, _)| named("state", name))
        .collect::<Vec<_>>()
        .into_iter()
        .filter_map(|(name, r)| state_decl(manifest, &name, r, problems))
        .collect();
    for f in figures {
        if decls.iter().any(|d| d.name == f.name) {
            problems.push(bad_input(format!(
                "{file}: `{}` is both a state variable and a figure: give them distinct names",
                f.name
            )));
        } else {
            decls.push(f);
        }
    }
    decls
}

/// Can a script name a map's field `name` after a dot (`supply.name`)?
/// Not one of Rhai's keywords or reserved words, nor a name starting with
/// a digit. (A name with `-` reads as a subtraction there: scripts write
/// `supply["a-b"]`, which works for every name.)
fn written_after_a_dot(name: &str) -> bool {
    rhai::Engine::new_raw()
        .compile_expression(format!("m.{name}"))
        .is_ok()
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl Pack {
    /// The folder of the pack's files, as [`Dir`] reads it.
    pub fn folder(&self) -> Dir {
        match self.origin {
            Origin::Shipped => Dir::Shipped(self.dir.display().to_string()),
            Origin::Disk(_) => Dir::Disk(self.dir.clone()),
        }
    }

    /// The pack's scenario files: `tests/*.toml` in its folder, by name.
    pub fn scenario_files(&self) -> Result<Vec<Source>> {
        let dir = self.folder();
        dir.toml_files("tests")
            .iter()
            .map(|name| dir.read(&format!("tests/{name}")))
            .collect()
    }
}
