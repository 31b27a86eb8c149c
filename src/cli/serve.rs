//! `towerlab serve`: the browser game's server, on localhost unless told
//! otherwise; prints the page's address, then serves until stopped.

use std::io::Write;

use anyhow::Result;

use super::numbers;
use crate::kernel::diag::bad_input;
use crate::rules::{Home, LoadOptions};
use crate::serve::{Limits, Server};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080, value_parser = numbers::port, allow_negative_numbers = true)]
    pub port: u16,
    /// The address to listen on; other machines reach the server only if
    /// this is not a loopback address (`--host 0.0.0.0`: every network of
    /// this machine; see "Playing with friends" in docs/serve.md).
    #[arg(long, default_value = "127.0.0.1", value_parser = host)]
    pub host: String,
    /// Open the page in the desktop's browser (`xdg-open`).
    #[arg(long)]
    pub open: bool,
    #[command(flatten)]
    pub budget: super::args::BudgetArgs,
    /// Games open at once; a new game beyond them is refused (fewer when
    /// the address space holds fewer game threads; see docs/serve.md)
    #[arg(long, value_name = "N", default_value_t = Limits::default().games as u32,
          value_parser = numbers::open_games, allow_negative_numbers = true)]
    pub max_games: u32,
    /// A bot's search budget per decision (`mcts:N`) a new game may ask for,
    /// at most
    #[arg(long, value_name = "N", default_value_t = Limits::default().budget,
          value_parser = numbers::budget, allow_negative_numbers = true)]
    pub max_budget: u32,
    /// A hint's search: `mcts` with N iterations, at most --max-budget
    /// [default: 300, or --max-budget when lower]; the default answers well
    /// within a second (docs/serve.md)
    #[arg(long, value_name = "N", value_parser = numbers::budget, allow_negative_numbers = true)]
    pub hint_budget: Option<u32>,
    /// Connections open at once; one beyond is refused (503) and closed
    #[arg(long, value_name = "N", default_value_t = Limits::default().connections as u32,
          value_parser = numbers::connections, allow_negative_numbers = true)]
    pub max_connections: u32,
}

/// `--host`: an IP address (v4 or v6) or `localhost`, checked before
/// anything is bound; a name that needs a lookup is not an address to
/// listen on.
fn host(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text == "localhost" || text.parse::<std::net::IpAddr>().is_ok() {
        Ok(text.to_string())
    } else {
        Err("not an IP address: give one such as 127.0.0.1, 0.0.0.0 or ::1 (or localhost)".into())
    }
}

pub fn run(home: &Home, load: &LoadOptions, args: &ServeArgs) -> Result<()> {
    let hint_budget = match args.hint_budget {
        Some(n) if n > args.max_budget => {
            return Err(bad_input(format!(
                "--hint-budget {n} is above --max-budget {}: a hint searches within the budget a game may ask for; lower the one or raise the other",
                args.max_budget
            )));
        }
        Some(n) => n,
        None => Limits::default().hint_budget.min(args.max_budget),
    };
    let limits = Limits {
        games: args.max_games as usize,
        budget: args.max_budget,
        connections: args.max_connections as usize,
        // A quarter of them to one address (docs/serve.md).
        per_address: (args.max_connections as usize / 4).max(1),
        hint_budget,
        ..Limits::default()
    };
    let idle = limits.idle;
    let open = limits.open_games();
    let server =
        Server::bind(home, load, &args.host, args.port, limits).map_err(|e| in_use(e, args))?;
    let url = server.url()?;
    out!(
        "towerlab serves the game at {url} (at most {open} games at once; games idle for {} minutes expire; Ctrl-C stops)",
        idle.as_secs() / 60
    );
    match server.network_url()? {
        Some(network) => out!(
            "other devices on the network: {network} (seats' links and the watch link start with it; see docs/serve.md, Playing with friends)"
        ),
        None if !server.addr()?.ip().is_loopback() => out!(
            "other devices reach it at this machine's network address, port {}",
            server.addr()?.port()
        ),
        None => {}
    }
    if args.open {
        open_browser(&url);
    }
    server.run()
}

/// A port another program holds: say so, and how to pick another.
fn in_use(e: anyhow::Error, args: &ServeArgs) -> anyhow::Error {
    let taken = e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::AddrInUse)
    });
    if taken {
        e.context(format!(
            "port {} is in use (another server?): pick another with --port N, or --port 0 for any free port",
            args.port
        ))
    } else {
        e
    }
}

/// Open `url` in the desktop's browser (`xdg-open`), its own messages
/// silenced; one line if it cannot, while the server goes on.
fn open_browser(url: &str) {
    let child = std::process::Command::new("xdg-open")
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let url = url.to_string();
    let failed = move |why: String| {
        let _ = writeln!(
            std::io::stderr(),
            "could not open a browser ({why}); open {url} yourself"
        );
    };
    match child {
        Err(e) => failed(e.to_string()),
        Ok(mut child) => {
            std::thread::spawn(move || match child.wait() {
                Ok(status) if !status.success() => failed(format!("xdg-open failed: {status}")),
                Err(e) => failed(e.to_string()),
                Ok(_) => {}
            });
        }
    }
}
