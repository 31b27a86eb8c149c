//! A game's events in words, each with the ID of the rule (docs/rules.md) behind
//! it: the one describer of the report's sample game and the browser's list
//! of events. Seats are parts of the words (`seats`), named when the words
//! are said — by number in pictures ("player 1"), by name in the browser,
//! and as "you" on the page of the seat concerned; tiles are named in
//! words, and a tile's segments by where they lie (`tiles`); a decision's
//! options too (`options`).

mod options;
mod seats;
mod tiles;

pub use options::{option_words, placed};
pub use seats::{Names, Words};
pub use tiles::{segment_words, tile_words};

use crate::kernel::geometry::Pos;
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{CaptureOutcome, Event, Game, MeepleOn, MeepleSpot, Scored};
use crate::rules::Ruleset;

/// An event told: the rule behind it (`G1`…, `T5`…, or `pack` for what a
/// variant's own rule did) and what happened, its seats named when said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    pub rule: &'static str,
    pub words: Words,
}

/// `e`, an event of `game` under `set`, in words.
pub fn tell(e: &Event, game: &Game, set: &Ruleset) -> Told {
    tell_action(e, game, set).unwrap_or_else(|| tell_outcome(e, game))
}

fn told(rule: &'static str, words: Words) -> Told {
    Told { rule, words }
}

/// A cell as events write it: `1,-2`.
fn cell(pos: Pos) -> String {
    format!("{},{}", pos.x, pos.y)
}

/// What a player did in their turn: a tile placed or discarded, a meeple
/// put, a floor built; `None` for what followed from it.
fn tell_action(e: &Event, game: &Game, set: &Ruleset) -> Option<Told> {
    let tile = |k: u16| tile_words(&game.tiles().kinds[k as usize]);
    Some(match e {
        Event::Tile {
            player,
            kind,
            pos,
            rot,
        } => told(
            "G1",
            Words::default()
                .does(*player, "places", "place")
                .and(format!(" {} at {}", tile(*kind), cell(*pos)))
                .and(match rot {
                    0 => String::new(),
                    r => format!(", turned {}°", *r as u32 * 90),
                }),
        ),
        Event::Discard { kind } => told(
            "G1",
            Words::text(format!("{} fits nowhere and is put aside", tile(*kind))),
        ),
        Event::Meeple {
            player,
            pos,
            spot,
            on,
        } => told(
            if *on == MeepleOn::Tower { "T3" } else { "G3" },
            Words::default().does(*player, "puts", "put").and(format!(
                " a meeple {} at {}",
                spot_words(game, *pos, *spot, *on),
                cell(*pos)
            )),
        ),
        Event::Floor {
            player,
            pos,
            kind,
            floors,
            table,
        } => told(
            "T3",
            Words::default().does(*player, "adds", "add").and(format!(
                " a {} floor{} to the tower at {} ({} floor{})",
                set.floors()
                    .get(*kind as usize)
                    .map_or("?", |d| d.name.as_str()),
                if *table { " from the table" } else { "" },
                cell(*pos),
                floors.len(),
                if floors.len() == 1 { "" } else { "s" }
            )),
        ),
        _ => return None,
    })
}

/// A capture, and what became of the meeple taken (T5, or the variant's
/// own rule when it did not become a prisoner).
fn tell_capture(e: &Event, game: &Game) -> Option<Told> {
    let Event::Capture {
        player,
        tower,
        at,
        spot,
        on,
        owner,
        outcome,
        ..
    } = e
    else {
        return None;
    };
    let takes = Words::text(format!("capture: the tower at {} takes ", cell(*tower)));
    let (rule, whose) = if owner == player {
        (
            "T5",
            takes.whose(*player).and(" own meeple, which goes home"),
        )
    } else {
        let whose = takes.whose(*owner);
        match outcome {
            None | Some(CaptureOutcome::Prisoner) => ("T5", whose.and(" meeple, now a prisoner")),
            Some(CaptureOutcome::Home) => {
                ("pack", whose.and(" meeple, which goes back to its owner"))
            }
            Some(CaptureOutcome::Gone) => ("pack", whose.and(" meeple, which leaves the game")),
        }
    };
    Some(told(
        rule,
        whose.and(format!(
            " ({} at {})",
            spot_words(game, *at, *spot, *on),
            cell(*at)
        )),
    ))
}

