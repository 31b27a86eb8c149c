//! Names as the report shows them: a pack given by path by its folder's
//! name, a pack-list variant as its packs' names joined by " + ".

use crate::analysis::compare::Comparison;

/// The comparison with names as the page shows them: a pack given by path
/// (`./x`) by its folder's name, and a pack-list variant (`tower,./x`) as its
/// packs' names joined by " + ".
pub(super) fn readable(r: &Comparison) -> Comparison {
    let mut named = r.clone();
    for v in &mut named.variants {
        *v = readable_variant(v);
    }
    for packs in &mut named.packs {
        for p in packs.iter_mut() {
            *p = pack_name(p).to_string();
        }
    }
    named
}

/// A variant's name as the page shows it: a pack list as its packs' names
/// joined by " + ".
pub(super) fn readable_variant(v: &str) -> String {
    if v.contains(',') {
        v.split(',')
            .map(|p| pack_name(p.trim()))
            .collect::<Vec<_>>()
            .join(" + ")
    } else {
        v.to_string()
    }
}

/// A pack's name: a path's last folder, else the name as given.
pub(super) fn pack_name(pack: &str) -> &str {
    if pack.starts_with('.') || pack.starts_with('/') {
        pack.trim_end_matches('/')
            .rsplit('/')
            .next()
            .filter(|n| !n.is_empty())
            .unwrap_or(pack)
    } else {
        pack
    }
}
