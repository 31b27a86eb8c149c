//! A game's events in words for the page's list, each with the turn it
//! happened in and the ID of the rule (docs/rules.md) behind it, as
//! `play::words` tells them: each event told once, and said for each
//! reader (seats by name, the reader's own as "you").

use super::wire::EventLine;
use crate::kernel::{Event, Game};
use crate::play::words::{Names, Told, tell};
use crate::rules::Ruleset;

/// A game's events told so far, kept across its states so that each event
/// is told once (a game's events only grow).
#[derive(Default)]
pub struct Described {
    turn: u32,
    told: Vec<(u32, Told)>,
}

impl Described {
    /// Tell the events `game` has that are not told yet.
    pub fn update(&mut self, game: &Game, set: &Ruleset) {
        if game.events().len() < self.told.len() {
            *self = Described::default();
        }
        for e in &game.events()[self.told.len()..] {
            if matches!(e, Event::Tile { .. }) {
                self.turn += 1;
            }
            self.told.push((self.turn, tell(e, game, set)));
        }
    }

    /// Every event told so far, oldest first, said for the reader `names`
    /// serve.
    pub fn lines(&self, names: &Names) -> Vec<EventLine> {
        self.told
            .iter()
            .map(|(turn, told)| EventLine {
                turn: *turn,
                rule: told.rule.into(),
                text: names.say(&told.words),
            })
            .collect()
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
        let load = crate::rules::LoadOptions::unit_tests();
        let set = Ruleset::from_variant(&Home::shipped(), &load, "black-tower").unwrap();
        let rules = set.rules();
        let mut kept = Described::default();
        let game = sim::play_observed(
            set.tiles(),
            rules.as_ref(),
            &[BotKind::GREEDY; 2],
            set.worths(),
            5,
            |g| {
                kept.update(g, &set);
                Ok(())
            },
        )
        .unwrap();
        let names = Names::numbered(2);
        let mut once = Described::default();
        once.update(&game, &set);
        let at_once = once.lines(&names);
        assert!(at_once.len() > 100);
        kept.update(&game, &set);
        assert_eq!(kept.lines(&names), at_once);
        assert_eq!(at_once.last().unwrap().turn, game.stats().turns);
    }
}
