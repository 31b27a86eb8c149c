//! Words that match the numbers: verdicts generated over many runs of
//! hand-made games — effects large, small and none, at many game counts —
//! and each sentence checked against the intervals it quotes: a change
//! excludes 0, "unchanged" holds 0 and lies within ±0.05, "not told apart
//! from 0" holds 0, "detectable but small" is under its threshold.

use towerlab::analysis::compare::{self, RunInfo, Tally};
use towerlab::analysis::stats::GameRow;
use towerlab::analysis::verdict::Verdict;

/// A small xorshift generator: the runs are the same every time.
struct Draws(u64);

impl Draws {
    fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % u64::from(n.max(1))) as u32
    }
}

/// A game: the seats' scores, then the counts of a [`GameRow`], some moved
/// by `shift` (the variant's effect).
fn game(d: &mut Draws, shift: u32) -> GameRow {
    let mut v = vec![40 + d.below(30) + shift, 40 + d.below(30)];
    v.extend([
        10 + d.below(4) + shift,
        d.below(2),
        // Exchanges: one more in about one game of eight, a small effect.
        3 + d.below(3) + u32::from(shift > 0 && d.below(8) == 0),
        d.below(2),
        3 * d.below(2),
        d.below(2),
        5 + d.below(3),
        10 + d.below(8),
        3 + d.below(3),
        d.below(2),
        89,
        d.below(4),
        40 + d.below(30),
        d.below(10),
        d.below(2),
        200 + d.below(3) + shift,
        900 + d.below(50),
        30 + d.below(5),
    ]);
    GameRow(v)
}

fn info() -> RunInfo {
    RunInfo {
        variants: vec!["base".into(), "some".into(), "more".into()],
        packs: vec![vec!["tower".into()]; 3],
        decks: None,
        games: 0,
        bots: vec!["greedy".into(), "greedy".into()],
        seed: 1,
        bot_values: vec!["defaults".into(); 3],
    }
}

/// Every interval `[a, b]` a sentence quotes, with the number before it.
fn intervals(sentence: &str) -> Vec<(f64, f64, f64)> {
    let mut out = Vec::new();
    let mut rest = sentence;
    while let Some(open) = rest.find('[') {
        let close = open + rest[open..].find(']').expect("a closing bracket");
        let inside: Vec<f64> = rest[open + 1..close]
            .split(", ")
            .map(|x| x.parse().unwrap_or_else(|_| panic!("{x} in {sentence}")))
            .collect();
        let before = rest[..open].trim_end();
        // The value is the last number before the interval (a unit may
        // stand between).
        let value = before
            .split([' ', '('])
            .rev()
            .find_map(|w| w.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("no value before [ in {sentence}"));
        out.push((value, inside[0], inside[1]));
        rest = &rest[close + 1..];
    }
    out
}

fn check(sentence: &str) {
    let holds_zero = |(_, a, b): &(f64, f64, f64)| *a <= 0.0 && *b >= 0.0;
    // Printed to 2 decimals (or 2 significant digits): within a rounding.
    let within = |(_, a, b): &(f64, f64, f64)| *a >= -0.05 - 0.005 && *b <= 0.05 + 0.005;
    let quoted = intervals(sentence);
    if sentence.starts_with("Against") || sentence.starts_with("About") {
        return;
    }
    if sentence.starts_with("Unchanged") {
        assert!(
            quoted.iter().all(|i| holds_zero(i) && within(i)),
            "{sentence}"
        );
    } else if sentence.starts_with("Within") {
        assert!(
            quoted.iter().all(|i| !holds_zero(i) && within(i)),
            "{sentence}"
        );
    } else if sentence.starts_with("Not told apart from 0") {
        assert!(
            quoted.iter().all(|i| holds_zero(i) && !within(i)),
            "{sentence}"
        );
    } else {
        // A variant's changes, small ones, or ones moved by what the game
        // asks: every one survives, so every raw interval excludes 0 and
        // holds its own value.
        for (value, a, b) in &quoted {
            assert!(*a > 0.0 || *b < 0.0, "{sentence}");
            assert!(a <= value && value <= b, "{sentence}");
            // A change is never printed as 0 (as "-0.00").
            assert!(*value != 0.0, "{sentence}");
        }
    }
    if sentence.contains("detectable but small") {
        for item in sentence.split("; ") {
            let value = intervals(item)[0].0.abs();
            let threshold: f64 = item
                .rsplit("(threshold ")
                .next()
                .and_then(|t| t.split(')').next())
                .and_then(|t| t.parse().ok())
                .unwrap_or_else(|| panic!("no threshold in {item}"));
            assert!(value <= threshold, "{item}");
        }
    }
}

#[test]
fn every_sentence_of_many_verdicts_matches_its_own_intervals() {
    let mut d = Draws(0x9E37_79B9_7F4A_7C15);
    let mut sentences = 0;
    let mut kinds = std::collections::BTreeMap::new();
    for run in 0..120u32 {
        let games = [3, 8, 20, 40, 200][run as usize % 5];
        let shifts = [0, run % 3, (run / 3) % 2];
        let mut rows: Vec<Vec<GameRow>> = shifts
            .iter()
            .map(|&s| (0..games).map(|_| game(&mut d, s)).collect())
            .collect();
        if run % 5 == 4 {
            // A variant that plays the baseline's games: nothing changes.
            rows[2] = rows[0].clone();
        }
        let tally = Tally {
            rows,
            ..Tally::default()
        };
        let c = compare::summarise(&info(), tally);
        let v = Verdict::of(&c);
        for s in &v.sentences {
            check(s);
            sentences += 1;
            for kind in [
                "Unchanged",
                "Not told apart",
                "detectable but small",
                "moved by what the game asks",
                "scores:",
                "what the rule does:",
            ] {
                *kinds.entry(kind).or_insert(0) += usize::from(s.contains(kind));
            }
        }
        // The values behind the words: a change survives; a key metric
        // called unchanged has its whole interval within ±0.05.
        for ch in &v.changes {
            assert!(ch.ci[0] > 0.0 || ch.ci[1] < 0.0, "{ch:?}");
            assert_eq!(ch.small, ch.mean.abs() < ch.min_effect);
        }
        for s in &v.unchanged {
            assert!(s.ci[0] >= -s.within && s.ci[1] <= s.within, "{s:?}");
        }
    }
    assert!(sentences > 400, "{sentences}");
    // Every kind of sentence was checked.
    assert!(kinds.values().all(|&n| n > 0), "{kinds:?}");
}
