//! The setup asked for every number of players, and the tower hooks asked
//! about each floor kind, before any game is played.

use anyhow::Result;

use crate::kernel::{Asking, FloorKind, MAX_PLAYERS, MIN_PLAYERS, Rules, StackView};
use crate::rules::Ruleset;

use super::report::Report;

/// A setup that fails, with the first number of players it fails for.
struct SetupFailure {
    players: usize,
    error: anyhow::Error,
}

/// Ask the setup for every number of players (2 to 8). A pack may play
/// fewer: the counts its setup answers, when they run unbroken from the
/// least to the greatest, are the ones it plays (its refusal of the others,
/// in its own words, is a note). Otherwise each distinct failure is a
/// problem, once (a hook that fails usually fails alike for every number of
/// players), with the first number of players it fails for. The counts it
/// plays, or `None` when the setup is broken.
pub(super) fn check_setup(
    set: &Ruleset,
    rules: &dyn Rules,
    report: &mut Report,
) -> Option<std::ops::RangeInclusive<usize>> {
    let kinds = set.floors().len();
    let mut failures: Vec<SetupFailure> = Vec::new();
    let mut plays = Vec::new();
    for players in MIN_PLAYERS..=MAX_PLAYERS {
        let foundations = set.tiles().foundation_tiles();
        let supplies = rules
            .seat_supply(players, foundations, 0)
            .and_then(|seat| Ok((seat, rules.table_supply(players, foundations)?)));
        match supplies {
            Ok((seat, table)) => {
                if plays.is_empty() && kinds > 0 {
                    no_floors_warnings(set, players, &seat, &table, report);
                }
                plays.push(players);
            }
            Err(error) => {
                let seen = failures.iter().any(|f| same_error(&f.error, &error));
                if !seen {
                    failures.push(SetupFailure { players, error });
                }
            }
        }
    }
    let (least, most) = match (plays.first(), plays.last()) {
        (Some(&least), Some(&most)) => (least, most),
        _ => (MIN_PLAYERS, MAX_PLAYERS),
    };
    let unbroken = !plays.is_empty() && most - least + 1 == plays.len();
    if unbroken && !failures.is_empty() {
        let refusal = failures
            .iter()
            .map(|f| format!("for {} players: {:#}", f.players, f.error))
            .collect::<Vec<_>>()
            .join("; ");
        report.notes.push(format!(
            "plays {least}–{most} players; its setup refuses the others ({refusal})"
        ));
        return Some(least..=most);
    }
    for f in &failures {
        report
            .problems
            .push(format!("setup for {} players: {:#}", f.players, f.error));
    }
    failures.is_empty().then_some(least..=most)
}

/// Warnings for the floor kinds setup gives nobody in a game of `players`.
fn no_floors_warnings(
    set: &Ruleset,
    players: usize,
    seat: &[u32],
    table: &[u32],
    report: &mut Report,
) {
    for k in (0..set.floors().len()).filter(|&k| seat[k] == 0 && table[k] == 0) {
        let whom = match set.floors()[k].table {
            true => "the table",
            false => "a player",
        };
        report.warnings.push(format!(
            "setup gives no `{}` floors to {whom} in a {players}-player game",
            set.floors()[k].name
        ));
    }
}

/// Two errors are the same failure when their chains read alike.
fn same_error(a: &anyhow::Error, b: &anyhow::Error) -> bool {
    a.chain()
        .map(|e| e.to_string())
        .eq(b.chain().map(|e| e.to_string()))
}

/// Ask the tower hooks about a one-floor tower of `kind`, as the game would
/// (for seat 0 of two, before the first tile).
pub(super) fn probe_kind(rules: &dyn Rules, kind: FloorKind) -> Result<()> {
    let bare = StackView {
        floors: &[],
        topped: false,
    };
    let floors = [kind];
    let one = StackView {
        floors: &floors,
        topped: false,
    };
    Asking::outside_game(2, |asking| -> Result<()> {
        rules.may_place_floor(&bare, kind, asking)?;
        rules.may_top(&one, asking)?;
        Ok(())
    })?;
    let mut cells = Vec::new();
    rules.capture_range(&one, &mut cells)?;
    Ok(())
}
