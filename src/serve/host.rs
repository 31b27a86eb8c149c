//! The games the server holds, by id: each game lives on a thread of its
//! own, which owns its ruleset, its rules instance (with their caches), the
//! session borrowing them and what its states keep from one to the next
//! ([`view::Drawn`]: tile art, events in words), and answers one request at
//! a time. A game
//! that hears nothing for the idle time ends its thread and leaves the table.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use tokio::sync::oneshot;

use super::catalog::Choice;
use super::view::{self, kind_of};
use super::{ApiError, MAX_GAMES};
use crate::play::seed::mix64;
use crate::play::session::{Refusal, Session, Waiting};

/// What a request asks of a game.
#[derive(Clone, Debug)]
pub enum Request {
    /// The state as the page shows it.
    State,
    /// A person's answer: the question's kind and token, and an option.
    Choose {
        decision: String,
        token: u64,
        option: usize,
    },
    /// The bot whose turn it is plays its turn.
    Advance { token: u64 },
    /// The game's log (JSON Lines).
    Log,
}

/// A game's answer.
pub enum Answer {
    State(Value),
    Log(String),
}

type Reply = Result<Answer, ApiError>;

struct Message {
    request: Request,
    reply: oneshot::Sender<Reply>,
}

/// The table of games.
pub struct Games {
    table: Mutex<HashMap<String, mpsc::Sender<Message>>>,
    made: AtomicU64,
    idle: Duration,
}

fn gone(id: &str) -> ApiError {
    ApiError::new(
        404,
        format!("no game `{id}`: it never was, or it expired after idling"),
    )
}

impl Games {
    pub fn new(idle: Duration) -> Games {
        Games {
            table: Mutex::new(HashMap::new()),
            made: AtomicU64::new(0),
            idle,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::Sender<Message>>> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A fresh number, different for every call and every run.
    fn fresh(&self) -> u64 {
        let n = self.made.fetch_add(1, Ordering::Relaxed);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        mix64(now ^ mix64(n ^ std::process::id() as u64))
    }

    /// A random deal: a seed a page's numbers hold exactly (below 2^32).
    pub fn random_seed(&self) -> u64 {
        self.fresh() >> 32
    }

    /// Start a game on its own thread; its id and first state.
    pub async fn start(self: &Arc<Self>, choice: Choice, seed: u64) -> Result<Value, ApiError> {
        let id = format!("{:016x}", self.fresh());
        let (tx, rx) = mpsc::channel();
        {
            let mut table = self.lock();
            if table.len() >= MAX_GAMES {
                return Err(ApiError::new(
                    503,
                    format!(
                        "{MAX_GAMES} games are open: finish one, or wait for idle ones to expire"
                    ),
                ));
            }
            table.insert(id.clone(), tx);
        }
        let (first, answer) = oneshot::channel();
        let games = self.clone();
        let game_id = id.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("game-{id}"))
            .stack_size(16 << 20)
            .spawn(move || host(&games, &game_id, choice, seed, rx, first));
        if let Err(e) = spawned {
            self.lock().remove(&id);
            return Err(ApiError::new(500, format!("starting the game: {e}")));
        }
        match answer.await {
            Ok(Ok(Answer::State(state))) => Ok(state),
            Ok(Err(e)) => Err(e),
            _ => Err(ApiError::new(500, "the game failed to start")),
        }
    }

    /// Send a request to game `id`; its answer.
    pub async fn ask(&self, id: &str, request: Request) -> Reply {
        let sender = self.lock().get(id).cloned().ok_or_else(|| gone(id))?;
        let (reply, answer) = oneshot::channel();
        sender
            .send(Message { request, reply })
            .map_err(|_| gone(id))?;
        answer.await.map_err(|_| gone(id))?
    }
}

/// A game's thread: the session, then one request at a time until the game
/// idles for too long.
fn host(
    games: &Games,
    id: &str,
    choice: Choice,
    seed: u64,
    inbox: mpsc::Receiver<Message>,
    first: oneshot::Sender<Reply>,
) {
    let rules = choice.set.rules();
    // Each tile kind's art is drawn, and each event described, once for
    // the whole game.
    let mut drawn = view::Drawn::new(&choice.set);
    match Session::new(&choice.set, rules.as_ref(), &choice.seats, seed) {
        Ok(mut session) => {
            let _ = first.send(Ok(Answer::State(view::state(id, &session, &mut drawn))));
            while let Ok(message) = inbox.recv_timeout(games.idle) {
                let reply = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    answer(id, &mut session, &mut drawn, message.request)
                }));
                let failed = reply.is_err();
                let reply = reply.unwrap_or_else(|_| {
                    Err(ApiError::new(500, "the game broke down and is closed"))
                });
                let _ = message.reply.send(reply);
                if failed {
                    break;
                }
            }
        }
        Err(e) => {
            let _ = first.send(Err(ApiError::new(400, format!("{e:#}"))));
        }
    }
    games.lock().remove(id);
}

fn answer(id: &str, session: &mut Session, drawn: &mut view::Drawn, request: Request) -> Reply {
    let outcome = match request {
        Request::State => Ok(Ok(())),
        Request::Log => {
            let log = session
                .log()
                .map_err(|e| ApiError::new(500, format!("{e:#}")))?;
            return Ok(Answer::Log(log));
        }
        Request::Choose {
            decision,
            token,
            option,
        } => {
            let person = matches!(session.waiting(), Waiting::Person { .. });
            let waiting = kind_of(&session.waiting());
            if person && decision != waiting && token == session.token() {
                return Err(ApiError::new(
                    409,
                    format!(
                        "the game waits for a {waiting}, not a {decision}: no {decision} is offered now"
                    ),
                ));
            }
            session.choose(token, option)
        }
        Request::Advance { token } => session.bot_turn(token),
    };
    match outcome {
        Ok(Ok(())) => Ok(Answer::State(view::state(id, session, drawn))),
        Ok(Err(refusal)) => Err(refused(&refusal)),
        Err(e) => Err(ApiError::new(
            500,
            format!("the rules failed, and the game ends: {e:#}"),
        )),
    }
}

fn refused(refusal: &Refusal) -> ApiError {
    let status = match refusal {
        Refusal::NoOption { .. } => 422,
        _ => 409,
    };
    ApiError::new(status, refusal.to_string())
}
