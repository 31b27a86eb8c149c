//! A scenario's decisions, played from its position through the kernel's
//! own operations (so each must be legal), and the log records they wrote.

use anyhow::{Context, Result};

use super::checked::{cell, number, rotation, seat};
use super::failure::Failure;
use super::file::{At, RawScenario, RawStep};
use super::position::floor_kind;
use crate::kernel::diag::Source;
use crate::kernel::geometry::Pos;
use crate::kernel::{Action, Game, Placement};
use crate::play::log::{LogContext, records};
use crate::rules::Ruleset;

/// Play the scenario's steps, if any; a step the game refuses is a
/// failure (and the steps stop there). The records the steps logged, as
/// JSON objects (without `start`, and without `game` and `turn`).
pub fn play(
    src: &Source,
    set: &Ruleset,
    game: &mut Game,
    raw: &RawScenario,
    failures: &mut Vec<Failure>,
) -> Result<Vec<serde_json::Value>> {
    // The last tile set up is the turn's own when the steps begin with an
    // action rather than a tile.
    let opens_turn = raw
        .steps
        .first()
        .is_some_and(|s| s.get_ref().tile.is_none() && s.get_ref().end.is_none());
    let shown = show_turn_tile(src, game, raw)?;
    game.settle(shown.filter(|_| opens_turn))?;
    game.record_events();
    for (i, step) in raw.steps.iter().enumerate() {
        let refused = step.get_ref().refused;
        let (line, col) = src.line_col(step.span().start);
        let at = format!("{}:{line}:{col}", src.path.display());
        let played = one_step(src, set, game, step.get_ref())
            .with_context(|| format!("step {} ({at})", i + 1))?;
        let (expected, got) = match played {
            Err(e) if !refused => ("a legal decision", e),
            Ok(()) if refused => ("the game refuses it", "the game allowed it".to_string()),
            _ => continue,
        };
        failures.push(Failure {
            at,
            what: format!("step {}", i + 1),
            expected: expected.into(),
            got,
        });
        break;
    }
    let floors: Vec<String> = set.floors().iter().map(|f| f.name.clone()).collect();
    let ctx = LogContext {
        game: 0,
        seed: 0,
        packs: set.pack_names(),
        params: set.params(),
        pack_files: &[],
        players: game.players().len(),
        tiles: set.tiles(),
        floors: &floors,
    };
    let events = game.take_events();
    let mut out = Vec::new();
    for r in records(&ctx, &events).into_iter().skip(1) {
        // The run's game index and turn say nothing of a scenario.
        let mut value = serde_json::to_value(r)?;
        if let Some(fields) = value.as_object_mut() {
            fields.remove("game");
            fields.remove("turn");
        }
        out.push(value);
    }
    Ok(out)
}

/// Unless the steps begin with a tile, the last tile of the position is
/// the one the hooks see as placed this turn (`game().tile`), as the steps
/// play it: where it stands, if there is one.
pub fn show_turn_tile(src: &Source, game: &mut Game, raw: &RawScenario) -> Result<Option<Pos>> {
    let first_is_tile = raw
        .steps
        .first()
        .is_some_and(|s| s.get_ref().tile.is_some());
    let Some(last) = raw.tiles.last().filter(|_| !first_is_tile) else {
        return Ok(None);
    };
    let at = cell(src, &last.get_ref().at)?;
    game.show_turn_tile(at)?;
    Ok(Some(at))
}

