//! Numbers on the command line: every command's counts, seeds, ports and
//! budgets refuse a negative, a huge or a non-number with exit 2 and the
//! range they allow, before any work — never a panic, an abort or a run
//! that silently plays nothing.

use super::*;

#[test]
fn a_count_of_games_past_what_a_run_can_hold_is_refused_with_the_range() {
    for command in [
        "arena random greedy",
        "simulate",
        "compare tower black-tower",
        "sweep --param tower.ransom_cost=1..3",
        "compare tower black-tower --precision captures=1 --max-games",
    ] {
        for games in [
            "18446744073709551615",
            "10000000000",
            "1000001",
            "-1",
            "0",
            "many",
        ] {
            let line = if command.ends_with("--max-games") {
                format!("{command} {games}")
            } else {
                format!("{command} --games {games}")
            };
            let err = refused(&common::words(&line));
            says(&err, "give a whole number from 1 to 1000000");
        }
    }
    let err = refused(&["tune", "tower", "--games", "100001"]);
    says(&err, "give a whole number from 1 to 100000");
}

#[test]
fn negative_seeds_threads_widths_and_ports_say_the_range_in_every_command() {
    let cases = [
        ("arena random greedy --seed -1", "at least 0"),
        ("arena random greedy --threads -1", "from 1 to 256"),
        ("arena random greedy --players -3", "from 2 to 8"),
        (
            "sweep --param tower.ransom_cost=1..3 --seed -1",
            "at least 0",
        ),
        (
            "sweep --param tower.ransom_cost=1..3 --threads 0",
            "from 1 to 256",
        ),
        ("compare tower black-tower --width -1", "from 40 to 65535"),
        ("merge a.json --width 12", "from 40 to 65535"),
        ("tune tower --games -1", "from 1 to 100000"),
        ("tune tower --check-games -5", "from 0 to 100000"),
        ("serve --port -1", "from 0 to 65535"),
        ("serve --port 70000", "from 0 to 65535"),
        ("serve --max-games 0", "from 1 to 4096"),
        ("serve --max-budget -2", "from 1 to"),
        ("serve --max-connections 70000", "from 1 to 65536"),
    ];
    for (line, range) in cases {
        let err = refused(&common::words(line));
        says(&err, range);
    }
}

#[test]
fn a_server_address_that_is_no_ip_address_and_a_hint_past_the_budget_are_bad_input() {
    for host in ["999.1.1.1", "", "not a host"] {
        let err = refused(&["serve", "--host", host, "--port", "0"]);
        says(&err, "not an IP address");
    }
    let err = refused(&[
        "serve",
        "--port",
        "0",
        "--max-budget",
        "100",
        "--hint-budget",
        "1000",
    ]);
    says(&err, "--hint-budget 1000 is above --max-budget 100");
}

/// Parameter values from the command line: a float that is not finite, a
/// range too fine to list, a range of a boolean, and float steps named as
/// people write them (0.3, not 0.30000000000000004).
#[test]
fn parameter_values_on_the_command_line_are_finite_few_enough_and_named_plainly() {
    let tmp = Scratch::new("param-values");
    let manifest = "[pack]\nname = \"q\"\nrequires = [\"tower\"]\n\n\
                    [param.ratio]\ndefault = 0.5\n\n[param.flag]\ndefault = true\n";
    let pack = tmp.pack("q", manifest, &[]);
    let packs = format!("tower,{pack}");
    let cases = [
        (
            "play",
            "q.ratio=NaN",
            "is set to nan: a float parameter takes a finite number",
        ),
        (
            "play",
            "q.ratio=-inf",
            "is set to -inf: a float parameter takes a finite number",
        ),
        ("play", "q.ratio", "expected PACK.NAME=V"),
        (
            "sweep",
            "q.ratio=0..1:1e-300",
            "more than 200 values; take a larger step",
        ),
        (
            "sweep",
            "q.flag=0..1",
            "the parameter is a boolean; a range A..B is for numbers",
        ),
        (
            "sweep",
            "q.ratio=x",
            "is a number (like its default, 0.5), not `x`",
        ),
        ("sweep", "q.ratio=0..1:nan", "`nan` is not a finite number"),
    ];
    for (command, param, why) in cases {
        let err = refused(
            &[command, "--packs", &packs, "--param", param, "--games", "1"]
                [..if command == "play" { 5 } else { 7 }],
        );
        says(&err, why);
    }
    let out = run(&[
        "sweep",
        "--packs",
        &packs,
        "--param",
        "q.ratio=0.1..0.3:0.1",
        "--games",
        "1",
        "--threads",
        "1",
        "--format",
        "csv",
    ]);
    let text = crate::common::stdout(&out);
    assert!(text.contains(",0.3,"), "{text}");
    assert!(!text.contains("0.30000000000000004"), "{text}");
}
