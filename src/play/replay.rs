//! `towerlab replay`: play a game log again under the rules its `start`
//! records name, with the log's decisions, and compare every event the kernel
//! produces with the logged one. The first event the rules would not allow (or
//! that does not follow from the decisions) is reported with its line.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

use anyhow::{Result, anyhow, bail};

use crate::kernel::diag::{Source, bad_input};
use crate::kernel::geometry::Pos;
use crate::kernel::{
    Action, Bot, CaptureChoice, Decision, Game, MeepleSpot, RansomChoice, play_game,
};
use crate::play::log::{self, LogContext, LogEvent, LogLine};
use crate::rules::{Home, Params, Ruleset};

/// What a successful replay checked.
#[derive(Debug, PartialEq, Eq)]
pub struct Replayed {
    pub games: usize,
    pub events: usize,
}

/// The log's decisions, answered to the kernel one at a time.
struct Cursor<'r> {
    src: &'r Source,
    records: &'r [LogLine],
    next: usize,
    floors: Vec<String>,
    error: Option<String>,
}

/// The log's answer to one decision: the index of the chosen option, `None`
/// when the record answers a later decision, or why the record is not one of
/// the options.
type Answer = std::result::Result<Option<usize>, String>;

impl Cursor<'_> {
    /// The next decision record, if any.
    fn peek(&self) -> Option<(usize, &LogLine)> {
        (self.next..self.records.len())
            .map(|i| (i, &self.records[i]))
            .find(|(_, r)| r.record.event.is_decision())
    }

    fn decide(&mut self, game: &Game, decision: Decision) -> usize {
        let Some((i, rec)) = self.peek() else {
            return match decision {
                Decision::Placement { tile, .. } => {
                    let line = self.records.last().map_or(0, |r| r.line);
                    let drawn = &game.tiles().kinds[tile as usize].name;
                    self.fail(
                        line,
                        format!("the log ends, but the game goes on: tile `{drawn}` is drawn next"),
                    )
                }
                _ => 0,
            };
        };
        let line = rec.line;
        let answer = match decision {
            Decision::Placement { tile, options } => self.place(game, rec, tile, options),
            Decision::Ransom(options) => Self::ransom(rec, options),
            Decision::Action(options) => self.act(game, rec, options),
            Decision::Capture(options) => Self::capture(game, rec, options),
        };
        match answer {
            Ok(Some(k)) => {
                self.next = i + 1;
                k
            }
            // The record answers a later decision: take the default here.
            Ok(None) => 0,
            Err(message) => self.fail(line, message),
        }
    }

    fn fail(&mut self, line: usize, message: String) -> usize {
        self.error.get_or_insert(format!("line {line}: {message}"));
        usize::MAX
    }

    /// The tile drawn must be the logged one, placed where the log says.
    fn place(
        &self,
        game: &Game,
        rec: &LogLine,
        tile: u16,
        options: &[crate::kernel::Placement],
    ) -> Answer {
        let drawn = &game.tiles().kinds[tile as usize].name;
        let LogEvent::Tile {
            tile, x, y, rot, ..
        } = &rec.record.event
        else {
            return Err(format!(
                "`{}` where the game places tile `{drawn}`",
                rec.event_name(self.src)
            ));
        };
        if tile != drawn {
            return Err(format!(
                "the log places tile `{tile}`, but the deck deals `{drawn}`"
            ));
        }
        let pos = Pos::new(*x, *y);
        let found = options
            .iter()
            .position(|o| o.pos == pos && o.rot as u32 * 90 == *rot);
        match found {
            Some(k) => Ok(Some(k)),
            None => Err(format!(
                "tile `{drawn}` at {pos} turned {rot}° does not fit there (G1)"
            )),
        }
    }

    /// A ransom the log pays must be one the rules offer.
    fn ransom(rec: &LogLine, options: &[RansomChoice]) -> Answer {
        let LogEvent::Ransom { to, .. } = &rec.record.event else {
            return Ok(None);
        };
        let found = options
            .iter()
            .position(|o| matches!(o, RansomChoice::Pay { captor, .. } if *captor as usize == *to));
        match found {
            Some(k) => Ok(Some(k)),
            None => {
                Err("the rules allow no such ransom now (T11, or the variant's ransom rule)".into())
            }
        }
    }

    /// A meeple or floor the log places must be one the rules offer.
    fn act(&self, game: &Game, rec: &LogLine, options: &[Action]) -> Answer {
        let wanted = match &rec.record.event {
            LogEvent::Meeple { x, y, on, .. } if on == "tower" => {
                match game.tower_at(Pos::new(*x, *y)) {
                    Some(t) => Action::TowerMeeple { tower: t as u16 },
                    None => return Err("no tower stands there".into()),
                }
            }
            LogEvent::Meeple { x, y, segment, .. } => {
                let placed = game.board().tiles().last().map(|t| t.pos);
                if Some(Pos::new(*x, *y)) != placed {
                    return Err("a meeple goes only on the tile just placed (G3)".into());
                }
                match segment {
                    Some(s) => Action::Meeple { segment: *s },
                    None => return Err("a meeple record without `segment`".into()),
                }
            }
            LogEvent::Floor { x, y, kind, .. } => {
                let tower = game.tower_at(Pos::new(*x, *y));
                let kind = self.floors.iter().position(|f| f == kind);
                match (tower, kind) {
                    (Some(t), Some(k)) => Action::Floor {
                        tower: t as u16,
                        kind: k as u8,
                    },
                    _ => {
                        return Err(
                            "no foundation there, or a floor kind this variant lacks".into()
                        );
                    }
                }
            }
            _ => return Ok(None),
        };
        match options.iter().position(|o| *o == wanted) {
            Some(k) => Ok(Some(k)),
            None => Err(format!(
                "the rules do not allow `{}` here now (T3)",
                rec.text(self.src)
            )),
        }
    }

    /// A meeple the log captures must be one the floor just placed may take.
    fn capture(game: &Game, rec: &LogLine, options: &[CaptureChoice]) -> Answer {
        let LogEvent::Capture {
            at, segment, owner, ..
        } = &rec.record.event
        else {
            return Ok(None);
        };
        let at = Pos::new(at[0], at[1]);
        let spot = match segment {
            Some(s) => MeepleSpot::Segment(*s),
            None => MeepleSpot::Tower,
        };
        let found = options.iter().position(|o| match o {
            CaptureChoice::Take { meeple } => {
                let m = game.meeples()[*meeple as usize];
                m.pos == at && m.spot == spot && m.owner as usize == *owner
            }
            CaptureChoice::Decline => false,
        });
        match found {
            Some(k) => Ok(Some(k)),
            None => Err(
                "that meeple is out of the tower's range, or the rules protect it (T5, T6)".into(),
            ),
        }
    }
}

