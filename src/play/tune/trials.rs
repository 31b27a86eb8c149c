//! Values tried in play: a bot weighing with one table in one seat against
//! the same bot weighing with another in the others, on paired deals with
//! the seats rotated ([`check`]); and the search that keeps what wins
//! ([`search`]): the fit's values first, then each value of the table
//! moved the way the fit moved it (doubled or halved; both in turn where
//! the fit left it), each played against the best so far. A trial stops
//! early when the values tried are not ahead at one of its looks
//! ([`check_stopping`]): most changes make no difference, and those are
//! most of a search's games.

use std::sync::Arc;

use anyhow::{Context, Result};
use rayon::prelude::*;

use super::TunePlan;
use crate::kernel::effects::Moment;
use crate::kernel::rules::asks;
use crate::kernel::{Bot, Buffers, Game, Rules, play_turn};
use crate::play::seed::game_seed;
use crate::play::sim::Workers;
use crate::rules::{Ruleset, Worths};

/// How much more than an even share a change must win to be kept: with the
/// 200 games of a default trial a share's standard error is about 0.035, so
/// a change that makes no difference is kept about one time in fourteen,
/// one that loses 0.05 about one in five hundred.
pub const KEEP_MARGIN: f64 = 0.05;

/// The factors a value is tried at where the fit left it as it was.
const FACTORS: [f32; 2] = [2.0, 0.5];

/// The parts a trial's games are played in: after each part but the last,
/// a trial whose values are not ahead of an even share stops. A change
/// that makes no difference is behind or even after the first part about
/// half the time, so such trials cost under half their games; one that
/// wins 0.60 of its games stops about one time in eight.
pub const LOOKS: u64 = 5;

/// How a bot weighing with one table played against the same bot weighing
/// with another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Check {
    /// Games played: every deal once per seat.
    pub games: u64,
    /// Games the first table's seat won, a tie split among its winners.
    pub wins: f64,
    pub players: usize,
}

impl Check {
    /// The first table's share of the wins.
    pub fn share(&self) -> f64 {
        self.wins / self.games.max(1) as f64
    }

    /// One in `players`.
    pub fn even(&self) -> f64 {
        1.0 / self.players as f64
    }

    /// Whether the first table won at least an even share.
    pub fn passed(&self) -> bool {
        self.share() >= self.even()
    }

    /// Whether the first table won more than an even share.
    fn ahead(&self) -> bool {
        self.share() > self.even()
    }
}

/// A change tried, and how it played against the best values before it.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// What was changed, in words (`prisoner held ×2`).
    pub change: String,
    pub check: Check,
    /// Whether it won clearly enough to be kept.
    pub kept: bool,
}

/// What [`search`] found: the values kept, every trial, and how the values
/// kept played against the defaults on fresh deals (`None` when nothing was
/// kept: they are the defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    pub values: Worths,
    pub trials: Vec<Trial>,
    pub against_defaults: Option<Check>,
}

/// Play `a` against `b`: `deals` deals from the run's deal `first` on (seeds
/// `first`, `first + 1`, … of `plan.seed`), each once per seat, the plan's
/// bot weighing with `a` in that seat and with `b` in the others.
pub fn check(
    set: &Ruleset,
    plan: &TunePlan,
    (a, b): (&Worths, &Worths),
    (first, deals): (u64, u64),
) -> Result<Check> {
    let (a, b) = (Arc::new(a.clone()), Arc::new(b.clone()));
    let workers = Workers::new(set, plan.threads)?;
    let seats = plan.players as u64;
    let shares: Vec<Result<f64>> = workers.install(|| {
        (0..deals * seats)
            .into_par_iter()
            .map(|i| {
                let game = (first + i / seats, (i % seats) as usize);
                workers.with_rules(|rules| check_game(set, rules, plan, (&a, &b), game))
            })
            .collect()
    });
    // Summed in game order: the same sum on any number of threads.
    let mut wins = 0.0;
    for share in shares {
        wins += share?;
    }
    Ok(Check {
        games: deals * plan.players as u64,
        wins,
        players: plan.players,
    })
}

/// [`check`] in [`LOOKS`] parts of the `deals`, in order, stopping after a
/// part (but the last) when `a` is not ahead of an even share: the games
/// played so far. The same games on any number of threads, as `check`'s.
pub fn check_stopping(
    set: &Ruleset,
    plan: &TunePlan,
    pair: (&Worths, &Worths),
    (first, deals): (u64, u64),
) -> Result<Check> {
    let part = deals.div_ceil(LOOKS).max(1);
    let mut total = Check {
        games: 0,
        wins: 0.0,
        players: plan.players,
    };
    let mut played = 0;
    while played < deals {
        let n = part.min(deals - played);
        let c = check(set, plan, pair, (first + played, n))?;
        total.games += c.games;
        total.wins += c.wins;
        played += n;
        if played < deals && !total.ahead() {
            break;
        }
    }
    Ok(total)
}

