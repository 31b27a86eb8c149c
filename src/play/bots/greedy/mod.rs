//! The greedy bot: one ply. Every option of every decision (placement,
//! ransom, action, capture) gets a value — the change it makes at once to the
//! bot's own standing minus the change to the best-placed opponent's — and
//! the bot takes the best, breaking ties on its own random stream.
//!
//! A player's standing is their score plus rough values for what they hold:
//! the features they lead (a share of what those would score, G4–G8),
//! meeples in supply (the last ones are worth most), prisoners held, and a
//! penalty for their meeples that an opponent could capture next turn by
//! raising an open tower (T5, T6). How far it sees beyond the move is its
//! [`Sight`]: a floor weighed with the threat of its tower as the floor
//! would leave it, and with the capture the bot's next floor there could
//! make, and a placement with the open cities it blocks (the greedy bot);
//! all but the later capture (the search's priors and playouts); or none
//! (the reference's).
//!
//! A placement is weighed with a [`Previewer`] (what the tile would complete
//! or join, and for whom) plus the best action it would leave: a meeple on
//! the new tile, or a floor and the capture it allows, whichever is worth
//! more. Towers are seen only through the [`Rules`] interface
//! (`may_place_floor`, `capture_range`, `may_capture`) and the kernel's
//! capture question (`kernel::capture`), so the bot plays any pack's floors
//! without knowing their names. A rules error ends the decision with it: the
//! game stops with the hook's error, as it does for any bot.
//!
//! [`Previewer`]: crate::kernel::Previewer
//! [`Rules`]: crate::kernel::Rules

use std::sync::Arc;

use anyhow::Result;

use crate::kernel::determinize::{Fitting, hidden_copy};
use crate::kernel::geometry::Pos;
use crate::kernel::{
    Bot, CaptureChoice, Decision, FeatureId, FloorKind, Game, MAX_PLAYERS, MeepleOn,
    PlacementPreview, RansomChoice,
};
use crate::play::bots::{Evaluator, Sight};
use crate::play::seed::{Stream, bot_stream};
use crate::rules::Worths;

mod actions;
mod blocks;
mod captures;
mod look;
mod placements;
mod threats;
mod value;

/// Seats a table of per-player values holds: as many as a game has at most.
const SEATS: usize = MAX_PLAYERS;

/// Taking back one's own meeple must gain at least this much.
const OWN_CAPTURE_MARGIN: f32 = 1.0;
/// Two values closer than this are a tie.
const TIE: f32 = 1e-4;

/// Per-player changes of standing.
type Delta = [f32; SEATS];

/// One way an opponent could raise a tower next turn: the tower and the
/// floors it would have (cells and stack stored in the bot's flat buffers).
#[derive(Clone, Copy)]
struct Raise {
    tower: u16,
    meeple: Option<usize>,
    /// The largest |dx| or |dy| of its cells.
    reach: i32,
    stack: (u32, u32),
    cells: (u32, u32),
}

/// A meeple on the board as the bot indexes it.
#[derive(Clone, Copy)]
struct Placed {
    /// The root of its road, city, field or cloister (`FeatureId::MAX` on a
    /// tower).
    root: FeatureId,
    owner: u8,
    on: MeepleOn,
}

/// The greedy bot. See the module documentation.
pub struct GreedyBot {
    /// The player deciding: the current player of the game asked.
    me: usize,
    rng: Stream,
    /// What things are worth (the variant's values).
    worths: Arc<Worths>,
    /// Whether it weighs threats and a floor's later worth.
    sight: Sight,
    preview: PlacementPreview,
    /// Every meeple's feature, parallel to [`Game::meeples`].
    placed: Vec<Placed>,
    tile_counts: Vec<(FeatureId, u32)>,
    field_counts: Vec<(FeatureId, u32)>,
    fields: Vec<FeatureId>,
    scratch: Vec<u16>,
    values: Vec<f32>,
    range: Vec<(i32, i32)>,
    stack: Vec<FloorKind>,
    hyp: Vec<FloorKind>,
    /// A stack two floors up, for [`GreedyBot::later_capture`].
    later: Vec<FloorKind>,
    /// Raises opponents could make next turn, with their stacks and cells.
    raises: Vec<Raise>,
    raise_stacks: Vec<FloorKind>,
    raise_cells: Vec<(i32, i32)>,
    /// Per tower: the bot's meeples (bit = index in [`Game::meeples`]) some
    /// opponent could capture by raising it.
    threat: Vec<u64>,
    /// Per meeple of the bot: what it would lose if captured (empty until
    /// a threat of the decision needs them).
    stake: Vec<f32>,
    /// The meeples a floor would capture (indices into [`Game::meeples`]).
    capturable: Vec<u16>,
    /// The meeple the floor last weighed by [`GreedyBot::best_capture`]
    /// would take, if any.
    taken: Option<usize>,
    /// The undrawn tiles fitting each neighbour pattern, counted for a
    /// placement decision that weighs blocks.
    fitting: Fitting,
    /// The empty cells led open cities face, with the cities' roots.
    led_cells: Vec<(Pos, FeatureId)>,
    /// The open cities a placement weighed would block.
    blocked: Vec<FeatureId>,
    /// What the rules pay for an option, where they pay anything of their
    /// own (`None`: the bot weighs with its own values alone).
    look: Option<look::Look>,
    /// Every option's own value worked out in full (none cut short by a
    /// bound), as the look needs.
    exact: bool,
}

