//! The verdict in words: its paragraph, sentence by sentence, written from
//! its fields; each change with its unit and interval, and the numbers as
//! people read them.

use super::value::{
    Change, KEY_METRICS, Level, Steady, TARGET_HALF_WIDTH, UNCHANGED_WITHIN, Verdict,
};
use crate::analysis::practical::Group;
use crate::analysis::stats;

/// The most differences the text names per variant after its scores and
/// wins, which it always names all of (the JSON has all).
const NAMED_PER_VARIANT: usize = 5;

/// A number with its sign, as tables print it ([`stats::signed`]).
fn signed(x: f64) -> String {
    stats::signed(x)
}

fn interval(ci: [f64; 2]) -> String {
    format!("[{}, {}]", signed(ci[0]), signed(ci[1]))
}

/// A key metric as a sentence names it.
fn key_name(metric: &str) -> &str {
    match metric {
        "win.seat1" => "the first seat's win share",
        other => other,
    }
}

/// The paragraph, sentence by sentence.
pub(super) fn write(levels: &[Level], v: &Verdict) -> Vec<String> {
    let Some(first) = levels.first() else {
        return Vec::new();
    };
    let c = first.run;
    let ladder = levels.len() > 1;
    let mut out = vec![format!(
        "Against {}, {} games per variant ({}; stars adjusted by Holm's method over {} differences{}):",
        c.variants[0],
        c.games,
        if ladder {
            format!(
                "at {} levels of play, {}",
                levels.len(),
                levels
                    .iter()
                    .map(|l| l.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" < ")
            )
        } else {
            format!("bots {}", first.name)
        },
        v.differences,
        match v.kind_differences {
            0 => String::new(),
            k => format!(", {k} of them per floor kind"),
        }
    )];
    for name in &c.variants[1..] {
        out.extend(variant_sentences(name, v, ladder, levels.len()));
    }
    let steady = |list: &[Steady], excluding: bool| -> Vec<Steady> {
        list.iter()
            .filter(|s| s.excludes_zero == excluding)
            .cloned()
            .collect()
    };
    let every = if ladder { " at every level" } else { "" };
    let sentences = [
        (
            steady(&v.unchanged, false),
            format!("Unchanged, within ±{UNCHANGED_WITHIN}{every}"),
        ),
        (
            steady(&v.unchanged, true),
            format!(
                "Within ±{UNCHANGED_WITHIN}{every}, though not 0 by the raw interval (not starred after the adjustment)"
            ),
        ),
        (
            steady(&v.unsettled, false),
            format!("Not told apart from 0, nor within ±{UNCHANGED_WITHIN}"),
        ),
        (
            steady(&v.unsettled, true),
            "Away from 0 by the raw interval, but not starred after the adjustment".to_string(),
        ),
    ];
    for (list, head) in sentences {
        if !list.is_empty() {
            out.push(format!("{head}: {}.", by_metric(&list)));
        }
    }
    out.push(match &v.games_needed {
        Some(g) => format!(
            "About {} games per variant would narrow the widest key interval ({} under {}{}, ±{:.3} now) to ±{}.",
            thousands(g.games),
            key_name(&g.metric),
            g.variant,
            if ladder {
                format!(" at {}", g.level)
            } else {
                String::new()
            },
            g.half_width,
            g.target
        ),
        None if v.unsettled.iter().any(|s| s.no_interval.is_some()) => {
            "Too few games for an interval of every key metric.".to_string()
        }
        None => format!("Every key interval is within ±{TARGET_HALF_WIDTH}."),
    });
    out
}

