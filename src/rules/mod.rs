//! Rule packs and variants: finding them, validating them once, and turning
//! them into a ready [`Ruleset`] — the tile set plus the rules — from which
//! each worker thread takes its own [`Rules`] instance.
//!
//! A pack is a folder with a `pack.toml` and (usually) a Rhai script; a
//! variant is an ordered list of packs with settings. The base game is always
//! in. See `docs/packs.md` for the author's guide.

pub mod manifest;
pub mod native;
pub mod script;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Result;

use crate::kernel::Rules;
use crate::kernel::diag::{bad_input, did_you_mean};
use crate::kernel::tiles::TileSet;
use crate::rules::native::NativeTower;
pub use manifest::{FloorDecl, NATIVE_TOWER, Pack};
pub use script::MemoryLimit;
use script::{ScriptRules, ScriptSource, Scripts};

/// Parameter values a variant sets: by pack reference, then by name.
pub type Params = BTreeMap<String, BTreeMap<String, toml::Value>>;

/// Where towerlab finds its data: `rules/` (tile sets and packs) and
/// `variants/`.
#[derive(Clone, Debug)]
pub struct Home {
    pub rules: PathBuf,
    pub variants: PathBuf,
    /// Whether the packs loaded from here are held to the memory limit.
    pub memory_limit: MemoryLimit,
}

impl Home {
    /// A home folder holding `rules/` and `variants/`.
    pub fn at(dir: &Path) -> Home {
        Home {
            rules: dir.join("rules"),
            variants: dir.join("variants"),
            memory_limit: MemoryLimit::On,
        }
    }

    /// The same home, its packs loaded with the memory limit `limit`: a
    /// program that does not install [`script::CountingAllocator`] loads them
    /// with [`MemoryLimit::Off`].
    pub fn with_memory_limit(mut self, limit: MemoryLimit) -> Home {
        self.memory_limit = limit;
        self
    }

    /// `--home`, else `$TOWERLAB_HOME`, else the current folder when it has
    /// `rules/base/tiles.toml`, else the source tree towerlab was built from.
    pub fn locate(flag: Option<&Path>) -> Home {
        if let Some(dir) = flag {
            return Home::at(dir);
        }
        if let Some(dir) = std::env::var_os("TOWERLAB_HOME") {
            return Home::at(Path::new(&dir));
        }
        if Path::new("rules/base/tiles.toml").is_file() {
            return Home::at(Path::new("."));
        }
        Home::at(Path::new(env!("CARGO_MANIFEST_DIR")))
    }

    /// The base game's tile set (G9).
    pub fn base_tiles(&self) -> Result<PathBuf> {
        let base = self.rules.join("base").join("tiles.toml");
        if base.is_file() {
            Ok(base)
        } else {
            Err(bad_input(format!(
                "no base tile set at `{}`: pass --home DIR (a folder holding rules/ and variants/) or set TOWERLAB_HOME",
                base.display()
            )))
        }
    }
}

/// How the rules of a ruleset are implemented.
enum Implementation {
    Native,
    Script(Arc<Scripts>),
}

/// A validated variant: its packs, tile set and rules, ready to play.
pub struct Ruleset {
    /// The variant's name, or the pack list for an ad-hoc variant.
    pub name: String,
    pub description: String,
    /// The packs as the variant (or `--packs`) names them, in order.
    pub pack_names: Vec<String>,
    pub packs: Vec<Pack>,
    /// Default number of players.
    pub players: usize,
    pub tiles: TileSet,
    /// Every floor kind, in order (a `FloorKind` indexes this).
    pub floors: Vec<FloorDecl>,
    /// The parameter values the variant sets (defaults are not listed).
    pub params: Params,
    implementation: Implementation,
}

