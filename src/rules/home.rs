//! Home folders: where towerlab finds tile sets, packs and variants.
//!
//! The shipped `rules/` and `variants/` are built into the binary. A home
//! folder — `--home DIR`, else `$TOWERLAB_HOME`, else the current folder when
//! it has `rules/`, `variants/` or `tuned/` — is layered over them: its
//! packs and variants are added to the shipped ones, and a name found in
//! both is the folder's. Files are read through [`Dir`], which is a folder
//! on disk or a folder of the shipped files (named as shipped,
//! `rules/tower`, in errors). The browser studio's packs, sent with each
//! request, are held in memory over them all ([`Home::holding`]).
//!
//! A home says where things are found, not how packs are loaded: the
//! memory limit, hook budget and trace are [`LoadOptions`](super::LoadOptions).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;

use crate::kernel::diag::{Source, bad_input};

/// The shipped tile sets and packs.
#[derive(rust_embed::Embed)]
#[folder = "rules/"]
struct ShippedRules;

/// The shipped variants.
#[derive(rust_embed::Embed)]
#[folder = "variants/"]
struct ShippedVariants;

/// The packs written out in the docs (`docs/examples/`), which authors may
/// start from.
#[derive(rust_embed::Embed)]
#[folder = "docs/examples/"]
struct Examples;

/// A pack per kind of rule (a range shape, a capture rule, a ransom rule, a
/// new floor with tiles, an event rule), for an author to start from.
#[derive(rust_embed::Embed)]
#[folder = "templates/"]
struct Templates;

/// Where a pack to start from comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// A shipped pack (`rules/`).
    Shipped,
    /// A pack of the docs (`docs/examples/`).
    Example,
    /// A template (`templates/`).
    Template,
}

impl Kept {
    pub const ALL: [Kept; 3] = [Kept::Shipped, Kept::Example, Kept::Template];

    pub fn name(self) -> &'static str {
        match self {
            Kept::Shipped => "shipped",
            Kept::Example => "example",
            Kept::Template => "template",
        }
    }
}

/// Reads one embedded file by its path.
type EmbeddedFile = fn(&str) -> Option<Cow<'static, [u8]>>;

/// The packs built into the binary of one kind, each with every file of its
/// folder (by path relative to it), by name, sorted: what an author may
/// start a pack of their own from.
pub fn kept_packs(kind: Kept) -> Vec<(String, BTreeMap<String, String>)> {
    let (names, read): (Vec<String>, EmbeddedFile) = match kind {
        Kept::Shipped => (shipped_under("rules"), |p| {
            ShippedRules::get(p).map(|f| f.data)
        }),
        Kept::Example => (Examples::iter().map(Cow::into_owned).collect(), |p| {
            Examples::get(p).map(|f| f.data)
        }),
        Kept::Template => (Templates::iter().map(Cow::into_owned).collect(), |p| {
            Templates::get(p).map(|f| f.data)
        }),
    };
    let mut packs: Vec<String> = names
        .iter()
        .filter_map(|f| f.strip_suffix("/pack.toml"))
        .filter(|name| *name != "base")
        .map(str::to_string)
        .collect();
    packs.sort();
    packs
        .into_iter()
        .map(|pack| {
            let prefix = format!("{pack}/");
            let files = names
                .iter()
                .filter_map(|f| f.strip_prefix(&prefix))
                .filter_map(|f| {
                    let text =
                        String::from_utf8(read(&format!("{prefix}{f}"))?.into_owned()).ok()?;
                    Some((f.to_string(), text))
                })
                .collect();
            (pack, files)
        })
        .collect()
}

/// A shipped file by its path as shipped (`rules/tower/pack.toml`).
fn shipped(path: &str) -> Option<Cow<'static, [u8]>> {
    if let Some(rest) = path.strip_prefix("rules/") {
        ShippedRules::get(rest).map(|f| f.data)
    } else if let Some(rest) = path.strip_prefix("variants/") {
        ShippedVariants::get(rest).map(|f| f.data)
    } else {
        None
    }
}

/// Every shipped file's path under `root` (`rules` or `variants`), relative
/// to it.
fn shipped_under(root: &str) -> Vec<String> {
    match root {
        "rules" => ShippedRules::iter().map(Cow::into_owned).collect(),
        "variants" => ShippedVariants::iter().map(Cow::into_owned).collect(),
        _ => Vec::new(),
    }
}

