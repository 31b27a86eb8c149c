//! A game's own stack on the thread that calls it: the rules and the game
//! live in a coroutine whose stack is the one the sandbox's depth limits are
//! made for ([`HOOK_STACK`], as every thread that runs hooks has), so a call
//! switches stacks (a few instructions) where waking a thread of the game's
//! own would take a round trip through the scheduler.

use std::any::Any;
use std::thread::ThreadId;

use anyhow::{Result, anyhow};
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use towerlab::rules::script::limits::HOOK_STACK;

/// What the game's side hands back: an answer, downcast by the caller.
pub type Answer = Box<dyn Any + Send>;

/// The yielder the body of a [`Fiber`] waits on: it hands an answer back
/// and gets the next job (`None`: stop).
pub type Waiter<J> = Yielder<Option<J>, Answer>;

/// A body running on a stack of its own, resumed with jobs `J` on the
/// thread that started it.
pub struct Fiber<J: 'static> {
    coroutine: Option<Coroutine<Option<J>, Answer, Answer>>,
    owner: ThreadId,
}

// SAFETY: a coroutine may not move between threads (code on its stack may
// hold a thread-local's address across a switch). A fiber is only ever
// resumed, stopped or dropped on the thread that started it: `call` and
// `stop` refuse any other, and `drop` leaves it unfinished (leaked) there.
unsafe impl<J: 'static> Send for Fiber<J> {}

impl<J: 'static> Fiber<J> {
    /// Start `body` on a new stack and run it until it first waits; its
    /// first answer (or what it returned, if it never waited) comes back.
    pub fn start(body: impl FnOnce(&Waiter<J>) -> Answer + 'static) -> Result<(Fiber<J>, Answer)> {
        let stack = DefaultStack::new(HOOK_STACK)
            .map_err(|e| anyhow!("cannot reserve the game's stack: {e}"))?;
        let mut fiber = Fiber {
            coroutine: Some(Coroutine::with_stack(stack, move |waiter, _| body(waiter))),
            owner: std::thread::current().id(),
        };
        let first = fiber.resume(None)?;
        Ok((fiber, first))
    }

    /// Run `job` on the fiber's stack and return its answer.
    pub fn call(&mut self, job: J) -> Result<Answer> {
        self.resume(Some(job))
    }

    /// End the body (it returns once it gets no job); on another thread
    /// than the owner's, nothing happens.
    pub fn stop(&mut self) {
        if !self.on_owner() {
            return;
        }
        if self
            .coroutine
            .as_ref()
            .is_some_and(|c| c.started() && !c.done())
        {
            let _ = self.resume(None);
        }
        self.coroutine = None;
    }

    fn on_owner(&self) -> bool {
        std::thread::current().id() == self.owner
    }

    fn resume(&mut self, job: Option<J>) -> Result<Answer> {
        if !self.on_owner() {
            return Err(anyhow!(
                "this game belongs to the thread that made it: play it there, or make one on this thread"
            ));
        }
        let coroutine = self
            .coroutine
            .as_mut()
            .filter(|c| !c.done())
            .ok_or_else(|| anyhow!("the game is closed"))?;
        Ok(match coroutine.resume(job) {
            CoroutineResult::Yield(answer) | CoroutineResult::Return(answer) => answer,
        })
    }
}

impl<J: 'static> Drop for Fiber<J> {
    fn drop(&mut self) {
        if self.on_owner() {
            self.stop();
        } else if let Some(coroutine) = self.coroutine.take() {
            // Unwinding it here would run its code on a thread not its own.
            std::mem::forget(coroutine);
        }
    }
}
