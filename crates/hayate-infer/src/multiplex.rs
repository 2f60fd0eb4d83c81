//! Many searchers, one network: lc0's multiplexing backend (`network_mux.cc`). Each self-play
//! game searches on its own thread with its own small [`Batch`]; on a CPU one game's batches
//! are too small to use the network well, so a [`Multiplexer`] runs the network on one
//! inference thread and combines the batches of all its [`MuxClient`]s into one call.
//!
//! After the first request arrives, the inference thread keeps gathering until
//! - the positions gathered reach `max_batch` (a request that would go past it waits for the
//!   next call; a request larger than `max_batch` runs alone), or
//! - every live client has a request waiting (nobody can add more), or
//! - `max_wait` has passed since the first request,
//!
//! then evaluates everything in one call and sends each client its positions' outputs.
//! A client is a [`Backend`], so a player that takes a `Box<dyn Backend>` uses one unchanged.

use crate::backend::{Backend, BackendError, NetKind};
use crate::batch::{Batch, Layout, POLICY_LEN, copy_outputs};
use hayate_nn::novice::NoviceConfig;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What a client gets when the inference thread is gone (it could not start, or the backend
/// panicked).
const STOPPED: &str = "the multiplexer's inference thread has stopped";

/// Counts of the network calls made so far (see [`Multiplexer::stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MuxStats {
    /// Calls of the shared backend, failed ones included.
    pub calls: u64,
    /// Positions over all those calls.
    pub positions: u64,
}

impl MuxStats {
    /// Positions per network call (0 before the first call).
    pub fn mean_batch(&self) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            self.positions as f64 / self.calls as f64
        }
    }
}

/// The statistics, shared by the inference thread (writer) and the [`Multiplexer`] (reader).
#[derive(Debug, Default)]
struct Counters {
    calls: AtomicU64,
    positions: AtomicU64,
}

/// A client's buffers, lent to the inference thread for one request and handed back with the
/// answer, so that no evaluation allocates once the sizes have been seen.
#[derive(Debug)]
struct Slot {
    /// `input1` of the request's positions.
    input1: Vec<f32>,
    /// `input2` of the request's positions.
    input2: Vec<f32>,
    /// The side to move's draw value of each position (for win/draw/loss networks).
    draw: Vec<f32>,
    /// Policy logits written back, `POLICY_LEN` per position.
    policy: Vec<f32>,
    /// Values written back, one per position.
    value: Vec<f32>,
    /// Where the answer goes. Only the slot holds this sender, so when the inference thread
    /// dies holding the slot, the client's receiver sees a disconnection instead of hanging.
    reply: Sender<Reply>,
}

impl Slot {
    /// Empty buffers and a fresh reply channel; returns the receiver of that channel too.
    fn new() -> (Slot, Receiver<Reply>) {
        let (reply, replies) = mpsc::channel();
        let slot = Slot {
            input1: Vec::new(),
            input2: Vec::new(),
            draw: Vec::new(),
            policy: Vec::new(),
            value: Vec::new(),
            reply,
        };
        (slot, replies)
    }
}

/// One client's positions to evaluate.
#[derive(Debug)]
struct Request {
    /// The inputs (and, on return, the outputs).
    slot: Slot,
    /// How many positions the inputs hold.
    positions: usize,
}

/// What the inference thread hears from clients.
#[derive(Debug)]
enum Message {
    /// Positions to evaluate; the client blocks until the answer.
    Request(Request),
    /// A client was dropped: recount the live clients.
    Left,
}

/// The answer to a [`Request`]: its slot back, with the outputs on success.
#[derive(Debug)]
struct Reply {
    slot: Slot,
    result: Result<(), String>,
}

/// One backend shared by many [`MuxClient`]s through an inference thread that combines their
/// batches. The thread runs while the multiplexer or any client lives: dropping the
/// multiplexer with no clients left joins it; clients that outlive the multiplexer keep it
/// serving until the last one is dropped.
#[derive(Debug)]
pub struct Multiplexer {
    /// Cloned into each client; replaced by a dead sender on drop.
    requests: Sender<Message>,
    /// The inference thread (`None` when it could not be started).
    thread: Option<JoinHandle<()>>,
    /// Clients alive now.
    live: Arc<AtomicUsize>,
    counters: Arc<Counters>,
    /// The clients' name.
    name: String,
    /// The network's inputs.
    kind: NetKind,
}