/// One game of a [`check`]: `deal` (of `plan.seed`), `bot` weighing with
/// `a` in `seat` and with `b` in the others; `seat`'s share of the win.
fn check_game(
    set: &Ruleset,
    rules: &dyn Rules,
    plan: &TunePlan,
    (a, b): (&Arc<Worths>, &Arc<Worths>),
    (deal, seat): (u64, usize),
) -> Result<f64> {
    let seed = game_seed(plan.seed, deal);
    let play = || -> Result<f64> {
        let mut game = Game::new(set.tiles(), rules, plan.players, seed)?;
        let mut bots: Vec<Box<dyn Bot>> = (0..plan.players)
            .map(|p| plan.bot.make(seed, p, if p == seat { a } else { b }))
            .collect();
        let mut buf = Buffers::default();
        while play_turn(&mut game, &mut bots, &mut buf)? {}
        game.final_scoring()?;
        Ok(share_of_win(&game.scores(), seat))
    };
    play().with_context(|| format!("trial game of deal {deal} (seed {seed}), seat {}", seat + 1))
}

/// Search by play from the defaults: `fitted` (the fit's values) first,
/// then each value of the table doubled or halved, the way the fit moved
/// it from the defaults (both in turn where it did not; a change that
/// leaves the values as they are, a value of 0 or a chance at 1 doubled, is
/// not played), each tried against the best values so far on up to `deals` fresh deals
/// ([`check_stopping`]) and kept when it wins [`KEEP_MARGIN`] more than an
/// even share; the values kept are then played against the defaults on
/// fresh deals. The deals follow the tuning
/// run's games, so none is a game the fit learned from. `on_trial` hears of
/// each trial as it ends (its error stops the search).
pub fn search(
    set: &Ruleset,
    plan: &TunePlan,
    fitted: &Worths,
    deals: u64,
    on_trial: &mut dyn FnMut(&Trial) -> Result<()>,
) -> Result<Search> {
    let defaults = Worths::default();
    let mut best = defaults.clone();
    let mut trials = Vec::new();
    let mut next = plan.games;
    let mut play = |a: &Worths, b: &Worths| {
        let c = check_stopping(set, plan, (a, b), (next, deals));
        next += deals;
        c
    };
    // Try `values` against `best`: the trial is told as it ends, and kept.
    let mut trial = |change: String, values: &Worths, best: &Worths| -> Result<bool> {
        let check = play(values, best)?;
        let t = Trial {
            change,
            check,
            kept: keep(&check),
        };
        on_trial(&t)?;
        trials.push(t);
        Ok(keep(&check))
    };
    if trial("the fitted values".into(), fitted, &best)? {
        best = fitted.clone();
    }
    for value in 0..values(set) {
        for (change, tried) in changes(set, fitted, &best, value) {
            if trial(change, &tried, &best)? {
                best = tried;
                break;
            }
        }
    }
    let against_defaults = if trials.iter().any(|t| t.kept) {
        Some(play(&best, &defaults)?)
    } else {
        None
    };
    Ok(Search {
        values: best,
        trials,
        against_defaults,
    })
}

/// Whether a trial won clearly enough to keep its change.
fn keep(c: &Check) -> bool {
    c.share() >= c.even() + KEEP_MARGIN
}

/// The values a search tries, in order: the meeples in supply, a prisoner,
/// each floor kind in supply, the chances of an open city and of a
/// cloister's neighbour, and for rules that act, the shares of their
/// income and of what draws would pay counted on.
fn values(set: &Ruleset) -> usize {
    let acting = set.rules().listens() != 0;
    4 + set.floors().len() + if acting { 2 } else { 0 }
}

/// The changes [`search`] tries of `value` (its index among the values
/// it tries: the meeples in supply, a prisoner, each floor kind in
/// supply, an open city's and a cloister neighbour's chances, then for
/// rules that act their income's and their draws' shares)
/// from `best`, in order, each in words and as the values it plays: the
/// value scaled the way `fitted` moved it from the defaults (both ways in
/// turn where it did not), less any change that leaves `best` as it is (a
/// value of 0 scaled, a chance at 1 doubled) or weighs a term the rules
/// never move (`in_play`): there is nothing to play.
pub fn changes(
    set: &Ruleset,
    fitted: &Worths,
    best: &Worths,
    value: usize,
) -> Vec<(String, Worths)> {
    if !in_play(set, value) {
        return Vec::new();
    }
    factors(&Worths::default(), fitted, set, value)
        .into_iter()
        .map(|f| scaled(best, set, value, f))
        .filter(|(_, tried)| tried != best)
        .collect()
}

