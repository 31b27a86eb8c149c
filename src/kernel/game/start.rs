//! A new game: its deck dealt from a seed or given, each seat's supply and
//! the table's as the rules give them, the start tile at the origin.

use anyhow::{Result, ensure};

use super::{Game, MEEPLES_PER_PLAYER, Player, RuleIncome, Stats, acts};
use crate::kernel::board::Board;
use crate::kernel::effects::{History, PackState, SeatTally};
use crate::kernel::features::Features;
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::{MAX_PLAYERS, MIN_PLAYERS};
use crate::kernel::rules::Rules;
use crate::kernel::tiles::TileSet;

impl<'a> Game<'a> {
    /// A new game with the deck `tiles` deals for `seed` (shuffled by the
    /// seed's deck stream; see `kernel::tiles::Dealing`).
    pub fn new(
        tiles: &'a TileSet,
        rules: &'a dyn Rules,
        players: usize,
        seed: u64,
    ) -> Result<Self> {
        Game::dealt(tiles, rules, players, tiles.deal(seed), Some(seed))
    }

    /// A new game drawing exactly `deck` (first element first), with the start
    /// tile already placed at the origin.
    pub fn with_deck(
        tiles: &'a TileSet,
        rules: &'a dyn Rules,
        players: usize,
        deck: Vec<u16>,
    ) -> Result<Self> {
        Game::dealt(tiles, rules, players, deck, None)
    }

    /// A new game drawing `deck`, dealt from `seed` when it was, with the
    /// start tile at the origin.
    fn dealt(
        tiles: &'a TileSet,
        rules: &'a dyn Rules,
        players: usize,
        deck: Vec<u16>,
        seed: Option<u64>,
    ) -> Result<Self> {
        let mut game = Game::unplaced(tiles, rules, players, deck, seed)?;
        game.put_tile(tiles.start as u16, Pos::ORIGIN, 0)?;
        game.this_tile = None;
        Ok(game)
    }

    /// A game drawing `deck`, each seat with the supply the rules give it,
    /// and no tile on the board yet (not even the start tile).
    pub(in crate::kernel) fn unplaced(
        tiles: &'a TileSet,
        rules: &'a dyn Rules,
        players: usize,
        deck: Vec<u16>,
        seed: Option<u64>,
    ) -> Result<Self> {
        rules.begin_game(seed);
        ensure!(
            (MIN_PLAYERS..=MAX_PLAYERS).contains(&players),
            crate::kernel::diag::BadInput(format!(
                "a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
            ))
        );
        ensure!(
            rules.floor_kinds().len() <= 32,
            "at most 32 floor kinds, not {}",
            rules.floor_kinds().len()
        );
        let mut seats = Vec::with_capacity(players);
        for seat in 0..players {
            let supply = rules.seat_supply(players, tiles.foundation_tiles(), seat)?;
            ensure!(
                supply.len() == rules.floor_kinds().len(),
                "the rules give {} floor counts for {} floor kinds",
                supply.len(),
                rules.floor_kinds().len()
            );
            seats.push(Player {
                score: 0,
                meeples: MEEPLES_PER_PLAYER,
                floors: supply,
            });
        }
        let table = rules.table_supply(players, tiles.foundation_tiles())?;
        ensure!(
            table.len() == rules.floor_kinds().len(),
            "the rules give {} table floor counts for {} floor kinds",
            table.len(),
            rules.floor_kinds().len()
        );
        Ok(Game {
            tiles,
            rules,
            board: Board::new(),
            features: Features::default(),
            players: seats,
            table,
            prisoners: vec![0; players * players],
            meeples: Vec::new(),
            towers: Vec::new(),
            tower_of_tile: Vec::new(),
            deck,
            next_draw: 0,
            current: 0,
            this_tile: None,
            acted: false,
            capture_tower: None,
            capturable: Vec::new(),
            capturable_known: false,
            ransoms_paid: 0,
            stats: Stats::default(),
            events: None,
            range: Vec::new(),
            scratch: Vec::new(),
            roots: Vec::new(),
            on_features: Vec::new(),
            tower_answers: Vec::new(),
            standings: 0,
            state: PackState::new(rules.state_vars(), players),
            history: History {
                tallies: vec![SeatTally::default(); players],
                ..History::default()
            },
            income: RuleIncome::new(players),
            listens: rules.listens(),
            cascade: acts::Cascade::default(),
        })
    }
}
