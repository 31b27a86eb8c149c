//! The `mcts` bot: information-set Monte Carlo tree search, valuing a
//! position a round ahead with the evaluation ([`Evaluator`]).
//!
//! **Hidden information.** The only thing no player knows is the order of
//! the deck. The bot copies the game with its undrawn tiles sorted
//! ([`determinize::hidden_copy`]), so it never holds their real order, and
//! every iteration deals them again in an order drawn from the bot's own
//! stream ([`determinize::redeal_into`]): a determinization. A node of the
//! tree is a decision point reached by a public history — the decisions
//! taken and the tiles drawn — so the many determinizations share one tree.
//!
//! **An iteration.** Deal a determinization; walk down the tree from the
//! root — at the root, the option sequential halving gives it
//! ([`halving`]); below, by UCB1 over the options opened so far
//! (progressive widening in the greedy bot's order, see [`tree`]); add the
//! first decision point not yet in the tree; then play on with the greedy
//! bot in every seat (its look at what the rules pay included, so that the
//! opponents of a playout take what a rule pays, as a real greedy
//! opponent does) to the horizon — the searching player's first turn
//! after leaving the tree — and value the position ([`Evaluator`], plus what
//! the player to move could take at once with a floor, [`INITIATIVE`]).
//! A node added at the start of a turn is left unopened (its options
//! neither listed nor weighed) until the walk comes back to it, so the many
//! chance nodes of the deck cost nothing until they are seen twice. Every
//! decision is a node — placement, ransom, action, capture — with the
//! options the kernel lists, towers only through the `Rules` trait (via the
//! kernel and the greedy bot), so a new pack's floors are played without
//! changes here. Decisions with one option are taken without a node.
//!
//! **Paired draws**. The tiles an iteration draws are not left to
//! the shuffle alone: its `d`-th draw is the tile at a quantile of the
//! undrawn multiset sorted by kind ([`determinize::put_first_at`]), the
//! quantile set by the visits the root option it took has had so far, by
//! `d`, and by a start drawn from the bot's stream for each decision. So
//! the v-th visit of every root option meets the same tiles (the options
//! are compared on the same draws: common random numbers), and the visits
//! of one option meet the kinds in proportion to how many of each are left
//! (a stratified sample), where independent deals leave both to luck. The
//! rest of the deck stays as dealt.
//!
//! **Sequential halving at the root**. The root's options are not
//! chosen by UCB1: every option is a candidate (up to one per iteration,
//! best prior first; [`Schedule::candidates`]), each round visits every candidate
//! left equally often — so, paired, on the same draws — and keeps the
//! better half by mean reward with the prior's bias, until one is left: the
//! option taken ([`halving`]). Below the root the walk chooses by UCB1.
//!
//! **Backup (2 to 8 players).** A playout ends with a value per player; each
//! player's reward is their value minus the strongest opponent's (their
//! margin, in points); from four players on ([`BLEND_FROM`]), minus half
//! the strongest opponent's and half the opponents' mean ([`STRONGEST`]). Every edge
//! on the path adds the reward of *the player who chose it*, so each player
//! maximises their own outcome at their own nodes (a max-n backup of reward
//! vectors).
//!
//! **Budget.** A fixed number of iterations per decision ([`DEFAULT_BUDGET`]
//! unless given, on average: a placement has most of a turn's, [`SCHEDULE`]),
//! never a time limit, so a seed replays the same game. Within
//! a turn the subtree under the option taken is kept for the turn's next
//! decision (placement, then action, then capture); the visits it kept
//! count toward the budget (and searches at least a quarter of it anew).
//!
//! **Errors.** A rules hook that fails during the search — in the tree, in
//! a playout or in the greedy priors — stops it: the error is the bot's
//! answer ([`Bot::decide`] returns it), never hidden.
//!
//! The turn is played on through the kernel's own [`Turn`] steps, so the
//! search takes the decisions of a turn in the order and with the options
//! the kernel's turn loop does.

mod halving;
mod keep;
mod pairing;
mod tree;

use std::sync::Arc;

use anyhow::Result;

use crate::kernel::determinize::hidden_copy;
use crate::kernel::rules::Searching;
use crate::kernel::{Bot, Buffers, Decision, Game, Turn};
use crate::play::bots::{GreedyBot, Sight};
use crate::play::seed::{Stream, bot_stream};
use crate::rules::Worths;