/// Where a pack or variant was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Built into the binary.
    Shipped,
    /// On disk: a pack's folder or a variant's file.
    Disk(PathBuf),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Shipped => f.write_str("shipped"),
            Origin::Disk(path) => write!(f, "{}", path.display()),
        }
    }
}

/// A folder to read files from: on disk, or of the shipped files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dir {
    Disk(PathBuf),
    /// A shipped folder by its path as shipped (`rules/tower`).
    Shipped(String),
    /// Files held in memory — a pack's as a game log carries them, or the
    /// packs a browser sends (each file by its path relative to this
    /// folder, `my-pack/pack.toml`): named in errors by the label.
    Inline(String, BTreeMap<String, String>),
}

impl Dir {
    /// The folder `name` (which may hold `/`) inside this one.
    pub fn join(&self, name: &str) -> Dir {
        match self {
            Dir::Disk(dir) => Dir::Disk(dir.join(name)),
            Dir::Shipped(dir) => Dir::Shipped(format!("{dir}/{name}")),
            Dir::Inline(label, files) => {
                let prefix = format!("{name}/");
                let inside = files
                    .iter()
                    .filter_map(|(f, text)| {
                        Some((f.strip_prefix(&prefix)?.to_string(), text.clone()))
                    })
                    .collect();
                let label = if label.is_empty() {
                    name.to_string()
                } else {
                    format!("{label}/{name}")
                };
                Dir::Inline(label, inside)
            }
        }
    }

    /// The folder's path, as errors name it.
    pub fn path(&self) -> PathBuf {
        match self {
            Dir::Disk(dir) => dir.clone(),
            Dir::Shipped(dir) | Dir::Inline(dir, _) => PathBuf::from(dir),
        }
    }

    pub fn origin(&self) -> Origin {
        match self {
            Dir::Disk(dir) => Origin::Disk(dir.clone()),
            Dir::Shipped(_) => Origin::Shipped,
            Dir::Inline(label, _) => Origin::Disk(PathBuf::from(label)),
        }
    }

    /// Does `file` (a path relative to this folder, as a manifest names it)
    /// stay inside this folder? Not when it is absolute, climbs out with
    /// `..`, or (on disk) leads out through a symbolic link; the reason
    /// when not.
    pub fn confines(&self, file: &str) -> Result<(), &'static str> {
        use std::path::Component;
        let path = Path::new(file);
        if path.is_absolute() || file.starts_with('/') || file.starts_with('\\') {
            return Err("is an absolute path");
        }
        let climbs = path.components().any(|c| {
            matches!(
                c,
                Component::ParentDir | Component::RootDir | Component::Prefix(_)
            )
        });
        if climbs || file.split(['/', '\\']).any(|part| part == "..") {
            return Err("leaves the pack's folder with `..`");
        }
        let Dir::Disk(dir) = self else {
            return Ok(());
        };
        // A missing file is reported as missing by the caller.
        let (Ok(root), Ok(target)) = (dir.canonicalize(), dir.join(path).canonicalize()) else {
            return Ok(());
        };
        if target.starts_with(&root) {
            Ok(())
        } else {
            Err("leads out of the pack's folder through a symbolic link")
        }
    }

    /// Is there a file `file` (which may hold `/`) in this folder?
    pub fn has(&self, file: &str) -> bool {
        match self {
            Dir::Disk(dir) => dir.join(file).is_file(),
            Dir::Shipped(dir) => shipped(&format!("{dir}/{file}")).is_some(),
            Dir::Inline(_, files) => files.contains_key(file),
        }
    }

    /// Read the text file `file` of this folder.
    pub fn read(&self, file: &str) -> Result<Source> {
        match self {
            Dir::Disk(dir) => Source::read(&dir.join(file)),
            Dir::Shipped(dir) => {
                let path = format!("{dir}/{file}");
                let data = shipped(&path)
                    .ok_or_else(|| bad_input(format!("cannot read `{path}`: not shipped")))?;
                let text = String::from_utf8(data.into_owned())
                    .map_err(|e| bad_input(format!("cannot read `{path}`: {e}")))?;
                Ok(Source::new(path, text))
            }
            Dir::Inline(label, files) => match files.get(file) {
                Some(text) => Ok(Source::new(format!("{label}/{file}"), text.clone())),
                None => Err(bad_input(format!(
                    "cannot read `{label}/{file}`: the log does not carry it"
                ))),
            },
        }
    }

    /// The pack folders in this folder (those holding a `pack.toml`, up to
    /// two levels deep), by name relative to it, sorted.
    pub fn packs(&self) -> Vec<String> {
        match self {
            Dir::Disk(dir) => disk_packs(dir),
            Dir::Shipped(root) => pack_folders(shipped_under(root).iter()),
            Dir::Inline(_, files) => pack_folders(files.keys()),
        }
    }

    /// The names of the `.toml` files directly in the folder `sub` of this
    /// one (a pack's `tests/`), sorted.
    pub fn toml_files(&self, sub: &str) -> Vec<String> {
        let mut names: Vec<String> = match self {
            Dir::Disk(dir) => disk_variants(&dir.join(sub))
                .into_iter()
                .map(|n| format!("{n}.toml"))
                .collect(),
            Dir::Shipped(root) => {
                let prefix = format!("{}/{sub}/", root.strip_prefix("rules/").unwrap_or(root));
                shipped_under("rules")
                    .iter()
                    .filter_map(|f| f.strip_prefix(&prefix))
                    .filter(|name| name.ends_with(".toml") && !name.contains('/'))
                    .map(str::to_string)
                    .collect()
            }
            Dir::Inline(_, files) => {
                let prefix = format!("{sub}/");
                files
                    .keys()
                    .filter_map(|f| f.strip_prefix(&prefix))
                    .filter(|name| name.ends_with(".toml") && !name.contains('/'))
                    .map(str::to_string)
                    .collect()
            }
        };
        names.sort();
        names
    }

    /// The variant files in this folder, by name, sorted.
    pub fn variants(&self) -> Vec<String> {
        match self {
            Dir::Disk(dir) => disk_variants(dir),
            Dir::Shipped(root) => {
                let mut names: Vec<String> = shipped_under(root)
                    .iter()
                    .filter_map(|f| f.strip_suffix(".toml"))
                    .filter(|name| !name.contains('/'))
                    .map(str::to_string)
                    .collect();
                names.sort();
                names
            }
            Dir::Inline(..) => Vec::new(),
        }
    }
}

