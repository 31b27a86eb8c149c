//! Load on `towerlab serve`: 50 games at once through the HTTP API, each a
//! client thread playing a person's seat against greedy, until every game
//! ends. Prints the latency of moves (a person's answer, a bot's turn) at
//! p50, p99 and the maximum; the target is p99 <= 50 ms.
//!
//! `cargo bench --bench serve` (GAMES=… changes the number of games).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use towerlab::rules::{Home, LoadOptions};
use towerlab::serve::{Limits, Server};

/// The packs' memory limit counts bytes with towerlab's allocator, which
/// the program installs.
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

/// One request; the status and the JSON body.
fn post(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let body = body.to_string();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("a response");
    let (head, rest) = raw.split_once("\r\n\r\n").expect("headers");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, serde_json::from_str(rest).unwrap_or(Value::Null))
}

/// Play one game to its end; the latency of every move, and of bots' turns.
fn play(addr: SocketAddr, seed: u64) -> (Vec<Duration>, Vec<Duration>) {
    let new = json!({"variant": "tower", "seats": ["person", "greedy"], "seed": seed});
    let (status, mut state) = post(addr, "/api/games", &new);
    assert_eq!(status, 201, "{state}");
    let id = state["id"].as_str().unwrap().to_string();
    // Seat 0 is the person's: its key acts for it, and steps the bot.
    let key = state["keys"][0]["key"].clone();
    let (mut moves, mut bots) = (Vec::new(), Vec::new());
    while state["status"] != "over" {
        let bot = state["status"] == "bot";
        let (path, body) = if bot {
            (
                format!("/api/games/{id}/advance"),
                json!({"token": state["token"], "key": key}),
            )
        } else {
            let q = &state["question"];
            let n = q["options"].as_array().unwrap().len();
            let option = (state["turn"].as_u64().unwrap() as usize * 5) % n;
            (
                format!("/api/games/{id}/choose"),
                json!({"decision": q["kind"], "token": state["token"], "option": option, "key": key}),
            )
        };
        let start = Instant::now();
        let (status, next) = post(addr, &path, &body);
        let took = start.elapsed();
        assert_eq!(status, 200, "{next}");
        moves.push(took);
        if bot {
            bots.push(took);
        }
        state = next;
    }
    (moves, bots)
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

fn report(name: &str, mut all: Vec<Duration>) {
    all.sort();
    println!(
        "{name}: {} moves, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        all.len(),
        percentile(&all, 0.5),
        percentile(&all, 0.99),
        percentile(&all, 1.0)
    );
}

fn main() {
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(50);
    let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let addr = Server::bind(
        &home,
        &LoadOptions::default(),
        "127.0.0.1",
        0,
        Limits::default(),
    )
    .and_then(Server::spawn)
    .expect("the server starts");
    let start = Instant::now();
    let clients: Vec<_> = (0..games)
        .map(|seed| std::thread::spawn(move || play(addr, seed + 1)))
        .collect();
    let (mut moves, mut bots) = (Vec::new(), Vec::new());
    for c in clients {
        let (m, b) = c.join().expect("a game finished");
        moves.extend(m);
        bots.extend(b);
    }
    println!(
        "{games} games at once, all finished in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    report("every move", moves);
    report("greedy bots' turns", bots);
}
