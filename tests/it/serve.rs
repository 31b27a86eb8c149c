//! `towerlab serve`'s HTTP API (docs/serve.md): every bad request — an
//! unknown game, malformed JSON, a stale token, an option out of range (a
//! capture among them), a ransom when none is offered, rules not in the
//! lists — gets a 4xx with a message and leaves the game as it was; idle
//! games expire; a whole game played through the API logs a game that
//! `towerlab replay` accepts, with the same final scores, each player's
//! score breakdown adding up to the score. Packs keep the order asked, their
//! requirements put first; `serve` on a port in use and `--open` without a
//! browser each say so in one line.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use serde_json::{Value, json};
use towerlab::serve::{IDLE, Limits, Server};

use crate::common::{home, towerlab};

/// A server of the repository's home on a free port.
pub fn server(idle: Duration) -> SocketAddr {
    server_with(Limits {
        idle,
        ..Limits::default()
    })
}

/// A server of the repository's home on a free port, with `limits`.
pub fn server_with(limits: Limits) -> SocketAddr {
    Server::bind(&home(), "127.0.0.1", 0, limits)
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

#[test]
fn bad_game_ids_get_404() {
    let addr = server(IDLE);
    for path in ["/api/games/nope", "/api/games/0000000000000000/log"] {
        let (status, body) = http(addr, "GET", path, None);
        assert_eq!(status, 404, "{body}");
        assert!(body.contains("no game"), "{body}");
    }
    let m = refused(
        addr,
        "POST",
        "/api/games/x/choose",
        r#"{"decision":"placement","token":0,"option":0}"#,
        404,
    );
    assert!(m.contains("no game `x`"), "{m}");
}

#[test]
fn malformed_json_and_stale_tokens_change_nothing() {
    let addr = server(IDLE);
    let state = new_game(addr, &["person", "person"], 3);
    for body in [
        "{bad",
        "[]",
        r#"{"decision":"placement","token":0}"#,
        r#"{"decision":"placement","token":-1,"option":0}"#,
        r#"{"decision":"placement","token":0,"option":0,"extra":1}"#,
        r#"{"decision":"placements","token":0,"option":0}"#,
    ] {
        let m = refused_unchanged(addr, &state, "choose", body, 400);
        assert!(m.contains("not the JSON expected"), "{m}");
    }
    let stale =
        json!({"decision": "placement", "token": 5, "option": 0, "key": current_key(&state)});
    let m = refused_unchanged(addr, &state, "choose", &stale.to_string(), 409);
    assert!(m.contains("stale"), "{m}");
    let next = answer(addr, &state, 0);
    assert_eq!(next["token"], 1);
    // The same answer again is stale now.
    let again =
        json!({"decision": "placement", "token": 0, "option": 0, "key": current_key(&state)});
    let m = refused_unchanged(addr, &next, "choose", &again.to_string(), 409);
    assert!(m.contains("token 0 was answered already"), "{m}");
    // A bot's turn when a person is to decide.
    let advance = json!({"token": 1, "key": any_key(&next)});
    let m = refused_unchanged(addr, &next, "advance", &advance.to_string(), 409);
    assert!(m.contains("no bot"), "{m}");
    let m = refused_unchanged(addr, &next, "choose", &choice(&next, "action", 9999), 422);
    assert!(m.contains("no option 9999"), "{m}");
}

#[test]
fn t5_captures_out_of_range_and_t11_ransoms_not_offered_are_refused() {
    let addr = server(IDLE);
    let mut seen_capture = false;
    for seed in 1..=6 {
        let state = new_game(addr, &["person", "person"], seed);
        let state = play_until(addr, state, |s| s["question"]["kind"] == "capture");
        if state["status"] == "over" {
            continue;
        }
        seen_capture = true;
        let options = state["question"]["options"].as_array().unwrap().len();
        let body = choice(&state, "capture", options);
        let m = refused_unchanged(addr, &state, "choose", &body, 422);
        assert!(m.contains(&format!("no option {options}")), "{m}");
        // No ransom is offered while a capture waits.
        let body = choice(&state, "ransom", 1);
        let m = refused_unchanged(addr, &state, "choose", &body, 409);
        assert!(m.contains("no ransom is offered now"), "{m}");
        break;
    }
    assert!(seen_capture, "no capture came up in six games");
}

#[test]
fn rules_and_seats_come_from_the_lists() {
    let addr = server(IDLE);
    let catalog = ok(addr, "GET", "/api/catalog", None);
    assert!(
        catalog["variants"]
            .as_array()
            .unwrap()
            .contains(&json!("tower"))
    );
    assert!(
        catalog["seats"]
            .as_array()
            .unwrap()
            .contains(&json!("greedy"))
    );
    let bad = [
        (
            r#"{"variant":"../variants/tower","seats":["person","greedy"]}"#,
            "unknown variant",
        ),
        (
            r#"{"variant":"/etc/passwd","seats":["person","greedy"]}"#,
            "unknown variant",
        ),
        (
            r#"{"packs":["rules/tower"],"seats":["person","greedy"]}"#,
            "unknown pack",
        ),
        (
            r#"{"packs":[],"seats":["person","greedy"]}"#,
            "at least one pack",
        ),
        (r#"{"variant":"tower","seats":["person"]}"#, "2 to 6 seats"),
        (
            r#"{"variant":"tower","seats":["person","wizard"]}"#,
            "unknown bot",
        ),
        (
            r#"{"variant":"tower","packs":["tower"],"seats":["person","greedy"]}"#,
            "not both",
        ),
        ("not json", "not the JSON expected"),
    ];
    for (body, says) in bad {
        let m = refused(addr, "POST", "/api/games", body, 400);
        assert!(m.contains(says), "{body}: {m}");
    }
}

/// A browser user names packs in an order; the server puts each pack's
/// requirements before it (black-tower requires tower), and keeps the
/// user's order otherwise.
#[test]
fn packs_keep_the_users_order_and_gain_their_requirements() {
    let addr = server(IDLE);
    for (asked, played) in [
        (json!(["black-tower"]), json!(["tower", "black-tower"])),
        (
            json!(["black-tower", "tower"]),
            json!(["tower", "black-tower"]),
        ),
        (
            json!(["tower", "black-tower"]),
            json!(["tower", "black-tower"]),
        ),
        (json!(["tower"]), json!(["tower"])),
    ] {
        let body = json!({"packs": asked, "seats": ["person", "greedy"], "seed": 3});
        let state = ok(addr, "POST", "/api/games", Some(body));
        let packs: Vec<Value> = state["packs"].as_array().unwrap().clone();
        let packs: Vec<Value> = packs.into_iter().filter(|p| p != "base").collect();
        assert_eq!(
            Value::from(packs),
            played,
            "{asked} plays as {}",
            state["packs"]
        );
    }
}

/// `serve` on a port another program holds: one `error:` line that
/// suggests `--port`, and exit code 1.
#[test]
fn serve_on_a_port_in_use_suggests_another() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = towerlab()
        .args(["serve", "--port", &port])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: port "), "{err}");
    assert!(err.contains("--port"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `serve --open` where no browser opens says so in one line, with the
/// address, and not the opener's own messages; the server goes on.
#[test]
fn serve_open_without_a_browser_says_so_once() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::fs::PermissionsExt;
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-browser");
    std::fs::create_dir_all(&dir).unwrap();
    let opener = dir.join("xdg-open");
    std::fs::write(
        &opener,
        "#!/bin/sh\necho 'xdg-open: no method available' >&2\necho noise\nexit 3\n",
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::join_paths(
        std::iter::once(dir.clone())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let mut child = towerlab()
        .args(["serve", "--port", "0", "--open"])
        .env("PATH", path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let first = BufReader::new(stderr).lines().next();
    let stdout = child.stdout.take().unwrap();
    let mut out = String::new();
    BufReader::new(stdout).read_line(&mut out).unwrap();
    let alive = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    let first = first.expect("a line on stderr").unwrap();
    assert!(
        first.starts_with("could not open a browser (xdg-open failed"),
        "{first}"
    );
    assert!(first.contains("http://127.0.0.1:"), "{first}");
    assert!(alive, "the server goes on");
    assert!(!out.contains("noise"), "{out}");
}

/// The new-game form offers the `mcts` bot, and it takes its turns.
#[test]
fn the_form_offers_mcts_and_it_plays_its_turns() {
    let addr = server(IDLE);
    let catalog = ok(addr, "GET", "/api/catalog", None);
    for list in ["bots", "seats"] {
        assert!(
            catalog[list].as_array().unwrap().contains(&json!("mcts")),
            "{catalog}"
        );
    }
    let state = new_game(addr, &["mcts", "person"], 5);
    assert_eq!(state["seats"], json!(["mcts", "person"]));
    let state = play_until(addr, state, |s| s["turn"].as_u64().unwrap() >= 4);
    assert_ne!(state["status"], "over");
    assert_eq!(state["turn"], 4, "the bot played its turns: {state}");
}

#[test]
fn idle_games_expire() {
    let addr = server(Duration::from_millis(200));
    let state = new_game(addr, &["person", "greedy"], 1);
    let id = state["id"].as_str().unwrap();
    assert_eq!(get_state(addr, id)["token"], 0);
    std::thread::sleep(Duration::from_millis(700));
    let (status, body) = http(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 404, "{body}");
}

/// A bot's turn stepped one decision a request (`"step": true`): each step
/// moves the token on by one and brings the events of that decision, named
/// in words (tiles as people name them, never by their code); a turn goes
/// on over several steps, the same bot to play; and the game stepped so is
/// the game played a whole turn a request.
#[test]
fn a_bots_turn_is_stepped_one_decision_at_a_time_in_words() {
    let addr = server(IDLE);
    let advance = |state: &Value, step: bool| {
        let id = state["id"].as_str().unwrap();
        let body = json!({"token": state["token"], "key": any_key(state), "step": step});
        carry(
            state,
            ok(
                addr,
                "POST",
                &format!("/api/games/{id}/advance"),
                Some(body),
            ),
        )
    };
    let events = |s: &Value| s["events"].as_array().unwrap().clone();
    let (mut stepped, mut whole) = (
        new_game(addr, &["person", "greedy"], 21),
        new_game(addr, &["person", "greedy"], 21),
    );
    let (mut steps, mut mid_turn) = (0, 0);
    while stepped["turn"].as_u64().unwrap() < 12 {
        if stepped["status"] != "bot" {
            let option = pick(&stepped);
            stepped = answer(addr, &stepped, option);
            whole = answer(addr, &whole, option);
            continue;
        }
        whole = advance(&whole, false);
        while stepped["status"] == "bot" {
            let next = advance(&stepped, true);
            steps += 1;
            assert_eq!(next["token"], stepped["token"].as_u64().unwrap() + 1);
            let fresh = &events(&next)[events(&stepped).len()..];
            // What the bot answered, in words: its events, else (a pass, a
            // decline) the option it took.
            assert_eq!(next["last"]["seat"], stepped["current"]);
            if fresh.is_empty() {
                let label = next["last"]["label"].as_str().unwrap();
                assert!(
                    ["Pass", "Pay no ransom", "Take no prisoner"].contains(&label),
                    "a step without events declines: {label}"
                );
            }
            for e in fresh {
                let text = e["text"].as_str().unwrap();
                assert!(
                    !text.contains("base/") && !text.contains("tower/"),
                    "{text}"
                );
            }
            if next["status"] == "bot" && next["current"] == stepped["current"] {
                mid_turn += 1;
            }
            stepped = next;
        }
        assert_eq!(events(&stepped), events(&whole), "stepped as played whole");
    }
    assert!(
        steps > 5 && mid_turn > 0,
        "{steps} steps, {mid_turn} mid-turn"
    );
    let placed = events(&stepped)
        .into_iter()
        .filter(|e| e["rule"] == "G1")
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect::<Vec<_>>();
    assert!(
        placed.iter().any(|t| t.contains(" places a ")),
        "tiles named in words: {placed:?}"
    );
}

/// A new game sets its packs' parameters (as `--param` does): the catalog
/// lists what each pack declares and each variant's packs; a value of the
/// right type plays (the log's start record has it), and a pack the rules
/// do not have, a name the pack does not declare or a value of another
/// type is refused with a message in words, naming no flag and no file.
#[test]
fn a_new_game_sets_pack_parameters_checked_in_words() {
    let addr = server(IDLE);
    let catalog = ok(addr, "GET", "/api/catalog", None);
    let params = catalog["params"].as_array().unwrap();
    assert!(
        params
            .iter()
            .any(|p| p["pack"] == "tower" && p["name"] == "ransom_cost" && p["default"] == 3),
        "{catalog}"
    );
    assert_eq!(
        catalog["variant_packs"]["black-tower"],
        json!(["tower", "black-tower"])
    );
    let game = |params: Value| {
        json!({"variant": "black-tower", "seats": ["random", "random"], "seed": 4, "params": params})
            .to_string()
    };
    for (params, says) in [
        (
            json!({"house/no-gaps": {"x": 1}}),
            "pack `house/no-gaps`, which these rules do not have (their packs: tower, black-tower)",
        ),
        (
            json!({"tower": {"ransom_cots": 2}}),
            "has no setting `ransom_cots` (its settings: ransom_cost)",
        ),
        (
            json!({"tower": {"ransom_cost": "two"}}),
            "`ransom_cost` of pack `tower` is a whole number (like its default, 3), not \"two\"",
        ),
        (
            json!({"black-tower": {"standard_foundations": true}}),
            "is a whole number",
        ),
    ] {
        let m = refused(addr, "POST", "/api/games", &game(params), 400);
        assert!(m.contains(says), "{m}");
        assert!(!m.contains("--") && !m.contains(".toml"), "{m}");
    }
    let made = ok(
        addr,
        "POST",
        "/api/games",
        Some(serde_json::from_str(&game(json!({"tower": {"ransom_cost": 2}}))).unwrap()),
    );
    assert_eq!(made["variant"], "black-tower");
    let end = play_until(addr, made, |_| false);
    let (_, log) = http(
        addr,
        "GET",
        &format!("/api/games/{}/log", end["id"].as_str().unwrap()),
        None,
    );
    let start: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(
        start["params"]["tower"]["ransom_cost"], 2,
        "the game plays with it: {start}"
    );
}

/// A floor's option previews what it would do, as the rules answer it: the
/// tower's height with it, the cells it would reach and the meeples it
/// could capture. Committed, a floor whose preview lists meeples asks the
/// capture question with exactly those meeples' owners (in order); one
/// whose preview lists none ends the turn. Other actions have no preview.
#[test]
fn a_floor_is_previewed_as_the_capture_question_then_asks() {
    let addr = server(IDLE);
    let mut state = new_game(addr, &["person", "person"], 3);
    let (mut with_prey, mut without) = (0, 0);
    while state["status"] != "over" && (with_prey < 2 || without < 2) {
        let q = &state["question"];
        let floor = q["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["kind"] == "floor").cloned());
        let (Some(floor), "action") = (floor, q["kind"].as_str().unwrap()) else {
            let option = pick(&state);
            state = answer(addr, &state, option);
            continue;
        };
        for o in q["options"].as_array().unwrap() {
            assert_eq!(o["preview"].is_null(), o["kind"] != "floor", "{o}");
        }
        let preview = &floor["preview"];
        let range = preview["range"].as_array().unwrap();
        assert!(
            !range.is_empty() && preview["height"].as_u64().unwrap() >= 1,
            "{preview}"
        );
        let prey: Vec<Value> = preview["captures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["owner"].clone())
            .collect();
        state = answer(addr, &state, floor["index"].as_u64().unwrap() as usize);
        if prey.is_empty() {
            without += 1;
            assert_ne!(state["question"]["kind"], "capture", "{state}");
        } else {
            with_prey += 1;
            assert_eq!(state["question"]["kind"], "capture", "{state}");
            let owners: Vec<Value> = state["question"]["options"].as_array().unwrap()[1..]
                .iter()
                .map(|o| o["owner"].clone())
                .collect();
            assert_eq!(
                owners, prey,
                "the capture question lists what the preview said"
            );
        }
    }
    assert!(
        with_prey >= 1 && without >= 1,
        "{with_prey} with prey, {without} without"
    );
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

#[test]
fn a_game_against_greedy_ends_scored_and_its_log_replays() {
    let addr = server(IDLE);
    let state = new_game(addr, &["person", "greedy"], 11);
    let end = play_until(addr, state, |_| false);
    assert_eq!(end["status"], "over");
    assert!(end["question"].is_null());
    let id = end["id"].as_str().unwrap();
    let (status, log) = http(addr, "GET", &format!("/api/games/{id}/log"), None);
    assert_eq!(status, 200);
    let shown: Vec<u64> = end["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["score"].as_u64().unwrap())
        .collect();
    assert_eq!(logged_scores(&log), shown);
    for p in end["players"].as_array().unwrap() {
        let parts = p["breakdown"].as_array().unwrap();
        let sum: i64 = parts.iter().map(|b| b["points"].as_i64().unwrap()).sum();
        assert_eq!(
            sum,
            p["score"].as_i64().unwrap(),
            "the breakdown adds up: {p}"
        );
        assert!(
            parts.iter().all(|b| b["points"] != 0),
            "no source of 0: {p}"
        );
        assert!(p["last_tile"].is_array(), "each player placed a tile: {p}");
    }
    assert!(
        end["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["rule"] == "G1")
    );
    replays(&log, "serve-api-game.jsonl");
    // Answers after the end are refused.
    let m = refused_unchanged(
        addr,
        &end,
        "choose",
        &format!(
            r#"{{"decision":"placement","token":{},"option":0}}"#,
            end["token"]
        ),
        409,
    );
    assert!(m.contains("has ended"), "{m}");
}

#[test]
fn a_session_of_bots_plays_the_game_simulate_plays() {
    use towerlab::play::bots::BotKind;
    use towerlab::play::session::{Seat, Session, Waiting};
    let set = towerlab::rules::Ruleset::from_variant(&home(), "tower").unwrap();
    let rules = set.rules();
    for seed in [3, 8] {
        let bots = [BotKind::Greedy, BotKind::Random];
        let seats: Vec<Seat> = bots.iter().map(|&b| Seat::Bot(b)).collect();
        let mut session = Session::new(&set, rules.as_ref(), &seats, seed).unwrap();
        // Whole turns and single steps alike.
        let mut n = 0;
        while let Waiting::Bot { .. } = session.waiting() {
            let token = session.token();
            n += 1;
            if n % 3 == 0 {
                session.bot_turn(token).unwrap().unwrap();
            } else {
                session.bot_step(token).unwrap().unwrap();
            }
        }
        assert!(matches!(session.waiting(), Waiting::Over));
        let other = set.rules();
        let game =
            towerlab::play::sim::play(&set.tiles, other.as_ref(), &bots, &set.worths, seed, true)
                .unwrap();
        assert_eq!(session.game().scores(), game.scores(), "seed {seed}");
        assert_eq!(session.game().events(), game.events(), "seed {seed}");
    }
}
