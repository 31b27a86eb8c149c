//! `towerlab replay`: play a game log again under the rules its `start`
//! records name, with the log's decisions, and compare every event the kernel
//! produces with the logged one. The first event the rules would not allow (or
//! that does not follow from the decisions) is reported with its line.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use anyhow::Result;

use crate::kernel::diag::{Source, bad_input, did_you_mean};
use crate::kernel::geometry::Pos;
use crate::kernel::{
    Action, Bot, CaptureChoice, Decision, Event, Game, MeepleOn, MeepleSpot, RansomChoice,
    play_game,
};
use crate::play::log::{self, LogContext, LogEvent, LogLine, Record};
use crate::rules::{Home, LoadOptions, Ruleset};

use compiled::Compiled;
pub use compiled::KEPT_RULESETS;
use file::{Log, Start, start_of};

/// What a successful replay checked.
#[derive(Debug, PartialEq, Eq)]
pub struct Replayed {
    pub games: usize,
    pub events: usize,
}

/// Replay stopped at a record of a well-formed log: the rules do not allow
/// it, or the game gives something else (exit 1, not bad input).
#[derive(Debug, thiserror::Error)]
#[error("{file}: line {line}: {why}")]
pub struct Rejected {
    pub file: String,
    pub line: usize,
    pub why: Rejection,
}

/// Why a record was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("the log ends, but the game goes on: tile `{drawn}` is drawn next")]
    LogEnds { drawn: String },
    #[error("`{event}` where the game places tile `{drawn}`")]
    NotATile { event: String, drawn: String },
    #[error("the log places tile `{logged}`, but the deck deals `{drawn}`")]
    OtherTile { logged: String, drawn: String },
    #[error("tile `{drawn}` at {pos} turned {rot}° does not fit there (G1)")]
    TileDoesNotFit { drawn: String, pos: Pos, rot: u32 },
    #[error(
        "tile `{drawn}` fits at {pos} turned {rot}°, but the rules do not let it go there (may_place_tile)"
    )]
    RulesForbid { drawn: String, pos: Pos, rot: u32 },
    #[error(
        "tile `{drawn}` at {pos} turned {rot}° looks the same as turned {offered}°, which the game offers: it offers each look of a tile once, so write \"rot\": {offered}"
    )]
    SameLook {
        drawn: String,
        pos: Pos,
        rot: u32,
        offered: u32,
    },
    #[error("the rules allow no such ransom now (T11, or the variant's ransom rule)")]
    NoSuchRansom,
    #[error("no tower stands there")]
    NoTower,
    #[error("a meeple goes only on the tile just placed (G3)")]
    MeepleOffTile,
    #[error("a meeple record without `segment`")]
    NoSegment,
    #[error("no foundation there, or a floor kind this variant lacks")]
    NoFoundation,
    #[error("the rules do not allow `{record}` here now (T3)")]
    ActionNotAllowed { record: String },
    #[error("that meeple is out of the tower's range, or the rules protect it (T5, T6)")]
    OutOfRange,
    #[error("`{event}` after the game has ended")]
    AfterEnd { event: String },
    #[error("the log says {logged} but under these rules the game gives {expected}")]
    Differs { logged: String, expected: String },
    #[error("the log stops early; the game goes on with {expected}")]
    StopsEarly { expected: String },
}

/// The log's decisions, answered to the kernel one at a time.
struct Cursor<'r> {
    src: &'r Source,
    records: &'r [LogLine],
    next: usize,
    floors: Vec<String>,
    /// The first record rejected, with its line.
    error: Option<(usize, Rejection)>,
}

