//! How a game unfolded, as whole numbers: from the scores after every turn
//! (and after final scoring) the lead changes, when the winner took the lead
//! for good, the winner's worst deficit and whether the mid-game trailer
//! won; from the decisions the bots were asked, how many options they had.
//! These are the counts the game-quality metrics of `analysis::stats` are
//! computed from (docs/metrics.md); being whole numbers, they merge across
//! shards exactly.

use std::cell::Cell;

use anyhow::Result;

use crate::kernel::{Bot, Decision, Game};

/// A game's course, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Course {
    /// Times the sole leader changed (a tie for the lead changes nothing;
    /// the first sole leader is no change).
    pub lead_changes: u32,
    /// Turns played before the final sole winner led for good (the number
    /// of turns when it led only after final scoring, or the game is tied).
    pub decided_at: u32,
    /// The final winner's largest deficit to the leader, in points (of
    /// tied winners, the smallest such deficit).
    pub drama: u32,
    /// 1 when the sole winner was behind (below the highest score) after
    /// the middle turn.
    pub comeback: u32,
    /// Decisions a seat was asked (placements, actions, and ransoms and
    /// captures when there was a choice).
    pub decisions: u32,
    /// Options of those decisions, summed.
    pub options: u32,
    /// Decisions with a single option.
    pub forced: u32,
}

/// Options counted over the decisions of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Choices {
    pub decisions: u32,
    pub options: u32,
    pub forced: u32,
}

impl Choices {
    fn count(&mut self, options: usize) {
        self.decisions += 1;
        self.options = self.options.saturating_add(options as u32);
        self.forced += u32::from(options == 1);
    }
}

impl Course {
    /// The course of a game whose scores were `history[k]` after turn
    /// `k + 1`, the last entry being the final scores (after final
    /// scoring), and whose seats chose as `choices` counts.
    pub fn of(history: &[Vec<u32>], choices: Choices) -> Course {
        let unfolding = Unfolding::of(history);
        Course {
            lead_changes: unfolding.lead_changes,
            decided_at: unfolding.decided_at,
            drama: unfolding.drama,
            comeback: unfolding.comeback,
            decisions: choices.decisions,
            options: choices.options,
            forced: choices.forced,
        }
    }
}

/// What the score history alone says.
struct Unfolding {
    lead_changes: u32,
    decided_at: u32,
    drama: u32,
    comeback: u32,
}

impl Unfolding {
    fn of(history: &[Vec<u32>]) -> Unfolding {
        let Some(last) = history.last() else {
            return Unfolding {
                lead_changes: 0,
                decided_at: 0,
                drama: 0,
                comeback: 0,
            };
        };
        let turns = history.len() - 1;
        let winners = leaders(last);
        let sole = (winners.len() == 1).then(|| winners[0]);
        Unfolding {
            lead_changes: lead_changes(history),
            decided_at: sole.map_or(turns, |w| decided_at(history, w)) as u32,
            drama: winners
                .iter()
                .map(|&w| worst_deficit(history, w))
                .min()
                .unwrap_or(0),
            comeback: sole.map_or(0, |w| u32::from(behind_at_middle(history, w))),
        }
    }
}

/// The seats with the top score.
fn leaders(scores: &[u32]) -> Vec<usize> {
    let top = scores.iter().copied().max().unwrap_or(0);
    (0..scores.len()).filter(|&s| scores[s] == top).collect()
}

/// The seat that leads alone, if one does.
fn sole_leader(scores: &[u32]) -> Option<usize> {
    match leaders(scores)[..] {
        [one] => Some(one),
        _ => None,
    }
}

fn lead_changes(history: &[Vec<u32>]) -> u32 {
    let mut leader = None;
    let mut changes = 0;
    for scores in history {
        if let Some(now) = sole_leader(scores) {
            if leader.is_some_and(|before| before != now) {
                changes += 1;
            }
            leader = Some(now);
        }
    }
    changes
}

/// Entries of `history` before the one from which `winner` leads alone to
/// the end.
fn decided_at(history: &[Vec<u32>], winner: usize) -> usize {
    history
        .iter()
        .rposition(|scores| sole_leader(scores) != Some(winner))
        .map_or(0, |k| k + 1)
}

fn worst_deficit(history: &[Vec<u32>], seat: usize) -> u32 {
    history
        .iter()
        .map(|scores| scores.iter().max().unwrap_or(&0) - scores[seat])
        .max()
        .unwrap_or(0)
}

/// `seat` was behind (below the highest score, which a tie for the lead
/// is not) after the middle turn (turn ⌈T/2⌉ of T).
fn behind_at_middle(history: &[Vec<u32>], seat: usize) -> bool {
    let turns = history.len() - 1;
    if turns == 0 {
        return false;
    }
    let middle = &history[turns.div_ceil(2) - 1];
    middle[seat] < middle.iter().copied().max().unwrap_or(0)
}

/// A seat's bot that counts the options of every decision it is asked.
struct Counting<'c, 'b> {
    bot: Box<dyn Bot + 'b>,
    choices: &'c Cell<Choices>,
}

impl Bot for Counting<'_, '_> {
    fn decide(&mut self, game: &Game, decision: Decision) -> Result<usize> {
        let mut c = self.choices.get();
        c.count(decision.len());
        self.choices.set(c);
        self.bot.decide(game, decision)
    }
}

/// Play `game` to its end with `bots`, then score it, and count its course.
pub fn play_counted<'b>(game: &mut Game, bots: Vec<Box<dyn Bot + 'b>>) -> Result<Course> {
    let choices = Cell::new(Choices::default());
    let mut seats: Vec<Box<dyn Bot + '_>> = bots
        .into_iter()
        .map(|bot| {
            Box::new(Counting {
                bot,
                choices: &choices,
            }) as Box<dyn Bot + '_>
        })
        .collect();
    anyhow::ensure!(
        seats.len() == game.players().len(),
        "{} bots for {} players",
        seats.len(),
        game.players().len()
    );
    let mut history = Vec::new();
    let mut buf = crate::kernel::Buffers::default();
    while crate::kernel::play_turn(game, &mut seats, &mut buf)? {
        history.push(game.scores());
    }
    game.final_scoring()?;
    history.push(game.scores());
    Ok(Course::of(&history, choices.get()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn course(history: &[[u32; 2]]) -> Course {
        let h: Vec<Vec<u32>> = history.iter().map(|s| s.to_vec()).collect();
        Course::of(&h, Choices::default())
    }

    #[test]
    fn an_empty_history_counts_nothing() {
        assert_eq!(Course::of(&[], Choices::default()), Course::default());
    }

    #[test]
    fn options_are_summed_and_single_options_forced() {
        let mut c = Choices::default();
        for n in [3, 1, 1, 7] {
            c.count(n);
        }
        assert_eq!(
            c,
            Choices {
                decisions: 4,
                options: 12,
                forced: 2
            }
        );
    }

    #[test]
    fn a_tie_for_the_lead_is_no_change_and_the_lead_must_be_kept() {
        // B leads, tie, B leads again: no change; the tie at turn 2 means
        // B led for good only from turn 3.
        let c = course(&[[0, 2], [2, 2], [2, 4], [3, 5]]);
        assert_eq!((c.lead_changes, c.decided_at, c.drama), (0, 2, 0));
    }
}
