//! A game's events in words for the page's list, each with the turn it
//! happened in and the ID of the rule (RULES.md) behind it.

use serde_json::{Value, json};

use crate::kernel::tiles::SegmentKind;
use crate::kernel::{Event, Game, MeepleOn};
use crate::rules::Ruleset;

/// A game's events described so far, kept across its states so that each
/// event is described once (a game's events only grow).
#[derive(Default)]
pub struct Described {
    turn: u32,
    values: Vec<Value>,
}

impl Described {
    /// Describe the events `game` has that are not described yet; every
    /// event so far, oldest first.
    pub fn update(&mut self, game: &Game, set: &Ruleset) -> &[Value] {
        if game.events().len() < self.values.len() {
            *self = Described::default();
        }
        for e in &game.events()[self.values.len()..] {
            if matches!(e, Event::Tile { .. }) {
                self.turn += 1;
            }
            let (rule, text) = describe(e, game, set);
            let turn = self.turn;
            self.values
                .push(json!({"turn": turn, "rule": rule, "text": text}));
        }
        &self.values
    }
}

fn seat(p: usize) -> String {
    format!("player {}", p + 1)
}

fn floors(set: &Ruleset, stack: &[u8]) -> String {
    let names: Vec<&str> = stack
        .iter()
        .map(|&k| set.floors.get(k as usize).map_or("?", |f| f.name.as_str()))
        .collect();
    names.join(", ")
}

fn describe(e: &Event, game: &Game, set: &Ruleset) -> (&'static str, String) {
    let tile = |k: u16| game.tiles().kinds[k as usize].name.clone();
    match e {
        Event::Tile {
            player,
            kind,
            pos,
            rot,
        } => (
            "G1",
            format!(
                "{} places {} at {pos} turned {}°",
                seat(*player),
                tile(*kind),
                *rot as u32 * 90
            ),
        ),
        Event::Discard { kind } => ("G1", format!("{} fits nowhere: discarded", tile(*kind))),
        Event::Meeple {
            player, pos, on, ..
        } => {
            let rule = if *on == MeepleOn::Tower { "T3" } else { "G3" };
            (
                rule,
                format!(
                    "{} puts a meeple on the {} at {pos}",
                    seat(*player),
                    on.name()
                ),
            )
        }
        Event::Floor {
            player, pos, kind, ..
        } => (
            "T3",
            format!(
                "{} builds a {} floor on the tower at {pos}",
                seat(*player),
                floors(set, &[*kind])
            ),
        ),
        Event::Capture {
            player,
            tower,
            at,
            on,
            owner,
            ..
        } => (
            "T5",
            format!(
                "{} captures {}'s meeple on the {} at {at} from the tower at {tower}",
                seat(*player),
                seat(*owner),
                on.name()
            ),
        ),
        Event::Exchange { players } => (
            "T10",
            format!(
                "{} and {} exchange prisoners",
                seat(players[0]),
                seat(players[1])
            ),
        ),
        Event::Ransom {
            player, to, cost, ..
        } => (
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
            feature,
        } => (
            score_rule(*feature),
            format!(
                "{} scores {points} for a {}",
                seat(*player),
                MeepleOn::Feature(*feature).name()
            ),
        ),
        Event::RuleScore {
            player,
            points,
            feature,
        } => (
            "pack",
            format!(
                "{} scores {points} for {feature} (the variant's end-of-game rule)",
                seat(*player)
            ),
        ),
        Event::End { scores } => (
            "G2",
            format!(
                "game over: {}",
                scores
                    .iter()
                    .enumerate()
                    .map(|(p, s)| format!("{} {s}", seat(p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    }
}

fn score_rule(feature: SegmentKind) -> &'static str {
    match MeepleOn::Feature(feature).name() {
        "road" => "G4",
        "city" => "G5",
        "cloister" => "G6",
        _ => "G8",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::bots::BotKind;
    use crate::play::sim;
    use crate::rules::Home;

    /// Described turn by turn, kept across the turns, the events read as
    /// described all at once at the end.
    #[test]
    fn events_described_as_they_come_read_as_all_at_once() {
        // Unit tests run without the counting allocator.
        let home = Home::shipped().with_memory_limit(crate::rules::MemoryLimit::Off);
        let set = Ruleset::from_variant(&home, "black-tower").unwrap();
        let rules = set.rules();
        let mut kept = Described::default();
        let game = sim::play_observed(&set.tiles, rules.as_ref(), &[BotKind::Greedy; 2], 5, |g| {
            kept.update(g, &set);
            Ok(())
        })
        .unwrap();
        let at_once = Described::default().update(&game, &set).to_vec();
        assert!(at_once.len() > 100);
        assert_eq!(kept.update(&game, &set), at_once.as_slice());
        assert_eq!(at_once.last().unwrap()["turn"], game.stats().turns);
    }
}
