//! `towerlab tune`: a variant's bot values ([`Worths`]) learned from its own
//! self-play games, so a pack's floors are valued by what they do there.
//!
//! The plan's bot ([`TUNE_BOT`] for `towerlab tune`: a short search),
//! weighing with the defaults, plays `games` games of the variant, seeded
//! as every run is. After every turn each player's position is described
//! by the evaluation's [`Terms`] — the worth of the meeples in supply,
//! prisoners held, floors in supply per kind, open cities and cloisters
//! led — and paired with what the player went on to score beyond
//! the points they would have had if the game had ended then (the kernel's
//! end scoring). Both are taken relative to the players' mean at that turn
//! (`add_turn`): the fit explains why one player gains more than another
//! from the same point of a game, not how much is still to score at that
//! point — which, fitted as it stands, the meeples in supply take up (a
//! meeple worth 21 points in The Tower, and a search that believes it
//! hoards them). A least-squares fit of the gains on the terms, pulled
//! toward the defaults (ridge), gives each term's weight: the worth of a
//! prisoner and of each floor kind directly, and scales for the meeple
//! values and the completion chances.
//!
//! A fit on games is not proof that the values play better: play decides
//! (`trials`). The fit's values, then each value of the table doubled
//! and halved in turn, are played against the best values so far (a bot
//! weighing with them in one seat, the same bot with the others in the
//! others, on paired deals with the seats rotated) and kept when they win
//! clearly; what is kept is checked against the defaults on fresh deals, and
//! `towerlab tune` stores it only if the 95% interval of its win share
//! there lies above the even share.
//!
//! How well values foresee the games is measured too ([`Foresight`]): the
//! share of the variance of the players' relative gains that the defaults'
//! weighing of the terms explains, and the share the fit's explains. A
//! better forecast is not better play (docs/bots.md: weights fitted to the
//! default's own games foresee them far better and play the same); it
//! says how much of a game's course the terms see at all.
//!
//! The same seed gives the same values, on any number of threads: the games
//! are a function of their seeds, and the sums are taken in game and turn
//! order.

mod trials;

pub use trials::{
    Check, KEEP_MARGIN, LOOKS, Search, Trial, changes, check, check_stopping, search,
};

use std::sync::Arc;

use anyhow::{Context, Result, ensure};
use rayon::prelude::*;

use crate::kernel::determinize::hidden_copy;
use crate::kernel::rules::Searching;
use crate::kernel::{Bot, Buffers, Game, Rules, play_turn};
use crate::play::bots::{BotKind, Evaluator, Sight, Terms};
use crate::play::seed::game_seed;
use crate::play::sim::Workers;
use crate::rules::worths::MAX_POINTS;
use crate::rules::{Ruleset, Tuned, Worths};

/// The bot `towerlab tune` plays its self-play games and its trials with: a
/// short search, which weighs with the values in its priors, its playouts
/// and its evaluation. The fit learns from games played as the bots that
/// weigh with its values play them (greedy's games, which leave most
/// floors unused, taught values that lost in play).
pub const TUNE_BOT: BotKind = BotKind::mcts(32);

/// A tuning run: self-play games of a ruleset.
#[derive(Clone, Copy, Debug)]
pub struct TunePlan {
    pub games: u64,
    pub seed: u64,
    pub players: usize,
    /// Worker threads (0: one per core): the games are a function of their
    /// seeds, so the values do not depend on it.
    pub threads: usize,
    /// The bot in every seat of the self-play games and of the trials, so
    /// that the values are learned and tried in the same play.
    pub bot: BotKind,
}

/// Games played in parallel before their samples are added to the fit, in
/// game order: bounds what is held at once, whatever `--games` asks.
const BATCH: u64 = 256;

/// How strongly the fit is pulled toward the defaults: as many samples'
/// weight as this share of the samples.
const RIDGE: f64 = 0.01;
/// A completion chance's scale is kept within this range, so a chance
/// stays a chance.
const SCALE_RANGE: (f64, f64) = (0.25, 1.4);

/// What a tuning run learned: the values, and how well they and the
/// defaults foresee the games they were learned from.
#[derive(Clone, Debug, PartialEq)]
pub struct Learned {
    pub tuned: Tuned,
    pub foresight: Foresight,
}

/// The share of the variance of the players' gains to the end, relative to
/// their turn's mean, that a weighing of the terms explains (R², on the
/// self-play games themselves): 1 foresees every gain, 0 no better than
/// foreseeing none, below 0 worse.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Foresight {
    /// The defaults' weighing (the evaluation's, without a tuned table).
    pub defaults: f64,
    /// The fit's weights, as solved (before its values are kept in their
    /// ranges: no worth below 0, a chance's scale within `SCALE_RANGE`):
    /// the most any weighing of these terms explains, but for the pull
    /// toward the defaults.
    pub fitted: f64,
    /// The (player, turn) samples.
    pub samples: u64,
}