/// What the verdict says of variant `name`: its changes by group, in the
/// order a designer asks (scores and wins always named in full, the rest
/// up to [`NAMED_PER_VARIANT`]); then those under their practical
/// threshold, and the per-decision averages that moved with the count of
/// decisions, each in a sentence of their own.
fn variant_sentences(name: &str, v: &Verdict, ladder: bool, levels: usize) -> Vec<String> {
    let mine: Vec<&Change> = v.changes.iter().filter(|ch| ch.variant == name).collect();
    if mine.is_empty() {
        return vec![format!("{name}: no difference survives.")];
    }
    let words = |ch: &&Change| change_words(ch, ladder, levels);
    let headline: Vec<&Change> = mine
        .iter()
        .copied()
        .filter(|ch| !ch.small && ch.artefact.is_none())
        .collect();
    let mut parts: Vec<String> = Vec::new();
    let mut named = 0;
    let mut more = 0;
    let mut group = None;
    for ch in &headline {
        let always = ch.group <= Group::Wins;
        if !always && named >= NAMED_PER_VARIANT {
            more += 1;
            continue;
        }
        named += usize::from(!always);
        let item = words(ch);
        if group != Some(ch.group) {
            group = Some(ch.group);
            parts.push(format!("{}: {item}", ch.group.heading()));
        } else {
            parts.push(item);
        }
    }
    let mut out = Vec::new();
    if parts.is_empty() {
        out.push(format!(
            "{name}: no difference survives above its practical threshold."
        ));
    } else {
        let more = match more {
            0 => String::new(),
            n => format!("; and {n} more (see the table)"),
        };
        out.push(format!("{name}: {}{more}.", parts.join("; ")));
    }
    let small: Vec<String> = mine
        .iter()
        .filter(|ch| ch.small && ch.artefact.is_none())
        .map(|ch| format!("{} (threshold {})", words(ch), ch.min_effect))
        .collect();
    if !small.is_empty() {
        out.push(format!(
            "{name}, detectable but small (under each metric's practical threshold, --min-effect): {}.",
            small.join("; ")
        ));
    }
    let (count, averages): (Vec<&Change>, Vec<&Change>) = mine
        .iter()
        .copied()
        .filter(|ch| ch.artefact.is_some())
        .partition(|ch| ch.metric == "decisions");
    if let Some(count) = count.first() {
        let averages = match averages.is_empty() {
            true => String::new(),
            false => format!(
                "; the averages over decisions move with it: {}",
                averages.iter().map(words).collect::<Vec<_>>().join("; ")
            ),
        };
        out.push(format!(
            "{name}, moved by what the game asks rather than how it goes: {} ({}){averages}.",
            count.artefact.as_deref().unwrap_or_default(),
            words(count)
        ));
    }
    out
}

/// Key metrics' differences, grouped by metric: "balance under a (…), b
/// (…); the first seat's win share under a (…)".
fn by_metric(steady: &[Steady]) -> String {
    KEY_METRICS
        .iter()
        .filter_map(|&metric| {
            let under: Vec<String> = steady
                .iter()
                .filter(|s| s.metric == metric)
                .map(|s| match s.no_interval {
                    Some(_) => format!("{} ({}, no CI: too few games)", s.variant, signed(s.mean)),
                    None => format!("{} ({} {})", s.variant, signed(s.mean), interval(s.ci)),
                })
                .collect();
            (!under.is_empty()).then(|| format!("{} under {}", key_name(metric), under.join(", ")))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// One change in words: the metric, by how much, in its unit, with its
/// interval; at a ladder, where it holds.
fn change_words(ch: &Change, ladder: bool, levels: usize) -> String {
    let mut s = format!(
        "{} {} {} {}",
        ch.metric,
        signed(ch.mean),
        ch.unit,
        interval(ch.ci)
    );
    if let Some(r) = ch.relative.filter(|r| r.is_finite()) {
        s.push_str(&format!(" ({}%)", relative_percent(r)));
    }
    if ladder {
        if ch.turns_around {
            s.push_str(", turns around with skill");
        } else if ch.holds_at.len() == levels {
            s.push_str(", at every level");
        } else {
            s.push_str(&format!(
                ", at {} only (these numbers at {})",
                ch.holds_at.join(" and "),
                ch.level
            ));
        }
    }
    s
}

/// A relative change in percent: whole percents, or two significant digits
/// below 1% (never "+0%").
fn relative_percent(r: f64) -> String {
    let percent = r * 100.0;
    if percent.abs() >= 1.0 {
        format!("{percent:+.0}")
    } else {
        stats::signed(percent)
    }
}

/// A whole number as people read it, with thousands separators: "1,250".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
