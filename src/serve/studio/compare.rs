//! The studio's comparisons: the packs sent against a variant, the same
//! deals played under both by greedy bots, in the background, with their
//! progress, a cancel, and at the end the verdict and the HTML report
//! (table, charts, what the rules did: `compare --html --fires`), made by
//! the same code as `towerlab compare`.
//!
//! Bounded: at most [`MAX_GAMES`] games a variant; one comparison running
//! per client (its address) and [`Limits::comparisons`] on the whole
//! server, each on one thread; an ended one kept readable for
//! [`KEPT_FOR`], at most [`KEPT`] of them.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;

use super::super::wire::CompareJob;
use super::super::{ApiError, Limits};
use crate::analysis::compare::{Plan, RunInfo, Tally, check, play_range, summarise};
use crate::analysis::verdict::Verdict;
use crate::play::bots::BotKind;
use crate::play::sim::hook_thread;
use crate::rules::Ruleset;
use crate::views::report;

/// The most games a variant of a studio comparison plays.
pub const MAX_GAMES: u64 = 500;
/// The fewest.
pub const MIN_GAMES: u64 = 10;
/// How long an ended comparison stays readable ...
pub const KEPT_FOR: Duration = Duration::from_secs(10 * 60);
/// ... for at most this many, the oldest dropped first.
pub const KEPT: usize = 64;
/// The deals of a studio comparison: the same for every request, so that
/// the same packs compared again give the same answer.
const SEED: u64 = 1;

/// The comparisons running and ended, by id.
pub struct Comparisons {
    jobs: Mutex<HashMap<String, Arc<Job>>>,
    running: usize,
}

struct Job {
    id: String,
    client: IpAddr,
    total: u64,
    done: AtomicU64,
    cancel: AtomicBool,
    end: Mutex<Option<(Instant, Ended)>>,
}

#[derive(Clone)]
enum Ended {
    Done {
        plain: Vec<String>,
        verdict: String,
        report: String,
    },
    Cancelled,
    Failed(String),
}

/// What a comparison plays: the variant it is measured against first.
pub struct Asked {
    pub sets: Vec<Ruleset>,
    pub games: u64,
    pub players: usize,
}

