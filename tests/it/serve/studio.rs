//! The studio's API (docs/serve.md, "The studio"): packs sent with each
//! request are checked with their problems at their lines, answer on a
//! board, run their scenarios and start games; what the studio refuses it
//! refuses in JSON, and a pack sent never reads a file of the server's.

use serde_json::{Value, json};

use towerlab::serve::IDLE;

use super::{http, ok, refused, server};

const MANIFEST: &str =
    "[pack]\nname = \"my-rule\"\nrequires = [\"tower\"]\nscript = \"my-rule.rhai\"\n";

fn pack(files: &[(&str, &str)]) -> Value {
    let files: serde_json::Map<String, Value> = files
        .iter()
        .map(|(n, t)| (n.to_string(), json!(t)))
        .collect();
    json!([{"pack": "my-rule", "files": files}])
}

#[test]
fn a_misspelt_hook_is_marked_at_its_line_with_the_name_meant_and_gone_once_fixed() {
    let addr = server(IDLE);
    let script = "// a comment\nfn may_captur(tower, meeple, board) {\n    true\n}\n";
    let report = ok(
        addr,
        "POST",
        "/api/studio/check",
        Some(
            json!({"pack_files": pack(&[("pack.toml", MANIFEST), ("my-rule.rhai", script)]), "pack": "my-rule"}),
        ),
    );
    let problems = report["problems"].as_array().unwrap();
    let marked = problems
        .iter()
        .find(|p| {
            p["message"]
                .as_str()
                .unwrap()
                .contains("did you mean `may_capture`")
        })
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(marked["file"], "my-rule/my-rule.rhai");
    assert_eq!(marked["line"], 2);
    let fixed = script.replace("may_captur(", "may_capture(");
    let report = ok(
        addr,
        "POST",
        "/api/studio/check",
        Some(
            json!({"pack_files": pack(&[("pack.toml", MANIFEST), ("my-rule.rhai", &fixed)]), "pack": "my-rule", "games": 3}),
        ),
    );
    assert_eq!(report["problems"], json!([]), "{report}");
    assert!(
        report["summary"]
            .as_str()
            .unwrap()
            .contains("3 random games"),
        "{report}"
    );
}

#[test]
fn a_check_with_test_games_says_what_the_costliest_hook_costs() {
    let addr = server(IDLE);
    // A ransom that loops over every score: the costliest of its hooks.
    let script = "fn ransom(score, paid) { let n = 0; for s in game().scores { n += s; } 0 }\n";
    let files = pack(&[("pack.toml", MANIFEST), ("my-rule.rhai", script)]);
    let report = ok(
        addr,
        "POST",
        "/api/studio/check",
        Some(json!({"pack_files": files, "pack": "my-rule", "games": 3})),
    );
    assert_eq!(report["problems"], json!([]), "{report}");
    let cost = report["cost"]
        .as_str()
        .unwrap_or_else(|| panic!("{report}"));
    assert!(
        cost.starts_with("costliest hook with random bots: pack `")
            && cost.contains("`native:tower` game"),
        "{cost}"
    );
    // As the page types, no test games: no games for the cost either.
    let typing = ok(
        addr,
        "POST",
        "/api/studio/check",
        Some(json!({"pack_files": files, "pack": "my-rule", "games": 0})),
    );
    assert!(typing.get("cost").is_none(), "{typing}");
}

