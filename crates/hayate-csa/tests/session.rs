//! Sessions over 127.0.0.1: dropped connections (reconnect or stop), garbled summaries,
//! refused logins, keep-alives, pondering, resumed games, results while thinking.

mod support;

use hayate_core::player::{BestMove, GameOver, Info, Limits, Player, Signals};
use hayate_core::usi_option::OptionError;
use hayate_core::{Color, Position};
use hayate_csa::csa_move::{move_text, parse_csa_move};
use hayate_csa::{Client, CsaError, EndReason, Log, Outcome, Secret, Settings};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::{ScriptPlayer, ScriptServer, Step, side, steps, temp_dir, transcript};

fn bob_lines() -> Vec<support::Line> {
    side(&transcript("transcript_csa_basic.txt"), "bob")
}

fn bob_settings(port: u16) -> Settings {
    let mut s = Settings::new("127.0.0.1", port, "bob", Secret::new("testgame-60-5-W"));
    s.margin = Duration::from_millis(500);
    s.answer_timeout = Duration::from_secs(5);
    s.reconnect.enabled = false;
    s.reconnect.initial = Duration::from_millis(50);
    s.reconnect.max = Duration::from_millis(200);
    s
}

fn send(l: &str) -> Step {
    Step::Send(l.to_string())
}
fn expect(l: &str) -> Step {
    Step::Expect(l.to_string())
}

/// bob's script up to the server's `+2726FU,T1`, then bob's reply `-8384FU`.
fn bob_until_his_second_move() -> Vec<Step> {
    let mut script = Vec::new();
    for s in steps(&bob_lines()) {
        let cut = matches!(&s, Step::Send(l) if l == "+2726FU,T1");
        script.push(s);
        if cut {
            break;
        }
    }
    script.push(Step::Expect("-8384FU".into()));
    script
}

/// bob's script cut after his `-8384FU`: the connection drops.
fn bob_dropped() -> Vec<Step> {
    let mut script = bob_until_his_second_move();
    script.push(Step::Close);
    script
}

#[test]
fn dropped_connection_mid_game_reconnects_and_plays_on() {
    let server = ScriptServer::start(vec![bob_dropped(), steps(&bob_lines())]);
    let mut s = bob_settings(server.port);
    s.reconnect.enabled = true;
    s.reconnect.max_attempts = 3;
    let dir = temp_dir("dropped");
    s.record_dir = Some(dir.clone());
    let (log, lines) = Log::memory();
    let mut client = Client::new(s, Box::new(ScriptPlayer::from_side(&bob_lines())), log).unwrap();
    let report = client.run();
    let server = server.finish();
    let log = lines.lock().unwrap().clone();
    let _ = std::fs::remove_dir_all(&dir);
    server.unwrap_or_else(|e| panic!("server: {e}\n{}", log.join("\n")));
    let report = report.unwrap_or_else(|e| panic!("client: {e}\n{}", log.join("\n")));
    assert_eq!(report.failures, 1);
    assert_eq!(report.games.len(), 1);
    assert_eq!(report.games[0].outcome, Some(Outcome::Win));
    assert!(
        log.iter()
            .any(|l| l.contains("connection lost during the game"))
    );
    assert!(log.iter().any(|l| l.contains("reconnecting in")));
}

#[test]
fn dropped_connection_stops_when_reconnect_is_off() {
    let server = ScriptServer::start(vec![bob_dropped()]);
    let mut s = bob_settings(server.port);
    let dir = temp_dir("dropped-stop");
    s.record_dir = Some(dir.clone());
    let (log, lines) = Log::memory();
    let mut client = Client::new(s, Box::new(ScriptPlayer::from_side(&bob_lines())), log).unwrap();
    let report = client.run();
    server.finish().unwrap();
    assert!(
        matches!(report, Err(CsaError::ConnectionLost(_))),
        "{report:?}"
    );
    // What was played is kept, with why it stopped.
    let record =
        std::fs::read_to_string(dir.join("test+testgame-60-5+alice+bob+20261121095139.csa"))
            .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        record.contains("+2726FU\nT1\n'client stopped: connection lost: closed by the server\n"),
        "{record}"
    );
    let log = lines.lock().unwrap().clone();
    assert!(
        log.iter().any(|l| l.contains("not reconnecting")),
        "{log:?}"
    );
}

