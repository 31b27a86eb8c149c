//! The studio (`/studio`): packs written in the browser, checked, asked,
//! tested, played and compared by the server. The page keeps its packs in
//! the browser's storage and sends their files with every request, as a
//! game log carries a pack's files (`pack_files`); the server writes no
//! file. Each request's packs are held in memory over the server's home
//! folder ([`Home::holding`]), where they are found by name only, and load
//! and run as any pack does: the same sandbox, budgets and memory limit.
//!
//! `starts` are what a pack may start from (a shipped pack, an example, a
//! template per kind of rule); `reference` lists what a pack may use, from
//! the hook table and the docs; `work` answers a check, the rules' answers
//! on a board, and the pack's scenarios; `compare` runs comparisons in the
//! background, one per client.

mod advice;
pub mod compare;
mod names;
mod plain;
mod reference;
mod starts;
pub mod workers;

use std::collections::BTreeMap;

use anyhow::Result;

use super::wire::{
    ScenarioFailure, ScenarioResult, StudioProblem, StudioReport, StudioTests, TestedFile,
};
use crate::kernel::diag::{Source, bad_input};
use crate::play::cost::CostOptions;
use crate::play::scenario::{self, Answers, ScenarioFile};
use crate::rules::{Home, LoadOptions, PackFiles, Ruleset};
use names::{file_name, pack_name};
pub use reference::reference;
pub use starts::starts;

/// The most packs a request may send.
pub const MAX_PACKS: usize = 8;
/// The most files one pack may hold.
pub const MAX_FILES: usize = 32;
/// The most games a check plays (`towerlab check` plays 25).
pub const MAX_CHECK_GAMES: u64 = 25;

/// `home` holding the packs a page sent, each checked: a name of one or two
/// parts of letters, digits, `-` and `_` (`my-pack`, `house/my-rule`), each
/// sent once; files inside the pack's folder, `.toml` or `.rhai`.
pub fn holding(home: &Home, packs: &[PackFiles]) -> Result<Home> {
    if packs.len() > MAX_PACKS {
        return Err(bad_input(format!(
            "{} packs sent: the studio takes at most {MAX_PACKS}",
            packs.len()
        )));
    }
    let mut files = BTreeMap::new();
    for (i, p) in packs.iter().enumerate() {
        pack_name(&p.pack)?;
        if packs[..i].iter().any(|q| q.pack == p.pack) {
            return Err(bad_input(format!("pack `{}` is sent twice", p.pack)));
        }
        if p.files.len() > MAX_FILES {
            return Err(bad_input(format!(
                "pack `{}` has {} files: at most {MAX_FILES}",
                p.pack,
                p.files.len()
            )));
        }
        for (name, text) in &p.files {
            file_name(&p.pack, name)?;
            files.insert(format!("{}/{name}", p.pack), text.clone());
        }
    }
    Ok(home.clone().holding(files))
}

/// The most random games a check with test games plays for the line of
/// what the hooks cost (`check --cost`'s costliest hook): a few, the
/// request's allowance being shared with the test games.
pub const MAX_COST_GAMES: u64 = 8;

/// `towerlab check` of `pack` (with the packs it requires), `games` test
/// games; every problem and warning placed at its file, line and column
/// when it names one of the files sent; with test games, a line of what
/// the hooks cost.
pub fn check(
    home: &Home,
    load: &LoadOptions,
    packs: &[PackFiles],
    pack: &str,
    games: u64,
) -> Result<StudioReport> {
    let games = games.min(MAX_CHECK_GAMES);
    let cost = CostOptions {
        random_games: games.min(MAX_COST_GAMES),
        greedy_games: 0,
        ..CostOptions::default()
    };
    let cost = (games > 0).then_some(&cost);
    let report = crate::play::check::run_with_cost(home, load, pack, games, cost)?;
    let place = |text: String| placed(packs, text);
    Ok(StudioReport {
        pack: pack.to_string(),
        problems: report.problems.into_iter().map(place).collect(),
        warnings: report.warnings.into_iter().map(place).collect(),
        notes: report.notes,
        summary: report.summary,
        cost: report.cost.as_ref().map(|c| c.summary()),
    })
}

