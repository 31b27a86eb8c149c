//! What a pack may use, listed beside the studio's editor: every hook of
//! the one hook table (`script::HOOKS`: its name, parameters, whether it
//! reads the game, whether it is an event hook), each with its row of the
//! docs' tables; what a hook can read and the effects, as the docs list
//! them (docs/packs.md, docs/events.md, built into the binary). Nothing
//! here is a second list: a hook added to the table shows here, and a
//! line added to the docs too.

use super::super::wire::{EffectDoc, HookDoc, KeyDoc, Reference, ScenarioDoc, SegmentDoc, TileDoc};
use crate::kernel::tiles::{EdgeKind, TileSet};
use crate::play::words::{segment_words, tile_words};
use crate::rules::script::HOOKS;
use crate::rules::{Home, reference_tiles};
use crate::views::render::locate::tile_svg;
use crate::views::render::player_colour;

const PACKS_DOC: &str = include_str!("../../../docs/packs.md");
const EVENTS_DOC: &str = include_str!("../../../docs/events.md");
const SCENARIOS_DOC: &str = include_str!("../../../docs/scenarios.md");
/// The seats a game may have, whose colours the page is given.
const SEATS: usize = crate::kernel::MAX_PLAYERS;

/// The reference, from the hook table and the docs.
pub fn reference() -> Reference {
    let hooks = HOOKS
        .iter()
        .map(|spec| HookDoc {
            name: spec.name.to_string(),
            params: spec.params.iter().map(|p| p.to_string()).collect(),
            reads_game: spec.reads_game,
            event: spec.acts,
            doc: hook_row(spec.name).unwrap_or_default(),
        })
        .collect();
    Reference {
        hooks,
        reads: bullets(section(PACKS_DOC, "### What a hook can read")),
        effects: table_rows(section(EVENTS_DOC, "## Effects"))
            .into_iter()
            .filter_map(|cells| match cells.as_slice() {
                [call, does, refused] => Some(EffectDoc {
                    call: call.clone(),
                    does: does.clone(),
                    refused: refused.clone(),
                }),
                _ => None,
            })
            .collect(),
        scenario: scenario_doc(),
        tiles: reference_tiles(&Home::shipped())
            .map(|t| tile_docs(&t))
            .unwrap_or_default(),
        seat_colours: (0..SEATS).map(|p| player_colour(p).to_string()).collect(),
    }
}

/// The scenario file's keys from docs/scenarios.md: its first example, the
/// position's table and the expectations'.
fn scenario_doc() -> ScenarioDoc {
    let keys = |heading: &str| {
        table_rows(section(SCENARIOS_DOC, heading))
            .into_iter()
            .filter_map(|cells| match cells.as_slice() {
                [key, entry, does] => Some(KeyDoc {
                    key: key.trim_matches('`').to_string(),
                    entry: entry.clone(),
                    does: does.replace("\\|", "|"),
                }),
                _ => None,
            })
            .collect()
    };
    let example = SCENARIOS_DOC
        .split_once("```toml\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .map(|(code, _)| code.to_string())
        .unwrap_or_default();
    ScenarioDoc {
        example,
        position: keys("## The position"),
        expect: keys("## What must hold"),
    }
}

/// Every tile kind of `tiles`, with its picture and its segments in words.
fn tile_docs(tiles: &TileSet) -> Vec<TileDoc> {
    tiles
        .kinds
        .iter()
        .map(|k| TileDoc {
            name: k.name.clone(),
            words: tile_words(k),
            svg: tile_svg(k, 0),
            segments: (0..k.segments.len() as u8)
                .map(|s| SegmentDoc {
                    kind: k.segments[usize::from(s)].kind.name().to_string(),
                    words: (0..4).map(|rot| segment_words(k, rot, s)).collect(),
                })
                .collect(),
            edges: k.rotations[0]
                .edges
                .iter()
                .map(|e| {
                    match e {
                        EdgeKind::City => "city",
                        EdgeKind::Road => "road",
                        EdgeKind::Field => "field",
                    }
                    .to_string()
                })
                .collect(),
        })
        .collect()
}

/// A hook's row of the docs' tables: the event hooks' own table first
/// (docs/events.md), then the hooks' (docs/packs.md), as `cell — cell`.
fn hook_row(name: &str) -> Option<String> {
    let tables = [
        section(EVENTS_DOC, "## Event hooks"),
        section(PACKS_DOC, "## Hooks"),
    ];
    let named = format!("`{name}`");
    tables.iter().find_map(|text| {
        table_rows(text)
            .into_iter()
            .find(|cells| {
                cells
                    .first()
                    .is_some_and(|c| c.split(", ").any(|n| n == named))
            })
            .map(|cells| cells[1..].join(" — "))
    })
}

/// The text of a document from the heading `heading` to the next heading
/// of its level or higher.
fn section<'a>(doc: &'a str, heading: &str) -> &'a str {
    let Some(start) = doc.find(&format!("\n{heading}\n")) else {
        return "";
    };
    let body = &doc[start + heading.len() + 2..];
    let level = heading.chars().take_while(|c| *c == '#').count();
    let end = body
        .match_indices("\n#")
        .find(|(i, _)| {
            let hashes = body[i + 1..].chars().take_while(|c| *c == '#').count();
            hashes <= level && body[i + 1 + hashes..].starts_with(' ')
        })
        .map_or(body.len(), |(i, _)| i);
    &body[..end]
}