/// What every valuation of one decision shares.
struct Ctx {
    /// What things are worth.
    w: Arc<Worths>,
    me: usize,
    n: usize,
    /// 1 early in the game, falling to 0 as the deck runs out: how much
    /// future value (growth, completion, a meeple's next use) still counts.
    future: f32,
    /// The same for meeples: how many more turns a meeple could serve.
    meeple_future: f32,
    /// The chance that a meeple an opponent could capture is captured.
    threat_chance: f32,
}

impl GreedyBot {
    /// The bot in `seat` of the game with seed `game_seed`, on its own
    /// stream, with the default values.
    pub fn new(game_seed: u64, seat: usize) -> GreedyBot {
        GreedyBot::with_worths(game_seed, seat, Arc::default())
    }

    /// [`GreedyBot::new`] weighing things with `worths`.
    pub fn with_worths(game_seed: u64, seat: usize, worths: Arc<Worths>) -> GreedyBot {
        GreedyBot::with_sight(game_seed, seat, worths, Sight::Ahead)
    }

    /// [`GreedyBot::with_worths`] seeing as far as `sight`.
    pub fn with_sight(game_seed: u64, seat: usize, worths: Arc<Worths>, sight: Sight) -> GreedyBot {
        GreedyBot {
            me: seat,
            rng: Stream::new(game_seed, bot_stream(seat)),
            worths,
            sight,
            preview: PlacementPreview::default(),
            placed: Vec::new(),
            tile_counts: Vec::new(),
            field_counts: Vec::new(),
            fields: Vec::new(),
            scratch: Vec::new(),
            values: Vec::new(),
            range: Vec::new(),
            stack: Vec::new(),
            hyp: Vec::new(),
            later: Vec::new(),
            raises: Vec::new(),
            raise_stacks: Vec::new(),
            raise_cells: Vec::new(),
            threat: Vec::new(),
            stake: Vec::new(),
            capturable: Vec::new(),
            taken: None,
            fitting: Fitting::default(),
            led_cells: Vec::new(),
            blocked: Vec::new(),
            look: None,
            exact: false,
        }
    }

    /// [`GreedyBot::with_sight`] weighing, beside its own values, what the
    /// rules pay for an option where they pay anything of their own (the
    /// `look` module): the `greedy` bot, and the search's priors.
    pub fn looking(game_seed: u64, seat: usize, worths: Arc<Worths>, sight: Sight) -> GreedyBot {
        let finish = Box::new(GreedyBot::with_sight(
            game_seed,
            seat,
            worths.clone(),
            sight,
        ));
        let mut bot = GreedyBot::with_sight(game_seed, seat, worths.clone(), sight);
        bot.look = Some(look::Look::new(Evaluator::new(worths, sight), finish));
        bot
    }

    /// The best value's index, ties broken on the bot's stream.
    fn choose(&mut self) -> usize {
        let best = self
            .values
            .iter()
            .copied()
            .fold(f32::NEG_INFINITY, f32::max);
        let ties = self.values.iter().filter(|&&v| v >= best - TIE).count();
        let pick = if ties > 1 { self.rng.below(ties) } else { 0 };
        self.values
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v >= best - TIE)
            .nth(pick)
            .map_or(0, |(i, _)| i)
    }

    fn ctx(&self, game: &Game) -> Ctx {
        let n = game.players().len();
        let left = game.deck_left() as f32;
        Ctx {
            w: self.worths.clone(),
            me: game.current(),
            n,
            future: (left / 10.0).min(1.0),
            meeple_future: (left / (6.0 * n as f32)).min(1.0),
            threat_chance: (0.25 + 0.1 * (n - 1) as f32).min(0.8),
        }
    }
}

