//! `towerlab serve`'s HTTP API (docs/serve.md): every bad request — an
//! unknown game, malformed JSON, a stale token, an option out of range (a
//! capture among them), a ransom when none is offered, rules not in the
//! lists — gets a 4xx with a message and leaves the game as it was; idle
//! games expire; a whole game played through the API logs a game that
//! `towerlab replay` accepts, with the same final scores, each player's
//! score breakdown adding up to the score. Packs keep the order asked, their
//! requirements put first; `serve` on a port in use and `--open` without a
//! browser each say so in one line.
//!
//! Here: a server on a free port and the HTTP client the tests (and the
//! other server tests) share; the tests by concern in the modules below.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use serde_json::{Value, json};
use towerlab::rules::LoadOptions;
use towerlab::serve::{IDLE, Limits, Server};

use crate::common::{home, towerlab};

mod command;
mod games;
mod new_game;
mod requests;
mod studio;
mod studio_share;

/// A server of the repository's home on a free port.
pub fn server(idle: Duration) -> SocketAddr {
    server_with(Limits {
        idle,
        ..Limits::default()
    })
}

/// A server of the repository's home on a free port, with `limits`.
pub fn server_with(limits: Limits) -> SocketAddr {
    Server::bind(&home(), &LoadOptions::default(), "127.0.0.1", 0, limits)
        .and_then(Server::spawn)
        .expect("the server starts")
}

/// One HTTP request; the status and the body.
pub fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let body = body.unwrap_or("");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("a response");
    let (head, rest) = raw.split_once("\r\n\r\n").expect("headers end");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        unchunk(rest)
    } else {
        rest.to_string()
    };
    (status, body)
}

fn unchunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    out
}

/// A request that must succeed; its JSON.
pub fn ok(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> Value {
    let text = body.map(|b| b.to_string());
    let (status, reply) = http(addr, method, path, text.as_deref());
    assert!(
        (200..300).contains(&status),
        "{method} {path}: {status} {reply}"
    );
    serde_json::from_str(&reply).expect("JSON")
}

/// A request that must be refused with `status`; its message.
pub fn refused(addr: SocketAddr, method: &str, path: &str, body: &str, status: u16) -> String {
    let (got, reply) = http(addr, method, path, Some(body));
    assert_eq!(got, status, "{method} {path} {body}: {reply}");
    let v: Value = serde_json::from_str(&reply).expect("a JSON error");
    let message = v["error"].as_str().expect("an error message").to_string();
    assert!(!message.is_empty());
    message
}

pub fn new_game(addr: SocketAddr, seats: &[&str], seed: u64) -> Value {
    ok(
        addr,
        "POST",
        "/api/games",
        Some(json!({"variant": "tower", "seats": seats, "seed": seed})),
    )
}

/// The answer this test's players give: a floor when they can (so that
/// captures come up), else a meeple, else the first option.
pub fn pick(state: &Value) -> usize {
    let q = &state["question"];
    let options = q["options"].as_array().unwrap();
    let turn = state["turn"].as_u64().unwrap() as usize;
    let find = |kind: &str| options.iter().position(|o| o["kind"] == kind);
    match q["kind"].as_str().unwrap() {
        "placement" => (turn * 7) % options.len(),
        "action" => find("floor").or(find("meeple")).unwrap_or(0),
        _ => options.len() - 1,
    }
}

/// The key of `seat`, from the keys the game's maker got (which these
/// helpers carry on from state to state); `null` for a bot's seat.
pub fn key(state: &Value, seat: u64) -> Value {
    state["keys"]
        .as_array()
        .and_then(|keys| keys.iter().find(|k| k["seat"] == seat))
        .map_or(Value::Null, |k| k["key"].clone())
}

/// The key of the seat to play.
pub fn current_key(state: &Value) -> Value {
    key(state, state["current"].as_u64().unwrap())
}

/// The key of the first person seat (any person may step a bot's turn).
pub fn any_key(state: &Value) -> Value {
    state["keys"][0]["key"].clone()
}

/// `next`, carrying the keys `state` carries.
pub fn carry(state: &Value, mut next: Value) -> Value {
    if next["keys"].is_null() {
        next["keys"] = state["keys"].clone();
    }
    next
}

/// A body answering the question `state` waits for (with the deciding
/// seat's key) with `option`, as `decision`.
pub fn choice(state: &Value, decision: &str, option: usize) -> String {
    json!({"decision": decision, "token": state["token"], "option": option, "key": current_key(state)})
        .to_string()
}

pub fn answer(addr: SocketAddr, state: &Value, option: usize) -> Value {
    let id = state["id"].as_str().unwrap();
    let body = json!({"decision": state["question"]["kind"], "token": state["token"],
                      "option": option, "key": current_key(state)});
    carry(
        state,
        ok(addr, "POST", &format!("/api/games/{id}/choose"), Some(body)),
    )
}

/// Play on (bots' turns too) until `stop` says so or the game is over.
pub fn play_until(addr: SocketAddr, mut state: Value, stop: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..2000 {
        if state["status"] == "over" || stop(&state) {
            return state;
        }
        let id = state["id"].as_str().unwrap().to_string();
        state = if state["status"] == "bot" {
            let body = json!({"token": state["token"], "key": any_key(&state)});
            let next = ok(
                addr,
                "POST",
                &format!("/api/games/{id}/advance"),
                Some(body),
            );
            carry(&state, next)
        } else {
            let option = pick(&state);
            answer(addr, &state, option)
        };
    }
    panic!("the game did not end");
}

pub fn get_state(addr: SocketAddr, id: &str) -> Value {
    ok(addr, "GET", &format!("/api/games/{id}"), None)
}

/// `body` sent to `path` of the game is refused with `status`, and the game
/// is as it was.
pub fn refused_unchanged(
    addr: SocketAddr,
    state: &Value,
    path: &str,
    body: &str,
    status: u16,
) -> String {
    let id = state["id"].as_str().unwrap();
    let before = get_state(addr, id);
    let message = refused(
        addr,
        "POST",
        &format!("/api/games/{id}/{path}"),
        body,
        status,
    );
    assert_eq!(get_state(addr, id), before, "the game changed after {body}");
    message
}

/// The scores of the log's `end` record.
pub fn logged_scores(log: &str) -> Vec<u64> {
    let end: Value = log
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|r| r["event"] == "end")
        .expect("an end record");
    end["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect()
}

/// `towerlab replay` on a log written to a file accepts it.
pub fn replays(log: &str, name: &str) {
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, log).unwrap();
    let out = towerlab().arg("replay").arg(&path).output().unwrap();
    assert!(
        out.status.success(),
        "replay failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let render = towerlab()
        .args(["render", "--log"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(render.status.success(), "render failed");
}