impl Multiplexer {
    /// Starts the inference thread (`hayate-mux`), which owns `backend`. A call gathers up to
    /// `max_batch` positions (at least 1) and waits at most `max_wait` after the first request
    /// for more (`Duration::ZERO`: only what is already queued; `Duration::MAX`: until the
    /// batch is full or every live client waits).
    ///
    /// If the thread cannot be started, every client's evaluation fails with
    /// [`BackendError::Run`].
    pub fn new(backend: Box<dyn Backend>, max_batch: usize, max_wait: Duration) -> Multiplexer {
        let (requests, inbox) = mpsc::channel();
        let live = Arc::new(AtomicUsize::new(0));
        let counters = Arc::new(Counters::default());
        let name = format!("multiplexed {}", backend.name());
        let kind = backend.kind();
        let layout = match kind {
            NetKind::Dlshogi => Layout::Dlshogi,
            // The clients' features already hold their games' settings.
            NetKind::Novice => Layout::Novice(NoviceConfig::default()),
            NetKind::Prelude => Layout::Prelude,
        };
        let server = Server {
            backend,
            inbox,
            live: Arc::clone(&live),
            counters: Arc::clone(&counters),
            max_batch: max_batch.max(1),
            max_wait,
            batch: Batch::with_layout(1, layout),
            round: Vec::new(),
            held: None,
        };
        // On failure the closure, with the inbox, is dropped: clients' sends then fail.
        let thread = std::thread::Builder::new()
            .name("hayate-mux".to_string())
            .spawn(move || server.serve())
            .ok();
        Multiplexer {
            requests,
            thread,
            live,
            counters,
            name,
            kind,
        }
    }

    /// A new client of the shared backend, for one searcher. Drop it when its searcher is
    /// done: the inference thread waits for every live client before it calls the network
    /// early, so an idle client that stays alive makes every call wait `max_wait`.
    pub fn client(&self) -> MuxClient {
        self.live.fetch_add(1, Ordering::SeqCst);
        let (slot, replies) = Slot::new();
        MuxClient {
            requests: self.requests.clone(),
            replies,
            slot: Some(slot),
            live: Arc::clone(&self.live),
            name: self.name.clone(),
            kind: self.kind,
        }
    }

    /// Network calls and positions so far; `mean_batch()` is the mean call size.
    pub fn stats(&self) -> MuxStats {
        MuxStats {
            calls: self.counters.calls.load(Ordering::Relaxed),
            positions: self.counters.positions.load(Ordering::Relaxed),
        }
    }
}

impl Drop for Multiplexer {
    fn drop(&mut self) {
        // Drop our sender so that the thread ends once the clients' senders are gone too.
        let (dead, _) = mpsc::channel();
        drop(std::mem::replace(&mut self.requests, dead));
        // With clients alive the thread keeps serving them, detached; joining here could
        // deadlock when this thread owns one of them.
        if self.live.load(Ordering::SeqCst) == 0
            && let Some(thread) = self.thread.take()
        {
            // A panicked thread has already failed its clients; nothing more to report.
            let _ = thread.join();
        }
    }
}

/// One searcher's handle on a [`Multiplexer`]: a [`Backend`] whose `evaluate` sends the
/// batch's inputs to the inference thread and blocks until that call's outputs come back.
#[derive(Debug)]
pub struct MuxClient {
    requests: Sender<Message>,
    /// Answers to this client; pairs with the sender in `slot`.
    replies: Receiver<Reply>,
    /// The buffers, `None` while lent out or after the inference thread lost them.
    slot: Option<Slot>,
    live: Arc<AtomicUsize>,
    name: String,
    kind: NetKind,
}

impl MuxClient {
    /// The client's buffers, new ones (and a new reply channel) if they were lost.
    fn take_slot(&mut self) -> Slot {
        match self.slot.take() {
            Some(slot) => slot,
            None => {
                let (slot, replies) = Slot::new();
                self.replies = replies;
                slot
            }
        }
    }
}

/// Replaces `to`'s contents with `from`, keeping its allocation.
fn refill(to: &mut Vec<f32>, from: &[f32]) {
    to.clear();
    to.extend_from_slice(from);
}

/// Copies a reply's outputs for `n` positions into `batch`.
fn copy_back(slot: &Slot, batch: &mut Batch, n: usize) -> Result<(), BackendError> {
    let short = || BackendError::Run("the batch's output buffers are too small".to_string());
    let policy = batch.policy.get_mut(..n * POLICY_LEN).ok_or_else(short)?;
    let value = batch.value.get_mut(..n).ok_or_else(short)?;
    copy_outputs((&slot.policy, &slot.value), (policy, value))
}

