//! Argument types shared by several commands: which rules to play, who
//! plays, the options of a batch of games, and the output formats.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::ValueEnum;

use super::numbers;
use crate::kernel::diag::bad_input;
use crate::play::bots::BotKind;
use crate::rules::script::limits::GAME_OPERATIONS;
use crate::rules::{Home, LoadOptions, Ruleset, param, setting};

/// Which rules to play: a variant file, or packs in order.
#[derive(clap::Args, Debug, Clone)]
pub struct RulesArgs {
    /// A variant: a name from variants/ (e.g. `black-tower`) or a path to a
    /// TOML file [default: tower]
    #[arg(long, value_name = "NAME|PATH", conflicts_with = "packs")]
    pub variant: Option<String>,
    /// An ad-hoc variant: packs in order, comma-separated (e.g.
    /// `tower,black-tower,house/no-gaps`, a folder path, or a native rule set:
    /// `native:tower`, `native:black-tower`);
    /// the base game is always in
    #[arg(long, value_name = "P1,P2,…", value_delimiter = ',')]
    pub packs: Option<Vec<String>>,
}

impl RulesArgs {
    pub fn load(&self, home: &Home, load: &LoadOptions) -> Result<Ruleset> {
        let packs = self
            .packs
            .as_deref()
            .map(|p| trimmed_names("--packs", "pack", p))
            .transpose()?;
        let set = Ruleset::select(home, load, self.variant.as_deref(), packs.as_deref())?;
        warn_near_misses(&set);
        Ok(set)
    }
}

/// Say on stderr which functions of `set`'s scripts look like a misspelt
/// hook: a hook is found by its exact name, so such a function is never
/// called, and the rule it was meant to be silently does nothing.
pub fn warn_near_misses(set: &Ruleset) {
    if let Some(scripts) = set.scripts() {
        for miss in scripts.near_misses() {
            let _ = writeln!(std::io::stderr(), "warning: {miss} (it is never called)");
        }
    }
}

/// What the hooks of one game may spend.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct BudgetArgs {
    /// Operations the hooks of one game may run in all (cached answers
    /// count what they cost); a game that needs more fails (see docs/packs.md)
    #[arg(long, value_name = "OPS", default_value_t = GAME_OPERATIONS, value_parser = numbers::hook_budget, allow_negative_numbers = true)]
    pub hook_budget: u64,
}

/// Who plays: how many players, and which bot in each seat.
#[derive(clap::Args, Debug)]
pub struct SeatArgs {
    /// Number of players, 2 to 8 [default: the (first) variant's, else 2]
    #[arg(long, value_parser = numbers::players, allow_negative_numbers = true)]
    pub players: Option<u8>,
    /// Bots: one name for every seat, or one per seat, comma-separated
    /// (`random`, `greedy`, `mcts`, or `mcts:N` for N iterations per decision;
    /// `mcts-baseline[:N]`: the reference the bots are measured against; a
    /// bot's values after `@`: `greedy@defaults`, `mcts:50@tuned`)
    #[arg(
        long,
        value_name = "B1,B2,…",
        value_delimiter = ',',
        default_value = "random"
    )]
    pub bots: Vec<String>,
}

impl SeatArgs {
    /// The bot of each seat, under rules whose default player count is
    /// `set.players`.
    pub fn bots(&self, set: &Ruleset) -> Result<Vec<BotKind>> {
        let players = self.players.map_or(set.players(), usize::from);
        let bots = crate::play::bots::seats(&trimmed_names("--bots", "bot", &self.bots)?, players)?;
        crate::play::bots::check_values(&bots, &[set])?;
        Ok(bots)
    }
}

/// Options shared by `simulate` and `compare`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Number of games to play (per variant).
    #[arg(long, default_value_t = 1000, value_parser = numbers::games, allow_negative_numbers = true)]
    pub games: u64,
    /// Master seed: game i plays with a seed derived from (seed, i), the same
    /// in every variant.
    #[arg(long, default_value_t = 1, value_parser = numbers::index, allow_negative_numbers = true)]
    pub seed: u64,
    #[command(flatten)]
    pub seats: SeatArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Worker threads [default: one per core; never more than the address
    /// space holds, see README]. Results do not depend on it.
    #[arg(long, value_parser = numbers::threads, allow_negative_numbers = true)]
    pub threads: Option<u16>,
    /// Write every game's events to FILE as JSON Lines (see docs/log.md).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Output format; `partial` writes this shard's games as a partial
    /// result for `towerlab merge` (see --shard).
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Play only shard K of N (K from 0 to N-1) of the games, and write it
    /// with --format partial; `auto/N` takes K from $SLURM_ARRAY_TASK_ID or
    /// $JOB_COMPLETION_INDEX. Merge the shards with `towerlab merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Write one CSV row per game and variant to FILE: the seed, the winner
    /// and every per-game metric, scores first.
    #[arg(long, value_name = "FILE")]
    pub per_game: Option<PathBuf>,
    /// Did the rules fire? Count, per variant, pack and hook, how often it
    /// was asked, how often it changed the answer (against the packs before
    /// it) and in how many games (slower: each shorter chain of packs is
    /// asked too; JSON: `fires`)
    #[arg(long)]
    pub fires: bool,
}

