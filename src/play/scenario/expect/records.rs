//! Expectations on the log's records: those the steps wrote, in order,
//! some among them, or none of an event.

use std::collections::BTreeSet;

use anyhow::Result;
use toml::Spanned;

use super::checker::Checker;
use crate::kernel::diag::{Source, did_you_mean};
use crate::play::log;

impl Checker<'_, '_> {
    /// The records the steps wrote, of the events `want` names, against
    /// `want` (each record compared on the fields it gives).
    pub(super) fn events(
        &mut self,
        want: &Spanned<Vec<Spanned<toml::Table>>>,
        events: &[serde_json::Value],
    ) -> Result<()> {
        let (kinds, expected) = expected_records(self.src, want)?;
        let got: Vec<&serde_json::Value> = events
            .iter()
            .filter(|e| e["event"].as_str().is_some_and(|k| kinds.contains(k)))
            .collect();
        let fields = |e: &serde_json::Value| e.to_string();
        for (i, (span, want)) in expected.iter().enumerate() {
            let what = format!("record {} of the events named", i + 1);
            match got.get(i) {
                Some(g) if matches(want, g) => {
                    self.compare(span.span(), what, String::new(), String::new())
                }
                Some(g) => self.compare(span.span(), what, fields(want), fields(g)),
                None => self.compare(span.span(), what, fields(want), "no such record".into()),
            }
        }
        if got.len() > expected.len() {
            let extra: Vec<String> = got[expected.len()..].iter().map(|e| fields(e)).collect();
            self.compare(
                want.span(),
                "no more records of the events named".into(),
                "none".into(),
                extra.join("\n"),
            );
        }
        Ok(())
    }

    /// The records `want` lists are among those the steps wrote, in that
    /// order, with any others before, between and after them.
    pub(super) fn events_include(
        &mut self,
        want: &Spanned<Vec<Spanned<toml::Table>>>,
        events: &[serde_json::Value],
    ) -> Result<()> {
        let (_, expected) = expected_records(self.src, want)?;
        let mut rest = events.iter();
        for (i, (span, want)) in expected.iter().enumerate() {
            let what = format!("record {} of `events_include`, in order", i + 1);
            if rest.any(|g| matches(want, g)) {
                self.compare(span.span(), what, String::new(), String::new());
                continue;
            }
            let kind = &want["event"];
            let of_kind: Vec<String> = events
                .iter()
                .filter(|e| &e["event"] == kind)
                .map(|e| e.to_string())
                .collect();
            let got = if of_kind.is_empty() {
                format!("no `{}` record", kind.as_str().unwrap_or_default())
            } else {
                format!(
                    "none after the records before it; of its event:\n{}",
                    of_kind.join("\n")
                )
            };
            self.compare(span.span(), what, want.to_string(), got);
            // The records after it are not looked for past one missing.
            break;
        }
        Ok(())
    }

    /// No record of the event `name` among those the steps wrote.
    pub(super) fn no_events(
        &mut self,
        name: &Spanned<String>,
        events: &[serde_json::Value],
    ) -> Result<()> {
        let n = name.get_ref();
        event_name(self.src, name)?;
        let got: Vec<String> = events
            .iter()
            .filter(|e| e["event"] == n.as_str())
            .map(|e| e.to_string())
            .collect();
        self.compare(
            name.span(),
            format!("no `{n}` record"),
            "none".into(),
            if got.is_empty() {
                "none".into()
            } else {
                got.join("\n")
            },
        );
        Ok(())
    }
}

/// The records an `events` (or `events_include`) list expects, each named
/// by its `event`, and the event names it holds.
type Expected<'w> = Vec<(&'w Spanned<toml::Table>, serde_json::Value)>;

fn expected_records<'w>(
    src: &Source,
    want: &'w Spanned<Vec<Spanned<toml::Table>>>,
) -> Result<(BTreeSet<String>, Expected<'w>)> {
    let mut kinds = BTreeSet::new();
    let mut expected = Vec::new();
    for w in want.get_ref() {
        let Some(toml::Value::String(name)) = w.get_ref().get("event") else {
            return Err(src.error_at(
                w.span(),
                "each expected record names its `event` (as in docs/log.md)",
            ));
        };
        event_name(src, &Spanned::new(w.span(), name.clone()))?;
        kinds.insert(name.clone());
        expected.push((w, serde_json::to_value(w.get_ref())?));
    }
    Ok((kinds, expected))
}

/// Does record `got` have every field of `want`, with its value?
fn matches(want: &serde_json::Value, got: &serde_json::Value) -> bool {
    match want.as_object() {
        Some(fields) => fields.iter().all(|(k, v)| got.get(k) == Some(v)),
        None => false,
    }
}

/// An event's name, checked against the log's.
fn event_name(src: &Source, name: &Spanned<String>) -> Result<()> {
    if log::event_names().any(|e| e == name.get_ref()) {
        Ok(())
    } else {
        Err(src.error_at(
            name.span(),
            format!(
                "no event `{}` in a log (docs/log.md){}",
                name.get_ref(),
                did_you_mean(name.get_ref(), log::event_names())
            ),
        ))
    }
}