impl Backend for MuxClient {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn kind(&self) -> NetKind {
        self.kind
    }

    fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
        let positions = batch.len();
        if positions == 0 {
            return Ok(());
        }
        let stopped = || BackendError::Run(STOPPED.to_string());
        let mut slot = self.take_slot();
        refill(&mut slot.input1, batch.input1_used());
        refill(&mut slot.input2, batch.input2_used());
        refill(&mut slot.draw, &batch.draw_value[..positions]);
        self.requests
            .send(Message::Request(Request { slot, positions }))
            .map_err(|_| stopped())?;
        let Reply { slot, result } = self.replies.recv().map_err(|_| stopped())?;
        let copied = result
            .map_err(BackendError::Run)
            .and_then(|()| copy_back(&slot, batch, positions));
        self.slot = Some(slot);
        copied
    }
}

impl Drop for MuxClient {
    fn drop(&mut self) {
        self.live.fetch_sub(1, Ordering::SeqCst);
        // Wake the thread so that it recounts; it may be gone already, which is fine.
        let _ = self.requests.send(Message::Left);
    }
}

/// The inference thread's state.
struct Server {
    backend: Box<dyn Backend>,
    inbox: Receiver<Message>,
    live: Arc<AtomicUsize>,
    counters: Arc<Counters>,
    max_batch: usize,
    max_wait: Duration,
    /// The combined batch, grown as calls need.
    batch: Batch,
    /// The requests of the call being gathered, in batch order.
    round: Vec<Request>,
    /// A request that did not fit in the last call: the first of the next.
    held: Option<Request>,
}

/// Why gathering stopped waiting for messages.
enum Stop {
    /// `max_wait` has passed.
    Timeout,
    /// Every sender is gone.
    Disconnected,
}

impl Server {
    /// Serves calls until the multiplexer and every client are gone.
    fn serve(mut self) {
        while let Some(first) = self.first_request() {
            self.gather(first);
            let result = self.evaluate_round();
            self.answer(result);
        }
    }

    /// The request that opens the next call: the held one, or the next to arrive; `None`
    /// when every sender is gone.
    fn first_request(&mut self) -> Option<Request> {
        if let Some(request) = self.held.take() {
            return Some(request);
        }
        loop {
            match self.inbox.recv().ok()? {
                Message::Request(request) => return Some(request),
                Message::Left => {}
            }
        }
    }

    /// Fills `round`, starting with `first`, until one of the rules says run.
    fn gather(&mut self, first: Request) {
        let deadline = Instant::now().checked_add(self.max_wait);
        let mut positions = first.positions;
        self.round.push(first);
        while positions < self.max_batch && !self.everyone_waits() {
            match self.next_message(deadline) {
                Ok(Message::Request(request)) if positions + request.positions > self.max_batch => {
                    self.held = Some(request);
                    return;
                }
                Ok(Message::Request(request)) => {
                    positions += request.positions;
                    self.round.push(request);
                }
                Ok(Message::Left) => {}
                Err(Stop::Timeout | Stop::Disconnected) => return,
            }
        }
    }

    /// Whether every live client has a request in this call (no more can come).
    fn everyone_waits(&self) -> bool {
        self.round.len() >= self.live.load(Ordering::SeqCst)
    }

    /// The next message, waiting until `deadline` at most (`None`: no deadline).
    fn next_message(&self, deadline: Option<Instant>) -> Result<Message, Stop> {
        let Some(deadline) = deadline else {
            return self.inbox.recv().map_err(|_| Stop::Disconnected);
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            // Past the deadline, still take what is already queued.
            return self.inbox.try_recv().map_err(|e| match e {
                TryRecvError::Empty => Stop::Timeout,
                TryRecvError::Disconnected => Stop::Disconnected,
            });
        }
        self.inbox.recv_timeout(left).map_err(|e| match e {
            RecvTimeoutError::Timeout => Stop::Timeout,
            RecvTimeoutError::Disconnected => Stop::Disconnected,
        })
    }

