//! The games the server holds, by id: each game lives on a thread of its
//! own, which owns its ruleset, its rules instance (with their caches), the
//! session borrowing them and what its states keep from one to the next
//! ([`view::Drawn`]: tile art, events in words), and answers one request at
//! a time. A game that ends leaves the table at once, its last state and log
//! kept readable for a while; one that hears nothing for the idle time ends
//! its thread and leaves the table. Game threads have the stack every thread
//! that runs hooks has. A game's thread also holds its [`Seating`], and
//! checks the key of every request that acts.

use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

use tokio::sync::oneshot;

use super::catalog::Choice;
use super::events::Described;
use super::seats::{Seating, random_hex};
use super::wire::{Advance, AskHint, Choose, GameState, Hint, Poll, Reissue, SeatKey, View};
use super::{ApiError, Limits};
use super::{hint, view};
use crate::play::session::{Refusal, Session, Waiting};
use crate::play::sim::hook_thread;
use crate::play::words::Words;

/// What a request asks of a game.
#[derive(Clone, Debug)]
pub enum Request {
    /// The state as the page shows it.
    State,
    /// The state as a seat's person sees it ("you").
    View(View),
    /// A person's answer: the question's kind and token, and an option.
    Choose(Choose),
    /// The bot whose turn it is plays its turn.
    Advance(Advance),
    /// What a bot would answer for the person deciding.
    Hint(AskHint),
    /// What the game waits for, without the board.
    Poll,
    /// The game's log (JSON Lines), once it has ended.
    Log,
    /// A new key for a person seat, asked by the game's maker.
    Reissue(Reissue),
}

/// A game's answer.
pub enum Answer {
    State(Box<GameState>),
    Hint(Box<Hint>),
    Poll(Poll),
    Log(String),
    Key(SeatKey),
}

type Reply = Result<Answer, ApiError>;

struct Message {
    request: Request,
    reply: oneshot::Sender<Reply>,
}

/// The table of games: those open, each on its thread, and those that
/// ended, kept readable for a while.
pub struct Games {
    table: Mutex<HashMap<String, mpsc::Sender<Message>>>,
    ended: Mutex<VecDeque<Ended>>,
    limits: Limits,
}

/// What stays of a game that ended: its last state and its log, and what
/// says it to each seat's person (its events told, the last answer, the
/// seats and their keys).
struct Ended {
    id: String,
    state: Box<GameState>,
    told: Described,
    last: Option<Words>,
    seating: Seating,
    log: Result<String, ApiError>,
    at: Instant,
}

impl Ended {
    /// The last state, said to the seat whose key `key` is.
    fn view(&self, key: &str) -> Result<Box<GameState>, ApiError> {
        let seat = self.seating.seat_of(Some(key))?;
        let names = self.seating.words_for(Some(seat));
        let mut state = self.state.clone();
        state.events = self.told.lines(&names);
        if let (Some(answered), Some(words)) = (&mut state.last, &self.last) {
            answered.label = names.say(words);
        }
        state.you = Some(seat);
        Ok(state)
    }
}

fn gone(id: &str) -> ApiError {
    ApiError::new(
        404,
        format!(
            "no game `{id}`: it never was, or it expired (after idling, or a while after it ended)"
        ),
    )
}

