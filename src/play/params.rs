//! A ruleset with parameter values set over its own: what its packs
//! declare (for a form to offer), values given as JSON checked against
//! those declarations with errors in words (the browser's new-game form);
//! the values checked are a [`Checked`], which `Ruleset::with_params`
//! takes as they are.

use std::collections::BTreeMap;

use anyhow::Result;

use crate::kernel::diag::bad_input;
use crate::rules::setting::Checked;
use crate::rules::{Home, Ruleset, param, setting};

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

/// Values given as JSON by pack and name (`{"tower": {"ransom_cost": 2}}`),
/// checked as every parameter value is (`rules::param`): each pack one of
/// the game's, each name one its pack declares, each value of its type and
/// within its bounds, none set twice. Errors speak to a browser user: no
/// flag, no file.
pub fn from_json(
    set: &Ruleset,
    json: &BTreeMap<String, BTreeMap<String, serde_json::Value>>,
) -> Result<Checked> {
    let settings: Vec<setting::Setting> = json
        .iter()
        .flat_map(|(pack, named)| {
            named.iter().map(move |(name, value)| setting::Setting {
                pack,
                name,
                value: param::Given::Json(value),
            })
        })
        .collect();
    setting::resolve(set.packs(), &settings).map_err(|refused| bad_input(refused.why))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{LoadOptions, Params};

    fn black_tower() -> (Home, Ruleset) {
        let home = Home::shipped();
        let set = Ruleset::from_variant(&home, &LoadOptions::unit_tests(), "black-tower").unwrap();
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
            m.contains("no pack `house/no-gaps`") && m.contains("`tower`, `black-tower`"),
            "{m}"
        );
        let m = err(r#"{"tower": {"ransom_cots": 2}}"#);
        assert!(
            m.contains("no parameter `ransom_cots`") && m.contains("ransom_cost"),
            "{m}"
        );
        let m = err(r#"{"tower": {"ransom_cost": 4294967296}}"#);
        assert!(
            m.contains("`ransom_cost` of pack `tower` is set to 4294967296: above"),
            "{m}"
        );
        let m = err(r#"{"tower": {"ransom_cost": "two"}}"#);
        assert!(m.contains("a whole number") && m.contains("\"two\""), "{m}");
        let m = err(r#"{"tower": {"ransom_cost": 2.5}}"#);
        assert!(m.contains("a whole number"), "{m}");
        let ok = from_json(&set, &json(r#"{"tower": {"ransom_cost": 5}}"#)).unwrap();
        assert_eq!(
            ok.get("tower", "ransom_cost"),
            Some(&param::ParamValue::Integer(5))
        );
    }

    #[test]
    fn a_ruleset_made_again_keeps_its_name_and_takes_the_values() {
        let (home, set) = black_tower();
        let declared = declared(&home, set.pack_names());
        assert!(
            declared
                .iter()
                .any(|d| d.pack == "tower" && d.name == "ransom_cost" && d.default == 3),
            "{declared:?}"
        );
        let values = from_json(&set, &json(r#"{"tower": {"ransom_cost": 5}}"#)).unwrap();
        let before = set.fingerprint().clone();
        let with = set.with_params(&home, &values).unwrap();
        assert_eq!(with.name(), "black-tower");
        assert_eq!(
            with.params()["tower"]["ransom_cost"],
            toml::Value::Integer(5)
        );
        assert_ne!(with.fingerprint(), &before);
    }

    #[test]
    fn a_ruleset_made_again_takes_values_checked_once() {
        let (home, set) = black_tower();
        let ransom = |v: toml::Value| {
            let values = Params::from([(
                "tower".to_string(),
                BTreeMap::from([("ransom_cost".to_string(), v)]),
            )]);
            setting::resolve(set.packs(), &setting::settings_of(&values)).map_err(|r| r.why)
        };
        let out = ransom(toml::Value::Integer(-1)).unwrap_err();
        assert!(out.contains("ransom_cost"), "{out}");
        let out = ransom(toml::Value::String("two".into())).unwrap_err();
        assert!(out.contains("a whole number"), "{out}");
        let two = set
            .with_params(&home, &ransom(toml::Value::Integer(2)).unwrap())
            .unwrap();
        assert_eq!(
            two.params()["tower"]["ransom_cost"],
            toml::Value::Integer(2)
        );
        assert_eq!(two.name(), set.name());
        let again = || set.with_params(&home, &Checked::none()).unwrap();
        assert_eq!(again().fingerprint(), set.fingerprint());
        let most = crate::kernel::pieces::MAX_PLAYERS;
        assert_eq!(again().with_players(most).unwrap().players(), most);
        assert!(again().with_players(most + 1).is_err());
        assert!(again().with_players(1).is_err());
        let doubled = again().with_deck_scaled(2).unwrap();
        assert_ne!(doubled.fingerprint(), set.fingerprint());
        let whole: u32 = set.tiles().kinds.iter().map(|k| k.count).sum();
        let twice: u32 = doubled.tiles().kinds.iter().map(|k| k.count).sum();
        assert_eq!(twice, 2 * whole);
        // A deck scaled keeps its size, and says so, under other values.
        let doubled_two = doubled
            .with_params(&home, &ransom(toml::Value::Integer(2)).unwrap())
            .unwrap();
        let still: u32 = doubled_two.tiles().kinds.iter().map(|k| k.count).sum();
        assert_eq!(still, 2 * whole);
        assert!(doubled_two.fingerprint().ends_with("(deck x2)"));
        assert!(again().with_deck_scaled(1000).is_err());
    }
}