/// One step: `Ok(Err(why))` when the game refuses it (a failure of the
/// scenario), `Err` when the step is written wrong (bad input) or a hook
/// fails.
fn one_step(
    src: &Source,
    set: &Ruleset,
    game: &mut Game,
    step: &RawStep,
) -> Result<Result<(), String>> {
    let given = [
        step.tile.is_some(),
        step.ransom.is_some(),
        step.meeple.is_some(),
        step.floor.is_some(),
        step.top.is_some(),
        step.capture.is_some(),
        step.pass.is_some(),
        step.end.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() != 1 {
        let at = step.at.as_ref().map(|a| a.span()).unwrap_or(0..0);
        let at = [
            step.tile.as_ref().map(|s| s.span()),
            step.floor.as_ref().map(|s| s.span()),
            step.ransom.as_ref().map(|s| s.span()),
            step.meeple.as_ref().map(|s| s.span()),
        ]
        .into_iter()
        .flatten()
        .next()
        .unwrap_or(at);
        return Err(src.error_at(
            at,
            "a step is one of: `tile` (with `at`, `rot`), `ransom`, `meeple`, `floor` (with `at`), \
             `top`, `capture`, `pass`, `end` (\"turn\" or \"game\")",
        ));
    }
    let done = |r: Result<()>| -> Result<Result<(), String>> {
        match r {
            Ok(()) => Ok(Ok(())),
            // A hook's error is the pack's, not the scenario's: it stops the run.
            Err(e) if is_hook_error(&e) => Err(e),
            Err(e) => Ok(Err(format!("{e:#}"))),
        }
    };
    if let Some(tile) = &step.tile {
        let kind = set
            .tiles()
            .find(tile.get_ref())
            .map_err(|e| src.error_at(tile.span(), format!("{e:#}")))?;
        let Some(at) = &step.at else {
            return Err(src.error_at(tile.span(), "a `tile` step needs `at = [x, y]`"));
        };
        let pos = cell(src, at)?;
        let rot = match &step.rot {
            Some(r) => rotation(src, r)?,
            None => 0,
        };
        let turn_ended = match game.turn_begun() {
            true => game.end_turn(),
            false => Ok(()),
        };
        return done(
            turn_ended
                .and_then(|()| game.tile_drawn(kind as u16))
                .and_then(|()| game.place_tile(kind as u16, Placement { pos, rot })),
        );
    }
    if let Some(captor) = &step.ransom {
        let captor = seat(src, captor, game.players().len())?;
        return done(game.pay_ransom(captor));
    }
    if let Some(seg) = &step.meeple {
        let segment = number(src, seg, 0, u8::MAX.into(), "a segment")?;
        return done(game.act(Action::Meeple { segment }));
    }
    if let Some(kind) = &step.floor {
        let k = floor_kind(src, set, kind)?;
        let Some(at) = &step.at else {
            return Err(src.error_at(
                kind.span(),
                "a `floor` step needs the tower's `at = [x, y]`",
            ));
        };
        let tower = tower_at(src, game, at)?;
        return done(game.act(Action::Floor { tower, kind: k }));
    }
    if let Some(at) = &step.top {
        let tower = tower_at(src, game, at)?;
        return done(game.act(Action::TowerMeeple { tower }));
    }
    if let Some(at) = &step.capture {
        let pos = cell(src, at)?;
        let on = step.on.as_ref().map(|o| o.get_ref().as_str());
        let found: Vec<usize> = game
            .meeples()
            .iter()
            .enumerate()
            .filter(|(_, m)| m.pos == pos && on.is_none_or(|o| game.spot_name(m.pos, m.spot) == o))
            .map(|(i, _)| i)
            .collect();
        return match found.as_slice() {
            [one] => done(game.capture(*one)),
            [] => Ok(Err(format!("no meeple at {pos} to capture"))),
            _ => Err(src.error_at(
                at.span(),
                "more than one meeple stands there: say which with `on = \"road\"` (or city, field, cloister, tower)",
            )),
        };
    }
    if step.pass.is_some() {
        return done(game.act(Action::Pass));
    }
    let end = step.end.as_ref().expect("one key given");
    match end.get_ref().as_str() {
        "turn" => done(game.end_turn()),
        "game" => done(game.end_turn().and_then(|()| game.final_scoring())),
        other => Err(src.error_at(
            end.span(),
            format!("`end` is \"turn\" or \"game\", not \"{other}\""),
        )),
    }
}

/// The tower on the foundation at a cell, as a decision names it.
fn tower_at(src: &Source, game: &Game, at: &At) -> Result<u16> {
    let pos = cell(src, at)?;
    game.tower_at(pos)
        .and_then(|t| u16::try_from(t).ok())
        .ok_or_else(|| src.error_at(at.span(), format!("no foundation at {pos}")))
}

/// Is this error a hook's (a pack's script failing), rather than the game
/// refusing a decision?
fn is_hook_error(e: &anyhow::Error) -> bool {
    crate::kernel::diag::is_bad_input(e)
}
