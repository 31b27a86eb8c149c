//! Parameter values set on a ruleset's packs, and the one way they get
//! in. A variant file's `[params]`, `--param`, a scenario's `params`, a
//! log's `start` record and the browser's form all give [`Setting`]s, which
//! [`resolve`] checks the same way — the pack one of the rules', the
//! parameter one it declares, the value checked by
//! [`ParamDecl::value`](super::param::ParamDecl::value), none set twice —
//! so the same value gets the same answer wherever it is given; each
//! interface adds only where it was given. What it answers is a
//! [`Checked`]: the values, typed, that only this check makes, which a
//! ruleset takes as they are (`Ruleset::with_params` checks nothing, reads
//! no pack and compiles no script again).

use std::collections::BTreeMap;

use super::manifest::Pack;
use super::param::{Given, ParamDecl, ParamValue};
use crate::kernel::diag::did_you_mean;

/// Parameter values as they are written (a variant file's `[params]`, a
/// scenario's, a log's `start` record), by pack reference, then by name:
/// given, not yet checked, or a [`Checked`]'s values written out.
pub type Params = BTreeMap<String, BTreeMap<String, toml::Value>>;

/// Parameter values checked against the packs they were set on, by pack
/// reference, then by name: each pack one of them, each parameter one it
/// declares, each value of its type and within its bounds, none set twice.
/// Only [`resolve`] makes one (or [`Checked::none`], which sets nothing);
/// it remembers the packs it was checked against, so it is applied to
/// those alone.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Checked {
    /// The references of the packs the values were checked against.
    packs: Vec<String>,
    values: BTreeMap<String, BTreeMap<String, ParamValue>>,
}

impl Checked {
    /// No value set, for any packs.
    pub fn none() -> Checked {
        Checked::default()
    }

    /// Whether it sets no value.
    pub fn is_empty(&self) -> bool {
        self.values.values().all(BTreeMap::is_empty)
    }

    /// The value set to pack `pack`'s (by reference) parameter `name`, if
    /// one is.
    pub fn get(&self, pack: &str, name: &str) -> Option<&ParamValue> {
        self.values.get(pack)?.get(name)
    }

    /// Whether these values were checked against `packs` (references, in
    /// order), or set nothing.
    pub fn fits(&self, packs: &[String]) -> bool {
        self.is_empty() || self.packs == packs
    }

    /// These values with `over`'s over them (both checked against the same
    /// packs; a value `over` sets replaces this one's).
    pub fn with(&self, over: &Checked) -> Checked {
        let mut values = self.values.clone();
        for (pack, named) in &over.values {
            let mine = values.entry(pack.clone()).or_default();
            mine.extend(named.iter().map(|(n, v)| (n.clone(), v.clone())));
        }
        let packs = match self.is_empty() {
            true => over.packs.clone(),
            false => self.packs.clone(),
        };
        Checked { packs, values }
    }

    /// The values as they are written ([`Params`]: a log's `start` record,
    /// the fingerprint, the JSON outputs).
    pub fn written(&self) -> Params {
        self.values
            .iter()
            .map(|(pack, named)| {
                let named = named.iter().map(|(n, v)| (n.clone(), v.toml())).collect();
                (pack.clone(), named)
            })
            .collect()
    }
}

/// One value set: the pack as the setter keys it (as the list names it,
/// or by its manifest's `name`), the parameter's name, the value as given.
#[derive(Clone, Copy, Debug)]
pub struct Setting<'a> {
    pub pack: &'a str,
    pub name: &'a str,
    pub value: Given<'a>,
}

/// Why a setting was refused: which one (its index), and why, in words
/// that name the parameter; the caller adds where it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub setting: usize,
    pub why: String,
}

/// The values `settings` give `packs`, keyed by pack reference then name:
/// each pack one of `packs`, each parameter one it declares, each value
/// checked by [`ParamDecl::value`], none set twice (a pack keyed both ways
/// is one pack). The first setting refused, if any. The one check of
/// parameter values: what it answers is applied to these packs as it is.
pub fn resolve(packs: &[Pack], settings: &[Setting]) -> Result<Checked, Refused> {
    let mut params: BTreeMap<String, BTreeMap<String, ParamValue>> = BTreeMap::new();
    for (i, s) in settings.iter().enumerate() {
        let refused = |why: String| Refused { setting: i, why };
        let (pack, decl) = declared(packs, s.pack, s.name).map_err(refused)?;
        let named = |what: String| format!("parameter `{}` of pack `{}` {what}", s.name, s.pack);
        let value = decl.value(s.value).map_err(|why| refused(named(why)))?;
        let values = params.entry(pack.reference.clone()).or_default();
        if values.insert(s.name.to_string(), value).is_some() {
            return Err(refused(named("is set twice: set it once".into())));
        }
    }
    Ok(Checked {
        packs: packs.iter().map(|p| p.reference.clone()).collect(),
        values: params,
    })
}

/// `PACK.NAME=VALUE`, as `--param` (and `sweep --param`, whose value is a
/// range or a list) writes a setting: its pack, name and value's text. A
/// pack given by path may hold dots: the name follows the last dot before
/// the `=`. None when it is not of that form.
pub fn split_flag(spec: &str) -> Option<(&str, &str, &str)> {
    let (key, value) = spec.split_once('=')?;
    let (pack, name) = key.rsplit_once('.')?;
    Some((pack, name, value))
}

/// The settings `params` holds (as a variant file, a scenario or a log
/// keys them), each a TOML value.
pub fn settings_of(params: &BTreeMap<String, BTreeMap<String, toml::Value>>) -> Vec<Setting<'_>> {
    params
        .iter()
        .flat_map(|(pack, values)| {
            values.iter().map(move |(name, value)| Setting {
                pack,
                name,
                value: Given::Toml(value),
            })
        })
        .collect()
}

/// The pack keyed `key` and its declaration of `name`, or why there is
/// none (with the names there are).
pub fn declared<'p>(
    packs: &'p [Pack],
    key: &str,
    name: &str,
) -> Result<(&'p Pack, &'p ParamDecl), String> {
    let pack = pack_for_key(packs, key)?;
    match pack.params.get(name) {
        Some(decl) => Ok((pack, decl)),
        None => {
            let known: Vec<&str> = pack.params.keys().map(String::as_str).collect();
            Err(format!(
                "pack `{key}` has no parameter `{name}` (its parameters: {}){}",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                },
                did_you_mean(name, known.iter().copied())
            ))
        }
    }
}

/// The pack that parameters keyed `key` are for: the pack listed as `key`,
/// else the one whose manifest is named `key`; else an error that lists
/// the keys there are.
pub fn pack_for_key<'p>(packs: &'p [Pack], key: &str) -> Result<&'p Pack, String> {
    if let Some(p) = super::requires::find(packs, key) {
        return Ok(p);
    }
    let mut keys: Vec<String> = Vec::new();
    for p in packs {
        keys.push(p.reference.clone());
        if p.name != p.reference {
            keys.push(p.name.clone());
        }
    }
    let listed: Vec<String> = packs
        .iter()
        .map(|p| {
            if p.name == p.reference {
                format!("`{}`", p.name)
            } else {
                format!("`{}` (or its name, `{}`)", p.reference, p.name)
            }
        })
        .collect();
    Err(format!(
        "these rules have no pack `{key}`; the keys there are: {}{}",
        listed.join(", "),
        did_you_mean(key, keys.iter().map(String::as_str))
    ))
}
