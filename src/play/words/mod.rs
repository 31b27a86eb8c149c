//! A game's events in words, each with the ID of the rule (docs/rules.md) behind
//! it: the one describer of the report's sample game and the browser's list
//! of events. Seats are numbered from 1, as in the pictures; tiles are
//! named in words (`tiles`); a decision's options too (`options`).

mod options;
mod tiles;

pub use options::{option_words, placed};
pub use tiles::tile_words;

use crate::kernel::tiles::SegmentKind;
use crate::kernel::{CaptureOutcome, Event, Game, MeepleOn, MeepleSpot, Scored};
use crate::rules::Ruleset;

/// An event told: the rule behind it (`G1`…, `T5`…, or `pack` for what a
/// variant's own rule did) and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    pub rule: &'static str,
    pub text: String,
}

/// `e`, an event of `game` under `set`, in words.
pub fn tell(e: &Event, game: &Game, set: &Ruleset) -> Told {
    tell_action(e, game, set).unwrap_or_else(|| tell_outcome(e))
}

fn told(rule: &'static str, text: String) -> Told {
    Told { rule, text }
}

fn seat(p: usize) -> String {
    format!("player {}", p + 1)
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
            format!(
                "{} places {} at {},{}{}",
                seat(*player),
                tile(*kind),
                pos.x,
                pos.y,
                match rot {
                    0 => String::new(),
                    r => format!(", turned {}°", *r as u32 * 90),
                }
            ),
        ),
        Event::Discard { kind } => told(
            "G1",
            format!("{} fits nowhere and is put aside", tile(*kind)),
        ),
        Event::Meeple {
            player,
            pos,
            spot,
            on,
        } => told(
            if *on == MeepleOn::Tower { "T3" } else { "G3" },
            format!(
                "{} puts a meeple {} at {},{}",
                seat(*player),
                spot_words(*spot, on.name()),
                pos.x,
                pos.y
            ),
        ),
        Event::Floor {
            player,
            pos,
            kind,
            floors,
        } => told(
            "T3",
            format!(
                "{} adds a {} floor to the tower at {},{} ({} floor{})",
                seat(*player),
                set.floors
                    .get(*kind as usize)
                    .map_or("?", |d| d.name.as_str()),
                pos.x,
                pos.y,
                floors.len(),
                if floors.len() == 1 { "" } else { "s" }
            ),
        ),
        _ => return None,
    })
}

/// A capture, and what became of the meeple taken (T5, or the variant's
/// own rule when it did not become a prisoner).
fn tell_capture(e: &Event) -> Option<Told> {
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
    let (rule, whose) = if owner == player {
        ("T5", "their own meeple, which goes home".to_string())
    } else {
        match outcome {
            None | Some(CaptureOutcome::Prisoner) => {
                ("T5", format!("{}'s meeple, now a prisoner", seat(*owner)))
            }
            Some(CaptureOutcome::Home) => (
                "pack",
                format!("{}'s meeple, which goes back to its owner", seat(*owner)),
            ),
            Some(CaptureOutcome::Gone) => (
                "pack",
                format!("{}'s meeple, which leaves the game", seat(*owner)),
            ),
        }
    };
    Some(told(
        rule,
        format!(
            "capture: the tower at {},{} takes {whose} ({} at {},{})",
            tower.x,
            tower.y,
            spot_words(*spot, on.name()),
            at.x,
            at.y
        ),
    ))
}

