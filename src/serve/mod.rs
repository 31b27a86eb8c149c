//! Layer 5 (below the command line), serve: play a variant in the browser.
//! A local web server holds games between people and bots, many at once by
//! id; the page it serves (everything from the binary, nothing from the
//! network) draws the board with the project's renderer and sends the
//! person's answers as an option index of the question the kernel listed,
//! with that question's token. The server checks every answer: an illegal,
//! stale or forged request gets a 4xx with a message and changes nothing.
//!
//! A game idle for [`IDLE`] is dropped. The browser names no files: rules
//! come from the lists of the home folder's variants and packs. The HTTP API
//! is in `docs/serve.md`. This module returns values and errors; the command
//! line prints.

mod api;
mod catalog;
mod events;
mod host;
mod view;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::rules::Home;

/// How long a game may wait for its next request before it is dropped.
pub const IDLE: Duration = Duration::from_secs(30 * 60);

/// At most this many games at once; a new game beyond them is refused.
pub const MAX_GAMES: usize = 256;

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
    pub fn bind(home: &Home, host: &str, port: u16, idle: Duration) -> Result<Server> {
        let listener = std::net::TcpListener::bind((host, port))
            .with_context(|| format!("listening on {host}:{port}"))?;
        listener.set_nonblocking(true)?;
        Ok(Server {
            listener,
            state: Arc::new(api::AppState::new(home, idle)),
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
            axum::serve(listener, api::router(self.state))
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
