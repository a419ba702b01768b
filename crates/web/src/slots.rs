//! A bound on the analyses that search at once: the infinite analyses and the game analyses started
//! over WebSockets. Beyond the bound (by default the number of cores) a request waits in a queue, first
//! come first served, without a thread; it starts when a running analysis ends (stopped, or its socket
//! gone). A waiting request that is stopped leaves the queue at once.
//!
//! Without the bound, 50 endless analyses on 2 cores left the server's runtime and the games' engine
//! threads a small share of the CPU: move requests took seconds (docs/reliability.md, issue 24).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::lock;

/// Work that needs a slot: `run` on its own thread once it has one, or `not_run` if it never will
/// (`None`: stopped while waiting; `Some(error)`: its thread could not start).
pub struct Job {
    /// The thread's name.
    pub name: String,
    /// Raised when the job is no longer wanted; a waiting job so marked is dropped.
    pub stop: Arc<AtomicBool>,
    pub run: Box<dyn FnOnce() + Send>,
    pub not_run: Box<dyn FnOnce(Option<String>) + Send>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job").field("name", &self.name).field("stop", &self.stop).finish_non_exhaustive()
    }
}

/// How a job was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Started {
    /// On its thread now.
    Running,
    /// Waiting: `ahead` jobs wait before it.
    Queued { ahead: usize },
}

#[derive(Debug, Default)]
struct Inner {
    running: usize,
    queue: VecDeque<Job>,
}

/// The slots (see the module documentation).
#[derive(Debug)]
pub struct AnalysisSlots {
    max: usize,
    inner: Mutex<Inner>,
}

impl AnalysisSlots {
    /// At most `max` (at least 1) jobs running at once.
    pub fn new(max: usize) -> Arc<AnalysisSlots> {
        Arc::new(AnalysisSlots { max: max.max(1), inner: Mutex::new(Inner::default()) })
    }

    /// The default bound: the number of cores (`std::thread::available_parallelism`, 1 if unknown).
    pub fn default_max() -> usize {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    }

    pub fn max(&self) -> usize {
        self.max
    }

    /// Jobs holding a slot (their threads running, or about to start).
    pub fn running(&self) -> usize {
        lock(&self.inner).running
    }

    /// Jobs waiting for a slot.
    pub fn waiting(&self) -> usize {
        lock(&self.inner).queue.len()
    }

    /// Starts `job` on its own thread if a slot is free, else queues it; `queued(running, ahead)` is
    /// then called before anything else can happen to the job (under the lock), so that a notice it
    /// sends comes before anything the job sends. An error: no thread could be started (nothing queued).
    pub fn start(self: &Arc<Self>, job: Job, queued: impl FnOnce(usize, usize)) -> Result<Started, String> {
        {
            let mut inner = lock(&self.inner);
            let dropped = take_stopped(&mut inner.queue);
            if inner.running >= self.max {
                let ahead = inner.queue.len();
                queued(inner.running, ahead);
                inner.queue.push_back(job);
                drop(inner);
                run_not_run(dropped);
                return Ok(Started::Queued { ahead });
            }
            inner.running += 1;
            drop(inner);
            run_not_run(dropped);
        }
        // On an error the slot is back already (the thread's `Slot` dropped with its closure).
        let Job { name, run, .. } = job;
        self.spawn(name, run).map(|()| Started::Running)
    }

    /// Drops the waiting jobs whose stop flag is raised (each told through `not_run(None)`).
    pub fn drop_stopped(&self) {
        let dropped = take_stopped(&mut lock(&self.inner).queue);
        run_not_run(dropped);
    }

    /// Runs `run` on a thread holding a slot, which it passes on when it ends (or panics).
    fn spawn(self: &Arc<Self>, name: String, run: Box<dyn FnOnce() + Send>) -> Result<(), String> {
        let slot = Slot(self.clone());
        std::thread::Builder::new()
            .name(name)
            .spawn(move || {
                let _slot = slot;
                run();
            })
            .map(|_| ())
            .map_err(|e| format!("cannot start the analysis: {e}"))
    }

    /// A slot is free: the first waiting job that is still wanted gets it, else it is counted free.
    fn release(self: &Arc<Self>) {
        let (next, dropped) = {
            let mut inner = lock(&self.inner);
            let dropped = take_stopped(&mut inner.queue);
            let next = inner.queue.pop_front();
            if next.is_none() {
                inner.running = inner.running.saturating_sub(1);
            }
            (next, dropped)
        };
        run_not_run(dropped);
        let Some(Job { name, run, not_run, .. }) = next else { return };
        // On an error the slot has gone on to the next job already (the `Slot` dropped with the closure).
        if let Err(e) = self.spawn(name, run) {
            not_run(Some(e));
        }
    }
}

/// Held by a running job's thread; gives the slot back when dropped.
struct Slot(Arc<AnalysisSlots>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.release();
    }
}

fn take_stopped(queue: &mut VecDeque<Job>) -> Vec<Job> {
    if !queue.iter().any(|j| j.stop.load(Ordering::Relaxed)) {
        return Vec::new();
    }
    let (stopped, kept): (Vec<Job>, Vec<Job>) = queue.drain(..).partition(|j| j.stop.load(Ordering::Relaxed));
    queue.extend(kept);
    stopped
}

