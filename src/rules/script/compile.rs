//! Compiling a ruleset's scripts once, for every thread, into the
//! [`Scripts`] the host holds: each pack's AST, parameters and hook
//! positions, and for each hook the chain of packs that define it. Scripts
//! compile with the sandboxed engine, the script API registered. The same compiled scripts take other parameter values
//! ([`Scripts::with_params`]) without compiling again: a script reads
//! `param(name)` when it runs.

use std::cell::Cell;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::Result;
use rhai::{AST, Engine, ImmutableString, Map, ParseErrorType, Position};

use super::Hook;
use super::limits;
use super::memory::{self, MemoryLimit};
use super::sandbox::sandboxed_engine;
use crate::kernel::diag::{Source, bad_input};
use crate::kernel::effects::StateVar;
use crate::kernel::rules::asks;
use crate::rules::state::StateDecl;

use super::scripts::{ScriptPack, Scripts};

/// One script of a ruleset, ready to compile.
pub struct ScriptSource<'a> {
    pub pack: &'a str,
    /// The name its manifest gives: what logs call its rule, and its state
    /// variables' prefix (`name.var`).
    pub rule: &'a str,
    pub source: &'a Source,
    pub params: Map,
    /// The state variables its pack declares.
    pub state: &'a [StateDecl],
}

impl Scripts {
    /// Compile every pack's script and find its hooks. Reports syntax errors
    /// and hooks of the wrong arity with `file:line:col`. With the memory
    /// limit on, scripts need [`super::CountingAllocator`] installed.
    /// A script `kept` holds (the same file, the same text) is taken from
    /// it, not compiled again; one compiled is kept there.
    pub fn compile(
        sources: &[ScriptSource],
        kinds: &[String],
        memory_limit: MemoryLimit,
        kept: Option<&Compiled>,
    ) -> Result<Scripts> {
        if !sources.is_empty() {
            memory::check(memory_limit)?;
        }
        let engine = sandboxed_engine();
        let mut end_params: Vec<ImmutableString> = Vec::new();
        let mut packs = Vec::new();
        let mut chains: [Vec<usize>; Hook::COUNT] = Default::default();
        let mut state_vars = Vec::new();
        for (i, s) in sources.iter().enumerate() {
            let state = s
                .state
                .iter()
                .map(|d| {
                    state_vars.push(StateVar {
                        name: format!("{}.{}", s.rule, d.name),
                        scope: d.scope,
                        min: d.min,
                        max: d.max,
                        default: d.default,
                        figure: d.figure,
                        boolean: d.boolean,
                    });
                    (d.name.clone(), (state_vars.len() - 1) as u16, d.boolean)
                })
                .collect();
            let ast = match kept {
                Some(kept) => kept.compile(&engine, s)?,
                None => Arc::new(compile_one(&engine, s)?),
            };
            let mut placement_params = Vec::new();
            for f in ast.iter_functions() {
                if let Some(hook) = Hook::ALL.iter().find(|h| h.name() == f.name) {
                    check_arity(s, *hook, f.params.len())?;
                    chains[hook.index()].push(i);
                    let names = f.params.iter().map(|p| ImmutableString::from(*p));
                    match hook {
                        Hook::End => end_params.extend(names.take(1)),
                        Hook::MayPlaceTile => placement_params = names.collect(),
                        _ => {}
                    }
                }
            }
            let near_misses = near_misses(s, &ast);
            packs.push(ScriptPack {
                name: s.pack.to_string(),
                rule: s.rule.to_string(),
                path: s.source.path.clone(),
                ast,
                params: s.params.clone(),
                hook_lines: Hook::ALL.map(|h| definition_line(&s.source.text, h.name())),
                state,
                near_misses,
                placement_params,
            });
        }
        let listens = Hook::ALL
            .iter()
            .filter(|h| !chains[h.index()].is_empty())
            .fold(0, |bits, h| bits | h.listen_bit())
            | drawn_tile_bit(sources, &chains[Hook::OnTileDrawn.index()])
            | pays_points_bit(sources, &chains);
        Ok(Scripts {
            packs,
            chains,
            state_vars,
            listens,
            end_params,
            kinds: kinds.to_vec(),
            kind_names: kinds
                .iter()
                .map(|k| ImmutableString::from(k.as_str()))
                .collect(),
            memory_limit,
            hook_budget: limits::GAME_OPERATIONS,
            allowance: None,
            table_kinds: 0,
            trace: None,
        })
    }
}

