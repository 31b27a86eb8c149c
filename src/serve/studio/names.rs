//! The names the studio takes: a pack's (one or two parts of letters,
//! digits, `-` and `_`, not `base`) and its files' (`.toml` and `.rhai`
//! files inside its folder).

use anyhow::Result;

use crate::kernel::diag::bad_input;
use crate::rules::Dir;
use std::collections::BTreeMap;

/// A pack's name as the studio takes it.
pub(super) fn pack_name(name: &str) -> Result<()> {
    let part_ok = |part: &str| {
        !part.is_empty()
            && part.len() <= 64
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    let parts: Vec<&str> = name.split('/').collect();
    if parts.len() <= 2 && parts.iter().all(|p| part_ok(p)) && name != "base" {
        return Ok(());
    }
    Err(bad_input(format!(
        "`{name}` is no pack name the studio takes: one or two parts (`my-pack`, \
         `house/my-rule`) of letters, digits, `-` and `_`, and not `base`"
    )))
}

/// A pack file's name: inside its folder, a `.toml` or `.rhai` file.
pub(super) fn file_name(pack: &str, name: &str) -> Result<()> {
    let inside = Dir::Inline(String::new(), BTreeMap::new()).confines(name);
    let kind_ok = name.ends_with(".toml") || name.ends_with(".rhai");
    match inside {
        Err(why) => Err(bad_input(format!("file `{name}` of pack `{pack}` {why}"))),
        Ok(()) if !kind_ok || name.contains('\\') || name.contains("//") => Err(bad_input(
            format!("file `{name}` of pack `{pack}`: a pack holds `.toml` and `.rhai` files"),
        )),
        Ok(()) => Ok(()),
    }
}