/// The log's answer to one decision: the index of the chosen option, `None`
/// when the record answers a later decision, or why the record is not one of
/// the options.
type Answer = std::result::Result<Option<usize>, Rejection>;

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
                    let drawn = drawn.clone();
                    self.fail(line, Rejection::LogEnds { drawn })
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
            Err(why) => self.fail(line, why),
        }
    }

    fn fail(&mut self, line: usize, why: Rejection) -> usize {
        self.error.get_or_insert((line, why));
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
        let tile_kind = tile;
        let drawn = &game.tiles().kinds[tile as usize].name;
        let LogEvent::Game(Event::Tile {
            kind: tile,
            pos,
            rot,
            ..
        }) = &rec.record.event
        else {
            return Err(Rejection::NotATile {
                event: rec.event_name(self.src),
                drawn: drawn.clone(),
            });
        };
        if tile != drawn {
            return Err(Rejection::OtherTile {
                logged: tile.clone(),
                drawn: drawn.clone(),
            });
        }
        let found = options.iter().position(|o| o.pos == *pos && o.rot == *rot);
        match found {
            Some(k) => Ok(Some(k)),
            None => {
                let kind = &game.tiles().kinds[tile_kind as usize];
                Err(
                    match misplaced(drawn, kind.distinct_rotations, *pos, *rot, options) {
                        // It fits: the rules forbid it.
                        Rejection::TileDoesNotFit { drawn, pos, rot: r }
                            if *rot < 4 && game.board().fits(kind, pos, *rot) =>
                        {
                            Rejection::RulesForbid { drawn, pos, rot: r }
                        }
                        why => why,
                    },
                )
            }
        }
    }

    /// A ransom the log pays must be one the rules offer.
    fn ransom(rec: &LogLine, options: &[RansomChoice]) -> Answer {
        let LogEvent::Game(Event::Ransom { to, .. }) = &rec.record.event else {
            return Ok(None);
        };
        let found = options
            .iter()
            .position(|o| matches!(o, RansomChoice::Pay { captor, .. } if *captor as usize == *to));
        match found {
            Some(k) => Ok(Some(k)),
            None => Err(Rejection::NoSuchRansom),
        }
    }

    /// A meeple or floor the log places must be one the rules offer.
    fn act(&self, game: &Game, rec: &LogLine, options: &[Action]) -> Answer {
        let wanted = match &rec.record.event {
            LogEvent::Game(Event::Meeple {
                pos,
                on: MeepleOn::Tower,
                ..
            }) => match game.tower_at(*pos) {
                Some(t) => Action::TowerMeeple { tower: t as u16 },
                None => return Err(Rejection::NoTower),
            },
            LogEvent::Game(Event::Meeple { pos, spot, .. }) => {
                let placed = game.board().tiles().last().map(|t| t.pos);
                if Some(*pos) != placed {
                    return Err(Rejection::MeepleOffTile);
                }
                match spot {
                    MeepleSpot::Segment(s) => Action::Meeple { segment: *s },
                    MeepleSpot::Tower => return Err(Rejection::NoSegment),
                }
            }
            LogEvent::Game(Event::Floor { pos, kind, .. }) => {
                let tower = game.tower_at(*pos);
                let kind = self.floors.iter().position(|f| f == kind);
                match (tower, kind) {
                    (Some(t), Some(k)) => Action::Floor {
                        tower: t as u16,
                        kind: k as u8,
                    },
                    _ => return Err(Rejection::NoFoundation),
                }
            }
            _ => return Ok(None),
        };
        match options.iter().position(|o| *o == wanted) {
            Some(k) => Ok(Some(k)),
            None => Err(Rejection::ActionNotAllowed {
                record: rec.text(self.src).to_string(),
            }),
        }
    }

    /// A meeple the log captures must be one the floor just placed may take.
    fn capture(game: &Game, rec: &LogLine, options: &[CaptureChoice]) -> Answer {
        let LogEvent::Game(Event::Capture {
            at, spot, owner, ..
        }) = &rec.record.event
        else {
            return Ok(None);
        };
        let found = options.iter().position(|o| match o {
            CaptureChoice::Take { meeple } => {
                let m = game.meeples()[*meeple as usize];
                m.pos == *at && m.spot == *spot && m.owner as usize == *owner
            }
            CaptureChoice::Decline => false,
        });
        match found {
            Some(k) => Ok(Some(k)),
            None => Err(Rejection::OutOfRange),
        }
    }
}

struct ReplayBot<'r>(Rc<RefCell<Cursor<'r>>>);

