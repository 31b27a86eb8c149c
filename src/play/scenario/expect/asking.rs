//! The rules' questions asked as the game would ask them now, for the
//! expectations and for the answers a scenario prints.

use anyhow::Result;

use crate::kernel::capture::capturable;
use crate::kernel::{Game, RansomView};

/// What a ransom costs `payer` to free a meeple `captor` holds, as the game
/// would ask it now (`None`: no ransom allowed).
pub(in crate::play::scenario) fn ransom_cost(
    game: &Game,
    payer: usize,
    captor: usize,
) -> Result<Option<u32>> {
    let view = RansomView {
        payer,
        captor,
        score: game.players()[payer].score,
        paid_this_turn: if payer == game.current() {
            game.ransoms_paid()
        } else {
            0
        },
    };
    game.with_table(|t| game.rules().ransom(&view, t))
}

/// The cells (relative to it) tower `t` captures from, as its floors stand.
pub(in crate::play::scenario) fn range_cells(game: &Game, t: usize) -> Result<Vec<(i32, i32)>> {
    let mut cells = Vec::new();
    game.rules()
        .capture_range(&game.towers()[t].stack(), &mut cells)?;
    Ok(cells)
}

/// The cells of the meeples a floor just placed on tower `t` may take: the
/// kernel's one capture question.
pub(in crate::play::scenario) fn capturable_cells(
    game: &Game,
    t: usize,
) -> Result<Vec<(i32, i32)>> {
    let (mut range, mut found) = (Vec::new(), Vec::new());
    let tower = &game.towers()[t];
    game.with_table(|table| {
        capturable(
            game.rules(),
            &tower.view(),
            table,
            game.meeples(),
            |_, m| game.meeple_on(m.pos, m.spot),
            &mut range,
            &mut found,
        )
    })?;
    Ok(found
        .iter()
        .map(|&i| {
            let m = &game.meeples()[i as usize];
            (m.pos.x, m.pos.y)
        })
        .collect())
}