fn garbled() -> Vec<Step> {
    vec![
        expect("LOGIN bob testgame-60-5-W"),
        send("LOGIN:bob OK"),
        send("BEGIN Game_Summary"),
        send("Protocol_Version:1.2"),
        send("%%%% garbage \u{1}\u{2}"),
        send("BEGIN Position"),
        send("P1 this is not a board"),
        send("END Position"),
        send("END Game_Summary"),
    ]
}

#[test]
fn garbled_summary_is_logged_and_retried_then_given_up() {
    // max_attempts = 2: exactly two tries, then the failure ends the session.
    let server = ScriptServer::start(vec![garbled(), garbled()]);
    let mut s = bob_settings(server.port);
    s.reconnect.enabled = true;
    s.reconnect.max_attempts = 2;
    let (log, lines) = Log::memory();
    let mut client = Client::new(s, Box::new(ScriptPlayer::from_side(&bob_lines())), log).unwrap();
    let report = client.run();
    let seen = server.finish().unwrap();
    assert!(matches!(report, Err(CsaError::BadSummary(_))), "{report:?}");
    assert_eq!(seen.len(), 2);
    // The session's summary survives the failure.
    assert_eq!(client.report().failures, 2);
    assert!(client.report().games.is_empty());
    // No Game_ID: nothing to AGREE or REJECT, the client just closes.
    for conn in &seen {
        assert_eq!(conn.texts(), ["LOGIN bob testgame-60-5-W"]);
    }
    let log = lines.lock().unwrap().clone();
    assert!(
        log.iter().any(|l| l
            .contains("unusable Game_Summary: malformed position line `P1 this is not a board`")),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|l| l.contains("giving up after 2 failures in a row"))
    );
}

#[test]
fn summary_cut_short_is_a_clear_error() {
    let mut open = garbled();
    open.truncate(4);
    open.push(Step::Pause(Duration::from_millis(1500)));
    let mut cut = garbled();
    cut.truncate(4);
    cut.push(Step::Close);
    let server = ScriptServer::start(vec![open, cut]);
    let mut s = bob_settings(server.port);
    s.answer_timeout = Duration::from_secs(1);
    let port = server.port;
    let (log, lines) = Log::memory();
    let mut client = Client::new(s, Box::new(ScriptPlayer::from_side(&bob_lines())), log).unwrap();
    let first = client.play_one();
    assert!(
        matches!(first, Err(CsaError::Timeout("END Game_Summary"))),
        "{first:?}"
    );
    let second = client.play_one();
    assert!(
        matches!(second, Err(CsaError::ConnectionLost(_))),
        "{second:?}"
    );
    server.finish().unwrap();
    let log = lines.lock().unwrap().clone();
    assert!(
        log.iter()
            .any(|l| l.contains("Game_Summary not finished after 1 lines"))
    );
    assert!(
        log.iter()
            .any(|l| l.contains("connection lost inside the Game_Summary"))
    );
    let _ = port;
}

#[test]
fn refused_login_is_not_retried() {
    let server = ScriptServer::start(vec![vec![
        expect("LOGIN bob testgame-60-5-W"),
        send("LOGIN:incorrect"),
    ]]);
    let mut s = bob_settings(server.port);
    s.reconnect.enabled = true;
    let (log, lines) = Log::memory();
    let mut client = Client::new(s, Box::new(ScriptPlayer::from_side(&bob_lines())), log).unwrap();
    let report = client.run();
    server.finish().unwrap();
    assert!(matches!(report, Err(CsaError::LoginRefused)), "{report:?}");
    let log = lines.lock().unwrap().clone();
    assert!(!log.iter().any(|l| l.contains("reconnecting in")));
    assert!(log.iter().any(|l| l.contains("C> LOGIN bob ****")));
}

