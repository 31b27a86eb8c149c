//! A game's state as the page shows it (a [`GameState`], docs/serve.md),
//! built from its session: the board as the project's renderer draws it, the points on it the page marks (legal placements,
//! spots for a meeple, towers, capturable meeples), the question waiting
//! with its options in words, the players, and the events so far.

use super::events::Described;
use super::floors;
use super::seats::Seating;
use super::wire::{
    ActionKind, ActionOption, Answered, Board, CaptureOption, DecisionKind, FloorCount, GameState,
    PlacementOption, Player, Point, Prisoners, Progress, Question, RansomOption, ScorePart, Status,
    TileArt,
};
use crate::kernel::geometry::Pos;
use crate::kernel::tiles::SegmentKind;
use crate::kernel::{Action, CaptureChoice, Decision, Event, Game, MeepleSpot, Scored, Step};
use crate::play::session::{Session, Waiting};
use crate::play::words::{Names, option_words, placed, tile_words};
use crate::rules::Ruleset;
use crate::views::render::locate::{CELL, Locator, book_tile_svg};
use crate::views::render::{TileBook, board_svg_with, player_colour};
use crate::views::scene::{SceneOptions, game_scene, palette};

/// What a game's states keep from one to the next: the tile art of its
/// tile set, its events described so far, and its seating (names, keys).
pub struct Drawn<'k> {
    pub book: TileBook<'k>,
    pub events: Described,
    pub seating: Seating,
}

