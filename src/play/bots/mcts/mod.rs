//! The `mcts` bot: information-set Monte Carlo tree search.
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
//! root, choosing at each node by UCB1 over the options opened so far
//! (progressive widening in the greedy bot's order, see [`tree`]); add the
//! first decision point not yet in the tree; then play on with the greedy
//! bot in every seat until [`HORIZON_ROUNDS`] rounds of turns after the root
//! (or the game's end), and value the position ([`eval`]). Every decision is
//! a node — placement, ransom, action, capture — with the options the kernel
//! lists, towers only through the `Rules` trait (via the kernel and the
//! greedy bot), so a new pack's floors are played without changes here.
//! Decisions with one option are taken without a node.
//!
//! **Backup (2 to 6 players).** A playout ends with a value per player; each
//! player's reward is their value minus the best of the other players'
//! values (their margin over the strongest opponent, in points). Every edge
//! on the path adds the reward of *the player who chose it*, so each player
//! maximises their own outcome at their own nodes (a max-n backup of reward
//! vectors).
//!
//! **Budget.** A fixed number of iterations per decision ([`DEFAULT_BUDGET`]
//! unless given), never a time limit, so a seed replays the same game. Within
//! a turn the subtree under the option taken is kept for the turn's next
//! decision (placement, then action, then capture).
//!
//! **Errors.** A rules hook that fails during the search stops it: the error
//! is the bot's answer, never hidden.

mod eval;
mod step;
mod tree;

use anyhow::Result;

use crate::kernel::determinize::{hidden_copy, redeal_into};
use crate::kernel::{Bot, Decision, Game};
use crate::play::bots::GreedyBot;
use crate::play::seed::{Stream, bot_stream};

use eval::{Evaluator, rewards};
use step::{Options, Phase, Step};
use tree::{NONE, Tree};

/// Iterations per decision of plain `mcts`.
pub const DEFAULT_BUDGET: u32 = 200;

/// Playouts stop this many rounds (a turn of every player) after the root.
pub const HORIZON_ROUNDS: usize = 2;

/// The `mcts` bot. See the module documentation.
pub struct MctsBot {
    iterations: u32,
    rng: Stream,
    /// Priors and playouts.
    greedy: GreedyBot,
    tree: Tree,
    eval: Evaluator,
    root_options: Options,
    options: Options,
    path: Vec<(u32, usize)>,
    /// The subtree kept for the turn's next decision.
    carry: Option<Carry>,
    /// The error that stopped the last search (see [`MctsBot::take_error`]).
    error: Option<anyhow::Error>,
}

/// Where the option just taken leads, to find its subtree again.
struct Carry {
    node: u32,
    signature: Signature,
}

/// What identifies a decision point within a turn.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Signature {
    turns: u32,
    tiles: usize,
    current: usize,
    meeples: usize,
    floors: u32,
    captures: u32,
    ransoms: u32,
    phase: Phase,
    options: usize,
}

impl Signature {
    fn of(game: &Game, phase: Phase, options: usize) -> Signature {
        let s = game.stats();
        Signature {
            turns: s.turns,
            tiles: game.board().tiles().len(),
            current: game.current(),
            meeples: game.meeples().len(),
            floors: s.floors_placed,
            captures: s.captures + s.own_captures,
            ransoms: s.ransoms,
            phase,
            options,
        }
    }
}

impl MctsBot {
    /// The bot in `seat` of the game with seed `game_seed`, on its own
    /// stream, searching `iterations` (at least 1) per decision.
    pub fn new(game_seed: u64, seat: usize, iterations: u32) -> MctsBot {
        let mut rng = Stream::new(game_seed, bot_stream(seat));
        let greedy = GreedyBot::new(rng.next_u64(), seat);
        MctsBot {
            iterations: iterations.max(1),
            rng,
            greedy,
            tree: Tree::default(),
            eval: Evaluator::default(),
            root_options: Options::default(),
            options: Options::default(),
            path: Vec::new(),
            carry: None,
            error: None,
        }
    }

    /// The error that stopped the last search, if any. While [`Bot::decide`]
    /// returns a bare index, a failed search answers an index past the
    /// options (so the kernel stops the game) and keeps its error here.
    pub fn take_error(&mut self) -> Option<anyhow::Error> {
        self.error.take()
    }

    /// Search `decision` and return the index of the option to take.
    pub fn search(&mut self, game: &Game, decision: Decision) -> Result<usize> {
        if decision.len() <= 1 {
            self.carry = None;
            return Ok(0);
        }
        let root_game = hidden_copy(game);
        let phase = self.root_options.take(decision);
        self.set_root(&root_game, phase, decision)?;
        let mut g = root_game.clone();
        for _ in 0..self.iterations {
            redeal_into(&mut g, &root_game, &mut self.rng);
            self.iterate(&mut g, phase)?;
        }
        let edge = self.tree.best();
        let option = self.tree.node(self.tree.root).edges[edge].option as usize;
        self.keep_subtree(&root_game, phase, edge, option)?;
        Ok(option)
    }

