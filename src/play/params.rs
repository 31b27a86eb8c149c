//! A ruleset with parameter values set over its own: what its packs
//! declare (for a form to offer), values given as JSON checked against
//! those declarations with errors in words (the browser's new-game form),
//! and the ruleset made again with them (that form and `--param` alike).

use std::collections::BTreeMap;

use anyhow::Result;

use crate::kernel::diag::{bad_input, did_you_mean};
use crate::rules::{Home, Params, Ruleset};

/// A parameter a pack declares: its default and what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct Declared {
    /// The pack, as the catalog names it.
    pub pack: String,
    pub name: String,
    pub default: serde_json::Value,
    pub description: String,
}

/// The parameters the packs named `packs` declare, pack by pack; a pack
/// that cannot be read declares none (choosing it gives its error).
pub fn declared(home: &Home, packs: &[String]) -> Vec<Declared> {
    let mut all = Vec::new();
    for name in packs {
        let Ok(pack) = home.load_pack(name) else {
            continue;
        };
        for (param, decl) in &pack.params {
            all.push(Declared {
                pack: name.clone(),
                name: param.clone(),
                default: serde_json::to_value(&decl.default).unwrap_or(serde_json::Value::Null),
                description: decl.description.clone(),
            });
        }
    }
    all
}

/// `set` made again with `values` over its own parameters, keeping its
/// name, description, players and origin.
pub fn with_values(home: &Home, set: &Ruleset, values: &Params) -> Result<Ruleset> {
    let mut params = set.params.clone();
    for (pack, named) in values {
        params
            .entry(pack.clone())
            .or_default()
            .extend(named.clone());
    }
    let mut with = Ruleset::from_packs_with(home, &set.pack_names, &params)?;
    with.name = set.name.clone();
    with.description = set.description.clone();
    with.players = set.players;
    with.origin = set.origin.clone();
    Ok(with)
}

/// Values given as JSON by pack and name (`{"tower": {"ransom_cost": 2}}`),
/// checked against what `set`'s packs declare: each pack one of the
/// game's, each name one its pack declares, each value of its default's
/// type. Errors speak to a browser user: no flag, no file.
pub fn from_json(
    set: &Ruleset,
    json: &BTreeMap<String, BTreeMap<String, serde_json::Value>>,
) -> Result<Params> {
    let mut params = Params::new();
    for (pack, named) in json {
        let Some(found) = set
            .packs
            .iter()
            .find(|p| &p.reference == pack || &p.name == pack)
        else {
            return Err(bad_input(format!(
                "a setting of pack `{pack}`, which these rules do not have (their packs: {}){}: choose rules with it, or leave its settings alone",
                set.pack_names.join(", "),
                did_you_mean(pack, set.pack_names.iter().map(String::as_str))
            )));
        };
        for (name, value) in named {
            let Some(decl) = found.params.get(name) else {
                let known: Vec<&str> = found.params.keys().map(String::as_str).collect();
                return Err(bad_input(format!(
                    "pack `{pack}` has no setting `{name}` (its settings: {}){}",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    },
                    did_you_mean(name, known.iter().copied())
                )));
            };
            let value = of_type(value, &decl.default).ok_or_else(|| {
                bad_input(format!(
                    "`{name}` of pack `{pack}` is {} (like its default, {}), not {value}",
                    kind_in_words(&decl.default),
                    decl.default
                ))
            })?;
            params
                .entry(found.reference.clone())
                .or_default()
                .insert(name.clone(), value);
        }
    }
    Ok(params)
}

/// `value` as a value of `default`'s type, if it is one (a whole number is
/// a number too).
fn of_type(value: &serde_json::Value, default: &toml::Value) -> Option<toml::Value> {
    use serde_json::Value as J;
    use toml::Value as T;
    Some(match (default, value) {
        (T::Integer(_), J::Number(n)) => T::Integer(n.as_i64()?),
        (T::Float(_), J::Number(n)) => T::Float(n.as_f64()?),
        (T::Boolean(_), J::Bool(b)) => T::Boolean(*b),
        (T::String(_), J::String(s)) => T::String(s.clone()),
        _ => return None,
    })
}

fn kind_in_words(default: &toml::Value) -> &'static str {
    match default {
        toml::Value::Integer(_) => "a whole number",
        toml::Value::Float(_) => "a number",
        toml::Value::Boolean(_) => "true or false",
        toml::Value::String(_) => "a text",
        _ => "a value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::MemoryLimit;

    fn black_tower() -> (Home, Ruleset) {
        let home = Home::shipped().with_memory_limit(MemoryLimit::Off);
        let set = Ruleset::from_variant(&home, "black-tower").unwrap();
        (home, set)
    }

    fn json(text: &str) -> BTreeMap<String, BTreeMap<String, serde_json::Value>> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn values_are_checked_against_the_packs_declarations_in_words() {
        let (_, set) = black_tower();
        let err = |text: &str| format!("{:#}", from_json(&set, &json(text)).unwrap_err());
        let m = err(r#"{"house/no-gaps": {"x": 1}}"#);
        assert!(
            m.contains("do not have") && m.contains("tower, black-tower"),
            "{m}"
        );
        let m = err(r#"{"tower": {"ransom_cots": 2}}"#);
        assert!(
            m.contains("no setting `ransom_cots`") && m.contains("ransom_cost"),
            "{m}"
        );
        let m = err(r#"{"tower": {"ransom_cost": "two"}}"#);
        assert!(m.contains("a whole number") && m.contains("\"two\""), "{m}");
        let m = err(r#"{"tower": {"ransom_cost": 2.5}}"#);
        assert!(m.contains("a whole number"), "{m}");
        let ok = from_json(&set, &json(r#"{"tower": {"ransom_cost": 5}}"#)).unwrap();
        assert_eq!(ok["tower"]["ransom_cost"], toml::Value::Integer(5));
    }

    #[test]
    fn a_ruleset_made_again_keeps_its_name_and_takes_the_values() {
        let (home, set) = black_tower();
        let declared = declared(&home, &set.pack_names);
        assert!(
            declared
                .iter()
                .any(|d| d.pack == "tower" && d.name == "ransom_cost" && d.default == 3),
            "{declared:?}"
        );
        let values = from_json(&set, &json(r#"{"tower": {"ransom_cost": 5}}"#)).unwrap();
        let before = set.fingerprint.clone();
        let with = with_values(&home, &set, &values).unwrap();
        assert_eq!(with.name, "black-tower");
        assert_eq!(with.params["tower"]["ransom_cost"], toml::Value::Integer(5));
        assert_ne!(with.fingerprint, before);
    }
}
