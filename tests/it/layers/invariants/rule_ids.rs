//! Every rule ID of docs/rules.md is named by at least one test that runs
//! and does something: an `#[ignore]`d test, or one whose body calls
//! nothing (so asserts nothing), names no rule.

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

/// The names of the tests of `files` that run and do something: `#[test]`
/// functions, also inside macros (`proptest!`), neither `#[ignore]`d nor
/// with a body that calls nothing.
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
    /// `#[test] fn name(…) { body }` in a macro's tokens, unless an
    /// `#[ignore]` stands before its `fn` or its body is empty.
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        for (i, t) in trees.iter().enumerate() {
            match t {
                TokenTree::Group(g) if g.to_string().replace(' ', "") == "[test]" => {
                    let rest = &trees[i + 1..];
                    let Some(at) = rest
                        .iter()
                        .position(|t| matches!(t, TokenTree::Ident(f) if f == "fn"))
                    else {
                        continue;
                    };
                    let ignored = rest[..at]
                        .iter()
                        .any(|t| matches!(t, TokenTree::Group(g) if g.to_string().starts_with("[ignore")));
                    let body = rest[at..].iter().find_map(|t| match t {
                        TokenTree::Group(g) if g.delimiter() == proc_macro2::Delimiter::Brace => {
                            Some(g.stream())
                        }
                        _ => None,
                    });
                    let runs = !ignored && body.is_some_and(|b| !b.is_empty());
                    if let (true, Some(name)) = (runs, rest.get(at + 1)) {
                        self.0.insert(name.to_string());
                    }
                }
                TokenTree::Group(g) => self.tokens(g.stream()),
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for TestNames {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let is = |name| f.attrs.iter().any(|a| a.path().is_ident(name));
        if is("test") && !is("ignore") && calls_something(&f.block) {
            self.0.insert(f.sig.ident.to_string());
        }
        visit::visit_item_fn(self, f);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
    }
}

/// Does `body` call a function, a method or a macro? A body that calls
/// nothing asserts nothing.
fn calls_something(body: &syn::Block) -> bool {
    #[derive(Default)]
    struct Calls(bool);
    impl<'ast> Visit<'ast> for Calls {
        fn visit_expr_call(&mut self, _: &'ast syn::ExprCall) {
            self.0 = true;
        }
        fn visit_expr_method_call(&mut self, _: &'ast syn::ExprMethodCall) {
            self.0 = true;
        }
        fn visit_macro(&mut self, _: &'ast syn::Macro) {
            self.0 = true;
        }
    }
    let mut calls = Calls::default();
    calls.visit_block(body);
    calls.0
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
        "#[test] fn q1_one() { assert!(one()) }\n\
         proptest! { #[test] fn q10_and_more(x in 0..1) { prop_assert!(x < 1) } }\n\
         fn q2_not_a_test() { assert!(two()) }\n\
         #[test] fn sq2_is_another_word() { assert!(two()) }",
    )]);
    assert_eq!(rules_without_tests(rules, &test_names(&files)), ["Q2"]);
}

#[test]
fn an_ignored_or_empty_test_names_no_rule() {
    let rules = "- **Q1 One.**\n- **Q2 Two.**\n- **Q3 Three.**\n- **Q4 Four.**\n- **Q5 Five.**\n";
    let files = planted(&[(
        "tests",
        "#[test] #[ignore] fn q1_ignored() { assert!(one()) }\n\
         #[test] fn q2_empty() {}\n\
         #[test] fn q3_calls_nothing() { let x = 1; }\n\
         proptest! { #[test] #[ignore = \"slow\"] fn q4_ignored(x in 0..1) { prop_assert!(x < 1) } \
                     #[test] fn q5_empty(x in 0..1) {} }",
    )]);
    assert_eq!(
        rules_without_tests(rules, &test_names(&files)),
        ["Q1", "Q2", "Q3", "Q4", "Q5"]
    );
}
