//! A game played one decision at a time, with people and bots in the seats:
//! the kernel's [`Turn`] steps, paused whenever a person is to answer. Each
//! question the game waits for carries a token; an answer must name the
//! waiting question's token and one of the options the kernel listed, so a
//! stale or forged answer is refused and changes nothing.

use anyhow::{Result, anyhow};

use crate::kernel::{Bot, Buffers, Decision, Game, Step, Turn};
use crate::play::bots::BotKind;
use crate::play::log;
use crate::play::spared::{floor_event, spared_by};
use crate::play::words::{Told, Words, option_words};
use crate::rules::Ruleset;

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, answering through [`Session::choose`].
    Person,
    Bot(BotKind),
}

impl Seat {
    /// `person`, or a bot's name (as [`BotKind::parse`] reads it).
    pub fn parse(name: &str) -> Result<Seat> {
        match name {
            "person" => Ok(Seat::Person),
            _ => BotKind::parse(name).map(Seat::Bot),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Seat::Person => "person",
            Seat::Bot(b) => b.name(),
        }
    }
}

/// What the game waits for.
#[derive(Clone, Copy, Debug)]
pub enum Waiting<'s> {
    /// A person in `seat` to answer `decision`.
    Person { seat: usize, decision: Decision<'s> },
    /// The bot in `seat` to play its turn ([`Session::bot_turn`]).
    Bot { seat: usize, bot: BotKind },
    /// Nothing: the game is over and scored.
    Over,
    /// Nothing: the rules failed (a hook's error), with this message.
    Failed(&'s str),
}

/// Why an answer was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The token names a question that is no longer waiting.
    Stale { token: u64, waiting: u64 },
    /// No such option in the list.
    NoOption { option: usize, options: usize },
    /// The game waits for a bot, or for nothing.
    NotAPersonsTurn,
    /// The game waits for a person, or for nothing.
    NotABotsTurn,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Refusal::Stale { token, waiting } => write!(
                f,
                "stale decision: token {token} was answered already; the game waits for token {waiting}"
            ),
            Refusal::NoOption { option, options } => write!(
                f,
                "no option {option}: the rules allow options 0 to {} here",
                options.saturating_sub(1)
            ),
            Refusal::NotAPersonsTurn => write!(f, "no person is to decide now"),
            Refusal::NotABotsTurn => write!(f, "no bot is to play now"),
        }
    }
}

/// A question answered: by which seat, its kind, and the option taken in
/// words (as a person would have seen it listed), its seats named when
/// said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answered {
    pub seat: usize,
    pub step: Step,
    pub words: Words,
}

/// A game in progress between people and bots.
pub struct Session<'a> {
    set: &'a Ruleset,
    game: Game<'a>,
    seed: u64,
    seats: Vec<Seat>,
    bots: Vec<Option<Box<dyn Bot>>>,
    buf: Buffers,
    turn: Option<Turn>,
    token: u64,
    failed: Option<String>,
    last: Option<Answered>,
    spared: Vec<(usize, Told)>,
}

impl<'a> Session<'a> {
    /// A new game under `set` (asking `rules`, one of its instances) with
    /// these seats, dealt by `seed` as `simulate` deals game seeds (the same
    /// seed gives the same deck in every variant).
    pub fn new(
        set: &'a Ruleset,
        rules: &'a dyn crate::kernel::Rules,
        seats: &[Seat],
        seed: u64,
    ) -> Result<Self> {
        let mut game = Game::new(set.tiles(), rules, seats.len(), seed)?;
        game.record_events();
        let bots = seats
            .iter()
            .enumerate()
            .map(|(i, s)| match s {
                Seat::Person => None,
                Seat::Bot(b) => Some(b.make(seed, i, set.worths())),
            })
            .collect();
        let mut session = Session {
            set,
            game,
            seed,
            seats: seats.to_vec(),
            bots,
            buf: Buffers::default(),
            turn: None,
            token: 0,
            failed: None,
            last: None,
            spared: Vec::new(),
        };
        session.begin_turn()?;
        Ok(session)
    }

