//! `towerlab replay`: play a game log again under the rules its `start`
//! records name, with the log's decisions, and compare every event the kernel
//! produces with the logged one. The first event the rules would not allow (or
//! that does not follow from the decisions) is reported with its line.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

use anyhow::{Result, anyhow, bail};
use serde_json::Value;

use crate::kernel::diag::{Source, bad_input};
use crate::kernel::geometry::Pos;
use crate::kernel::{
    Action, Bot, CaptureChoice, Decision, Game, MeepleSpot, RansomChoice, play_game,
};
use crate::play::log::{self, LogContext};
use crate::rules::{Home, Params, Ruleset};

/// What a successful replay checked.
#[derive(Debug, PartialEq, Eq)]
pub struct Replayed {
    pub games: usize,
    pub events: usize,
}

struct Record {
    line: usize,
    value: Value,
}

impl Record {
    fn event(&self) -> &str {
        self.value["event"].as_str().unwrap_or("")
    }

    fn int(&self, key: &str) -> Option<i64> {
        self.value[key].as_i64()
    }

    fn text(&self, key: &str) -> Option<&str> {
        self.value[key].as_str()
    }

    fn pos(&self, key: &str) -> Option<Pos> {
        let a = self.value[key].as_array()?;
        Some(Pos::new(coordinate(a.first()?)?, coordinate(a.get(1)?)?))
    }

    /// The record's `x` and `y`; `None` when either is missing or out of the
    /// board's range: no farther from the start tile than a game has tiles
    /// (nothing is wrapped into range).
    fn xy(&self) -> Option<Pos> {
        Some(Pos::new(
            coordinate(&self.value["x"])?,
            coordinate(&self.value["y"])?,
        ))
    }
}

/// A coordinate of a log record, if it is an integer in the board's range.
fn coordinate(v: &Value) -> Option<i32> {
    v.as_i64()
        .and_then(|n| i32::try_from(n).ok())
        .filter(|n| n.unsigned_abs() as usize <= crate::kernel::tiles::MAX_DECK)
}

/// The first coordinate field of a record (`x`, `y`, or a `[x, y]` pair)
/// that is present but not a coordinate.
fn out_of_range(value: &Value) -> Option<&'static str> {
    let bad = |v: &Value| coordinate(v).is_none();
    for key in ["x", "y"] {
        if value.get(key).is_some_and(bad) {
            return Some(key);
        }
    }
    for key in ["tower", "at"] {
        if let Some(pair) = value.get(key).and_then(Value::as_array)
            && pair.iter().any(bad)
        {
            return Some(key);
        }
    }
    None
}

/// Read a log file: one JSON object per line.
fn read_records(src: &Source) -> Result<Vec<Record>> {
    let mut out = Vec::new();
    for (i, line) in src.text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| {
            bad_input(format!(
                "{}:{}:{}: not a JSON log record: {e}",
                src.path.display(),
                i + 1,
                e.column()
            ))
        })?;
        if !value.is_object() || value["event"].as_str().is_none() {
            return Err(bad_input(format!(
                "{}:{}:1: a log record is an object with an `event`",
                src.path.display(),
                i + 1
            )));
        }
        if let Some(key) = out_of_range(&value) {
            return Err(bad_input(format!(
                "{}:{}:1: `{key}` is not a board coordinate (an integer from -{MAX} to {MAX})",
                src.path.display(),
                i + 1,
                MAX = crate::kernel::tiles::MAX_DECK
            )));
        }
        out.push(Record { line: i + 1, value });
    }
    Ok(out)
}

fn is_decision(event: &str) -> bool {
    matches!(event, "tile" | "ransom" | "meeple" | "floor" | "capture")
}

/// The log's decisions, answered to the kernel one at a time.
struct Cursor<'r> {
    records: &'r [Record],
    next: usize,
    floors: Vec<String>,
    error: Option<String>,
}