/// Learn the values of `set` from `plan.games` self-play games.
pub fn tune(set: &Ruleset, plan: &TunePlan) -> Result<Learned> {
    ensure!(plan.games >= 1, "tuning needs at least one game");
    let kinds = set.floors().len();
    let workers = Workers::new(set, plan.threads)?;
    let vars = workers.with_rules(|rules| rules.state_vars().len());
    let mut fit = Fit::new(terms_len(kinds, vars));
    let defaults = Arc::new(Worths::default());
    for start in (0..plan.games).step_by(BATCH as usize) {
        let batch = start..plan.games.min(start + BATCH);
        let played: Vec<Result<Played>> = workers.install(|| {
            (batch.into_par_iter())
                .map(|index| workers.with_rules(|rules| self_play(set, rules, plan, index)))
                .collect()
        });
        for game in played {
            let (samples, finals) = game?;
            for turn in samples.chunks(plan.players) {
                add_turn(&mut fit, turn, &finals);
            }
        }
    }
    let prior = prior(&defaults, kinds, vars);
    let w = fit.solve(&prior, RIDGE);
    let tuned = Tuned {
        variant: set.name().clone(),
        fingerprint: set.fingerprint().clone(),
        seed: plan.seed,
        games: plan.games,
        players: plan.players,
        worths: worths_of(&w, &defaults, kinds),
    };
    let foresight = Foresight {
        defaults: fit.explained(&prior),
        fitted: fit.explained(&w),
        samples: fit.rows,
    };
    Ok(Learned { tuned, foresight })
}

/// A player's sample after a turn: their seat, the points they would have
/// if the game ended then, and their terms as a row.
type Sample = (usize, f64, Vec<f64>);

/// Add one turn's samples (one per player) to `fit`, each player's gain to
/// the game's end (`finals` less the points then) and terms taken relative
/// to the mean of the players at that turn.
fn add_turn(fit: &mut Fit, turn: &[Sample], finals: &[u32]) {
    let n = turn.len() as f64;
    let gain = |(p, now, _): &Sample| finals[*p] as f64 - now;
    let mean_gain = turn.iter().map(gain).sum::<f64>() / n;
    let width = turn.first().map_or(0, |s| s.2.len());
    let mean_terms: Vec<f64> = (0..width)
        .map(|c| turn.iter().map(|s| s.2[c]).sum::<f64>() / n)
        .collect();
    for s in turn {
        let x: Vec<f64> = s.2.iter().zip(&mean_terms).map(|(a, m)| a - m).collect();
        fit.add(&x, gain(s) - mean_gain);
    }
}

/// A self-play game's samples, turn by turn, and its final scores.
type Played = (Vec<Sample>, Vec<u32>);

/// Self-play game `index` of `plan` by its bot weighing with the
/// defaults; after every turn, per player, a [`Sample`].
fn self_play(set: &Ruleset, rules: &dyn Rules, plan: &TunePlan, index: u64) -> Result<Played> {
    let seed = game_seed(plan.seed, index);
    let play = || -> Result<Played> {
        let mut game = Game::new(set.tiles(), rules, plan.players, seed)?;
        let worths = Arc::new(Worths::default());
        let mut bots: Vec<Box<dyn Bot>> = (0..plan.players)
            .map(|s| plan.bot.make(seed, s, &worths))
            .collect();
        let mut eval = Evaluator::new(worths, Sight::Threats);
        let mut buf = Buffers::default();
        let mut samples = Vec::new();
        while play_turn(&mut game, &mut bots, &mut buf)? {
            let now = scores_if_over(&game)?;
            for (p, t) in eval.terms(&game)?.iter().enumerate() {
                samples.push((p, now[p] as f64, row(t, set.floors().len())));
            }
        }
        game.final_scoring()?;
        Ok((samples, game.scores()))
    };
    play().with_context(|| format!("self-play game {index} (seed {seed})"))
}

/// The scores `game` would end with now (the kernel's end scoring on a
/// copy; its questions are counted apart from the game's hook budget, as a
/// search's are).
fn scores_if_over(game: &Game) -> Result<Vec<u32>> {
    let mut end = hidden_copy(game);
    let searching = Searching::begin(game.rules());
    let scored = end.final_scoring();
    drop(searching);
    scored?;
    Ok(end.scores())
}

/// The columns of a fit: meeples, prisoners, each floor kind, cities (and
/// the fields that border them), cloisters, the rules' income, what draws would pay them, guards and
/// each of the packs' state variables.
fn terms_len(kinds: usize, vars: usize) -> usize {
    kinds + 7 + vars
}

