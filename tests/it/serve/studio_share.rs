//! The studio's workers and budgets (docs/serve.md, Limits): one address
//! sending heavy requests cannot hold every worker while another waits, and
//! a heavy request ends with its budget said, its games and scenarios all
//! counted, instead of running for as long as they take.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use towerlab::rules::LoadOptions;
use towerlab::serve::{Limits, Server};

use super::http;
use crate::common::home;

const MANIFEST: &str = "[pack]\nname = \"slow\"\nrequires = [\"tower\"]\nscript = \"slow.rhai\"\n";

/// A `may_top` legal in every call (under a call's operations and CPU
/// time), which a scenario asks of every tower and seat.
const SLOW: &str = "fn may_top(tower) {\n    let n = 0;\n    for i in 0..tower.x * 0 + 280000 { n += i; }\n    n >= 0\n}\n";

/// `count` scenarios of five towers each: each spends a game's budget.
fn scenarios(count: usize) -> String {
    (0..count)
        .map(|s| {
            let tiles: Vec<String> = (0..5)
                .map(|t| format!("{{ tile = \"tower/F\", at = [{}, 0] }}", 2 * t))
                .collect();
            let towers: Vec<String> = (0..5)
                .map(|t| format!("{{ at = [{}, 0], floors = [\"regular\"] }}", 2 * t))
                .collect();
            format!(
                "[[scenario]]\nname = \"s{s}\"\ntiles = [{}]\ntowers = [{}]\n[scenario.expect]\ntop = [{{ tower = [0, 0], seats = [0, 1] }}]\n",
                tiles.join(", "),
                towers.join(", ")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn slow_test_body(count: usize) -> String {
    json!({
        "pack_files": [{"pack": "slow", "files": {
            "pack.toml": MANIFEST, "slow.rhai": SLOW, "tests/slow.toml": scenarios(count)}}],
        "pack": "slow"
    })
    .to_string()
}

/// A server on every address of the machine (IPv6 and IPv4), so that
/// `::1` and `127.0.0.1` are two clients.
fn dual_server(limits: Limits) -> u16 {
    Server::bind(&home(), &LoadOptions::default(), "::", 0, limits)
        .and_then(Server::spawn)
        .expect("the server starts on `::`")
        .port()
}

fn at(ip: &str, port: u16) -> SocketAddr {
    SocketAddr::new(ip.parse().unwrap(), port)
}

#[test]
fn heavy_tests_from_one_address_leave_a_worker_for_another_and_end_on_their_budget() {
    let port = dual_server(Limits::default());
    let heavy = slow_test_body(60);
    let senders: Vec<_> = (0..2)
        .map(|_| {
            let body = heavy.clone();
            std::thread::spawn(move || {
                let started = Instant::now();
                let got = http(
                    at("127.0.0.1", port),
                    "POST",
                    "/api/studio/test",
                    Some(&body),
                );
                (got, started.elapsed())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    // Another address's trivial request is answered at once, not 503.
    let board = "[[scenario]]\nname = \"b\"\ntiles = [{ tile = \"tower/F\", at = [0, 0] }]\ntowers = [{ at = [0, 0], floors = [\"regular\"] }]\n";
    let ask = json!({"pack_files": [], "pack": "tower", "scenario": board}).to_string();
    let started = Instant::now();
    let (status, reply) = http(at("::1", port), "POST", "/api/studio/ask", Some(&ask));
    let waited = started.elapsed();
    assert_eq!(status, 200, "{reply}");
    assert!(
        waited < Duration::from_secs(5),
        "another address waited {waited:?} for a trivial request"
    );
    // Each heavy request ends on the request's budget, said in its
    // scenarios' errors; or, the second while the first works, waits for
    // its address's worker.
    let mut budget_said = 0;
    for sender in senders {
        let ((status, reply), took) = sender.join().unwrap();
        assert!(
            took < Duration::from_secs(60),
            "a heavy request ran {took:?}"
        );
        if status == 503 {
            assert!(reply.contains("the most one address"), "{reply}");
            continue;
        }
        assert_eq!(status, 200, "{reply}");
        let tests: Value = serde_json::from_str(&reply).unwrap();
        let errors: Vec<&str> = tests["files"][0]["scenarios"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s["error"]["message"].as_str())
            .collect();
        assert_eq!(errors.len(), 60, "{reply}");
        // The first scenarios spend their games' budgets in `may_top`; the
        // request's runs out, and the rest end at their first hook.
        assert!(errors[0].contains("hook `may_top`"), "{}", errors[0]);
        let last = errors.last().unwrap();
        assert!(
            last.contains("operations in all, every game and scenario it ran counted")
                && last.contains("pack `"),
            "{last}"
        );
        budget_said += 1;
    }
    assert!(budget_said >= 1);
}

#[test]
fn a_request_past_its_time_is_stopped_and_says_so() {
    let port = dual_server(Limits {
        studio_operations: u64::MAX,
        studio_time: Duration::from_secs(1),
        ..Limits::default()
    });
    let started = Instant::now();
    let (status, reply) = http(
        at("127.0.0.1", port),
        "POST",
        "/api/studio/test",
        Some(&slow_test_body(60)),
    );
    let took = started.elapsed();
    assert_eq!(status, 200, "{reply}");
    assert!(took < Duration::from_secs(30), "ran {took:?}");
    let tests: Value = serde_json::from_str(&reply).unwrap();
    let last = tests["files"][0]["scenarios"][59]["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("{reply}"));
    assert!(
        last.contains("ran past the 1 s the server gives one request"),
        "{last}"
    );
}