impl Cursor<'_> {
    /// The next decision record, if any.
    fn peek(&self) -> Option<(usize, &Record)> {
        (self.next..self.records.len())
            .map(|i| (i, &self.records[i]))
            .find(|(_, r)| is_decision(r.event()))
    }

    fn fail(&mut self, line: usize, message: String) -> usize {
        self.error.get_or_insert(format!("line {line}: {message}"));
        usize::MAX
    }

    fn decide(&mut self, game: &Game, decision: Decision) -> usize {
        let Some((i, rec)) = self.peek() else {
            return match decision {
                Decision::Placement { tile, .. } => {
                    let line = self.records.last().map_or(0, |r| r.line);
                    self.fail(
                        line,
                        format!(
                            "the log ends, but the game goes on: tile `{}` is drawn next",
                            game.tiles().kinds[tile as usize].name
                        ),
                    )
                }
                _ => 0,
            };
        };
        let line = rec.line;
        match decision {
            Decision::Placement { tile, options } => {
                let drawn = &game.tiles().kinds[tile as usize].name;
                if rec.event() != "tile" {
                    return self.fail(
                        line,
                        format!("`{}` where the game places tile `{drawn}`", rec.event()),
                    );
                }
                if rec.text("tile") != Some(drawn.as_str()) {
                    return self.fail(
                        line,
                        format!(
                            "the log places tile `{}`, but the deck deals `{drawn}`",
                            rec.text("tile").unwrap_or("?")
                        ),
                    );
                }
                let (pos, rot) = (rec.xy(), rec.int("rot"));
                let found = options
                    .iter()
                    .position(|o| Some(o.pos) == pos && Some(o.rot as i64 * 90) == rot);
                match found {
                    Some(k) => {
                        self.next = i + 1;
                        k
                    }
                    None => self.fail(
                        line,
                        format!(
                            "tile `{drawn}` at {} turned {}° does not fit there (G1)",
                            pos.map_or("?".into(), |p| p.to_string()),
                            rot.unwrap_or(-1)
                        ),
                    ),
                }
            }
            Decision::Ransom(options) => {
                if rec.event() != "ransom" {
                    return 0;
                }
                let to = rec.int("to");
                let found = options.iter().position(
                    |o| matches!(o, RansomChoice::Pay { captor, .. } if Some(*captor as i64) == to),
                );
                match found {
                    Some(k) => {
                        self.next = i + 1;
                        k
                    }
                    None => self.fail(
                        line,
                        "the rules allow no such ransom now (T11, or the variant's ransom rule)"
                            .into(),
                    ),
                }
            }
            Decision::Action(options) => {
                let wanted = match rec.event() {
                    "meeple" if rec.text("on") == Some("tower") => {
                        match rec.xy().and_then(|p| game.tower_at(p)) {
                            Some(t) => Action::TowerMeeple { tower: t as u16 }, // a tower index of this game
                            None => return self.fail(line, "no tower stands there".into()),
                        }
                    }
                    "meeple" => {
                        let placed = game.board().tiles().last().map(|t| t.pos);
                        if rec.xy() != placed {
                            return self.fail(
                                line,
                                "a meeple goes only on the tile just placed (G3)".into(),
                            );
                        }
                        match rec.int("segment").and_then(|s| u8::try_from(s).ok()) {
                            Some(s) => Action::Meeple { segment: s },
                            None => {
                                return self.fail(line, "a meeple record without `segment`".into());
                            }
                        }
                    }
                    "floor" => {
                        let tower = rec.xy().and_then(|p| game.tower_at(p));
                        let kind = rec
                            .text("kind")
                            .and_then(|k| self.floors.iter().position(|f| f == k));
                        match (tower, kind) {
                            (Some(t), Some(k)) => Action::Floor {
                                tower: t as u16,
                                kind: k as u8,
                            },
                            _ => {
                                return self.fail(
                                    line,
                                    "no foundation there, or a floor kind this variant lacks"
                                        .into(),
                                );
                            }
                        }
                    }
                    _ => return 0,
                };
                match options.iter().position(|o| *o == wanted) {
                    Some(k) => {
                        self.next = i + 1;
                        k
                    }
                    None => self.fail(
                        line,
                        format!("the rules do not allow `{}` here now (T3)", rec.value),
                    ),
                }
            }
            Decision::Capture(options) => {
                if rec.event() != "capture" {
                    return 0;
                }
                let at = rec.pos("at");
                let spot = match rec.value["segment"].as_i64() {
                    Some(s) => match u8::try_from(s) {
                        Ok(s) => MeepleSpot::Segment(s),
                        Err(_) => return self.fail(line, format!("no segment {s} on a tile")),
                    },
                    None => MeepleSpot::Tower,
                };
                let found = options.iter().position(|o| match o {
                    CaptureChoice::Take { meeple } => {
                        let m = game.meeples()[*meeple as usize];
                        Some(m.pos) == at
                            && m.spot == spot
                            && Some(m.owner as i64) == rec.int("owner")
                    }
                    CaptureChoice::Decline => false,
                });
                match found {
                    Some(k) => {
                        self.next = i + 1;
                        k
                    }
                    None => self.fail(
                        line,
                        "that meeple is out of the tower's range, or the rules protect it (T5, T6)"
                            .into(),
                    ),
                }
            }
        }
    }
}

