//! The studio's workers, shared fairly between addresses: a request that
//! checks, asks or tests a pack works on one of the server's studio
//! threads (`Limits::studio_work`), and no address holds them all while
//! another may come: one address holds at most all but one of them (one,
//! when there is one). A request waits for a worker up to a time (the
//! server's read time; then it is refused, 503), and the waiting are served
//! in the order they came, among those whose address is still within its
//! share; a request whose client leaves while it waits gives up its place.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;

/// The workers, who holds them and who waits.
pub struct Workers {
    most: usize,
    state: Mutex<Held>,
    /// A worker freed, or a waiter gone: the waiting look again.
    changed: Notify,
}

#[derive(Default)]
struct Held {
    /// Workers held, by address.
    by: HashMap<IpAddr, usize>,
    busy: usize,
    /// The requests waiting, by ticket (the order they came).
    waiting: BTreeMap<u64, IpAddr>,
    next: u64,
}

/// Why a request found no worker in time (a 503's message).
#[derive(Debug)]
pub struct Busy(pub String);

/// A worker held by a request, given back when dropped.
pub struct Worker {
    workers: Arc<Workers>,
    addr: IpAddr,
}

/// A place among the waiting, given up when dropped.
struct Ticket<'w> {
    workers: &'w Workers,
    id: u64,
}

impl Workers {
    pub fn new(most: usize) -> Workers {
        Workers {
            most: most.max(1),
            state: Mutex::new(Held::default()),
            changed: Notify::new(),
        }
    }

    /// The workers one address may hold at once.
    pub fn share(&self) -> usize {
        (self.most - 1).max(1)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A worker for a request from `addr`, waiting up to `wait` for one.
    pub async fn take(self: &Arc<Self>, addr: IpAddr, wait: Duration) -> Result<Worker, Busy> {
        let ticket = self.queue(addr);
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if self.try_take(ticket.id, addr) {
                return Ok(Worker {
                    workers: self.clone(),
                    addr,
                });
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return Err(self.busy(addr));
            }
        }
    }

    fn queue(&self, addr: IpAddr) -> Ticket<'_> {
        let mut held = self.lock();
        let id = held.next;
        held.next += 1;
        held.waiting.insert(id, addr);
        Ticket { workers: self, id }
    }

    /// Take a worker for ticket `id` of `addr` if one is free, its address
    /// within its share, and no one who came before and may take one waits.
    fn try_take(&self, id: u64, addr: IpAddr) -> bool {
        let mut held = self.lock();
        let share = self.share();
        let within = |held: &Held, a: &IpAddr| held.by.get(a).copied().unwrap_or(0) < share;
        let first = held.waiting.range(..id).any(|(_, a)| within(&held, a));
        if held.busy >= self.most || !within(&held, &addr) || first {
            return false;
        }
        held.waiting.remove(&id);
        held.busy += 1;
        *held.by.entry(addr).or_default() += 1;
        true
    }

    /// Why a request from `addr` found no worker in time.
    fn busy(&self, addr: IpAddr) -> Busy {
        let held = self.lock();
        let own = held.by.get(&addr).copied().unwrap_or(0);
        Busy(if own >= self.share() && held.busy < self.most {
            format!(
                "this address has {own} studio requests at work, the most one address may hold \
                 (the rest are kept for others): try again when one has ended"
            )
        } else {
            "the studio is busy: try again in a moment".to_string()
        })
    }
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        let gone = self.workers.lock().waiting.remove(&self.id).is_some();
        if gone {
            self.workers.changed.notify_waiters();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        {
            let mut held = self.workers.lock();
            held.busy = held.busy.saturating_sub(1);
            if let Some(n) = held.by.get_mut(&self.addr) {
                *n -= 1;
                if *n == 0 {
                    held.by.remove(&self.addr);
                }
            }
        }
        self.workers.changed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    const NOW: Duration = Duration::from_millis(50);

    #[tokio::test]
    async fn one_address_keeps_a_worker_free_for_another() {
        let workers = Arc::new(Workers::new(2));
        let first = workers.take(ip(1), NOW).await.unwrap();
        // Its second request waits: the other worker is kept for others.
        let refused = workers.take(ip(1), NOW).await.err().unwrap();
        assert!(refused.0.contains("the most one address"), "{refused:?}");
        let other = workers.take(ip(2), NOW).await.unwrap();
        drop(first);
        // A worker freed goes to the address within its share.
        let again = workers.take(ip(1), NOW).await.unwrap();
        assert!(workers.take(ip(3), NOW).await.is_err());
        drop((other, again));
        assert_eq!(workers.lock().busy, 0);
        assert!(workers.lock().waiting.is_empty());
    }

    #[tokio::test]
    async fn the_waiting_are_served_in_the_order_they_came() {
        let workers = Arc::new(Workers::new(3));
        let a = workers.take(ip(1), NOW).await.unwrap();
        let b = workers.take(ip(2), NOW).await.unwrap();
        let c = workers.take(ip(3), NOW).await.unwrap();
        let w = workers.clone();
        let early = tokio::spawn(async move { w.take(ip(4), Duration::from_secs(5)).await });
        tokio::time::sleep(NOW).await;
        let w = workers.clone();
        let late = tokio::spawn(async move { w.take(ip(5), Duration::from_millis(300)).await });
        tokio::time::sleep(NOW).await;
        drop(a);
        let early = early.await.unwrap().unwrap();
        assert!(late.await.unwrap().is_err());
        drop((b, c, early));
    }

    #[test]
    fn one_worker_is_one_address_s() {
        assert_eq!(Workers::new(1).share(), 1);
        assert_eq!(Workers::new(4).share(), 3);
    }
}