/// What a turn's placements or the end of the game led to: captures,
/// exchanges, ransoms, scores.
fn tell_outcome(e: &Event, game: &Game) -> Told {
    if let Some(t) = tell_capture(e, game) {
        return t;
    }
    match e {
        Event::Exchange { players } => told(
            "T10",
            Words::default()
                .seat(players[0])
                .and(" and ")
                .seat(players[1])
                .and(" exchange prisoners"),
        ),
        Event::Ransom {
            player, to, cost, ..
        } => told(
            "T11",
            Words::default()
                .does(*player, "pays", "pay")
                .and(" ")
                .seat(*to)
                .and(format!(" a ransom of {cost} points")),
        ),
        Event::Score {
            player,
            points,
            feature: Scored::Feature(kind),
            rule,
        } => told(
            score_rule(*kind),
            Words::default()
                .does(*player, "scores", "score")
                .and(format!(
                    " {points} point{} for a {}{}",
                    if *points == 1 { "" } else { "s" },
                    kind.name(),
                    rule.as_ref()
                        .map(|r| format!(", as {r} counts it"))
                        .unwrap_or_default()
                )),
        ),
        Event::Score {
            player,
            points,
            feature: Scored::Rule(name),
            rule: None,
        } => told(
            "pack",
            Words::default()
                .does(*player, "scores", "score")
                .and(format!(" {points} at the end for {name}")),
        ),
        Event::Score {
            player,
            points,
            feature: Scored::Rule(name),
            rule: Some(rule),
        } => told(
            "pack",
            Words::text(format!("{rule}: "))
                .does(*player, "scores", "score")
                .and(format!(" {points} for {name}")),
        ),
        Event::FloorAdded {
            rule,
            pos,
            floors,
            from,
            ..
        } => {
            let words = Words::text(format!(
                "{rule}: the tower at {} rises to {} floor{}",
                cell(*pos),
                floors.len(),
                if floors.len() == 1 { "" } else { "s" },
            ));
            told(
                "pack",
                match from {
                    Some(s) => words.and(", a floor from ").whose(*s).and(" supply"),
                    None => words,
                },
            )
        }
        Event::FloorRemoved {
            rule, pos, floors, ..
        } => told(
            "pack",
            Words::text(format!(
                "{rule}: the tower at {} loses its top floor ({} left)",
                cell(*pos),
                floors.len()
            )),
        ),
        Event::SentHome {
            rule,
            pos,
            on,
            spot,
            owner,
        }
        | Event::Placed {
            rule,
            pos,
            on,
            spot,
            owner,
        } => told(
            "pack",
            Words::text(format!("{rule}: ")).whose(*owner).and(format!(
                " meeple {} at {} {}",
                spot_words(game, *pos, *spot, *on),
                cell(*pos),
                match e {
                    Event::Placed { .. } => "is placed",
                    _ => "goes home",
                }
            )),
        ),
        Event::State {
            rule,
            name,
            seat: who,
            at,
            value,
        } => {
            let words = Words::text(format!("{rule}: {name}"));
            let words = match (who, at) {
                (Some(s), _) => words.and(" of ").seat(*s),
                (_, Some([x, y])) => words.and(format!(" at {x},{y}")),
                _ => words,
            };
            told("pack", words.and(format!(" is now {value}")))
        }
        Event::Blocked { rule, pos, blocked } => told(
            "pack",
            Words::text(format!(
                "{rule}: the tower at {} is {}",
                cell(*pos),
                if *blocked { "blocked" } else { "open again" }
            )),
        ),
        Event::Imprisoned {
            rule,
            pos,
            on,
            spot,
            owner,
            captor,
        } => told(
            "pack",
            Words::text(format!("{rule}: "))
                .whose(*owner)
                .and(format!(
                    " meeple {} at {} becomes the prisoner of ",
                    spot_words(game, *pos, *spot, *on),
                    cell(*pos)
                ))
                .seat(*captor),
        ),
        Event::Topped { rule, pos, owner } => told(
            "pack",
            Words::text(format!("{rule}: ")).whose(*owner).and(format!(
                " meeple goes on top of the tower at {}",
                cell(*pos)
            )),
        ),
        Event::Figure { rule, name, at } => told(
            "pack",
            Words::text(match at {
                Some([x, y]) => format!("{rule}: {} now stands at {x},{y}", figure_name(name)),
                None => format!("{rule}: {} leaves the board", figure_name(name)),
            }),
        ),
        Event::Strength {
            rule,
            pos,
            spot,
            owner,
            strength,
        } => told(
            "pack",
            Words::text(format!("{rule}: ")).whose(*owner).and(format!(
                " meeple {} at {} counts for {strength} in the majority",
                spot_words(game, *pos, *spot, MeepleOn::Feature(SegmentKind::Road)),
                cell(*pos)
            )),
        ),
        Event::FinalScoring => told(
            "G4",
            Words::text("the tiles are all placed: end-game scoring of what is unfinished"),
        ),
        Event::End { scores } => {
            let mut words = Words::text("final scores: ");
            for (p, s) in scores.iter().enumerate() {
                if p > 0 {
                    words = words.and(", ");
                }
                words = words.seat(p).and(format!(" {s}"));
            }
            told("G2", words)
        }
        // Told by `tell_action` and `tell_capture`.
        Event::Tile { .. }
        | Event::Discard { .. }
        | Event::Meeple { .. }
        | Event::Floor { .. }
        | Event::Capture { .. } => told("", Words::default()),
    }
}