/// The functions of `s` (compiled as `ast`) whose names are within two
/// edits of a hook's and are no hook: "pack `p`: FILE:LINE:COL: function
/// `may_captur` is not a hook, did you mean `may_capture`?".
fn near_misses(s: &ScriptSource, ast: &AST) -> Vec<String> {
    let mut out = Vec::new();
    for f in ast.iter_functions() {
        if Hook::ALL.iter().any(|h| h.name() == f.name) {
            continue;
        }
        let Some(hook) = Hook::ALL
            .iter()
            .find(|h| strsim::damerau_levenshtein(h.name(), f.name) <= 2)
        else {
            continue;
        };
        let (line, col) = definition_line(&s.source.text, f.name);
        out.push(format!(
            "pack `{}`: {}:{line}:{col}: function `{}` is not a hook, did you mean `{}`?",
            s.pack,
            s.source.path.display(),
            f.name,
            hook.name()
        ));
    }
    out
}

/// Scripts compiled, by file and text, for the loads that would compile
/// the same script again: `check`'s, which compiles each pack alone to
/// find every problem, then the ruleset, and the rules its scenarios name.
#[derive(Default)]
pub struct Compiled {
    /// Each script's file, text and AST.
    asts: Mutex<Vec<(PathBuf, String, Arc<AST>)>>,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let held = self.asts.lock().map_or(0, |a| a.len());
        write!(f, "Compiled({held} scripts)")
    }
}

impl Compiled {
    /// The script of `s` as kept, or compiled now and kept.
    fn compile(&self, engine: &Engine, s: &ScriptSource) -> Result<Arc<AST>> {
        let same = |(path, text, _): &&(PathBuf, String, Arc<AST>)| {
            *path == s.source.path && *text == s.source.text
        };
        let found = self
            .asts
            .lock()
            .ok()
            .and_then(|asts| asts.iter().find(same).map(|(.., ast)| ast.clone()));
        if let Some(ast) = found {
            return Ok(ast);
        }
        let ast = Arc::new(compile_one(engine, s)?);
        if let Ok(mut asts) = self.asts.lock() {
            asts.push((s.source.path.clone(), s.source.text.clone(), ast.clone()));
        }
        Ok(ast)
    }
}

thread_local! {
    /// How many scripts this thread has compiled.
    static COMPILED: Cell<u64> = const { Cell::new(0) };
}

/// How many pack scripts the calling thread has compiled so far (what a
/// test counts to see that something compiles nothing).
pub fn compiled_on_this_thread() -> u64 {
    COMPILED.with(Cell::get)
}

/// One pack's script, compiled; a syntax error with its place.
fn compile_one(engine: &Engine, s: &ScriptSource) -> Result<AST> {
    COMPILED.with(|n| n.set(n.get() + 1));
    let mut ast = engine.compile(&s.source.text).map_err(|e| {
        let (line, col) = position(e.position());
        let message = e.err_type().to_string();
        let note = match e.err_type() {
            ParseErrorType::Reserved(word) if word == "import" => " (packs load no modules)",
            _ => "",
        };
        bad_input(format!(
            "pack `{}`: {}:{line}:{col}: {message}{note}",
            s.pack,
            s.source.path.display(),
        ))
    })?;
    ast.set_source(s.source.path.display().to_string());
    Ok(ast)
}

/// A hook must take the parameters the documentation gives it.
fn check_arity(s: &ScriptSource, hook: Hook, params: usize) -> Result<()> {
    if params == hook.params().len() {
        return Ok(());
    }
    let (line, col) = definition_line(&s.source.text, hook.name());
    Err(bad_input(format!(
        "pack `{}`: {}:{line}:{col}: hook `{}` takes {} parameters ({}), not {}",
        s.pack,
        s.source.path.display(),
        hook.name(),
        hook.params().len(),
        hook.params().join(", "),
        params
    )))
}

