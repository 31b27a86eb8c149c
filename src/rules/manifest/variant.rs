//! Variant files (`variants/*.toml`): an ordered list of packs with
//! settings, its format and validation, and how a variant named on the
//! command line is found.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;
use toml::Spanned;

use crate::kernel::diag::{Source, bad_input, did_you_mean};
use crate::kernel::{MAX_PLAYERS, MIN_PLAYERS};
use crate::rules::home::{Dir, Origin, describe_dirs};

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