#[test]
fn keep_alive_while_waiting_and_during_the_game() {
    let mut script = Vec::new();
    for s in steps(&bob_lines()) {
        let login_ok = matches!(&s, Step::Send(l) if l == "LOGIN:bob OK");
        let before_2726 = matches!(&s, Step::Send(l) if l == "+2726FU,T1");
        if before_2726 {
            script.push(Step::Pause(Duration::from_millis(1300)));
        }
        script.push(s);
        if login_ok {
            script.push(Step::Pause(Duration::from_millis(1300)));
        }
    }
    let server = ScriptServer::start(vec![script]);
    let mut s = bob_settings(server.port);
    s.keepalive = Duration::from_secs(1);
    let (log, _lines) = Log::memory();
    let mut client = Client::new(s, Box::new(ScriptPlayer::from_side(&bob_lines())), log).unwrap();
    let report = client.play_one().unwrap();
    assert_eq!(report.outcome, Some(Outcome::Win));
    let seen = server.finish().unwrap();
    let texts = seen[0].texts();
    let agree = texts.iter().position(|l| l.starts_with("AGREE")).unwrap();
    assert!(
        texts[..agree].contains(&""),
        "no keep-alive while waiting: {texts:?}"
    );
    assert!(
        texts[agree..].contains(&""),
        "no keep-alive in the game: {texts:?}"
    );
    // Never more often than the configured interval.
    let times: Vec<Duration> = seen[0].lines.iter().map(|(t, _)| *t).collect();
    for w in seen[0].lines.windows(2) {
        if w[1].1.is_empty() {
            assert!(w[1].0 - w[0].0 >= Duration::from_millis(950), "{times:?}");
        }
    }
}

/// Plays a fixed plan of (move, expected reply); on the opponent's time it waits for
/// `ponderhit` (then plays on) or `stop` (a miss), and records what happened.
struct PonderPlayer {
    plan: Vec<(&'static str, Option<&'static str>)>,
    next: usize,
    events: Arc<Mutex<Vec<String>>>,
}

impl PonderPlayer {
    fn answer(&mut self, pos: &Position) -> BestMove {
        let Some(&(mv, reply)) = self.plan.get(self.next) else {
            return BestMove::Resign;
        };
        self.next += 1;
        if mv == "%TORYO" {
            return BestMove::Resign;
        }
        let best = parse_csa_move(pos, mv).expect("planned move");
        let mut p = pos.clone();
        p.do_move(best);
        let ponder = reply.map(|r| parse_csa_move(&p, r).expect("planned reply"));
        BestMove::Move { best, ponder }
    }
}