struct ReplayBot<'r>(Rc<RefCell<Cursor<'r>>>);

impl Bot for ReplayBot<'_> {
    fn decide(&mut self, game: &Game, decision: Decision) -> usize {
        self.0.borrow_mut().decide(game, decision)
    }
}

/// A log read and split into games.
struct Log {
    src: Source,
    file: String,
    records: Vec<LogLine>,
    /// Index of each game's `start` record, then the end.
    starts: Vec<usize>,
}

impl Log {
    fn read(path: &Path) -> Result<Log> {
        let src = Source::read(path)?;
        let records = log::read(&src)?;
        let file = path.display().to_string();
        let mut starts: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| matches!(r.record.event, LogEvent::Start { .. }))
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
            src,
            file,
            records,
            starts,
        })
    }

    fn blocks(&self) -> impl Iterator<Item = &[LogLine]> {
        self.starts.windows(2).map(|w| &self.records[w[0]..w[1]])
    }
}

/// What a game's `start` record says.
struct Start<'l> {
    packs: &'l [String],
    params: &'l Params,
    players: usize,
    seed: u64,
    game: u64,
}

fn start_of<'l>(file: &str, block: &'l [LogLine]) -> Result<Start<'l>> {
    let start = &block[0];
    match &start.record.event {
        LogEvent::Start {
            packs,
            params,
            players,
            seed,
        } if !packs.is_empty() => Ok(Start {
            packs,
            params,
            players: *players,
            seed: *seed,
            game: start.record.game,
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
    src: &Source,
    block: &[LogLine],
    turns: Option<u32>,
) -> Result<Game<'a>> {
    let floors: Vec<String> = set.floors.iter().map(|f| f.name.clone()).collect();
    let mut game = Game::new(&set.tiles, rules, start.players, start.seed)
        .map_err(|e| bad_input(format!("{file}:{}:1: {e:#}", block[0].line)))?;
    game.record_events();
    let cursor = Rc::new(RefCell::new(Cursor {
        src,
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
        let err = cursor.borrow_mut().error.take();
        bail!("{file}: {}", err.unwrap_or_else(|| format!("{e:#}")));
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
        let set = Ruleset::from_packs_with(home, start.packs, start.params)
            .map_err(|e| bad_input(format!("{}:{}:1: {e:#}", log.file, block[0].line)))?;
        let rules = set.rules();
        let state = play_block(
            &log.file,
            &set,
            rules.as_ref(),
            &start,
            &log.src,
            block,
            turn,
        )?;
        return f(&state, &set);
    }
    let games: Vec<String> = log.blocks().map(|b| b[0].record.game.to_string()).collect();
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
        let key: Key = (start.packs.to_vec(), format!("{:?}", start.params));
        if !rulesets.contains_key(&key) {
            let set = Ruleset::from_packs_with(home, start.packs, start.params)
                .map_err(|e| bad_input(format!("{file}:{}:1: {e:#}", block[0].line)))?;
            let rules = set.rules();
            rulesets.insert(key.clone(), (set, rules));
        }
        let (set, rules) = &rulesets[&key];
        let game = play_block(file, set, rules.as_ref(), &start, &log.src, block, None)?;
        let floors: Vec<String> = set.floors.iter().map(|f| f.name.clone()).collect();
        let ctx = LogContext {
            game: start.game,
            seed: start.seed,
            packs: start.packs,
            params: start.params,
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
                    rec.event_name(&log.src)
                );
            };
            if *want != rec.record {
                bail!(
                    "{file}: line {}: the log says {} but under these rules the game gives {}",
                    rec.line,
                    rec.text(&log.src),
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
