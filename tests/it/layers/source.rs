//! The sources of `src/` as the invariant checks read them: each file parsed
//! with `syn`, what each module (a file, or an inline `mod` in it) defines,
//! imports (every `use`, whatever its visibility, braces expanded, renames
//! and globs kept) and aliases (`type`), and every path it names: in `use`
//! trees, in code, in attributes and in macro bodies. A path is resolved to
//! the module that defines what it names, following imports and aliases
//! through as many modules as they go.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::{self, Visit};

/// A module's path from the crate root: `["kernel", "game"]`.
pub type ModPath = Vec<String>;

/// A file of `src/`: its module and its syntax.
pub struct SourceFile {
    pub module: ModPath,
    /// Its path from the package root, for messages.
    pub file: String,
    pub syntax: syn::File,
}

impl SourceFile {
    /// A file of module `module` (`kernel::game`; `""` for the crate root),
    /// from its text.
    pub fn parse(module: &str, file: &str, text: &str) -> SourceFile {
        SourceFile {
            module: module
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
            file: file.to_owned(),
            syntax: syn::parse_file(text).unwrap_or_else(|e| panic!("{file}: {e}")),
        }
    }

    /// Is this `src/main.rs`, the binary (a crate of its own)?
    pub fn is_main(&self) -> bool {
        self.file == "src/main.rs"
    }
}

/// Every `.rs` file under `src/`.
pub fn read_src() -> Vec<SourceFile> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    read_dir(root, &root.join("src"), &mut files);
    files
}

