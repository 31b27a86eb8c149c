//! The host whose hook is running on this thread, for the script API's
//! functions (which Rhai calls with no host of their own), and the error a
//! script is given. Shared by every module that registers or runs script
//! functions; it imports only the host.

use rhai::{Dynamic, EvalAltResult, Position};

use super::host::ScriptRules;

// The rules whose hook is running on this thread.
scoped_tls::scoped_thread_local!(pub(super) static RULES: ScriptRules);

/// `f` of the rules whose hook is running, or the error that none is.
pub(super) fn with_rules<T>(f: impl FnOnce(&ScriptRules) -> T) -> Result<T, Box<EvalAltResult>> {
    if RULES.is_set() {
        Ok(RULES.with(f))
    } else {
        Err(rt_error("this function is only available inside a hook"))
    }
}

/// A script error with `message` and no position of its own.
pub(super) fn rt_error(message: impl Into<String>) -> Box<EvalAltResult> {
    EvalAltResult::ErrorRuntime(Dynamic::from(message.into()), Position::NONE).into()
}