impl Bot for ReplayBot<'_> {
    fn decide(&mut self, game: &Game, decision: Decision) -> Result<usize> {
        Ok(self.0.borrow_mut().decide(game, decision))
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
    let floors: Vec<String> = set.floors().iter().map(|f| f.name.clone()).collect();
    let own = crate::play::log::start_tile(set.tiles());
    if let Some(logged) = &start.logged.start_tile
        && logged != &own
    {
        anyhow::bail!(
            "{file}: line {}: the log's start tile ({} at {},{} turned {}) is not these rules' ({} at 0,0 unturned)",
            block[0].line,
            logged.tile,
            logged.x,
            logged.y,
            logged.rot,
            own.tile
        );
    }
    let mut game = Game::new(set.tiles(), rules, start.logged.players, start.logged.seed)
        .map_err(|e| bad_input(format!("{file}:{}:1: {e:#}", block[0].line)))?;
    game.record_events();
    let cursor = Rc::new(RefCell::new(Cursor {
        src,
        records: block,
        next: 1,
        floors,
        error: None,
    }));
    let mut bots: Vec<Box<dyn Bot + '_>> = (0..start.logged.players)
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
                        result = game.final_scoring();
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
        // A record the cursor rejected is the cause; otherwise the rules
        // failed, and their error keeps its type (bad input or not).
        return Err(match cursor.borrow_mut().error.take() {
            Some((line, why)) => rejected(file, line, why),
            None => e.context(file.to_string()),
        });
    }
    Ok(game)
}

/// The state of game `game` of the log at `path` after `turn` turns (the
/// whole game, final scoring included, when `turn` is `None` or past its
/// end), handed to `f` with the ruleset it was played under. A log of
/// `compare` holds game `game` once per variant: `packs` (a variant's pack
/// list) picks one, and without it a game number found more than once is bad
/// input that lists the choices.
pub fn state_at<T>(
    home: &Home,
    load: &LoadOptions,
    path: &Path,
    game: u64,
    turn: Option<u32>,
    packs: Option<&[String]>,
    f: impl FnOnce(&Game, &Ruleset) -> Result<T>,
) -> Result<T> {
    let log = Log::read(path)?;
    let mut found = Vec::new();
    for block in log.blocks() {
        let start = start_of(&log.file, block)?;
        if start.game == game && packs.is_none_or(|p| p == start.logged.packs) {
            found.push((block, start));
        }
    }
    match found.len() {
        0 => Err(no_such_game(&log, game, packs)),
        1 => {
            let (block, start) = found.remove(0);
            let set = start
                .ruleset(home, load, &log.file)
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
            f(&state, &set)
        }
        _ => {
            let choices: Vec<String> = found
                .iter()
                .map(|(b, s)| format!("{} (line {})", s.logged.packs.join(","), b[0].line))
                .collect();
            Err(bad_input(format!(
                "{}: game {game} is in the log {} times, under different rules: pick one with --variant NAME or --packs LIST (packs: {})",
                log.file,
                found.len(),
                choices.join("; ")
            )))
        }
    }
}

/// The error for a game the log does not hold: the games it does hold.
fn no_such_game(log: &Log, game: u64, packs: Option<&[String]>) -> anyhow::Error {
    let mut numbers: Vec<u64> = log.blocks().map(|b| b[0].record.game).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let games: Vec<String> = numbers.iter().map(u64::to_string).collect();
    let under = packs.map_or(String::new(), |p| format!(" under packs {}", p.join(",")));
    let mut sets: Vec<String> = log
        .blocks()
        .filter_map(|b| match &b[0].record.event {
            LogEvent::Start(start) => Some(start.packs.join(",")),
            _ => None,
        })
        .collect();
    sets.sort();
    sets.dedup();
    bad_input(format!(
        "{}: no game {game}{under} in the log (games: {}; packs: {})",
        log.file,
        games.join(", "),
        sets.join("; ")
    ))
}

/// Replay every game of the log at `path`.
pub fn replay(home: &Home, load: &LoadOptions, path: &Path) -> Result<Replayed> {
    let log = Log::read(path)?;
    let file = log.file.as_str();
    let mut rulesets = Compiled::default();
    let mut games = 0;
    for block in log.blocks() {
        let start = start_of(file, block)?;
        let (set, rules) = rulesets.get(&start, || {
            start
                .ruleset(home, load, file)
                .map_err(|e| bad_input(format!("{file}:{}:1: {e:#}", block[0].line)))
        })?;
        let game = play_block(file, set, rules, &start, &log.src, block, None)?;
        let floors: Vec<String> = set.floors().iter().map(|f| f.name.clone()).collect();
        let ctx = LogContext {
            game: start.game,
            seed: start.logged.seed,
            packs: &start.logged.packs,
            params: &start.logged.params,
            pack_files: &start.logged.pack_files,
            players: start.logged.players,
            tiles: set.tiles(),
            floors: &floors,
        };
        let expected = log::records(&ctx, game.events());
        compare(file, &log.src, block, &expected)?;
        games += 1;
    }
    Ok(Replayed {
        games,
        events: log.records.len(),
    })
}

