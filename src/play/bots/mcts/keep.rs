//! The subtree kept within a turn: after a
//! decision, the subtree under the option taken becomes the root of the
//! turn's next decision, found again by what identifies a decision point
//! within a turn ([`Signature`]).

use anyhow::Result;

use crate::kernel::{Decision, Game, Step, Turn};

use super::MctsBot;
use super::tree::NONE;

/// Where the option just taken leads, to find its subtree again.
pub(super) struct Carry {
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
    step: Step,
    options: usize,
}

impl Signature {
    fn of(game: &Game, step: Step, options: usize) -> Signature {
        let s = game.stats();
        Signature {
            turns: s.turns,
            tiles: game.board().tiles().len(),
            current: game.current(),
            meeples: game.meeples().len(),
            floors: s.floors_placed,
            captures: s.captures + s.own_captures,
            ransoms: s.ransoms,
            step,
            options,
        }
    }
}

impl MctsBot {
    /// Make the root the node kept from the turn's last decision when it is
    /// this one, else a new tree.
    pub(super) fn set_root(&mut self, game: &Game, step: Step, decision: Decision) -> Result<()> {
        let here = Signature::of(game, step, decision.len());
        if let Some(carry) = self.carry.take()
            && carry.signature == here
            && carry.node != NONE
            && self.tree.is_open(carry.node)
            && self.tree.edges(carry.node).len() == decision.len()
        {
            self.tree.root = carry.node;
            return Ok(());
        }
        self.tree.clear();
        let root = self.tree.add(game.current());
        let priors = self.greedy.values(game, decision)?;
        self.tree.open(root, priors);
        self.tree.root = root;
        Ok(())
    }

    /// Remember the subtree under the option taken, when the turn goes on
    /// to another decision of this player with no tile drawn.
    pub(super) fn keep_subtree(
        &mut self,
        game: &Game,
        root: Turn,
        edge: usize,
        option: usize,
    ) -> Result<()> {
        self.carry = None;
        let mut g = game.clone();
        self.options.clone_from(&self.root_options);
        let mut turn = root;
        if turn.choose(&mut g, &mut self.options, option)? {
            return Ok(());
        }
        if let Some(node) = self.tree.child(self.tree.root, edge, 0) {
            let count = turn.decision(&self.options).len();
            self.carry = Some(Carry {
                node,
                signature: Signature::of(&g, turn.step(), count),
            });
        }
        Ok(())
    }
}