impl GreedyBot {
    /// The value of every option of `decision`, as the bot weighs them
    /// (higher is better; one value per option): for bots that search.
    pub fn values(&mut self, game: &Game, decision: Decision) -> Result<&[f32]> {
        self.weigh(game, decision)?;
        if self.values.len() != decision.len() {
            self.values.clear();
            self.values.resize(decision.len(), 0.0);
        }
        Ok(&self.values)
    }

    /// What the player to move could gain with a floor before their tile
    /// matters (T3 A, T5): the value of the best floor and the capture it
    /// allows, as [`GreedyBot::values`] weighs a placement's floor option
    /// (less the floor's worth in supply); 0 when no floor gains.
    pub fn initiative(&mut self, game: &Game) -> Result<f32> {
        self.me = game.current();
        let ctx = self.ctx(game);
        self.index_meeples(game);
        self.best_floor_option(game, &ctx, false)
    }

    /// The option [`Bot::decide`] would take, from the values
    /// [`GreedyBot::values`] just gave (ties broken on the bot's stream, as
    /// `decide` breaks them).
    pub fn chosen(&mut self) -> usize {
        self.choose()
    }

    /// Fill `self.values` with one value per option of `decision`: its own,
    /// and what the rules pay for it where they pay anything of their own.
    fn weigh(&mut self, game: &Game, decision: Decision) -> Result<()> {
        let looks = self.look.is_some() && look::rules_pay(game, &self.worths);
        self.exact = looks;
        let own = self.weigh_own(game, decision);
        self.exact = false;
        own?;
        if looks && self.values.len() == decision.len() {
            self.add_look(game, decision)?;
        }
        Ok(())
    }

    /// Add to `self.values` (the bot's own, one per option of `decision`)
    /// what the rules pay for each option the look takes, relative to the
    /// one the bot's own values rank best: the bot's gain less the best
    /// opponent's.
    fn add_look(&mut self, game: &Game, decision: Decision) -> Result<()> {
        let Some(mut look) = self.look.take() else {
            return Ok(());
        };
        let added = self.look_with(&mut look, game, decision);
        self.look = Some(look);
        added
    }

    fn look_with(&mut self, look: &mut look::Look, game: &Game, decision: Decision) -> Result<()> {
        let options = look.options(decision, &self.values);
        let added = match options.len() {
            0 | 1 => Ok(()),
            _ => self.add_paid(look, game, decision, &options),
        };
        look.done_with(options);
        added
    }

    /// Add what the rules pay for each of `options` (the first the
    /// reference) to its value.
    fn add_paid(
        &mut self,
        look: &mut look::Look,
        game: &Game,
        decision: Decision,
        options: &[usize],
    ) -> Result<()> {
        let base = hidden_copy(game);
        let ctx = self.ctx(game);
        let mut reference: Option<Delta> = None;
        let mut copy = None;
        for &i in options {
            let paid = look.turn((&base, &mut copy), decision, i)?;
            let first = *reference.get_or_insert(paid);
            let mut d: Delta = [0.0; SEATS];
            for p in 0..ctx.n {
                d[p] = paid[p] - first[p];
            }
            self.values[i] += Self::net(&ctx, &d);
        }
        Ok(())
    }

    /// Fill `self.values` with the bot's own value of every option.
    fn weigh_own(&mut self, game: &Game, decision: Decision) -> Result<()> {
        self.me = game.current();
        match decision {
            Decision::Placement { tile, options } => self.value_placements(game, tile, options)?,
            Decision::Ransom(options) => {
                let ctx = self.ctx(game);
                let supply = game.players()[ctx.me].meeples as u32;
                self.values.clear();
                for &o in options {
                    let v = match o {
                        RansomChoice::Decline => 0.0,
                        RansomChoice::Pay { captor, cost } => {
                            let mut d = [0f32; SEATS];
                            d[ctx.me] = Self::meeple(&ctx, supply + 1) - cost as f32;
                            d[captor as usize] = cost as f32 - ctx.w.prisoner * ctx.meeple_future;
                            Self::net(&ctx, &d)
                        }
                    };
                    self.values.push(v);
                }
            }
            Decision::Action(options) => self.value_actions(game, options)?,
            Decision::Capture(options) => {
                let ctx = self.ctx(game);
                self.index_meeples(game);
                self.values.clear();
                for &o in options {
                    let v = match o {
                        CaptureChoice::Decline => 0.0,
                        CaptureChoice::Take { meeple } => {
                            self.capture_value(game, &ctx, meeple as usize)
                        }
                    };
                    self.values.push(v);
                }
            }
        }
        Ok(())
    }
}

impl Bot for GreedyBot {
    fn decide(&mut self, game: &Game, decision: Decision) -> Result<usize> {
        self.weigh(game, decision)?;
        if self.values.len() != decision.len() {
            return Ok(0);
        }
        Ok(self.choose())
    }
}
