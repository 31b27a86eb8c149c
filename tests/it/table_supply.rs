//! Floors the table holds (`held = "table"` on a floor kind): one stock
//! every seat builds from, taken by effects, read by hooks, set and
//! expected by scenarios, logged, replayed and shown in pictures.

use crate::common::{Scratch, ScratchFile, log_records, refused, stdout, succeeds};

/// A pack over The Tower adding a table-held `stone` kind (`held`), 2 of
/// it a player, with `script` after its `setup`.
fn stone_pack(dir: &Scratch, name: &str, held: &str, script: &str) -> String {
    let manifest = format!(
        "[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"{name}.rhai\"\n\
         [[floor]]\nname = \"stone\"\nheld = \"{held}\"\n"
    );
    let script = format!(
        "fn setup(players, foundations) {{ let s = previous(players, foundations); \
         s.stone = 2 * players; s }}\n{script}"
    );
    dir.pack(name, &manifest, &[(&format!("{name}.rhai"), &script)])
}

#[test]
fn seats_build_from_the_tables_stock_until_it_runs_out() {
    let log = ScratchFile::new("quarry.jsonl");
    succeeds(&[
        "simulate",
        "--packs",
        "tower,docs/examples/quarry",
        "--games",
        "6",
        "--bots",
        "greedy",
        "--log",
        log.path(),
    ]);
    let records = log_records(&log.read());
    let mut games = 0;
    let mut from_table = 0;
    for r in &records {
        match r["event"].as_str() {
            Some("start") => games += 1,
            Some("floor") if r["kind"] == "stone" => {
                assert_eq!(r["table"], true, "{r}");
                from_table += 1;
            }
            Some("floor") => assert!(r.get("table").is_none(), "{r}"),
            _ => {}
        }
    }
    assert_eq!(games, 6);
    // 4 stones for 2 players: never more taken from the table in a game.
    assert!(from_table > 0 && from_table <= 4 * games, "{from_table}");
    succeeds(&["replay", log.path()]);
    let svg = stdout(&succeeds(&["render", "--log", log.path()]));
    assert!(svg.contains("the table holds: "), "the stock is shown");
}

#[test]
fn a_rule_reads_the_stock_and_adds_floors_from_it() {
    let dir = Scratch::new("stock");
    // Each turn's end: while the stock lasts, the tower built last takes a
    // stone from it.
    let pack = stone_pack(
        &dir,
        "landslide",
        "table",
        "fn on_turn_end(event) {\n  let at = game().last_tower;\n  \
         if at == () || game().table_floors(\"stone\") == 0 { return (); }\n  \
         add_floor(at[0], at[1], \"stone\", \"table\")\n}\n",
    );
    let log = ScratchFile::new("landslide.jsonl");
    succeeds(&[
        "play",
        "--packs",
        &format!("tower,{pack}"),
        "--seed",
        "3",
        "--bots",
        "greedy",
        "--log",
        log.path(),
    ]);
    let records = log_records(&log.read());
    let added: Vec<_> = records
        .iter()
        .filter(|r| r["event"] == "floor_added")
        .collect();
    let taken = records
        .iter()
        .filter(|r| r["event"] == "floor" && r["kind"] == "stone")
        .count();
    assert!(!added.is_empty());
    assert!(
        added
            .iter()
            .all(|r| r["table"] == true && r["kind"] == "stone")
    );
    assert_eq!(added.len() + taken, 4, "the whole stock used, no more");
    succeeds(&["replay", log.path()]);
}

#[test]
fn table_floors_are_refused_clearly() {
    let dir = Scratch::new("bad-stock");
    let held = stone_pack(&dir, "held", "tabel", "");
    let err = refused(&["play", "--packs", &format!("tower,{held}")]);
    assert!(
        err.contains("`held = \"tabel\"` is not `seat` or `table`")
            && err.contains("did you mean `table`"),
        "{err}"
    );
    assert!(err.contains("pack.toml:"), "{err}");
    let empty = stone_pack(
        &dir,
        "empty",
        "table",
        "fn on_floor_built(event) {\n  let n = game().table_floors(\"stone\");\n  \
         let e = [];\n  for i in 0..n + 1 { e.push(add_floor(event.x, event.y, \"stone\", \"table\")); }\n  e\n}\n",
    );
    let err = refused(&[
        "play",
        "--packs",
        &format!("tower,{empty}"),
        "--bots",
        "greedy",
    ]);
    assert!(
        err.contains("the table holds no floor of that kind"),
        "{err}"
    );
    let word = stone_pack(
        &dir,
        "word",
        "table",
        "fn on_turn_end(event) { add_floor(0, 0, \"stone\", \"box\") }\n",
    );
    let err = refused(&["play", "--packs", &format!("tower,{word}"), "--seed", "1"]);
    assert!(err.contains("a seat or \"table\", not \"box\""), "{err}");
}