/// Whether `value` (in the order of [`values`]) weighs a term the rules
/// can make other than 0: the rules' income comes only from their `points`
/// effects, and what draws would pay only from those at a draw. A value
/// that weighs 0 plays the same games whatever it is.
fn in_play(set: &Ruleset, value: usize) -> bool {
    let kinds = set.floors().len();
    let listens = set.rules().listens();
    let pays = listens & asks::PAYS_POINTS != 0;
    let at_draws = listens & Moment::TileDrawn { seat: 0, tile: 0 }.bit() != 0;
    match value {
        v if v == 4 + kinds => pays,
        v if v == 5 + kinds => pays && at_draws,
        _ => true,
    }
}

/// The factors to try `value` at (in the order of [`values`]): the way
/// `fitted` moved it from `defaults`, or both in turn where it did not.
fn factors(defaults: &Worths, fitted: &Worths, set: &Ruleset, value: usize) -> Vec<f32> {
    let (from, to) = (size(defaults, set, value), size(fitted, set, value));
    match to / from.max(f32::MIN_POSITIVE) {
        r if r > 1.01 => vec![2.0],
        r if r < 0.99 => vec![0.5],
        _ => FACTORS.to_vec(),
    }
}

/// How large `w`'s `value`-th value is (in the order of [`values`]): one
/// number that [`scaled`] multiplies.
fn size(w: &Worths, set: &Ruleset, value: usize) -> f32 {
    let kinds = set.floors().len();
    match value {
        0 => w.meeple.iter().sum(),
        1 => w.prisoner,
        v if v < 2 + kinds => w.floor(v - 2),
        v if v == 2 + kinds => w.city_chance.iter().sum(),
        v if v == 3 + kinds => w.cloister_chance,
        v if v == 4 + kinds => w.income,
        _ => w.draws,
    }
}

/// `w` with its `value`-th value (in the order of [`values`]) times `f`,
/// and the change in words.
fn scaled(w: &Worths, set: &Ruleset, value: usize, f: f32) -> (String, Worths) {
    let mut t = w.clone();
    let kinds = set.floors().len();
    let what = match value {
        0 => {
            t.meeple = w.meeple.map(|m| m * f);
            "meeple in supply".to_string()
        }
        1 => {
            t.prisoner = w.prisoner * f;
            "prisoner held".to_string()
        }
        v if v < 2 + kinds => {
            let k = v - 2;
            t.floor = (0..kinds).map(|j| w.floor(j)).collect();
            t.floor[k] *= f;
            format!("floor {} in supply", set.floors()[k].name)
        }
        v if v == 2 + kinds => {
            t.city_chance = w.city_chance.map(|c| (c * f).min(1.0));
            "open city completes".to_string()
        }
        v if v == 3 + kinds => {
            t.cloister_chance = (w.cloister_chance * f).min(1.0);
            t.cloister_drop = w.cloister_drop * f;
            "cloister neighbour arrives".to_string()
        }
        v if v == 4 + kinds => {
            t.income = (w.income * f).min(1.0);
            "the rules' income".to_string()
        }
        _ => {
            t.draws = (w.draws * f).min(1.0);
            "what draws would pay".to_string()
        }
    };
    (format!("{what} ×{f}"), t)
}

/// `seat`'s share of a game's win: 1 split among the players with the
/// highest score.
fn share_of_win(scores: &[u32], seat: usize) -> f64 {
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners = scores.iter().filter(|&&s| s == best).count();
    if scores[seat] == best {
        1.0 / winners as f64
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_is_split_among_tied_winners() {
        assert_eq!(share_of_win(&[10, 7], 0), 1.0);
        assert_eq!(share_of_win(&[10, 7], 1), 0.0);
        assert_eq!(share_of_win(&[9, 9, 3], 1), 0.5);
    }

    #[test]
    fn a_change_is_kept_only_when_it_wins_clearly() {
        let c = |wins| Check {
            games: 100,
            wins,
            players: 2,
        };
        assert!(!keep(&c(54.0)));
        assert!(keep(&c(55.0)));
        assert!(c(50.0).passed() && !c(49.5).passed());
    }
}