struct ReplayBot<'r>(Rc<RefCell<Cursor<'r>>>);

impl Bot for ReplayBot<'_> {
    fn decide(&mut self, game: &Game, decision: Decision) -> Result<usize> {
        Ok(self.0.borrow_mut().decide(game, decision))
    }
}

/// A log read and split into games.
struct Log {
    file: String,
    records: Vec<Record>,
    /// Index of each game's `start` record, then the end.
    starts: Vec<usize>,
}

impl Log {
    fn read(path: &Path) -> Result<Log> {
        let src = Source::read(path)?;
        let records = read_records(&src)?;
        let file = path.display().to_string();
        let mut starts: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| r.event() == "start")
            .map(|(i, _)| i)
            .collect();
        if starts.first() != Some(&0) {
            let line = records.first().map_or(1, |r| r.line);
            return Err(bad_input(format!(
                "{file}:{line}:1: a log begins each game with a `start` record"
            )));
        }
        starts.push(records.len());
        Ok(Log {
            file,
            records,
            starts,
        })
    }

    fn blocks(&self) -> impl Iterator<Item = &[Record]> {
        self.starts.windows(2).map(|w| &self.records[w[0]..w[1]])
    }
}

/// What a game's `start` record says.
struct Start {
    packs: Vec<String>,
    params: Params,
    players: usize,
    seed: u64,
    game: u64,
}