#[test]
fn the_board_is_answered_by_the_pack_sent() {
    let addr = server(IDLE);
    let board = "[[scenario]]\nname = \"b\"\ntiles = [{ tile = \"tower/F\", at = [0, 0] }, { tile = \"base/L\", at = [1, 0] }, { tile = \"base/L\", at = [0, 1] }]\ntowers = [{ at = [0, 0], floors = [\"regular\"] }]\nmeeples = [{ owner = 1, at = [1, 0], on = \"cloister\" }, { owner = 1, at = [0, 1], on = \"cloister\" }]\n";
    let plain = ok(
        addr,
        "POST",
        "/api/studio/ask",
        Some(json!({"pack_files": [], "pack": "tower", "scenario": board})),
    );
    let tower = &plain["towers"][0];
    assert_eq!(tower["range"].as_array().unwrap().len(), 5, "{plain}");
    assert_eq!(tower["captures"], json!([[1, 0], [0, 1]]), "{plain}");
    assert_eq!(plain["ransoms"][0]["cost"], 3);
    // The position settled as a scenario's is: a bare tower may be topped.
    assert_eq!(tower["top"], json!([0, 1]), "{plain}");
    // Monks spared, and the ransom free: the pack's own answers.
    let script = "fn may_capture(tower, meeple, board) { meeple.on != \"cloister\" }\nfn ransom(score, paid) { 0 }\n";
    let mine = ok(
        addr,
        "POST",
        "/api/studio/ask",
        Some(
            json!({"pack_files": pack(&[("pack.toml", MANIFEST), ("my-rule.rhai", script)]), "pack": "my-rule", "scenario": board}),
        ),
    );
    assert_eq!(mine["towers"][0]["captures"], json!([]), "{mine}");
    assert_eq!(mine["ransoms"][0]["cost"], 0, "{mine}");
    let message = refused(
        addr,
        "POST",
        "/api/studio/ask",
        &json!({"pack_files": [], "pack": "tower", "scenario": "[[scenario]]\nname = \"b\"\ntiles = [{ tile = \"tower/Q\", at = [0, 0] }]\n"}).to_string(),
        400,
    );
    assert!(message.contains("board.toml:3:"), "{message}");
    // A hook that fails while answering is the rules' failure: 422, its
    // pack, hook and line said.
    for (script, says) in [
        ("fn reach(tower) {\n    throw \"no\";\n}\n", "no"),
        ("fn reach(tower) {\n    loop { }\n}\n", "operations"),
        (
            "fn f(n) { f(n + 1) }\nfn reach(tower) {\n    f(0)\n}\n",
            "nested",
        ),
        ("fn reach(tower) {\n    \"far\"\n}\n", "expected an integer"),
    ] {
        let body = json!({"pack_files": pack(&[("pack.toml", MANIFEST), ("my-rule.rhai", script)]), "pack": "my-rule", "scenario": board});
        let message = refused(addr, "POST", "/api/studio/ask", &body.to_string(), 422);
        assert!(message.contains("hook `reach`"), "{message}");
        assert!(message.contains(says), "{script}: {message}");
    }
}

#[test]
fn a_failing_scenario_shows_expected_and_got_and_passes_once_fixed() {
    let addr = server(IDLE);
    let scenario = |cells: &str| {
        format!(
            "[[scenario]]\nname = \"one floor\"\ntiles = [{{ tile = \"tower/F\", at = [0, 0] }}]\ntowers = [{{ at = [0, 0], floors = [\"regular\"] }}]\n[scenario.expect]\nrange = [{{ tower = [0, 0], cells = {cells} }}]\n"
        )
    };
    let run = |text: &str| {
        ok(
            addr,
            "POST",
            "/api/studio/test",
            Some(
                json!({"pack_files": pack(&[("pack.toml", MANIFEST), ("my-rule.rhai", ""), ("tests/range.toml", text)]), "pack": "my-rule"}),
            ),
        )
    };
    let failed = run(&scenario("[[0, 0]]"));
    assert_eq!(
        (failed["passed"].as_u64(), failed["total"].as_u64()),
        (Some(0), Some(1))
    );
    let failure = &failed["files"][0]["scenarios"][0]["failures"][0];
    assert_eq!(failure["at"], "my-rule/tests/range.toml:6:36", "{failed}");
    assert_eq!(failure["got"], "\n.X.\nXTX\n.X.", "{failed}");
    let passed = run(&scenario("[[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]]"));
    assert_eq!(passed["passed"], 1, "{passed}");
}

