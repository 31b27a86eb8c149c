//! Pack manifests (`pack.toml`) and variant files (`variants/*.toml`): their
//! formats, validation with `file:line:col` errors, and how a pack or variant
//! named on the command line is found.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;
use toml::Spanned;

use crate::kernel::Rules;
use crate::kernel::diag::{Source, bad_input, did_you_mean};
use crate::rules::home::{Dir, Origin, describe_dirs};

/// The name under which the native reference rules are taken as a pack.
pub const NATIVE_TOWER: &str = "native:tower";

/// A floor kind a pack introduces.
#[derive(Clone, Debug, PartialEq)]
pub struct FloorDecl {
    pub name: String,
    /// CSS colour for pictures.
    pub colour: String,
    pub description: String,
}

/// A parameter a pack declares, which a variant may set.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub default: toml::Value,
    pub description: String,
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
    pub floors: Vec<FloorDecl>,
    pub params: BTreeMap<String, ParamDecl>,
    /// The pack's folder (as shipped, `rules/tower`, for a shipped pack).
    pub dir: PathBuf,
    /// Where the pack was found: shipped, or its folder on disk.
    pub origin: Origin,
    /// The script, if any: its path and text.
    pub script: Option<Source>,
    /// An extra tile set, if any: its path and text.
    pub tiles: Option<Source>,
    /// True for `native:tower`, whose hooks are Rust code.
    pub native: bool,
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
}