use crate::play::bots::eval::{self, Evaluator, rewards};
use halving::Halving;
use keep::Carry;
use pairing::Pairing;
use tree::{NONE, Tree};

/// Iterations per decision of plain `mcts`, on average over a turn's
/// decisions ([`SCHEDULE`]).
pub const DEFAULT_BUDGET: u32 = 100;

/// How a search shares its budget `N` between the decisions of a turn,
/// and among a decision's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Iterations of a placement (the first decision of a turn), times `N`.
    pub placement: f32,
    /// Iterations of each later decision of the turn (action, ransom,
    /// capture), times `N`, the visits kept from the decision before
    /// counted in; at least a quarter of them are searched anew.
    pub later: f32,
    /// The most root options sequential halving weighs, times the
    /// decision's iterations (the best priors first).
    pub candidates: f32,
}

impl Schedule {
    /// The most root options a decision searched `budget` iterations weighs.
    pub fn most_candidates(&self, budget: u32) -> usize {
        (budget as f32 * self.candidates) as usize
    }
}

/// `mcts`'s schedule: most of a turn's iterations go to its placement,
/// where the options are many and the choice weighs most; every placement
/// is weighed, up to one per iteration. A later decision has a few options
/// and starts from the subtree its placement's search kept. At `1.5`, `0.5`
/// and every option, `mcts` won about 0.02 more against `greedy` under a
/// rule that refuses captures than at one `N` a decision and two fifths of
/// it weighed, at about the same CPU a turn (docs/notes/bots-rules-pay.md).
pub const SCHEDULE: Schedule = Schedule {
    placement: 1.5,
    later: 0.5,
    candidates: 1.0,
};

/// The reference's schedule (`mcts-baseline`): `N` iterations a decision,
/// at most two fifths of them weighed at the root.
pub const REFERENCE_SCHEDULE: Schedule = Schedule {
    placement: 1.0,
    later: 1.0,
    candidates: 0.4,
};

/// The exploration constant of UCB1, in points of margin: at this width
/// the search still weighs the options its priors rank second and third.
pub const EXPLORE: f32 = 8.0;

/// The share of the player to move's best floor-and-capture that the search
/// adds to the value of a position where its walk stops (the searching
/// player's turn, which begins with that player to move): a capture the
/// position offers at once is theirs to take before anyone else moves,
/// which the evaluation alone does not see. Half: at 1 and above the search
/// prefers keeping a capture for later to making it.
pub const INITIATIVE: f32 = 0.5;

/// From [`BLEND_FROM`] players on, the weight of the strongest opponent's
/// value in what a player's reward subtracts (the rest: the opponents'
/// mean). The strongest alone (1, the reference's) rests each reward on
/// the maximum of several noisy values and ignores what a move does to the
/// others; half and half won one `mcts` seat against three greedy about
/// 0.07 more, against four about 0.06 (docs/notes/bots-threats.md).
pub const STRONGEST: f32 = 0.5;

/// The fewest players whose rewards blend the strongest opponent with the
/// opponents' mean ([`STRONGEST`]): with three, against two greedy, the
/// blend won about 0.04 less than the strongest alone, so fewer players
/// weigh the strongest alone.
pub const BLEND_FROM: usize = 4;

/// The `mcts` bot. See the module documentation.
pub struct MctsBot {
    iterations: u32,
    /// How the iterations are shared ([`SCHEDULE`], or the reference's).
    schedule: Schedule,
    /// The seat searching: its turns bound the search's horizon.
    seat: usize,
    rng: Stream,
    /// Priors and playouts.
    greedy: GreedyBot,
    tree: Tree,
    eval: Evaluator,
    /// The options of the decision searched.
    root_options: Buffers,
    /// The options of the decision an iteration is at.
    options: Buffers,
    path: Vec<(u32, usize)>,
    /// The subtree kept for the turn's next decision.
    carry: Option<Carry>,
    /// `mcts`'s paired draws.
    pairing: Pairing,
    /// `mcts`'s sequential halving at the root.
    halving: Halving,
    /// The strongest opponent's weight in a reward from [`BLEND_FROM`]
    /// players on ([`STRONGEST`]; 1 for the reference).
    strongest: f32,
}

