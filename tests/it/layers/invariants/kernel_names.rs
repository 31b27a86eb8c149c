//! The kernel knows no variant: nothing under `src/kernel/` names a shipped
//! floor kind, pack or variant in its code.

use super::*;

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
