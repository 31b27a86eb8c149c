//! `towerlab list`: the variants and packs there are, shipped and the home
//! folder's, one line each.

use std::io::Write;

use anyhow::Result;

use crate::rules::Home;

#[derive(clap::Args, Debug)]
pub struct ListArgs {}

pub fn run(home: &Home, _args: &ListArgs) -> Result<()> {
    for name in home.variants() {
        let line = match home.load_variant(&name) {
            Ok(v) => format!("{} — {} [{}]", v.description, v.packs.join(", "), v.origin),
            Err(e) => format!("(cannot be read: {e:#})"),
        };
        out!("variant {name}: {line}");
    }
    for name in home.packs() {
        let line = match home.load_pack(&name) {
            Ok(p) => format!("{} — {} [{}]", title(&p), p.description, p.origin),
            Err(e) => format!("(cannot be read: {e:#})"),
        };
        out!("pack {name}: {line}");
    }
    Ok(())
}

pub(super) fn title(p: &crate::rules::Pack) -> &str {
    if p.title.is_empty() {
        &p.name
    } else {
        &p.title
    }
}
