//! The layers of `src/`, enforced: a module imports only from its own layer
//! or the layers it is allowed to see (ARCHITECTURE.md), and the modules of a
//! layer import each other without loops.
//!
//! The test reads the sources as text: every `crate::…` path, in `use`
//! declarations (braces expanded) and in code, is resolved to the file that
//! defines it, following `pub use` re-exports of `mod.rs` files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each layer (a folder of `src/`) and the layers it may import from.
const LAYERS: &[(&str, &[&str])] = &[
    ("kernel", &[]),
    ("rules", &["kernel"]),
    ("play", &["kernel", "rules"]),
    ("analysis", &["kernel", "rules", "play"]),
    ("views", &["kernel", "analysis"]),
    ("serve", &["kernel", "rules", "play", "analysis", "views"]),
    (
        "cli",
        &["kernel", "rules", "play", "analysis", "views", "serve"],
    ),
];

/// A module of the crate: its path (`["kernel", "game"]`) and its source.
struct Module {
    path: Vec<String>,
    file: PathBuf,
    text: String,
}

fn modules() -> Vec<Module> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    collect(&src, &src, &mut out);
    out
}

fn collect(src: &Path, dir: &Path, out: &mut Vec<Module>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let file = entry.path();
        if file.is_dir() {
            collect(src, &file, out);
            continue;
        }
        if file.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = file.strip_prefix(src).unwrap().with_extension("");
        let mut path: Vec<String> = rel
            .iter()
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        if path
            .last()
            .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
        {
            path.pop();
        }
        let text = strip_comments(&std::fs::read_to_string(&file).unwrap());
        out.push(Module { path, file, text });
    }
}

/// The source without `//` comments (doc comments name modules freely).
fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `use` declaration of `text`, with braces expanded into full paths.
fn use_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = find_use(rest) {
        let body = &rest[at..];
        let end = body.find(';').unwrap_or(body.len());
        expand("", body[..end].trim(), &mut out);
        rest = &body[end..];
    }
    out
}

/// The offset just past the next `use ` keyword at the start of a statement.
fn find_use(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find("use ") {
        let at = from + i;
        let before = text[..at].trim_end();
        let starts = before.is_empty()
            || before.ends_with(';')
            || before.ends_with('{')
            || before.ends_with('}')
            || before.ends_with("pub")
            || before.ends_with(')')
            || before.ends_with(']');
        if starts && (at == 0 || !text.as_bytes()[at - 1].is_ascii_alphanumeric()) {
            return Some(at + 4);
        }
        from = at + 4;
    }
    None
}

/// Expand one use tree (`a::{b, c::{d, e}}`) under `prefix`.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    match tree.find('{') {
        Some(open) => {
            let head = tree[..open].trim_end_matches("::");
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let base = join(prefix, head);
            for part in split_top(inner) {
                expand(&base, part, out);
            }
        }
        None => {
            let name = tree.split(" as ").next().unwrap().trim();
            out.push(join(prefix, name));
        }
    }
}

fn join(prefix: &str, tail: &str) -> String {
    match (prefix.is_empty(), tail.is_empty()) {
        (true, _) => tail.to_owned(),
        (_, true) => prefix.to_owned(),
        _ => format!("{prefix}::{tail}"),
    }
}

/// Split at the commas that are not inside braces.
fn split_top(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// `crate::a::b` paths written inline in code (not in `use`).
fn inline_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        if i > 0 && text.as_bytes()[i - 1].is_ascii_alphanumeric() {
            continue;
        }
        let tail = &text[i..];
        let end = tail
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(tail.len());
        out.push(tail[..end].trim_end_matches(':').to_owned());
    }
    out
}

/// Absolute segments of a path used in module `at`, or None if not in-crate.
fn absolute(at: &[String], is_mod_file: bool, path: &str) -> Option<Vec<String>> {
    let segs: Vec<&str> = path.split("::").collect();
    match segs[0] {
        "crate" => Some(segs[1..].iter().map(|s| s.to_string()).collect()),
        "super" => {
            let mut base = at.to_vec();
            let mut rest = &segs[..];
            // In `foo.rs` or `foo/mod.rs`, `super` is foo's parent.
            let _ = is_mod_file;
            while rest.first() == Some(&"super") {
                base.pop();
                rest = &rest[1..];
            }
            base.extend(rest.iter().map(|s| s.to_string()));
            Some(base)
        }
        "self" => {
            let mut base = at.to_vec();
            base.extend(segs[1..].iter().map(|s| s.to_string()));
            Some(base)
        }
        _ => None,
    }
}

/// The module (by path) that defines `segs`, following re-exports.
fn resolve(
    segs: &[String],
    known: &BTreeSet<Vec<String>>,
    reexports: &BTreeMap<Vec<String>, Vec<String>>,
) -> Option<Vec<String>> {
    for len in (1..=segs.len()).rev() {
        let prefix = segs[..len].to_vec();
        if let Some(target) = reexports.get(&prefix) {
            return resolve(target, known, reexports).or(Some(prefix[..len - 1].to_vec()));
        }
        if known.contains(&prefix) {
            return Some(prefix);
        }
    }
    None
}

