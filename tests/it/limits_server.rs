//! The server's resources are bounded and fair (docs/serve.md, "Limits"): an
//! ended game frees its place at once and stays readable; the bots' budgets,
//! the connections, the time a request may take to arrive and its size are
//! bounded; every refusal is JSON with a message, made by the routes or
//! before them; a hook nested as deep as the limits allow ends its game, not
//! the server.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use towerlab::rules::LoadOptions;
use towerlab::serve::{Limits, Server};

use crate::serve::{http, new_game, ok, play_until, refused, server_with};

/// Bots in both seats: a game the test plays to its end with `advance`.
fn bots_game(addr: SocketAddr, seed: u64) -> Value {
    ok(
        addr,
        "POST",
        "/api/games",
        Some(json!({"variant": "tower", "seats": ["random", "random"], "seed": seed})),
    )
}

/// The raw answer to `request` on a fresh connection (read until it closes).
fn raw(addr: SocketAddr, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    // The server may answer and close before the whole request is sent.
    let _ = stream.write_all(request);
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The status and the `error` of a raw answer, which must be JSON.
fn json_refusal(answer: &str) -> (u16, String) {
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no response head in {answer:?}"));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap();
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    let value: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    let message = value["error"].as_str().expect("an error message");
    assert!(!message.is_empty());
    (status, message.to_string())
}

#[test]
fn an_ended_game_frees_its_place_at_once_and_stays_readable() {
    let addr = server_with(Limits {
        games: 2,
        ..Limits::default()
    });
    let first = bots_game(addr, 1);
    let _second = new_game(addr, &["person", "greedy"], 2);
    let full = refused(
        addr,
        "POST",
        "/api/games",
        &json!({"variant": "tower", "seats": ["person", "greedy"]}).to_string(),
        503,
    );
    assert!(full.contains("2 games are open"), "{full}");
    let id = first["id"].as_str().unwrap().to_string();
    let over = play_until(addr, first, |_| false);
    assert_eq!(over["status"], "over");
    // The place is free: a third game starts, past the cap of two open ones.
    let third = new_game(addr, &["person", "greedy"], 3);
    assert_eq!(third["status"], "placement", "{third}");
    // The ended game's state and log are still there; answers are refused.
    let state = ok(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(state["status"], "over");
    assert_eq!(state["players"], over["players"]);
    let (status, log) = http(addr, "GET", &format!("/api/games/{id}/log"), None);
    assert_eq!(status, 200);
    assert_eq!(
        crate::serve::logged_scores(&log),
        over["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["score"].as_u64().unwrap())
            .collect::<Vec<_>>()
    );
    let body = json!({"token": over["token"], "key": crate::serve::any_key(&over)}).to_string();
    let why = refused(
        addr,
        "POST",
        &format!("/api/games/{id}/advance"),
        &body,
        409,
    );
    assert!(why.contains("ended"), "{why}");
}

#[test]
fn an_ended_game_is_forgotten_after_its_time() {
    let addr = server_with(Limits {
        ended: Duration::from_millis(300),
        ..Limits::default()
    });
    let game = bots_game(addr, 4);
    let id = game["id"].as_str().unwrap().to_string();
    play_until(addr, game, |_| false);
    assert_eq!(
        ok(addr, "GET", &format!("/api/games/{id}"), None)["status"],
        "over"
    );
    std::thread::sleep(Duration::from_millis(800));
    refused(addr, "GET", &format!("/api/games/{id}"), "", 404);
}

#[test]
fn a_budget_above_the_servers_maximum_is_refused() {
    let addr = server_with(Limits {
        budget: 300,
        ..Limits::default()
    });
    for packs in [json!(["tower"]), json!(["native:tower"])] {
        for seat in ["mcts:4294967295", "mcts:301"] {
            let body = json!({"packs": packs, "seats": ["person", seat]}).to_string();
            let why = refused(addr, "POST", "/api/games", &body, 400);
            assert!(why.contains("--max-budget") && why.contains("300"), "{why}");
        }
    }
    let catalog = ok(addr, "GET", "/api/catalog", None);
    assert_eq!(catalog["max_budget"], 300);
    let state = new_game(addr, &["person", "mcts:300"], 1);
    assert_eq!(state["seats"], json!(["person", "mcts"]));
}

#[test]
fn a_half_sent_request_is_closed_within_the_read_time() {
    let read = Duration::from_millis(500);
    let addr = server_with(Limits {
        read,
        ..Limits::default()
    });
    // A head that never ends: closed, with nothing read as a request.
    let started = Instant::now();
    let answer = raw(addr, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Le");
    assert!(
        started.elapsed() < read + Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(!answer.contains("201"), "{answer}");
    // A body that stops short: 408 in JSON.
    let started = Instant::now();
    let answer = raw(
        addr,
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"variant\"",
    );
    assert!(
        started.elapsed() < read + Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let (status, message) = json_refusal(&answer);
    assert_eq!(status, 408, "{message}");
    // A connection that idles after an answer is closed too.
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(stream, "GET /api/catalog HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let started = Instant::now();
    let mut out = Vec::new();
    stream
        .read_to_end(&mut out)
        .expect("closed by the server, not timed out");
    assert!(started.elapsed() < read + Duration::from_secs(5));
    assert!(String::from_utf8_lossy(&out).starts_with("HTTP/1.1 200"));
}

/// A request for the catalog that asks the server to close after it.
const CATALOG: &[u8] = b"GET /api/catalog HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

#[test]
fn idle_and_half_sent_connections_make_way_for_another_client_s_request() {
    let addr = server_with(Limits {
        connections: 8,
        read: Duration::from_secs(20),
        ..Limits::default()
    });
    // Twice: sockets opened again after the first ones made way.
    for round in 0..2 {
        let mut hung: Vec<TcpStream> = (0..100)
            .map(|_| TcpStream::connect(addr).unwrap())
            .collect();
        hung.extend((0..20).map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            let _ = s.write_all(b"GET /api/catalog HTTP/1.1\r\nHo");
            s
        }));
        // Idle for more than the second a connection waits before it makes
        // way.
        std::thread::sleep(Duration::from_millis(1300));
        // Answered at once, long before any of them times out.
        let started = Instant::now();
        let answer = raw(addr, CATALOG);
        assert!(
            answer.starts_with("HTTP/1.1 200"),
            "round {round}: {answer}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        drop(hung);
    }
}

#[test]
fn only_requests_in_progress_fill_the_server() {
    let read = Duration::from_millis(1500);
    let addr = server_with(Limits {
        connections: 4,
        read,
        ..Limits::default()
    });
    // Four requests whose bodies never end: each in progress until its
    // body's time is up.
    let working: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            let _ = s.write_all(
                b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"variant\"",
            );
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // A 503 in JSON at once, not a wait.
    let started = Instant::now();
    let (status, message) = json_refusal(&raw(addr, CATALOG));
    assert_eq!(status, 503, "{message}");
    assert!(
        message.contains("connections with a request in progress"),
        "{message}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    // Once their bodies time out (408), the server answers again.
    std::thread::sleep(read + Duration::from_millis(1000));
    ok(addr, "GET", "/api/catalog", None);
    drop(working);
}

#[test]
fn a_new_game_past_the_games_limit_is_refused_before_its_rules_are_loaded() {
    let addr = server_with(Limits {
        games: 1,
        ..Limits::default()
    });
    let _open = new_game(addr, &["person", "greedy"], 1);
    // Each with parameters of its own, and with packs no game has loaded:
    // refused by the games' limit, fast, whatever they name.
    let started = Instant::now();
    for cost in 0..200 {
        let body = json!({"packs": ["black-tower"], "seats": ["random", "random"],
                          "params": {"tower": {"ransom_cost": cost}}});
        let m = refused(addr, "POST", "/api/games", &body.to_string(), 503);
        assert!(m.contains("games are open"), "{m}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_client_that_takes_no_answer_is_closed() {
    let addr = server_with(Limits {
        read: Duration::from_millis(500),
        ..Limits::default()
    });
    let state = new_game(addr, &["person", "greedy"], 1);
    let id = state["id"].as_str().unwrap();
    // Ask for the state (about 20 KB) 2,000 times without reading.
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let one = format!("GET /api/games/{id} HTTP/1.1\r\nHost: x\r\n\r\n");
    let _ = stream.write_all(one.repeat(2000).as_bytes());
    std::thread::sleep(Duration::from_secs(3));
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    let answered = String::from_utf8_lossy(&out)
        .matches("HTTP/1.1 200")
        .count();
    assert!(
        answered < 2000,
        "{answered} answers to a client that did not read"
    );
    ok(addr, "GET", "/api/catalog", None);
}

#[test]
fn a_burst_of_connections_from_one_address_is_answered_every_one() {
    let addr = server_with(Limits {
        connections: 8,
        per_address: 4,
        ..Limits::default()
    });
    // Connections opened together, each sending its request at once: none
    // makes way for another while its request is on its way, and each one
    // refused reads a 503, never a connection closed unanswered.
    let answers: Vec<String> = std::thread::scope(|scope| {
        let asked: Vec<_> = (0..40)
            .map(|_| scope.spawn(move || raw(addr, CATALOG)))
            .collect();
        asked.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut served = 0;
    for answer in &answers {
        if answer.starts_with("HTTP/1.1 200") {
            served += 1;
        } else {
            let (status, message) = json_refusal(answer);
            assert_eq!(status, 503, "{message}");
        }
    }
    assert!(served > 0, "{answers:?}");
}

#[test]
fn a_body_of_megabytes_gets_its_413() {
    let addr = server_with(Limits::default());
    let big = format!("{{\"variant\": \"{}\"}}", "x".repeat(3 << 20));
    let request = format!(
        "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{big}",
        big.len()
    );
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    // The whole body goes out, at a client's pace: the server reads on
    // past its limit rather than close while it is still coming.
    for chunk in request.as_bytes().chunks(64 << 10) {
        stream
            .write_all(chunk)
            .expect("the body is read, not refused with a reset");
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut out = Vec::new();
    stream.read_to_end(&mut out).expect("the answer is read");
    let (status, message) = json_refusal(&String::from_utf8_lossy(&out));
    assert_eq!(status, 413, "{message}");
    assert!(message.contains("larger than"), "{message}");
}

#[test]
fn refusals_before_the_routes_are_json() {
    let addr = server_with(Limits::default());
    // A body over the limit (64 KB).
    let big = format!("{{\"variant\": \"{}\"}}", "x".repeat(100 << 10));
    let (status, reply) = http(addr, "POST", "/api/games", Some(&big));
    assert_eq!(status, 413, "{reply}");
    let v: Value = serde_json::from_str(&reply).expect("JSON");
    assert!(v["error"].as_str().unwrap().contains("larger than"));
    // A wrong method on a route that exists.
    for (method, path) in [
        ("GET", "/api/games"),
        ("DELETE", "/api/catalog"),
        ("PUT", "/"),
    ] {
        let (status, reply) = http(addr, method, path, None);
        assert_eq!(status, 405, "{method} {path}: {reply}");
        let v: Value = serde_json::from_str(&reply).expect("JSON");
        assert!(v["error"].as_str().unwrap().contains(method), "{reply}");
    }
    // Targets too long: over the server's limit (4 KB), and over what the
    // HTTP reader itself takes (64 KB).
    for length in [5 << 10, 70 << 10, 300 << 10] {
        let path = format!("/api/games/{}", "a".repeat(length));
        let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let (status, message) = json_refusal(&raw(addr, request.as_bytes()));
        assert!(
            status == 414 || status == 431,
            "{length}: {status} {message}"
        );
    }
    // Headers too large, and a request that is not HTTP.
    let request = format!(
        "GET /api/catalog HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "b".repeat(1 << 20)
    );
    let (status, _) = json_refusal(&raw(addr, request.as_bytes()));
    assert_eq!(status, 431);
    let (status, _) = json_refusal(&raw(addr, b"HELLO THERE\r\n\r\n"));
    assert_eq!(status, 400);
    // And the server still serves.
    ok(addr, "GET", "/api/catalog", None);
}

/// The routes read a body as JSON whatever its content type says (or
/// without one), and refuse a game id that is not UTF-8 in JSON.
#[test]
fn bodies_are_json_whatever_their_type_and_every_route_refusal_is_json() {
    let addr = server_with(Limits::default());
    let body = r#"{"variant":"tower","seats":["person","greedy"],"seed":2}"#;
    for content_type in ["", "Content-Type: text/plain\r\n"] {
        let request = format!(
            "POST /api/games HTTP/1.1\r\nHost: x\r\n{content_type}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let answer = raw(addr, request.as_bytes());
        assert!(answer.starts_with("HTTP/1.1 201"), "{answer:.200}");
    }
    let request = "GET /api/games/%FF HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    let (status, message) = json_refusal(&raw(addr, request.as_bytes()));
    assert_eq!(status, 400, "{message}");
    assert!(message.contains("UTF-8"), "{message}");
}

/// A pack whose `reach` recurses as deep as the limits allow, each call
/// deep in expressions, and asks for its own answer at the bottom: on a
/// thread of 1 MB of stack it overflows.
const DEEP: &str = "fn f(t, n) {\n    if n == 0 { capture_reach(t) } else { 1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (1 + (f(t, n - 1)))))))))))))))))))))))))) }\n}\nfn reach(tower) {\n    f(tower, 40)\n}\n";

#[test]
fn a_deeply_nested_hook_ends_its_game_not_the_server() {
    let home = crate::common::temp_dir("deep-serve");
    crate::common::script_pack(&home.path().join("rules"), "deep", DEEP);
    let addr = Server::bind(
        &towerlab::rules::Home::at(home.path()),
        &LoadOptions::default(),
        "127.0.0.1",
        0,
        Limits::default(),
    )
    .and_then(Server::spawn)
    .expect("the server starts");
    let body = json!({"packs": ["tower", "deep"], "seats": ["greedy", "greedy"], "seed": 3});
    let (status, reply) = http(addr, "POST", "/api/games", Some(&body.to_string()));
    let mut state: Value = serde_json::from_str(&reply).expect("JSON");
    if status == 201 {
        let id = state["id"].as_str().unwrap().to_string();
        for _ in 0..200 {
            if state["status"] != "bot" {
                break;
            }
            let body = json!({"token": state["token"]}).to_string();
            let (status, reply) = http(
                addr,
                "POST",
                &format!("/api/games/{id}/advance"),
                Some(&body),
            );
            let value: Value = serde_json::from_str(&reply).expect("JSON");
            if status == 500 {
                assert!(value["error"].as_str().unwrap().contains("deep"), "{reply}");
                state = ok(addr, "GET", &format!("/api/games/{id}"), None);
                break;
            }
            state = value;
        }
        assert_eq!(state["status"], "failed", "{state}");
        let error = state["error"].as_str().unwrap();
        assert!(
            error.contains("nested calls") || error.contains("deep"),
            "{error}"
        );
    } else {
        assert_eq!(status, 400, "{reply}");
    }
    // The server lives on.
    ok(addr, "GET", "/api/catalog", None);
    new_game(addr, &["person", "greedy"], 1);
}
