//! Property tests: the tile-set loader never panics on the shipped files cut,
//! edited or given odd values.

use super::*;

/// Load `base` (as the base set, with the shipped tower set after it) and
/// alone. Ok or Err, never a panic; every error names the file it is in.
fn load_never_panics(base: &str) -> Result<(), TestCaseError> {
    let tower = shipped("tower");
    for sources in [
        vec![Source::new("base/tiles.toml", base)],
        vec![
            Source::new("base/tiles.toml", base),
            Source::new("tower/tiles.toml", tower.as_str()),
        ],
    ] {
        if let Err(e) = TileSet::from_sources(&sources) {
            let msg = e.to_string();
            prop_assert!(
                msg.starts_with("base/tiles.toml:") || msg.starts_with("tower/tiles.toml:"),
                "error without a place: {}",
                msg
            );
        }
    }
    Ok(())
}

fn cut_at(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Values that stress the loader when put in place of any value.
const VALUES: &[&str] = &[
    "\"\"",
    "0",
    "1",
    "-1",
    "4294967295",
    "4294967296",
    "true",
    "[]",
    "[[]]",
    "{}",
    "[\"N\", \"N\"]",
    "[\"I\"]",
    "\"CCCC\"",
    "\"RRRR\"",
    "\"C\u{e9}RF\"",
    "\"a/b\"",
    "[{ edges = [] }]",
    "[{ halves = [] }]",
    "[{ halves = [], cities = [\"N\"] }]",
];

proptest! {
    #[test]
    fn truncated_base_files_never_panic(i in any::<prop::sample::Index>()) {
        let base = shipped("base");
        let end = cut_at(&base, i.index(base.len() + 1));
        load_never_panics(&base[..end])?;
    }

    #[test]
    fn base_files_with_a_span_deleted_or_inserted_never_panic(
        i in any::<prop::sample::Index>(),
        len in 0usize..80,
        insert in "\\PC{0,12}",
    ) {
        let base = shipped("base");
        let start = cut_at(&base, i.index(base.len() + 1));
        let end = cut_at(&base, start + len).max(start);
        let mutated = format!("{}{}{}", &base[..start], insert, &base[end..]);
        load_never_panics(&mutated)?;
    }

    #[test]
    fn base_files_with_a_value_replaced_never_panic(
        line in any::<prop::sample::Index>(),
        value in prop::sample::select(VALUES),
    ) {
        let base = shipped("base");
        let mut lines: Vec<String> = base.lines().map(String::from).collect();
        let n = line.index(lines.len());
        if let Some((key, _)) = lines[n].split_once(" = ") {
            lines[n] = format!("{key} = {value}");
        } else {
            lines[n] = value.to_string();
        }
        load_never_panics(&lines.join("\n"))?;
    }

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        load_never_panics(&text)?;
    }

    #[test]
    fn toml_like_text_never_panics(text in "(\\[\\[?(set|tile)\\]\\]?\n|[a-z]{1,8} = (\"[A-Z]{0,5}\"|[0-9]{1,11}|true|\\[\"[A-Z]{1,2}\"(, \"[A-Z]{1,2}\")*\\])\n){0,30}") {
        load_never_panics(&text)?;
    }
}
