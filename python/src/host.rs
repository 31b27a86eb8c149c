//! One game played a decision at a time, for the environments: a fiber
//! with the hooks' stack holds the rules and the game (as `towerlab serve`
//! holds each game), and Python's calls are jobs run on it, on the calling
//! thread.

use anyhow::{Result, anyhow};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use towerlab::cli::{ParamArgs, RulesArgs};
use towerlab::kernel::diag::bad_input;
use towerlab::kernel::{Rules, Step};
use towerlab::play::session::{Seat, Session, Waiting};
use towerlab::play::words::{Names, option_words, tile_words};
use towerlab::rules::{Home, LoadOptions, Ruleset};
use towerlab::views::render::board_svg;
use towerlab::views::scene::{SceneOptions, game_scene, palette};

use crate::layout::{Layout, TURN_NUMBERS};
use crate::stack::{Answer, Fiber, Waiter};
use crate::{guarded, to_py};

/// What the game is, once its rules are loaded.
#[derive(Clone)]
struct Info {
    variant: String,
    packs: Vec<String>,
    floor_kinds: Vec<String>,
    tiles: Vec<String>,
    layout: Layout,
}

/// The game as the environments see it after a call.
struct Snapshot {
    /// The seat to decide, while a person is to.
    seat: Option<usize>,
    step: &'static str,
    legal: Vec<i64>,
    /// Options the kernel listed that have no action (outside the window).
    outside: usize,
    scores: Vec<u32>,
    board: Vec<i16>,
    seats: Vec<i32>,
    turn: Vec<i32>,
    failed: Option<String>,
}

/// The rules and the game, on the host's thread.
struct Worker<'a> {
    set: &'a Ruleset,
    rules: &'a dyn Rules,
    seats: Vec<Seat>,
    layout: Layout,
    session: Option<Session<'a>>,
    /// The rules failed before a session began (at the first draw).
    failed: Option<String>,
    /// The legal actions now, each with the kernel's option.
    legal: Vec<(usize, usize)>,
    /// Which actions are in `legal` (as many as the action space has).
    marked: Vec<bool>,
}

type Job = Box<dyn for<'a> FnOnce(&mut Worker<'a>) -> Answer + Send>;

/// A game of a variant with people and bots in the seats, held on a stack
/// of its own. Seats named `person` are decided from Python, on the thread
/// that made the game.
#[pyclass(module = "towerlab._towerlab")]
pub struct Host {
    fiber: Fiber<Job>,
    info: Info,
    /// Some seat is a bot: a call may play for long (the GIL is let go).
    bots: bool,
    /// The last board handed out, kept while it does not change.
    board: Option<(Vec<i16>, Py<PyBytes>)>,
}

/// The seats, loaded under `set`: `person` or a bot's name each; one name
/// for every seat, or one per seat (their number the players, unless given).
fn seat_list(set: &Ruleset, names: &[String], players: Option<u8>) -> Result<Vec<Seat>> {
    let players = match (players, names) {
        (Some(n), _) => usize::from(n),
        (None, [] | [_]) => set.players(),
        (None, many) => many.len(),
    };
    if !(2..=8).contains(&players) {
        return Err(bad_input(format!(
            "players: {players} players; a game has 2 to 8"
        )));
    }
    let names: Vec<String> = match names {
        [] => vec!["person".to_string(); players],
        [one] => vec![one.clone(); players],
        many if many.len() == players => many.to_vec(),
        many => {
            return Err(bad_input(format!(
                "seats: {} names for {players} players; give one name or one per seat",
                many.len()
            )));
        }
    };
    names
        .iter()
        .map(|n| {
            let seat = Seat::parse(n.trim())?;
            if let Seat::Bot(bot) = seat {
                bot.check_values(set)?;
            }
            Ok(seat)
        })
        .collect()
}

/// What `Host::new` was given.
struct Spec {
    variant: Option<String>,
    packs: Option<Vec<String>>,
    params: Vec<String>,
    players: Option<u8>,
    seats: Vec<String>,
    home: Option<std::path::PathBuf>,
    radius: i32,
}

fn load(spec: &Spec) -> Result<Ruleset> {
    let home = Home::locate(spec.home.as_deref())?;
    let rules = RulesArgs {
        variant: spec.variant.clone(),
        packs: spec.packs.clone(),
    };
    let set = rules.load(&home, &LoadOptions::default())?;
    ParamArgs {
        params: spec.params.clone(),
    }
    .apply(&home, set)
}