/// A message with the first place it names in one of the files sent
/// (`my-pack/my-pack.rhai:3:5`).
pub fn placed(packs: &[PackFiles], message: String) -> StudioProblem {
    let files = packs
        .iter()
        .flat_map(|p| p.files.keys().map(move |f| format!("{}/{f}", p.pack)));
    let found = files
        .filter_map(|file| {
            let (at, line, col) = place_in(&message, &file)?;
            Some((at, file, line, col))
        })
        .min_by_key(|(at, ..)| *at);
    match found {
        Some((_, file, line, col)) => StudioProblem {
            file: Some(file),
            line: Some(line),
            col: Some(col),
            message,
        },
        None => StudioProblem {
            file: None,
            line: None,
            col: None,
            message,
        },
    }
}

/// Where `text` first names `file:line:col`: the offset, line and column.
fn place_in(text: &str, file: &str) -> Option<(usize, usize, usize)> {
    let mut from = 0;
    while let Some(i) = text[from..].find(file) {
        let at = from + i;
        let rest = &text[at + file.len()..];
        let number = |s: &str| -> Option<(usize, usize)> {
            let digits = s.chars().take_while(char::is_ascii_digit).count();
            Some((s[..digits].parse().ok()?, digits))
        };
        let before_ok = at == 0 || !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '/');
        if before_ok
            && let Some(r) = rest.strip_prefix(':')
            && let Some((line, n)) = number(r)
            && let Some(c) = r[n..].strip_prefix(':')
            && let Some((col, _)) = number(c)
        {
            return Some((at, line, col));
        }
        from = at + file.len();
    }
    None
}

/// The rules `pack` (with its requirements) loads as, or why not.
fn rules_of(home: &Home, load: &LoadOptions, pack: &str) -> Result<Ruleset> {
    let loaded = crate::rules::problems::load_all(home, load, pack);
    loaded
        .set
        .ok_or_else(|| bad_input(loaded.problems.join("\n")))
}

/// A comparison's rules, loaded: the variant `against` (of the catalog's
/// `variants`) first, then `packs` (each with the packs it requires put
/// before it, by the catalog), and the games and players checked.
pub fn compare_sets(
    home: &Home,
    load: &LoadOptions,
    against: &str,
    variants: &[String],
    list: &[String],
    asked: (u64, usize),
) -> Result<compare::Asked> {
    let (games, players) = asked;
    let games = compare::games_within(games)?;
    if !(crate::kernel::MIN_PLAYERS..=crate::kernel::MAX_PLAYERS).contains(&players) {
        return Err(bad_input(format!(
            "{players} players: a game has {} to {}",
            crate::kernel::MIN_PLAYERS,
            crate::kernel::MAX_PLAYERS
        )));
    }
    if !variants.iter().any(|v| v == against) {
        return Err(bad_input(format!(
            "unknown variant `{against}` (the list: {}){}",
            variants.join(", "),
            crate::kernel::diag::did_you_mean(against, variants.iter().map(String::as_str))
        )));
    }
    let baseline = Ruleset::from_variant(home, load, against)?;
    let mine = Ruleset::from_packs(home, load, list)?;
    Ok(compare::Asked {
        sets: vec![baseline, mine],
        games,
        players,
    })
}

/// The rules' answers on a board: the position of the one scenario in
/// `scenario` (a scenario file's text), under `pack`.
pub fn ask(home: &Home, load: &LoadOptions, pack: &str, scenario: &str) -> Result<Answers> {
    let set = rules_of(home, load, pack)?;
    let file = ScenarioFile::parse(Source::new("board.toml", scenario.to_string()))?;
    scenario::answers(home, &set, &file, 0)
}

