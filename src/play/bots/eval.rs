//! The value of a position to every player, where a search stops, shared
//! by the bots: the points each would have if the game ended now (G4–G8,
//! the kernel's own end scoring, then the rules' `end` scores), plus what is
//! still to come, valued by the variant's [`Worths`] (the table the greedy
//! bot weighs with) — an open city's chance of completing (worth double
//! then, G5), what a led field's open cities would pay its farmers
//! ([`FARM_SHARE`] of it, G8), a cloister's missing neighbours, meeples,
//! prisoners and floors in supply — fading as the deck runs out. At the game's end the
//! value is the final score, exactly.
//!
//! **What the rules pay.** A pack's points reach the value whatever hook
//! pays them: points its effects already paid are in the score; its `end`
//! scores are in the end scored now; an income — what its `points`
//! effects paid a seat over the last round (`Game::rule_income`), but for
//! what they paid at a draw — is counted again for each round left, at
//! [`Worths::income`]; and where the
//! rules act at a draw, every undrawn tile is asked what it would pay if
//! drawn as the position stands, at [`Worths::draws`]. No code names a
//! pack: a rule is seen by what it pays. The greedy bot weighs an option
//! with the same rules terms ([`Evaluator::rules_value`], its look).
//!
//! **Which tiles are left.** The undrawn tiles are public as a multiset
//! (only their order is hidden), so `mcts`'s evaluation asks, for each
//! empty cell an open city's edge faces, how many of them could go there
//! (G1): a city whose cell no undrawn tile fits can no longer complete, and
//! one whose cell few fit completes less often — so a move that closes off
//! an opponent's city, or leaves its own on a cell no tile fits, is valued
//! as such. A cloister's missing neighbour that no undrawn tile fits is
//! counted as never arriving. The reference (`mcts-baseline`) counts open
//! ends alone, and no field's open cities.

use std::sync::Arc;

use anyhow::Result;

use crate::kernel::determinize::{Fitting, count_undrawn};
use crate::kernel::effects::{Moment, Scope, StateAt};
use crate::kernel::game::{CLOISTER_NEIGHBOURS, FARM_CITY_POINTS, by_feature, line_points};
use crate::kernel::geometry::Pos;
use crate::kernel::rules::asks;
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{FeatureId, Game, MAX_PLAYERS};
use crate::play::bots::{Sight, city_supply};
use crate::rules::Worths;

/// The share of what a farmer's open cities would pay it (3 points each
/// when completed, G8, times the city's chance) that the value counts: the
/// points come only at the game's end and the field may be joined before
/// then. At the full share the search put its meeples into fields early
/// and won 0.58 against `greedy` under a rule that refuses captures
/// (against 0.73 counting no open city); at 0.3, about 0.02 more than
/// that (docs/notes/bots-rules-pay.md).
pub const FARM_SHARE: f32 = 0.3;

/// Seats a table of per-player values holds: as many as a game has at most.
pub const SEATS: usize = MAX_PLAYERS;

/// One value per player.
pub type Values = [f32; SEATS];

/// The evaluation: the values it weighs with, and reused buffers.
pub struct Evaluator {
    worths: Arc<Worths>,
    /// The undrawn tiles fitting each cell's pattern, in the position
    /// weighed, when it weighs which tiles are left (the module
    /// documentation); `None` for the reference.
    fitting: Option<Fitting>,
    terms: Vec<Terms>,
    /// Undrawn tiles per kind, for what the rules pay at a draw.
    undrawn: Vec<u32>,
    /// Each meeple's feature and owner (`Game::meeples_by_feature`).
    on: Vec<(FeatureId, u8)>,
    scratch: Vec<u16>,
    /// The open cities a field borders ([`farm_bonus`]).
    cities: Vec<FeatureId>,
}

/// What the evaluation values in a player's position beyond their points
/// (G7: a feature's leaders, those with the most meeples on it, count it),
/// each faded as the deck runs out.
#[derive(Clone, Debug, Default)]
pub struct Terms {
    /// The worth of the meeples in supply.
    pub meeples: f32,
    /// Prisoners held (a count).
    pub prisoners: f32,
    /// Floors in supply, per kind (counts).
    pub floors: Vec<f32>,
    /// Open cities led: their points again, times their chance to complete.
    pub cities: f32,
    /// Fields led: [`FARM_SHARE`] of what the open cities they border
    /// would pay their farmers (G8), times each city's chance to complete.
    pub farms: f32,
    /// Cloisters led: missing neighbours, times the chance each arrives.
    pub cloisters: f32,
    /// The rules' income: what their `points` effects paid over the last
    /// round, but at a draw (that is [`Terms::draws`]' to weigh), times
    /// the rounds left (the module documentation).
    pub income: f32,
    /// What the undrawn tiles would pay if each were drawn as the position
    /// stands (rules that pay at `tile_drawn`).
    pub draws: f32,
    /// The player's meeples on top of towers (a count).
    pub guards: f32,
    /// The player's value of each of the packs' state variables kept per
    /// seat (0 for variables of other scopes), in the variant's order.
    pub state: Vec<f32>,
}