/// The game's fiber: load the rules, answer what the game is (or why it
/// cannot be), then run jobs until told to stop.
fn serve(spec: Spec, waiter: &Waiter<Job>) -> Answer {
    let loaded = guarded(|| {
        let set = load(&spec)?;
        let seats = seat_list(&set, &spec.seats, spec.players)?;
        Ok((set, seats))
    });
    let (set, seats) = match loaded {
        Ok(loaded) => loaded,
        Err(e) => return Box::new(Err::<Info, _>(e)),
    };
    let rules = set.rules();
    let layout = Layout::new(&set, seats.len(), spec.radius);
    let info = Info {
        variant: set.name().clone(),
        packs: set.pack_names().clone(),
        floor_kinds: set.floors().iter().map(|f| f.name.clone()).collect(),
        tiles: set.tiles().kinds.iter().map(|k| k.name.clone()).collect(),
        layout: layout.clone(),
    };
    let mut worker = Worker {
        set: &set,
        rules: rules.as_ref(),
        marked: vec![false; layout.size()],
        seats,
        layout,
        session: None,
        failed: None,
        legal: Vec::new(),
    };
    let mut next = waiter.suspend(Box::new(Ok::<_, anyhow::Error>(info)));
    while let Some(job) = next {
        next = waiter.suspend(job(&mut worker));
    }
    Box::new(())
}

impl<'a> Worker<'a> {
    fn reset(&mut self, seed: u64) -> Snapshot {
        self.session = None;
        self.failed = None;
        match Session::new(self.set, self.rules, &self.seats, seed) {
            Ok(session) => self.session = Some(session),
            Err(e) => self.failed = Some(format!("{e:#}")),
        }
        self.settle()
    }

    fn act(&mut self, action: usize) -> Result<Snapshot> {
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| anyhow!("no game: reset first"))?;
        let Some(&(_, option)) = self.legal.iter().find(|(a, _)| *a == action) else {
            return Err(bad_input(format!(
                "action {action} is not legal now: {}",
                self.legal_words()
            )));
        };
        // A failure of the rules ends the game with its message (below).
        if let Ok(Err(refused)) = session.choose(session.token(), option) {
            return Err(anyhow!("{refused}"));
        }
        Ok(self.settle())
    }

    /// The legal actions in words, for an error.
    fn legal_words(&self) -> String {
        match self.legal.len() {
            0 => "the game waits for no decision (it is over)".to_string(),
            n => format!(
                "{n} legal actions ({}{}); see the action mask",
                self.legal
                    .iter()
                    .take(8)
                    .map(|(a, _)| a.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                if n > 8 { ", …" } else { "" }
            ),
        }
    }

    /// Let the bots play until a person is to decide or the game ends, and
    /// list the legal actions.
    fn settle(&mut self) -> Snapshot {
        for &(a, _) in &self.legal {
            self.marked[a] = false;
        }
        self.legal.clear();
        let Some(session) = self.session.as_mut() else {
            return self.snapshot();
        };
        while let Waiting::Bot { .. } = session.waiting() {
            // A failure of the rules ends the game: `waiting` says so.
            if session.bot_turn(session.token()).is_err() {
                break;
            }
        }
        if let Waiting::Person { decision, .. } = session.waiting() {
            let game = session.game();
            for option in 0..decision.len() {
                if let Some(a) = self.layout.action(game, decision, option)
                    && !self.marked[a]
                {
                    self.marked[a] = true;
                    self.legal.push((a, option));
                }
            }
            // Ascending, as the mask's nonzero entries are.
            self.legal.sort_unstable();
        }
        self.snapshot()
    }

    fn snapshot(&self) -> Snapshot {
        let Some(session) = &self.session else {
            return Snapshot {
                seat: None,
                step: "failed",
                legal: Vec::new(),
                outside: 0,
                scores: vec![0; self.seats.len()],
                board: vec![0; self.layout.cells() * crate::layout::BOARD_CHANNELS],
                seats: vec![
                    0;
                    self.layout.players * (crate::layout::SEAT_NUMBERS + self.layout.kinds)
                ],
                turn: vec![0; TURN_NUMBERS],
                failed: self.failed.clone(),
            };
        };
        let game = session.game();
        let (seat, step, listed, failed) = match session.waiting() {
            Waiting::Person { seat, decision } => {
                (Some(seat), step_name(session), decision.len(), None)
            }
            Waiting::Bot { .. } | Waiting::Over => (None, "over", 0, None),
            Waiting::Failed(message) => (None, "failed", 0, Some(message.to_string())),
        };
        let step_number = ["placement", "ransom", "action", "capture"]
            .iter()
            .position(|s| *s == step)
            .unwrap_or(4);
        Snapshot {
            seat,
            step,
            legal: self.legal.iter().map(|(a, _)| *a as i64).collect(),
            outside: listed - self.legal.len(),
            scores: game.scores(),
            board: self.layout.board(game),
            seats: self.layout.seats(game),
            turn: vec![
                session.drawn().map_or(0, |k| i32::from(k) + 1),
                step_number as i32,
                game.current() as i32,
                game.deck_left() as i32,
            ],
            failed,
        }
    }

    /// The game in words: who is to do what, the scores, the legal actions.
    fn text(&self) -> String {
        let Some(session) = &self.session else {
            return format!(
                "the rules failed: {}",
                self.failed.as_deref().unwrap_or("no game")
            );
        };
        let game = session.game();
        let names = Names::numbered(self.seats.len());
        let mut lines = vec![format!(
            "{} — {} tiles left",
            self.set.name(),
            game.deck_left()
        )];
        for (p, player) in game.players().iter().enumerate() {
            lines.push(format!(
                "  {}: {} points, {} meeples in supply",
                names.name(p),
                player.score,
                player.meeples
            ));
        }
        match session.waiting() {
            Waiting::Person { seat, decision } => {
                if let Some(kind) = session.drawn() {
                    let tile = &self.set.tiles().kinds[usize::from(kind)];
                    lines.push(format!("drawn: {} ({})", tile.name, tile_words(tile)));
                }
                lines.push(format!(
                    "{} to decide ({}):",
                    names.name(seat),
                    step_name(session)
                ));
                for &(action, option) in &self.legal {
                    let words = option_words(decision, option, game, self.set);
                    lines.push(format!("  {action}: {}", names.say(&words)));
                }
            }
            Waiting::Bot { seat, bot } => {
                lines.push(format!("{} ({}) to play", names.name(seat), bot.name()))
            }
            Waiting::Over => lines.push("the game is over".to_string()),
            Waiting::Failed(message) => lines.push(format!("the rules failed: {message}")),
        }
        lines.join("\n")
    }

    fn svg(&self) -> Result<String> {
        let session = self
            .session
            .as_ref()
            .ok_or_else(|| anyhow!("no game: reset first"))?;
        let scene = game_scene(session.game(), self.set, &SceneOptions::default());
        Ok(board_svg(&scene, self.set.tiles(), &palette(self.set)))
    }
}