impl Games {
    pub fn new(limits: Limits) -> Games {
        Games {
            table: Mutex::new(HashMap::new()),
            ended: Mutex::new(VecDeque::new()),
            limits,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::Sender<Message>>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The ended games, those past their time dropped.
    fn ended(&self) -> std::sync::MutexGuard<'_, VecDeque<Ended>> {
        let mut ended = self.ended.lock().unwrap_or_else(|e| e.into_inner());
        while ended
            .front()
            .is_some_and(|e| e.at.elapsed() > self.limits.ended)
        {
            ended.pop_front();
        }
        ended
    }

    /// Start a game on its own thread; its first state, with the seats'
    /// keys. Its id is random: knowing one game's says nothing of another's.
    pub async fn start(
        self: &Arc<Self>,
        choice: Choice,
        seed: u64,
        seating: Seating,
    ) -> Result<Box<GameState>, ApiError> {
        let id = random_hex(8)?;
        let (tx, rx) = mpsc::channel();
        {
            let mut table = self.lock();
            self.room(table.len())?;
            table.insert(id.clone(), tx);
        }
        let (first, answer) = oneshot::channel();
        let games = self.clone();
        let game_id = id.clone();
        let spawned = hook_thread(format!("game-{id}"))
            .spawn(move || host(&games, &game_id, (choice, seating), seed, rx, first));
        if let Err(e) = spawned {
            self.lock().remove(&id);
            return Err(ApiError::new(
                503,
                format!("no thread for a new game now ({e}): try again when a game ends"),
            ));
        }
        match answer.await {
            Ok(Ok(Answer::State(state))) => Ok(state),
            Ok(Err(e)) => Err(e),
            _ => Err(ApiError::new(500, "the game failed to start")),
        }
    }

    /// Is there room for a new game? Asked before its rules are loaded, so
    /// a request the games' limit refuses costs nothing; asked again when
    /// the game takes its place.
    pub fn has_room(&self) -> Result<(), ApiError> {
        self.room(self.lock().len())
    }

    /// A 503 when `open` games fill the server.
    fn room(&self, open: usize) -> Result<(), ApiError> {
        let most = self.limits.open_games();
        if open >= most {
            return Err(ApiError::new(
                503,
                format!(
                    "{most} games are open, the server's limit: finish one, or wait for idle ones to expire"
                ),
            ));
        }
        Ok(())
    }

    /// Send a request to game `id`; its answer. A game that ended answers
    /// from what it left.
    pub async fn ask(&self, id: &str, request: Request) -> Reply {
        let sender = self.lock().get(id).cloned();
        if let Some(sender) = sender {
            let (reply, answer) = oneshot::channel();
            let message = Message {
                request: request.clone(),
                reply,
            };
            if sender.send(message).is_ok()
                && let Ok(reply) = answer.await
            {
                return reply;
            }
        }
        // Not open, or it ended while the request waited.
        self.ended_answer(id, request)
    }

    /// What an ended game answers.
    fn ended_answer(&self, id: &str, request: Request) -> Reply {
        let ended = self.ended();
        let game = ended.iter().find(|e| e.id == id).ok_or_else(|| gone(id))?;
        match request {
            Request::State => Ok(Answer::State(game.state.clone())),
            Request::View(View { key }) => game.view(&key).map(Answer::State),
            Request::Log => game.log.clone().map(Answer::Log),
            Request::Poll => Ok(Answer::Poll(poll_of(&game.state))),
            Request::Choose(_) | Request::Advance(_) | Request::Hint(_) | Request::Reissue(_) => {
                Err(ApiError::new(
                    409,
                    "the game has ended: nothing more can be played",
                ))
            }
        }
    }

    /// Keep what game `id` left, then free its place.
    fn end(&self, left: Ended) {
        let id = left.id.clone();
        {
            let mut ended = self.ended();
            if ended.len() >= self.limits.ended_games {
                ended.pop_front();
            }
            ended.push_back(left);
        }
        self.lock().remove(&id);
    }
}

/// A game's thread: the session, then one request at a time until the game
/// ends (its state and log kept, its place freed at once) or idles for too
/// long.
fn host(
    games: &Games,
    id: &str,
    (choice, seating): (Choice, Seating),
    seed: u64,
    inbox: mpsc::Receiver<Message>,
    first: oneshot::Sender<Reply>,
) {
    let rules = choice.set.rules();
    // Each tile kind's art is drawn, and each event described, once for
    // the whole game.
    let mut drawn = view::Drawn::new(&choice.set, seating);
    match Session::new(&choice.set, rules.as_ref(), &choice.seats, seed) {
        Ok(mut session) => {
            let mut state = view::state(id, &session, &mut drawn, None);
            state.keys = Some(drawn.seating.keys());
            state.maker_key = Some(drawn.seating.maker_key().to_string());
            let _ = first.send(Ok(Answer::State(Box::new(state))));
            let mut game = Hosted {
                id,
                session: &mut session,
                drawn: &mut drawn,
                hint_budget: games.limits.hint_budget,
                last_hint: None,
            };
            while !ended(game.session) {
                let Ok(message) = inbox.recv_timeout(games.limits.idle) else {
                    break;
                };
                let reply =
                    std::panic::catch_unwind(AssertUnwindSafe(|| game.answer(message.request)));
                let failed = reply.is_err();
                let reply = reply.unwrap_or_else(|_| {
                    Err(ApiError::new(500, "the game broke down and is closed"))
                });
                // A game ended by this request frees its place before the
                // answer goes, so that a new game asked for right after it
                // finds the place free.
                if ended(game.session) {
                    end(games, id, game.session, game.drawn);
                    let _ = message.reply.send(reply);
                    return;
                }
                let _ = message.reply.send(reply);
                if failed {
                    break;
                }
            }
            if ended(&session) {
                end(games, id, &session, &mut drawn);
                return;
            }
        }
        Err(e) => {
            let _ = first.send(Err(ApiError::new(400, format!("{e:#}"))));
        }
    }
    games.lock().remove(id);
}

/// Keep an ended game's state and log, and free its place.
fn end(games: &Games, id: &str, session: &Session, drawn: &mut view::Drawn) {
    let state = Box::new(view::state(id, session, drawn, None));
    let log = session
        .log()
        .map_err(|e| ApiError::new(500, format!("{e:#}")));
    games.end(Ended {
        id: id.to_string(),
        state,
        told: std::mem::take(&mut drawn.events),
        last: session.last_answered().map(|a| a.words.clone()),
        seating: drawn.seating.clone(),
        log,
        at: Instant::now(),
    });
}

/// The game waits for nothing more: over, or failed.
fn ended(session: &Session) -> bool {
    matches!(session.waiting(), Waiting::Over | Waiting::Failed(_))
}

/// What a game's thread answers from: its session, what its states keep,
/// and the last hint given, with the names it was said with (asked again
/// for the same question, it is not searched again).
struct Hosted<'g, 'a, 'k> {
    id: &'g str,
    session: &'g mut Session<'a>,
    drawn: &'g mut view::Drawn<'k>,
    hint_budget: u32,
    last_hint: Option<(crate::play::words::Names, Box<Hint>)>,
}