impl Ruleset {
    /// Load the variant `reference` (a name in `variants/` or a path).
    pub fn from_variant(home: &Home, reference: &str) -> Result<Ruleset> {
        let file = manifest::load_variant(&home.variants, reference)?;
        let mut packs = Vec::new();
        for (name, span) in file.packs.iter().zip(&file.pack_spans) {
            let pack = manifest::load_pack(&home.rules, name)
                .map_err(|e| file.source.error_at(span.clone(), format!("{e:#}")))?;
            packs.push(pack);
        }
        for (pack, span) in &file.param_spans {
            if !file.packs.contains(pack) {
                return Err(file.source.error_at(
                    span.clone(),
                    format!(
                        "parameters for pack `{pack}`, which the variant does not list{}",
                        did_you_mean(pack, file.packs.iter().map(String::as_str))
                    ),
                ));
            }
            // The values must be parameters the pack declares, of its types.
            if let (Some(p), Some(values)) = (
                packs.iter().find(|p| &p.reference == pack),
                file.params.get(pack),
            ) {
                param_map(p, values).map_err(|e| file.source.error_at(span.clone(), e))?;
            }
        }
        let mut set =
            Ruleset::assemble(home, file.name.clone(), packs, &file.params).map_err(|e| {
                // The error keeps its type (bad input or not) under the
                // variant's name.
                e.context(format!(
                    "variant `{}` ({})",
                    file.name,
                    file.source.path.display()
                ))
            })?;
        set.description = file.description;
        if let Some(p) = file.players {
            set.players = p;
        }
        Ok(set)
    }

    /// An ad-hoc variant made of `packs`, in order.
    pub fn from_packs(home: &Home, packs: &[String]) -> Result<Ruleset> {
        Ruleset::from_packs_with(home, packs, &Params::new())
    }

    /// An ad-hoc variant made of `packs`, in order, with parameter values
    /// (as a game log's `start` record gives them).
    pub fn from_packs_with(home: &Home, packs: &[String], params: &Params) -> Result<Ruleset> {
        if packs.is_empty() {
            return Err(bad_input("`--packs` names at least one pack"));
        }
        let loaded = packs
            .iter()
            .map(|p| manifest::load_pack(&home.rules, p))
            .collect::<Result<Vec<_>>>()?;
        for pack in params.keys() {
            if !packs.contains(pack) {
                return Err(bad_input(format!(
                    "parameters for pack `{pack}`, which is not in the list"
                )));
            }
        }
        Ruleset::assemble(home, packs.join(","), loaded, params)
    }

    /// Either a variant or a pack list, as the command line gives them.
    pub fn select(home: &Home, variant: Option<&str>, packs: Option<&[String]>) -> Result<Ruleset> {
        match (variant, packs) {
            (Some(_), Some(_)) => Err(bad_input("give either --variant or --packs, not both")),
            (Some(v), None) => Ruleset::from_variant(home, v),
            (None, Some(p)) => Ruleset::from_packs(home, p),
            (None, None) => Ruleset::from_variant(home, "tower"),
        }
    }

