//! Layer 5 (below the command line), serve: play a variant in the browser.
//! A local web server holds games between people and bots, many at once by
//! id; the page it serves (everything from the binary, nothing from the
//! network) draws the board with the project's renderer and sends the
//! person's answers as an option index of the question the kernel listed,
//! with that question's token. The server checks every answer: an illegal,
//! stale or forged request gets a 4xx with a message and changes nothing.
//! Each person seat has a secret key, so people can play one game from
//! several browsers and others watch it (`seats`); a person may ask what
//! a bot would play (`hint`), and sees what a floor would reach and could
//! capture before committing it (`floors`).
//!
//! A game idle for [`IDLE`] is dropped, one that ended frees its place at
//! once; every resource a client can take is bounded ([`Limits`]). The
//! browser names no files: rules come from the lists of the home folder's
//! variants and packs, or are the packs a studio page sends (`studio`),
//! held in memory for the request. The HTTP API is in `docs/serve.md`, its JSON as types
//! in [`wire`]. This module returns values and errors; the command line
//! prints.

mod api;
mod catalog;
mod events;
mod floors;
mod hint;
mod host;
mod listen;
mod seats;
mod studio;
mod view;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::play::sim::threads_that_fit;
use crate::rules::{Home, LoadOptions};

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
    /// Connections open at once. At the limit a new connection takes the
    /// place of one with no request in progress for a second (the one idle
    /// longest, of the address holding the most); when there is none, the
    /// new one's request is read and gets a 503, then it is closed
    /// (`listen`).
    pub connections: usize,
    /// Connections one address may hold at once: past them, its own
    /// connection idle longest makes way, or, when each of its has a
    /// request in progress, the new one gets a 503.
    pub per_address: usize,
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
    /// Rulesets kept loaded for new games (each setting of parameters is
    /// one), at most, the least recently used dropped first ...
    pub rulesets: usize,
    /// ... and the bytes they hold, at most (measured as each is built).
    pub ruleset_bytes: usize,
    /// A studio request's body (its packs' files), at most (413).
    pub studio_body: usize,
    /// Studio requests worked on at once (checks, answers, scenarios),
    /// each on a thread of its own; more wait up to [`Limits::read`],
    /// then get a 503. One address holds at most all but one of them
    /// (`studio::workers`).
    pub studio_work: usize,
    /// The operations the hooks of one studio request may run in all,
    /// every game and scenario it runs counted (a comparison's run gets
    /// this per 25 games it plays): past them its
    /// hooks fail, saying so.
    pub studio_operations: u64,
    /// A studio request still at work after this is stopped at its next
    /// hook's look at the clocks (a guard: the operations decide first).
    pub studio_time: Duration,
    /// The studio's comparisons running at once on the whole server (one
    /// per client), each on a thread of its own (503 beyond).
    pub comparisons: usize,
}

/// What the hooks of one studio request may run, by default: five games'
/// budgets (`--hook-budget`'s default). The heaviest shipped variant's
/// games take about 1/25 of a game's budget each (docs/packs.md), so a
/// check of 25 games, and those at its parameters' ends, fits in it.
pub const STUDIO_OPERATIONS: u64 = 50_000_000;

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
            per_address: 32,
            read: Duration::from_secs(10),
            body: 64 << 10,
            target: 4 << 10,
            hint_budget: HINT_BUDGET,
            rulesets: 64,
            ruleset_bytes: 64 << 20,
            studio_body: 256 << 10,
            studio_work: 3,
            studio_operations: STUDIO_OPERATIONS,
            studio_time: Duration::from_secs(30),
            comparisons: 2,
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

/// The page's address as other devices on the network reach a server
/// listening on `addr`: none for a loopback address; the machine's address
/// on its network for every address (`0.0.0.0`, `::`), when the system has
/// a route out to learn it from.
fn network_url(addr: SocketAddr) -> Option<String> {
    let ip = match addr.ip() {
        ip if ip.is_loopback() => return None,
        ip if ip.is_unspecified() => network_ip(ip.is_ipv6())?,
        ip => ip,
    };
    Some(format!("http://{}/", SocketAddr::new(ip, addr.port())))
}

/// This machine's address on the network its default route leads to: a
/// UDP socket "connected" to a documentation address (no packet is sent;
/// the system only picks the route and the local address for it).
fn network_ip(v6: bool) -> Option<std::net::IpAddr> {
    let (any, out) = if v6 {
        ("[::]:0", "[2001:db8::1]:80")
    } else {
        ("0.0.0.0:0", "192.0.2.1:80")
    };
    let socket = std::net::UdpSocket::bind(any).ok()?;
    socket.connect(out).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
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
    /// folder's variants and packs, loaded under `load`.
    pub fn bind(
        home: &Home,
        load: &LoadOptions,
        host: &str,
        port: u16,
        limits: Limits,
    ) -> Result<Server> {
        let listener = std::net::TcpListener::bind((host, port))
            .with_context(|| format!("listening on {host}:{port}"))?;
        listener.set_nonblocking(true)?;
        let network = network_url(listener.local_addr()?);
        Ok(Server {
            listener,
            state: Arc::new(api::AppState::new(home, load, limits, network)),
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

    /// The page's address as other devices on the network reach it (see
    /// the function `network_url` of this module).
    pub fn network_url(&self) -> Result<Option<String>> {
        Ok(network_url(self.addr()?))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_devices_get_the_listening_address_unless_it_is_loopback() {
        let at = |a: &str| network_url(a.parse().unwrap());
        assert_eq!(at("127.0.0.1:8080"), None);
        assert_eq!(at("[::1]:8080"), None);
        assert_eq!(
            at("192.168.1.20:8080").as_deref(),
            Some("http://192.168.1.20:8080/")
        );
        // Every address: the machine's own on its network, if it has a
        // route out, never the unspecified or a loopback one.
        if let Some(url) = at("0.0.0.0:8080") {
            assert!(
                url.ends_with(":8080/") && !url.contains("0.0.0.0") && !url.contains("127."),
                "{url}"
            );
        }
    }
}
