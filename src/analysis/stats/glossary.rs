//! The metrics' glossary: every metric's name, unit and meaning, defined
//! once for tables, `compare --explain`, the verdict's units and
//! docs/metrics.md.

/// A metric's entry in the glossary: its name (`N` for a seat, `KIND` for
/// a floor kind), the unit of its values and what it measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Definition {
    pub name: &'static str,
    pub unit: &'static str,
    pub meaning: &'static str,
}

const fn def(name: &'static str, unit: &'static str, meaning: &'static str) -> Definition {
    Definition {
        name,
        unit,
        meaning,
    }
}

/// Every metric, defined once: tables, `compare --explain`, the verdict's
/// units and docs/metrics.md (which a test holds to this list) read it.
pub const GLOSSARY: [Definition; 27] = [
    def("score.seatN", "points", "mean final score of the seat"),
    def(
        "win.seatN",
        "share of games",
        "share of games the seat wins (ties split)",
    ),
    def("margin", "points", "winner's lead over the runner-up"),
    def(
        "captures",
        "meeples a game",
        "opponents' meeples captured per game, whatever the rules made of them (prisoner, sent home, out of the game)",
    ),
    def(
        "own_captures",
        "meeples a game",
        "the captor's own meeples its tower took, sent home, per game (not among captures)",
    ),
    def(
        "exchanges",
        "exchanges a game",
        "prisoner exchanges per game",
    ),
    def("ransoms", "ransoms a game", "ransoms paid per game"),
    def(
        "ransom_points",
        "points a game",
        "points moved by ransom per game",
    ),
    def(
        "prisoners_end",
        "meeples",
        "prisoners still held at game end",
    ),
    def(
        "towers",
        "towers a game",
        "towers built (at least one floor)",
    ),
    def(
        "tower_height_mean",
        "floors",
        "mean floors of a built tower",
    ),
    def(
        "tower_height_max",
        "floors",
        "floors of the game's highest tower",
    ),
    def(
        "floors_unused",
        "floors",
        "floors left in the players' supplies",
    ),
    def("turns", "turns", "tiles placed (game length in turns)"),
    def(
        "lead_changes",
        "changes a game",
        "times the sole leader changed, scores read after every turn and after final scoring (a tie for the lead changes nothing)",
    ),
    def(
        "decisiveness",
        "share of turns",
        "share of the turns played before the final winner led alone for good (0: from the first turn on; 1: only after final scoring, or a tie)",
    ),
    def(
        "drama",
        "points",
        "the final winner's worst deficit to the highest score after any turn (0 while it held or shared the lead; of tied winners, the smallest)",
    ),
    def(
        "comeback",
        "share of games",
        "share of games won alone by a seat that was behind after the middle turn (below the highest score; one tied for the lead is not behind)",
    ),
    def(
        "ties",
        "share of games",
        "share of games whose top score is shared",
    ),
    def(
        "branching",
        "options a decision",
        "mean options of the decisions a seat was asked (placements, actions; ransoms and captures when there was a choice)",
    ),
    def(
        "forced",
        "share of decisions",
        "share of those decisions with a single option",
    ),
    def("spread", "points", "highest final score minus the lowest"),
    def(
        "decisions",
        "decisions a game",
        "decisions the seats were asked (placements, actions; ransoms and captures when there was a choice): it moves when a kind of decision appears or vanishes",
    ),
    def(
        "balance",
        "share",
        "1 - the largest gap between seat win shares",
    ),
    def(
        "floors.KIND",
        "floors a game",
        "floors of the kind placed per game",
    ),
    def(
        "captures.top.KIND",
        "captures a game",
        "captures by a floor of the kind (the tower's top) per game",
    ),
    def(
        "towers.top.KIND",
        "towers",
        "towers the kind tops at game end",
    ),
];

/// The glossary entry of a metric called `name` (a seat's by `seatN`, a
/// floor kind's by `KIND`).
pub fn definition(name: &str) -> Option<&'static Definition> {
    let seat = |prefix: &str| {
        name.strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let pattern = if seat("score.seat") {
        "score.seatN"
    } else if seat("win.seat") {
        "win.seatN"
    } else if name.starts_with("captures.top.") {
        "captures.top.KIND"
    } else if name.starts_with("towers.top.") {
        "towers.top.KIND"
    } else if name.starts_with("floors.") {
        "floors.KIND"
    } else {
        name
    };
    GLOSSARY.iter().find(|d| d.name == pattern)
}

/// What each metric measures, for tables and docs.
pub fn describe(name: &str) -> &'static str {
    definition(name).map_or("", |d| d.meaning)
}

/// The unit of a metric's values.
pub fn unit(name: &str) -> &'static str {
    definition(name).map_or("", |d| d.unit)
}

/// A metric whose per-game values are shares, within [0, 1] (its unit says
/// so: "share of games", "share of turns"…).
pub fn is_share(name: &str) -> bool {
    unit(name).starts_with("share")
}
