//! Property tests: the board, variant and pack parsers never panic, whatever
//! the text (mutations of the shipped files and arbitrary text).

use super::*;

/// Text made of a real file with a few random edits: at a random place,
/// delete up to 3 characters and insert up to 4, drawn mostly from the
/// characters that matter to the format.
fn mutated(originals: Vec<String>) -> impl Strategy<Value = String> {
    let insert = prop_oneof![
        "[#.T \\n\\r\\t\\[\\]{}=\"',#a-z0-9_\\-é]{0,4}",
        ".{0,4}",
        Just("\u{0}".to_string()),
    ];
    let edit = (any::<prop::sample::Index>(), 0usize..4, insert);
    (
        prop::sample::select(originals),
        prop::collection::vec(edit, 1..6),
    )
        .prop_map(|(original, edits)| {
            let mut chars: Vec<char> = original.chars().collect();
            for (at, delete, insert) in edits {
                let i = at.index(chars.len() + 1);
                let end = (i + delete).min(chars.len());
                chars.splice(i..end, insert.chars());
            }
            chars.into_iter().collect()
        })
}

/// Any text: arbitrary, or from the board alphabet, or mutated `originals`.
fn texts(originals: Vec<String>) -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), "[#.T \\n\\r]{0,60}", mutated(originals),]
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: 512,
        failure_persistence: None,
        ..Config::default()
    })
}

/// The `LINE:COL` after `path:` at the start of `message`, if any.
fn place(message: &str, path: &str) -> Option<(usize, usize)> {
    let rest = message.strip_prefix(path)?.strip_prefix(':')?;
    let mut parts = rest.splitn(3, ':');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

#[test]
fn board_parser_never_panics() {
    let boards = [
        "T\n",
        ".#.\n#T#\n.#.\n",
        "#####\n#...#\n#.T.#\n#...#\n#####\n",
        "..#..\n..#..\n##T##\n..#..\n..#..\n",
        "#.#\r\n.T.\r\n#.#\r\n",
        "\n\n  #T#  \n\n",
    ];
    let strategy = texts(boards.iter().map(|b| b.to_string()).collect());
    runner()
        .run(&strategy, |text| {
            match BoardMap::parse(&Source::new("board.txt", text.as_str())) {
                Ok(map) => {
                    // Exactly one `T`, and it is the origin.
                    prop_assert_eq!(text.matches('T').count(), 1);
                    prop_assert!(map.tiles.contains(&(0, 0)));
                }
                Err(e) => {
                    let message = format!("{e:#}");
                    prop_assert!(is_bad_input(&e), "not bad input: {}", message);
                    let (line, col) = place(&message, "board.txt")
                        .ok_or_else(|| TestCaseError::fail(format!("no place: {message}")))?;
                    prop_assert!(line >= 1 && line <= text.lines().count().max(1));
                    prop_assert!(col >= 1);
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn variant_loader_never_panics() {
    let variants = common::variants_dir();
    let originals: Vec<String> = std::fs::read_dir(&variants)
        .expect("variants/ exists")
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).expect("a readable variant"))
        .collect();
    assert!(!originals.is_empty());
    let tmp = Scratch::new("variant-fuzz");
    let path = tmp.path().join("fuzzed.toml");
    let reference = path.display().to_string();
    runner()
        .run(&texts(originals), |text| {
            std::fs::write(&path, &text).expect("write the variant");
            match load_variant(&variants, &reference) {
                Ok(v) => prop_assert!(!v.packs.is_empty()),
                Err(e) => {
                    let message = format!("{e:#}");
                    prop_assert!(is_bad_input(&e), "not bad input: {}", message);
                    prop_assert!(
                        place(&message, &reference).is_some(),
                        "no place: {}",
                        message
                    );
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn pack_loader_never_panics() {
    let rules = common::rules_dir();
    let originals: Vec<String> = ["tower", "black-tower", "house/no-gaps"]
        .iter()
        .map(|p| std::fs::read_to_string(rules.join(p).join("pack.toml")).expect("a manifest"))
        .collect();
    let tmp = Scratch::new("pack-fuzz");
    tmp.write("p/tower.rhai", "fn reach(tower) {\n    tower.height\n}\n");
    let reference = tmp.path().join("p").display().to_string();
    runner()
        .run(&texts(originals), |text| {
            tmp.write("p/pack.toml", &text);
            if let Err(e) = load_pack(&rules, &reference) {
                let message = format!("{e:#}");
                prop_assert!(is_bad_input(&e), "not bad input: {}", message);
            }
            Ok(())
        })
        .unwrap();
}
