//! A game's events in words for the page's list, each with the turn it
//! happened in and the ID of the rule (docs/rules.md) behind it, as
//! `play::words` tells them: each event told once, and said for each
//! reader (seats by name, the reader's own as "you"). A floor is followed
//! by a line for each meeple it reached that a rule spared ("the tower
//! reaches Bo's meeple (on the road …), but no-road-captures spares it"),
//! which the session found as the floor was placed (`Session::spared`).

use super::wire::EventLine;
use crate::kernel::{Event, Game};
use crate::play::words::{Names, Told, tell};
use crate::rules::Ruleset;

/// A game's events told so far, kept across its states so that each event
/// is told once (a game's events only grow).
#[derive(Default)]
pub struct Described {
    turn: u32,
    /// The events told so far.
    events: usize,
    told: Vec<(u32, Told)>,
}

impl Described {
    /// Tell the events `game` has that are not told yet, each floor
    /// followed by the meeples `spared` lists for its event (the index of
    /// the event, and the spared meeple told).
    pub fn update(&mut self, game: &Game, set: &Ruleset, spared: &[(usize, Told)]) {
        if game.events().len() < self.events {
            *self = Described::default();
        }
        for (i, e) in game.events().iter().enumerate().skip(self.events) {
            if matches!(e, Event::Tile { .. }) {
                self.turn += 1;
            }
            self.told.push((self.turn, tell(e, game, set)));
            for (_, told) in spared.iter().filter(|(event, _)| *event == i) {
                self.told.push((self.turn, told.clone()));
            }
        }
        self.events = game.events().len();
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
    use crate::play::session::{Seat, Session, Waiting};
    use crate::play::sim;
    use crate::rules::{Home, LoadOptions};

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
                kept.update(g, &set, &[]);
                Ok(())
            },
        )
        .unwrap();
        let names = Names::numbered(2);
        let mut once = Described::default();
        once.update(&game, &set, &[]);
        let at_once = once.lines(&names);
        assert!(at_once.len() > 100);
        kept.update(&game, &set, &[]);
        assert_eq!(kept.lines(&names), at_once);
        assert_eq!(at_once.last().unwrap().turn, game.stats().turns);
    }

    /// The Tower, then a pack that spares meeples on roads, held in
    /// memory as the studio holds its packs.
    fn sparing_roads() -> Ruleset {
        let files = [
            (
                "no-road-captures/pack.toml",
                "[pack]\nname = \"no-road-captures\"\nrequires = [\"tower\"]\n\
                 script = \"spare.rhai\"\n",
            ),
            (
                "no-road-captures/spare.rhai",
                "fn may_capture(tower, meeple, board) {\n\
                     meeple.on != \"road\" && previous(tower, meeple, board)\n\
                 }\n",
            ),
        ];
        let home = Home::shipped().holding(
            files
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        );
        let packs = ["tower".to_string(), "no-road-captures".to_string()];
        Ruleset::from_packs(&home, &LoadOptions::unit_tests(), &packs).unwrap()
    }

    /// Bots play a whole game under `set` in a session, one step at a
    /// time: the lines of its events, told as the game went, how many
    /// events it had, and how many road meeples it captured.
    fn served_lines(set: &Ruleset, seed: u64) -> (Vec<EventLine>, usize, usize) {
        let rules = set.rules();
        let seats = [Seat::Bot(BotKind::GREEDY); 2];
        let mut session = Session::new(set, rules.as_ref(), &seats, seed).unwrap();
        let mut told = Described::default();
        while let Waiting::Bot { .. } = session.waiting() {
            session.bot_step(session.token()).unwrap().unwrap();
            told.update(session.game(), set, session.spared());
        }
        assert!(matches!(session.waiting(), Waiting::Over));
        for (event, _) in session.spared() {
            assert!(
                matches!(session.game().events()[*event], Event::Floor { .. }),
                "a spared meeple's line follows a floor"
            );
        }
        let road = crate::kernel::MeepleOn::Feature(crate::kernel::tiles::SegmentKind::Road);
        let roads_taken = session
            .game()
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Capture { on, .. } if *on == road))
            .count();
        let events = session.game().events().len();
        (told.lines(&Names::numbered(2)), events, roads_taken)
    }

    /// In a served game under a pack that spares road meeples, a floor
    /// whose tower reaches a road meeple is followed in the event lines by
    /// the meeple the pack spared, right after the floor's own line, and
    /// the lines are otherwise the game's events; under The Tower alone the
    /// same deals have no such line.
    #[test]
    fn a_floor_beside_a_spared_road_meeple_says_so_in_the_events() {
        let set = sparing_roads();
        let tower =
            Ruleset::from_variant(&Home::shipped(), &LoadOptions::unit_tests(), "tower").unwrap();
        let mut spared = 0;
        for seed in 1..=4 {
            let (lines, events, roads_taken) = served_lines(&set, seed);
            assert_eq!(roads_taken, 0, "the pack spares every road meeple");
            let says = |l: &EventLine| l.text.contains(", but no-road-captures spares it");
            for (i, line) in lines.iter().enumerate().filter(|(_, l)| says(l)) {
                assert_eq!(line.rule, "pack");
                assert!(line.text.starts_with("the tower reaches "), "{}", line.text);
                assert!(line.text.contains("(on the road"), "{}", line.text);
                let before = lines[..i].iter().rev().find(|l| !says(l)).unwrap();
                assert!(
                    before.text.contains(" floor to the tower at "),
                    "{}",
                    before.text
                );
                assert_eq!(before.turn, line.turn);
            }
            let n = lines.iter().filter(|l| says(l)).count();
            assert_eq!(lines.len(), events + n);
            spared += n;
            let (plain, _, _) = served_lines(&tower, seed);
            assert!(!plain.iter().any(|l| l.text.contains("spares it")));
        }
        assert!(
            spared > 0,
            "four games of greedy bots spared no road meeple"
        );
    }
}