impl Terms {
    /// The player's potential under `w` (the counts weighed by it).
    pub fn total(&self, w: &Worths) -> f32 {
        let floors: f32 = (self.floors.iter().enumerate())
            .map(|(k, &n)| w.floor(k) * n)
            .sum();
        self.meeples
            + w.prisoner * self.prisoners
            + floors
            + self.cities
            + self.farms
            + self.cloisters
            + w.income * self.income
            + w.draws * self.draws
            + self.held(w)
    }

    /// What the player holds that rules may pay for later, weighed by `w`:
    /// guards and their own state values (nothing by default).
    fn held(&self, w: &Worths) -> f32 {
        let state: f32 = (self.state.iter().enumerate())
            .map(|(v, &n)| w.state(v) * n)
            .sum();
        w.guard * self.guards + state
    }
}

impl Evaluator {
    /// The evaluation weighing with `worths`: `mcts`'s, or with
    /// [`Sight::Baseline`] the reference's, which weighs open ends alone.
    pub fn new(worths: Arc<Worths>, sight: Sight) -> Evaluator {
        Evaluator {
            worths,
            fitting: (sight != Sight::Baseline).then(Fitting::default),
            terms: Vec::new(),
            undrawn: Vec::new(),
            on: Vec::new(),
            scratch: Vec::new(),
            cities: Vec::new(),
        }
    }

    /// The value of `game` to each player. Scores the game's end on it, so
    /// `game` is spent: pass a copy. A failing end-of-game hook is the
    /// error.
    pub fn values(&mut self, game: &mut Game, over: bool) -> Result<Values> {
        let n = game.players().len();
        let mut v = [0f32; SEATS];
        if !over {
            self.potential(game, &mut v)?;
        }
        game.final_scoring()?;
        for (p, player) in game.players().iter().enumerate().take(n) {
            v[p] += player.score as f32;
        }
        Ok(v)
    }

    /// What the game still holds for each player, beyond its points now.
    fn potential(&mut self, game: &Game, v: &mut Values) -> Result<()> {
        self.terms(game)?;
        for (p, t) in self.terms.iter().enumerate() {
            v[p] += t.total(&self.worths);
        }
        Ok(())
    }

    /// What the rules pay each player beyond the base game's scoring, as
    /// `game` stands: their `points` effects so far, their end scores if
    /// the game ended now, and the income and draws to come, weighed —
    /// what a rule adds to a position's value, for the greedy bot to
    /// weigh an option's turn with (its own values see the base game's).
    pub fn rules_value(&mut self, game: &Game) -> Result<Values> {
        let mut v = [0f32; SEATS];
        game.end_rule_points(&mut v)?;
        self.terms.resize_with(game.players().len(), Terms::default);
        self.rule_terms(game)?;
        let w = &self.worths;
        for (p, t) in self.terms.iter().enumerate() {
            let paid = game.rule_income().total(p) as f32;
            v[p] += paid + w.income * t.income + w.draws * t.draws + t.held(w);
        }
        Ok(v)
    }

