//! A comparison told as a player asks about it: what the rule changes in a
//! game, in plain words and round numbers ("captures fall by 5% (0.9 a
//! game)"), and whether who wins changes. The numbers behind it, their
//! intervals and the method stay in the verdict (`analysis::verdict`),
//! which the page keeps behind a fold.

use crate::analysis::practical::Group;
use crate::analysis::stats::glossary;
use crate::analysis::verdict::{Change, Verdict};

/// The first lines of the comparison: each change a player would notice,
/// then who wins; at least one line.
pub fn plain(v: &Verdict, games: u64) -> Vec<String> {
    let noticed: Vec<&Change> = v
        .changes
        .iter()
        .filter(|c| !c.small && c.artefact.is_none())
        .filter(|c| matches!(c.group, Group::Scores | Group::Rule | Group::Feel))
        .collect();
    let mut lines: Vec<String> = noticed.iter().map(|c| change_words(c)).collect();
    if lines.is_empty() {
        lines.push(format!(
            "In {games} games a deal, nothing a player would notice changed."
        ));
    }
    lines.push(who_wins(v));
    lines
}

/// "captures fall by 5% (about 0.9 a game)".
fn change_words(c: &Change) -> String {
    let rises = c.mean > 0.0;
    let (verb, verbs) = if rises {
        ("rise", "rises")
    } else {
        ("fall", "falls")
    };
    let (name, plural) = metric_words(&c.metric);
    let by = match c.relative {
        Some(r) => format!(" by {}%", round(r.abs() * 100.0)),
        None => String::new(),
    };
    let size = if glossary::is_share(&c.metric) {
        format!("{} points in 100", round(c.mean.abs() * 100.0))
    } else {
        format!("{} {}", round(c.mean.abs()), per_game(&c.unit))
    };
    format!(
        "{name} {}{by} (about {size}).",
        if plural { verb } else { verbs }
    )
}

/// A metric as a player names it, and whether its name is plural.
fn metric_words(metric: &str) -> (String, bool) {
    if let Some(seat) = metric.strip_prefix("score.seat") {
        return (format!("Seat {seat}'s score"), false);
    }
    let named = match metric {
        "captures" => "Captures",
        "own_captures" => "Meeples a tower takes from its own builder",
        "exchanges" => "Prisoner exchanges",
        "ransoms" => "Ransoms paid",
        "ransom_points" => "Points paid in ransoms",
        "prisoners_end" => "Prisoners held at the end",
        "towers" => "Towers built",
        "tower_height_mean" => "Towers' heights",
        "tower_height_max" => "The highest tower",
        "margin" => "The winner's lead",
        "lead_changes" => "Lead changes",
        _ => return (glossary::describe(metric).to_string(), false),
    };
    let plural = named.ends_with('s') && !named.starts_with("The ");
    (named.to_string(), plural)
}

/// A unit "meeples a game" as "a game"; others as they are.
fn per_game(unit: &str) -> &str {
    match unit.split_once(" a game") {
        Some(_) => "a game",
        None => unit,
    }
}

/// Whether who wins changes: the wins' changes, else the key metrics held
/// or not settled.
fn who_wins(v: &Verdict) -> String {
    let wins: Vec<&Change> = v
        .changes
        .iter()
        .filter(|c| c.group == Group::Wins && !c.small)
        .collect();
    if let Some(c) = wins.iter().find(|c| c.metric.starts_with("win.seat")) {
        let seat = c.metric.trim_start_matches("win.seat");
        let verb = if c.mean > 0.0 { "more" } else { "less" };
        return format!(
            "Who wins changes: seat {seat} wins {verb} often ({} points in 100 games).",
            round(c.mean.abs() * 100.0)
        );
    }
    if !wins.is_empty() {
        return "Who wins changes: the seats' chances move apart or together.".into();
    }
    if v.unsettled.is_empty() {
        return "Who wins does not change.".into();
    }
    match &v.games_needed {
        Some(g) => format!(
            "Whether who wins changes is not settled: about {} games a deal would tell.",
            g.games
        ),
        None => "Whether who wins changes is not settled: more games would tell.".into(),
    }
}

/// A number as a player reads it: two significant digits at most.
fn round(x: f64) -> String {
    let r = if x >= 10.0 {
        x.round()
    } else if x >= 1.0 {
        (x * 10.0).round() / 10.0
    } else {
        (x * 100.0).round() / 100.0
    };
    format!("{r}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_as_a_player_reads_them() {
        assert_eq!(round(4.96), "5");
        assert_eq!(round(12.4), "12");
        assert_eq!(round(0.934), "0.93");
        assert_eq!(round(1.26), "1.3");
        assert_eq!(metric_words("captures"), ("Captures".into(), true));
        assert_eq!(metric_words("score.seat2").0, "Seat 2's score");
        assert_eq!(per_game("meeples a game"), "a game");
    }
}
