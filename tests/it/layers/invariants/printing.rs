//! Only `cli/` and `main.rs` print: no printing macro, `stdout` or `stderr`
//! elsewhere in `src/`, no file opened on the process's output (a path such
//! as `/dev/stdout` in a string) and no file made from a raw descriptor.

use super::*;

/// Where the code may print: the command line and the binary.
fn may_print(file: &SourceFile) -> bool {
    file.is_main() || layer_of(&file.module) == Some("cli")
}

/// The macros that print.
const PRINTING_MACROS: &[&str] = &["print", "println", "eprint", "eprintln", "dbg"];
/// The functions that hand out the process's output streams, or make a
/// file of a raw descriptor (such as 1 or 2).
const STREAMS: &[&str] = &["stdout", "stderr", "from_raw_fd"];
/// Paths that open the process's output or terminal as a file.
const DEVICES: &[&str] = &[
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/fd/1",
    "/dev/fd/2",
    "/proc/self/fd/1",
    "/proc/self/fd/2",
];

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
        self.device_literals(m.tokens.clone());
        visit::visit_macro(self, m);
    }

    fn visit_lit_str(&mut self, s: &'ast syn::LitStr) {
        self.0.extend(device(&s.value()));
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

impl Prints {
    /// The device paths among the string literals of a macro's tokens.
    fn device_literals(&mut self, tokens: proc_macro2::TokenStream) {
        for tree in tokens {
            match tree {
                TokenTree::Literal(l) => {
                    let text = l.to_string();
                    self.0.extend(device(text.trim_matches('"')));
                }
                TokenTree::Group(g) => self.device_literals(g.stream()),
                _ => {}
            }
        }
    }
}

/// The device when `text` names one of [`DEVICES`].
fn device(text: &str) -> Option<String> {
    DEVICES
        .iter()
        .any(|d| text.trim() == *d)
        .then(|| format!("\"{}\"", text.trim()))
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

#[test]
fn only_the_command_line_prints() {
    assert_none(
        prints_outside_cli(&read_src()),
        "printing outside src/cli/ and src/main.rs",
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
        "fn f() { std::fs::File::create(\"/dev/stdout\").ok(); }",
        "fn f() { let p = \"/dev/stderr\"; std::fs::write(p, b\"x\").ok(); }",
        "fn f() { std::fs::write(concat!(\"/dev/tty\"), b\"x\").ok(); }",
        "use std::os::fd::FromRawFd; fn f() { unsafe { std::fs::File::from_raw_fd(1) }; }",
    ];
    for text in cases {
        let files = planted(&[("play::sim", text)]);
        assert_eq!(prints_outside_cli(&files).len(), 1, "not found: {text}");
        let files = planted(&[("cli::run", text)]);
        assert_none(prints_outside_cli(&files), "the command line may print");
    }
}
