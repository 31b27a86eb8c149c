//! A validated variant, [`Ruleset`]: its packs, tile set, floor kinds,
//! parameter values, fingerprint and bot values, ready to play; how it is
//! made from a variant file, a pack list or a game log; and how the
//! packs and variants it is made of are found in a [`Home`].

use std::sync::Arc;

use anyhow::Result;

use super::assemble::{compile_scripts, fingerprint_of, floor_kinds, param_maps, reference_tiles};
use super::order::{check_pack_order, listed_twice};
use super::script::{ScriptRules, Scripts};
use super::setting::Checked;
use super::{
    FloorDecl, Home, LoadOptions, Origin, Pack, PackFiles, Params, Tuned, VariantFile, Worths,
    logged, manifest, setting, worths,
};
use crate::kernel::Rules;
use crate::kernel::diag::{Source, bad_input, did_you_mean};
use crate::kernel::tiles::TileSet;

impl Home {
    /// Find and load the pack called `reference`: a name under `rules/` (the
    /// home folder's first, then the shipped ones), a path to a folder
    /// holding a `pack.toml`, or a native rule set (`native:tower`,
    /// `native:black-tower`).
    pub fn load_pack(&self, reference: &str) -> Result<Pack> {
        manifest::load_pack_from(&self.rules_dirs(), reference)
    }

    /// Find and read the variant called `reference`: a name in `variants/`
    /// (the home folder's first, then the shipped ones) or a path to a TOML
    /// file.
    pub fn load_variant(&self, reference: &str) -> Result<VariantFile> {
        manifest::load_variant_from(&self.variants_dirs(), reference)
    }
}

/// How the rules of a ruleset are implemented.
#[derive(Clone)]
pub(super) enum Implementation {
    /// A native rule set: a rules instance for one thread.
    Native(fn() -> Box<dyn Rules>),
    Script(Arc<Scripts>),
}

/// A validated variant: its packs, tile set and rules, ready to play.
pub struct Ruleset {
    /// The variant's name, or the pack list for an ad-hoc variant.
    name: String,
    description: String,
    /// The packs as the variant (or `--packs`) names them, in order.
    pack_names: Vec<String>,
    packs: Vec<Pack>,
    /// Default number of players.
    players: usize,
    pub(super) tiles: TileSet,
    /// Every floor kind, in order (a `FloorKind` indexes this).
    pub(super) floors: Vec<FloorDecl>,
    /// The tile files its deck was made of (the base game's, then each
    /// pack's): what its fingerprint is made of, with the packs.
    tile_files: Vec<Source>,
    /// How many times each tile the deck holds (1 but for the benchmarks'
    /// bigger decks).
    deck_factor: u32,
    /// The parameter values the variant sets (defaults are not listed),
    /// checked.
    checked: Checked,
    /// The same values as they are written (a log's `start` record).
    params: Params,
    /// Where the variant file was found (none for a pack list).
    origin: Option<Origin>,
    /// What the rules are, as one string: the tiles, every pack's files and
    /// the parameters (the key of tuned values).
    fingerprint: String,
    /// The values bots weigh positions with: tuned for these rules when the
    /// home folder holds them (`tuned`), else the defaults.
    worths: Arc<Worths>,
    /// The tuned values found, with how they were learned.
    tuned: Option<Tuned>,
    /// How its packs were loaded: the rules made from it load so too.
    load: LoadOptions,
    pub(super) implementation: Implementation,
}

impl Ruleset {
    /// The variant's name, or the pack list for an ad-hoc variant.
    pub fn name(&self) -> &String {
        &self.name
    }

    pub fn description(&self) -> &String {
        &self.description
    }

    /// The packs as the variant (or `--packs`) names them, in order.
    pub fn pack_names(&self) -> &Vec<String> {
        &self.pack_names
    }

    pub fn packs(&self) -> &Vec<Pack> {
        &self.packs
    }

