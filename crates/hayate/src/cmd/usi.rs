//! The USI loop: parses GUI commands, runs searches on a worker thread, prints `info` and
//! `bestmove`. Bad input gets an `info string` and the engine keeps running.

use crate::engine::EngineHost;
use hayate_core::Position;
use hayate_core::player::{BestMove, GameOver, Info, Player, Signals};
use hayate_usi::{Command, format_bestmove, format_info, parse_command, read_line};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;

/// Serialises output lines from the loop and the search thread.
#[derive(Clone)]
struct Out(Arc<Mutex<std::io::Stdout>>);

impl Out {
    fn say(&self, line: &str) {
        let Ok(mut o) = self.0.lock() else { return };
        // A closed stdout (GUI gone) is not worth a panic: the read side will see EOF and quit.
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    }
}

enum Running {
    /// The search thread, and a flag it raises just before printing its answer: once the GUI
    /// has seen `bestmove`, joining the thread can only wait for it to return.
    Search(JoinHandle<Box<EngineHost>>, Arc<AtomicBool>),
}

/// Reads USI commands from stdin until `quit` or end of input.
pub fn run() -> anyhow::Result<()> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        // Bytes, not `lines()`: one line that is not UTF-8 must not end the input.
        let mut stdin = std::io::stdin().lock();
        while let Some(line) = read_line(&mut stdin) {
            if tx.send(line).is_err() {
                return;
            }
        }
        let _ = tx.send(Ok("quit".into()));
    });
    let out = Out(Arc::new(Mutex::new(std::io::stdout())));
    let mut host = Some(Box::new(EngineHost::new()));
    let mut pos = Position::startpos();
    let mut signals = Signals::new();
    let mut running: Option<Running> = None;

    let finish = |running: &mut Option<Running>, host: &mut Option<Box<EngineHost>>| {
        if let Some(Running::Search(h, _)) = running.take() {
            match h.join() {
                Ok(p) => *host = Some(p),
                // The search thread panicked: start over with a fresh engine rather than die.
                Err(_) => *host = Some(Box::new(EngineHost::new())),
            }
        }
    };

    while let Ok(line) = rx.recv() {
        // A finished search hands its engine back before the next command is handled.
        if matches!(&running, Some(Running::Search(_, done)) if done.load(Ordering::Acquire)) {
            finish(&mut running, &mut host);
        }
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                out.say(&format!("info string error: {e}"));
                continue;
            }
        };
        let cmd = match parse_command(&line) {
            Ok(c) => c,
            Err(e) => {
                out.say(&format!("info string error: {e}"));
                continue;
            }
        };
        match cmd {
            Command::Empty => {}
            Command::Usi => {
                let h = host
                    .as_deref()
                    .map(|h| h.name())
                    .unwrap_or_else(|| "Hayate".into());
                out.say(&format!("id name {h}"));
                out.say("id author the Hayate developers");
                for o in crate::engine::option_table().iter().filter(|o| !o.hidden) {
                    out.say(&format!("option name {} {}", o.name, o.declaration()));
                }
                out.say("usiok");
            }
            Command::IsReady => {
                if let Some(h) = host.as_deref_mut()
                    && let Err(e) = h.prepare()
                {
                    out.say(&format!("info string error: {e}"));
                }
                out.say("readyok");
            }
            Command::SetOption { name, value } => match host.as_deref_mut() {
                Some(h) => {
                    if let Err(e) = h.set_option(&name, &value) {
                        out.say(&format!("info string {e}"));
                    }
                }
                None => out.say("info string cannot set options while searching"),
            },
            Command::UsiNewGame => {
                if let Some(h) = host.as_deref_mut() {
                    h.new_game();
                }
            }
            Command::Position(args) => match Position::from_usi_position(&args) {
                Ok(p) => pos = p,
                Err(e) => out.say(&format!(
                    "info string error: {e}; keeping the previous position"
                )),
            },
            Command::Go(go) => {
                for e in &go.ignored {
                    out.say(&format!("info string error: {e}"));
                }
                if running.is_some() {
                    // Out of protocol, but every `go` gets its answer: the running search
                    // answers now, then this one starts.
                    out.say("info string error: go while searching; stopping the previous search");
                    signals.stop();
                    finish(&mut running, &mut host);
                }
                let Some(mut h) = host.take() else { continue };
                let mate_setup = (h.mate_hash_mb(), h.mate_defence());
                signals = Signals::new();
                let sig = signals.clone();
                let o = out.clone();
                let p = pos.clone();
                let done = Arc::new(AtomicBool::new(false));
                let d = done.clone();
                let handle = std::thread::spawn(move || {
                    let search = std::panic::AssertUnwindSafe(|| match go.mate {
                        Some(mate) => go_mate_line(&p, mate, mate_setup, &sig, &o),
                        None => {
                            let o2 = o.clone();
                            let best = h.think(&p, &go.limits, &sig, &mut |i: &Info| {
                                o2.say(&format_info(i))
                            });
                            format_bestmove(&best)
                        }
                    });
                    // Even a search that panics answers its `go`.
                    let answer = std::panic::catch_unwind(search).unwrap_or_else(|_| {
                        o.say("info string error: the search failed");
                        match go.mate {
                            Some(_) => "checkmate nomate".into(),
                            None => format_bestmove(&BestMove::Resign),
                        }
                    });
                    d.store(true, Ordering::Release);
                    o.say(&answer);
                    h
                });
                running = Some(Running::Search(handle, done));
            }
            Command::Stop => {
                signals.stop();
                finish(&mut running, &mut host);
            }
            Command::PonderHit => signals.ponderhit(),
            Command::GameOver(word) => {
                signals.stop();
                finish(&mut running, &mut host);
                match (GameOver::from_usi_word(word.trim()), host.as_deref_mut()) {
                    (Some(result), Some(h)) => h.game_over(result),
                    (None, _) => out.say(&format!("info string unknown gameover {word:?}")),
                    (Some(_), None) => {}
                }
            }
            Command::Quit => {
                signals.stop();
                finish(&mut running, &mut host);
                break;
            }
            Command::Other(word, _) => match word.as_str() {
                "d" | "sfen" => out.say(&format!("info string sfen {}", pos.to_sfen())),
                _ => out.say(&format!("info string unknown command {word:?}")),
            },
        }
    }
    Ok(())
}

