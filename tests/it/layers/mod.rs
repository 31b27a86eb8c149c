//! The layers of `src/`, enforced: a module imports only from its own layer
//! or the layers the table lets it see (ARCHITECTURE.md), the table allows
//! no more than the code uses, and the modules of a layer import each other
//! without loops. `invariants` checks the other written rules of the map.
//!
//! The sources are parsed (`source`), and every path a module names — in a
//! `use` of any visibility, in code, in an attribute or a macro — is
//! resolved to the module that defines it, through imports, globs and type
//! aliases. Each check is a function of the sources, so a test can plant a
//! violation and see it found.

mod invariants;
mod source;

use std::collections::{BTreeMap, BTreeSet};

use source::{Crate, ModPath, SourceFile, read_src};

/// Each layer (a folder of `src/`) and the layers it imports from: exactly
/// those (an allowed layer the code does not import fails too).
const LAYERS: Table = &[
    ("kernel", &[]),
    ("rules", &["kernel"]),
    ("play", &["kernel", "rules"]),
    ("analysis", &["kernel", "rules", "play"]),
    ("views", &["kernel", "rules", "play", "analysis"]),
    ("serve", &["kernel", "rules", "play", "analysis", "views"]),
    (
        "cli",
        &["kernel", "rules", "play", "analysis", "views", "serve"],
    ),
];

type Table = &'static [(&'static str, &'static [&'static str])];

fn layer_of(path: &[String]) -> Option<&'static str> {
    let top = path.first()?;
    LAYERS.iter().map(|(l, _)| *l).find(|l| l == top)
}

fn name(path: &ModPath) -> String {
    path.join("::")
}

/// "A imports B" for every import from a layer the table does not allow.
fn wrong_imports(files: &[SourceFile], table: Table) -> Vec<String> {
    let mut wrong = Vec::new();
    for (from, targets) in Crate::new(files).edges() {
        let Some(own) = layer_of(&from) else { continue };
        let allowed = table
            .iter()
            .find(|(l, _)| *l == own)
            .map_or(&[][..], |t| t.1);
        for to in targets {
            match layer_of(&to) {
                Some(theirs) if theirs != own && !allowed.contains(&theirs) => {
                    wrong.push(format!("{} imports {}", name(&from), name(&to)));
                }
                _ => {}
            }
        }
    }
    wrong
}

/// "A may import B but does not" for every allowance the code does not use.
fn unused_allowances(files: &[SourceFile], table: Table) -> Vec<String> {
    let mut used: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, targets) in Crate::new(files).edges() {
        let Some(own) = layer_of(&from) else { continue };
        used.entry(own)
            .or_default()
            .extend(targets.iter().filter_map(|t| layer_of(t)));
    }
    let mut unused = Vec::new();
    for (layer, allowed) in table {
        for a in *allowed {
            if !used.get(layer).is_some_and(|u| u.contains(a)) {
                unused.push(format!("{layer} may import {a} but does not"));
            }
        }
    }
    unused
}

/// Every loop of imports among the modules of `files`, once each: between
/// siblings and cousins, and between a module and its parent (the parent
/// names an item of the child, the child one of the parent).
fn import_loops(files: &[SourceFile]) -> Vec<String> {
    let edges = Crate::new(files).edges_with_ancestors();
    let mut loops = Vec::new();
    for start in edges.keys() {
        // A loop through `start` whose other members all sort after it, so
        // that each loop is reported once.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, trail)) = stack.pop() {
            for next in edges.get(&at).into_iter().flatten() {
                if next == start {
                    let names: Vec<_> = trail.iter().map(name).collect();
                    loops.push(format!("{} -> {}", names.join(" -> "), name(start)));
                } else if next > start && seen.insert(next.clone()) {
                    let mut t = trail.clone();
                    t.push(next.clone());
                    stack.push((next.clone(), t));
                }
            }
        }
    }
    loops
}

fn assert_none(found: Vec<String>, what: &str) {
    assert!(found.is_empty(), "{what}:\n{}", found.join("\n"));
}

#[test]
fn every_file_of_src_is_in_a_layer() {
    let stray: Vec<String> = read_src()
        .iter()
        .filter(|f| !f.module.is_empty() && !f.is_main() && layer_of(&f.module).is_none())
        .map(|f| f.file.clone())
        .collect();
    assert_none(stray, "files outside the layers");
}

