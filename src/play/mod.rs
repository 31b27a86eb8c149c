//! Layer 2, play: games from seeds, with bots in the seats, one or many in
//! parallel; their logs and replays; test games of a pack (`check`) and range
//! questions on a board file; what each pack hook costs a game (`cost`); the meeples a rule spared a floor's capture
//! (`spared`); how a game unfolded (`course`); a game's
//! events in words (`words`); parameter values set over a ruleset's own
//! (`params`).

pub mod bots;
pub mod check;
pub mod cost;
pub mod course;
pub mod log;
pub mod params;
pub mod query;
pub mod replay;
pub mod scenario;
pub mod seed;
pub mod session;
pub mod sim;
pub mod spared;
pub mod tune;
pub mod words;
