//! `towerlab info NAME|PATH`: what a pack or variant is — title,
//! description, requirements, floor kinds, parameters, tiles added, and the
//! hooks it defines with what each wraps.

use std::io::Write;

use anyhow::Result;

use crate::rules::script::Hook;
use crate::rules::with_requirements;
use crate::rules::{Home, LoadOptions, Pack, Ruleset};

#[derive(clap::Args, Debug)]
pub struct InfoArgs {
    /// A pack (name under rules/ or folder path) or a variant (name in
    /// variants/ or path to a .toml file).
    pub target: String,
}

pub fn run(home: &Home, load: &LoadOptions, args: &InfoArgs) -> Result<()> {
    if home.is_variant(&args.target) {
        let v = home.load_variant(&args.target)?;
        // Loaded whole before anything is printed: an error prints alone.
        let set = Ruleset::from_variant(home, load, &args.target)?;
        out!("variant {}: {}", v.name, v.description);
        out!("  from: {}", v.origin);
        out!("  packs: {}", v.packs.join(", "));
        if let Some(p) = v.players {
            out!("  players: {p}");
        }
        for (pack, params) in &v.params {
            for (name, value) in params {
                out!("  sets {pack}.{name} = {value}");
            }
        }
        match set.tuned() {
            Some(t) => out!(
                "  bot values: tuned from {} self-play games (seed {}, {} players; `towerlab tune`)",
                t.games,
                t.seed,
                t.players
            ),
            None => out!(
                "  bot values: the defaults (not tuned; `towerlab tune {}`)",
                v.name
            ),
        }
        super::tune::print_worths(set.worths(), &set)?;
        for pack in set.packs() {
            out!("");
            describe(&set, pack)?;
        }
        return Ok(());
    }
    let pack = home.load_pack(&args.target)?;
    let mut list = Vec::new();
    with_requirements(home, pack, &mut list)?;
    let names: Vec<String> = list.iter().map(|p| p.reference.clone()).collect();
    let set = Ruleset::from_packs(home, load, &names)?;
    let pack = set.packs().last().expect("the pack itself");
    describe(&set, pack)
}

/// One pack, as loaded in `set`.
fn describe(set: &Ruleset, pack: &Pack) -> Result<()> {
    out!("pack {}: {}", pack.reference, super::list::title(pack));
    if !pack.description.is_empty() {
        out!("  {}", pack.description);
    }
    out!("  from: {}", pack.origin);
    if !pack.requires.is_empty() {
        out!("  requires: {}", pack.requires.join(", "));
    }
    for f in &pack.floors {
        out!("  floor kind {} ({}): {}", f.name, f.colour, f.description);
    }
    for (name, p) in &pack.params {
        let bounds = p.bounds();
        let ty = if bounds.is_empty() {
            p.default.type_str().to_string()
        } else {
            format!("{} {bounds}", p.default.type_str())
        };
        let set_to = set.params().get(&pack.reference).and_then(|m| m.get(name));
        let value = set_to.map(|v| format!(", set to {v}")).unwrap_or_default();
        out!(
            "  parameter {name} ({ty}, default {}{value}): {}",
            p.default,
            p.description
        );
    }
    if let Some(tiles) = &pack.tiles {
        let kinds = tiles.text.matches("[[tile]]").count();
        out!("  tiles: {} ({kinds} tile kinds)", tiles.path.display());
    }
    if pack.native.is_some() {
        out!("  hooks: native Rust (src/rules/native.rs)");
    }
    let Some(scripts) = set.scripts() else {
        return Ok(());
    };
    for hook in Hook::ALL {
        let chain: Vec<&str> = scripts.chain(hook).collect();
        let Some(at) = chain.iter().position(|p| *p == pack.reference) else {
            continue;
        };
        let wraps = match at {
            0 => "the default".to_string(),
            _ => chain[..at]
                .iter()
                .rev()
                .copied()
                .collect::<Vec<_>>()
                .join(" → "),
        };
        out!(
            "  hook {}({}): wraps {wraps}",
            hook.name(),
            hook.params().join(", ")
        );
    }
    Ok(())
}
