//! `towerlab check`: a good pack accepted, every problem of a broken pack
//! listed, a pack that does not load reported.

use super::*;

#[test]
fn check_accepts_a_good_pack() {
    let tmp = Scratch::new("check-good");
    let pack = tmp.pack(
        "knight",
        "[pack]\nname = \"knight\"\nrequires = [\"tower\"]\nscript = \"script.rhai\"\n",
        &[("script.rhai", 
            "// Adds a knight's move to every tower's range.\nfn range(tower, reach) {\n    previous(tower, reach) + [[1, 2]]\n}\n",
        )],
    );
    for target in ["tower", pack.as_str()] {
        let out = run(&["check", target, "--games", "3"]);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "check {target}: {stdout}\n{}",
            text(&out.stderr)
        );
        says(&stdout, "ok: ");
        says(&stdout, "3 random games played");
        assert!(!stdout.contains("problem:"), "{stdout}");
    }
}

#[test]
fn check_lists_every_problem_of_a_broken_pack() {
    let tmp = Scratch::new("check-broken");
    let pack = tmp.pack(
        "broken",
        "[pack]\nname = \"broken\"\nrequires = [\"tower\"]\nscript = \"script.rhai\"\n\n[[floor]]\nname = \"red\"\n\n[[floor]]\nname = \"blue\"\n",
        &[("script.rhai", concat!(
            "// Broken three ways.\n",
            "fn setup(players, foundations) {\n",
            "    throw \"no floors today\";\n",
            "}\n",
            "\n",
            "fn may_place_floor(tower, kind) {\n",
            "    if kind == \"red\" {\n",
            "        return 1;\n",
            "    }\n",
            "    previous(tower, kind)\n",
            "}\n",
            "\n",
            "fn range(tower, reach) {\n",
            "    if tower.top == \"blue\" {\n",
            "        return \"north\";\n",
            "    }\n",
            "    previous(tower, reach)\n",
            "}\n",
        ))],
    );
    let out = run(&["check", &pack, "--games", "3"]);
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    let script = tmp.path().join("broken/script.rhai");
    let problems: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("problem: "))
        .collect();
    assert_eq!(problems.len(), 3, "{stdout}");
    // The setup error, once (not once per player count), with its line.
    assert!(
        problems[0].contains("setup")
            && problems[0].contains(&at(&script, 3, 5))
            && problems[0].contains("no floors today"),
        "{stdout}"
    );
    assert!(
        problems.iter().any(|p| p.contains("floor kind `red`")
            && p.contains("hook `may_place_floor`")
            && p.contains("`1`")),
        "{stdout}"
    );
    assert!(
        problems.iter().any(|p| p.contains("floor kind `blue`")
            && p.contains("hook `range`")
            && p.contains("`north`")),
        "{stdout}"
    );
    says(&stderr, &format!("3 problem(s) found in `{pack}`"));
    assert!(!stdout.contains("ok: "), "{stdout}");
}

#[test]
fn check_reports_a_pack_that_does_not_load() {
    let tmp = Scratch::new("check-load");
    let pack = tmp.pack(
        "p",
        &scripted("p"),
        &[("script.rhai", "fn range(tower, reach) {\n    [\n}\n")],
    );
    let out = run(&["check", &pack, "--games", "3"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    let problem = stdout
        .lines()
        .find(|l| l.starts_with("problem: "))
        .unwrap_or_else(|| panic!("no problem listed:\n{stdout}"));
    says(
        problem,
        &format!("{}:3:", tmp.path().join("p/script.rhai").display()),
    );
}