/// The answer to `go mate`: progress as `info` lines, then exactly one `checkmate ...` line
/// (df-pn with the shortest-mate post-search in the `defence` convention; `stop` answers at once).
fn go_mate_line(
    pos: &Position,
    limit: hayate_usi::MateLimit,
    (hash_mb, defence): (usize, hayate_mate::Defence),
    signals: &Signals,
    out: &Out,
) -> String {
    if pos.king_square(!pos.side_to_move()).is_none() {
        // No king to mate (a position only an attacker's king, or a mate problem turned round).
        return "checkmate nomate".into();
    }
    let opts = hayate_mate::DfpnOptions {
        time_limit: match limit {
            hayate_usi::MateLimit::Millis(ms) => Some(std::time::Duration::from_millis(ms)),
            hayate_usi::MateLimit::Infinite => None,
        },
        hash_mb,
        defence,
        post_search: true,
        ..hayate_mate::DfpnOptions::default()
    };
    let report = hayate_mate::solve_with_progress(pos, &opts, signals.stop_flag(), &mut |p| {
        p.to_usi().iter().for_each(|l| out.say(l))
    });
    if report.hash_mb < hash_mb {
        out.say(&format!(
            "info string USI_Hash {hash_mb} MiB does not fit in memory: the mate table has {} MiB",
            report.hash_mb
        ));
    }
    report.result.to_usi()
}