    /// Each player's [`Terms`] in `game`, under the evaluation's values
    /// (kept in `self.terms`, one per player). A rule failing while
    /// asked what a draw would pay is the error.
    pub fn terms(&mut self, game: &Game) -> Result<&[Terms]> {
        let n = game.players().len();
        let left = game.deck_left() as f32;
        let future = (left / (4.0 * n as f32)).min(1.0);
        let meeple_future = (left / (6.0 * n as f32)).min(1.0);
        self.terms.resize_with(n, Terms::default);
        let w = &self.worths;
        for (p, player) in game.players().iter().enumerate().take(n) {
            let t = &mut self.terms[p];
            let k = (player.meeples as usize).min(w.meeple.len());
            t.meeples = w.meeple[..k].iter().sum::<f32>() * meeple_future;
            let held: u32 = (0..n)
                .filter(|&o| o != p)
                .map(|o| game.prisoners(p, o))
                .sum();
            t.prisoners = held as f32 * meeple_future;
            t.floors.clear();
            t.floors
                .extend(player.floors.iter().map(|&f| f as f32 * meeple_future));
            t.cities = 0.0;
            t.farms = 0.0;
            t.cloisters = 0.0;
        }
        self.rule_terms(game)?;
        game.meeples_by_feature(&mut self.on);
        if let Some(fitting) = &mut self.fitting {
            fitting.forget();
        }
        let fs = game.features();
        for (root, counts) in by_feature(&self.on) {
            let most = counts[..n].iter().copied().max().unwrap_or(0);
            let leaders = (0..n).filter(|&p| most > 0 && counts[p] == most);
            match fs.kind(root) {
                SegmentKind::City if !fs.is_complete(root) => {
                    let chance = self.worths.city_chance(fs.open_ends(root))
                        * city_share(&mut self.fitting, game, root);
                    let tiles = fs.tile_count(root, &mut self.scratch);
                    let points = line_points(SegmentKind::City, tiles, fs.pennants(root), false);
                    let bonus = points as f32 * chance * future;
                    leaders.for_each(|p| self.terms[p].cities += bonus);
                }
                // `fitting` is `mcts`'s own value's: the reference counts
                // no farm (the module documentation).
                SegmentKind::Field if self.fitting.is_some() => {
                    let (w, fit, cities) = (&self.worths, &mut self.fitting, &mut self.cities);
                    let bonus = farm_bonus(w, fit, cities, game, root) * future;
                    leaders.for_each(|p| self.terms[p].farms += bonus);
                }
                SegmentKind::Cloister => {
                    let (tile, _) = fs.place_of(root);
                    let pos = game.board().tiles()[tile].pos;
                    let missing = CLOISTER_NEIGHBOURS - game.board().neighbours(pos);
                    let arriving = missing - unfillable_around(&mut self.fitting, game, pos);
                    let bonus = arriving as f32 * self.worths.cloister_chance(missing) * future;
                    leaders.for_each(|p| self.terms[p].cloisters += bonus);
                }
                _ => {}
            }
        }
        Ok(&self.terms)
    }

    /// Each player's [`Terms::income`], [`Terms::draws`], guards and state
    /// (`self.terms` holds one per player).
    fn rule_terms(&mut self, game: &Game) -> Result<()> {
        let n = game.players().len();
        let rounds_left = game.deck_left() as f32 / n as f32;
        for (p, t) in self.terms.iter_mut().enumerate() {
            t.income = game.rule_income().last_round(p) as f32 * rounds_left;
            t.draws = 0.0;
        }
        self.holdings(game);
        self.draws(game)
    }

    /// Each player's [`Terms::guards`] and [`Terms::state`].
    fn holdings(&mut self, game: &Game) {
        let vars = game.rules().state_vars();
        for (p, t) in self.terms.iter_mut().enumerate() {
            t.guards = 0.0;
            t.state.clear();
            t.state
                .extend((0..vars.len()).map(|v| own_state(game, v, p) as f32));
        }
        for owner in game.towers().iter().filter_map(|t| t.meeple) {
            if let Some(t) = self.terms.get_mut(owner as usize) {
                t.guards += 1.0;
            }
        }
    }

    /// Each player's [`Terms::draws`]: what every undrawn tile would pay
    /// them, drawn as the position stands (nothing asked of rules that do
    /// not act at a draw). Each kind is asked where the rules may tell the
    /// drawn tile apart ([`asks::DRAWN_TILE`]); otherwise one kind with a
    /// foundation and one without stand for all.
    fn draws(&mut self, game: &Game) -> Result<()> {
        let listens = game.rules().listens();
        if listens & (Moment::TileDrawn { seat: 0, tile: 0 }).bit() == 0 {
            return Ok(());
        }
        count_undrawn(game, &mut self.undrawn);
        if listens & asks::DRAWN_TILE == 0 {
            by_foundation(game, &mut self.undrawn);
        }
        let mut per_seat = [0f32; SEATS];
        for (kind, &count) in self.undrawn.iter().enumerate() {
            if count > 0 {
                let mut paid = [0f32; SEATS];
                game.draw_points(kind as u16, &mut paid)?;
                for (sum, p) in per_seat.iter_mut().zip(paid) {
                    *sum += count as f32 * p;
                }
            }
        }
        for (t, paid) in self.terms.iter_mut().zip(per_seat) {
            t.draws = paid;
        }
        Ok(())
    }
}

