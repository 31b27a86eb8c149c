//! The packs a studio page may start from: the shipped packs, the docs'
//! examples and a template per kind of rule, each with the files the studio
//! takes back (the page keeps a copy and edits it), its title and
//! description read from its manifest as any pack's are.

use super::super::wire::{Start, StudioStarts};
use super::names::file_name;
use crate::rules::manifest::inline_pack;
use crate::rules::{Kept, kept_packs};

/// Every pack to start from, shipped first, then examples, then templates.
pub fn starts() -> StudioStarts {
    let mut starts = Vec::new();
    for kind in Kept::ALL {
        for (pack, mut files) in kept_packs(kind) {
            // Only the files the studio takes back (an example's README.md
            // is the docs', not the pack's).
            files.retain(|name, _| file_name(&pack, name).is_ok());
            let (title, description) = match inline_pack(&pack, &pack, &files) {
                Ok(p) => (p.title, p.description),
                Err(_) => (String::new(), String::new()),
            };
            starts.push(Start {
                kind: kind.name().to_string(),
                pack,
                title,
                description,
                files,
            });
        }
    }
    StudioStarts { starts }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_start_is_offered_with_its_files() {
        let all = starts().starts;
        for kind in Kept::ALL {
            assert!(all.iter().any(|s| s.kind == kind.name()), "{}", kind.name());
        }
        // Every file offered is one the studio takes back.
        for s in &all {
            for name in s.files.keys() {
                assert!(
                    super::super::names::file_name(&s.pack, name).is_ok(),
                    "{}/{name}",
                    s.pack
                );
            }
        }
        assert!(
            all.iter()
                .any(|s| s.kind == "example" && s.pack == "knights-only")
        );
        let tower = all.iter().find(|s| s.pack == "tower").unwrap();
        assert!(tower.files.contains_key("pack.toml") && tower.files.contains_key("tower.rhai"));
        assert!(
            !all.iter().any(|s| s.pack == "base"),
            "base is the game, not a pack"
        );
        for template in [
            "range-shape",
            "capture-rule",
            "ransom-rule",
            "new-floor",
            "event-rule",
        ] {
            let t = all.iter().find(|s| s.pack == template).unwrap();
            assert!(!t.title.is_empty() && t.files.keys().any(|f| f.starts_with("tests/")));
        }
    }
}
