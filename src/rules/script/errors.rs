//! Error text for scripts: every failure names the pack, the hook, the file
//! and the line, and says which limit was broken or what was expected.

use rhai::{Dynamic, EvalAltResult};

use super::budget::Limit;
use super::compile::position;
use super::hooks::Hook;
use super::host::ScriptRules;
use super::limits;
use super::scripts::ScriptPack;
use crate::kernel::diag::bad_input;

/// The text of a failed hook call: pack, hook, file, line and column, what
/// went wrong and, for a broken limit, which one.
pub(super) fn describe(pack: &ScriptPack, hook: Hook, e: &EvalAltResult) -> String {
    let inner = e.unwrap_inner();
    let pos = if inner.position().is_none() {
        e.position()
    } else {
        inner.position()
    };
    let (line, col) = if pos.is_none() {
        pack.hook_lines[hook.index()]
    } else {
        position(pos)
    };
    let (message, hint) = match broken_limit(inner) {
        Some(limit) => (limit.message(), String::new()),
        None => (without_position(inner), hint(inner)),
    };
    format!(
        "pack `{}`, hook `{}`: {}:{line}:{col}: {message}{hint}",
        pack.name,
        hook.name(),
        pack.path.display()
    )
}

/// The sandbox's limit that stopped the script, if that is what happened:
/// the progress callback ends a script with the [`Limit`] as its token.
fn broken_limit(e: &EvalAltResult) -> Option<Limit> {
    match e {
        EvalAltResult::ErrorTerminated(token, _) => token.clone().try_cast::<Limit>(),
        _ => None,
    }
}

/// What Rhai says went wrong, without the position it appends (the message
/// gives the position as `file:line:col` instead).
fn without_position(e: &EvalAltResult) -> String {
    match e {
        EvalAltResult::ErrorRuntime(value, _) => value.to_string(),
        other => {
            let text = other.to_string();
            let appended = format!(" ({})", other.position());
            match text.strip_suffix(&appended) {
                Some(message) if !other.position().is_none() => message.to_string(),
                _ => text,
            }
        }
    }
}

/// Which of Rhai's own limits an error is about, as a hint.
fn hint(e: &EvalAltResult) -> String {
    match e {
        EvalAltResult::ErrorTooManyOperations(..) => format!(
            " (limit: {} operations per hook call; a runaway loop?)",
            limits::OPERATIONS
        ),
        EvalAltResult::ErrorStackOverflow(..) => format!(
            " (limit: {} nested calls; runaway recursion?)",
            limits::CALL_LEVELS
        ),
        EvalAltResult::ErrorDataTooLarge(..) => {
            " (see the sandbox's size limits in docs/packs.md)".to_string()
        }
        _ => String::new(),
    }
}

impl ScriptRules {
    pub(super) fn answering_pack(&self, hook: Hook) -> String {
        self.scripts.chains[hook.index()]
            .last()
            .map(|&i| {
                let p = &self.scripts.packs[i];
                format!("pack `{}` ({})", p.name, p.path.display())
            })
            .unwrap_or_else(|| "the default".to_string())
    }

    /// Where the answering pack's `fn` of `hook` stands, as
    /// `path:line:col: `; empty when no pack defines it.
    fn hook_position(&self, hook: Hook) -> String {
        self.scripts.chains[hook.index()]
            .last()
            .map(|&i| {
                let p = &self.scripts.packs[i];
                let (line, col) = p.hook_lines[hook.index()];
                format!("{}:{line}:{col}: ", p.path.display())
            })
            .unwrap_or_default()
    }

    pub(super) fn wrong_type(
        &self,
        hook: Hook,
        value: &Dynamic,
        type_name: &str,
        expected: &str,
    ) -> anyhow::Error {
        let who = self.answering_pack(hook);
        if let Some(effect) = super::effects::effect_in(value) {
            return bad_input(format!(
                "{}hook `{}` of {who} answered an effect (`{effect}`); effects are answered by \
                 event hooks such as `on_turn_end`, and `{}` answers {expected}",
                self.hook_position(hook),
                hook.name(),
                hook.name()
            ));
        }
        let mut shown = value.to_string();
        if shown.len() > 80 {
            shown.truncate(80);
            shown.push('…');
        }
        bad_input(format!(
            "{}hook `{}` of {who} returned {type_name} `{shown}`; expected {expected}",
            self.hook_position(hook),
            hook.name()
        ))
    }
}