#[test]
fn imports_only_go_down() {
    assert_none(
        wrong_imports(&read_src(), LAYERS),
        "imports that go up or sideways",
    );
}

#[test]
fn every_allowed_layer_is_imported() {
    assert_none(
        unused_allowances(&read_src(), LAYERS),
        "the table of layers allows more than the code does (fix it here and in ARCHITECTURE.md)",
    );
}

/// Loops between a module and its parent (the parent names an item of the
/// child, the child one of the parent) that the tree has had since this
/// check found them: each is undone by moving what both name into a module
/// of their own. Any loop not listed fails, and so does a listed loop that
/// is gone: this list only shrinks.
const KNOWN_PARENT_LOOPS: &[&str] = &[
    "analysis::partial -> analysis::partial::merge -> analysis::partial",
    "kernel::game -> kernel::game::acts -> kernel::game",
    "kernel::game -> kernel::game::scoring -> kernel::game",
    "kernel::game -> kernel::game::towers -> kernel::game",
    "kernel::tiles -> kernel::tiles::compile -> kernel::tiles",
    "kernel::tiles -> kernel::tiles::deal -> kernel::tiles",
    "play::bots::mcts -> play::bots::mcts::halving -> play::bots::mcts",
    "play::bots::mcts -> play::bots::mcts::keep -> play::bots::mcts",
    "play::bots::mcts -> play::bots::mcts::pairing -> play::bots::mcts",
    "play::log -> play::log::read -> play::log",
    "play::replay -> play::replay::file -> play::replay",
    "play::scenario -> play::scenario::answers -> play::scenario",
    "play::tune -> play::tune::trials -> play::tune",
    "play::words -> play::words::options -> play::words",
    "serve -> serve::api -> serve",
    "serve -> serve::host -> serve",
    "serve -> serve::host -> serve::catalog -> serve",
    "serve -> serve::host -> serve::catalog -> serve::studio -> serve::studio::compare -> serve",
    "serve -> serve::host -> serve::hint -> serve",
    "serve -> serve::host -> serve::seats -> serve",
    "serve -> serve::listen -> serve",
    "views::render -> views::render::board -> views::render",
    "views::render::tile -> views::render::tile::shape -> views::render::tile",
    "views::render::tile -> views::render::tile::spots -> views::render::tile",
    "views::scene -> views::scene::build -> views::scene",
    "views::scene -> views::scene::sample -> views::scene",
];

#[test]
fn modules_import_each_other_without_loops() {
    let loops = import_loops(&read_src());
    let new: Vec<String> = loops
        .iter()
        .filter(|l| !KNOWN_PARENT_LOOPS.contains(&l.as_str()))
        .cloned()
        .collect();
    assert_none(new, "import loops");
    let gone: Vec<String> = KNOWN_PARENT_LOOPS
        .iter()
        .filter(|k| !loops.iter().any(|l| l == *k))
        .map(|k| k.to_string())
        .collect();
    assert_none(
        gone,
        "loops no longer in the tree: remove them from KNOWN_PARENT_LOOPS",
    );
}

/// Source files from (module, text) pairs, for planted violations.
fn planted(modules: &[(&str, &str)]) -> Vec<SourceFile> {
    modules
        .iter()
        .map(|(m, text)| SourceFile::parse(m, &format!("{m}.rs"), text))
        .collect()
}

/// Modules for the planted imports to reach.
const TARGETS: &[(&str, &str)] = &[
    ("kernel", "pub struct Game;"),
    ("views", "pub mod render;"),
    (
        "views::render",
        "pub fn draw() {} pub const LIMIT: u32 = 1;",
    ),
    ("analysis", "pub mod stats;"),
    ("analysis::stats", "pub struct Estimate;"),
];

#[test]
fn an_import_up_is_found_in_every_form_of_path() {
    let play = |text| ("play::sim", text);
    let cases = [
        play("use crate::views::render::draw;"),
        play("// a note\nuse crate::{kernel::Game, /* and */ views::{render::draw}};"),
        play("use crate::views::render as pictures; fn f() { pictures::draw() }"),
        play("use super::super::views::render::draw;"),
        play("fn f() { crate::views::render::draw() }"),
        play("fn f() -> String { format!(\"{}\", crate::views::render::LIMIT) }"),
        play("#[derive(crate::views::render::Draw)] struct S;"),
        play("fn f() { use crate::views::render; render::draw() }"),
        play("mod inner { pub(crate) use crate::views::render::draw; }"),
    ];
    for case in cases {
        let files = planted(&[TARGETS, &[case]].concat());
        let wrong = wrong_imports(&files, LAYERS);
        assert_eq!(
            wrong,
            ["play::sim imports views::render"],
            "not found in:\n{}",
            case.1
        );
    }
}

