//! The map's other written rules (ARCHITECTURE.md, Invariants), enforced on
//! the parsed sources: only `cli/` and `main.rs` print; each external crate
//! is used only by the layers its table row names; `src/kernel/` names no
//! floor kind, pack or variant; every rule ID of docs/rules.md is named by a
//! test. Each check is a function of its inputs, and a test plants a
//! violation of each to see it found.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::TokenTree;
use syn::visit::{self, Visit};

use super::source::{SourceFile, read_src, token_paths};
use super::{assert_none, layer_of, planted};

/// Where the code may print: the command line and the binary.
fn may_print(file: &SourceFile) -> bool {
    file.is_main() || layer_of(&file.module) == Some("cli")
}

/// The macros that print.
const PRINTING_MACROS: &[&str] = &["print", "println", "eprint", "eprintln", "dbg"];
/// The functions that hand out the process's output streams.
const STREAMS: &[&str] = &["stdout", "stderr"];

/// "file: what" for every print outside the command line.
fn prints_outside_cli(files: &[SourceFile]) -> Vec<String> {
    let mut found = Vec::new();
    for f in files.iter().filter(|f| !may_print(f)) {
        let mut v = Prints::default();
        v.visit_file(&f.syntax);
        found.extend(v.0.into_iter().map(|w| format!("{}: {w}", f.file)));
    }
    found
}

#[derive(Default)]
struct Prints(Vec<String>);

impl<'ast> Visit<'ast> for Prints {
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        if let Some(last) = m.path.segments.last()
            && PRINTING_MACROS.contains(&last.ident.to_string().as_str())
        {
            self.0.push(format!("{}!", last.ident));
        }
        let mut paths = Vec::new();
        token_paths(m.tokens.clone(), &mut paths);
        self.0.extend(paths.iter().filter_map(|p| stream(p)));
        visit::visit_macro(self, m);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.0.extend(stream(&segs));
        visit::visit_path(self, p);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut names = Vec::new();
        use_names(&u.tree, &mut names);
        self.0
            .extend(names.into_iter().filter_map(|n| stream(&[n])));
    }
}

/// `stdout`/`stderr` when a path ends in one of them.
fn stream(path: &[String]) -> Option<String> {
    let last = path.last()?;
    STREAMS.contains(&last.as_str()).then(|| path.join("::"))
}

fn use_names(tree: &syn::UseTree, out: &mut Vec<String>) {
    match tree {
        syn::UseTree::Path(p) => use_names(&p.tree, out),
        syn::UseTree::Name(n) => out.push(n.ident.to_string()),
        syn::UseTree::Rename(r) => out.push(r.ident.to_string()),
        syn::UseTree::Glob(_) => {}
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_names(t, out)),
    }
}

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
    ("rand_chacha", &["kernel"]),
    ("rand_core", &["kernel"]),
    ("rhai", &["rules"]),
    ("rust_embed", &["rules"]),
    ("cpu_time", &["rules"]),
    ("scoped_tls", &["rules"]),
    ("thiserror", &["play"]),
    ("rayon", &["play", "analysis"]),
    ("libm", &["analysis"]),
    ("serde_json", &["play", "analysis", "views", "serve", "cli"]),
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