impl<'k> Drawn<'k> {
    pub fn new(set: &'k Ruleset, seating: Seating) -> Drawn<'k> {
        Drawn {
            book: TileBook::new(set.tiles()),
            events: Described::default(),
            seating,
        }
    }
}

/// The whole state of game `id`, drawn with what `drawn` kept of its
/// earlier states (the seats' keys left out: only the game's maker gets
/// them), its words said to seat `you` ("you", "your"; none: every seat by
/// its name).
pub fn state(id: &str, session: &Session, drawn: &mut Drawn, you: Option<usize>) -> GameState {
    drawn
        .events
        .update(session.game(), session.ruleset(), session.spared());
    let names = drawn.seating.words_for(you);
    let book = &drawn.book;
    let game = session.game();
    let set = session.ruleset();
    let waiting = session.waiting();
    let mut options = SceneOptions {
        title: Some(set.name().clone()),
        names: drawn.seating.names().to_vec(),
        ..Default::default()
    };
    if let Waiting::Person { decision, .. } = waiting {
        frame_for(decision, game, &mut options);
    }
    let scene = game_scene(game, set, &options);
    // Where the question's options and the last tiles are drawn.
    let locator = Locator::new(&scene, book);
    let question = match waiting {
        Waiting::Person { decision, .. } => {
            Some(question(decision, game, set, (book, &locator), &names))
        }
        _ => None,
    };
    GameState {
        id: id.to_string(),
        token: session.token(),
        variant: set.name().clone(),
        packs: set.pack_names().clone(),
        // The deal is told once the game has ended.
        seed: match waiting {
            Waiting::Over | Waiting::Failed(_) => Some(session.seed()),
            _ => None,
        },
        seats: session.seats().iter().map(|s| s.name().into()).collect(),
        current: game.current(),
        turn: game.stats().turns,
        tiles_left: game.deck_left(),
        drawn: session
            .drawn()
            .map(|k| game.tiles().kinds[k as usize].name.clone()),
        status: status(&waiting),
        error: match waiting {
            Waiting::Failed(m) => Some(m.to_string()),
            _ => None,
        },
        players: players(game, set, &locator),
        question,
        board: Board {
            svg: board_svg_with(&scene, book, &palette(set)),
            cell: CELL,
        },
        events: drawn.events.lines(&names),
        names: drawn.seating.names().to_vec(),
        hints: drawn.seating.hints(),
        keys: None,
        maker_key: None,
        last: session.last_answered().map(|a| Answered {
            seat: a.seat,
            decision: step_kind(a.step),
            label: names.say(&a.words),
        }),
        you,
    }
}

/// The scene must hold every cell the question marks: legal placements, and
/// a capturing tower's range.
fn frame_for(decision: Decision, game: &Game, options: &mut SceneOptions) {
    match decision {
        Decision::Placement {
            options: places, ..
        } => {
            let mut cells: Vec<Pos> = game.board().tiles().iter().map(|t| t.pos).collect();
            cells.extend(places.iter().map(|p| p.pos));
            let low = Pos::new(
                cells.iter().map(|p| p.x).min().unwrap_or(0),
                cells.iter().map(|p| p.y).min().unwrap_or(0),
            );
            let high = Pos::new(
                cells.iter().map(|p| p.x).max().unwrap_or(0),
                cells.iter().map(|p| p.y).max().unwrap_or(0),
            );
            options.bounds = Some((low, high));
        }
        Decision::Capture(_) => options.range = capturing_tower(game),
        _ => {}
    }
}

/// The tower that got the floor whose capture is pending.
fn capturing_tower(game: &Game) -> Option<Pos> {
    game.events().iter().rev().find_map(|e| match e {
        Event::Floor { pos, .. } => Some(*pos),
        _ => None,
    })
}

fn players(game: &Game, set: &Ruleset, at: &Locator) -> Vec<Player> {
    let n = game.players().len();
    let breakdowns = breakdowns(game);
    game.players()
        .iter()
        .enumerate()
        .map(|(p, player)| Player {
            seat: p,
            colour: player_colour(p).into(),
            score: player.score,
            meeples: player.meeples,
            floors: set
                .floors()
                .iter()
                .zip(&player.floors)
                .map(|(f, &count)| FloorCount {
                    name: f.name.clone(),
                    colour: f.colour.clone(),
                    count,
                })
                .collect(),
            prisoners: (0..n)
                .map(|owner| Prisoners {
                    owner,
                    count: game.prisoners(p, owner),
                })
                .filter(|held| held.count > 0)
                .collect(),
            last_tile: last_tile(game, p).map(|pos| point(at.cell(pos))),
            breakdown: breakdowns[p].clone(),
        })
        .collect()
}

/// The cell of the tile player `p` placed last.
fn last_tile(game: &Game, p: usize) -> Option<Pos> {
    game.events().iter().rev().find_map(|e| match e {
        Event::Tile { player, pos, .. } if *player == p => Some(*pos),
        _ => None,
    })
}

/// Each player's points so far by source, from the game's events: the
/// kernel's features in a fixed order, then ransoms, then the rules' own
/// scores by name.
fn breakdowns(game: &Game) -> Vec<Vec<ScorePart>> {
    let n = game.players().len();
    let mut parts: Vec<Vec<ScorePart>> = vec![Vec::new(); n];
    let mut add = |p: usize, source: &str, points: i64| match parts[p]
        .iter_mut()
        .find(|part| part.source == source)
    {
        Some(part) => part.points += points,
        None => parts[p].push(ScorePart {
            source: source.to_string(),
            points,
        }),
    };
    for e in game.events() {
        match e {
            Event::Score {
                player,
                points,
                feature: Scored::Feature(kind),
                ..
            } => add(*player, feature_source(*kind), *points),
            Event::Ransom {
                player, to, cost, ..
            } => {
                add(*player, "ransoms", -(*cost as i64));
                add(*to, "ransoms", *cost as i64);
            }
            Event::Score {
                player,
                points,
                feature: Scored::Rule(name),
                ..
            } => add(*player, name, *points),
            _ => {}
        }
    }
    let order = |source: &str| {
        [
            "roads",
            "cities",
            "cloisters",
            "fields",
            "foundations",
            "ransoms",
        ]
        .iter()
        .position(|s| *s == source)
        .unwrap_or(usize::MAX)
    };
    for list in &mut parts {
        list.retain(|part| part.points != 0);
        // Stable: the rules' own sources stay in the order they came.
        list.sort_by_key(|part| order(&part.source));
    }
    parts
}

/// A feature's points, as the breakdown names them.
fn feature_source(feature: SegmentKind) -> &'static str {
    match feature {
        SegmentKind::Road => "roads",
        SegmentKind::City => "cities",
        SegmentKind::Cloister => "cloisters",
        SegmentKind::Field => "fields",
        SegmentKind::Foundation => "foundations",
    }
}

fn point((x, y): (f64, f64)) -> Point {
    [x, y]
}