fn rejected(file: &str, line: usize, why: Rejection) -> anyhow::Error {
    anyhow::Error::new(Rejected {
        file: file.to_string(),
        line,
        why,
    })
}

/// Is the logged record the one the game gives? A `start` record of a log
/// written before the start tile was recorded has none: it is compared
/// without it (the start tile is checked when the game is set up). A
/// discard after the last tile placed was logged, before turns were kept
/// from going backwards, at the turn after: either turn is read as it.
fn same_record(want: &Record, logged: &Record) -> bool {
    match (&want.event, &logged.event) {
        (
            LogEvent::Start(start),
            LogEvent::Start(
                old @ log::Start {
                    start_tile: None, ..
                },
            ),
        ) => {
            let without_tile = log::Start {
                start_tile: None,
                ..start.clone()
            };
            (want.game, want.turn, &without_tile) == (logged.game, logged.turn, old)
        }
        (LogEvent::Game(Event::Discard { .. }), LogEvent::Game(Event::Discard { .. }))
            if logged.turn == want.turn + 1 =>
        {
            (&want.game, &want.event) == (&logged.game, &logged.event)
        }
        _ => want == logged,
    }
}

/// A record this version writes that logs of earlier versions lack: the
/// start of the end-game scoring, passed over when the log does not have it.
fn new_marker(want: &Record, logged: &Record) -> bool {
    matches!(want.event, LogEvent::Game(Event::FinalScoring))
        && !matches!(logged.event, LogEvent::Game(Event::FinalScoring))
}

/// Every record of a game's block must be the one the game gives.
fn compare(file: &str, src: &Source, block: &[LogLine], expected: &[Record]) -> Result<()> {
    let mut k = 0;
    for rec in block {
        if let Some(want) = expected.get(k)
            && new_marker(want, &rec.record)
        {
            k += 1;
        }
        let Some(want) = expected.get(k) else {
            let event = rec.event_name(src);
            return Err(rejected(file, rec.line, Rejection::AfterEnd { event }));
        };
        if !same_record(want, &rec.record) {
            let why = Rejection::Differs {
                logged: rec.text(src).to_string(),
                expected: want.to_string(),
            };
            return Err(rejected(file, rec.line, why));
        }
        k += 1;
    }
    if let Some(next) = expected.get(k) {
        let last = block.last().map_or(0, |r| r.line);
        let why = Rejection::StopsEarly {
            expected: next.to_string(),
        };
        return Err(rejected(file, last, why));
    }
    Ok(())
}

/// Why a placement the game does not offer is refused: a rotation that
/// looks the same as an offered one (a symmetric tile turned 270° where the
/// game offers 90°) says so and names the one to write; else it does not fit
/// (G1). The game offers each look of a tile once, at its smallest rotation,
/// because meeple segments are numbered for that rotation.
fn misplaced(
    drawn: &str,
    distinct: u8,
    pos: Pos,
    rot: u8,
    options: &[crate::kernel::Placement],
) -> Rejection {
    let degrees = |quarters: u8| u32::from(quarters) * 90;
    // The tile repeats itself every `period` quarter turns.
    let period = distinct.count_ones().max(1) as u8;
    let same_look = Some(rot % period)
        .filter(|&r| r != rot)
        .filter(|&r| options.iter().any(|o| o.pos == pos && o.rot == r));
    match same_look {
        Some(offered) => Rejection::SameLook {
            drawn: drawn.to_owned(),
            pos,
            rot: degrees(rot),
            offered: degrees(offered),
        },
        None => Rejection::TileDoesNotFit {
            drawn: drawn.to_owned(),
            pos,
            rot: degrees(rot),
        },
    }
}

mod compiled;
mod file;
#[cfg(test)]
mod tests;