#[test]
fn a_layer_break_through_an_exported_macro_is_found() {
    // An exported macro lives at the crate root, whichever module writes it:
    // calling it depends on that module.
    let views = (
        "views",
        "pub mod render;\n\
         #[macro_export] macro_rules! draw_here { () => { $crate::views::render::draw() } }",
    );
    for call in [
        "fn f() { crate::draw_here!() }",
        "fn f() { draw_here!() }",
        "use crate::draw_here; fn f() { draw_here!() }",
    ] {
        let mut files = planted(TARGETS);
        files.retain(|f| f.module != ["views"]);
        files.extend(planted(&[views, ("play::sim", call)]));
        assert_eq!(
            wrong_imports(&files, LAYERS),
            ["play::sim imports views"],
            "not found: {call}"
        );
    }
}

#[test]
fn an_import_through_a_reexport_or_alias_is_found() {
    // In this table `serve` may import `views` but not `analysis`: whatever
    // `views` passes on from `analysis` is an import of `analysis`.
    const THROUGH: Table = &[
        ("kernel", &[]),
        ("rules", &["kernel"]),
        ("play", &["kernel", "rules"]),
        ("analysis", &["kernel", "rules", "play"]),
        ("views", &["kernel", "rules", "play", "analysis"]),
        ("serve", &["kernel", "rules", "play", "views"]),
    ];
    let through = [
        "pub(crate) use crate::analysis::stats::Estimate;",
        "pub use crate::analysis::stats::*;",
        "pub type Estimate = crate::analysis::stats::Estimate;",
        "use crate::analysis::stats::Estimate;",
        "pub use crate::analysis::stats::Estimate as Other; pub use self::Other as Estimate;",
    ];
    for views in through {
        let mut files = planted(TARGETS);
        files.retain(|f| f.module != ["views"]);
        files.extend(planted(&[
            ("views", &format!("pub mod render; {views}")),
            ("serve", "use crate::views::Estimate;"),
        ]));
        assert_eq!(
            wrong_imports(&files, THROUGH),
            ["serve imports analysis::stats"],
            "not found through views: {views}"
        );
    }
}

#[test]
fn an_import_that_goes_down_is_allowed() {
    let files = planted(
        &[
            TARGETS,
            &[(
                "cli",
                "use crate::views::render::draw; use crate::kernel::Game;",
            )],
        ]
        .concat(),
    );
    assert_none(wrong_imports(&files, LAYERS), "allowed imports reported");
}

#[test]
fn an_allowance_the_code_does_not_use_is_found() {
    const WIDE: Table = &[("play", &["kernel", "views"])];
    let files = planted(&[TARGETS, &[("play", "use crate::kernel::Game;")]].concat());
    assert_eq!(
        unused_allowances(&files, WIDE),
        ["play may import views but does not"]
    );
}

#[test]
fn a_loop_between_a_parent_and_its_child_is_found() {
    let files = planted(&[
        ("play::a", "pub mod b; pub struct A; fn f(_: b::B) {}"),
        ("play::a::b", "pub struct B; fn g(_: super::A) {}"),
    ]);
    assert_eq!(import_loops(&files), ["play::a -> play::a::b -> play::a"]);
    // A child that uses its parent's items, and a parent that names none of
    // the child's, make no loop.
    let files = planted(&[
        ("play::a", "pub mod b; pub struct A;"),
        ("play::a::b", "pub struct B; fn g(_: super::A) {}"),
    ]);
    assert_none(import_loops(&files), "a loop where there is none");
}

#[test]
fn a_loop_between_modules_is_found() {
    let files = planted(&[
        ("play", "pub mod a; pub mod b;"),
        ("play::a", "pub struct A; use crate::play::b::B;"),
        ("play::b", "pub struct B; fn f(_: super::a::A) {}"),
    ]);
    assert_eq!(import_loops(&files), ["play::a -> play::b -> play::a"]);
}