/// An option of a decision as a search weighed it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weighed {
    /// Its index in the kernel's list of options.
    pub option: usize,
    /// The iterations that went through it.
    pub visits: u32,
    /// Their mean reward: the searching player's margin over the strongest
    /// opponent, in points, at the horizon (from four players on, half over
    /// the strongest and half over the opponents' mean).
    pub mean: f32,
}

/// How an iteration's walk ended.
struct Walk {
    /// The deck ran out: the game is over.
    over: bool,
}

impl MctsBot {
    /// The bot in `seat` of the game with seed `game_seed`, on its own
    /// stream, searching `iterations` (at least 1) per decision.
    pub fn new(game_seed: u64, seat: usize, iterations: u32) -> MctsBot {
        MctsBot::with(game_seed, seat, iterations, Arc::default(), Sight::Threats)
    }

    /// [`MctsBot::new`] weighing things with `worths`, its priors and
    /// playouts seeing as far as `sight`; [`Sight::Baseline`] is the
    /// reference's search, whose rewards weigh the strongest opponent alone.
    pub fn with(
        game_seed: u64,
        seat: usize,
        iterations: u32,
        worths: Arc<Worths>,
        sight: Sight,
    ) -> MctsBot {
        let mut rng = Stream::new(game_seed, bot_stream(seat));
        let greedy_seed = rng.next_u64();
        let greedy = match sight {
            Sight::Baseline => GreedyBot::with_sight(greedy_seed, seat, worths.clone(), sight),
            Sight::Ahead | Sight::Threats => {
                GreedyBot::looking(greedy_seed, seat, worths.clone(), sight)
            }
        };
        MctsBot {
            iterations: iterations.max(1),
            schedule: match sight {
                Sight::Baseline => REFERENCE_SCHEDULE,
                Sight::Ahead | Sight::Threats => SCHEDULE,
            },
            seat,
            rng,
            greedy,
            tree: Tree::new(EXPLORE),
            eval: Evaluator::new(worths, sight),
            root_options: Buffers::default(),
            options: Buffers::default(),
            path: Vec::new(),
            carry: None,
            pairing: Pairing::default(),
            halving: Halving::default(),
            strongest: match sight {
                Sight::Baseline => 1.0,
                Sight::Ahead | Sight::Threats => STRONGEST,
            },
        }
    }

    /// Search `decision` and return the index of the option to take.
    pub fn search(&mut self, game: &Game, decision: Decision) -> Result<usize> {
        if decision.len() <= 1 {
            self.carry = None;
            return Ok(0);
        }
        // The search's questions spend apart from the game's hook budget:
        // each decision's search has a budget as large as a game's.
        let _searching = Searching::begin(game.rules());
        self.search_tree(game, decision)
    }

    /// Search `decision` as [`MctsBot::search`] does: the options it tried,
    /// the one to take first, then the others by visits (more first); empty
    /// when the decision has one option (there is nothing to weigh).
    pub fn weigh(&mut self, game: &Game, decision: Decision) -> Result<Vec<Weighed>> {
        let chosen = self.search(game, decision)?;
        if decision.len() <= 1 {
            return Ok(Vec::new());
        }
        let mut weighed: Vec<Weighed> = self
            .tree
            .edges(self.tree.root)
            .iter()
            .filter(|e| e.visits > 0)
            .map(|e| Weighed {
                option: e.option as usize,
                visits: e.visits,
                mean: e.mean(),
            })
            .collect();
        // Stable: equal visits keep the tree's order (best prior first).
        weighed.sort_by_key(|w| (w.option != chosen, std::cmp::Reverse(w.visits)));
        Ok(weighed)
    }

    /// [`MctsBot::search`] of a decision with a choice to make.
    fn search_tree(&mut self, game: &Game, decision: Decision) -> Result<usize> {
        let root_game = hidden_copy(game);
        let root = Turn::at(decision, &mut self.root_options);
        self.set_root(&root_game, root.step(), decision)?;
        let mut g = root_game.clone();
        self.pairing.restart(&mut self.rng);
        let budget = self.iterations_now(decision);
        let edge = self.halve(&mut g, &root_game, root, budget)?;
        let option = self.tree.edges(self.tree.root)[edge].option as usize;
        self.keep_subtree(&root_game, root, edge, option)?;
        Ok(option)
    }