fn step_name(session: &Session) -> &'static str {
    match session.step() {
        Some(Step::Placement) => "placement",
        Some(Step::Ransom) => "ransom",
        Some(Step::Action) => "action",
        Some(Step::Capture) => "capture",
        None => "over",
    }
}

impl Host {
    /// Run `job` on the game's fiber and return its answer; with `long`,
    /// other Python threads run meanwhile.
    fn call<T: Send + 'static>(
        &mut self,
        py: Python<'_>,
        long: bool,
        job: impl for<'a> FnOnce(&mut Worker<'a>) -> Result<T> + Send + 'static,
    ) -> PyResult<T> {
        let job: Job = Box::new(move |w: &mut Worker| Box::new(guarded(|| job(w))) as Answer);
        let fiber = &mut self.fiber;
        let answer = if long {
            py.detach(move || fiber.call(job))
        } else {
            fiber.call(job)
        };
        answer
            .and_then(|a| {
                a.downcast::<Result<T>>()
                    .map_err(|_| anyhow!("the game answered out of turn"))
            })
            .and_then(|a| *a)
            .map_err(|e| to_py(&e))
    }

    fn snapshot_dict<'py>(&mut self, py: Python<'py>, s: Snapshot) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("seat", s.seat)?;
        d.set_item("step", s.step)?;
        d.set_item(
            "legal",
            PyBytes::new(py, &le_bytes(&s.legal, i64::to_le_bytes)),
        )?;
        d.set_item("mask", self.mask(py, &s.legal)?)?;
        d.set_item("outside", s.outside)?;
        d.set_item("scores", s.scores)?;
        d.set_item("board", self.board(py, s.board))?;
        d.set_item(
            "seats",
            PyBytes::new(py, &le_bytes(&s.seats, i32::to_le_bytes)),
        )?;
        d.set_item(
            "turn",
            PyBytes::new(py, &le_bytes(&s.turn, i32::to_le_bytes)),
        )?;
        d.set_item("failed", s.failed)?;
        Ok(d)
    }

    /// The action mask: a byte per action, 1 for the legal ones.
    fn mask<'py>(&self, py: Python<'py>, legal: &[i64]) -> PyResult<Bound<'py, PyBytes>> {
        PyBytes::new_with(py, self.info.layout.size(), |mask| {
            for &a in legal {
                mask[a as usize] = 1;
            }
            Ok(())
        })
    }

    /// The board's bytes: the same object as the last call's while the
    /// board has not changed.
    fn board<'py>(&mut self, py: Python<'py>, board: Vec<i16>) -> Bound<'py, PyBytes> {
        if let Some((last, bytes)) = &self.board
            && *last == board
        {
            return bytes.bind(py).clone();
        }
        let bytes = PyBytes::new(py, &le_bytes(&board, i16::to_le_bytes));
        self.board = Some((board, bytes.clone().unbind()));
        bytes
    }
}

