//! Each external crate stays in its layers: the table of crates per layer,
//! checked against the sources and `Cargo.toml`'s dependencies.

use super::*;

/// Each external crate of `[dependencies]` and the layers that use it
/// (`main` for `src/main.rs`): exactly those.
const CRATES: &[(&str, &[&str])] = &[
    (
        "anyhow",
        &[
            "kernel", "rules", "play", "analysis", "views", "serve", "cli", "main",
        ],
    ),
    (
        "serde",
        &[
            "kernel", "rules", "play", "analysis", "views", "serve", "cli",
        ],
    ),
    ("rustc_hash", &["kernel", "rules", "views", "cli"]),
    ("strsim", &["kernel", "rules"]),
    ("toml", &["kernel", "rules", "play", "analysis"]),
    ("toml_parser", &["kernel"]),
    ("rand_chacha", &["kernel"]),
    ("rand_core", &["kernel"]),
    ("rhai", &["rules"]),
    ("rust_embed", &["rules"]),
    ("cpu_time", &["rules"]),
    ("scoped_tls", &["rules"]),
    // Under the counting allocator, and the host's inline floor stacks.
    ("mimalloc", &["rules"]),
    ("smallvec", &["rules"]),
    ("thiserror", &["play"]),
    ("rayon", &["play", "analysis"]),
    ("libm", &["analysis"]),
    (
        "serde_json",
        &["rules", "play", "analysis", "views", "serve", "cli"],
    ),
    ("maud", &["views"]),
    ("axum", &["serve"]),
    ("tokio", &["serve"]),
    ("hyper", &["serve"]),
    ("hyper_util", &["serve"]),
    ("http_body_util", &["serve"]),
    ("getrandom", &["serve"]),
    ("subtle", &["serve"]),
    ("libc", &["play"]),
    ("same_file", &["cli"]),
    // The command line writes output files through it; rules and play
    // only in their unit tests (scratch folders).
    ("tempfile", &["rules", "play", "cli"]),
    ("clap", &["cli", "main"]),
    ("comfy_table", &["cli"]),
    ("csv", &["cli"]),
    ("indicatif", &["cli"]),
];

/// The crates of `[dependencies]`, as code names them (`-` read as `_`).
fn dependencies() -> BTreeSet<String> {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let manifest: toml::Table = manifest.parse().unwrap();
    manifest["dependencies"]
        .as_table()
        .unwrap()
        .keys()
        .map(|k| k.replace('-', "_"))
        .collect()
}

/// The layer of a file as the crate table names it.
fn crate_user(file: &SourceFile) -> Option<&'static str> {
    if file.is_main() {
        Some("main")
    } else {
        layer_of(&file.module)
    }
}

/// For each crate of `deps`, the layers whose code names it.
fn crate_users(
    files: &[SourceFile],
    deps: &BTreeSet<String>,
) -> BTreeMap<String, BTreeSet<&'static str>> {
    let mut users: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    for f in files {
        let Some(user) = crate_user(f) else { continue };
        let mut v = FirstNames::default();
        v.visit_file(&f.syntax);
        for name in v.0.intersection(deps) {
            users.entry(name.clone()).or_default().insert(user);
        }
    }
    users
}

/// The first names of every path a file writes, in code, `use`, attributes
/// and macros.
#[derive(Default)]
struct FirstNames(BTreeSet<String>);

impl<'ast> Visit<'ast> for FirstNames {
    fn visit_path(&mut self, p: &'ast syn::Path) {
        if let Some(first) = p.segments.first() {
            self.0.insert(first.ident.to_string());
        }
        visit::visit_path(self, p);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut tree = &u.tree;
        while let syn::UseTree::Group(g) = tree {
            match g.items.first() {
                Some(t) if g.items.len() == 1 => tree = t,
                _ => break,
            }
        }
        first_of_tree(tree, &mut self.0);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let mut paths = Vec::new();
        token_paths(m.tokens.clone(), &mut paths);
        self.0.extend(paths.into_iter().map(|p| p[0].clone()));
        visit::visit_macro(self, m);
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        if let syn::Meta::List(list) = &a.meta {
            let mut paths = Vec::new();
            token_paths(list.tokens.clone(), &mut paths);
            self.0.extend(paths.into_iter().map(|p| p[0].clone()));
        }
        visit::visit_attribute(self, a);
    }
}

fn first_of_tree(tree: &syn::UseTree, out: &mut BTreeSet<String>) {
    match tree {
        syn::UseTree::Path(p) => {
            out.insert(p.ident.to_string());
        }
        syn::UseTree::Name(n) => {
            out.insert(n.ident.to_string());
        }
        syn::UseTree::Rename(r) => {
            out.insert(r.ident.to_string());
        }
        syn::UseTree::Glob(_) => {}
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| first_of_tree(t, out)),
    }
}

/// Differences between the crates the code uses and `table`.
fn crates_out_of_place(
    files: &[SourceFile],
    deps: &BTreeSet<String>,
    table: &[(&str, &[&str])],
) -> Vec<String> {
    let users = crate_users(files, deps);
    let mut wrong = Vec::new();
    for dep in deps {
        let Some((_, allowed)) = table.iter().find(|(c, _)| c == dep) else {
            wrong.push(format!("{dep}: a dependency missing from the table"));
            continue;
        };
        let used = users.get(dep).cloned().unwrap_or_default();
        for u in &used {
            if !allowed.contains(u) {
                wrong.push(format!("{dep} used in {u}, which the table does not allow"));
            }
        }
        for a in *allowed {
            if !used.contains(a) {
                wrong.push(format!("{dep} allowed in {a}, which does not use it"));
            }
        }
    }
    wrong
}

#[test]
fn each_crate_stays_in_its_layers() {
    assert_none(
        crates_out_of_place(&read_src(), &dependencies(), CRATES),
        "crates out of their layers (the table is in tests/it/layers/invariants/crates.rs)",
    );
}

#[test]
fn a_crate_out_of_its_layer_is_found() {
    let deps: BTreeSet<String> = ["axum", "maud"].map(String::from).into();
    const TABLE: &[(&str, &[&str])] = &[("axum", &["serve"]), ("maud", &["views"])];
    let fine = [
        ("serve", "use axum::Router;"),
        ("views", "fn f() -> maud::Markup { maud::html! {} }"),
    ];
    assert_none(
        crates_out_of_place(&planted(&fine), &deps, TABLE),
        "crates in place",
    );
    for stray in [
        "use axum::Router;",
        "use {axum::Json};",
        "fn f() -> axum::Json<()> { todo!() }",
        "#[derive(axum::extract::FromRef)] struct S;",
        "fn f() { let _ = format!(\"{:?}\", axum::http::StatusCode::OK); }",
    ] {
        let files = planted(&[fine[0], fine[1], ("play::sim", stray)]);
        assert_eq!(
            crates_out_of_place(&files, &deps, TABLE),
            ["axum used in play, which the table does not allow"],
            "not found: {stray}"
        );
    }
    let unused = planted(&fine[..1]);
    assert_eq!(
        crates_out_of_place(&unused, &deps, TABLE),
        ["maud allowed in views, which does not use it"]
    );
}