impl Hosted<'_, '_, '_> {
    fn answer(&mut self, request: Request) -> Reply {
        let session = &mut *self.session;
        // The seat the state answered says "you" to.
        let mut you = None;
        let outcome = match request {
            Request::State => Ok(Ok(())),
            Request::View(View { key }) => {
                you = Some(self.drawn.seating.seat_of(Some(&key))?);
                Ok(Ok(()))
            }
            Request::Poll => {
                return Ok(Answer::Poll(Poll {
                    token: session.token(),
                    status: view::status(&session.waiting()),
                    current: session.game().current(),
                }));
            }
            // The game goes on (an ended one answers from what it left):
            // its log would name the seed.
            Request::Log => {
                return Err(ApiError::new(
                    409,
                    "the log is given once the game has ended: it names the deal's seed, which tells the tiles to come",
                ));
            }
            Request::Reissue(Reissue { seat, key }) => {
                return self.drawn.seating.reissue(seat, &key).map(Answer::Key);
            }
            Request::Choose(Choose {
                decision,
                token,
                option,
                key,
                you: say_you,
            }) => {
                let seating = &self.drawn.seating;
                if let Waiting::Person {
                    seat,
                    decision: asked,
                } = session.waiting()
                {
                    seating.check(seat, key.as_deref())?;
                    you = Some(seat).filter(|_| say_you);
                    let waiting = view::decision_kind(&asked);
                    if decision != waiting && token == session.token() {
                        return Err(ApiError::new(
                            409,
                            format!(
                                "the game waits for a {waiting}, not a {decision}: no {decision} is offered now"
                            ),
                        ));
                    }
                } else {
                    you = seating.check_player(key.as_deref())?.filter(|_| say_you);
                }
                session.choose(token, option)
            }
            Request::Advance(Advance {
                token,
                key,
                step,
                you: say_you,
            }) => {
                you = self
                    .drawn
                    .seating
                    .check_player(key.as_deref())?
                    .filter(|_| say_you);
                if step {
                    session.bot_step(token)
                } else {
                    session.bot_turn(token)
                }
            }
            Request::Hint(ask) => return self.hint(&ask).map(Answer::Hint),
        };
        match outcome {
            Ok(Ok(())) => Ok(Answer::State(Box::new(view::state(
                self.id,
                self.session,
                self.drawn,
                you,
            )))),
            Ok(Err(refusal)) => Err(refused(&refusal)),
            Err(e) => Err(ApiError::new(
                500,
                format!("the rules failed, and the game ends: {e:#}"),
            )),
        }
    }

    /// A hint for the person deciding, who alone may ask (with the
    /// question's token), when the game's hints are on.
    fn hint(&mut self, ask: &AskHint) -> Result<Box<Hint>, ApiError> {
        let seating = &self.drawn.seating;
        let Waiting::Person { seat, .. } = self.session.waiting() else {
            seating.check_player(ask.key.as_deref())?;
            return Err(ApiError::new(
                409,
                "no person is to decide now: a hint is for the person deciding",
            ));
        };
        seating.check(seat, ask.key.as_deref())?;
        if !seating.hints() {
            return Err(ApiError::new(
                403,
                "hints are off in this game: its maker switched them off",
            ));
        }
        if ask.token != self.session.token() {
            return Err(refused(&Refusal::Stale {
                token: ask.token,
                waiting: self.session.token(),
            }));
        }
        let names = seating.words_for(Some(seat).filter(|_| ask.you));
        if let Some((said, hint)) = &self.last_hint
            && hint.token == ask.token
            && said.you() == names.you()
        {
            return Ok(hint.clone());
        }
        let hint = Box::new(hint::advise(self.session, self.hint_budget, &names)?);
        self.last_hint = Some((names, hint.clone()));
        Ok(hint)
    }
}

/// What an ended game waits for: nothing.
fn poll_of(state: &GameState) -> Poll {
    Poll {
        token: state.token,
        status: state.status,
        current: state.current,
    }
}

fn refused(refusal: &Refusal) -> ApiError {
    let status = match refusal {
        Refusal::NoOption { .. } => 422,
        _ => 409,
    };
    ApiError::new(status, refusal.to_string())
}
