//! Copies of a game's parts that keep the copy's buffers: a search copies a
//! game into the same copy every iteration, and a derived `clone_from`
//! would allocate every list again. Each `clone_from` names every field, so
//! a field added to a part does not compile until it is copied here.

use super::{Game, Player, Stats, Tower};

impl Clone for Tower {
    fn clone(&self) -> Self {
        Tower {
            pos: self.pos,
            floors: self.floors.clone(),
            meeple: self.meeple,
            blocked: self.blocked,
            answers: self.answers.clone(),
        }
    }

    /// Reuses the floors' buffer.
    fn clone_from(&mut self, source: &Self) {
        self.pos = source.pos;
        self.floors.clone_from(&source.floors);
        self.meeple = source.meeple;
        self.blocked = source.blocked;
        self.answers.clone_from(&source.answers);
    }
}

impl Clone for Player {
    fn clone(&self) -> Self {
        Player {
            score: self.score,
            meeples: self.meeples,
            floors: self.floors.clone(),
        }
    }

    /// Reuses the floors' buffer.
    fn clone_from(&mut self, source: &Self) {
        self.score = source.score;
        self.meeples = source.meeples;
        self.floors.clone_from(&source.floors);
    }
}

impl Clone for Stats {
    fn clone(&self) -> Self {
        let mut copy = Stats::default();
        copy.clone_from(self);
        copy
    }

    /// Reuses the per-kind counts' buffers.
    fn clone_from(&mut self, source: &Self) {
        let Stats {
            turns,
            discards,
            captures,
            own_captures,
            exchanges,
            ransoms,
            ransom_points,
            floors_placed,
            floors_by_kind,
            captures_by_top,
        } = source;
        self.turns = *turns;
        self.discards = *discards;
        self.captures = *captures;
        self.own_captures = *own_captures;
        self.exchanges = *exchanges;
        self.ransoms = *ransoms;
        self.ransom_points = *ransom_points;
        self.floors_placed = *floors_placed;
        self.floors_by_kind.clone_from(floors_by_kind);
        self.captures_by_top.clone_from(captures_by_top);
    }
}

impl Clone for Game<'_> {
    fn clone(&self) -> Self {
        Game {
            tiles: self.tiles,
            rules: self.rules,
            board: self.board.clone(),
            features: self.features.clone(),
            players: self.players.clone(),
            table: self.table.clone(),
            prisoners: self.prisoners.clone(),
            meeples: self.meeples.clone(),
            towers: self.towers.clone(),
            tower_of_tile: self.tower_of_tile.clone(),
            deck: self.deck.clone(),
            next_draw: self.next_draw,
            current: self.current,
            this_tile: self.this_tile,
            acted: self.acted,
            capture_tower: self.capture_tower,
            capturable: self.capturable.clone(),
            capturable_known: self.capturable_known,
            ransoms_paid: self.ransoms_paid,
            stats: self.stats.clone(),
            events: self.events.clone(),
            range: self.range.clone(),
            scratch: self.scratch.clone(),
            roots: self.roots.clone(),
            on_features: self.on_features.clone(),
            tower_answers: self.tower_answers.clone(),
            standings: self.standings,
            state: self.state.clone(),
            history: self.history.clone(),
            income: self.income.clone(),
            listens: self.listens,
            cascade: self.cascade,
        }
    }

    /// Every field named, so that a field the game gains is copied too.
    fn clone_from(&mut self, source: &Self) {
        let Game {
            tiles,
            rules,
            board,
            features,
            players,
            table,
            prisoners,
            meeples,
            towers,
            tower_of_tile,
            deck,
            next_draw,
            current,
            this_tile,
            acted,
            capture_tower,
            capturable,
            capturable_known,
            ransoms_paid,
            stats,
            events,
            range,
            scratch,
            roots,
            on_features,
            tower_answers,
            standings,
            state,
            history,
            income,
            listens,
            cascade,
        } = source;
        self.tiles = *tiles;
        self.rules = *rules;
        self.board.clone_from(board);
        self.features.clone_from(features);
        self.players.clone_from(players);
        self.table.clone_from(table);
        self.prisoners.clone_from(prisoners);
        self.meeples.clone_from(meeples);
        self.towers.clone_from(towers);
        self.tower_of_tile.clone_from(tower_of_tile);
        self.deck.clone_from(deck);
        self.next_draw = *next_draw;
        self.current = *current;
        self.this_tile = *this_tile;
        self.acted = *acted;
        self.capture_tower = *capture_tower;
        self.capturable.clone_from(capturable);
        self.capturable_known = *capturable_known;
        self.ransoms_paid = *ransoms_paid;
        self.stats.clone_from(stats);
        self.events.clone_from(events);
        self.range.clone_from(range);
        self.scratch.clone_from(scratch);
        self.roots.clone_from(roots);
        self.on_features.clone_from(on_features);
        self.tower_answers.clone_from(tower_answers);
        self.standings = *standings;
        self.state.copy_from(state);
        self.history.copy_from(history);
        self.income.copy_from(income);
        self.listens = *listens;
        self.cascade = *cascade;
    }
}