/// The line and column of `fn NAME(` in a script, or (0, 0).
fn definition_line(text: &str, name: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        let body = line.trim_start();
        if let Some(rest) = body.strip_prefix("fn ")
            && rest
                .trim_start()
                .strip_prefix(name)
                .is_some_and(|r| r.trim_start().starts_with('('))
        {
            return (i + 1, line.len() - body.len() + 1);
        }
    }
    (0, 0)
}

pub(super) fn position(pos: Position) -> (usize, usize) {
    (pos.line().unwrap_or(0), pos.position().unwrap_or(0))
}

/// [`asks::DRAWN_TILE`] where a pack answering `on_tile_drawn` may read
/// which tile was drawn: its script names a `tile` field anywhere (`.tile`,
/// `event.tile` or `game().tile`). Read from the text, as a bot's estimate
/// needs no more: a mention in a comment only makes the bot ask each kind.
fn drawn_tile_bit(sources: &[ScriptSource], packs: &[usize]) -> u32 {
    let names_tile = |text: &str| {
        text.match_indices('.').any(|(i, _)| {
            let rest = text[i + 1..].trim_start();
            rest.strip_prefix("tile")
                .is_some_and(|after| !after.starts_with(part_of_name))
        })
    };
    match packs.iter().any(|&i| names_tile(&sources[i].source.text)) {
        true => asks::DRAWN_TILE,
        false => 0,
    }
}

/// [`asks::PAYS_POINTS`] where a pack acting at a moment (the only hooks
/// whose effects are carried out) may make a `points` effect: its script
/// names `points` anywhere, or `Fn`, which could name it in a string. Read
/// from the text, so a mention in a comment only makes bots look where
/// nothing is paid; a script that pays can never be without the bit.
fn pays_points_bit(sources: &[ScriptSource], chains: &[Vec<usize>; Hook::COUNT]) -> u32 {
    let pays = |text: &str| names_word(text, "points") || names_word(text, "Fn");
    let mut acting = Hook::ALL
        .iter()
        .filter(|h| h.acts())
        .flat_map(|h| &chains[h.index()]);
    match acting.any(|&i| pays(&sources[i].source.text)) {
        true => asks::PAYS_POINTS,
        false => 0,
    }
}

/// Whether `word` stands in `text` as a whole name (no letter, digit or
/// `_` on either side).
fn names_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(part_of_name) && !after.is_some_and(part_of_name)
    })
}

/// Whether `c` may stand in a name (a letter, a digit or `_`).
fn part_of_name(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::script::NoCountingAllocator;

    fn compile(limit: MemoryLimit) -> Result<Scripts> {
        let source = Source::new("packs/plain/plain.rhai", "fn reach(tower) { 1 }\n");
        let sources = [ScriptSource {
            pack: "plain",
            rule: "plain",
            source: &source,
            params: Map::new(),
            state: &[],
        }];
        Scripts::compile(&sources, &["regular".to_string()], limit, None)
    }

    // The library's own unit tests run on the system allocator, as a program
    // that embeds the library without installing the counting one.
    #[test]
    fn without_the_counting_allocator_the_memory_limit_is_refused_with_the_fix() {
        assert!(!memory::is_installed());
        let Err(err) = compile(MemoryLimit::On) else {
            panic!("packs with the memory limit loaded without the counting allocator");
        };
        assert!(err.is::<NoCountingAllocator>(), "{err:#}");
        assert!(
            !crate::kernel::diag::is_bad_input(&err),
            "not the user's input"
        );
        let message = format!("{err:#}");
        for says in [
            "#[global_allocator]",
            "towerlab::rules::script::CountingAllocator",
            "MemoryLimit::Off",
        ] {
            assert!(message.contains(says), "{message}");
        }
    }

    #[test]
    fn without_the_counting_allocator_packs_load_with_the_memory_limit_off() {
        let scripts = compile(MemoryLimit::Off).expect("loads without the memory limit");
        assert_eq!(scripts.chain(Hook::Reach).collect::<Vec<_>>(), ["plain"]);
    }

    #[test]
    fn a_ruleset_without_scripts_needs_no_counting_allocator() {
        assert!(Scripts::compile(&[], &[], MemoryLimit::On, None).is_ok());
    }
}
