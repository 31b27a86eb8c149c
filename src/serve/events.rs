//! A game's events in words for the page's list, each with the turn it
//! happened in and the ID of the rule (docs/rules.md) behind it, as
//! `play::words` tells them.

use super::wire::EventLine;
use crate::kernel::{Event, Game};
use crate::play::words::tell;
use crate::rules::Ruleset;

/// A game's events described so far, kept across its states so that each
/// event is described once (a game's events only grow).
#[derive(Default)]
pub struct Described {
    turn: u32,
    lines: Vec<EventLine>,
}

impl Described {
    /// Describe the events `game` has that are not described yet; every
    /// event so far, oldest first.
    pub fn update(&mut self, game: &Game, set: &Ruleset) -> &[EventLine] {
        if game.events().len() < self.lines.len() {
            *self = Described::default();
        }
        for e in &game.events()[self.lines.len()..] {
            if matches!(e, Event::Tile { .. }) {
                self.turn += 1;
            }
            let told = tell(e, game, set);
            self.lines.push(EventLine {
                turn: self.turn,
                rule: told.rule.into(),
                text: told.text,
            });
        }
        &self.lines
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
        let game = sim::play_observed(
            &set.tiles,
            rules.as_ref(),
            &[BotKind::Greedy; 2],
            &set.worths,
            5,
            |g| {
                kept.update(g, &set);
                Ok(())
            },
        )
        .unwrap();
        let at_once = Described::default().update(&game, &set).to_vec();
        assert!(at_once.len() > 100);
        assert_eq!(kept.update(&game, &set), at_once.as_slice());
        assert_eq!(at_once.last().unwrap().turn, game.stats().turns);
    }
}