    /// The default number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    pub fn tiles(&self) -> &TileSet {
        &self.tiles
    }

    /// Every floor kind, in order (a `FloorKind` indexes this).
    pub fn floors(&self) -> &Vec<FloorDecl> {
        &self.floors
    }

    /// The parameter values the variant sets (defaults are not listed).
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Where the variant file was found (none for a pack list).
    pub fn origin(&self) -> &Option<Origin> {
        &self.origin
    }

    /// What the rules are, as one string: the tiles, every pack's files and
    /// the parameters (the key of tuned values).
    pub fn fingerprint(&self) -> &String {
        &self.fingerprint
    }

    /// The values bots weigh positions with: tuned for these rules when the
    /// home folder holds them, else the defaults.
    pub fn worths(&self) -> &Arc<Worths> {
        &self.worths
    }

    /// The tuned values found, with how they were learned.
    pub fn tuned(&self) -> &Option<Tuned> {
        &self.tuned
    }

    /// How its packs were loaded (memory limit, hook budget, trace).
    pub fn load_options(&self) -> &LoadOptions {
        &self.load
    }
}

impl Ruleset {
    /// Load the variant `reference` (a name in `variants/` or a path); a
    /// native rule set (`native:tower`) is a variant of its own.
    pub fn from_variant(home: &Home, load: &LoadOptions, reference: &str) -> Result<Ruleset> {
        if crate::rules::native::native(reference).is_some() {
            return Ruleset::from_packs(home, load, &[reference.to_string()]);
        }
        let file = home.load_variant(reference)?;
        let mut packs = Vec::new();
        for (name, span) in file.packs.iter().zip(&file.pack_spans) {
            let pack = home
                .load_pack(name)
                .map_err(|e| file.source.error_at(span.clone(), format!("{e:#}")))?;
            if let Some(earlier) = packs.iter().find(|p: &&Pack| p.name == pack.name) {
                return Err(file
                    .source
                    .error_at(span.clone(), listed_twice(earlier, &pack)));
            }
            packs.push(pack);
        }
        // A pack is keyed as the variant lists it, or by its manifest's
        // `name` (`[params.red-floor]` for `./my-pack`); an error points at
        // the value's key, or its table.
        for (key, span) in &file.param_spans {
            setting::pack_for_key(&packs, key)
                .map_err(|e| file.source.error_at(span.clone(), e))?;
        }
        let settings = setting::settings_of(&file.params);
        let checked = setting::resolve(&packs, &settings).map_err(|r| {
            let s = &settings[r.setting];
            let at = file
                .param_key_span(s.pack, s.name)
                .or_else(|| file.param_spans.get(s.pack).cloned())
                .unwrap_or(0..0);
            file.source.error_at(at, r.why)
        })?;
        let assembled = Ruleset::assemble(home, load, file.name.clone(), packs, &checked);
        let mut set = assembled.map_err(|e| {
            // The error keeps its type (bad input or not) under the
            // variant's name.
            e.context(format!(
                "variant `{}` ({})",
                file.name,
                file.source.path.display()
            ))
        })?;
        set.description = file.description;
        set.origin = Some(file.origin);
        if let Some(p) = file.players {
            set.players = p;
        }
        Ok(set)
    }

    /// These rules with `values` set over their own parameters: values
    /// checked against these rules' packs ([`setting::resolve`], the one
    /// check, as [`Checked`] says), taken as they are. Nothing is checked
    /// again, no pack is read and no script compiled again: the compiled
    /// scripts take the values ([`Scripts::with_params`]); only the tuned
    /// values for the new fingerprint are looked for in the home folder.
    /// The name, description, players, origin, deck and load options are
    /// kept. A ruleset is never changed after it is made: this makes
    /// another.
    pub fn with_params(&self, home: &Home, values: &Checked) -> Result<Ruleset> {
        if !values.fits(&self.pack_names) {
            anyhow::bail!(
                "parameter values checked against other packs were set on the rules of packs {}",
                self.pack_names.join(", ")
            );
        }
        let checked = self.checked.with(values);
        let fingerprint = self.fingerprint_with(&checked);
        let tuned = worths::load(home.folder(), &fingerprint, self.floors.len())?;
        let implementation = match &self.implementation {
            Implementation::Native(rules) => Implementation::Native(*rules),
            Implementation::Script(s) => {
                Implementation::Script(Arc::new(s.with_params(&param_maps(&self.packs, &checked)?)))
            }
        };
        Ok(Ruleset {
            name: self.name.clone(),
            description: self.description.clone(),
            pack_names: self.pack_names.clone(),
            packs: self.packs.clone(),
            players: self.players,
            tiles: self.tiles.clone(),
            floors: self.floors.clone(),
            tile_files: self.tile_files.clone(),
            deck_factor: self.deck_factor,
            params: checked.written(),
            checked,
            origin: self.origin.clone(),
            worths: Arc::new(tuned.as_ref().map(|t| t.worths.clone()).unwrap_or_default()),
            tuned,
            fingerprint,
            load: self.load.clone(),
            implementation,
        })
    }

