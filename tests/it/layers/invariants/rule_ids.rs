//! Every rule ID of docs/rules.md is named by at least one test.

use super::*;

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