    pub fn game(&self) -> &Game<'a> {
        &self.game
    }

    pub fn ruleset(&self) -> &'a Ruleset {
        self.set
    }

    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The token of the question waiting (it changes with every answer).
    pub fn token(&self) -> u64 {
        self.token
    }

    /// The question answered last, by a person or a bot.
    pub fn last_answered(&self) -> Option<&Answered> {
        self.last.as_ref()
    }

    /// The meeples each floor placed so far reached and the rules spared
    /// (`play::spared`), oldest first: the index in [`Game::events`] of
    /// the floor's event, and the spared meeple told as an event. The log
    /// keeps no record of them: they are found as each floor is placed.
    pub fn spared(&self) -> &[(usize, Told)] {
        &self.spared
    }

    /// The tile kind drawn this turn, while the turn goes on.
    pub fn drawn(&self) -> Option<u16> {
        self.turn.and_then(|t| t.tile())
    }

    /// The question of the turn the game waits for, while the turn goes on.
    pub fn step(&self) -> Option<Step> {
        self.turn.map(|t| t.step())
    }

    /// What the game waits for.
    pub fn waiting(&self) -> Waiting<'_> {
        if let Some(message) = &self.failed {
            return Waiting::Failed(message);
        }
        let Some(turn) = &self.turn else {
            return Waiting::Over;
        };
        let seat = self.game.current();
        match self.seats[seat] {
            Seat::Person => Waiting::Person {
                seat,
                decision: turn.decision(&self.buf),
            },
            Seat::Bot(bot) => Waiting::Bot { seat, bot },
        }
    }

    /// A person's answer: option `option` of the question with `token`.
    /// Refused (and nothing changes) unless a person is to decide, the token
    /// is the waiting one and the option is listed. `Ok(Err(_))` is a
    /// refusal; `Err` is a failure of the rules, which ends the game.
    pub fn choose(&mut self, token: u64, option: usize) -> Result<Result<(), Refusal>> {
        let options = match self.waiting() {
            Waiting::Person { decision, .. } => decision.len(),
            _ => return Ok(Err(Refusal::NotAPersonsTurn)),
        };
        if token != self.token {
            return Ok(Err(Refusal::Stale {
                token,
                waiting: self.token,
            }));
        }
        if option >= options {
            return Ok(Err(Refusal::NoOption { option, options }));
        }
        self.apply(option)?;
        Ok(Ok(()))
    }

    /// The bot whose turn it is plays its whole turn; `token` must be the
    /// waiting one.
    pub fn bot_turn(&mut self, token: u64) -> Result<Result<(), Refusal>> {
        self.bot_steps(token, usize::MAX)
    }

    /// The bot whose turn it is answers the question its turn waits for
    /// (placing the tile, a ransom, an action or a capture), and the game
    /// waits again: a turn shown one step at a time. `token` must be the
    /// waiting one.
    pub fn bot_step(&mut self, token: u64) -> Result<Result<(), Refusal>> {
        self.bot_steps(token, 1)
    }

    /// The bot to play answers up to `steps` questions of its turn.
    fn bot_steps(&mut self, token: u64, steps: usize) -> Result<Result<(), Refusal>> {
        let Waiting::Bot { seat, .. } = self.waiting() else {
            return Ok(Err(Refusal::NotABotsTurn));
        };
        if token != self.token {
            return Ok(Err(Refusal::Stale {
                token,
                waiting: self.token,
            }));
        }
        for _ in 0..steps {
            let Some(turn) = &self.turn else { break };
            let decision = turn.decision(&self.buf);
            let bot = self.bots[seat]
                .as_mut()
                .ok_or_else(|| anyhow!("seat {seat} has no bot"))?;
            let option = bot.decide(&self.game, decision).map_err(|e| self.fail(e))?;
            if self.apply(option)? {
                break;
            }
        }
        Ok(Ok(()))
    }

    /// Apply an option the kernel listed; a turn that ends begins the next
    /// (and `true` says so).
    fn apply(&mut self, option: usize) -> Result<bool> {
        let Some(mut turn) = self.turn else {
            return Err(anyhow!("the game is over"));
        };
        let answered = Answered {
            seat: self.game.current(),
            step: turn.step(),
            words: option_words(turn.decision(&self.buf), option, &self.game, self.set),
        };
        let spared = self.spared_by(turn.decision(&self.buf), option);
        let before = self.game.events().len();
        match turn.choose(&mut self.game, &mut self.buf, option) {
            Ok(done) => {
                if let Some(event) = floor_event(&self.game, before) {
                    self.spared.extend(spared.into_iter().map(|w| (event, w)));
                }
                self.turn = Some(turn);
                self.token += 1;
                self.last = Some(answered);
                if done {
                    self.begin_turn()?;
                }
                Ok(done)
            }
            Err(e) => Err(self.fail(e)),
        }
    }

    /// What option `option` of `decision` leaves spared, when it places a
    /// floor (asked before it is taken, on a copy of the game). A failure
    /// of the rules on the copy says nothing here: the option itself then
    /// fails the same way.
    fn spared_by(&self, decision: Decision, option: usize) -> Vec<Told> {
        let Decision::Action(actions) = decision else {
            return Vec::new();
        };
        actions
            .get(option)
            .and_then(|&a| spared_by(&self.game, self.set, a).ok())
            .unwrap_or_default()
    }

    /// Draw the next tile, or score the game when the deck is empty.
    fn begin_turn(&mut self) -> Result<()> {
        let begun = Turn::begin(&mut self.game, &mut self.buf);
        self.turn = begun.map_err(|e| self.fail(e))?;
        if self.turn.is_none() {
            self.game.final_scoring().map_err(|e| self.fail(e))?;
        }
        Ok(())
    }

    /// The rules failed: the game ends with this error.
    fn fail(&mut self, e: anyhow::Error) -> anyhow::Error {
        self.failed = Some(format!("{e:#}"));
        self.turn = None;
        e
    }

    /// The game's log so far as JSON Lines (docs/log.md), game 0 of a run
    /// whose seed is this game's: `towerlab replay` plays it again and
    /// `towerlab render --log` draws it.
    pub fn log(&self) -> Result<String> {
        log::game_log(self.set, 0, self.seed, &self.game)
    }
}
