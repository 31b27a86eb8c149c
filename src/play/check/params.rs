//! Each number parameter set to the ends of what it may be, and the rules
//! tried there: a value a variant may set that breaks the rules is the
//! pack's problem.

use crate::kernel::diag::bad_input;
use crate::rules::param::{Given, ParamDecl};
use crate::rules::setting;
use crate::rules::{Home, Ruleset};

use super::games::play_games;
use super::report::Report;
use super::setup::check_setup;

/// Games played with a parameter at each end of what it may be set to.
const GAMES_AT_AN_END: u64 = 2;

/// Each number parameter of the packs set to each end of the values it may
/// be set to (its declared bounds; an integer's implicit ones where it
/// declares none), its setup asked and a few games played: a value a
/// variant, `--param` or the browser may set that breaks the rules (a
/// ransom past what a cost holds, a supply past its most) is the pack's
/// problem, told here rather than in a player's game.
pub(super) fn check_param_ends(home: &Home, set: &Ruleset, report: &mut Report) {
    // What the same games do with every parameter at its default, asked
    // once a game at an end fails: a failure they share is not the
    // parameter's (`check` told it already).
    let mut at_defaults: Option<Vec<String>> = None;
    for pack in set.packs() {
        for (name, decl) in &pack.params {
            for (end, value) in param_ends(decl) {
                let at = [setting::Setting {
                    pack: &pack.reference,
                    name,
                    value: Given::Toml(&value),
                }];
                let mut found = Report::default();
                let values = setting::resolve(set.packs(), &at).map_err(|r| bad_input(r.why));
                match values.and_then(|values| set.with_params(home, &values)) {
                    Ok(at_end) => {
                        let rules = at_end.rules();
                        if let Some(seats) = check_setup(&at_end, rules.as_ref(), &mut found) {
                            let mut games = Report::default();
                            let failed = play_games(
                                &at_end,
                                rules.as_ref(),
                                GAMES_AT_AN_END,
                                &seats,
                                &mut games,
                            )
                            .failures;
                            let shared = at_defaults.get_or_insert_with(|| {
                                let rules = set.rules();
                                play_games(
                                    set,
                                    rules.as_ref(),
                                    GAMES_AT_AN_END,
                                    &seats,
                                    &mut Report::default(),
                                )
                                .failures
                            });
                            if failed.iter().any(|f| !shared.contains(f)) {
                                found.problems.extend(games.problems);
                            }
                        }
                    }
                    Err(e) => found.problems.push(format!("{e:#}")),
                }
                // The first problem says it; the rest are usually the same.
                report.problems.extend(found.problems.into_iter().take(1).map(|p| {
                    format!(
                        "parameter `{name}` of pack `{}` set to {value} ({end}, which a variant \
                         may set) breaks the rules: {p}; declare `min` and `max` the rules can take",
                        pack.reference
                    )
                }));
            }
        }
    }
}

/// The values at the ends of what a number parameter may be set to, other
/// than its default, with words for each.
fn param_ends(decl: &ParamDecl) -> Vec<(&'static str, toml::Value)> {
    let ends = match decl.default {
        toml::Value::Integer(_) => {
            let (least, most) = decl.integer_range();
            vec![
                ("its least value", toml::Value::Integer(least)),
                ("its greatest value", toml::Value::Integer(most)),
            ]
        }
        toml::Value::Float(_) => {
            let (least, most) = decl.float_range();
            vec![
                ("its least value", toml::Value::Float(least)),
                ("its greatest value", toml::Value::Float(most)),
            ]
        }
        _ => Vec::new(),
    };
    ends.into_iter()
        .filter(|(_, v)| *v != decl.default)
        .collect()
}