/// The words of a text: runs of letters and digits, lower case, with
/// `camelCase` split.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower && !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            word.extend(c.to_lowercase());
        } else {
            prev_lower = false;
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The names of the shipped floor kinds, packs and variants, as words: what
/// the kernel must not name. A name that is only the game's own vocabulary
/// (`tower`, the pack of The Tower; `base`, the base game's tiles) names no
/// variant and is left out.
fn variant_names() -> BTreeSet<Vec<String>> {
    const GAME_WORDS: &[&str] = &["tower", "base"];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names = BTreeSet::new();
    let mut packs = Vec::new();
    find_files(&root.join("rules"), "pack.toml", &mut packs);
    for pack in packs {
        let text = std::fs::read_to_string(&pack).unwrap();
        let manifest: toml::Table = text.parse().unwrap();
        let pack_name = manifest["pack"]["name"].as_str().unwrap().to_owned();
        names.insert(pack_name);
        for floor in manifest
            .get("floor")
            .and_then(|f| f.as_array())
            .into_iter()
            .flatten()
        {
            names.insert(floor["name"].as_str().unwrap().to_owned());
        }
    }
    for entry in std::fs::read_dir(root.join("variants")).unwrap().flatten() {
        let path = entry.path();
        names.insert(path.file_stem().unwrap().to_string_lossy().into_owned());
    }
    names
        .iter()
        .filter(|n| !GAME_WORDS.contains(&n.as_str()))
        .map(|n| words(n))
        .collect()
}

fn find_files(dir: &Path, name: &str, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            find_files(&path, name, out);
        } else if path.file_name().is_some_and(|f| f == name) {
            out.push(path);
        }
    }
}

/// "file: name" for each of `names` that a kernel file writes in code: in
/// a name or a string (doc comments may speak of the game's variants).
fn kernel_names(files: &[SourceFile], names: &BTreeSet<Vec<String>>) -> Vec<String> {
    let mut found = Vec::new();
    for f in files
        .iter()
        .filter(|f| layer_of(&f.module) == Some("kernel"))
    {
        let mut v = CodeWords::default();
        v.visit_file(&f.syntax);
        for name in names {
            if v.0.windows(name.len()).any(|w| w == name.as_slice()) {
                found.push(format!("{}: {}", f.file, name.join("-")));
            }
        }
    }
    found
}

/// The words of a file's names and strings, in order, without its doc
/// comments.
#[derive(Default)]
struct CodeWords(Vec<String>);

impl CodeWords {
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        for t in tokens {
            match t {
                TokenTree::Ident(i) => self.0.extend(words(&i.to_string())),
                TokenTree::Literal(l) => self.0.extend(words(&l.to_string())),
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Punct(_) => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for CodeWords {
    fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
        self.0.extend(words(&i.to_string()));
    }

    fn visit_lit_str(&mut self, s: &'ast syn::LitStr) {
        self.0.extend(words(&s.value()));
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
        visit::visit_macro(self, m);
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        if !a.path().is_ident("doc") {
            visit::visit_attribute(self, a);
        }
    }
}

/// The rule IDs of a rules text: the `**G1 …**` that open its entries.
fn rule_ids(rules: &str) -> Vec<String> {
    rules
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- **"))
        .filter_map(|l| l.split([' ', '*', '.']).next())
        .filter(|id| {
            let mut c = id.chars();
            c.next().is_some_and(|c| c.is_ascii_uppercase()) && c.as_str().parse::<u32>().is_ok()
        })
        .map(str::to_owned)
        .collect()
}

/// The names of the tests of `files`: `#[test]` functions, also inside
/// macros (`proptest!`).
fn test_names(files: &[SourceFile]) -> BTreeSet<String> {
    let mut v = TestNames::default();
    for f in files {
        v.visit_file(&f.syntax);
    }
    v.0
}

#[derive(Default)]
struct TestNames(BTreeSet<String>);

impl TestNames {
    /// `#[test] fn name` in a macro's tokens.
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, t) in trees.iter().enumerate() {
            match t {
                TokenTree::Group(g) if g.to_string().replace(' ', "") == "[test]" => {
                    let name = trees[i + 1..]
                        .windows(2)
                        .find(|w| matches!(&w[0], TokenTree::Ident(f) if f == "fn"))
                        .map(|w| w[1].to_string());
                    self.0.extend(name);
                }
                TokenTree::Group(g) => self.tokens(g.stream()),
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for TestNames {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if f.attrs.iter().any(|a| a.path().is_ident("test")) {
            self.0.insert(f.sig.ident.to_string());
        }
        visit::visit_item_fn(self, f);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
    }
}

/// The IDs of `rules` that no test name cites (`b9_…`, `…_and_b9_…`).
fn rules_without_tests(rules: &str, tests: &BTreeSet<String>) -> Vec<String> {
    rule_ids(rules)
        .into_iter()
        .filter(|id| {
            let id = id.to_lowercase();
            !tests.iter().any(|t| t.split('_').any(|w| w == id))
        })
        .collect()
}

/// Every `.rs` file of `tests/` and `src/`, where tests are written.
fn test_sources() -> Vec<SourceFile> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    for dir in ["tests", "src", "benches"] {
        find_rs(&root.join(dir), &mut paths);
    }
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            SourceFile::parse("", &p.display().to_string(), &text)
        })
        .collect()
}