/// Every scenario of `pack` (its `tests/*.toml` among the files sent), run
/// under the pack and the packs it requires.
pub fn test(
    home: &Home,
    load: &LoadOptions,
    packs: &[PackFiles],
    pack: &str,
) -> Result<StudioTests> {
    let set = rules_of(home, load, pack)?;
    let sent = packs.iter().find(|p| p.pack == pack);
    let tests = sent.into_iter().flat_map(|p| {
        p.files
            .iter()
            .filter(|(name, _)| name.starts_with("tests/") && name.ends_with(".toml"))
            .map(move |(name, text)| (format!("{}/{name}", p.pack), text))
    });
    let mut files = Vec::new();
    for (path, text) in tests {
        files.push(test_file(home, &set, packs, path, text));
    }
    let count = |f: fn(&ScenarioResult) -> bool| {
        files
            .iter()
            .flat_map(|f: &TestedFile| &f.scenarios)
            .filter(|s| f(s))
            .count()
    };
    Ok(StudioTests {
        pack: pack.to_string(),
        passed: count(|s| s.passed),
        total: count(|_| true),
        files,
    })
}

/// One scenario file's scenarios run, or why it cannot be read.
fn test_file(
    home: &Home,
    set: &Ruleset,
    packs: &[PackFiles],
    path: String,
    text: &str,
) -> TestedFile {
    let file = match ScenarioFile::parse(Source::new(path.clone(), text.to_string())) {
        Ok(file) => file,
        Err(e) => {
            let error = placed(packs, format!("{e:#}"));
            return TestedFile {
                advice: Some(advice::stopped(&path, text, &error, None)),
                file: path,
                error: Some(error),
                scenarios: Vec::new(),
            };
        }
    };
    let scenarios = (0..file.len())
        .map(|i| {
            let (name, line) = file.scenario_name(i);
            match scenario::run(home, set, &file, i) {
                Ok(outcome) => {
                    let failures: Vec<ScenarioFailure> = outcome
                        .failures
                        .into_iter()
                        .map(|f| ScenarioFailure {
                            at: f.at,
                            what: f.what,
                            expected: f.expected,
                            got: f.got,
                        })
                        .collect();
                    ScenarioResult {
                        name,
                        line,
                        passed: failures.is_empty(),
                        checked: outcome.checked,
                        advice: (!failures.is_empty())
                            .then(|| advice::unmet(&path, text, &failures)),
                        failures,
                        error: None,
                    }
                }
                Err(e) => {
                    let message = format!("{e:#}");
                    // A hook's error says `pack `p`, hook `h`: …`, at its
                    // place in the script when the script is one sent.
                    let by_hook =
                        message.contains(", hook `") || !crate::kernel::diag::is_bad_input(&e);
                    let scripts = packs.iter().map(|p| PackFiles {
                        pack: p.pack.clone(),
                        files: p
                            .files
                            .iter()
                            .filter(|(name, _)| name.ends_with(".rhai"))
                            .map(|(name, text)| (name.clone(), text.clone()))
                            .collect(),
                    });
                    let hook =
                        by_hook.then(|| placed(&scripts.collect::<Vec<_>>(), message.clone()));
                    let error = placed(packs, message);
                    ScenarioResult {
                        name,
                        line,
                        passed: false,
                        checked: 0,
                        failures: Vec::new(),
                        advice: Some(advice::stopped(&path, text, &error, hook.as_ref())),
                        error: Some(error),
                    }
                }
            }
        })
        .collect();
    TestedFile {
        file: path,
        error: None,
        advice: None,
        scenarios,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pack: &str, list: &[(&str, &str)]) -> PackFiles {
        PackFiles {
            pack: pack.to_string(),
            files: list
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect(),
        }
    }

    #[test]
    fn a_place_is_found_after_the_file_it_names_and_only_there() {
        let packs = [files("p", &[("p.rhai", ""), ("pack.toml", "")])];
        let got = placed(&packs, "error: p/p.rhai:3:14: oops".into());
        assert_eq!(
            (got.file.as_deref(), got.line, got.col),
            (Some("p/p.rhai"), Some(3), Some(14))
        );
        let got = placed(&packs, "xp/p.rhai:3:14: another pack's".into());
        assert_eq!(got.file, None);
        let got = placed(&packs, "p/pack.toml: no line".into());
        assert_eq!(got.line, None);
    }

    /// A check, a board's answers and a test run compile each script of
    /// the packs once: the ruleset takes the scripts compiled to find each
    /// pack's problems, and so do the rules a scenario sets for itself.
    #[test]
    fn each_request_compiles_each_script_once() {
        use crate::rules::script::compiled_on_this_thread;
        let manifest =
            "[pack]\nname = \"my-rule\"\nrequires = [\"tower\"]\nscript = \"my-rule.rhai\"\n";
        let script = "fn may_capture(tower, meeple, board) {\n    meeple.on != \"road\" && previous(tower, meeple, board)\n}\n";
        let board = "[[scenario]]\nname = \"b\"\ntiles = [{ tile = \"tower/F\", at = [0, 0] }]\n\
                     towers = [{ at = [0, 0], floors = [\"regular\"] }]\n";
        // A second scenario with its own parameter values: rules of its own.
        let scenarios = format!(
            "{board}[scenario.expect]\nrange = [{{ tower = [0, 0], cells = [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1]] }}]\n\n\
             [[scenario]]\nname = \"c\"\nparams = {{ tower = {{ ransom_cost = 2 }} }}\n\
             scores = [0, 10]\nprisoners = [{{ captor = 1, owner = 0 }}]\n\
             [scenario.expect]\nransom = [{{ payer = 0, captor = 1, cost = 2 }}]\n"
        );
        let sent = [files(
            "my-rule",
            &[
                ("pack.toml", manifest),
                ("my-rule.rhai", script),
                ("tests/a.toml", &scenarios),
            ],
        )];
        let home = holding(&Home::shipped(), &sent).unwrap();
        let load = LoadOptions::unit_tests();
        // The Tower's script and the pack's.
        let scripts = 2;
        let compiles = |what: &dyn Fn()| {
            let before = compiled_on_this_thread();
            what();
            compiled_on_this_thread() - before
        };
        let checked = compiles(&|| {
            let report = check(&home, &load, &sent, "my-rule", 2).unwrap();
            assert_eq!(report.problems, Vec::<StudioProblem>::new());
        });
        assert_eq!(checked, scripts, "the studio's check");
        let checked = compiles(&|| {
            let report = crate::play::check::run(&home, &load, "my-rule", 0).unwrap();
            assert!(report.problems.is_empty(), "{report:?}");
        });
        assert_eq!(checked, scripts, "`towerlab check`");
        let asked = compiles(&|| {
            let answers = ask(&home, &load, "my-rule", board).unwrap();
            assert_eq!(answers.towers.len(), 1);
        });
        assert_eq!(asked, scripts, "a board's answers");
        let tested = compiles(&|| {
            let tests = test(&home, &load, &sent, "my-rule").unwrap();
            assert_eq!((tests.passed, tests.total), (2, 2), "{tests:?}");
        });
        assert_eq!(
            tested, scripts,
            "a test run, a scenario's own rules included"
        );
    }

    #[test]
    fn pack_names_and_files_that_would_leave_the_folder_are_refused() {
        let home = Home::shipped();
        for bad in ["../x", "/abs", "a/b/c", "", "base", "a b", "./x"] {
            let sent = [files(bad, &[("pack.toml", "")])];
            assert!(holding(&home, &sent).is_err(), "{bad}");
        }
        for bad in ["../pack.toml", "/etc/passwd.toml", "x.txt", "a\\b.toml"] {
            let sent = [files("p", &[(bad, "")])];
            assert!(holding(&home, &sent).is_err(), "{bad}");
        }
        let sent = [files("house/p", &[("pack.toml", ""), ("tests/a.toml", "")])];
        assert!(holding(&home, &sent).is_ok());
    }
}