fn read_dir(root: &Path, dir: &Path, out: &mut Vec<SourceFile>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        if path.is_dir() {
            read_dir(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap();
            let mut module: Vec<String> = rel
                .strip_prefix("src")
                .unwrap()
                .with_extension("")
                .iter()
                .map(|c| c.to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|l| l == "mod" || l == "lib") {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let mut file = SourceFile::parse("", &rel.display().to_string(), &text);
            file.module = module;
            out.push(file);
        }
    }
}

/// What one module (a file's, or an inline `mod`'s) defines and names.
#[derive(Default)]
struct Scope {
    /// The file module it is written in.
    file: ModPath,
    /// Names of the items it defines.
    defines: BTreeSet<String>,
    /// Names it brings in (`use … as name`, `type name = …`), with the
    /// paths they stand for, as written.
    aliases: BTreeMap<String, Vec<Vec<String>>>,
    /// Paths whose names it brings in all at once (`use path::*`).
    globs: Vec<Vec<String>>,
    /// Every path it names, as written.
    refs: Vec<Vec<String>>,
}

/// The library crate's modules, ready to resolve paths.
pub struct Crate {
    scopes: BTreeMap<ModPath, Scope>,
}

/// How deep imports may chain before a path is given up as a cycle.
const MAX_HOPS: usize = 24;

impl Crate {
    /// The modules of `files` (`src/main.rs`, a crate of its own, left out).
    pub fn new(files: &[SourceFile]) -> Crate {
        let mut scopes = BTreeMap::new();
        for f in files.iter().filter(|f| !f.is_main()) {
            let mut c = Collector {
                scopes: &mut scopes,
                file: f.module.clone(),
                at: f.module.clone(),
            };
            c.scope();
            c.visit_file(&f.syntax);
        }
        Crate { scopes }
    }

    /// For each file module, the other file modules it depends on (not its
    /// own ancestors: a module always sees its parents).
    pub fn edges(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        self.depends(|from, to| !from.starts_with(to))
    }

    /// For each file module, the other file modules it depends on, its
    /// ancestors among them (what a child names of its parent makes a loop
    /// with what the parent names of the child), the crate root left out.
    pub fn edges_with_ancestors(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        self.depends(|_, to| !to.is_empty())
    }

    /// For each file module, the other file modules it names an item of,
    /// where `keep(from, to)`.
    fn depends(
        &self,
        keep: impl Fn(&ModPath, &ModPath) -> bool,
    ) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
        for (at, scope) in &self.scopes {
            let own = edges.entry(scope.file.clone()).or_default();
            for raw in &scope.refs {
                for target in self.resolve(at, raw, 0) {
                    let file = &self.scopes[&target].file;
                    if file != &scope.file && keep(&scope.file, file) {
                        own.insert(file.clone());
                    }
                }
            }
        }
        edges
    }

    /// The modules that what `raw` (as written in module `at`) names is
    /// defined in; none for a path outside the crate.
    fn resolve(&self, at: &ModPath, raw: &[String], hops: usize) -> BTreeSet<ModPath> {
        if hops > MAX_HOPS || raw.is_empty() {
            return BTreeSet::new();
        }
        self.absolute(at, raw, hops)
            .into_iter()
            .flat_map(|segs| self.locate(&segs, hops))
            .collect()
    }

    /// `raw` from the crate root: through `crate`, `super`, `self`, a child
    /// module, or a name the module brought in.
    fn absolute(&self, at: &ModPath, raw: &[String], hops: usize) -> Vec<Vec<String>> {
        if hops > MAX_HOPS || raw.is_empty() {
            return Vec::new();
        }
        let rest = |n: usize, base: &[String]| -> Vec<String> {
            base.iter().chain(&raw[n..]).cloned().collect()
        };
        match raw[0].as_str() {
            "crate" => vec![raw[1..].to_vec()],
            "super" => {
                let ups = raw.iter().take_while(|s| *s == "super").count();
                let base = &at[..at.len().saturating_sub(ups)];
                vec![rest(ups, base)]
            }
            "self" => vec![rest(1, at)],
            first => {
                let mut child = at.clone();
                child.push(first.to_owned());
                if self.scopes.contains_key(&child) {
                    return vec![rest(0, at)];
                }
                let Some(targets) = self.scopes.get(at).and_then(|s| s.aliases.get(first)) else {
                    return Vec::new();
                };
                targets
                    .iter()
                    .flat_map(|t| self.absolute(at, t, hops + 1))
                    .map(|t| t.into_iter().chain(raw[1..].iter().cloned()).collect())
                    .collect()
            }
        }
    }

    /// The modules defining the crate-rooted path `segs`: its longest prefix
    /// that is a module, then on through that module's imports and aliases.
    fn locate(&self, segs: &[String], hops: usize) -> BTreeSet<ModPath> {
        let len = (0..=segs.len())
            .rev()
            .find(|&n| self.scopes.contains_key(&segs[..n]))
            .unwrap_or(0);
        let module = segs[..len].to_vec();
        let Some(scope) = self.scopes.get(&module) else {
            return BTreeSet::new();
        };
        let Some(name) = segs.get(len) else {
            return BTreeSet::from([module]);
        };
        let tail = &segs[len + 1..];
        let mut out = BTreeSet::new();
        if let Some(targets) = scope.aliases.get(name) {
            for t in targets {
                let path: Vec<String> = t.iter().chain(tail).cloned().collect();
                out.extend(self.resolve(&module, &path, hops + 1));
            }
        }
        if out.is_empty() && !scope.defines.contains(name) {
            for glob in &scope.globs {
                for source in self.resolve(&module, glob, hops + 1) {
                    if self.scopes[&source].names(name) {
                        let path: Vec<String> =
                            source.iter().chain(&segs[len..]).cloned().collect();
                        out.extend(self.locate(&path, hops + 1));
                    }
                }
            }
        }
        if out.is_empty() {
            out.insert(module);
        }
        out
    }
}

impl Scope {
    /// Does the module define or bring in `name`?
    fn names(&self, name: &str) -> bool {
        self.defines.contains(name) || self.aliases.contains_key(name)
    }
}

/// Walks a file, filling the scopes of its module and inline modules.
struct Collector<'c> {
    scopes: &'c mut BTreeMap<ModPath, Scope>,
    file: ModPath,
    at: ModPath,
}

impl Collector<'_> {
    fn scope(&mut self) -> &mut Scope {
        let file = self.file.clone();
        self.scopes.entry(self.at.clone()).or_insert_with(|| Scope {
            file,
            ..Scope::default()
        })
    }

    fn define(&mut self, ident: &syn::Ident) {
        self.scope().defines.insert(ident.to_string());
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                let path = match name.as_str() {
                    "self" => prefix.clone(),
                    _ => [prefix.as_slice(), std::slice::from_ref(&name)].concat(),
                };
                let name = path.last().cloned().unwrap_or_default();
                self.import(name, path);
            }
            syn::UseTree::Rename(r) => {
                let path: Vec<String> = match r.ident.to_string().as_str() {
                    "self" => prefix.clone(),
                    name => [prefix.as_slice(), &[name.to_owned()]].concat(),
                };
                self.import(r.rename.to_string(), path);
            }
            syn::UseTree::Glob(_) => {
                let scope = self.scope();
                scope.globs.push(prefix.clone());
                scope.refs.push(prefix.clone());
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }

    fn import(&mut self, name: String, path: Vec<String>) {
        let scope = self.scope();
        scope.refs.push(path.clone());
        if name != "_" {
            scope.aliases.entry(name).or_default().push(path);
        }
    }
}