/// What a turn's placements or the end of the game led to: captures,
/// exchanges, ransoms, scores.
fn tell_outcome(e: &Event) -> Told {
    if let Some(t) = tell_capture(e) {
        return t;
    }
    match e {
        Event::Exchange { players } => told(
            "T10",
            format!(
                "players {} and {} exchange prisoners",
                players[0] + 1,
                players[1] + 1
            ),
        ),
        Event::Ransom {
            player, to, cost, ..
        } => told(
            "T11",
            format!(
                "{} pays {} a ransom of {cost} points",
                seat(*player),
                seat(*to)
            ),
        ),
        Event::Score {
            player,
            points,
            feature: Scored::Feature(kind),
            ..
        } => told(
            score_rule(*kind),
            format!(
                "{} scores {points} point{} for a {}",
                seat(*player),
                if *points == 1 { "" } else { "s" },
                kind.name()
            ),
        ),
        Event::Score {
            player,
            points,
            feature: Scored::Rule(name),
            rule: None,
        } => told(
            "pack",
            format!("{} scores {points} at the end for {name}", seat(*player)),
        ),
        Event::Score {
            player,
            points,
            feature: Scored::Rule(name),
            rule: Some(rule),
        } => told(
            "pack",
            format!("{rule}: {} scores {points} for {name}", seat(*player)),
        ),
        Event::FloorAdded {
            rule,
            pos,
            floors,
            from,
            ..
        } => told(
            "pack",
            format!(
                "{rule}: the tower at {},{} rises to {} floor{}{}",
                pos.x,
                pos.y,
                floors.len(),
                if floors.len() == 1 { "" } else { "s" },
                from.map_or(String::new(), |s| format!(
                    ", a floor from {}'s supply",
                    seat(s)
                ))
            ),
        ),
        Event::FloorRemoved {
            rule, pos, floors, ..
        } => told(
            "pack",
            format!(
                "{rule}: the tower at {},{} loses its top floor ({} left)",
                pos.x,
                pos.y,
                floors.len()
            ),
        ),
        Event::SentHome {
            rule,
            pos,
            on,
            spot,
            owner,
        } => told(
            "pack",
            format!(
                "{rule}: {}'s meeple {} at {},{} goes home",
                seat(*owner),
                spot_words(*spot, on.name()),
                pos.x,
                pos.y
            ),
        ),
        Event::State {
            rule,
            name,
            seat: who,
            at,
            value,
        } => told(
            "pack",
            format!(
                "{rule}: {name}{} is now {value}",
                match (who, at) {
                    (Some(s), _) => format!(" of {}", seat(*s)),
                    (_, Some([x, y])) => format!(" at {x},{y}"),
                    _ => String::new(),
                }
            ),
        ),
        Event::Blocked { rule, pos, blocked } => told(
            "pack",
            format!(
                "{rule}: the tower at {},{} is {}",
                pos.x,
                pos.y,
                if *blocked { "blocked" } else { "open again" }
            ),
        ),
        Event::FinalScoring => told(
            "G4",
            "the tiles are all placed: end-game scoring of what is unfinished".to_string(),
        ),
        Event::End { scores } => told(
            "G2",
            format!(
                "final scores: {}",
                scores
                    .iter()
                    .enumerate()
                    .map(|(p, s)| format!("{} {s}", seat(p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        // Told by `tell_action` and `tell_capture`.
        Event::Tile { .. }
        | Event::Discard { .. }
        | Event::Meeple { .. }
        | Event::Floor { .. }
        | Event::Capture { .. } => told("", String::new()),
    }
}

fn spot_words(spot: MeepleSpot, on: &str) -> String {
    match spot {
        MeepleSpot::Tower => "on top of the tower".to_string(),
        MeepleSpot::Segment(_) => format!("on a {on}"),
    }
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
    use crate::kernel::geometry::Pos;
    use crate::play::bots::BotKind;
    use crate::play::sim;
    use crate::rules::{Home, MemoryLimit};

    fn tower() -> Ruleset {
        let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
            .with_memory_limit(MemoryLimit::Off);
        Ruleset::from_variant(&home, "tower").expect("the shipped variant loads")
    }

    fn capture(owner: usize, outcome: Option<CaptureOutcome>) -> Event {
        Event::Capture {
            player: 0,
            tower: Pos::new(1, 2),
            floors: vec![0],
            at: Pos::new(1, 4),
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
        let game = sim::play(&set, rules.as_ref(), &[BotKind::Greedy; 2], 3, true).expect("a game");
        for e in game.events() {
            let t = tell(e, &game, &set);
            assert!(!t.text.is_empty() && !t.rule.is_empty(), "{e:?}: {t:?}");
        }
        let last = tell(game.events().last().unwrap(), &game, &set);
        assert_eq!(last.rule, "G2");
        assert!(last.text.starts_with("final scores: player 1 "), "{last:?}");
    }

    #[test]
    fn a_capture_says_what_became_of_the_meeple_and_whose_rule_that_was() {
        let set = tower();
        let rules = set.rules();
        let game = sim::play(&set, rules.as_ref(), &[BotKind::Random; 2], 1, true).expect("a game");
        let told = |owner, outcome| tell(&capture(owner, outcome), &game, &set);
        let prisoner = told(1, None);
        assert_eq!(prisoner.rule, "T5");
        assert_eq!(
            prisoner.text,
            "capture: the tower at 1,2 takes player 2's meeple, now a prisoner (on a city at 1,4)"
        );
        let own = told(0, None);
        assert_eq!(own.rule, "T5");
        assert!(own.text.contains("their own meeple, which goes home"));
        let home = told(1, Some(CaptureOutcome::Home));
        assert_eq!(home.rule, "pack");
        assert!(home.text.contains("goes back to its owner"), "{home:?}");
        let gone = told(1, Some(CaptureOutcome::Gone));
        assert_eq!(gone.rule, "pack");
        assert!(gone.text.contains("leaves the game"), "{gone:?}");
    }
}
