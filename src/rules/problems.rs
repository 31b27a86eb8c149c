//! Every problem of a pack or a variant as it loads, not only the first:
//! each pack (with the packs it requires) is read, its script compiled and
//! its tile file read on its own, then the whole is assembled, so that
//! `check` lists them all, each with its `file:line:col`. The commands that
//! play load through [`Ruleset`], which stops at the first.

use std::ops::Range;

use anyhow::Result;

use super::manifest::{self, Pack, VariantFile};
use super::{Home, LoadOptions, Ruleset, compile_scripts};
use crate::kernel::tiles::TileSet;

/// What loading a pack or variant found.
pub struct Loaded {
    /// The ruleset, when everything loads and fits together.
    pub set: Option<Ruleset>,
    /// The packs a pack needs, in order, followed by the pack (for a
    /// variant: its packs as it lists them).
    pub packs: Vec<String>,
    /// Every problem, each once, in the order found.
    pub problems: Vec<String>,
}

/// Load the pack, pack list (`tower,house/no-gaps`) or variant `target`
/// under `load`, collecting every problem.
///
/// Each script is compiled once: the ruleset assembled takes the scripts
/// compiled alone ([`LoadOptions::keeping_compiled`]), and so do the rules
/// made from it.
pub fn load_all(home: &Home, load: &LoadOptions, target: &str) -> Loaded {
    let load = &load.clone().keeping_compiled();
    let mut loaded = Loaded {
        set: None,
        packs: Vec::new(),
        problems: Vec::new(),
    };
    // A variant's own problems (its parameters…) are found by loading it
    // whole; a pack list is assembled only once each of its packs loads.
    let assembled = if home.is_variant(target) {
        home.load_variant(target).and_then(|variant| {
            variant_packs(home, load, &variant, &mut loaded);
            loaded.packs = variant.packs.clone();
            Ruleset::from_variant(home, load, target)
        })
    } else if target.contains(',') {
        // A pack list: each pack (with what it requires) loaded on its
        // own, then the list assembled as it is given.
        let list: Vec<String> = target.split(',').map(str::to_string).collect();
        let mut visited = Vec::new();
        for name in &list {
            visit(home, load, name, None, 0, &mut visited, &mut loaded);
        }
        if !loaded.problems.is_empty() {
            return loaded;
        }
        loaded.packs = list.clone();
        Ruleset::from_packs(home, load, &list)
    } else {
        let mut visited = Vec::new();
        visit(home, load, target, None, 0, &mut visited, &mut loaded);
        if !loaded.problems.is_empty() {
            return loaded;
        }
        Ruleset::from_packs(home, load, &loaded.packs)
    };
    match assembled {
        Ok(set) if loaded.problems.is_empty() => loaded.set = Some(set),
        Ok(_) => {}
        Err(e) => note(&mut loaded.problems, format!("{e:#}")),
    }
    loaded
}

/// Every pack a variant lists, each with its requirements; a pack that does
/// not load is reported at its line of the variant file.
fn variant_packs(home: &Home, load: &LoadOptions, variant: &VariantFile, loaded: &mut Loaded) {
    let mut visited = Vec::new();
    for (name, span) in variant.packs.iter().zip(&variant.pack_spans) {
        let at = At {
            source: &variant.source,
            span: span.clone(),
            what: "",
        };
        visit(home, load, name, Some(at), 0, &mut visited, loaded);
    }
}

/// Where a pack is named (a variant's list, a pack's `requires`), for its
/// errors.
struct At<'a> {
    source: &'a crate::kernel::diag::Source,
    span: Range<usize>,
    /// Put before the error (e.g. "`requires`: ").
    what: &'static str,
}

/// Load the pack `reference` and the packs it requires, each once; its
/// problems go to `loaded`, the pack after its requirements to
/// `loaded.packs`.
fn visit(
    home: &Home,
    load: &LoadOptions,
    reference: &str,
    at: Option<At>,
    depth: usize,
    visited: &mut Vec<String>,
    loaded: &mut Loaded,
) {
    if visited.iter().any(|v| v == reference) {
        return;
    }
    visited.push(reference.to_string());
    let placed = |e: anyhow::Error| match &at {
        Some(at) => at
            .source
            .error_at(at.span.clone(), format!("{}{e:#}", at.what)),
        None => e,
    };
    // A pack found is reported in its own files; one not found (or whose
    // manifest cannot be read) where it is named.
    let (pack, problems) = match manifest::load_pack_checked(&home.rules_dirs(), reference) {
        Ok(found) => found,
        Err(problems) => {
            for e in problems {
                note(&mut loaded.problems, format!("{:#}", placed(e)));
            }
            return;
        }
    };
    for e in problems.into_iter().chain(pack_files(home, load, &pack)) {
        note(&mut loaded.problems, format!("{e:#}"));
    }
    if depth >= super::requires::MAX_DEPTH {
        note(
            &mut loaded.problems,
            format!("pack `{reference}`: requirements nest too deep (a cycle?)"),
        );
        return;
    }
    for (k, req) in pack.requires.iter().enumerate() {
        let known = visited.iter().any(|v| v == req) || loaded.packs.contains(req);
        if known || pack.name == *req {
            continue;
        }
        let at = pack.requires_spans.get(k).map(|span| At {
            source: &pack.manifest,
            span: span.clone(),
            what: "`requires`: ",
        });
        visit(home, load, req, at, depth + 1, visited, loaded);
    }
    loaded.packs.push(reference.to_string());
}

/// The problems of a pack's own files: its script compiled alone (with its
/// parameters' defaults) and its tile file read after the base game's.
fn pack_files(home: &Home, load: &LoadOptions, pack: &Pack) -> Vec<anyhow::Error> {
    let mut problems = Vec::new();
    if pack.script.is_some() {
        let compiled = compile_scripts(
            load,
            std::slice::from_ref(pack),
            &super::setting::Checked::none(),
            &pack.floors,
        );
        problems.extend(compiled.err());
    }
    if let Some(tiles) = &pack.tiles {
        let read: Result<TileSet> = home
            .base_tiles()
            .and_then(|base| TileSet::from_sources(&[base, tiles.clone()]));
        problems.extend(read.err());
    }
    problems
}

/// Add `problem` unless it is already there, alone or within a longer
/// message (the same error, reported again at the variant's line).
fn note(problems: &mut Vec<String>, problem: String) {
    if !problems.iter().any(|p| problem.contains(p.as_str())) {
        problems.push(problem);
    }
}