struct Graph {
    edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    files: BTreeMap<Vec<String>, PathBuf>,
}

fn graph() -> Graph {
    let modules = modules();
    let known: BTreeSet<Vec<String>> = modules.iter().map(|m| m.path.clone()).collect();
    let mut reexports = BTreeMap::new();
    for m in &modules {
        for line in m.text.split(';') {
            let line = line.trim();
            let Some(tree) = line.strip_prefix("pub use ") else {
                continue;
            };
            let mut paths = Vec::new();
            expand("", tree, &mut paths);
            for p in paths {
                let name = p.rsplit("::").next().unwrap().to_owned();
                let mut target = if p.starts_with("crate::") || p.starts_with("super::") {
                    absolute(&m.path, true, &p).unwrap()
                } else {
                    let mut t = m.path.clone();
                    t.extend(p.split("::").map(str::to_owned));
                    t
                };
                if name == "*" {
                    target.pop();
                }
                let mut alias = m.path.clone();
                alias.push(name);
                reexports.insert(alias, target);
            }
        }
    }
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for m in &modules {
        let is_mod = m.file.ends_with("mod.rs");
        let own = edges.entry(m.path.clone()).or_default();
        for p in use_paths(&m.text).into_iter().chain(inline_paths(&m.text)) {
            if p == "super::*" {
                continue; // a test module importing its own file
            }
            let Some(segs) = absolute(&m.path, is_mod, &p) else {
                continue;
            };
            if let Some(target) = resolve(&segs, &known, &reexports)
                && target != m.path
                && !m.path.starts_with(&target)
            {
                own.insert(target);
            }
        }
    }
    let files = modules.into_iter().map(|m| (m.path, m.file)).collect();
    Graph { edges, files }
}

/// Imports and loops still to be removed: each must still occur (so the
/// lists cannot go stale), and the lists shrink to empty.
const PENDING_IMPORTS: &[&str] = &[];
const PENDING_LOOPS: &[&str] = &[];

/// Take the pending entries out of `found`; the pending ones not found.
fn pending(list: &[&str], found: &mut Vec<String>) -> Vec<String> {
    let stale = list
        .iter()
        .filter(|p| !found.iter().any(|f| f == *p))
        .map(|p| format!("no longer found, remove it from the pending list: {p}"))
        .collect();
    found.retain(|f| !list.contains(&f.as_str()));
    stale
}

fn layer_of(path: &[String]) -> Option<&'static str> {
    let top = path.first()?;
    LAYERS.iter().map(|(l, _)| *l).find(|l| l == top)
}

#[test]
fn every_file_of_src_is_in_a_layer() {
    let g = graph();
    let stray: Vec<_> = g
        .files
        .iter()
        .filter(|(path, _)| !path.is_empty() && layer_of(path).is_none())
        .map(|(_, f)| f.display().to_string())
        .collect();
    assert!(stray.is_empty(), "files outside the layers: {stray:?}");
}

#[test]
fn imports_only_go_down() {
    let g = graph();
    let mut wrong = Vec::new();
    for (from, targets) in &g.edges {
        let Some(own) = layer_of(from) else { continue };
        let allowed = LAYERS.iter().find(|(l, _)| *l == own).unwrap().1;
        for to in targets {
            let Some(theirs) = layer_of(to) else { continue };
            if theirs != own && !allowed.contains(&theirs) {
                let file = g.files[from]
                    .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                    .unwrap();
                wrong.push(format!("{} imports {}", file.display(), to.join("::")));
            }
        }
    }
    let stale = pending(PENDING_IMPORTS, &mut wrong);
    wrong.extend(stale);
    assert!(
        wrong.is_empty(),
        "imports that go up or sideways:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn modules_import_each_other_without_loops() {
    let g = graph();
    let mut loops = Vec::new();
    for start in g.edges.keys() {
        // A loop through `start` whose other members all sort after it, so
        // that each loop is reported once.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, trail)) = stack.pop() {
            for next in g.edges.get(&at).into_iter().flatten() {
                if next == start {
                    let names: Vec<_> = trail.iter().map(|p| p.join("::")).collect();
                    loops.push(format!("{} -> {}", names.join(" -> "), start.join("::")));
                } else if next > start && seen.insert(next.clone()) {
                    let mut t = trail.clone();
                    t.push(next.clone());
                    stack.push((next.clone(), t));
                }
            }
        }
    }
    let stale = pending(PENDING_LOOPS, &mut loops);
    loops.extend(stale);
    assert!(loops.is_empty(), "import loops:\n{}", loops.join("\n"));
}

#[test]
fn the_checker_sees_use_trees_and_reexports() {
    let mut out = Vec::new();
    expand(
        "",
        "crate::kernel::{Bot, game::{Game, Placement as P}}",
        &mut out,
    );
    assert_eq!(
        out,
        [
            "crate::kernel::Bot",
            "crate::kernel::game::Game",
            "crate::kernel::game::Placement"
        ]
    );
    let g = graph();
    let game = vec!["kernel".to_owned(), "game".to_owned()];
    let sim = vec!["play".to_owned(), "sim".to_owned()];
    assert!(
        g.edges[&sim].contains(&game),
        "play::sim uses kernel::Game (re-exported)"
    );
}
