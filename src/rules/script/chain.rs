//! How packs compose: a hook call runs the last pack of the hook's chain, and
//! `previous(...)` runs the one before it (the first one's `previous` gives
//! the hook's default). Calls nest; the first error of a top-level call is
//! the one reported.

use anyhow::Result;
use rhai::{Array, CallFnOptions, Dynamic, EvalAltResult, Map, Scope};

use super::api::TowerInfo;
use super::errors::describe;
use super::hooks::DefaultAnswer;
use super::hooks::Hook;
use super::host::ScriptRules;
use super::running::{RULES, rt_error};
use super::sandbox::limit_broken;
use super::{context, limits};
use crate::kernel::diag::did_you_mean;

/// An unknown property of a hook's argument or of `game()`, with the
/// properties there are.
fn with_field_list(message: String) -> String {
    let fields = [
        ("'Game'", context::FIELDS),
        ("'Feature'", context::FEATURE_FIELDS),
        ("'Meeple'", "owner, x, y, dx, dy, on, feature"),
        ("'Tile'", context::TILE_FIELDS),
        (
            "'Tower'",
            "height, floors, top, has_meeple, count(kind), and in `may_capture`, `end`, \
             `may_place_floor` and `may_top` x, y, meeple_owner",
        ),
    ];
    match fields
        .iter()
        .find(|(ty, _)| message.contains("getter is not registered") && message.contains(ty))
    {
        Some((ty, list)) => format!("{message}; a {} has: {list}", ty.trim_matches('\'')),
        None => message,
    }
}

impl ScriptRules {
    /// Call a hook from the top of its chain. Errors name the pack, hook,
    /// file and line.
    pub(super) fn call(&self, hook: Hook, args: Vec<Dynamic>) -> Result<Dynamic> {
        self.call_below(hook, self.scripts.chains[hook.index()].len(), args)
    }

    /// Call a hook as the first `packs` packs of its chain answer it (none:
    /// the hook's default).
    pub(super) fn call_below(
        &self,
        hook: Hook,
        packs: usize,
        args: Vec<Dynamic>,
    ) -> Result<Dynamic> {
        let top_level = self.stack.borrow().is_empty();
        if top_level {
            // An error a script caught in an earlier call is not this one's.
            self.error.borrow_mut().take();
            self.start_call();
        }
        let run = || {
            if packs == 0 {
                self.default_answer(hook, &args)
            } else {
                self.call_level(hook, packs - 1, args.clone())
            }
        };
        let result = RULES.set(self, run);
        let broken = if top_level { self.end_call() } else { None };
        if let (Ok(_), Some(limit)) = (&result, broken) {
            return Err(self.limit_error(hook, limit));
        }
        match result {
            Ok(v) => Ok(v),
            Err(e) => {
                let described = if top_level {
                    self.error.borrow_mut().take()
                } else {
                    self.error.borrow().clone()
                };
                Err(limit_broken(
                    broken,
                    described
                        .unwrap_or_else(|| format!("hook `{}`: {}", hook.name(), e.unwrap_inner())),
                ))
            }
        }
    }

    pub(super) fn call_level(
        &self,
        hook: Hook,
        pos: usize,
        args: Vec<Dynamic>,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let pack = &self.scripts.packs[self.scripts.chains[hook.index()][pos]];
        if self.stack.borrow().len() >= limits::NESTING {
            let (line, col) = pack.hook_lines[hook.index()];
            let message = format!(
                "pack `{}`, hook `{}`: {}:{line}:{col}: hooks call each other more than {} deep \
                 (does a hook ask for its own answer, e.g. `capture_cells` inside `range`?)",
                pack.name,
                hook.name(),
                pack.path.display(),
                limits::NESTING
            );
            self.error.borrow_mut().get_or_insert(message.clone());
            return Err(rt_error(message));
        }
        self.stack.borrow_mut().push((hook, pos));
        self.runs.set(self.runs.get() + 1);
        self.run_begins();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(false);
        let result = self.engine.call_fn_with_options::<Dynamic>(
            options,
            &mut Scope::new(),
            &pack.ast,
            hook.name(),
            args,
        );
        self.stack.borrow_mut().pop();
        self.run_ends(hook, pos);
        if let Err(e) = &result {
            let mut slot = self.error.borrow_mut();
            if slot.is_none() {
                *slot = Some(with_field_list(describe(pack, hook, e)));
            }
        }
        result
    }

    /// A hook's answer when no pack (or no earlier pack) defines it: its
    /// row's default.
    pub(super) fn default_answer(
        &self,
        hook: Hook,
        args: &[Dynamic],
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        Ok(match hook.spec().default {
            DefaultAnswer::Bool(b) => Dynamic::from(b),
            DefaultAnswer::Int(n) => Dynamic::from(n),
            DefaultAnswer::Unit => Dynamic::UNIT,
            DefaultAnswer::NoSupply => Dynamic::from(Map::new()),
            DefaultAnswer::Nothing => Dynamic::from(Array::new()),
            DefaultAnswer::Outcome(o) => Dynamic::from(o.word()),
            DefaultAnswer::Same(i) => args[i].clone(),
            DefaultAnswer::Height => {
                let tower = args[0].clone().try_cast::<TowerInfo>().ok_or_else(|| {
                    rt_error(format!("`previous` in `{}` takes a tower", hook.name()))
                })?;
                Dynamic::from(tower.floors.len() as i64)
            }
        })
    }

    pub(super) fn param(&self, name: &str) -> Result<Dynamic, Box<EvalAltResult>> {
        let frame = self.stack.borrow().last().copied();
        let Some((hook, pos)) = frame else {
            return Err(rt_error("`param` is only available inside a hook"));
        };
        let pack = &self.scripts.packs[self.scripts.chains[hook.index()][pos]];
        pack.params.get(name).cloned().ok_or_else(|| {
            rt_error(format!(
                "pack `{}` declares no parameter `{name}`{}",
                pack.name,
                did_you_mean(name, pack.params.keys().map(|k| k.as_str()))
            ))
        })
    }
}