fn segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// The paths written in a token stream (a macro's body, an attribute):
/// every run `a::b::c` of two or more names.
pub fn token_paths(tokens: TokenStream, out: &mut Vec<Vec<String>>) {
    let mut run: Vec<String> = Vec::new();
    let mut colons = 0;
    let flush = |run: &mut Vec<String>, out: &mut Vec<Vec<String>>| {
        if run.len() > 1 {
            out.push(std::mem::take(run));
        }
        run.clear();
    };
    for tree in tokens {
        match tree {
            TokenTree::Ident(i) => {
                if colons != 2 {
                    flush(&mut run, out);
                }
                run.push(i.to_string());
                colons = 0;
            }
            TokenTree::Punct(p) if p.as_char() == ':' && !run.is_empty() => colons += 1,
            TokenTree::Group(g) => {
                flush(&mut run, out);
                colons = 0;
                token_paths(g.stream(), out);
            }
            _ => {
                flush(&mut run, out);
                colons = 0;
            }
        }
    }
    flush(&mut run, out);
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.define(&m.ident);
        if m.content.is_some() {
            self.at.push(m.ident.to_string());
            self.scope();
            visit::visit_item_mod(self, m);
            self.at.pop();
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if u.leading_colon.is_none() {
            self.use_tree(&mut Vec::new(), &u.tree);
        }
    }

    fn visit_item_type(&mut self, t: &'ast syn::ItemType) {
        self.define(&t.ident);
        let mut inner = PathsIn::default();
        inner.visit_type(&t.ty);
        self.scope()
            .aliases
            .entry(t.ident.to_string())
            .or_default()
            .extend(inner.0);
        visit::visit_item_type(self, t);
    }

    fn visit_item_fn(&mut self, i: &'ast syn::ItemFn) {
        self.define(&i.sig.ident);
        visit::visit_item_fn(self, i);
    }

    fn visit_item_struct(&mut self, i: &'ast syn::ItemStruct) {
        self.define(&i.ident);
        visit::visit_item_struct(self, i);
    }

    fn visit_item_enum(&mut self, i: &'ast syn::ItemEnum) {
        self.define(&i.ident);
        visit::visit_item_enum(self, i);
    }

    fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
        self.define(&i.ident);
        visit::visit_item_const(self, i);
    }

    fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
        self.define(&i.ident);
        visit::visit_item_static(self, i);
    }

    fn visit_item_trait(&mut self, i: &'ast syn::ItemTrait) {
        self.define(&i.ident);
        visit::visit_item_trait(self, i);
    }

    /// A `#[macro_export]` macro is named from the crate root
    /// (`crate::name!`, or `name!` anywhere): the root brings it in from
    /// the module that defines it, so a call of it depends on that module.
    fn visit_item_macro(&mut self, i: &'ast syn::ItemMacro) {
        if let Some(ident) = &i.ident {
            self.define(ident);
            if i.attrs.iter().any(|a| a.path().is_ident("macro_export")) {
                let path = [self.at.as_slice(), &[ident.to_string()]].concat();
                let root = self.scopes.entry(Vec::new()).or_default();
                root.aliases
                    .entry(ident.to_string())
                    .or_default()
                    .push([&["crate".to_owned()], path.as_slice()].concat());
            }
        }
        visit::visit_item_macro(self, i);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.scope().refs.push(segments(p));
        visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let mut path = segments(&m.path);
        if path.len() == 1 {
            // `name!`: an exported macro is the crate root's.
            path.insert(0, "crate".to_owned());
        }
        let mut paths = vec![path];
        token_paths(m.tokens.clone(), &mut paths);
        self.scope().refs.extend(paths);
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        if let syn::Meta::List(list) = &a.meta {
            let mut paths = Vec::new();
            token_paths(list.tokens.clone(), &mut paths);
            self.scope().refs.extend(paths);
        }
    }

    /// `pub(in crate::a)` restricts who sees an item: it imports nothing.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}
}

/// Every path written in a piece of syntax.
#[derive(Default)]
pub struct PathsIn(pub Vec<Vec<String>>);

impl<'ast> Visit<'ast> for PathsIn {
    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.0.push(segments(p));
        visit::visit_path(self, p);
    }
}