impl Player for PonderPlayer {
    fn name(&self) -> String {
        "ponder".into()
    }
    fn game_over(&mut self, result: GameOver) {
        self.events
            .lock()
            .unwrap()
            .push(format!("gameover {result:?}"));
    }
    fn set_option(&mut self, _: &str, _: &str) -> Result<(), OptionError> {
        Ok(())
    }
    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        signals: &Signals,
        _: &mut dyn FnMut(&Info),
    ) -> BestMove {
        let log = |s: String| self.events.lock().unwrap().push(s);
        if limits.ponder {
            log(format!("ponder after {}", move_text(pos.last_move())));
            let end = Instant::now() + Duration::from_secs(10);
            loop {
                if signals.is_ponderhit() {
                    let b = self.answer(pos);
                    self.events.lock().unwrap().push(format!("ponderhit {b:?}"));
                    return b;
                }
                if signals.is_stopped() || Instant::now() > end {
                    self.events.lock().unwrap().push("stopped".into());
                    let m = pos.legal_moves()[0];
                    return BestMove::Move {
                        best: m,
                        ponder: None,
                    };
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let b = self.answer(pos);
        self.events.lock().unwrap().push(format!("think {b:?}"));
        b
    }
}

#[test]
fn pondering_hits_and_misses() {
    let alice = side(&transcript("transcript_csa_basic.txt"), "alice");
    let script: Vec<Step> = steps(&alice)
        .into_iter()
        .map(|s| match s {
            Step::Expect(e) if e.contains(",'") => {
                Step::Expect(e.split(",'").next().unwrap().into())
            }
            s => s,
        })
        .collect();
    let server = ScriptServer::start(vec![script]);
    let mut s = Settings::new(
        "127.0.0.1",
        server.port,
        "alice",
        Secret::new("testgame-60-5-B"),
    );
    s.ponder = true;
    s.margin = Duration::from_millis(500);
    s.reconnect.enabled = false;
    let events = Arc::new(Mutex::new(Vec::new()));
    let player = PonderPlayer {
        plan: vec![
            ("+7776FU", Some("-3334FU")),
            ("+2726FU", Some("-8384FU")),
            ("+2625FU", Some("-1314FU")),
            ("%TORYO", None),
        ],
        next: 0,
        events: events.clone(),
    };
    let (log, lines) = Log::memory();
    let mut client = Client::new(s, Box::new(player), log).unwrap();
    let report = client.play_one();
    let server = server.finish();
    let log = lines.lock().unwrap().clone();
    server.unwrap_or_else(|e| panic!("server: {e}\n{}", log.join("\n")));
    let report = report.unwrap();
    assert_eq!(report.outcome, Some(Outcome::Lose));
    // Dropping the client ends the player's thread after the jobs already queued.
    drop(client);
    let ev = events.lock().unwrap().clone();
    let kinds: Vec<&str> = ev.iter().map(|e| e.split(' ').next().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "think",
            "ponder",
            "ponderhit",
            "ponder",
            "ponderhit",
            "ponder",
            "stopped",
            "think",
            "gameover"
        ],
        "{ev:?}"
    );
    assert_eq!(ev.last().map(String::as_str), Some("gameover Lose"));
    assert!(
        ev[1].ends_with("-3334FU") && ev[5].ends_with("-1314FU"),
        "{ev:?}"
    );
    assert!(log.iter().filter(|l| l.contains("ponder hit")).count() == 2);
    assert!(log.iter().any(|l| l.contains("ponder miss")));
}

fn summary_lines(id: &str, your_turn: &str, time: &[&str], position: &[&str]) -> Vec<Step> {
    let mut v = vec![
        send("BEGIN Game_Summary"),
        send("Protocol_Version:1.2"),
        send(&format!("Game_ID:{id}")),
        send("Name+:blk"),
        send("Name-:wht"),
        send(&format!("Your_Turn:{your_turn}")),
    ];
    v.extend(time.iter().map(|l| send(l)));
    v.push(send("BEGIN Position"));
    v.extend(position.iter().map(|l| send(l)));
    v.push(send("END Position"));
    v.push(send("END Game_Summary"));
    v
}

#[test]
fn resumed_game_with_per_side_clocks() {
    let id = "test+resume+blk+wht+20261121120000";
    let mut script = vec![expect("LOGIN blk resume-B"), send("LOGIN:blk OK")];
    script.extend(summary_lines(
        id,
        "+",
        &[
            "To_Move:+",
            "BEGIN Time+",
            "Time_Unit:1msec",
            "Total_Time:60000",
            "Byoyomi:5000",
            "END Time+",
            "BEGIN Time-",
            "Time_Unit:1sec",
            "Total_Time:30",
            "Increment:5",
            "END Time-",
        ],
        &["PI", "P+", "P-", "+", "+7776FU,T3", "-3334FU,T2"],
    ));
    script.extend([
        expect(&format!("AGREE {id}")),
        send(&format!("START:{id}")),
        expect("+2726FU"),
        send("+2726FU,T1"),
        send("-8384FU,T1"),
        expect("%TORYO"),
        send("%TORYO"),
        send("#RESIGN"),
        send("#LOSE"),
    ]);
    let server = ScriptServer::start(vec![script]);
    let mut s = Settings::new("127.0.0.1", server.port, "blk", Secret::new("resume-B"));
    s.reconnect.enabled = false;
    let dir = temp_dir("resume");
    s.record_dir = Some(dir.clone());
    let player = ScriptPlayer::from_side(&[
        support::Line {
            who: String::new(),
            from_client: true,
            text: "+2726FU".into(),
        },
        support::Line {
            who: String::new(),
            from_client: true,
            text: "%TORYO".into(),
        },
    ]);
    let (log, lines) = Log::memory();
    let mut client = Client::new(s, Box::new(player), log).unwrap();
    let report = client.play_one();
    let server = server.finish();
    let log = lines.lock().unwrap().clone();
    server.unwrap_or_else(|e| panic!("server: {e}\n{}", log.join("\n")));
    let report = report.unwrap();
    assert_eq!(report.reason, Some(EndReason::Resign));
    assert_eq!(report.us, Color::Black);
    let record = std::fs::read_to_string(report.record.unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        record.contains("'Time+:60+5+0\n'Time-:30+0+5\n"),
        "{record}"
    );
    assert!(
        record.contains("+\n+7776FU\nT3\n-3334FU\nT2\n+2726FU\nT1\n-8384FU\nT1\n%TORYO\n"),
        "{record}"
    );
    // Black: 60 - 3 - 1 = 56 s; White: 30 + 5 - 2 + 5 - 1 = 37 s.
    assert!(
        log.iter()
            .any(|l| l.contains("move 4 -8384FU T1 | + 56s - 37s")),
        "{log:?}"
    );
}

#[test]
fn mated_client_resigns_without_asking_the_player() {
    let id = "test+mated+blk+wht+20261121120001";
    let mut script = vec![expect("LOGIN blk mated-B"), send("LOGIN:blk OK")];
    script.extend(summary_lines(
        id,
        "+",
        &["BEGIN Time", "Total_Time:60", "END Time"],
        &[
            "P1 *  *  *  * -OU *  *  *  * ",
            "P7 *  *  *  * -FU *  *  *  * ",
            "P8 *  *  *  * -KI *  *  *  * ",
            "P9 *  *  *  * +OU *  *  *  * ",
            "+",
        ],
    ));
    script.extend([
        expect(&format!("AGREE {id}")),
        send(&format!("START:{id}")),
        expect("%TORYO"),
        send("%TORYO"),
        send("#RESIGN"),
        send("#LOSE"),
    ]);
    let server = ScriptServer::start(vec![script]);
    let mut s = Settings::new("127.0.0.1", server.port, "blk", Secret::new("mated-B"));
    s.reconnect.enabled = false;
    let player = ScriptPlayer::from_side(&[]);
    let calls = player.calls.clone();
    let (log, _lines) = Log::memory();
    let mut client = Client::new(s, Box::new(player), log).unwrap();
    let report = client.play_one().unwrap();
    server.finish().unwrap();
    assert_eq!(report.outcome, Some(Outcome::Lose));
    assert!(calls.lock().unwrap().is_empty());
}

#[test]
fn result_while_thinking_stops_the_player() {
    let id = "test+chudan+blk+wht+20261121120002";
    let mut script = vec![expect("LOGIN blk chudan-B"), send("LOGIN:blk OK")];
    script.extend(summary_lines(
        id,
        "+",
        &["BEGIN Time", "Total_Time:600", "END Time"],
        &["PI", "+"],
    ));
    script.extend([
        expect(&format!("AGREE {id}")),
        send(&format!("START:{id}")),
        Step::Pause(Duration::from_millis(200)),
        send("#CHUDAN"),
    ]);
    let server = ScriptServer::start(vec![script]);
    let mut s = Settings::new("127.0.0.1", server.port, "blk", Secret::new("chudan-B"));
    s.reconnect.enabled = false;
    let mut player = ScriptPlayer::from_side(&[support::Line {
        who: String::new(),
        from_client: true,
        text: "+7776FU".into(),
    }]);
    player.slow = true;
    let (log, _lines) = Log::memory();
    let mut client = Client::new(s, Box::new(player), log).unwrap();
    let started = Instant::now();
    let report = client.play_one().unwrap();
    server.finish().unwrap();
    assert_eq!(report.reason, Some(EndReason::Chudan));
    assert_eq!(report.outcome, Some(Outcome::Interrupted));
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// Ignores `stop` for a while (a stuck search).
struct StuckPlayer;

impl Player for StuckPlayer {
    fn name(&self) -> String {
        "stuck".into()
    }
    fn set_option(&mut self, _: &str, _: &str) -> Result<(), OptionError> {
        Ok(())
    }
    fn think(
        &mut self,
        pos: &Position,
        _: &Limits,
        _: &Signals,
        _: &mut dyn FnMut(&Info),
    ) -> BestMove {
        std::thread::sleep(Duration::from_millis(3500));
        BestMove::Move {
            best: pos.legal_moves()[0],
            ponder: None,
        }
    }
}

#[test]
fn a_stuck_player_cannot_lose_on_time() {
    // 3 s on the clock, 0.6 s margin: stop at 2.1 s, play a move without the player at 2.4 s,
    // well before the server's 3 s.
    let id = "test+stuck+blk+wht+20261121120003";
    let first = move_text(Position::startpos().legal_moves()[0]);
    let mut script = vec![expect("LOGIN blk stuck-B"), send("LOGIN:blk OK")];
    script.extend(summary_lines(
        id,
        "+",
        &["BEGIN Time", "Total_Time:3", "END Time"],
        &["PI", "+"],
    ));
    script.extend([
        expect(&format!("AGREE {id}")),
        send(&format!("START:{id}")),
        expect(&first),
        send(&format!("{first},T1")),
        send("#CHUDAN"),
    ]);
    let server = ScriptServer::start(vec![script]);
    let mut s = Settings::new("127.0.0.1", server.port, "blk", Secret::new("stuck-B"));
    s.reconnect.enabled = false;
    s.margin = Duration::from_millis(600);
    let (log, lines) = Log::memory();
    let mut client = Client::new(s, Box::new(StuckPlayer), log).unwrap();
    let report = client.play_one().unwrap();
    let seen = server.finish().unwrap();
    assert_eq!(report.outcome, Some(Outcome::Interrupted));
    let agree = seen[0]
        .lines
        .iter()
        .find(|(_, l)| l.starts_with("AGREE"))
        .unwrap()
        .0;
    let mv = seen[0].lines.iter().find(|(_, l)| *l == first).unwrap().0;
    let took = mv - agree;
    assert!(
        took >= Duration::from_millis(2300) && took < Duration::from_millis(3000),
        "{took:?}"
    );
    let log = lines.lock().unwrap().clone();
    assert!(
        log.iter().any(|l| l.contains("did not stop in time")),
        "{log:?}"
    );
}

#[test]
fn an_unwritable_record_dir_is_refused_before_connecting() {
    let dir = temp_dir("record-dir-file");
    let file = dir.join("not-a-folder");
    std::fs::write(&file, "x").unwrap();
    let mut s = bob_settings(1);
    s.record_dir = Some(file.join("records"));
    let (log, _) = Log::memory();
    let client = Client::new(s, Box::new(ScriptPlayer::from_side(&bob_lines())), log);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        matches!(client, Err(CsaError::RecordDir { .. })),
        "{:?}",
        client.err()
    );
}

#[test]
fn interrupt_mid_game_writes_the_record_and_ends_cleanly() {
    // bob's game up to his fourth-ply reply, then the server goes quiet for 3 s.
    let mut script = bob_until_his_second_move();
    script.push(send("-8384FU,T1"));
    script.push(Step::Pause(Duration::from_secs(3)));
    script.push(Step::Close);
    let server = ScriptServer::start(vec![script]);
    let mut s = bob_settings(server.port);
    s.reconnect.enabled = true;
    s.reconnect.max_attempts = 1;
    let dir = temp_dir("interrupt");
    s.record_dir = Some(dir.clone());
    let (log, lines) = Log::memory();
    let mut client = Client::new(s, Box::new(ScriptPlayer::from_side(&bob_lines())), log).unwrap();
    // Ctrl-C once our -8384FU is confirmed.
    let stop = client.stop_flag();
    let watched = lines.clone();
    let ctrl_c = std::thread::spawn(move || {
        let end = Instant::now() + Duration::from_secs(10);
        while Instant::now() < end {
            if watched
                .lock()
                .unwrap()
                .iter()
                .any(|l| l.contains("-8384FU (ours)"))
            {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                return Instant::now();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("the game did not reach -8384FU");
    });
    let report = client.run();
    let stopped_at = ctrl_c.join().unwrap();
    let took = stopped_at.elapsed();
    let record =
        std::fs::read_to_string(dir.join("test+testgame-60-5+alice+bob+20261121095139.csa"));
    let _ = std::fs::remove_dir_all(&dir);
    let log = lines.lock().unwrap().clone();
    assert!(
        matches!(report, Err(CsaError::Interrupted)),
        "{report:?}\n{log:?}"
    );
    // Stopped at once, not when the server closes 3 s later; no reconnection.
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(!log.iter().any(|l| l.contains("reconnecting")), "{log:?}");
    let record = record.expect("record written");
    assert!(
        record.contains("-8384FU\nT1\n'client stopped: interrupted\n'$END_TIME:"),
        "{record}"
    );
    let _ = server.finish();
}