    /// The fingerprint of these rules with the parameter values `params`.
    fn fingerprint_with(&self, params: &Checked) -> String {
        let plain = fingerprint_of(&self.tile_files, &self.packs, params);
        match self.deck_factor {
            1 => plain,
            factor => format!("{plain} (deck x{factor})"),
        }
    }

    /// These rules under another name (a sweep names each value's rules).
    pub fn named(mut self, name: String) -> Ruleset {
        self.name = name;
        self
    }

    /// These rules played by `players` seats by default: a count the game
    /// allows, or bad input.
    pub fn with_players(mut self, players: usize) -> Result<Ruleset> {
        use crate::kernel::pieces::{MAX_PLAYERS, MIN_PLAYERS};
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(bad_input(format!(
                "{players} players: a game has {MIN_PLAYERS} to {MAX_PLAYERS}"
            )));
        }
        self.players = players;
        Ok(self)
    }

    /// These rules with every tile `factor` times as many (how a bigger
    /// deck scales, for the benchmarks): within the deck's limit
    /// (`MAX_DECK`), or bad input; the fingerprint says so, so no tuned
    /// values of the plain deck are taken for it.
    pub fn with_deck_scaled(mut self, factor: u32) -> Result<Ruleset> {
        let deck: u64 = self.tiles.kinds.iter().map(|k| u64::from(k.count)).sum();
        let max = crate::kernel::tiles::MAX_DECK as u64;
        if factor == 0 || deck * u64::from(factor) > max {
            return Err(bad_input(format!(
                "a deck of {deck} tiles times {factor}: a deck holds 1 to {max} tiles"
            )));
        }
        for kind in &mut self.tiles.kinds {
            kind.count *= factor;
        }
        self.deck_factor *= factor;
        self.fingerprint = self.fingerprint_with(&self.checked);
        self.worths = Arc::new(Worths::default());
        self.tuned = None;
        Ok(self)
    }

    /// An ad-hoc variant made of `packs`, in order.
    pub fn from_packs(home: &Home, load: &LoadOptions, packs: &[String]) -> Result<Ruleset> {
        Ruleset::from_packs_with(home, load, packs, &Params::new())
    }

    /// An ad-hoc variant made of `packs`, in order, with parameter values
    /// (as a game log's `start` record gives them).
    pub fn from_packs_with(
        home: &Home,
        load: &LoadOptions,
        packs: &[String],
        params: &Params,
    ) -> Result<Ruleset> {
        Ruleset::from_logged(home, load, packs, params, &[], "")
    }

    /// The variant of a game log's `start` record: `packs` with parameter
    /// values, each pack from the files `logged` carries for it when it
    /// carries them (see [`logged`]), else found by name. `label` names the
    /// log in errors.
    pub fn from_logged(
        home: &Home,
        load: &LoadOptions,
        packs: &[String],
        params: &Params,
        logged: &[PackFiles],
        label: &str,
    ) -> Result<Ruleset> {
        if packs.is_empty() {
            return Err(bad_input("`--packs` names at least one pack"));
        }
        let loaded = logged::load_logged(home, packs, logged, label)?;
        let checked = setting::resolve(&loaded, &setting::settings_of(params))
            .map_err(|refused| bad_input(refused.why))?;
        Ruleset::assemble(home, load, packs.join(","), loaded, &checked)
    }

    /// Either a variant or a pack list, as the command line gives them.
    pub fn select(
        home: &Home,
        load: &LoadOptions,
        variant: Option<&str>,
        packs: Option<&[String]>,
    ) -> Result<Ruleset> {
        match (variant, packs) {
            (Some(_), Some(_)) => Err(bad_input("give either --variant or --packs, not both")),
            (Some(v), None) => Ruleset::from_variant(home, load, v),
            (None, Some(p)) => Ruleset::from_packs(home, load, p),
            (None, None) => Ruleset::from_variant(home, load, "tower"),
        }
    }

    fn assemble(
        home: &Home,
        load: &LoadOptions,
        name: String,
        packs: Vec<Pack>,
        params: &Checked,
    ) -> Result<Ruleset> {
        check_pack_order(home, &packs)?;
        let floors = floor_kinds(&packs)?;
        // Tiles: the base game's, then each pack's.
        let mut tile_files = vec![home.base_tiles()?];
        tile_files.extend(packs.iter().filter_map(|p| p.tiles.clone()));
        let mut tiles = TileSet::from_sources(&tile_files)?;
        tiles.deal_against(&reference_tiles(home)?);
        let kinds: Vec<String> = floors.iter().map(|f| f.name.clone()).collect();
        let fingerprint = fingerprint_of(&tile_files, &packs, params);
        let tuned = worths::load(home.folder(), &fingerprint, kinds.len())?;
        let implementation = if let Some(native) = packs.iter().find_map(|p| p.native) {
            Implementation::Native(native.rules)
        } else {
            Implementation::Script(Arc::new(compile_scripts(load, &packs, params, &floors)?))
        };
        Ok(Ruleset {
            name,
            description: String::new(),
            pack_names: packs.iter().map(|p| p.reference.clone()).collect(),
            packs,
            players: 2,
            tiles,
            floors,
            tile_files,
            deck_factor: 1,
            checked: params.clone(),
            params: params.written(),
            origin: None,
            worths: Arc::new(tuned.as_ref().map(|t| t.worths.clone()).unwrap_or_default()),
            tuned,
            fingerprint,
            load: load.clone(),
            implementation,
        })
    }

    /// The values its bots weigh positions with, as outputs name them
    /// ([`worths::bot_values`]: `defaults`, or the tuned file).
    pub fn bot_values(&self) -> String {
        worths::bot_values(self.tuned.as_ref())
    }

    /// A rules instance for one thread.
    pub fn rules(&self) -> Box<dyn Rules> {
        match &self.implementation {
            Implementation::Native(rules) => rules(),
            Implementation::Script(s) => Box::new(ScriptRules::new(s.clone())),
        }
    }

    /// A scripted rules instance for one thread, when the variant is packs
    /// (for what only the pack host tells, such as the reads its hooks made).
    pub fn script_rules(&self) -> Option<ScriptRules> {
        match &self.implementation {
            Implementation::Native(_) => None,
            Implementation::Script(s) => Some(ScriptRules::new(s.clone())),
        }
    }

    /// The files of every pack not shipped, as a game log carries them.
    pub fn pack_files(&self) -> Vec<PackFiles> {
        self.packs.iter().filter_map(PackFiles::of).collect()
    }

    /// The compiled scripts (none for the native rules).
    pub fn scripts(&self) -> Option<&Scripts> {
        match &self.implementation {
            Implementation::Native(_) => None,
            Implementation::Script(s) => Some(s),
        }
    }

    /// The floor kind called `name`.
    pub fn floor_kind(&self, name: &str) -> Result<u8> {
        self.floors
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as u8)
            .ok_or_else(|| {
                bad_input(format!(
                    "unknown floor kind `{name}` (this variant has: {}){}",
                    self.floors
                        .iter()
                        .map(|f| f.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    did_you_mean(name, self.floors.iter().map(|f| f.name.as_str()))
                ))
            })
    }
}