    /// Runs the backend once on the requests of `round`.
    fn evaluate_round(&mut self) -> Result<(), String> {
        let positions: usize = self.round.iter().map(|r| r.positions).sum();
        if positions > self.batch.capacity() {
            // Doubling, up to max_batch (or the lone larger request): a few allocations in
            // all, and none for a max_batch of usize::MAX that is never reached.
            let limit = positions.max(self.max_batch);
            let capacity = positions.max(2 * self.batch.capacity()).min(limit);
            self.batch = Batch::with_layout(capacity, self.batch.layout());
        }
        self.batch.clear();
        let layout = self.batch.layout();
        let (n1, n2) = (layout.input1_len(), layout.input2_len());
        for request in &self.round {
            let slot = &request.slot;
            for k in 0..request.positions {
                let input1 = slot.input1.get(k * n1..(k + 1) * n1).unwrap_or_default();
                let input2 = slot.input2.get(k * n2..(k + 1) * n2).unwrap_or_default();
                if let Some(i) = self.batch.push_features(input1, input2) {
                    self.batch.draw_value[i] = slot.draw.get(k).copied().unwrap_or(0.5);
                }
            }
        }
        if self.batch.len() != positions {
            return Err(format!(
                "a request's inputs hold {} positions, {positions} announced",
                self.batch.len()
            ));
        }
        self.counters.calls.fetch_add(1, Ordering::Relaxed);
        self.counters
            .positions
            .fetch_add(positions as u64, Ordering::Relaxed);
        self.backend.evaluate(&mut self.batch).map_err(|e| match e {
            BackendError::Run(message) => message,
            other => other.to_string(),
        })
    }

    /// Sends each request of `round` its part of the outputs, or the call's error.
    fn answer(&mut self, result: Result<(), String>) {
        let mut start = 0;
        for mut request in self.round.drain(..) {
            let end = start + request.positions;
            let copied = result
                .clone()
                .and_then(|()| take_outputs(&self.batch, start..end, &mut request.slot));
            start = end;
            let reply = request.slot.reply.clone();
            // A client that is gone needs no answer.
            let _ = reply.send(Reply {
                slot: request.slot,
                result: copied,
            });
        }
    }
}