/// Where a meeple stands, as events say it: "on top of the tower", "on the
/// field north of the road" (a segment named by where it lies on its tile).
pub(crate) fn spot_words(game: &Game, pos: Pos, spot: MeepleSpot, on: MeepleOn) -> String {
    match spot {
        MeepleSpot::Tower => "on top of the tower".to_string(),
        MeepleSpot::Segment(s) => format!("on {}", on_segment(game, pos, s, on)),
    }
}

/// Segment `s` of the tile at `pos`, named by where it lies (by its kind
/// `on` alone where no tile is there).
pub(crate) fn on_segment(game: &Game, pos: Pos, s: u8, on: MeepleOn) -> String {
    match game.board().tile_at(pos) {
        Some(t) => segment_words(&game.tiles().kinds[t.kind as usize], t.rot, s),
        None => format!("a {}", on.name()),
    }
}

/// A figure as events name it: "the warden" for `pack.warden`.
pub(crate) fn figure_name(name: &str) -> String {
    let short = name.rsplit_once('.').map_or(name, |(_, n)| n);
    format!("the {}", short.replace(['_', '-'], " "))
}

/// The rule a feature's score follows.
fn score_rule(feature: SegmentKind) -> &'static str {
    match feature {
        SegmentKind::Road => "G4",
        SegmentKind::City => "G5",
        SegmentKind::Cloister => "G6",
        SegmentKind::Field | SegmentKind::Foundation => "G8",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::bots::BotKind;
    use crate::play::sim;
    use crate::rules::{Home, LoadOptions};

    fn tower() -> Ruleset {
        let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        Ruleset::from_variant(&home, &LoadOptions::unit_tests(), "tower")
            .expect("the shipped variant loads")
    }

    /// A capture from the tower at 1,2 of a meeple on the tile at `at`.
    fn capture(at: Pos, owner: usize, outcome: Option<CaptureOutcome>) -> Event {
        Event::Capture {
            player: 0,
            tower: Pos::new(1, 2),
            floors: vec![0],
            at,
            spot: MeepleSpot::Segment(0),
            on: MeepleOn::Feature(SegmentKind::City),
            owner,
            outcome,
        }
    }

    #[test]
    fn every_event_of_a_game_is_told_with_its_rule() {
        let set = tower();
        let rules = set.rules();
        let game = sim::play(&set, rules.as_ref(), &[BotKind::GREEDY; 2], 3, true).expect("a game");
        let numbered = Names::numbered(2);
        for e in game.events() {
            let t = tell(e, &game, &set);
            assert!(
                !numbered.say(&t.words).is_empty() && !t.rule.is_empty(),
                "{e:?}: {t:?}"
            );
        }
        let last = tell(game.events().last().unwrap(), &game, &set);
        assert_eq!(last.rule, "G2");
        assert!(
            numbered
                .say(&last.words)
                .starts_with("final scores: player 1 "),
            "{last:?}"
        );
    }

    /// Every seat an event mentions is a part of its words: said with
    /// names, no event says "player N"; said to a seat, its own events
    /// say "you".
    #[test]
    fn events_name_seats_by_their_names_and_the_reader_as_you() {
        let set = tower();
        let rules = set.rules();
        let game = sim::play(&set, rules.as_ref(), &[BotKind::GREEDY; 2], 5, true).expect("a game");
        let names = Names::new(vec!["Ana".into(), "Bo".into()]);
        let told: Vec<Told> = game.events().iter().map(|e| tell(e, &game, &set)).collect();
        for t in &told {
            let said = names.say(&t.words);
            assert!(!said.contains("player"), "{said}");
            let to_ana = names.addressing(Some(0)).say(&t.words);
            if t.words.seats().any(|p| p == 0) {
                assert!(
                    to_ana.contains("you") && !to_ana.contains("Ana"),
                    "{to_ana}"
                );
            } else {
                assert_eq!(to_ana, said);
            }
        }
        let placed = told.iter().find(|t| t.rule == "G1").unwrap();
        assert!(
            names
                .addressing(Some(0))
                .say(&placed.words)
                .starts_with("you place ")
        );
        let end = names.addressing(Some(1)).say(&told.last().unwrap().words);
        assert!(
            end.starts_with("final scores: Ana ") && end.contains(", you "),
            "{end}"
        );
    }

    /// A rule's effects name the seats they touch as every event does:
    /// by name, and "you" to the seat concerned.
    #[test]
    fn a_rules_effects_name_seats_as_events_do() {
        let set = tower();
        let rules = set.rules();
        let game = sim::play(&set, rules.as_ref(), &[BotKind::RANDOM; 2], 1, true).expect("a game");
        let effects = [
            Event::Score {
                player: 1,
                points: 2,
                feature: Scored::Rule("tithe".into()),
                rule: Some("tithe".into()),
            },
            Event::FloorAdded {
                rule: "bell".into(),
                pos: Pos::new(1, 2),
                kind: 0,
                floors: vec![0, 0],
                from: Some(1),
                table: false,
            },
            Event::SentHome {
                rule: "warden".into(),
                pos: Pos::ORIGIN,
                on: MeepleOn::Feature(SegmentKind::Road),
                spot: MeepleSpot::Segment(0),
                owner: 1,
            },
            Event::State {
                rule: "tithe".into(),
                name: "owed".into(),
                seat: Some(1),
                at: None,
                value: crate::kernel::game::StateValue {
                    value: 3,
                    boolean: false,
                },
            },
        ];
        let names = Names::new(vec!["Ana".into(), "Bo".into()]);
        for e in &effects {
            let told = tell(e, &game, &set);
            assert_eq!(told.rule, "pack");
            let said = names.say(&told.words);
            assert!(said.contains("Bo") && !said.contains("player"), "{said}");
            let to_bo = names.addressing(Some(1)).say(&told.words);
            assert!(to_bo.contains("you") && !to_bo.contains("Bo"), "{to_bo}");
        }
    }

    #[test]
    fn a_capture_says_what_became_of_the_meeple_and_whose_rule_that_was() {
        let set = tower();
        let rules = set.rules();
        let game = sim::play(&set, rules.as_ref(), &[BotKind::RANDOM; 2], 1, true).expect("a game");
        let start = Pos::ORIGIN;
        let told = |owner, outcome| tell(&capture(start, owner, outcome), &game, &set);
        let numbered = Names::numbered(2);
        let prisoner = told(1, None);
        assert_eq!(prisoner.rule, "T5");
        let tile = game.board().tile_at(start).unwrap();
        let at = segment_words(&game.tiles().kinds[tile.kind as usize], tile.rot, 0);
        assert_eq!(
            numbered.say(&prisoner.words),
            format!(
                "capture: the tower at 1,2 takes player 2's meeple, now a prisoner (on {at} at 0,0)"
            )
        );
        let own = told(0, None);
        assert_eq!(own.rule, "T5");
        assert!(
            numbered
                .say(&own.words)
                .contains("player 1's own meeple, which goes home")
        );
        assert!(
            numbered
                .addressing(Some(0))
                .say(&own.words)
                .contains("takes your own meeple, which goes home")
        );
        let home = numbered.say(&told(1, Some(CaptureOutcome::Home)).words);
        assert_eq!(told(1, Some(CaptureOutcome::Home)).rule, "pack");
        assert!(home.contains("goes back to its owner"), "{home}");
        let gone = told(1, Some(CaptureOutcome::Gone));
        assert_eq!(gone.rule, "pack");
        assert!(numbered.say(&gone.words).contains("leaves the game"));
    }
}