/// Where towerlab finds its data: the shipped files, with a home folder's
/// `rules/`, `variants/` and `tuned/` over them, and the packs held in
/// memory over those (the browser studio's). How the packs found are
/// loaded is said apart, by [`LoadOptions`](super::LoadOptions).
#[derive(Clone, Debug)]
pub struct Home {
    folder: Option<PathBuf>,
    /// Packs held in memory over the folders (the browser studio's), by
    /// path relative to a `rules/` folder (`my-pack/pack.toml`): found
    /// first, and no pack is then looked for by a path on disk.
    held: Option<Arc<BTreeMap<String, String>>>,
}

impl Home {
    /// The shipped files alone.
    pub fn shipped() -> Home {
        Home {
            folder: None,
            held: None,
        }
    }

    /// The folder `dir` (holding any of `rules/`, `variants/` and `tuned/`)
    /// over the shipped files.
    pub fn at(dir: &Path) -> Home {
        Home {
            folder: Some(dir.to_path_buf()),
            ..Home::shipped()
        }
    }

    /// `--home`, else `$TOWERLAB_HOME`, else the current folder when it has
    /// `rules/`, `variants/` or `tuned/`, over the shipped files; the shipped files
    /// alone when there is none. A folder named that does not exist is bad
    /// input.
    pub fn locate(flag: Option<&Path>) -> Result<Home> {
        let named = match flag {
            Some(dir) => Some((dir.to_path_buf(), "--home")),
            None => std::env::var_os("TOWERLAB_HOME")
                .filter(|dir| !dir.is_empty())
                .map(|dir| (PathBuf::from(dir), "TOWERLAB_HOME")),
        };
        if let Some((dir, by)) = named {
            if !dir.is_dir() {
                return Err(bad_input(format!(
                    "home folder `{}` (from {by}) does not exist or is not a folder",
                    dir.display()
                )));
            }
            return Ok(Home::at(&dir));
        }
        let here = Path::new(".");
        if ["rules", "variants", super::worths::TUNED_DIR]
            .iter()
            .any(|d| here.join(d).is_dir())
        {
            return Ok(Home::at(here));
        }
        Ok(Home::shipped())
    }

    /// The same home with `files` (by path relative to a `rules/` folder,
    /// `my-pack/pack.toml`) over its packs: a pack named there is read from
    /// them, and every pack is then found by name only, never by a path on
    /// disk (the files come from a browser, which names no files).
    pub fn holding(mut self, files: BTreeMap<String, String>) -> Home {
        self.held = Some(Arc::new(files));
        self
    }