    /// Iterations for `decision`: its share of the budget by the schedule,
    /// less the visits kept from the turn's last decision (a quarter of it
    /// at least).
    fn iterations_now(&self, decision: Decision) -> u32 {
        let share = match decision {
            Decision::Placement { .. } => self.schedule.placement,
            _ => self.schedule.later,
        };
        let budget = ((self.iterations as f32 * share).round() as u32).max(1);
        let kept = self.tree.node(self.tree.root).visits;
        budget.saturating_sub(kept).max(budget.div_ceil(4))
    }

    /// One iteration on the determinization `g`, from the decision `root`,
    /// through the root's `edge`.
    fn iterate(&mut self, g: &mut Game, root: Turn, edge: usize) -> Result<()> {
        self.path.clear();
        let mut buf = std::mem::take(&mut self.options);
        buf.clone_from(&self.root_options);
        let walk = self.walk(g, root, edge, &mut buf);
        self.options = buf;
        let walk = walk?;
        let values = self.leaf_values(g, walk.over)?;
        self.tree.backup(
            &self.path,
            &rewards(&values, g.players().len(), self.strongest_weight(g)),
        );
        Ok(())
    }

    /// The value of the position an iteration's walk stopped at, per player
    /// ([`Evaluator`]) plus [`INITIATIVE`] times what the player to move
    /// could gain at once with a floor ([`GreedyBot::initiative`]). Spends
    /// `g` (its end is scored).
    fn leaf_values(&mut self, g: &mut Game, over: bool) -> Result<eval::Values> {
        let mover = g.current();
        let initiative = match over {
            false => INITIATIVE * self.greedy.initiative(g)?,
            true => 0.0,
        };
        let mut values = self.eval.values(g, over)?;
        values[mover] += initiative;
        Ok(values)
    }

    /// The strongest opponent's weight in the rewards of `g`'s players:
    /// [`STRONGEST`] from [`BLEND_FROM`] players on, else 1.
    fn strongest_weight(&self, g: &Game) -> f32 {
        match g.players().len() >= BLEND_FROM {
            true => self.strongest,
            false => 1.0,
        }
    }

    /// Play `g` on from `root`, by the tree and then by the greedy bot, to
    /// the horizon or the game's end.
    fn walk(&mut self, g: &mut Game, root: Turn, edge: usize, buf: &mut Buffers) -> Result<Walk> {
        let mut turns = 0usize;
        let mut at = Cursor::Root { edge };
        let mut key = 0u64;
        let mut turn = Some(root);
        loop {
            if turn.is_none() {
                if self.at_horizon(g, at) {
                    return Ok(Walk { over: false });
                }
                // A turn begins once the one before it ended, the root's
                // first: this is the walk's draw `turns - 1`.
                self.pair_draw(g, turns as u32 - 1);
            }
            let mut t = match turn {
                Some(t) => t,
                None => match Turn::begin(g, buf)? {
                    Some(t) => {
                        // A begun turn has drawn its tile: the chance node.
                        if let Some(tile) = t.tile() {
                            key = chance_key(key, tile);
                        }
                        t
                    }
                    None => return Ok(Walk { over: true }),
                },
            };
            let decision = t.decision(buf);
            let i = if decision.len() <= 1 {
                0
            } else {
                match self.choose(g, decision, &mut at, &mut key)? {
                    Some(i) => i,
                    None => return Ok(Walk { over: false }),
                }
            };
            if t.choose(g, buf, i)? {
                turns += 1;
                turn = None;
            } else {
                turn = Some(t);
            }
        }
    }

    /// Deal the `d`-th tile an iteration draws as a paired draw (the module
    /// documentation): the tile at the quantile the root option taken gives
    /// its visit, so every root option's v-th visit draws the same tiles (as
    /// far as the multiset allows), and its visits draw the kinds in
    /// proportion.
    fn pair_draw(&mut self, g: &mut Game, d: u32) {
        if let Some(&(node, edge)) = self.path.first() {
            let visit = self.tree.edges(node)[edge].visits;
            self.pairing.deal(g, visit, d);
        }
    }