/// The waiting question: its kind and each option in words, with where on
/// the board it is marked.
fn question(
    decision: Decision,
    game: &Game,
    set: &Ruleset,
    (book, at): (&TileBook, &Locator),
    names: &Names,
) -> Question {
    let label = |index: usize| names.say(&option_words(decision, index, game, set));
    match decision {
        Decision::Placement { tile, options } => {
            let kind = &game.tiles().kinds[tile as usize];
            let mut rots: Vec<u8> = options.iter().map(|p| p.rot).collect();
            rots.sort_unstable();
            rots.dedup();
            Question::Placement {
                tile: kind.name.clone(),
                tile_words: tile_words(kind),
                tiles: rots
                    .iter()
                    .map(|&r| TileArt {
                        rot: r as u32 * 90,
                        svg: book_tile_svg(book, tile, r),
                    })
                    .collect(),
                options: options
                    .iter()
                    .enumerate()
                    .map(|(index, p)| PlacementOption {
                        index,
                        x: p.pos.x,
                        y: p.pos.y,
                        rot: p.rot as u32 * 90,
                        label: label(index),
                        cell: point(at.cell(p.pos)),
                    })
                    .collect(),
            }
        }
        Decision::Ransom(options) => Question::Ransom {
            options: options
                .iter()
                .enumerate()
                .map(|(index, _)| RansomOption {
                    index,
                    label: label(index),
                })
                .collect(),
        },
        Decision::Action(options) => Question::Action {
            options: options
                .iter()
                .enumerate()
                .map(|(i, a)| action(i, a, (game, set), (at, names), label(i)))
                .collect(),
        },
        Decision::Capture(options) => Question::Capture {
            options: options
                .iter()
                .enumerate()
                .map(|(i, c)| capture(i, c, game, at, label(i)))
                .collect(),
        },
    }
}

fn action(
    index: usize,
    a: &Action,
    (game, set): (&Game, &Ruleset),
    (at, names): (&Locator, &Names),
    label: String,
) -> ActionOption {
    let tower = |t: u16| at.spot(game.towers()[t as usize].pos, MeepleSpot::Tower);
    let (kind, spot) = match *a {
        Action::Pass => (ActionKind::Pass, None),
        Action::Meeple { segment } => (
            ActionKind::Meeple,
            at.spot(placed(game), MeepleSpot::Segment(segment)),
        ),
        Action::Floor { tower: t, .. } => (ActionKind::Floor, tower(t)),
        Action::TowerMeeple { tower: t } => (ActionKind::TowerMeeple, tower(t)),
    };
    ActionOption {
        index,
        kind,
        label,
        at: spot.map(point),
        preview: floors::preview(game, set, *a, at, names),
    }
}

fn capture(
    index: usize,
    c: &CaptureChoice,
    game: &Game,
    at: &Locator,
    label: String,
) -> CaptureOption {
    match *c {
        CaptureChoice::Decline => CaptureOption {
            index,
            owner: None,
            label,
            at: None,
        },
        CaptureChoice::Take { meeple } => {
            let m = game.meeples()[meeple as usize];
            CaptureOption {
                index,
                owner: Some(m.owner as usize),
                label,
                at: at.spot(m.pos, m.spot).map(point),
            }
        }
    }
}

/// What a game waits for, as the page and the API call it.
pub fn status(waiting: &Waiting) -> Status {
    match waiting {
        Waiting::Person { decision, .. } => Status::Person(decision_kind(decision)),
        Waiting::Bot { .. } => Status::Game(Progress::Bot),
        Waiting::Over => Status::Game(Progress::Over),
        Waiting::Failed(_) => Status::Game(Progress::Failed),
    }
}

/// The kind of a person's question.
pub fn decision_kind(decision: &Decision) -> DecisionKind {
    match decision {
        Decision::Placement { .. } => DecisionKind::Placement,
        Decision::Ransom(_) => DecisionKind::Ransom,
        Decision::Action(_) => DecisionKind::Action,
        Decision::Capture(_) => DecisionKind::Capture,
    }
}

/// The kind of question a turn's step asks.
fn step_kind(step: Step) -> DecisionKind {
    match step {
        Step::Placement => DecisionKind::Placement,
        Step::Ransom => DecisionKind::Ransom,
        Step::Action => DecisionKind::Action,
        Step::Capture => DecisionKind::Capture,
    }
}