fn row(t: &Terms, kinds: usize) -> Vec<f64> {
    let mut x = vec![t.meeples as f64, t.prisoners as f64];
    x.extend((0..kinds).map(|k| t.floors.get(k).copied().unwrap_or(0.0) as f64));
    // A field's open cities are weighed by the cities' chance to complete,
    // which the cities' column scales: one column for both.
    x.extend([t.cities + t.farms, t.cloisters, t.income, t.draws, t.guards].map(f64::from));
    x.extend(t.state.iter().map(|&v| v as f64));
    x
}

/// The defaults as weights of the fit's columns.
fn prior(d: &Worths, kinds: usize, vars: usize) -> Vec<f64> {
    let mut w = vec![1.0, d.prisoner as f64];
    w.extend((0..kinds).map(|k| d.floor(k) as f64));
    w.extend([1.0, 1.0, d.income as f64, d.draws as f64, d.guard as f64]);
    w.extend((0..vars).map(|v| d.state(v) as f64));
    w
}

/// The values the fitted weights `w` say, the rest as `d`.
fn worths_of(w: &[f64], d: &Worths, kinds: usize) -> Worths {
    let clamp = |x: f64| x.clamp(SCALE_RANGE.0, SCALE_RANGE.1) as f32;
    let meeple = w[0].max(0.0) as f32;
    let city = clamp(w[kinds + 2]);
    let cloister = clamp(w[kinds + 3]);
    Worths {
        meeple: d.meeple.map(|m| m * meeple),
        prisoner: w[1].max(0.0) as f32,
        floor: (0..kinds).map(|k| w[2 + k].max(0.0) as f32).collect(),
        city_chance: d.city_chance.map(|c| (c * city).min(1.0)),
        cloister_chance: (d.cloister_chance * cloister).min(1.0),
        cloister_drop: d.cloister_drop * cloister,
        income: w[kinds + 4].clamp(0.0, 1.0) as f32,
        draws: w[kinds + 5].clamp(0.0, 1.0) as f32,
        guard: w[kinds + 6].clamp(0.0, MAX_POINTS as f64) as f32,
        state: (w[kinds + 7..].iter())
            .map(|&v| v.clamp(-MAX_POINTS as f64, MAX_POINTS as f64) as f32)
            .collect(),
        ..d.clone()
    }
}

/// Normal equations of a least-squares fit, summed a row at a time.
struct Fit {
    /// XᵀX, row-major.
    xtx: Vec<f64>,
    xty: Vec<f64>,
    /// yᵀy: with XᵀX and Xᵀy, any weights' squared error.
    yy: f64,
    rows: u64,
}

impl Fit {
    fn new(k: usize) -> Fit {
        Fit {
            xtx: vec![0.0; k * k],
            xty: vec![0.0; k],
            yy: 0.0,
            rows: 0,
        }
    }

    fn add(&mut self, x: &[f64], y: f64) {
        let k = self.xty.len();
        for i in 0..k {
            self.xty[i] += x[i] * y;
            for j in 0..k {
                self.xtx[i * k + j] += x[i] * x[j];
            }
        }
        self.yy += y * y;
        self.rows += 1;
    }

    /// The share of Σy² that weights `w` explain: 1 − |y − Xw|² / Σy², the
    /// squared error from the sums (yᵀy − 2wᵀXᵀy + wᵀXᵀXw). The samples'
    /// gains are relative to their turn's mean, so their mean is 0 and
    /// Σy² is their variance's sum: this is R². 0 with no samples.
    fn explained(&self, w: &[f64]) -> f64 {
        if self.yy <= 0.0 {
            return 0.0;
        }
        let k = self.xty.len();
        let wxxw: f64 = (self.xtx.chunks(k).zip(w))
            .map(|(row, wi)| wi * dot(row, w))
            .sum();
        1.0 - (self.yy - 2.0 * dot(w, &self.xty) + wxxw) / self.yy
    }