/// Numbers as little-endian bytes, for numpy's `frombuffer`.
fn le_bytes<T: Copy, const N: usize>(values: &[T], bytes: fn(T) -> [u8; N]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * N);
    for &v in values {
        out.extend_from_slice(&bytes(v));
    }
    out
}

#[pymethods]
impl Host {
    /// The arguments are the environments' keywords, as Python passes them.
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (variant=None, packs=None, params=Vec::new(), players=None, seats=Vec::new(), home=None, radius=20))]
    fn new(
        py: Python<'_>,
        variant: Option<String>,
        packs: Option<Vec<String>>,
        params: Vec<String>,
        players: Option<u8>,
        seats: Vec<String>,
        home: Option<std::path::PathBuf>,
        radius: i32,
    ) -> PyResult<Host> {
        if !(1..=200).contains(&radius) {
            return Err(to_py(&bad_input(format!(
                "radius: {radius}; give 1 to 200 cells around the start tile"
            ))));
        }
        let spec = Spec {
            variant,
            packs,
            params,
            players,
            seats,
            home,
            radius,
        };
        let bots = spec.seats.iter().any(|s| s.trim() != "person");
        let (fiber, info) = py
            .detach(move || Fiber::start(move |waiter| serve(spec, waiter)))
            .map_err(|e| to_py(&e))?;
        let info = info
            .downcast::<Result<Info>>()
            .map_err(|_| to_py(&anyhow!("the game answered out of turn")))?;
        Ok(Host {
            fiber,
            info: (*info).map_err(|e| to_py(&e))?,
            bots,
            board: None,
        })
    }

    /// A new game dealt by `seed` (as `towerlab play --seed` deals it); the
    /// bots play until a person is to decide.
    fn reset<'py>(&mut self, py: Python<'py>, seed: u64) -> PyResult<Bound<'py, PyDict>> {
        let s = self.call(py, true, move |w| Ok(w.reset(seed)))?;
        self.snapshot_dict(py, s)
    }

    /// Take `action` (one of the legal ones); the bots play until a person
    /// is to decide. An action that is not legal raises `BadInput`.
    fn act<'py>(&mut self, py: Python<'py>, action: i64) -> PyResult<Bound<'py, PyDict>> {
        let s = self.call(py, self.bots, move |w| {
            let action = usize::try_from(action)
                .map_err(|_| bad_input(format!("action {action}: actions are 0 or more")))?;
            w.act(action)
        })?;
        self.snapshot_dict(py, s)
    }

    /// The game so far as a log (JSON Lines, docs/log.md), as `towerlab
    /// play --log` writes it.
    fn log(&mut self, py: Python<'_>) -> PyResult<String> {
        self.call(py, false, |w| match &w.session {
            Some(s) => s.log(),
            None => Err(anyhow!("no game: reset first")),
        })
    }

    /// The game in words, with the legal actions.
    fn text(&mut self, py: Python<'_>) -> PyResult<String> {
        self.call(py, false, |w| Ok(w.text()))
    }

    /// The board as SVG.
    fn svg(&mut self, py: Python<'_>) -> PyResult<String> {
        self.call(py, false, |w| w.svg())
    }

    /// End the game and free its stack (on the thread that made it).
    fn close(&mut self) {
        self.fiber.stop();
    }

    #[getter]
    fn variant(&self) -> String {
        self.info.variant.clone()
    }

    #[getter]
    fn packs(&self) -> Vec<String> {
        self.info.packs.clone()
    }

    #[getter]
    fn floor_kinds(&self) -> Vec<String> {
        self.info.floor_kinds.clone()
    }

    #[getter]
    fn tiles(&self) -> Vec<String> {
        self.info.tiles.clone()
    }

    #[getter]
    fn players(&self) -> usize {
        self.info.layout.players
    }

    #[getter]
    fn radius(&self) -> i32 {
        self.info.layout.radius
    }

    #[getter]
    fn segments(&self) -> usize {
        self.info.layout.segments
    }

    #[getter]
    fn action_size(&self) -> usize {
        self.info.layout.size()
    }

    /// The action space's blocks: (name, first action, size), in order.
    #[getter]
    fn blocks(&self) -> Vec<(&'static str, usize, usize)> {
        self.info.layout.blocks()
    }
}
