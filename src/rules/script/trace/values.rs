//! A script value as a trace writes it, as a script would: the question's
//! tower, meeple, feature, tile and event by the fields a script reads of
//! them.

use std::fmt::Write as _;

use rhai::{Array, Dynamic, ImmutableString, Map};

use super::super::api::{BoardRef, MeepleInfo, TowerInfo};
use super::super::host::ScriptRules;
use super::super::moment::EventField;
use super::super::reads::{Aspect, Facts, FeatureInfo, Read, TileInfo};
use super::super::record::kind_name;
use crate::kernel::effects::Moment;
use crate::kernel::geometry::Pos;

impl ScriptRules {
    /// A script value as a script would write it; the question's tower,
    /// meeple and board by what they hold.
    pub(super) fn dynamic_text(&self, v: &Dynamic, facts: &Facts) -> String {
        if let Some(t) = v.read_lock::<TowerInfo>() {
            return tower_text(&t, &self.scripts.kind_names);
        }
        if v.is::<MeepleInfo>() {
            return self.meeple_text(facts);
        }
        if v.is::<BoardRef>() {
            return "board".to_string();
        }
        if let Some(t) = v.read_lock::<TileInfo>() {
            return tile_text(*t, facts);
        }
        if let Some(f) = v.read_lock::<FeatureInfo>() {
            return self.feature_text(*f, facts);
        }
        if v.is::<super::super::effects::EventInfo>() {
            return self.event_text(facts);
        }
        if let Some(items) = v.read_lock::<Array>() {
            let items: Vec<String> = items.iter().map(|i| self.dynamic_text(i, facts)).collect();
            return format!("[{}]", items.join(", "));
        }
        if let Some(map) = v.read_lock::<Map>() {
            let fields: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}: {}", self.dynamic_text(v, facts)))
                .collect();
            return format!("#{{{}}}", fields.join(", "));
        }
        if v.is_unit() {
            return "()".to_string();
        }
        if let Some(s) = v.read_lock::<ImmutableString>() {
            return format!("{:?}", s.as_str());
        }
        v.to_string()
    }

    /// A feature as `debug` writes it: the fields a script reads of it
    /// now (its cells and segments left out).
    fn feature_text(&self, f: FeatureInfo, facts: &Facts) -> String {
        let read = |a| self.value(facts, f.read_of(a));
        let Some(kind) = read(Aspect::Kind) else {
            return "()".to_string();
        };
        let players = self.value(facts, Read::Players).unwrap_or(0);
        let meeples: Vec<String> = (0..players as u8)
            .map(|s| read(Aspect::Meeples(s)).unwrap_or(0).to_string())
            .collect();
        let number = |a| read(a).map_or("()".to_string(), |v| v.to_string());
        format!(
            "Feature {{ kind: {:?}, tiles: {}, pennants: {}, complete: {}, meeples: [{}], cities: {} }}",
            kind_name(kind),
            number(Aspect::Tiles),
            number(Aspect::Pennants),
            read(Aspect::Complete).is_some_and(|c| c != 0),
            meeples.join(", "),
            number(Aspect::Cities)
        )
    }

    fn meeple_text(&self, facts: &Facts) -> String {
        let read = |r| {
            self.value(facts, r)
                .map_or("()".to_string(), |v| v.to_string())
        };
        let on = self
            .value(facts, Read::MeepleOn)
            .map_or("()".to_string(), |c| format!("{:?}", kind_name(c)));
        format!(
            "Meeple {{ owner: {}, x: {}, y: {}, dx: {}, dy: {}, on: {on} }}",
            read(Read::MeepleOwner),
            read(Read::MeepleX),
            read(Read::MeepleY),
            read(Read::MeepleDx),
            read(Read::MeepleDy)
        )
    }

    /// An event hook's `event` by its fields.
    fn event_text(&self, facts: &Facts) -> String {
        let Some(moment) = facts.moment else {
            return "event".to_string();
        };
        let fields: Vec<String> = EventField::of(&moment)
            .iter()
            .map(|&f| {
                let v = self.value(facts, Read::Event(f)).unwrap_or(0);
                let tiles = facts.table.and_then(|t| t.tiles);
                let shown = match f {
                    EventField::Tile => tiles
                        .and_then(|t| t.kinds.get(v as usize))
                        .map_or(v.to_string(), |k| format!("{:?}", k.name)),
                    EventField::Foundation | EventField::Scored | EventField::ByRule => {
                        (v != 0).to_string()
                    }
                    EventField::Seat if v < 0 => "()".to_string(),
                    EventField::Kind if matches!(moment, Moment::FloorBuilt { .. }) => self
                        .scripts
                        .kind_names
                        .get(v as usize)
                        .map_or(v.to_string(), |k| format!("{:?}", k.as_str())),
                    EventField::Kind | EventField::On => format!("{:?}", kind_name(v)),
                    _ => v.to_string(),
                };
                format!("{}: {shown}", f.name())
            })
            .collect();
        format!("Event {{ {} }}", fields.join(", "))
    }
}

/// A tower as a hook sees it.
fn tower_text(t: &TowerInfo, kind_names: &[ImmutableString]) -> String {
    let floors: Vec<String> = t
        .floors
        .iter()
        .map(|&k| format!("{:?}", kind_names[k as usize].as_str()))
        .collect();
    let mut out = format!(
        "Tower {{ height: {}, floors: [{}], has_meeple: {}",
        t.floors.len(),
        floors.join(", "),
        t.has_meeple
    );
    if let Some(p) = t.pos {
        let _ = write!(out, ", x: {}, y: {}", p.x, p.y);
    }
    if let Some(owner) = t.owner {
        let _ = write!(
            out,
            ", meeple_owner: {}",
            owner.map_or("()".to_string(), |o| o.to_string())
        );
    }
    out + " }"
}

/// `game().tile` as `debug` writes it: its fields, as a script reads them.
fn tile_text(tile: TileInfo, facts: &Facts) -> String {
    let Some(table) = facts.table else {
        return "()".to_string();
    };
    let placed = match tile.at {
        Some((x, y)) => table.board.tile_at(Pos::new(x, y)).map(|t| (t.pos, t.rot)),
        None => table.history.tile.map(|t| (t.pos, t.rot)),
    };
    let kind = table
        .tiles
        .and_then(|set| set.kinds.get(tile.kind as usize));
    let (Some((pos, rot)), Some(k)) = (placed, kind) else {
        return "()".to_string();
    };
    let segments: Vec<String> = k
        .segments
        .iter()
        .map(|s| format!("{:?}", s.kind.name()))
        .collect();
    format!(
        "Tile {{ name: {:?}, x: {}, y: {}, rot: {}, foundation: {}, segments: [{}] }}",
        k.name,
        pos.x,
        pos.y,
        rot as u16 * 90,
        k.foundation.is_some(),
        segments.join(", ")
    )
}