/// The rows of the first markdown table of `text` (no header, no rule),
/// each as its cells.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The top-level bullets of `text`, each with its continuation lines.
fn bullets(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("- ") {
            out.push(rest.to_string());
            inside = true;
        } else if inside && line.starts_with("  ") {
            if let Some(last) = out.last_mut() {
                last.push('\n');
                last.push_str(line.trim_start());
            }
        } else {
            inside = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::script::Hook;

    #[test]
    fn every_hook_of_the_table_is_listed_with_its_docs() {
        let r = reference();
        assert_eq!(r.hooks.len(), Hook::ALL.len());
        for (doc, hook) in r.hooks.iter().zip(Hook::ALL) {
            assert_eq!(doc.name, hook.name());
            assert!(!doc.doc.is_empty(), "no docs for hook `{}`", doc.name);
        }
        let on_capture = r.hooks.iter().find(|h| h.name == "on_capture").unwrap();
        assert!(
            on_capture.event && on_capture.doc.contains("captor"),
            "{on_capture:?}"
        );
        let range = r.hooks.iter().find(|h| h.name == "range").unwrap();
        assert!(!range.event && range.doc.contains("dx"), "{range:?}");
    }

    #[test]
    fn reads_and_effects_come_from_the_docs() {
        let r = reference();
        assert!(
            r.reads.iter().any(|b| b.contains("tower.height")),
            "{:?}",
            r.reads
        );
        assert!(r.reads.iter().any(|b| b.contains("state(name)")));
        for effect in ["points(", "add_floor(", "set_state(", "block("] {
            assert!(
                r.effects.iter().any(|e| e.call.contains(effect)),
                "{effect}: {:?}",
                r.effects
            );
        }
    }

    /// Every key of a scenario file is explained, with an entry, from the
    /// docs: the page shows the format without a second copy of it.
    #[test]
    fn the_scenario_format_comes_from_the_docs() {
        let s = reference().scenario;
        let keys = |list: &[KeyDoc]| list.iter().map(|k| k.key.clone()).collect::<Vec<_>>();
        let position = keys(&s.position);
        for key in [
            "tiles", "towers", "meeples", "scores", "current", "state", "steps",
        ] {
            assert!(position.contains(&key.to_string()), "{key}: {position:?}");
        }
        let tiles = s.position.iter().find(|k| k.key == "tiles").unwrap();
        assert!(tiles.entry.contains("rot = 90") && tiles.does.contains("degrees clockwise"));
        let meeples = s.position.iter().find(|k| k.key == "meeples").unwrap();
        assert!(meeples.does.contains("`segment = N`") && meeples.does.contains("FILE|PACK"));
        let expect = keys(&s.expect);
        for key in ["range", "capturable", "ransom", "events", "no_events"] {
            assert!(expect.contains(&key.to_string()), "{key}: {expect:?}");
        }
        assert!(
            s.example.starts_with("# my-pack/tests/range.toml")
                && s.example.contains("[scenario.expect]")
        );
    }

    /// The board's tiles: every kind of the reference set, with its picture
    /// and each segment told where it lies at every turn; seat colours for
    /// every seat a game may have.
    #[test]
    fn the_board_is_given_every_tile_with_its_segments_in_words() {
        let r = reference();
        let road = r.tiles.iter().find(|t| t.name == "base/RFr").unwrap();
        assert_eq!(road.words, "a straight road");
        assert!(road.svg.starts_with("<svg"), "{}", &road.svg[..40]);
        let the_road = road.segments.iter().find(|s| s.kind == "road").unwrap();
        assert_eq!(the_road.words[0], "the road from west to east");
        assert_eq!(the_road.words[1], "the road from north to south");
        assert_eq!(road.edges, ["field", "road", "field", "road"]);
        assert!(r.tiles.iter().any(|t| t.name == "tower/F"));
        assert_eq!(r.seat_colours.len(), crate::kernel::MAX_PLAYERS);
        assert_eq!(r.seat_colours[3], player_colour(3));
    }
}
