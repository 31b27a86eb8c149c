//! Pack manifests (`pack.toml`) and variant files (`variants/*.toml`): their
//! formats, validation with `file:line:col` errors, and how a pack or variant
//! named on the command line is found.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;
use toml::Spanned;

use crate::kernel::diag::{Source, bad_input, did_you_mean};
use crate::kernel::{MAX_PLAYERS, MIN_PLAYERS};
use crate::rules::home::{Dir, Origin, describe_dirs};
use crate::rules::native::{NATIVES, Native};
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

/// Read and validate the pack in `dir`: the pack as far as it is valid and
/// every problem found (floor kinds first, then the files it names); only
/// the problem when the manifest cannot be read.
fn read_pack(dir: &Dir, reference: &str) -> Result<(Pack, Vec<anyhow::Error>), Vec<anyhow::Error>> {
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

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
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

/// A variant file: an ordered list of packs with settings.
#[derive(Clone, Debug)]
pub struct VariantFile {
    pub name: String,
    pub description: String,
    pub packs: Vec<String>,
    pub players: Option<usize>,
    /// Parameter values by pack reference, then by parameter name.
    pub params: BTreeMap<String, BTreeMap<String, toml::Value>>,
    pub source: Source,
    /// Spans of each entry of `packs` and of each `[params.PACK]` table, for errors.
    pub pack_spans: Vec<std::ops::Range<usize>>,
    pub param_spans: BTreeMap<String, std::ops::Range<usize>>,
    /// Where the variant was found: shipped, or its file on disk.
    pub origin: Origin,
}

impl VariantFile {
    /// Where `key = …` is written in the `[params.PACK]` table of `pack`
    /// (the key itself), for errors about that one value; `None` when it is
    /// not written on a line of its own (an inline table, a quoted key).
    pub fn param_key_span(&self, pack: &str, key: &str) -> Option<std::ops::Range<usize>> {
        let table = self.param_spans.get(pack)?;
        let mut offset = table.start;
        for (i, line) in self
            .source
            .text
            .get(table.start..)?
            .split_inclusive('\n')
            .enumerate()
        {
            let written = line.trim_start();
            if i > 0 && written.starts_with('[') {
                break;
            }
            let rest = written.strip_prefix(key).map(str::trim_start);
            if rest.is_some_and(|r| r.starts_with('=')) {
                let col = offset + line.len() - written.len();
                return Some(col..col + key.len());
            }
            offset += line.len();
        }
        None
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: String,
    #[serde(default)]
    description: String,
    packs: Vec<Spanned<String>>,
    players: Option<Spanned<i64>>,
    #[serde(default)]
    params: BTreeMap<String, Spanned<BTreeMap<String, toml::Value>>>,
}

/// Find and read the variant called `reference`: a name in `variants_dir`
/// or a path to a TOML file. (A [`crate::rules::Home`] looks in its folder
/// and the shipped variants.)
pub fn load_variant(variants_dir: &Path, reference: &str) -> Result<VariantFile> {
    load_variant_from(&[Dir::Disk(variants_dir.to_path_buf())], reference)
}

/// Find and read the variant called `reference`: a name in the first of
/// `variants_dirs` that has it, or a path to a TOML file.
pub fn load_variant_from(variants_dirs: &[Dir], reference: &str) -> Result<VariantFile> {
    // `black-tower.toml` names the same variant as `black-tower`.
    let file = match reference.strip_suffix(".toml") {
        Some(_) => reference.to_string(),
        None => format!("{reference}.toml"),
    };
    let named = variants_dirs
        .iter()
        .find(|d| !reference.is_empty() && !reference.contains('/') && d.has(&file));
    let (source, origin) = match named {
        Some(dir) => {
            let source = dir.read(&file)?;
            let origin = match dir {
                Dir::Disk(_) | Dir::Inline(..) => Origin::Disk(source.path.clone()),
                Dir::Shipped(_) => Origin::Shipped,
            };
            (source, origin)
        }
        None if Path::new(reference).is_file() => {
            let path = PathBuf::from(reference);
            (Source::read(&path)?, Origin::Disk(path))
        }
        None => return Err(unknown_variant(variants_dirs, reference, &file)),
    };
    parse_variant(source, origin)
}

fn unknown_variant(variants_dirs: &[Dir], reference: &str, file: &str) -> anyhow::Error {
    let mut known: Vec<String> = variants_dirs.iter().flat_map(Dir::variants).collect();
    known.sort();
    known.dedup();
    if Path::new(reference).is_dir() {
        return bad_input(format!(
            "`{reference}` is a folder, not a variant file: a variant is a name in {} or a .toml file (a pack's folder goes in --packs)",
            describe_dirs(variants_dirs)
        ));
    }
    let hint = did_you_mean(reference, known.iter().map(String::as_str));
    let hint = if hint.is_empty() {
        format!(" (known variants: {})", known.join(", "))
    } else {
        hint
    };
    bad_input(format!(
        "unknown variant `{reference}`: no `{file}` in {} and no such file{hint}",
        describe_dirs(variants_dirs)
    ))
}

/// Validate a variant file's text.
/// A pack path in a variant file (`./…` or `../…`) names a folder relative
/// to the file, wherever the program runs: it becomes an absolute path (so
/// that a log naming it replays from any folder). Other references are
/// unchanged.
fn relative_to(origin: &Origin, reference: &str) -> String {
    let relative = reference.starts_with("./") || reference.starts_with("../");
    match origin {
        Origin::Disk(file) if relative => {
            let dir = file.parent().unwrap_or(Path::new(""));
            let joined = std::path::absolute(dir.join(reference)).unwrap_or(dir.join(reference));
            let mut cleaned = PathBuf::new();
            for c in joined.components() {
                match c {
                    std::path::Component::CurDir => {}
                    std::path::Component::ParentDir if cleaned.parent().is_some() => {
                        cleaned.pop();
                    }
                    other => cleaned.push(other),
                }
            }
            cleaned.display().to_string()
        }
        _ => reference.to_string(),
    }
}

fn parse_variant(source: Source, origin: Origin) -> Result<VariantFile> {
    let raw: RawVariant = source.parse_toml()?;
    if raw.packs.is_empty() {
        return Err(source.error_at(0..0, "a variant lists at least one pack (`packs = [...]`)"));
    }
    let players = match &raw.players {
        Some(p) if !(MIN_PLAYERS as i64..=MAX_PLAYERS as i64).contains(p.get_ref()) => {
            return Err(source.error_at(
                p.span(),
                format!(
                    "players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {}",
                    p.get_ref()
                ),
            ));
        }
        Some(p) => Some(*p.get_ref() as usize),
        None => None,
    };
    let at = |p: &str| relative_to(&origin, p);
    Ok(VariantFile {
        name: raw.name,
        description: raw.description,
        packs: raw.packs.iter().map(|p| at(p.get_ref())).collect(),
        pack_spans: raw.packs.iter().map(|p| p.span()).collect(),
        players,
        param_spans: raw.params.iter().map(|(k, v)| (at(k), v.span())).collect(),
        params: raw
            .params
            .into_iter()
            .map(|(k, v)| (at(&k), v.into_inner()))
            .collect(),
        source,
        origin,
    })
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