fn start_of(file: &str, block: &[Record]) -> Result<Start> {
    let start = &block[0];
    let packs: Vec<String> = start.value["packs"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|p| p.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    match (
        start.value["players"].as_u64(),
        start.value["seed"].as_u64(),
        start.value["game"].as_u64(),
    ) {
        (Some(players), Some(seed), Some(game)) if !packs.is_empty() => Ok(Start {
            packs,
            params: match start.value.get("params") {
                None | Some(Value::Null) => Params::new(),
                Some(p) => serde_json::from_value(p.clone()).map_err(|e| {
                    bad_input(format!(
                        "{file}:{}:1: `params` is an object of packs' parameters: {e}",
                        start.line
                    ))
                })?,
            },
            players: players as usize,
            seed,
            game,
        }),
        _ => Err(bad_input(format!(
            "{file}:{}:1: a `start` record needs `game`, `packs`, `players` and `seed`",
            start.line
        ))),
    }
}

/// Play one game of a log with its decisions: every turn, or the first
/// `turns` turns. The game is recording events.
fn play_block<'a>(
    file: &str,
    set: &'a Ruleset,
    rules: &'a dyn crate::kernel::Rules,
    start: &Start,
    block: &[Record],
    turns: Option<u32>,
) -> Result<Game<'a>> {
    let floors: Vec<String> = set.floors.iter().map(|f| f.name.clone()).collect();
    let mut game = Game::new(&set.tiles, rules, start.players, start.seed)
        .map_err(|e| bad_input(format!("{file}:{}:1: {e:#}", block[0].line)))?;
    game.record_events();
    let cursor = Rc::new(RefCell::new(Cursor {
        records: block,
        next: 1,
        floors,
        error: None,
    }));
    let mut bots: Vec<Box<dyn Bot + '_>> = (0..start.players)
        .map(|_| Box::new(ReplayBot(cursor.clone())) as Box<dyn Bot>)
        .collect();
    let outcome = match turns {
        None => play_game(&mut game, &mut bots),
        Some(t) => {
            let mut buf = crate::kernel::Buffers::default();
            let mut result = Ok(());
            while game.stats().turns < t {
                match crate::kernel::play_turn(&mut game, &mut bots, &mut buf) {
                    Ok(true) => {}
                    Ok(false) => {
                        game.final_scoring();
                        break;
                    }
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            result
        }
    };
    drop(bots);
    if let Err(e) = outcome {
        // The rules refusing a logged event is exit 1; a failure of the
        // rules themselves (a script error: bad input) keeps its kind.
        match cursor.borrow_mut().error.take() {
            Some(refused) => bail!("{file}: {refused}"),
            None => return Err(e.context(file.to_string())),
        }
    }
    Ok(game)
}

/// The state of game `game` of the log at `path` after `turn` turns (the
/// whole game, final scoring included, when `turn` is `None` or past its
/// end), handed to `f` with the ruleset it was played under.
pub fn state_at<T>(
    home: &Home,
    path: &Path,
    game: u64,
    turn: Option<u32>,
    f: impl FnOnce(&Game, &Ruleset) -> Result<T>,
) -> Result<T> {
    let log = Log::read(path)?;
    for block in log.blocks() {
        let start = start_of(&log.file, block)?;
        if start.game != game {
            continue;
        }
        let set = Ruleset::from_packs_with(home, &start.packs, &start.params)
            .map_err(|e| bad_input(format!("{}:{}:1: {e:#}", log.file, block[0].line)))?;
        let rules = set.rules();
        let state = play_block(&log.file, &set, rules.as_ref(), &start, block, turn)?;
        return f(&state, &set);
    }
    let games: Vec<String> = log
        .blocks()
        .filter_map(|b| b[0].value["game"].as_u64().map(|g| g.to_string()))
        .collect();
    Err(bad_input(format!(
        "{}: no game {game} in the log (games: {})",
        log.file,
        games.join(", ")
    )))
}

/// Replay every game of the log at `path`.
pub fn replay(home: &Home, path: &Path) -> Result<Replayed> {
    let log = Log::read(path)?;
    let file = log.file.as_str();
    // One rules instance per ruleset, kept (with its caches) for every game
    // of the log, as `simulate` keeps one per thread.
    type Key = (Vec<String>, String);
    let mut rulesets: HashMap<Key, (Ruleset, Box<dyn crate::kernel::Rules>)> = HashMap::new();
    let mut games = 0;
    for block in log.blocks() {
        let start = start_of(file, block)?;
        let key: Key = (start.packs.clone(), format!("{:?}", start.params));
        if !rulesets.contains_key(&key) {
            let set = Ruleset::from_packs_with(home, &start.packs, &start.params)
                .map_err(|e| bad_input(format!("{file}:{}:1: {e:#}", block[0].line)))?;
            let rules = set.rules();
            rulesets.insert(key.clone(), (set, rules));
        }
        let (set, rules) = &rulesets[&key];
        let game = play_block(file, set, rules.as_ref(), &start, block, None)?;
        let floors: Vec<String> = set.floors.iter().map(|f| f.name.clone()).collect();
        let ctx = LogContext {
            game: start.game,
            seed: start.seed,
            packs: &start.packs,
            params: &start.params,
            players: start.players,
            tiles: &set.tiles,
            floors: &floors,
        };
        let expected = log::records(&ctx, game.events());
        for (k, rec) in block.iter().enumerate() {
            let Some(want) = expected.get(k) else {
                bail!(
                    "{file}: line {}: `{}` after the game has ended",
                    rec.line,
                    rec.event()
                );
            };
            if *want != rec.value {
                bail!(
                    "{file}: line {}: the log says {} but under these rules the game gives {}",
                    rec.line,
                    rec.value,
                    want
                );
            }
        }
        if expected.len() > block.len() {
            let last = block.last().map_or(0, |r| r.line);
            return Err(anyhow!(
                "{file}: line {last}: the log stops early; the game goes on with {}",
                expected[block.len()]
            ));
        }
        games += 1;
    }
    Ok(Replayed {
        games,
        events: log.records.len(),
    })
}