/// Copies the outputs of the batch's positions `range` into `slot`.
fn take_outputs(
    batch: &Batch,
    range: std::ops::Range<usize>,
    slot: &mut Slot,
) -> Result<(), String> {
    let policy = batch
        .policy
        .get(range.start * POLICY_LEN..range.end * POLICY_LEN);
    let value = batch.value.get(range);
    let (Some(policy), Some(value)) = (policy, value) else {
        return Err("the backend shrank the batch's output buffers".to_string());
    };
    refill(&mut slot.policy, policy);
    refill(&mut slot.value, value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_backends::RandomBackend;
    use hayate_core::Position;
    use std::sync::Mutex;

    /// `count` positions reached by playing a few legal moves from the start, chosen by `seed`.
    fn positions(seed: usize, count: usize) -> Vec<Position> {
        (0..count)
            .map(|k| {
                let mut pos = Position::startpos();
                for ply in 0..1 + (seed + k) % 6 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[(seed * 7 + k * 13 + ply * 3) % moves.len()];
                    pos.do_move(m);
                }
                pos
            })
            .collect()
    }

    /// `positions` queued in a new batch.
    fn batch_of(positions: &[Position]) -> Batch {
        let mut batch = Batch::new(positions.len());
        for pos in positions {
            batch.push(pos);
        }
        batch
    }

    /// A random network that records the size of every call and fails on call `fail_on`
    /// (counted from 1; 0: never).
    struct Recording {
        inner: RandomBackend,
        sizes: Arc<Mutex<Vec<usize>>>,
        fail_on: usize,
    }

    impl Recording {
        fn new(fail_on: usize) -> (Recording, Arc<Mutex<Vec<usize>>>) {
            let sizes = Arc::new(Mutex::new(Vec::new()));
            let backend = Recording {
                inner: RandomBackend::new(7),
                sizes: Arc::clone(&sizes),
                fail_on,
            };
            (backend, sizes)
        }
    }

    impl Backend for Recording {
        fn name(&self) -> String {
            "recording".to_string()
        }

        fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
            let call = {
                let mut sizes = self
                    .sizes
                    .lock()
                    .map_err(|e| BackendError::Run(e.to_string()))?;
                sizes.push(batch.len());
                sizes.len()
            };
            if call == self.fail_on {
                return Err(BackendError::Run(format!("call {call} fails")));
            }
            self.inner.evaluate(batch)
        }
    }

    /// A network that panics, killing the inference thread.
    struct Panicking;

    impl Backend for Panicking {
        fn name(&self) -> String {
            "panicking".to_string()
        }

        fn evaluate(&mut self, _batch: &mut Batch) -> Result<(), BackendError> {
            panic!("the test backend panics");
        }
    }

    #[test]
    fn clients_get_exactly_the_outputs_of_the_backend_run_directly() {
        // max_batch 5 makes calls split requests (3 + 3 > 5) and run the request of 7 alone.
        let mux = Multiplexer::new(
            Box::new(RandomBackend::new(11)),
            5,
            Duration::from_millis(20),
        );
        let sizes = [1, 3, 3, 7];
        let workers: Vec<_> = sizes
            .iter()
            .enumerate()
            .map(|(t, &size)| {
                let mut client = mux.client();
                std::thread::spawn(move || {
                    let mut mismatches = 0;
                    for round in 0..6 {
                        let game = positions(t * 10 + round, size);
                        let mut via_mux = batch_of(&game);
                        let mut direct = batch_of(&game);
                        client
                            .evaluate(&mut via_mux)
                            .expect("the multiplexer answers");
                        RandomBackend::new(11)
                            .evaluate(&mut direct)
                            .expect("random runs");
                        for i in 0..size {
                            let same = via_mux.policy_of(i) == direct.policy_of(i)
                                && via_mux.value_of(i).to_bits() == direct.value_of(i).to_bits();
                            mismatches += usize::from(!same);
                        }
                    }
                    mismatches
                })
            })
            .collect();
        for worker in workers {
            assert_eq!(worker.join().expect("no worker panics"), 0);
        }
        let stats = mux.stats();
        assert_eq!(stats.positions, 6 * sizes.iter().sum::<usize>() as u64);
        assert!(
            stats.calls >= 6 * 2,
            "the request of 7 runs alone: {stats:?}"
        );
    }

    #[test]
    fn small_batches_of_many_clients_are_combined() {
        const CLIENTS: usize = 8;
        const ROUNDS: usize = 16;
        let (backend, sizes) = Recording::new(0);
        let mux = Multiplexer::new(Box::new(backend), 64, Duration::from_secs(5));
        // Every client exists before any thread starts: a client made later would let the
        // first requests run as "everyone waits" while the others are not yet counted.
        let clients: Vec<_> = (0..CLIENTS).map(|_| mux.client()).collect();
        let workers: Vec<_> = clients
            .into_iter()
            .enumerate()
            .map(|(t, mut client)| {
                let mut batch = batch_of(&positions(t, 2));
                std::thread::spawn(move || (0..ROUNDS).all(|_| client.evaluate(&mut batch).is_ok()))
            })
            .collect();
        for worker in workers {
            assert!(worker.join().expect("no worker panics"));
        }
        let sizes = sizes.lock().expect("no backend panics").clone();
        let stats = mux.stats();
        assert_eq!(sizes.iter().sum::<usize>(), CLIENTS * 2 * ROUNDS);
        assert_eq!(stats.positions, (CLIENTS * 2 * ROUNDS) as u64);
        assert_eq!(stats.calls, sizes.len() as u64);
        assert!(sizes.iter().all(|&s| s <= 64), "{sizes:?}");
        assert!(stats.mean_batch() >= 8.0, "calls too small: {sizes:?}");
    }

    #[test]
    fn a_dropped_client_does_not_stall_the_waiting_ones() {
        // With an hour's max_wait, only the "every live client waits" rule can run the call.
        let (backend, sizes) = Recording::new(0);
        let mux = Multiplexer::new(Box::new(backend), 64, Duration::from_secs(3600));
        let idle = mux.client();
        let (done, results) = mpsc::channel();
        for t in 0..2 {
            let mut client = mux.client();
            let done = done.clone();
            std::thread::spawn(move || {
                let mut batch = batch_of(&positions(t, 1));
                let _ = done.send(client.evaluate(&mut batch).is_ok());
            });
        }
        // Let the two requests arrive first, so the drop is what lets them run (if they come
        // later, they run when both are in: the test still holds).
        std::thread::sleep(Duration::from_millis(200));
        drop(idle);
        for _ in 0..2 {
            let answered = results.recv_timeout(Duration::from_secs(60));
            assert_eq!(answered, Ok(true), "a waiting client stalled");
        }
        assert_eq!(sizes.lock().expect("no backend panics").as_slice(), &[2]);
    }

    #[test]
    fn a_failing_call_fails_every_client_in_it_and_the_next_call_works() {
        const CLIENTS: usize = 3;
        let (backend, sizes) = Recording::new(1);
        let mux = Multiplexer::new(Box::new(backend), 64, Duration::from_secs(3600));
        // All clients first (see above): call 1 must hold every client's request.
        let clients: Vec<_> = (0..CLIENTS).map(|_| mux.client()).collect();
        let workers: Vec<_> = clients
            .into_iter()
            .enumerate()
            .map(|(t, mut client)| {
                std::thread::spawn(move || {
                    let game = positions(t, 2);
                    let mut batch = batch_of(&game);
                    let first = client.evaluate(&mut batch);
                    let second = client.evaluate(&mut batch);
                    let mut direct = batch_of(&game);
                    let exact = RandomBackend::new(7).evaluate(&mut direct).is_ok()
                        && (0..2).all(|i| batch.policy_of(i) == direct.policy_of(i));
                    (first, second.is_ok() && exact)
                })
            })
            .collect();
        for worker in workers {
            let (first, second) = worker.join().expect("no worker panics");
            match first {
                Err(BackendError::Run(message)) => assert_eq!(message, "call 1 fails"),
                other => panic!("expected the backend's error, got {other:?}"),
            }
            assert!(second, "the call after the failure must work");
        }
        assert_eq!(sizes.lock().expect("no backend panics").as_slice(), &[6, 6]);
        assert_eq!(
            mux.stats(),
            MuxStats {
                calls: 2,
                positions: 12
            }
        );
    }

    #[test]
    fn a_dead_inference_thread_gives_errors_not_hangs() {
        let mux = Multiplexer::new(Box::new(Panicking), 8, Duration::ZERO);
        let mut client = mux.client();
        let mut batch = batch_of(&positions(0, 1));
        assert!(matches!(
            client.evaluate(&mut batch),
            Err(BackendError::Run(_))
        ));
        assert!(matches!(
            client.evaluate(&mut batch),
            Err(BackendError::Run(_))
        ));
    }

    #[test]
    fn clients_outlive_the_multiplexer() {
        let mux = Multiplexer::new(Box::new(RandomBackend::new(3)), 8, Duration::ZERO);
        let mut client = mux.client();
        assert_eq!(client.name(), "multiplexed random (seed 3)");
        drop(mux);
        let mut batch = batch_of(&positions(1, 2));
        let mut direct = batch_of(&positions(1, 2));
        assert!(client.evaluate(&mut batch).is_ok());
        assert!(RandomBackend::new(3).evaluate(&mut direct).is_ok());
        assert_eq!(batch.policy_of(1), direct.policy_of(1));
        assert!(
            client.evaluate(&mut Batch::new(1)).is_ok(),
            "an empty batch is no call"
        );
    }

    /// A Novice-input network whose value is each position's draw value plus its first input
    /// float / 1000 (so a client can see both reached the call in order).
    struct EchoNovice;

    impl Backend for EchoNovice {
        fn name(&self) -> String {
            "echo".to_string()
        }

        fn kind(&self) -> NetKind {
            NetKind::Novice
        }

        fn evaluate(&mut self, batch: &mut Batch) -> Result<(), BackendError> {
            let n1 = batch.layout().input1_len();
            for i in 0..batch.len() {
                batch.value[i] = batch.draw_value[i] + batch.input1[i * n1] / 1000.0;
            }
            Ok(())
        }
    }

    #[test]
    fn novice_inputs_and_draw_values_travel_with_each_client() {
        let mux = Multiplexer::new(Box::new(EchoNovice), 16, Duration::from_millis(50));
        let handles: Vec<_> = [(0.2f32, 0.9f32), (0.8, 0.1)]
            .into_iter()
            .map(|(black, white)| {
                let mut client = mux.client();
                assert_eq!(client.kind(), NetKind::Novice);
                std::thread::spawn(move || {
                    let cfg = NoviceConfig {
                        max_plies: 200,
                        draw_score_black: black,
                        draw_score_white: white,
                    };
                    let mut batch = Batch::with_layout(4, Layout::Novice(cfg));
                    let mut expected = Vec::new();
                    for pos in positions(3, 4) {
                        let i = batch.push(&pos).expect("room");
                        let first = batch.input1[i * batch.layout().input1_len()];
                        expected.push(batch.draw_value[i] + first / 1000.0);
                    }
                    client.evaluate(&mut batch).expect("evaluated");
                    assert_eq!(&batch.value[..4], &expected[..]);
                    batch.draw_value[..4].to_vec()
                })
            })
            .collect();
        let draws: Vec<Vec<f32>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        // Each client's positions kept its own game's draw values.
        assert!(draws[0].iter().all(|&d| d == 0.2 || d == 0.9));
        assert!(draws[1].iter().all(|&d| d == 0.8 || d == 0.1));
    }
}
