//! The order a list of packs keeps: every pack after the packs it
//! requires, none twice, a native rule set alone; and, when a list breaks
//! it, the list that would keep it.

use anyhow::Result;

use super::{Home, Pack, requires};
use crate::kernel::diag::{bad_input, did_you_mean};

/// How to fix a list whose pack misses its requirement `req`: the list with
/// every pack after what it requires, missing requirements (and theirs)
/// added (" (e.g. --packs tower,black-tower,house/x)"); or, when `req` is
/// found nowhere, the nearest name there is.
fn fixed_list(home: &Home, packs: &[Pack], req: &str) -> String {
    let mut order: Vec<String> = Vec::new();
    for p in packs {
        if !place(home, packs, &p.reference, &mut order, 0) {
            let known = home.packs();
            return did_you_mean(req, known.iter().map(String::as_str));
        }
    }
    format!(" (e.g. --packs {})", order.join(","))
}

/// Put the pack `name` into `order` after what it requires, each once: a
/// pack of the list as the list names it, another as found in `home`; false
/// when one is found nowhere.
fn place(home: &Home, packs: &[Pack], name: &str, order: &mut Vec<String>, depth: usize) -> bool {
    let listed = requires::find(packs, name);
    let reference = listed.map_or(name, |p| p.reference.as_str()).to_string();
    if order.contains(&reference) {
        return true;
    }
    let requires = match listed {
        Some(p) => p.requires.clone(),
        None => match home.load_pack(name) {
            Ok(p) => p.requires,
            Err(_) => return false,
        },
    };
    if depth < requires::MAX_DEPTH {
        for r in &requires {
            if !place(home, packs, r, order, depth + 1) {
                return false;
            }
        }
    }
    if !order.contains(&reference) {
        order.push(reference);
    }
    true
}

/// Required packs come earlier in the list, no pack comes twice, and
/// a native rule set stands alone.
pub(super) fn check_pack_order(home: &Home, packs: &[Pack]) -> Result<()> {
    check_native_alone(home, packs)?;
    for (i, pack) in packs.iter().enumerate() {
        for (k, req) in pack.requires.iter().enumerate() {
            let before = packs[..i].iter().any(|p| p.is(req));
            if !before {
                let message = format!(
                    "pack `{}` requires pack `{req}` earlier in the list{}",
                    pack.reference,
                    fixed_list(home, packs, req)
                );
                return Err(match pack.requires_spans.get(k) {
                    Some(span) => pack.manifest.error_at(span.clone(), message),
                    None => bad_input(message),
                });
            }
        }
        if let Some(earlier) = packs[..i].iter().find(|p| p.name == pack.name) {
            return Err(bad_input(listed_twice(earlier, pack)));
        }
    }
    Ok(())
}

/// Why `pack` cannot follow `earlier` in a list: the same pack twice, or
/// two packs whose manifests give one name.
pub(super) fn listed_twice(earlier: &Pack, pack: &Pack) -> String {
    if earlier.reference == pack.reference {
        pack_listed_twice(&pack.reference)
    } else {
        format!(
            "packs `{}` and `{}` are both named `{}` in their pack.toml: a list holds a pack once; rename one",
            earlier.reference, pack.reference, pack.name
        )
    }
}

/// Why a list cannot name the pack `reference` twice (every interface
/// that takes a list says it so).
pub fn pack_listed_twice(reference: &str) -> String {
    format!("pack `{reference}` is listed twice: a list holds a pack once")
}

/// A native rule set stands alone: in a longer list it is refused, with
/// the list that uses its scripted mirror in its place (every pack after
/// what it requires).
fn check_native_alone(home: &Home, packs: &[Pack]) -> Result<()> {
    let Some(native) = packs.iter().find_map(|p| p.native) else {
        return Ok(());
    };
    if packs.len() == 1 {
        return Ok(());
    }
    let scripted: Vec<Pack> = packs
        .iter()
        .filter(|p| p.native.is_none())
        .cloned()
        .collect();
    let mut order: Vec<String> = Vec::new();
    for p in packs {
        let names: Vec<&str> = match p.native {
            Some(n) => n.mirrors.to_vec(),
            None => vec![p.reference.as_str()],
        };
        for name in names {
            place(home, &scripted, name, &mut order, 0);
        }
    }
    Err(bad_input(format!(
        "`{}` is native reference rules and stands alone; to combine packs use \
         the scripted ones (`{}`): e.g. --packs {}",
        native.name,
        native.mirrors.join(","),
        order.join(",")
    )))
}
