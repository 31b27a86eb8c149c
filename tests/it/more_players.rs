//! Games of 7 and 8 players (T1 and B2's rulings for more players): every
//! bot plays them to the end, under the scripted and the native rules
//! alike, and they replay.

use towerlab::kernel::MAX_PLAYERS;
use towerlab::play::bots::BotKind;
use towerlab::play::sim::{self, Batch};
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common::{ScratchFile, home, log_records, succeeds};

#[test]
fn t1_b2_seven_and_eight_players_play_to_the_end_with_every_bot() {
    assert_eq!(MAX_PLAYERS, 8);
    let kinds = [
        BotKind::RANDOM,
        BotKind::GREEDY,
        BotKind::mcts(6),
        BotKind::baseline(6),
    ];
    for variant in ["tower", "black-tower", "native:black-tower"] {
        let set = match variant.strip_prefix("native:") {
            Some(_) => {
                Ruleset::from_packs(&home(), &LoadOptions::default(), &[variant.to_string()])
            }
            None => Ruleset::from_variant(&home(), &LoadOptions::default(), variant),
        }
        .unwrap_or_else(|e| panic!("{variant}: {e:#}"));
        for players in [7, 8] {
            let bots: Vec<BotKind> = (0..players).map(|s| kinds[s % kinds.len()]).collect();
            let batch = Batch {
                set: &set,
                bots: &bots,
                games: 2,
                master_seed: 5,
                threads: 2,
                log: false,
            };
            let mut ended = 0;
            sim::simulate(&batch, &|_| {}, |g| {
                assert_eq!(g.scores.len(), players, "{variant}");
                ended += 1;
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{variant}, {players} players: {e:#}"));
            assert_eq!(ended, 2, "{variant}, {players} players: every game ended");
        }
    }
}

#[test]
fn an_eight_player_game_is_logged_and_replays() {
    let log = ScratchFile::new("eight.jsonl");
    succeeds(&[
        "play",
        "--variant",
        "black-tower",
        "--players",
        "8",
        "--bots",
        "greedy",
        "--seed",
        "2",
        "--log",
        log.path(),
    ]);
    let records = log_records(&log.read());
    let end = records
        .iter()
        .find(|r| r["event"] == "end")
        .expect("an end");
    assert_eq!(end["scores"].as_array().unwrap().len(), 8);
    let seats: std::collections::BTreeSet<i64> = records
        .iter()
        .filter(|r| r["event"] == "tile")
        .map(|r| r["player"].as_i64().unwrap())
        .collect();
    assert_eq!(seats.len(), 8, "every seat played");
    succeeds(&["replay", log.path()]);
}