    fn assemble(home: &Home, name: String, packs: Vec<Pack>, params: &Params) -> Result<Ruleset> {
        // Required packs come earlier in the list.
        for (i, pack) in packs.iter().enumerate() {
            for req in &pack.requires {
                let before = packs[..i]
                    .iter()
                    .any(|p| &p.name == req || &p.reference == req);
                if !before {
                    return Err(bad_input(format!(
                        "pack `{}` requires pack `{req}` earlier in the list (e.g. --packs {req},{})",
                        pack.reference, pack.reference
                    )));
                }
            }
            if packs[..i].iter().any(|p| p.name == pack.name) {
                return Err(bad_input(format!(
                    "pack `{}` is listed twice",
                    pack.reference
                )));
            }
        }
        if packs.iter().any(|p| p.native) && packs.len() > 1 {
            return Err(bad_input(format!(
                "`{NATIVE_TOWER}` is the native reference rules and stands alone; \
                 to combine packs use the scripted `tower` pack"
            )));
        }
        // Floor kinds: every pack's, in order, each name once.
        let mut floors: Vec<FloorDecl> = Vec::new();
        let mut owner: Vec<&str> = Vec::new();
        for pack in &packs {
            for f in &pack.floors {
                if let Some(i) = floors.iter().position(|g| g.name == f.name) {
                    return Err(bad_input(format!(
                        "floor kind `{}` is declared by both pack `{}` and pack `{}`",
                        f.name, owner[i], pack.reference
                    )));
                }
                floors.push(f.clone());
                owner.push(&pack.reference);
            }
        }
        // Tiles: the base game's, then each pack's.
        let mut tile_files = vec![home.rules.join("base").join("tiles.toml")];
        tile_files.extend(packs.iter().filter_map(|p| p.tiles.clone()));
        if !tile_files[0].is_file() {
            return Err(bad_input(format!(
                "no base tile set at `{}`",
                tile_files[0].display()
            )));
        }
        let tiles = TileSet::load(&tile_files)?;
        let kinds: Vec<String> = floors.iter().map(|f| f.name.clone()).collect();
        let implementation = if packs.iter().any(|p| p.native) {
            Implementation::Native
        } else {
            let mut sources = Vec::new();
            for pack in &packs {
                let values = params.get(&pack.reference).cloned().unwrap_or_default();
                let map = param_map(pack, &values)?;
                if let Some(source) = &pack.script {
                    sources.push((pack.reference.as_str(), source, map));
                }
            }
            let sources: Vec<ScriptSource> = sources
                .iter()
                .map(|(pack, source, params)| ScriptSource {
                    pack,
                    source,
                    params: params.clone(),
                })
                .collect();
            Implementation::Script(Arc::new(Scripts::compile(
                &sources,
                &kinds,
                home.memory_limit,
            )?))
        };
        Ok(Ruleset {
            name,
            description: String::new(),
            pack_names: packs.iter().map(|p| p.reference.clone()).collect(),
            packs,
            players: 2,
            tiles,
            floors,
            params: params.clone(),
            implementation,
        })
    }

    /// A rules instance for one thread.
    pub fn rules(&self) -> Box<dyn Rules> {
        match &self.implementation {
            Implementation::Native => Box::new(NativeTower::default()),
            Implementation::Script(s) => Box::new(ScriptRules::new(s.clone())),
        }
    }

    /// The compiled scripts (none for the native rules).
    pub fn scripts(&self) -> Option<&Scripts> {
        match &self.implementation {
            Implementation::Native => None,
            Implementation::Script(s) => Some(s),
        }
    }

    /// The floor kind called `name`.
    pub fn floor_kind(&self, name: &str) -> Result<u8> {
        self.floors
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as u8)
            .ok_or_else(|| {
                bad_input(format!(
                    "unknown floor kind `{name}` (this variant has: {}){}",
                    self.floors
                        .iter()
                        .map(|f| f.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    did_you_mean(name, self.floors.iter().map(|f| f.name.as_str()))
                ))
            })
    }
}

/// The parameters a pack's script sees: declared defaults, overridden by the
/// variant's values (which must be declared and of the same type).
fn param_map(pack: &Pack, values: &BTreeMap<String, toml::Value>) -> Result<rhai::Map> {
    let mut map = rhai::Map::new();
    for (name, decl) in &pack.params {
        map.insert(name.as_str().into(), to_dynamic(&decl.default)?);
    }
    for (name, value) in values {
        let Some(decl) = pack.params.get(name) else {
            return Err(bad_input(format!(
                "pack `{}` has no parameter `{name}`{}",
                pack.reference,
                did_you_mean(name, pack.params.keys().map(String::as_str))
            )));
        };
        if decl.default.type_str() != value.type_str() {
            return Err(bad_input(format!(
                "parameter `{name}` of pack `{}` is {}, not {}",
                pack.reference,
                decl.default.type_str(),
                value.type_str()
            )));
        }
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