/// The undrawn `counts` per kind, gathered on the first kind of each
/// class: those with a foundation, and those without (rules that cannot
/// tell the drawn tile apart answer alike for every kind of a class).
fn by_foundation(game: &Game, counts: &mut [u32]) {
    let kinds = &game.tiles().kinds;
    let mut first = [None::<usize>; 2];
    for k in 0..counts.len() {
        let class = kinds[k].foundation.is_some() as usize;
        match first[class] {
            None if counts[k] > 0 => first[class] = Some(k),
            Some(f) => {
                counts[f] += counts[k];
                counts[k] = 0;
            }
            None => {}
        }
    }
}

/// Seat `seat`'s own value of state variable `var`: 0 for a variable not
/// kept per seat.
fn own_state(game: &Game, var: usize, seat: usize) -> i64 {
    let kept_per_seat = game.rules().state_vars()[var].scope == Scope::Seat;
    let own = || game.state().get(var as u16, StateAt::Seat(seat as u8));
    kept_per_seat.then(own).flatten().unwrap_or(0)
}

/// How much of the open city `root`'s chance to complete the undrawn tiles
/// leave it ([`city_supply`]); 1 without a `fitting` (the reference does not
/// look).
fn city_share(fitting: &mut Option<Fitting>, game: &Game, root: FeatureId) -> f32 {
    let board = game.board();
    fitting
        .as_mut()
        .map_or(1.0, |f| city_supply(game, f, root, |c| board.pattern_at(c)))
}

/// What the field `field` may yet pay its farmers, unfaded: for each open
/// city it borders (listed in `cities`), [`FARM_SHARE`] of its 3 points
/// (G8) times the city's chance to complete.
fn farm_bonus(
    w: &Worths,
    fitting: &mut Option<Fitting>,
    cities: &mut Vec<FeatureId>,
    game: &Game,
    field: FeatureId,
) -> f32 {
    game.open_cities_touching(field, cities);
    let fs = game.features();
    let chances: f32 = (cities.iter())
        .map(|&c| w.city_chance(fs.open_ends(c)) * city_share(fitting, game, c))
        .sum();
    FARM_SHARE * FARM_CITY_POINTS as f32 * chances
}

/// The empty cells around the cloister at `pos` that no undrawn tile fits:
/// its neighbours that will never arrive (0 without a `fitting`).
fn unfillable_around(fitting: &mut Option<Fitting>, game: &Game, pos: Pos) -> u32 {
    let Some(fitting) = fitting else {
        return 0;
    };
    let board = game.board();
    let mut unfillable = |q: &Pos| !board.has_tile(*q) && fitting.at(game, *q) == Some(0);
    pos.around().filter(|q| unfillable(q)).count() as u32
}

/// Each player's reward: their value less their rivals' — the best of the
/// other players' values blended with the others' mean, `strongest` the
/// weight of the best (1: their margin over the strongest opponent, in
/// points). With two players both are the one opponent's value.
pub fn rewards(v: &Values, n: usize, strongest: f32) -> Values {
    let mut r = [0f32; SEATS];
    for p in 0..n {
        let others = || (0..n).filter(move |&q| q != p).map(|q| v[q]);
        let best = others().fold(f32::NEG_INFINITY, f32::max);
        let mean = others().sum::<f32>() / (n - 1) as f32;
        r[p] = v[p] - (strongest * best + (1.0 - strongest) * mean);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(v: &[f32]) -> Values {
        let mut out = [0f32; SEATS];
        out[..v.len()].copy_from_slice(v);
        out
    }

    #[test]
    fn two_players_reward_the_margin_whatever_the_blend() {
        for strongest in [0.0, 0.5, 1.0] {
            let r = rewards(&values(&[30.0, 24.0]), 2, strongest);
            assert_eq!((r[0], r[1]), (6.0, -6.0), "blend {strongest}");
        }
    }

    #[test]
    fn more_players_blend_the_strongest_and_the_mean() {
        let v = values(&[10.0, 16.0, 4.0, 2.0]);
        let alone = rewards(&v, 4, 1.0);
        assert_eq!(alone[0], -6.0, "against the strongest alone");
        assert_eq!(alone[1], 6.0);
        let half = rewards(&v, 4, 0.5);
        // Seat 0's rivals: 16 strongest, (16 + 4 + 2) / 3 on average.
        let mean = 22.0 / 3.0;
        assert!((half[0] - (10.0 - (8.0 + mean / 2.0))).abs() < 1e-5);
        // Seat 1 leads: its rivals 10 strongest, 16 / 3 on average.
        assert!((half[1] - (16.0 - (5.0 + 8.0 / 3.0))).abs() < 1e-5);
        assert!(
            half[2] > alone[2],
            "a trailing seat is measured against all of its rivals"
        );
    }
}
