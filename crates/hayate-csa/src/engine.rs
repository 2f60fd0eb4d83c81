//! The player runs on its own thread so the client keeps reading the server (results, the
//! opponent's move while pondering) and keeps time while it thinks. Jobs run one at a time in
//! order; each result is posted to the event channel given with the job.

use crate::connection::{Event, Thought};
use hayate_core::Position;
use hayate_core::player::{GameOver, Info, Limits, Player, Score, Signals};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

enum Job {
    Think {
        id: u64,
        pos: Box<Position>,
        limits: Box<Limits>,
        signals: Arc<Signals>,
        reply: Sender<Event>,
    },
    NewGame,
    GameOver(GameOver),
}

/// The thread that owns the player.
pub struct Engine {
    jobs: Option<Sender<Job>>,
    handle: Option<JoinHandle<Box<dyn Player>>>,
    name: String,
}

impl Engine {
    /// Starts the thread; the player should already be prepared.
    ///
    /// # Errors
    /// When the thread cannot be spawned.
    pub fn start(player: Box<dyn Player>) -> std::io::Result<Engine> {
        let name = player.name();
        let (tx, rx) = channel::<Job>();
        let handle = std::thread::Builder::new()
            .name("csa-player".into())
            .spawn(move || {
                let mut player = player;
                while let Ok(job) = rx.recv() {
                    match job {
                        Job::NewGame => {
                            let _ = catch_unwind(AssertUnwindSafe(|| player.new_game()));
                        }
                        Job::GameOver(result) => {
                            let _ = catch_unwind(AssertUnwindSafe(|| player.game_over(result)));
                        }
                        Job::Think {
                            id,
                            pos,
                            limits,
                            signals,
                            reply,
                        } => {
                            let mut last: Option<Info> = None;
                            let best = catch_unwind(AssertUnwindSafe(|| {
                                player.think(&pos, &limits, &signals, &mut |i: &Info| {
                                    keep_main_line(&mut last, i)
                                })
                            }))
                            .ok();
                            let _ = reply.send(Event::Thought(Thought {
                                id,
                                best,
                                info: last,
                            }));
                        }
                    }
                }
                player
            })?;
        Ok(Engine {
            jobs: Some(tx),
            handle: Some(handle),
            name,
        })
    }

    /// The player's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Tells the player a new game starts.
    pub fn new_game(&self) {
        if let Some(j) = &self.jobs {
            let _ = j.send(Job::NewGame);
        }
    }

    /// Tells the player how the game ended (an engine clears its tables then, off the clock of
    /// the next game).
    pub fn game_over(&self, result: GameOver) {
        if let Some(j) = &self.jobs {
            let _ = j.send(Job::GameOver(result));
        }
    }

    /// Queues a search; its [`Thought`] arrives on `reply` with `id`.
    pub fn think(
        &self,
        id: u64,
        pos: &Position,
        limits: Limits,
        signals: Arc<Signals>,
        reply: Sender<Event>,
    ) {
        if let Some(j) = &self.jobs {
            let _ = j.send(Job::Think {
                id,
                pos: Box::new(pos.clone()),
                limits: Box::new(limits),
                signals,
                reply,
            });
        }
    }

    /// Ends the thread and returns the player (`None` if the thread died).
    pub fn stop(mut self) -> Option<Box<dyn Player>> {
        self.jobs = None;
        self.handle.take().and_then(|h| h.join().ok())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Keeps the latest first-line report that carries a score (what the comment needs).
fn keep_main_line(last: &mut Option<Info>, i: &Info) {
    if i.multipv.unwrap_or(1) != 1 {
        return;
    }
    match i.score {
        Some(Score::Cp(_)) | Some(Score::Mate(_)) => *last = Some(i.clone()),
        None => {}
    }
}