/// The names of a comma-separated list (`--packs`, `--bots`: a `what`
/// name each), without the spaces around them; an empty name (as in
/// `greedy,`) is bad input.
pub fn trimmed_names(option: &str, what: &str, names: &[String]) -> Result<Vec<String>> {
    let trimmed: Vec<String> = names.iter().map(|n| n.trim().to_string()).collect();
    if trimmed.iter().any(String::is_empty) {
        return Err(bad_input(format!(
            "empty {what} name in `{option} {}`: give names separated by single commas",
            names.join(",")
        )));
    }
    Ok(trimmed)
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// A table sized to the terminal.
    #[value(alias = "text")]
    Table,
    Json,
    Csv,
    /// This shard's games for `towerlab merge` (JSON).
    Partial,
}

/// Output formats of a sweep.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SweepFormat {
    /// A table sized to the terminal.
    #[value(alias = "table")]
    Text,
    Json,
    Csv,
}

/// Parameter values set on the command line, over the variant's.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ParamArgs {
    /// Set a pack's parameter: PACK.NAME=VALUE, the pack as listed or by the
    /// `name` of its pack.toml (e.g. `tower.ransom_cost=2`); repeatable
    #[arg(long = "param", value_name = "PACK.NAME=V")]
    pub params: Vec<String>,
}

impl ParamArgs {
    /// `set` with the parameters given (unchanged without any).
    pub fn apply(&self, home: &Home, set: Ruleset) -> Result<Ruleset> {
        self.apply_to(home, set, true)
    }

    /// `set` with those of the parameters given whose pack it has; with
    /// `all`, a parameter of a pack it does not have is an error. The
    /// values are checked as every parameter value is (`rules::param`),
    /// all together: a parameter given twice is refused too.
    pub fn apply_to(&self, home: &Home, set: Ruleset, all: bool) -> Result<Ruleset> {
        let mut specs = Vec::new();
        let mut settings = Vec::new();
        for spec in &self.params {
            let (pack, name, value) = split_param(spec)?;
            if !all && !has_pack(&set, pack) {
                continue;
            }
            specs.push(spec);
            settings.push(setting::Setting {
                pack,
                name,
                value: param::Given::Text(value),
            });
        }
        if settings.is_empty() {
            return Ok(set);
        }
        let params = setting::resolve(set.packs(), &settings).map_err(|refused| {
            let spec = specs[refused.setting];
            let sweep = if spec.contains("..") || spec.contains(',') {
                " (`towerlab sweep` takes ranges and lists)"
            } else {
                ""
            };
            bad_input(format!("--param {spec}: {}{sweep}", refused.why))
        })?;
        set.with_params(home, &params)
    }

    /// Each parameter names a pack of at least one of `sets`.
    pub fn check_used(&self, sets: &[Ruleset]) -> Result<()> {
        for spec in &self.params {
            let (pack, ..) = split_param(spec)?;
            // The error of the first variant names the packs there are.
            if let Some(first) = sets.first()
                && !sets.iter().any(|s| has_pack(s, pack))
                && let Err(e) = setting::pack_for_key(first.packs(), pack)
            {
                return Err(bad_input(format!("--param {spec}: {e}")));
            }
        }
        Ok(())
    }
}

/// `PACK.NAME=V` as its pack, name and value.
fn split_param(spec: &str) -> Result<(&str, &str, &str)> {
    setting::split_flag(spec).ok_or_else(|| {
        bad_input(format!(
            "--param {spec}: expected PACK.NAME=V (e.g. tower.ransom_cost=2)"
        ))
    })
}

/// Does `set` have the pack keyed `pack`, as listed or by its manifest's
/// name?
fn has_pack(set: &Ruleset, pack: &str) -> bool {
    setting::pack_for_key(set.packs(), pack).is_ok()
}