    /// The home folder layered over the shipped files, if any.
    pub fn folder(&self) -> Option<&Path> {
        self.folder.as_deref()
    }

    /// The folders where packs and tile sets are looked up by name, first
    /// match wins: the home folder's `rules/`, then the shipped ones.
    pub fn rules_dirs(&self) -> Vec<Dir> {
        self.layers("rules")
    }

    /// The folders where variants are looked up by name, first match wins.
    pub fn variants_dirs(&self) -> Vec<Dir> {
        self.layers("variants")
    }

    fn layers(&self, sub: &str) -> Vec<Dir> {
        let held = self
            .held
            .iter()
            .filter(|_| sub == "rules")
            .map(|files| Dir::Inline(String::new(), files.as_ref().clone()));
        let mut dirs: Vec<Dir> = held
            .chain(self.folder.iter().map(|f| Dir::Disk(f.join(sub))))
            .collect();
        dirs.push(Dir::Shipped(sub.to_string()));
        dirs
    }

    /// The tile set `rules/SET/tiles.toml` (`base`, `tower`…), the home
    /// folder's if it has one, else the shipped one.
    pub fn tiles(&self, set: &str) -> Result<Source> {
        let file = format!("{set}/tiles.toml");
        match self.rules_dirs().into_iter().find(|d| d.has(&file)) {
            Some(dir) => dir.read(&file),
            None => Err(bad_input(format!(
                "no tile set `{file}` in `rules/`, shipped or in the home folder"
            ))),
        }
    }

    /// The base game's tile set (G9).
    pub fn base_tiles(&self) -> Result<Source> {
        self.tiles("base")
    }

    /// Is `target` a variant (by name or a path to a `.toml` file)?
    /// A pack held in memory is never a variant, whatever variant shares
    /// its name: the studio's pack is the studio's.
    pub fn is_variant(&self, target: &str) -> bool {
        let file = format!("{target}.toml");
        if self.holds_pack(target) {
            return false;
        }
        (!target.contains('/') && self.variants_dirs().iter().any(|d| d.has(&file)))
            || (self.held.is_none() && target.ends_with(".toml"))
    }

    /// Is a pack named `name` among the files held in memory?
    fn holds_pack(&self, name: &str) -> bool {
        let manifest = format!("{name}/pack.toml");
        self.held
            .as_ref()
            .is_some_and(|files| files.contains_key(&manifest))
    }

    /// Every pack name, the home folder's and the shipped ones, sorted.
    pub fn packs(&self) -> Vec<String> {
        merged(self.rules_dirs().iter().map(Dir::packs))
    }

    /// Every variant name, the home folder's and the shipped ones, sorted.
    pub fn variants(&self) -> Vec<String> {
        merged(self.variants_dirs().iter().map(Dir::variants))
    }
}

/// The folders of `files` (paths) that hold a `pack.toml`, up to two
/// levels deep, sorted.
fn pack_folders<'a>(files: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut names: Vec<String> = files
        .filter_map(|f| f.strip_suffix("/pack.toml"))
        .filter(|name| name.matches('/').count() < 2)
        .map(str::to_string)
        .collect();
    names.sort();
    names
}

/// Every pack folder under `rules_dir` (folders holding a `pack.toml`, up to
/// two levels deep), by name relative to `rules_dir`, sorted.
fn disk_packs(rules_dir: &Path) -> Vec<String> {
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

/// Every variant file in `variants_dir`, by name, sorted.
fn disk_variants(variants_dir: &Path) -> Vec<String> {
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

fn merged(lists: impl Iterator<Item = Vec<String>>) -> Vec<String> {
    let mut all: Vec<String> = lists.flatten().collect();
    all.sort();
    all.dedup();
    all
}

/// How a list of folders is named in an error: "`/x/rules` or the shipped
/// `rules/`".
pub(crate) fn describe_dirs(dirs: &[Dir]) -> String {
    dirs.iter()
        .map(|d| match d {
            Dir::Disk(p) => format!("`{}`", p.display()),
            Dir::Shipped(p) => format!("the shipped `{p}/`"),
            Dir::Inline(label, _) if label.is_empty() => "the packs sent".to_string(),
            Dir::Inline(label, _) => format!("`{label}`"),
        })
        .collect::<Vec<_>>()
        .join(" or ")
}