/// What each kind of failure means and what to do, in plain words beside
/// the failure: an expectation the rules no longer meet (the template's,
/// said so), a key of the scenario file, a hook's error in the script.
#[test]
fn a_failing_scenario_says_what_failed_and_what_to_do() {
    let addr = server(IDLE);
    let starts = ok(addr, "GET", "/api/studio/starts", None);
    let template = starts["starts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["pack"] == "capture-rule")
        .unwrap();
    let capture = template["files"]["tests/capture.toml"].as_str().unwrap();
    let road = "fn may_capture(tower, meeple, board) {\n    meeple.on != \"road\" && previous(tower, meeple, board)\n}\n";
    let run = |script: &str, scenario: &str| {
        let files = pack(&[
            ("pack.toml", MANIFEST),
            ("my-rule.rhai", script),
            ("tests/capture.toml", scenario),
        ]);
        let got = ok(
            addr,
            "POST",
            "/api/studio/test",
            Some(json!({"pack_files": files, "pack": "my-rule"})),
        );
        got["files"][0].clone()
    };
    let advice = |file: &Value| file["scenarios"][0]["advice"].as_str().unwrap().to_string();
    // The template's scenario, under the rule changed: its expectation,
    // written for the template's rule, named with its line.
    let unmet = advice(&run(road, capture));
    for says in [
        "“got” what the rules answer now",
        "`capturable` (line 16)",
        "This file came with “Spare the monks”",
        "Save as a scenario",
    ] {
        assert!(unmet.contains(says), "{says}: {unmet}");
    }
    // The same expectation in a file of one's own: no template named.
    let own = capture.replace("a monk in range is spared", "my monk");
    let unmet = advice(&run(road, &own));
    assert!(
        unmet.contains("`capturable` (line 16)") && !unmet.contains("came with"),
        "{unmet}"
    );
    // A key of the position that cannot be: the key to change, named.
    let bad_tile = capture.replace("base/L", "base/Q");
    let file = run(road, &bad_tile);
    assert!(file["scenarios"][0]["error"].is_object(), "{file}");
    let setup = advice(&file);
    for says in ["cannot be set up", "`tile` (line 11)", "Scenario files"] {
        assert!(setup.contains(says), "{says}: {setup}");
    }
    // A file that is no scenario file: the key named at the file.
    let misspelt = capture.replace("meeples = [{", "meples = [{");
    let file = run(road, &misspelt);
    let whole = file["advice"].as_str().unwrap_or_else(|| panic!("{file}"));
    assert!(whole.contains("`meples` (line 14)"), "{whole}");
    // A hook that fails: the script is at fault, at its line.
    let throws = "fn may_capture(tower, meeple, board) {\n    throw \"oops\";\n}\n";
    let file = run(throws, capture);
    let hook = advice(&file);
    for says in [
        "A hook of the rules failed",
        "`my-rule/my-rule.rhai`, line 2",
        "not at fault",
    ] {
        assert!(hook.contains(says), "{says}: {hook} {file}");
    }
    // Under the template's own rule it passes, with no advice.
    let monks = road.replace("\"road\"", "\"cloister\"");
    let passes = run(&monks, capture);
    assert_eq!(passes["scenarios"][0]["passed"], true, "{passes}");
    assert!(passes["scenarios"][0].get("advice").is_none(), "{passes}");
}

#[test]
fn every_template_checks_clean_and_passes_its_scenarios() {
    let addr = server(IDLE);
    let starts = ok(addr, "GET", "/api/studio/starts", None);
    let templates: Vec<&Value> = starts["starts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "template")
        .collect();
    assert_eq!(templates.len(), 5);
    for t in templates {
        let sent = json!([{"pack": t["pack"], "files": t["files"]}]);
        let report = ok(
            addr,
            "POST",
            "/api/studio/check",
            Some(json!({"pack_files": sent, "pack": t["pack"], "games": 2})),
        );
        assert_eq!(report["problems"], json!([]), "{}: {report}", t["pack"]);
        let tests = ok(
            addr,
            "POST",
            "/api/studio/test",
            Some(json!({"pack_files": sent, "pack": t["pack"]})),
        );
        assert!(tests["total"].as_u64().unwrap() > 0);
        assert_eq!(tests["passed"], tests["total"], "{}: {tests}", t["pack"]);
    }
}

#[test]
fn a_game_plays_under_the_pack_sent() {
    let addr = server(IDLE);
    let script = "fn ransom(score, paid) { 0 }\n";
    let state = ok(
        addr,
        "POST",
        "/api/games",
        Some(
            json!({"packs": ["my-rule"], "seats": ["person", "greedy"], "pack_files": pack(&[("pack.toml", MANIFEST), ("my-rule.rhai", script)])}),
        ),
    );
    assert_eq!(state["packs"], json!(["tower", "my-rule"]), "{state}");
    // Packs sent go with packs, not a variant.
    refused(
        addr,
        "POST",
        "/api/games",
        &json!({"variant": "tower", "seats": ["person", "greedy"], "pack_files": pack(&[("pack.toml", MANIFEST)])}).to_string(),
        400,
    );
}

#[test]
fn names_files_and_sizes_the_studio_does_not_take_are_refused_in_json() {
    let addr = server(IDLE);
    for (name, file) in [
        ("../up", "pack.toml"),
        ("base", "pack.toml"),
        ("a/b/c", "pack.toml"),
        ("ok", "../x.toml"),
        ("ok", "/etc/x.toml"),
        ("ok", "notes.txt"),
    ] {
        let body = json!({"pack_files": [{"pack": name, "files": {file: ""}}], "pack": "ok"});
        refused(addr, "POST", "/api/studio/check", &body.to_string(), 400);
    }
    let big = "x".repeat(300 << 10);
    let body = json!({"pack_files": pack(&[("pack.toml", &big)]), "pack": "my-rule"});
    refused(addr, "POST", "/api/studio/check", &body.to_string(), 413);
    refused(addr, "POST", "/api/studio/check", "{\"pack\": 1}", 400);
    let (status, _) = http(addr, "GET", "/api/studio/check", None);
    assert_eq!(status, 405);
}

#[test]
fn a_pack_sent_reads_no_pack_of_the_servers_disk_by_its_path() {
    let addr = server(IDLE);
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret");
    std::fs::create_dir(&secret).unwrap();
    std::fs::write(secret.join("pack.toml"), "[pack]\nname = \"secret\"\n").unwrap();
    let manifest = format!(
        "[pack]\nname = \"my-rule\"\nrequires = [\"tower\", \"{}\"]\n",
        secret.display()
    );
    let report = ok(
        addr,
        "POST",
        "/api/studio/check",
        Some(json!({"pack_files": pack(&[("pack.toml", &manifest)]), "pack": "my-rule"})),
    );
    let problems = report["problems"].to_string();
    assert!(problems.contains("unknown pack"), "{report}");
    assert!(!report["notes"].to_string().contains("secret"), "{report}");
}

#[test]
fn the_reference_lists_every_hook_of_the_table() {
    let addr = server(IDLE);
    let reference = ok(addr, "GET", "/api/studio/reference", None);
    let names: Vec<&str> = reference["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    let table: Vec<&str> = towerlab::rules::script::Hook::ALL
        .iter()
        .map(|h| h.name())
        .collect();
    assert_eq!(names, table);
    let (status, page) = http(addr, "GET", "/studio", None);
    assert_eq!(status, 200);
    assert!(page.contains("/studio.js"));
    let (_, game) = http(addr, "GET", "/", None);
    assert!(
        game.contains("href=\"/studio\""),
        "the game's page links the studio"
    );
}

#[test]
fn a_comparison_runs_in_the_background_to_its_verdict_one_at_a_time_per_client() {
    let addr = server(IDLE);
    let script = "fn ransom(score, paid) { () }\n";
    let body = |games: u64| {
        json!({"pack_files": pack(&[("pack.toml", MANIFEST), ("my-rule.rhai", script)]),
               "packs": ["my-rule"], "against": "tower", "games": games, "players": 2})
        .to_string()
    };
    let (status, reply) = http(addr, "POST", "/api/studio/compare", Some(&body(500)));
    assert_eq!(status, 202, "{reply}");
    let long: Value = serde_json::from_str(&reply).unwrap();
    let id = long["id"].as_str().unwrap().to_string();
    assert_eq!(
        (long["status"].as_str(), long["total"].as_u64()),
        (Some("running"), Some(1000))
    );
    // One at a time per client: refused while the first runs.
    let message = refused(addr, "POST", "/api/studio/compare", &body(10), 409);
    assert!(message.contains(&id), "{message}");
    let cancelled = ok(
        addr,
        "POST",
        &format!("/api/studio/compare/{id}/cancel"),
        Some(json!({})),
    );
    assert_eq!(cancelled["id"], id.as_str());
    let ended = wait_for_end(addr, &id);
    assert_eq!(ended["status"], "cancelled", "{ended}");
    assert!(ended["done"].as_u64().unwrap() < 1000, "{ended}");
    // Then a short one, to its verdict and report.
    let (status, reply) = http(addr, "POST", "/api/studio/compare", Some(&body(10)));
    assert_eq!(status, 202, "{reply}");
    let short: Value = serde_json::from_str(&reply).unwrap();
    let done = wait_for_end(addr, short["id"].as_str().unwrap());
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["done"], 20);
    assert!(!done["verdict"].as_str().unwrap().is_empty(), "{done}");
    let report = done["report"].as_str().unwrap();
    assert!(
        report.contains("my-rule") && report.contains("<svg"),
        "a report with its charts"
    );
    assert!(
        report.contains("Did the rules fire?"),
        "what the rules did (--fires)"
    );
    assert!(
        !report.contains("towerlab compare") && !report.contains("--min-effect"),
        "a browser's report names no command or option"
    );
    // Out of bounds, or against no variant: refused in JSON.
    refused(addr, "POST", "/api/studio/compare", &body(5000), 400);
    let wrong =
        json!({"pack_files": [], "packs": ["tower"], "against": "towr", "games": 10, "players": 2});
    let message = refused(addr, "POST", "/api/studio/compare", &wrong.to_string(), 400);
    assert!(message.contains("did you mean `tower`"), "{message}");
    refused(addr, "GET", "/api/studio/compare/nope", "", 404);
}

/// The comparison's state once it has ended (within a few minutes).
fn wait_for_end(addr: std::net::SocketAddr, id: &str) -> Value {
    for _ in 0..1200 {
        let state = ok(addr, "GET", &format!("/api/studio/compare/{id}"), None);
        if state["status"] != "running" {
            return state;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    panic!("comparison {id} still running after 4 minutes");
}

#[test]
fn a_neutral_figure_on_the_board_is_read_by_the_rules() {
    let addr = server(IDLE);
    let manifest =
        format!("{MANIFEST}\n[figure.guard]\ndescription = \"No floor goes where it stands.\"\n");
    let script = "fn may_place_floor(tower, kind) {\n    let at = figure(\"guard\");\n    if at != () && at[0] == tower.x && at[1] == tower.y {\n        return false;\n    }\n    previous(tower, kind)\n}\n";
    let ask = |state: &str| {
        let board = format!(
            "[[scenario]]\nname = \"b\"\ntiles = [{{ tile = \"tower/F\", at = [0, 0] }}, {{ tile = \"base/L\", at = [1, 0] }}]\ntowers = [{{ at = [0, 0], floors = [\"regular\"] }}]\n{state}"
        );
        ok(
            addr,
            "POST",
            "/api/studio/ask",
            Some(
                json!({"pack_files": pack(&[("pack.toml", &manifest), ("my-rule.rhai", script)]), "pack": "my-rule", "scenario": board}),
            ),
        )
    };
    let away = ask("state = [{ name = \"guard\", at = [1, 0] }]\n");
    assert_eq!(
        away["towers"][0]["build"][0]["seats"],
        json!([0, 1]),
        "{away}"
    );
    let guarded = ask("state = [{ name = \"guard\", at = [0, 0] }]\n");
    assert_eq!(
        guarded["towers"][0]["build"][0]["seats"],
        json!([]),
        "{guarded}"
    );
}

#[test]
fn a_studio_pack_named_like_a_shipped_variant_is_the_studio_pack() {
    let addr = server(IDLE);
    let name = "tower-no-gaps";
    let manifest =
        format!("[pack]\nname = \"{name}\"\nrequires = [\"tower\"]\nscript = \"{name}.rhai\"\n");
    let files = json!([{"pack": name, "files": {
        "pack.toml": manifest,
        format!("{name}.rhai"): "fn reach(tower) {\n    1 +\n}\n",
    }}]);
    let report = ok(
        addr,
        "POST",
        "/api/studio/check",
        Some(json!({"pack_files": files, "pack": name})),
    );
    let problems = report["problems"].as_array().unwrap();
    assert!(
        problems
            .iter()
            .any(|p| p["file"] == format!("{name}/{name}.rhai")),
        "{report}"
    );
}

/// The page's own renaming (`renamed`, `paramsRenamed` of the studio's
/// script, as served) run by `node` on a start's files copied as `name`.
fn copied_by_the_page(addr: std::net::SocketAddr, start: &Value, name: &str) -> Value {
    let (status, script) = http(addr, "GET", "/studio.js", None);
    assert_eq!(status, 200);
    let function = |f: &str| {
        let from = script
            .find(&format!("function {f}("))
            .unwrap_or_else(|| panic!("no {f}"));
        let end = from + script[from..].find("\n}\n").unwrap() + 3;
        script[from..end].to_string()
    };
    let program = format!(
        "{}{}const s = {start};\nconst files = {{ ...s.files }};\n\
         files['pack.toml'] = renamed(files['pack.toml'], {name});\n\
         for (const f of Object.keys(files).filter((f) => f.startsWith('tests/'))) \
         files[f] = paramsRenamed(files[f], s.pack, {name});\n\
         process.stdout.write(JSON.stringify(files));\n",
        function("renamed"),
        function("paramsRenamed"),
        name = json!(name)
    );
    let out = std::process::Command::new("node")
        .args(["-e", &program])
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_shipped_pack_copied_under_a_new_name_passes_its_own_scenarios() {
    if std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("`node` is not on PATH: the page's renaming is not run");
        return;
    }
    let addr = server(IDLE);
    let starts = ok(addr, "GET", "/api/studio/starts", None);
    for shipped in ["tower", "black-tower"] {
        let start = starts["starts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["kind"] == "shipped" && s["pack"] == shipped)
            .unwrap();
        let name = format!("my-{shipped}");
        let files = copied_by_the_page(addr, start, &name);
        let tested = ok(
            addr,
            "POST",
            "/api/studio/test",
            Some(json!({"pack_files": [{"pack": name, "files": files}], "pack": name})),
        );
        assert!(tested["total"].as_u64().unwrap() > 0, "{tested}");
        assert_eq!(tested["passed"], tested["total"], "{name}: {tested}");
    }
}