fn run_not_run(jobs: Vec<Job>) {
    for job in jobs {
        (job.not_run)(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// A job that reports its start and then waits until told to end.
    fn job(name: &str, events: &mpsc::Sender<String>) -> (Job, Arc<AtomicBool>, mpsc::Sender<()>) {
        let stop = Arc::new(AtomicBool::new(false));
        let (end_tx, end_rx) = mpsc::channel::<()>();
        let (n1, n2) = (name.to_string(), name.to_string());
        let (e1, e2) = (events.clone(), events.clone());
        let job = Job {
            name: "slots-test".into(),
            stop: stop.clone(),
            run: Box::new(move || {
                let _ = e1.send(format!("{n1} runs"));
                let _ = end_rx.recv();
                let _ = e1.send(format!("{n1} ends"));
            }),
            not_run: Box::new(move |e| {
                let _ = e2.send(format!("{n2} not run {e:?}"));
            }),
        };
        (job, stop, end_tx)
    }

    #[test]
    fn beyond_the_bound_jobs_wait_in_order_and_take_the_freed_slots() {
        let slots = AnalysisSlots::new(2);
        let (events, seen) = mpsc::channel();
        let (a, _, end_a) = job("a", &events);
        let (b, _, end_b) = job("b", &events);
        let (c, _, end_c) = job("c", &events);
        let (d, _, end_d) = job("d", &events);
        assert_eq!(slots.start(a, |_, _| panic!("a queued")), Ok(Started::Running));
        assert_eq!(slots.start(b, |_, _| panic!("b queued")), Ok(Started::Running));
        let mut notices = Vec::new();
        assert_eq!(slots.start(c, |r, q| notices.push((r, q))), Ok(Started::Queued { ahead: 0 }));
        assert_eq!(slots.start(d, |r, q| notices.push((r, q))), Ok(Started::Queued { ahead: 1 }));
        assert_eq!(notices, [(2, 0), (2, 1)]);
        assert_eq!((slots.running(), slots.waiting()), (2, 2));
        let mut first_two = [seen.recv().expect("event"), seen.recv().expect("event")];
        first_two.sort();
        assert_eq!(first_two, ["a runs", "b runs"]);
        // b ends: its slot goes to c (first in the queue), not d
        end_b.send(()).expect("b waits");
        assert_eq!(seen.recv().expect("event"), "b ends");
        assert_eq!(seen.recv().expect("event"), "c runs");
        assert_eq!((slots.running(), slots.waiting()), (2, 1));
        end_a.send(()).expect("a waits");
        assert_eq!(seen.recv().expect("event"), "a ends");
        assert_eq!(seen.recv().expect("event"), "d runs");
        assert_eq!((slots.running(), slots.waiting()), (2, 0));
        end_c.send(()).expect("c waits");
        end_d.send(()).expect("d waits");
        let mut last = [seen.recv().expect("event"), seen.recv().expect("event")];
        last.sort();
        assert_eq!(last, ["c ends", "d ends"]);
        // the slots come back once the threads have ended
        while slots.running() > 0 {
            std::thread::yield_now();
        }
        let (e, _, end_e) = job("e", &events);
        assert_eq!(slots.start(e, |_, _| panic!("e queued")), Ok(Started::Running));
        assert_eq!(seen.recv().expect("event"), "e runs");
        drop(end_e);
        assert_eq!(seen.recv().expect("event"), "e ends");
    }

    #[test]
    fn a_waiting_job_that_is_stopped_leaves_the_queue_at_once() {
        let slots = AnalysisSlots::new(1);
        let (events, seen) = mpsc::channel();
        let (a, _, end_a) = job("a", &events);
        let (b, stop_b, _end_b) = job("b", &events);
        let (c, _, end_c) = job("c", &events);
        assert_eq!(slots.start(a, |_, _| {}), Ok(Started::Running));
        assert_eq!(seen.recv().expect("event"), "a runs");
        assert_eq!(slots.start(b, |_, _| {}), Ok(Started::Queued { ahead: 0 }));
        assert_eq!(slots.start(c, |_, _| {}), Ok(Started::Queued { ahead: 1 }));
        stop_b.store(true, Ordering::Relaxed);
        slots.drop_stopped();
        assert_eq!(seen.recv().expect("event"), "b not run None");
        assert_eq!((slots.running(), slots.waiting()), (1, 1));
        // a's slot goes to c; b never runs
        end_a.send(()).expect("a waits");
        assert_eq!(seen.recv().expect("event"), "a ends");
        assert_eq!(seen.recv().expect("event"), "c runs");
        end_c.send(()).expect("c waits");
        assert_eq!(seen.recv().expect("event"), "c ends");
        while slots.running() > 0 {
            std::thread::yield_now();
        }
        assert_eq!(slots.waiting(), 0);
        assert!(seen.try_recv().is_err());
    }

    #[test]
    fn a_panicking_job_gives_its_slot_back() {
        let slots = AnalysisSlots::new(1);
        let (events, seen) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let panicking = Job {
            name: "slots-test".into(),
            stop,
            run: Box::new(|| panic!("a bug in the search")),
            not_run: Box::new(|_| {}),
        };
        assert_eq!(slots.start(panicking, |_, _| {}), Ok(Started::Running));
        let (b, _, end_b) = job("b", &events);
        // queued behind the panicking job, or running if that one has already ended
        let _ = slots.start(b, |_, _| {});
        assert_eq!(seen.recv().expect("event"), "b runs");
        drop(end_b);
        assert_eq!(seen.recv().expect("event"), "b ends");
        assert_eq!(AnalysisSlots::new(0).max(), 1);
        assert!(AnalysisSlots::default_max() >= 1);
    }
}