    /// The weights minimising the squared error plus `ridge`·rows·|w −
    /// prior|² (each column scaled by its mean square, so the pull is the
    /// same whatever a column's unit).
    fn solve(&self, prior: &[f64], ridge: f64) -> Vec<f64> {
        let k = self.xty.len();
        let mut a = self.xtx.clone();
        let mut b = self.xty.clone();
        for i in 0..k {
            let lambda = ridge * self.xtx[i * k + i].max(1e-9);
            a[i * k + i] += lambda;
            b[i] += lambda * prior[i];
        }
        solve_linear(&mut a, &mut b, k).unwrap_or_else(|| prior.to_vec())
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Solve `a·x = b` (`a` k×k, row-major) by Gaussian elimination with
/// partial pivoting; `None` when `a` is singular. A dozen unknowns: not
/// worth a linear-algebra dependency.
fn solve_linear(a: &mut [f64], b: &mut [f64], k: usize) -> Option<Vec<f64>> {
    for col in 0..k {
        let pivot =
            (col..k).max_by(|&i, &j| a[i * k + col].abs().total_cmp(&a[j * k + col].abs()))?;
        if a[pivot * k + col].abs() < 1e-12 {
            return None;
        }
        if pivot != col {
            for j in 0..k {
                a.swap(pivot * k + j, col * k + j);
            }
            b.swap(pivot, col);
        }
        for i in col + 1..k {
            let f = a[i * k + col] / a[col * k + col];
            for j in col..k {
                a[i * k + j] -= f * a[col * k + j];
            }
            b[i] -= f * b[col];
        }
    }
    let mut x = vec![0.0; k];
    for i in (0..k).rev() {
        let s: f64 = (i + 1..k).map(|j| a[i * k + j] * x[j]).sum();
        x[i] = (b[i] - s) / a[i * k + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gains that all players share at a turn (the points still to come in
    /// the game, larger early) say nothing of a term's worth: the fit of
    /// turns relative to their mean finds the worth that tells players apart.
    #[test]
    fn a_gain_common_to_every_player_at_a_turn_is_not_a_terms_worth() {
        let mut fit = Fit::new(1);
        let mut plain = Fit::new(1);
        for t in 0..40u32 {
            let common = 3.0 * (40 - t) as f64;
            // Meeples in supply: more early, as the common gain.
            let turn: Vec<Sample> = (0..2)
                .map(|p| (p, 0.0, vec![(40 - t) as f64 / 10.0 + p as f64]))
                .collect();
            let finals: Vec<u32> = turn
                .iter()
                .map(|(_, _, x)| (common + 2.0 * x[0]).round() as u32)
                .collect();
            add_turn(&mut fit, &turn, &finals);
            for s in &turn {
                plain.add(&s.2, finals[s.0] as f64);
            }
        }
        let w = fit.solve(&[0.0], 0.0);
        assert!((w[0] - 2.0).abs() < 0.05, "{w:?}");
        let w = plain.solve(&[0.0], 0.0);
        assert!(w[0] > 5.0, "uncentred, the common gain is taken up: {w:?}");
    }

    #[test]
    fn a_fit_finds_the_weights_of_exact_data() {
        let mut fit = Fit::new(2);
        for i in 0..50 {
            let x = [i as f64, (i * i % 7) as f64];
            fit.add(&x, 2.0 * x[0] - 3.0 * x[1]);
        }
        let w = fit.solve(&[0.0, 0.0], 0.0);
        assert!(
            (w[0] - 2.0).abs() < 1e-9 && (w[1] + 3.0).abs() < 1e-9,
            "{w:?}"
        );
    }

    #[test]
    fn what_weights_explain_is_measured_from_the_sums() {
        let mut fit = Fit::new(2);
        let rows: Vec<([f64; 2], f64)> = (0..40)
            .map(|i| {
                let x = [(i % 5) as f64 - 2.0, (i % 3) as f64 - 1.0];
                // Noise that the columns cannot explain.
                let noise = if i % 2 == 0 { 0.5 } else { -0.5 };
                (x, 2.0 * x[0] + noise)
            })
            .collect();
        for (x, y) in &rows {
            fit.add(x, *y);
        }
        let direct = |w: &[f64]| {
            let yy: f64 = rows.iter().map(|(_, y)| y * y).sum();
            let err: f64 = (rows.iter())
                .map(|(x, y)| (y - x[0] * w[0] - x[1] * w[1]).powi(2))
                .sum();
            1.0 - err / yy
        };
        for w in [[2.0, 0.0], [0.0, 0.0], [1.0, 3.0]] {
            assert!((fit.explained(&w) - direct(&w)).abs() < 1e-9, "{w:?}");
        }
        assert_eq!(fit.explained(&[0.0, 0.0]), 0.0);
        let best = fit.solve(&[0.0, 0.0], 0.0);
        assert!(fit.explained(&best) > 0.9 && fit.explained(&best) < 1.0);
        assert!(fit.explained(&[-1.0, 3.0]) < 0.0, "worse than none");
        assert_eq!(Fit::new(1).explained(&[1.0]), 0.0, "no samples");
    }

    #[test]
    fn a_column_never_seen_keeps_its_prior() {
        let mut fit = Fit::new(2);
        for i in 0..20 {
            fit.add(&[i as f64, 0.0], i as f64);
        }
        let w = fit.solve(&[0.0, 0.5], RIDGE);
        assert!((w[1] - 0.5).abs() < 1e-9, "{w:?}");
    }
}
