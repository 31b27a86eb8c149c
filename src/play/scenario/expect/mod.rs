//! What a scenario says must hold, checked against the game: each
//! expectation asks the rules its question as the game would (the kernel's
//! own capture question, the tower answers the game keeps, the hooks'
//! ransom and supply) and compares.

mod asking;
mod checker;
mod records;
mod towers;

use anyhow::{Context, Result};
use toml::Spanned;

use super::checked::{number, seat};
use super::failure::Failure;
use super::file::RawExpect;
use super::position::floor_counts;
use crate::kernel::Game;
use crate::kernel::diag::Source;
use crate::rules::Ruleset;
pub(super) use asking::{capturable_cells, range_cells, ransom_cost};
use checker::{Checker, asked, list};

/// Check every expectation; the failures are added to `failures`. How many
/// were checked.
pub fn check(
    src: &Source,
    set: &Ruleset,
    game: &Game,
    events: &[serde_json::Value],
    expect: &RawExpect,
    failures: &mut Vec<Failure>,
) -> Result<usize> {
    let mut c = Checker {
        src,
        set,
        game,
        failures,
        checked: 0,
    };
    for r in &expect.range {
        c.range(r)?;
    }
    for cap in &expect.capturable {
        c.capturable(cap)?;
    }
    for may in &expect.floors {
        c.may(may, true)?;
    }
    for may in &expect.top {
        c.may(may, false)?;
    }
    for r in &expect.ransom {
        let r = r.get_ref();
        let n = game.players().len();
        let payer = match &r.payer {
            Some(p) => seat(src, p, n)?,
            None => game.current(),
        };
        let captor = seat(src, &r.captor, n)?;
        let want = match r.cost.get_ref() {
            toml::Value::Integer(i) => {
                let cost = Spanned::new(r.cost.span(), *i);
                number::<u32>(src, &cost, 0, u32::MAX.into(), "a ransom's cost")?.to_string()
            }
            toml::Value::String(s) if s == "none" => "none".to_string(),
            other => {
                return Err(src.error_at(
                    r.cost.span(),
                    format!("`cost` is a number of points or \"none\", not {other}"),
                ));
            }
        };
        let got = ransom_cost(game, payer, captor).with_context(|| asked(src, r.cost.span()))?;
        let got = got.map_or("none".to_string(), |c| c.to_string());
        c.compare(
            r.cost.span(),
            format!("ransom seat {payer} pays seat {captor}"),
            want,
            got,
        );
    }
    if let Some(table) = &expect.table {
        let want = floor_counts(src, set, table)?;
        let (w, g) = (c.supply_text(&want), c.supply_text(game.table_floors()));
        c.compare(table.span(), "the table's floors".to_string(), w, g);
    }
    for s in &expect.supply {
        let s = s.get_ref();
        let n = game.players().len();
        let seat = seat(src, &s.seat, n)?;
        let want = floor_counts(src, set, &s.floors)?;
        let got = game
            .rules()
            .seat_supply(n, set.tiles().foundation_tiles(), seat)
            .with_context(|| asked(src, s.floors.span()))?;
        let (w, g) = (c.supply_text(&want), c.supply_text(&got));
        c.compare(
            s.floors.span(),
            format!("supply of seat {seat} ({n} players)"),
            w,
            g,
        );
    }
    for p in &expect.prisoners {
        let p = p.get_ref();
        let n = game.players().len();
        let (captor, owner) = (seat(src, &p.captor, n)?, seat(src, &p.owner, n)?);
        let got = game.prisoners(captor, owner);
        let want: u8 = number(src, &p.count, 0, MAX_PRISONERS, "a count of prisoners")?;
        c.compare(
            p.count.span(),
            format!("prisoners of seat {owner} held by seat {captor}"),
            want.to_string(),
            got.to_string(),
        );
    }
    if let Some(scores) = &expect.scores {
        let want = scores_of(src, scores)?;
        c.compare(
            scores.span(),
            "scores".into(),
            list(&want),
            list(&game.scores()),
        );
    }
    if let Some(end) = &expect.end_scores {
        let want = scores_of(src, end)?;
        let mut after = game.clone();
        if after.turn_begun() {
            after.end_turn()?;
        }
        after
            .final_scoring()
            .with_context(|| asked(src, end.span()))?;
        c.compare(
            end.span(),
            "scores after the end of the game".into(),
            list(&want),
            list(&after.scores()),
        );
    }
    for s in &expect.state {
        let v = super::state::resolve(src, game.rules(), game.players().len(), s.get_ref())?;
        let got = game.state().get(v.var, v.at);
        let span = match &s.get_ref().value {
            Some(value) => value.span(),
            None => s.span(),
        };
        c.compare(
            span,
            v.what.clone(),
            v.shown(v.value),
            got.map_or("none".into(), |g| v.shown(g)),
        );
    }
    if let Some(want) = &expect.events {
        c.events(want, events)?;
    }
    if let Some(want) = &expect.events_include {
        c.events_include(want, events)?;
    }
    for name in &expect.no_events {
        c.no_events(name, events)?;
    }
    Ok(c.checked)
}

/// The most prisoners one seat may hold of another: every meeple of a
/// player.
const MAX_PRISONERS: i64 = crate::kernel::MEEPLES_PER_PLAYER as i64;

/// Scores a scenario expects, each one a score can be.
fn scores_of(src: &Source, scores: &Spanned<Vec<Spanned<i64>>>) -> Result<Vec<u32>> {
    scores
        .get_ref()
        .iter()
        .map(|s| number(src, s, 0, u32::MAX.into(), "a score"))
        .collect()
}