    /// Make the root the node kept from the turn's last decision when it is
    /// this one, else a new tree.
    fn set_root(&mut self, game: &Game, phase: Phase, decision: Decision) -> Result<()> {
        let here = Signature::of(game, phase, decision.len());
        if let Some(carry) = self.carry.take()
            && carry.signature == here
            && carry.node != NONE
            && self.tree.node(carry.node).edges.len() == decision.len()
        {
            self.tree.root = carry.node;
            return Ok(());
        }
        self.tree.clear();
        let priors = self.greedy.values(game, decision).to_vec();
        self.tree.root = self.tree.add(game.current(), &priors);
        Ok(())
    }

    /// Remember the subtree under the option taken, when the turn goes on
    /// to another decision of this player with no tile drawn.
    fn keep_subtree(
        &mut self,
        game: &Game,
        phase: Phase,
        edge: usize,
        option: usize,
    ) -> Result<()> {
        self.carry = None;
        let mut g = game.clone();
        self.options
            .take(self.root_options.decision(phase).expect("a decision"));
        let mut step = Step::default();
        let next = self.options.apply(&mut g, phase, option, &mut step)?;
        if step.turn_ended || next == Phase::Draw {
            return Ok(());
        }
        if let Some(node) = self.tree.child(self.tree.root, edge, 0) {
            self.carry = Some(Carry {
                node,
                signature: Signature::of(&g, next, self.options.count(next)),
            });
        }
        Ok(())
    }

    /// One iteration on the determinization `g`, from the root at `phase`.
    fn iterate(&mut self, g: &mut Game, root: Phase) -> Result<()> {
        let n = g.players().len();
        let horizon = HORIZON_ROUNDS * n;
        let (mut phase, mut turns) = (root, 0usize);
        let mut at = Cursor::Root;
        let mut key = 0u64;
        self.path.clear();
        self.copy_root_options(root);
        loop {
            let mut step = Step::default();
            phase = self.options.draw(g, phase, &mut step);
            if let Some(tile) = step.drawn {
                key = chance_key(key, tile);
            }
            if phase == Phase::Over {
                break;
            }
            let count = self.options.count(phase);
            let i = if count <= 1 {
                0
            } else {
                self.choose(g, phase, &mut at, &mut key)
            };
            let mut step = Step::default();
            phase = self.options.apply(g, phase, i, &mut step)?;
            if step.turn_ended {
                turns += 1;
                if turns >= horizon {
                    break;
                }
            }
        }
        let values = self.eval.values(g, phase == Phase::Over);
        self.tree.backup(&self.path, &rewards(&values, n));
        Ok(())
    }

    fn copy_root_options(&mut self, root: Phase) {
        let decision = self.root_options.decision(root).expect("a decision");
        self.options.take(decision);
    }

    /// The option to take at a decision point of an iteration: by the tree
    /// while the walk is in it (adding at most one node), else by the greedy
    /// bot.
    fn choose(&mut self, g: &Game, phase: Phase, at: &mut Cursor, key: &mut u64) -> usize {
        let node = match *at {
            Cursor::Root => self.tree.root,
            Cursor::After { node, edge } => match self.tree.child(node, edge, *key) {
                Some(child) => child,
                None => {
                    let decision = self.options.decision(phase).expect("a decision");
                    let priors = self.greedy.values(g, decision).to_vec();
                    let child = self.tree.add(g.current(), &priors);
                    self.tree.link(node, edge, *key, child);
                    *at = Cursor::Grown;
                    return self.follow(child, at, key, false);
                }
            },
            Cursor::Grown | Cursor::Out => NONE,
        };
        if node == NONE {
            *at = Cursor::Out;
            let decision = self.options.decision(phase).expect("a decision");
            return self.greedy.decide(g, decision);
        }
        self.follow(node, at, key, true)
    }

    /// Take the tree's choice at `node`; `stay`: the walk goes on in the tree.
    fn follow(&mut self, node: u32, at: &mut Cursor, key: &mut u64, stay: bool) -> usize {
        let edge = self.tree.select(node);
        self.path.push((node, edge));
        *key = 0;
        if stay {
            *at = Cursor::After { node, edge };
        }
        self.tree.node(node).edges[edge].option as usize
    }
}

/// Where an iteration's walk is.
#[derive(Clone, Copy)]
enum Cursor {
    /// At the root's decision.
    Root,
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
    fn decide(&mut self, game: &Game, decision: Decision) -> usize {
        match self.search(game, decision) {
            Ok(i) => i,
            Err(e) => {
                self.error = Some(e);
                decision.len()
            }
        }
    }
}
