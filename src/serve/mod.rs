//! Layer 5 (below the command line), serve: play a variant in the browser.
//! A local web server holds games between people and bots, many at once by
//! id; the page it serves (everything from the binary, nothing from the
//! network) draws the board with the project's renderer and sends the
//! person's answers as an option index of the question the kernel listed,
//! with that question's token. The server checks every answer: an illegal,
//! stale or forged request gets a 4xx with a message and changes nothing.
//! Each person seat has a secret key, so people can play one game from
//! several browsers and others watch it ([`seats`]); a person may ask what
//! a bot would play ([`hint`]).
//!
//! A game idle for [`IDLE`] is dropped, one that ended frees its place at
//! once; every resource a client can take is bounded ([`Limits`]). The
//! browser names no files: rules come from the lists of the home folder's
//! variants and packs. The HTTP API is in `docs/serve.md`, its JSON as types
//! in [`wire`]. This module returns values and errors; the command line
//! prints.

mod api;
mod catalog;
mod events;
mod hint;
mod host;
mod listen;
mod seats;
mod view;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::play::sim::threads_that_fit;
use crate::rules::Home;

/// How long a game may wait for its next request before it is dropped.
pub const IDLE: Duration = Duration::from_secs(30 * 60);

/// At most this many games at once, by default; a new game beyond them is
/// refused.
pub const MAX_GAMES: usize = 256;

/// What the server allows, and for how long: the table in docs/serve.md.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Games open at once (each on a thread of its own, until it ends); a
    /// new game beyond them is refused (503). Never more than the threads
    /// that fit in the address space ([`Limits::open_games`]).
    pub games: usize,
    /// A bot's search budget per decision (`mcts:N`) in a new game, at
    /// most: a seat beyond it is refused (400).
    pub budget: u32,
    /// A game that hears nothing for this long is dropped.
    pub idle: Duration,
    /// A game that ended (over or failed) frees its place at once; its
    /// state and log stay readable this long ...
    pub ended: Duration,
    /// ... for at most this many ended games, the oldest dropped first.
    pub ended_games: usize,
    /// Connections open at once; one beyond gets a 503 and is closed.
    pub connections: usize,
    /// A request's head must arrive within this from the moment it is
    /// awaited (so a connection idle for this long closes), and its body
    /// within this from the end of its head (408).
    pub read: Duration,
    /// A request body's bytes, at most (413).
    pub body: usize,
    /// A request target's bytes (path and query), at most (414).
    pub target: usize,
    /// The iterations of a hint's search (`mcts:N`).
    pub hint_budget: u32,
}

/// A hint's search, by default: `mcts` with this many iterations answers in
/// about a second (docs/serve.md).
pub const HINT_BUDGET: u32 = 300;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            games: MAX_GAMES,
            budget: 5_000,
            idle: IDLE,
            ended: Duration::from_secs(10 * 60),
            ended_games: MAX_GAMES,
            connections: 128,
            read: Duration::from_secs(10),
            body: 64 << 10,
            target: 4 << 10,
            hint_budget: HINT_BUDGET,
        }
    }
}

impl Limits {
    /// The games that may be open at once: [`Limits::games`], or fewer when
    /// the address space holds fewer game threads.
    pub fn open_games(&self) -> usize {
        self.games.min(threads_that_fit())
    }
}

/// A refused or failed request: an HTTP status and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

/// A server bound to its address, ready to run.
pub struct Server {
    listener: std::net::TcpListener,
    state: Arc<api::AppState>,
}

impl Server {
    /// Bind to `host:port` (port 0 picks a free one) and read the home
    /// folder's variants and packs.
    pub fn bind(home: &Home, host: &str, port: u16, limits: Limits) -> Result<Server> {
        let listener = std::net::TcpListener::bind((host, port))
            .with_context(|| format!("listening on {host}:{port}"))?;
        listener.set_nonblocking(true)?;
        Ok(Server {
            listener,
            state: Arc::new(api::AppState::new(home, limits)),
        })
    }

    /// The address the server listens on.
    pub fn addr(&self) -> Result<SocketAddr> {
        Ok(self.listener.local_addr()?)
    }

    /// The page's address.
    pub fn url(&self) -> Result<String> {
        Ok(format!("http://{}/", self.addr()?))
    }

    /// Serve until the process ends.
    pub fn run(self) -> Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .context("starting the server's runtime")?;
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)?;
            let limits = self.state.limits().clone();
            listen::serve(listener, api::router(self.state), limits)
                .await
                .context("serving")
        })
    }

    /// Serve on a thread of its own (for tests and benchmarks); the address.
    pub fn spawn(self) -> Result<SocketAddr> {
        let addr = self.addr()?;
        std::thread::Builder::new()
            .name("towerlab-serve".into())
            .spawn(move || self.run())?;
        Ok(addr)
    }
}
