//! What the rules answer in a scenario's position, with no expectation to
//! compare: each tower's range and the meeples a floor just placed there
//! may take, which seats may build or top it, and what each ransom costs.
//! The browser studio's board is a scenario position, and these are the
//! questions a scenario's `expect` asks, answered by the same functions.

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::ScenarioFile;
use super::expect::{capturable_cells, range_cells, ransom_cost};
use crate::kernel::{FloorKind, Game};
use crate::rules::{Home, Ruleset};

/// The answers about one tower.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TowerAnswers {
    /// The tower's cell.
    pub at: [i32; 2],
    /// Its floors, bottom to top, by kind.
    pub floors: Vec<String>,
    /// The cells it captures from, relative to it (empty with no floor).
    pub range: Vec<[i32; 2]>,
    /// The cells of the meeples a floor just placed on it may take.
    pub captures: Vec<[i32; 2]>,
    /// For each floor kind, the seats that may put one on it now.
    pub build: Vec<KindSeats>,
    /// The seats that may put a meeple on top of it now.
    pub top: Vec<usize>,
}

/// The seats that may build a floor of a kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindSeats {
    pub kind: String,
    pub seats: Vec<usize>,
}

/// What a ransom costs a payer to free a meeple of theirs a captor holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RansomAnswer {
    pub payer: usize,
    pub captor: usize,
    /// Points, or `None` when the rules allow no ransom.
    pub cost: Option<u32>,
}

/// Every answer of a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answers {
    pub players: usize,
    pub towers: Vec<TowerAnswers>,
    /// For each payer and each other seat as captor.
    pub ransoms: Vec<RansomAnswer>,
}

/// What the rules were answering when a hook failed: the context of every
/// error of the answers themselves, so that a caller tells a rules failure
/// (a hook that throws, loops or answers the wrong type) from a position
/// that cannot be set up (`anyhow::Error::downcast_ref` finds it).
#[derive(Clone, Debug)]
pub struct Answering(pub String);

impl std::fmt::Display for Answering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The answers in the position of scenario `index` of `file`, under `set`
/// (or the rules the scenario names); its steps are not played. An error
/// of the position is the scenario's; an error of an answer has an
/// [`Answering`] context.
pub fn answers(home: &Home, set: &Ruleset, file: &ScenarioFile, index: usize) -> Result<Answers> {
    let raw = file.raw.scenario[index].get_ref();
    let src = &file.source;
    let own = super::own_rules(home, set, src, raw)?;
    let set = own.as_ref().unwrap_or(set);
    let rules = set.rules();
    let mut game = super::position::build(src, set, rules.as_ref(), raw)?;
    super::state::set(src, &mut game, raw)?;
    // Settled as a scenario's position is before its steps and
    // expectations: the hooks see the turn's tile, but the turn is not
    // opened (the steps are not played here).
    super::steps::show_turn_tile(src, &mut game, raw)?;
    game.settle(None)?;
    let towers = (0..game.towers().len())
        .map(|t| tower_answers(set, &game, t))
        .collect::<Result<_>>()?;
    let players = game.players().len();
    let mut ransoms = Vec::new();
    for payer in 0..players {
        for captor in (0..players).filter(|&c| c != payer) {
            let cost = ransom_cost(&game, payer, captor).with_context(|| {
                Answering(format!("the ransom seat {payer} pays seat {captor}"))
            })?;
            ransoms.push(RansomAnswer {
                payer,
                captor,
                cost,
            });
        }
    }
    Ok(Answers {
        players,
        towers,
        ransoms,
    })
}

fn tower_answers(set: &Ruleset, game: &Game, t: usize) -> Result<TowerAnswers> {
    let tower = &game.towers()[t];
    let at = [tower.pos.x, tower.pos.y];
    let context = || Answering(format!("the tower at [{}, {}]", at[0], at[1]));
    let cells = |v: Vec<(i32, i32)>| v.into_iter().map(|(x, y)| [x, y]).collect::<Vec<_>>();
    let (range, captures) = if tower.floors.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        (
            cells(range_cells(game, t).with_context(context)?),
            cells(capturable_cells(game, t).with_context(context)?),
        )
    };
    let seats = game.players().len();
    let mut build = Vec::new();
    for (k, decl) in set.floors().iter().enumerate() {
        let mut may = Vec::new();
        for s in 0..seats {
            if game
                .allows_floor(t, k as FloorKind, s)
                .with_context(context)?
            {
                may.push(s);
            }
        }
        build.push(KindSeats {
            kind: decl.name.clone(),
            seats: may,
        });
    }
    let mut top = Vec::new();
    for s in 0..seats {
        if game.allows_meeple(t, s).with_context(context)? {
            top.push(s);
        }
    }
    Ok(TowerAnswers {
        at,
        floors: tower
            .floors
            .iter()
            .map(|&k| set.floors()[k as usize].name.clone())
            .collect(),
        range,
        captures,
        build,
        top,
    })
}