    /// Whether the walk stops before the turn about to begin: it has left
    /// the tree and that turn is the searching player's.
    fn at_horizon(&self, g: &Game, at: Cursor) -> bool {
        matches!(at, Cursor::Grown | Cursor::Out) && g.current() == self.seat
    }

    /// The option to take at a decision point of an iteration: by the tree
    /// while the walk is in it (adding at most one node), else by the greedy
    /// bot; `None`: the walk stops here, at a node just added.
    fn choose(
        &mut self,
        g: &Game,
        decision: Decision,
        at: &mut Cursor,
        key: &mut u64,
    ) -> Result<Option<usize>> {
        let node = match *at {
            Cursor::Root { edge } => {
                return Ok(Some(self.take(self.tree.root, edge, at, key, true)));
            }
            Cursor::After { node, edge } => match self.tree.child(node, edge, *key) {
                Some(child) if self.tree.node(child).visits > 0 => child,
                Some(child) => {
                    // Seen before, not yet searched: its options are weighed
                    // now, unless the greedy bot weighed them when it was
                    // added.
                    if !self.tree.is_open(child) {
                        let priors = self.greedy.values(g, decision)?;
                        self.tree.open(child, priors);
                    }
                    *at = Cursor::Grown;
                    return Ok(Some(self.follow(child, at, key, false)));
                }
                None => return self.grow(g, decision, (node, edge), at, key),
            },
            Cursor::Grown | Cursor::Out => NONE,
        };
        if node == NONE {
            *at = Cursor::Out;
            return self.greedy.decide(g, decision).map(Some);
        }
        Ok(Some(self.follow(node, at, key, true)))
    }

    /// Add the decision point reached past `(node, edge)`. The search does
    /// not search one that begins a turn yet: the walk stops there when the turn
    /// is the searching player's (the node left unopened), else the greedy
    /// bot takes it, and the values it weighed the options with open the
    /// node for its next visit. Any other is opened and followed.
    fn grow(
        &mut self,
        g: &Game,
        decision: Decision,
        (node, edge): (u32, usize),
        at: &mut Cursor,
        key: &mut u64,
    ) -> Result<Option<usize>> {
        let child = self.tree.add(g.current());
        self.tree.link(node, edge, *key, child);
        *at = Cursor::Grown;
        if matches!(decision, Decision::Placement { .. }) {
            if g.current() == self.seat {
                return Ok(None);
            }
            let priors = self.greedy.values(g, decision)?;
            self.tree.open(child, priors);
            return Ok(Some(self.greedy.chosen()));
        }
        let priors = self.greedy.values(g, decision)?;
        self.tree.open(child, priors);
        Ok(Some(self.follow(child, at, key, false)))
    }

    /// Take the tree's choice at `node`; `stay`: the walk goes on in the tree.
    fn follow(&mut self, node: u32, at: &mut Cursor, key: &mut u64, stay: bool) -> usize {
        let edge = self.tree.select(node);
        self.take(node, edge, at, key, stay)
    }

    /// Take `edge` of `node`; `stay`: the walk goes on in the tree.
    fn take(
        &mut self,
        node: u32,
        edge: usize,
        at: &mut Cursor,
        key: &mut u64,
        stay: bool,
    ) -> usize {
        self.path.push((node, edge));
        *key = 0;
        if stay {
            *at = Cursor::After { node, edge };
        }
        self.tree.edges(node)[edge].option as usize
    }
}

/// Where an iteration's walk is.
#[derive(Clone, Copy)]
enum Cursor {
    /// At the root's decision; `edge`: the root edge to take (sequential
    /// halving's).
    Root { edge: usize },
    /// Past `edge` of `node`: the next decision point is its child.
    After { node: u32, edge: usize },
    /// A node was added: the rest is a playout.
    Grown,
    /// Left the tree: a playout.
    Out,
}

/// The draws since the last decision in the tree, as one key.
fn chance_key(key: u64, tile: u16) -> u64 {
    key.wrapping_mul(0x0000_0100_0000_01B3) ^ (tile as u64 + 1)
}

impl Bot for MctsBot {
    fn decide(&mut self, game: &Game, decision: Decision) -> Result<usize> {
        self.search(game, decision)
    }
}