fn default_colour() -> String {
    "#b08850".to_string()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParam {
    default: toml::Value,
    #[serde(default)]
    description: String,
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
    if reference == NATIVE_TOWER {
        return native_tower(rules_dirs);
    }
    let named = rules_dirs
        .iter()
        .map(|d| d.join(reference))
        .find(|d| !reference.is_empty() && d.has("pack.toml"));
    let dir = match named {
        Some(dir) => dir,
        None if Path::new(reference).join("pack.toml").is_file() => {
            Dir::Disk(PathBuf::from(reference))
        }
        None => return Err(unknown_pack(rules_dirs, reference)),
    };
    read_pack(&dir, reference)
}

fn unknown_pack(rules_dirs: &[Dir], reference: &str) -> anyhow::Error {
    let mut known: Vec<String> = rules_dirs.iter().flat_map(Dir::packs).collect();
    known.sort();
    known.dedup();
    known.push(NATIVE_TOWER.to_string());
    let hint = did_you_mean(reference, known.iter().map(String::as_str));
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

/// Read and validate the pack in `dir`.
fn read_pack(dir: &Dir, reference: &str) -> Result<Pack> {
    let manifest = dir.read("pack.toml")?;
    let raw: RawManifest = manifest.parse_toml()?;
    let floors = floor_decls(&manifest, &raw.floor)?;
    let script = pack_file(dir, &manifest, raw.pack.script.as_ref(), "script")?;
    let tiles = pack_file(dir, &manifest, raw.pack.tiles.as_ref(), "tile file")?;
    Ok(Pack {
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
        floors,
        params: raw
            .param
            .into_iter()
            .map(|(k, p)| {
                (
                    k,
                    ParamDecl {
                        default: p.default,
                        description: p.description,
                    },
                )
            })
            .collect(),
        dir: dir.path(),
        origin: dir.origin(),
        script,
        tiles,
        native: false,
        manifest,
    })
}

/// The floor kinds a manifest declares, each a valid name, each once.
fn floor_decls(manifest: &Source, raw: &[RawFloor]) -> Result<Vec<FloorDecl>> {
    let mut floors = Vec::new();
    for f in raw {
        let name = f.name.get_ref();
        if !valid_name(name) {
            return Err(manifest.error_at(
                f.name.span(),
                format!("floor kind `{name}`: use letters, digits, `-` and `_` only"),
            ));
        }
        if floors.iter().any(|d: &FloorDecl| &d.name == name) {
            return Err(
                manifest.error_at(f.name.span(), format!("floor kind `{name}` declared twice"))
            );
        }
        floors.push(FloorDecl {
            name: name.clone(),
            colour: f.colour.clone(),
            description: f.description.clone(),
        });
    }
    Ok(floors)
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
    if !dir.has(file.get_ref()) {
        return Err(manifest.error_at(
            file.span(),
            format!("{what} `{}` not found in the pack's folder", file.get_ref()),
        ));
    }
    Ok(Some(dir.read(file.get_ref())?))
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The native reference rules as a pack: The Tower's floors and tiles, with
/// hooks written in Rust (`crate::rules::native`).
fn native_tower(rules_dirs: &[Dir]) -> Result<Pack> {
    let dir = rules_dirs
        .iter()
        .map(|d| d.join("tower"))
        .find(|d| d.has("tiles.toml"))
        .ok_or_else(|| {
            bad_input(format!(
                "`{NATIVE_TOWER}` plays The Tower's tiles: no `tower/tiles.toml` under {}",
                describe_dirs(rules_dirs)
            ))
        })?;
    Ok(Pack {
        reference: NATIVE_TOWER.to_string(),
        name: NATIVE_TOWER.to_string(),
        title: "The Tower (native reference)".to_string(),
        description: "T1–T12 written in Rust: the oracle and speed baseline for the packs."
            .to_string(),
        requires: Vec::new(),
        floors: crate::rules::native::NativeTower::default()
            .floor_kinds()
            .iter()
            .map(|name| FloorDecl {
                name: name.clone(),
                colour: default_colour(),
                description: "The Tower's floor (T6)".to_string(),
            })
            .collect(),
        params: BTreeMap::new(),
        tiles: Some(dir.read("tiles.toml")?),
        dir: dir.path(),
        origin: dir.origin(),
        script: None,
        native: true,
        manifest: Source::new(NATIVE_TOWER, ""),
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
    let file = format!("{reference}.toml");
    let named = variants_dirs
        .iter()
        .find(|d| !reference.is_empty() && !reference.contains('/') && d.has(&file));
    let (source, origin) = match named {
        Some(dir) => {
            let source = dir.read(&file)?;
            let origin = match dir {
                Dir::Disk(_) => Origin::Disk(source.path.clone()),
                Dir::Shipped(_) => Origin::Shipped,
            };
            (source, origin)
        }
        None if Path::new(reference).is_file() => {
            let path = PathBuf::from(reference);
            (Source::read(&path)?, Origin::Disk(path))
        }
        None => return Err(unknown_variant(variants_dirs, reference)),
    };
    parse_variant(source, origin)
}

fn unknown_variant(variants_dirs: &[Dir], reference: &str) -> anyhow::Error {
    let mut known: Vec<String> = variants_dirs.iter().flat_map(Dir::variants).collect();
    known.sort();
    known.dedup();
    let hint = did_you_mean(reference, known.iter().map(String::as_str));
    let hint = if hint.is_empty() {
        format!(" (known variants: {})", known.join(", "))
    } else {
        hint
    };
    bad_input(format!(
        "unknown variant `{reference}`: no `{reference}.toml` in {} and no such file{hint}",
        describe_dirs(variants_dirs)
    ))
}

/// Validate a variant file's text.
fn parse_variant(source: Source, origin: Origin) -> Result<VariantFile> {
    let raw: RawVariant = source.parse_toml()?;
    if raw.packs.is_empty() {
        return Err(source.error_at(0..0, "a variant lists at least one pack (`packs = [...]`)"));
    }
    let players = match &raw.players {
        Some(p) if !(2..=6).contains(p.get_ref()) => {
            return Err(source.error_at(
                p.span(),
                format!("players must be 2 to 6, not {}", p.get_ref()),
            ));
        }
        Some(p) => Some(*p.get_ref() as usize),
        None => None,
    };
    Ok(VariantFile {
        name: raw.name,
        description: raw.description,
        packs: raw.packs.iter().map(|p| p.get_ref().clone()).collect(),
        pack_spans: raw.packs.iter().map(|p| p.span()).collect(),
        players,
        param_spans: raw
            .params
            .iter()
            .map(|(k, v)| (k.clone(), v.span()))
            .collect(),
        params: raw
            .params
            .into_iter()
            .map(|(k, v)| (k, v.into_inner()))
            .collect(),
        source,
        origin,
    })
}
