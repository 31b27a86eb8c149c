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

use crate::diag::{Source, bad_input};
use crate::geometry::Pos;
use crate::kernel::{
    Action, Bot, CaptureChoice, Decision, Game, MeepleSpot, RansomChoice, play_game,
};
use crate::log::{self, LogContext};
use crate::packs::{Home, Ruleset};

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
        Some(Pos::new(
            a.first()?.as_i64()? as i32,
            a.get(1)?.as_i64()? as i32,
        ))
    }

    fn xy(&self) -> Option<Pos> {
        Some(Pos::new(self.int("x")? as i32, self.int("y")? as i32))
    }
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
                            Some(t) => Action::TowerMeeple { tower: t as u16 },
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
                        match rec.int("segment") {
                            Some(s) => Action::Meeple { segment: s as u8 },
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
                    Some(s) => MeepleSpot::Segment(s as u8),
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
    fn decide(&mut self, game: &Game, decision: Decision) -> usize {
        self.0.borrow_mut().decide(game, decision)
    }
}

/// Replay every game of the log at `path`.
pub fn replay(home: &Home, path: &Path) -> Result<Replayed> {
    let src = Source::read(path)?;
    let records = read_records(&src)?;
    let file = path.display();
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
    let mut rulesets: HashMap<Vec<String>, Ruleset> = HashMap::new();
    for w in starts.windows(2) {
        let block = &records[w[0]..w[1]];
        let start = &block[0];
        let packs: Vec<String> = start.value["packs"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|p| p.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let (Some(players), Some(seed), Some(game_index)) = (
            start.value["players"].as_u64(),
            start.value["seed"].as_u64(),
            start.value["game"].as_u64(),
        ) else {
            return Err(bad_input(format!(
                "{file}:{}:1: a `start` record needs `game`, `packs`, `players` and `seed`",
                start.line
            )));
        };
        if !rulesets.contains_key(&packs) {
            let set = Ruleset::from_packs(home, &packs)
                .map_err(|e| bad_input(format!("{file}:{}:1: {e:#}", start.line)))?;
            rulesets.insert(packs.clone(), set);
        }
        let set = &rulesets[&packs];
        let rules = set.rules();
        let floors: Vec<String> = set.floors.iter().map(|f| f.name.clone()).collect();
        let mut game = Game::new(&set.tiles, rules.as_ref(), players as usize, seed)
            .map_err(|e| bad_input(format!("{file}:{}:1: {e:#}", start.line)))?;
        game.record_events();
        let cursor = Rc::new(RefCell::new(Cursor {
            records: block,
            next: 1,
            floors: floors.clone(),
            error: None,
        }));
        let mut bots: Vec<Box<dyn Bot + '_>> = (0..players)
            .map(|_| Box::new(ReplayBot(cursor.clone())) as Box<dyn Bot>)
            .collect();
        if let Err(e) = play_game(&mut game, &mut bots) {
            let err = cursor.borrow_mut().error.take();
            bail!("{file}: {}", err.unwrap_or_else(|| format!("{e:#}")));
        }
        drop(bots);
        let ctx = LogContext {
            game: game_index,
            seed,
            packs: &packs,
            players: players as usize,
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
    }
    Ok(Replayed {
        games: starts.len() - 1,
        events: records.len(),
    })
}