fn find_rs(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            find_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_command_line_prints() {
    assert_none(
        prints_outside_cli(&read_src()),
        "printing outside src/cli/ and src/main.rs",
    );
}

#[test]
fn each_crate_stays_in_its_layers() {
    assert_none(
        crates_out_of_place(&read_src(), &dependencies(), CRATES),
        "crates out of their layers (the table is in tests/it/layers/invariants.rs)",
    );
}

#[test]
fn the_kernel_names_no_floor_kind_pack_or_variant() {
    let names = variant_names();
    assert!(
        names.contains(&vec!["black".to_owned()]),
        "the floor kinds are read"
    );
    assert_none(
        kernel_names(&read_src(), &names),
        "variant names in src/kernel/",
    );
}

#[test]
fn every_rule_id_is_named_by_a_test() {
    let rules =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md"))
            .unwrap();
    assert!(rule_ids(&rules).len() >= 30, "the rule IDs are read");
    assert_none(
        rules_without_tests(&rules, &test_names(&test_sources())),
        "rule IDs of docs/rules.md that no test name cites",
    );
}

#[test]
fn a_print_outside_the_command_line_is_found() {
    let cases = [
        "fn f() { println!(\"x\") }",
        "fn f() { eprint!(\"x\") }",
        "fn f(x: u8) -> u8 { dbg!(x) }",
        "fn f() { let _ = std::io::stdout(); }",
        "use std::io::{Write, stderr}; fn f() { writeln!(stderr(), \"x\").ok(); }",
        "fn f() { writeln!(std::io::stderr(), \"x\").ok(); }",
    ];
    for text in cases {
        let files = planted(&[("play::sim", text)]);
        assert_eq!(prints_outside_cli(&files).len(), 1, "not found: {text}");
        let files = planted(&[("cli::run", text)]);
        assert_none(prints_outside_cli(&files), "the command line may print");
    }
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

#[test]
fn a_variant_name_in_the_kernel_is_found() {
    let names: BTreeSet<Vec<String>> = [vec!["black".to_owned()], words("house/no-gaps")].into();
    let cases = [
        "const K: &str = \"black\";",
        "fn black_range() {}",
        "struct BlackFloor;",
        "fn f() -> String { format!(\"no gaps: {}\", \"house/no-gaps\") }",
    ];
    for text in cases {
        let files = planted(&[("kernel::game", text)]);
        assert_eq!(kernel_names(&files, &names).len(), 1, "not found: {text}");
    }
    let fine = planted(&[
        (
            "kernel::game",
            "/// A black floor is a floor kind like any.\nfn blackboard() {}",
        ),
        ("rules::native", "const K: &str = \"black\";"),
    ]);
    assert_none(kernel_names(&fine, &names), "not a name in kernel code");
}

#[test]
fn a_rule_id_no_test_names_is_found() {
    let rules = "## Rules\n- **Q1 One.** Text.\n- **Q2 Two** text (Q3).\n- **Q10 Ten.**\n";
    assert_eq!(rule_ids(rules), ["Q1", "Q2", "Q10"]);
    let files = planted(&[(
        "tests",
        "#[test] fn q1_one() {}\n\
         proptest! { #[test] fn q10_and_more(x in 0..1) {} }\n\
         fn q2_not_a_test() {}\n\
         #[test] fn sq2_is_another_word() {}",
    )]);
    assert_eq!(rules_without_tests(rules, &test_names(&files)), ["Q2"]);
}