impl Comparisons {
    pub fn new(limits: &Limits) -> Comparisons {
        Comparisons {
            jobs: Mutex::new(HashMap::new()),
            running: limits.comparisons,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Job>>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Start `asked` for `client` on a thread of its own, under the id
    /// `id`; refused while the client has one running (409) or the server
    /// runs as many as it allows (503).
    pub fn start(
        self: &Arc<Self>,
        client: IpAddr,
        id: String,
        asked: Asked,
    ) -> Result<CompareJob, ApiError> {
        let job = {
            let mut jobs = self.lock();
            admit(&mut jobs, client, self.running)?;
            let job = Arc::new(Job {
                id: id.clone(),
                client,
                total: asked.games * asked.sets.len() as u64,
                done: AtomicU64::new(0),
                cancel: AtomicBool::new(false),
                end: Mutex::new(None),
            });
            jobs.insert(id, job.clone());
            job
        };
        let worker = job.clone();
        hook_thread(format!("compare-{}", job.id))
            .spawn(move || {
                let ended = play(&worker, &asked);
                *worker.end.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some((Instant::now(), ended));
            })
            .map_err(|e| ApiError::new(503, format!("no thread for the comparison: {e}")))?;
        Ok(job.state())
    }

    /// May `client` start a comparison now? Asked before its rules are
    /// loaded (and again as it starts).
    pub fn admit(&self, client: IpAddr) -> Result<(), ApiError> {
        admit(&mut self.lock(), client, self.running)
    }

    /// A comparison's state (404 when unknown or forgotten).
    pub fn state(&self, id: &str) -> Result<CompareJob, ApiError> {
        self.find(id).map(|j| j.state())
    }

    /// Cancel a comparison; only its client may (403).
    pub fn cancel(&self, id: &str, client: IpAddr) -> Result<CompareJob, ApiError> {
        let job = self.find(id)?;
        if job.client != client {
            return Err(ApiError::new(
                403,
                "only the page that started a comparison cancels it",
            ));
        }
        job.cancel.store(true, Ordering::SeqCst);
        Ok(job.state())
    }

    fn find(&self, id: &str) -> Result<Arc<Job>, ApiError> {
        let mut jobs = self.lock();
        forget_old(&mut jobs);
        jobs.get(id)
            .cloned()
            .ok_or_else(|| ApiError::new(404, format!("no comparison `{id}` (ended long ago?)")))
    }
}

/// None of `client`'s running (409), and fewer than `most` in all (503).
fn admit(
    jobs: &mut HashMap<String, Arc<Job>>,
    client: IpAddr,
    most: usize,
) -> Result<(), ApiError> {
    forget_old(jobs);
    let running: Vec<&Arc<Job>> = jobs.values().filter(|j| j.ended().is_none()).collect();
    if let Some(mine) = running.iter().find(|j| j.client == client) {
        return Err(ApiError::new(
            409,
            format!(
                "a comparison of yours is running (`{}`): one at a time; cancel it or wait for its end",
                mine.id
            ),
        ));
    }
    if running.len() >= most {
        return Err(ApiError::new(
            503,
            format!(
                "the server runs {} comparisons already, the most it allows: try again later",
                running.len()
            ),
        ));
    }
    Ok(())
}

/// Ended comparisons older than [`KEPT_FOR`], and past [`KEPT`], dropped.
fn forget_old(jobs: &mut HashMap<String, Arc<Job>>) {
    jobs.retain(|_, j| j.ended().is_none_or(|(at, _)| at.elapsed() < KEPT_FOR));
    let mut ended: Vec<(Instant, String)> = jobs
        .values()
        .filter_map(|j| j.ended().map(|(at, _)| (at, j.id.clone())))
        .collect();
    ended.sort();
    let past = ended.len().saturating_sub(KEPT);
    for (_, id) in ended.into_iter().take(past) {
        jobs.remove(&id);
    }
}

impl Job {
    fn ended(&self) -> Option<(Instant, Ended)> {
        self.end.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn state(&self) -> CompareJob {
        let (status, plain, verdict, report, error) = match self.ended().map(|(_, e)| e) {
            None => ("running", None, None, None, None),
            Some(Ended::Done {
                plain,
                verdict,
                report,
            }) => ("done", Some(plain), Some(verdict), Some(report), None),
            Some(Ended::Cancelled) => ("cancelled", None, None, None, None),
            Some(Ended::Failed(why)) => ("failed", None, None, None, Some(why)),
        };
        CompareJob {
            id: self.id.clone(),
            status: status.to_string(),
            done: self.done.load(Ordering::SeqCst).min(self.total),
            total: self.total,
            plain,
            verdict,
            report,
            error,
        }
    }
}

/// Games of each variant played between two looks at a cancel.
const PIECE: u64 = 10;

/// Play the comparison a piece at a time (the pieces' games kept in index
/// order, as a sharded run's are), stopping at the next piece once it is
/// cancelled.
fn play(job: &Job, asked: &Asked) -> Ended {
    let bots = vec![BotKind::GREEDY; asked.players];
    let plan = Plan {
        sets: &asked.sets,
        bots: &bots,
        games: asked.games,
        seed: SEED,
        threads: 1,
        log: false,
        fires: true,
    };
    let progress = |_| {
        job.done.fetch_add(1, Ordering::SeqCst);
    };
    let played = (|| -> Result<Option<Tally>> {
        check(&plan)?;
        let mut tally = Tally::default();
        let mut start = 0;
        while start < plan.games {
            if job.cancel.load(Ordering::SeqCst) {
                return Ok(None);
            }
            let end = (start + PIECE).min(plan.games);
            tally.extend(play_range(&plan, start..end, &progress, &mut |_| Ok(()))?);
            start = end;
        }
        Ok(Some(tally))
    })();
    match played {
        Ok(None) => Ended::Cancelled,
        Ok(Some(tally)) => {
            let comparison = summarise(&RunInfo::of(&plan), tally);
            let verdict = Verdict::of(&comparison);
            Ended::Done {
                plain: super::plain::plain(&verdict, plan.games),
                verdict: report::without_options(&verdict.text),
                report: report::html_for(&comparison, &[], report::Reader::Browser),
            }
        }
        Err(e) => Ended::Failed(format!("{e:#}")),
    }
}

/// The games asked, within [`MIN_GAMES`] and [`MAX_GAMES`].
pub fn games_within(games: u64) -> Result<u64> {
    if (MIN_GAMES..=MAX_GAMES).contains(&games) {
        Ok(games)
    } else {
        Err(crate::kernel::diag::bad_input(format!(
            "{games} games: a studio comparison plays {MIN_GAMES} to {MAX_GAMES} games a variant \
             (`towerlab compare` plays more)"
        )))
    }
}
