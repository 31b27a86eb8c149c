//! `towerlab serve`: the browser game's server, on localhost unless told
//! otherwise; prints the page's address, then serves until stopped.

use std::io::Write;

use anyhow::Result;

use crate::rules::Home;
use crate::serve::{IDLE, Server};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on; other machines reach the server only if
    /// this is not a loopback address.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the desktop's browser (`xdg-open`).
    #[arg(long)]
    pub open: bool,
    #[command(flatten)]
    pub budget: super::args::BudgetArgs,
}

pub fn run(home: &Home, args: &ServeArgs) -> Result<()> {
    let server = Server::bind(home, &args.host, args.port, IDLE)?;
    let url = server.url()?;
    out!(
        "towerlab serves the game at {url} (games idle for {} minutes expire; Ctrl-C stops)",
        IDLE.as_secs() / 60
    );
    if args.open
        && let Err(e) = std::process::Command::new("xdg-open").arg(&url).spawn()
    {
        writeln!(
            std::io::stderr(),
            "could not open a browser ({e}); open {url} yourself"
        )?;
    }
    server.run()
}
