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
    /// The pack's folder.
    pub dir: PathBuf,
    /// The script, if any: its path and text.
    pub script: Option<Source>,
    /// An extra tile-set file, if any.
    pub tiles: Option<PathBuf>,
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

/// Every pack folder under `rules_dir` (folders holding a `pack.toml`, up to
/// two levels deep), by name relative to `rules_dir`, sorted.
pub fn shipped_packs(rules_dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    let mut visit = |dir: &Path, prefix: &str| -> Vec<(PathBuf, String)> {
        let mut subs = Vec::new();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return subs;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.is_dir() {
                continue;
            }
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if path.join("pack.toml").is_file() {
                names.push(name.clone());
            }
            subs.push((path, name));
        }
        subs
    };
    for (path, name) in visit(rules_dir, "") {
        visit(&path, &format!("{name}/"));
    }
    names.sort();
    names
}

/// Find and load the pack called `reference`: a folder under `rules_dir`, a
/// path to any folder holding a `pack.toml`, or `native:tower`.
pub fn load_pack(rules_dir: &Path, reference: &str) -> Result<Pack> {
    if reference == NATIVE_TOWER {
        return Ok(native_tower(rules_dir));
    }
    let named = rules_dir.join(reference);
    let dir = if !reference.is_empty() && named.join("pack.toml").is_file() {
        named
    } else if Path::new(reference).join("pack.toml").is_file() {
        PathBuf::from(reference)
    } else {
        let mut known = shipped_packs(rules_dir);
        known.push(NATIVE_TOWER.to_string());
        let hint = did_you_mean(reference, known.iter().map(String::as_str));
        let hint = if hint.is_empty() {
            format!(" (known packs: {})", known.join(", "))
        } else {
            hint
        };
        return Err(bad_input(format!(
            "unknown pack `{reference}`: no `{reference}/pack.toml` under `{}` or on disk{hint}",
            rules_dir.display()
        )));
    };
    let manifest = Source::read(&dir.join("pack.toml"))?;
    let raw: RawManifest = manifest.parse_toml()?;
    let mut floors = Vec::new();
    for f in &raw.floor {
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
    let script = match &raw.pack.script {
        Some(file) => {
            let path = dir.join(file.get_ref());
            if !path.is_file() {
                return Err(manifest.error_at(
                    file.span(),
                    format!("script `{}` not found in the pack's folder", file.get_ref()),
                ));
            }
            Some(Source::read(&path)?)
        }
        None => None,
    };
    let tiles = match &raw.pack.tiles {
        Some(file) => {
            let path = dir.join(file.get_ref());
            if !path.is_file() {
                return Err(manifest.error_at(
                    file.span(),
                    format!(
                        "tile file `{}` not found in the pack's folder",
                        file.get_ref()
                    ),
                ));
            }
            Some(path)
        }
        None => None,
    };
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
        dir,
        script,
        tiles,
        native: false,
        manifest,
    })
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The native reference rules as a pack: The Tower's floors and tiles, with
/// hooks written in Rust (`crate::rules::native`).
fn native_tower(rules_dir: &Path) -> Pack {
    let dir = rules_dir.join("tower");
    Pack {
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
        tiles: Some(dir.join("tiles.toml")),
        dir,
        script: None,
        native: true,
        manifest: Source::new(NATIVE_TOWER, ""),
    }
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

/// Every variant file in `variants_dir`, by name, sorted.
pub fn shipped_variants(variants_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(variants_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".toml").map(str::to_string)
        })
        .collect();
    names.sort();
    names
}

/// Find and read the variant called `reference`: a name in `variants_dir`
/// or a path to a TOML file.
pub fn load_variant(variants_dir: &Path, reference: &str) -> Result<VariantFile> {
    let named = variants_dir.join(format!("{reference}.toml"));
    let path = if !reference.is_empty() && !reference.contains('/') && named.is_file() {
        named
    } else if Path::new(reference).is_file() {
        PathBuf::from(reference)
    } else {
        let known = shipped_variants(variants_dir);
        let hint = did_you_mean(reference, known.iter().map(String::as_str));
        let hint = if hint.is_empty() {
            format!(" (known variants: {})", known.join(", "))
        } else {
            hint
        };
        return Err(bad_input(format!(
            "unknown variant `{reference}`: no `{reference}.toml` in `{}` and no such file{hint}",
            variants_dir.display()
        )));
    };
    let source = Source::read(&path)?;
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
    })
}
