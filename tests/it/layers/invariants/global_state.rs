//! The library owns no process-wide mutable state: no `static mut`, and no
//! `static` of a type that can change behind a shared reference (atomics,
//! locks, lazily set cells) in `kernel/`, `rules/` or `play/`, so that a
//! game is a function of its inputs in any process, thread or order of
//! runs.

use super::*;

/// The layers that hold no process-wide state.
const STATELESS: &[&str] = &["kernel", "rules", "play"];

/// Types that a `static` can change through.
const MUTABLE: &[&str] = &[
    "AtomicBool",
    "AtomicU8",
    "AtomicU16",
    "AtomicU32",
    "AtomicU64",
    "AtomicUsize",
    "AtomicI8",
    "AtomicI16",
    "AtomicI32",
    "AtomicI64",
    "AtomicIsize",
    "AtomicPtr",
    "Mutex",
    "RwLock",
    "OnceLock",
    "LazyLock",
    "OnceCell",
    "Lazy",
    "Cell",
    "RefCell",
    "UnsafeCell",
];

/// "file: static NAME" for every mutable static of the stateless layers.
fn mutable_statics(files: &[SourceFile]) -> Vec<String> {
    let mut found = Vec::new();
    for f in files {
        if !layer_of(&f.module).is_some_and(|l| STATELESS.contains(&l)) {
            continue;
        }
        let mut v = Statics::default();
        v.visit_file(&f.syntax);
        found.extend(v.0.into_iter().map(|s| format!("{}: static {s}", f.file)));
    }
    found
}

#[derive(Default)]
struct Statics(Vec<String>);

impl<'ast> Visit<'ast> for Statics {
    fn visit_item_static(&mut self, s: &'ast syn::ItemStatic) {
        let mut types = TypeNames::default();
        types.visit_type(&s.ty);
        let interior = types.0.iter().any(|t| MUTABLE.contains(&t.as_str()));
        if interior || matches!(s.mutability, syn::StaticMutability::Mut(_)) {
            self.0.push(s.ident.to_string());
        }
        visit::visit_item_static(self, s);
    }
}

/// Every name a type's paths end in.
#[derive(Default)]
struct TypeNames(BTreeSet<String>);

impl<'ast> Visit<'ast> for TypeNames {
    fn visit_path_segment(&mut self, s: &'ast syn::PathSegment) {
        self.0.insert(s.ident.to_string());
        visit::visit_path_segment(self, s);
    }
}

#[test]
fn the_library_owns_no_process_wide_mutable_state() {
    assert_none(
        mutable_statics(&read_src()),
        "process-wide mutable state in kernel/, rules/ or play/",
    );
}

#[test]
fn a_mutable_static_is_found() {
    let cases = [
        "static STAMPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);",
        "use std::sync::Mutex; static SEEN: Mutex<Vec<u64>> = Mutex::new(Vec::new());",
        "static mut COUNT: u64 = 0;",
        "fn f() { static CACHE: std::sync::OnceLock<u32> = std::sync::OnceLock::new(); }",
    ];
    for text in cases {
        let files = planted(&[("kernel::board", text)]);
        assert_eq!(mutable_statics(&files).len(), 1, "not found: {text}");
        let files = planted(&[("cli::run", text)]);
        assert_none(mutable_statics(&files), "only the library's layers");
    }
    let fixed = planted(&[("kernel::board", "static EMPTY: [u8; 2] = [0, 0];")]);
    assert_none(mutable_statics(&fixed), "an immutable static");
}
