//! The studio's check as a keystroke asks it: `POST /api/studio/check`
//! (no test games) of a pack of about 200 lines (`benches/packs/long-rule`:
//! 195 lines of Rhai in seven hooks and their helpers, and its manifest),
//! over HTTP to a server in this process, as the page sends it after each
//! pause in typing. Target: under 300 ms a check, the pack as written
//! (`clean`) and with a misspelt hook (`misspelt`, the problem placed at its
//! line).
//!
//! Run with `cargo bench --bench studio`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use serde_json::json;
use towerlab::rules::{Home, LoadOptions};
use towerlab::serve::{Limits, Server};

/// Packs run with their memory limit, counted by this allocator, as in the
/// binary.
#[global_allocator]
static ALLOCATOR: towerlab::rules::script::CountingAllocator =
    towerlab::rules::script::CountingAllocator;

const MANIFEST: &str = include_str!("packs/long-rule/pack.toml");
const SCRIPT: &str = include_str!("packs/long-rule/long-rule.rhai");

fn main() {
    divan::main();
}

fn server() -> SocketAddr {
    Server::bind(
        &Home::shipped(),
        &LoadOptions::default(),
        "127.0.0.1",
        0,
        Limits::default(),
    )
    .and_then(Server::spawn)
    .expect("the server starts")
}

/// The check's request for the pack with `script`.
fn request(script: &str) -> String {
    json!({
        "pack_files": [{"pack": "long-rule", "files": {"pack.toml": MANIFEST, "long-rule.rhai": script}}],
        "pack": "long-rule",
    })
    .to_string()
}

/// One check: the whole answer (status line, headers and body).
fn check(addr: SocketAddr, body: &str) -> String {
    let mut stream = TcpStream::connect(addr).expect("connects");
    write!(
        stream,
        "POST /api/studio/check HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("sent");
    let mut reply = String::new();
    stream.read_to_string(&mut reply).expect("an answer");
    reply
}

fn bench_check(bencher: divan::Bencher, script: &str, problem: bool) {
    let addr = server();
    let body = request(script);
    // Once, outside the measure: the answer is what the page expects.
    let reply = check(addr, &body);
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert_eq!(
        reply.contains("\"line\":"),
        problem,
        "a problem placed at its line exactly when the pack has one"
    );
    bencher.bench(|| check(addr, &body));
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn clean(bencher: divan::Bencher) {
    bench_check(bencher, SCRIPT, false);
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn misspelt(bencher: divan::Bencher) {
    let script = SCRIPT.replace("fn may_top(", "fn may_tpo(");
    bench_check(bencher, &script, true);
}
