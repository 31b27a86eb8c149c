//! A comparison's verdict in words, built from its values: the differences
//! that survive the multiplicity adjustment, in the order a designer asks
//! ([`Group`]: scores, who wins, what the rule does, how a game feels,
//! bookkeeping), with their intervals in the metric's units; those under a
//! metric's practical threshold apart, as detectable but small; options per
//! decision that move because a kind of decision appeared or vanished
//! apart, as such; the key metrics that did not change (balance, the first
//! seat's win share) where the interval is narrow enough to say so, the
//! skill levels at which each difference holds and any that turns around,
//! and how many games would narrow the widest key interval to a stated
//! width.
//!
//! The verdict is a value ([`Verdict`]): its `text` is written from its
//! fields, and `compare` prints it under the table, in its JSON (`verdict`)
//! and at the top of the HTML report.
//!
//! The value and its thresholds are `value`'s; weighing a comparison's
//! differences into it, `weigh`'s; its paragraph, `words`'s.
//!
//! [`Group`]: crate::analysis::practical::Group

mod value;
mod weigh;
mod words;

pub use value::{
    Change, GamesNeeded, KEY_METRICS, Level, Steady, TARGET_HALF_WIDTH, UNCHANGED_WITHIN, Verdict,
};
pub use words::thousands;
