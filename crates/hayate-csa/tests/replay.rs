//! The client against a scripted server on 127.0.0.1 that replays the server side of each
//! real shogi-server transcript in `shared/data/csa/` and checks every line the client sends.

mod support;

use hayate_core::player::Player;
use hayate_csa::{Client, CsaError, EndReason, GameReport, Log, Outcome, Secret, Settings};
use std::time::Duration;
use support::{Line, ScriptPlayer, ScriptServer, Seen, Step, side, steps, temp_dir, transcript};

struct Run {
    result: Result<GameReport, CsaError>,
    server: Result<Vec<Seen>, String>,
    log: Vec<String>,
    record: Option<String>,
}

/// Settings from the transcript's LOGIN line, with short timeouts for tests.
fn settings(lines: &[Line], port: u16) -> Settings {
    let login = lines
        .iter()
        .find(|l| l.from_client && l.text.starts_with("LOGIN "))
        .expect("LOGIN line");
    let mut parts = login.text.split(' ').skip(1);
    let id = parts.next().expect("id");
    let password = parts.next().expect("password");
    let mut s = Settings::new("127.0.0.1", port, id, Secret::new(password));
    s.margin = Duration::from_millis(500);
    s.answer_timeout = Duration::from_secs(5);
    s.reconnect.enabled = false;
    s
}

fn replay_with(
    file: &str,
    who: &str,
    script: Vec<Step>,
    player: Box<dyn Player>,
    edit: impl FnOnce(&mut Settings),
) -> Run {
    let lines = side(&transcript(file), who);
    let server = ScriptServer::start(vec![script]);
    let dir = temp_dir(&format!("{}-{who}", file.trim_end_matches(".txt")));
    let mut s = settings(&lines, server.port);
    s.record_dir = Some(dir.clone());
    edit(&mut s);
    let (log, log_lines) = Log::memory();
    let mut client = Client::new(s, player, log).expect("client");
    let result = client.play_one();
    let server = server.finish();
    let record = match &result {
        Ok(r) => r
            .record
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok()),
        Err(_) => None,
    };
    let log = log_lines.lock().unwrap().clone();
    // The password is never logged.
    let password = lines
        .iter()
        .find(|l| l.text.starts_with("LOGIN "))
        .and_then(|l| l.text.split(' ').nth(2).map(str::to_string))
        .unwrap_or_default();
    for l in &log {
        assert!(!l.contains(&password), "password in log: {l}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    Run {
        result,
        server,
        log,
        record,
    }
}

/// Replays one participant exactly, playing its own moves.
fn replay(file: &str, who: &str) -> Run {
    let lines = side(&transcript(file), who);
    replay_with(
        file,
        who,
        steps(&lines),
        Box::new(ScriptPlayer::from_side(&lines)),
        |_| {},
    )
}

fn ok(run: &Run) -> &GameReport {
    if let Err(e) = &run.server {
        panic!("server: {e}\nlog:\n{}", run.log.join("\n"));
    }
    match &run.result {
        Ok(r) => r,
        Err(e) => panic!("client: {e}\nlog:\n{}", run.log.join("\n")),
    }
}

fn assert_result(run: &Run, reason: EndReason, outcome: Outcome) {
    let r = ok(run);
    assert_eq!(
        r.reason.as_ref(),
        Some(&reason),
        "log:\n{}",
        run.log.join("\n")
    );
    assert_eq!(r.outcome, Some(outcome));
    assert!(!r.rejected);
}

#[test]
fn basic_alice_comments_then_resigns_and_logs_out() {
    let lines = side(&transcript("transcript_csa_basic.txt"), "alice");
    let run = replay_with(
        "transcript_csa_basic.txt",
        "alice",
        steps(&lines),
        Box::new(ScriptPlayer::from_side(&lines)),
        |s| s.logout = true,
    );
    assert_result(&run, EndReason::Resign, Outcome::Lose);
    let seen = run.server.as_ref().unwrap();
    let sent: Vec<&str> = seen[0]
        .texts()
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        sent,
        [
            "LOGIN alice testgame-60-5-B",
            "AGREE test+testgame-60-5+alice+bob+20261121095139",
            "+7776FU,'* 30 -3334FU +2726FU",
            "+2726FU",
            "+2625FU",
            "%TORYO",
            "LOGOUT",
        ]
    );
    let record = run.record.as_deref().expect("record");
    assert!(record.starts_with("V2.2\nN+alice\nN-bob\n$EVENT:test+testgame-60-5+alice+bob+"));
    assert!(record.contains("$TIME_LIMIT:00:01+05\n"));
    assert!(record.contains("+7776FU\nT0\n'** 30 -3334FU +2726FU\n-3334FU\nT1\n+2726FU\nT1\n"));
    assert!(record.contains("-8485FU\nT1\n%TORYO\n'summary:toryo:alice lose:bob win\n"));
    // One log line per move.
    assert_eq!(run.log.iter().filter(|l| l.contains(" move ")).count(), 6);
}

#[test]
fn basic_bob_wins_on_resignation() {
    let run = replay("transcript_csa_basic.txt", "bob");
    assert_result(&run, EndReason::Resign, Outcome::Win);
    assert_eq!(ok(&run).plies, 7);
}

#[test]
fn opponent_illegal_move_wins() {
    let run = replay("transcript_csa_illegal.txt", "blk");
    assert_result(&run, EndReason::IllegalMove, Outcome::Win);
}

#[test]
fn an_illegal_move_from_the_player_is_never_sent() {
    // wht's script plays -5554FU (illegal); the client must send a legal move instead.
    let lines = side(&transcript("transcript_csa_illegal.txt"), "wht");
    let mut script = Vec::new();
    for step in steps(&lines) {
        match step {
            Step::Expect(e) if e == "-5554FU" => {
                script.push(Step::ExpectWith(
                    "a legal move instead of -5554FU".into(),
                    Box::new(|got: &str| {
                        let mut pos = hayate_core::Position::startpos();
                        for m in ["+7776FU", "-3334FU", "+2726FU"] {
                            let mv = hayate_csa::csa_move::parse_csa_move(&pos, m).unwrap();
                            pos.do_move(mv);
                        }
                        hayate_csa::csa_move::parse_csa_move(&pos, got)
                            .map(|_| ())
                            .map_err(|e| e.to_string())
                    }),
                ));
                script.push(Step::Close);
                break;
            }
            s => script.push(s),
        }
    }
    let run = replay_with(
        "transcript_csa_illegal.txt",
        "wht",
        script,
        Box::new(ScriptPlayer::from_side(&lines)),
        |_| {},
    );
    run.server.as_ref().expect("server");
    assert!(matches!(run.result, Err(CsaError::ConnectionLost(_))));
    assert!(
        run.log.iter().any(|l| l.contains("illegal move")),
        "{:?}",
        run.log
    );
}

#[test]
fn repetition_is_a_draw_for_both() {
    assert_result(
        &replay("transcript_csa_sennichite.txt", "blk"),
        EndReason::Sennichite,
        Outcome::Draw,
    );
    let run = replay("transcript_csa_sennichite.txt", "wht");
    assert_result(&run, EndReason::Sennichite, Outcome::Draw);
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let blk = replay("transcript_csa_oute_sennichite.txt", "blk");
    assert_result(&blk, EndReason::OuteSennichite, Outcome::Lose);
    assert!(
        blk.record
            .as_deref()
            .unwrap()
            .contains("%+ILLEGAL_ACTION\n'summary:oute_sennichite:blk lose:wht win\n")
    );
    let wht = replay("transcript_csa_oute_sennichite.txt", "wht");
    assert_result(&wht, EndReason::OuteSennichite, Outcome::Win);
}

#[test]
fn time_up_of_the_opponent_wins() {
    let run = replay("transcript_csa_timeup.txt", "wht");
    assert_result(&run, EndReason::TimeUp, Outcome::Win);
}

#[test]
fn the_client_stops_a_slow_player_before_time_runs_out() {
    // timeup_silent, Black's side, but our player waits for `stop`: the client must stop it
    // 0.3 s before its hard limit (3 s less the 0.5 s margin), so at 2.2 s, and send the move
    // before the server's clock runs out.
    let lines = side(&transcript("transcript_csa_timeup_silent.txt"), "blk");
    let mut player = ScriptPlayer::from_side(&lines);
    player.slow = true;
    let run = replay_with(
        "transcript_csa_timeup_silent.txt",
        "blk",
        steps(&lines),
        Box::new(player),
        |_| {},
    );
    assert_result(&run, EndReason::TimeUp, Outcome::Lose);
    let seen = &run.server.as_ref().unwrap()[0];
    let agree = seen
        .lines
        .iter()
        .find(|(_, l)| l.starts_with("AGREE"))
        .unwrap()
        .0;
    let mv = seen.lines.iter().find(|(_, l)| l == "+7776FU").unwrap().0;
    let thought = mv - agree;
    assert!(
        thought >= Duration::from_millis(2100) && thought < Duration::from_millis(3000),
        "moved after {thought:?}"
    );
}

#[test]
fn valid_declaration_is_sent_exactly_when_allowed() {
    // White's 27-point declaration at ply 96; the client declares by itself as soon as the
    // rule allows, which must be exactly where the transcript's client did.
    let wht = replay("transcript_csa_jishogi.txt", "wht");
    assert_result(&wht, EndReason::Jishogi, Outcome::Win);
    let sent = wht.server.as_ref().unwrap()[0].texts().join("\n");
    assert!(sent.ends_with("-2627TO\n%KACHI"), "{sent}");
    assert!(
        wht.record
            .as_deref()
            .unwrap()
            .contains("+4243TO\nT0\n%KACHI\nT0\n'summary:kachi:")
    );
    let blk = replay("transcript_csa_jishogi.txt", "blk");
    assert_result(&blk, EndReason::Jishogi, Outcome::Lose);
}

#[test]
fn premature_declaration_is_not_sent() {
    // kachi_bad: Black's player says "win" on move 1; the client must play a move instead.
    let lines = side(&transcript("transcript_csa_kachi_bad.txt"), "blk");
    let mut script = Vec::new();
    for step in steps(&lines) {
        match step {
            Step::Expect(e) if e == "%KACHI" => {
                script.push(Step::ExpectWith(
                    "a legal move, not %KACHI".into(),
                    Box::new(|got: &str| {
                        hayate_csa::csa_move::parse_csa_move(
                            &hayate_core::Position::startpos(),
                            got,
                        )
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                    }),
                ));
                script.push(Step::Close);
                break;
            }
            s => script.push(s),
        }
    }
    let run = replay_with(
        "transcript_csa_kachi_bad.txt",
        "blk",
        script,
        Box::new(ScriptPlayer::from_side(&lines)),
        |_| {},
    );
    run.server.as_ref().expect("server");
    assert!(matches!(run.result, Err(CsaError::ConnectionLost(_))));
    assert!(
        run.log
            .iter()
            .any(|l| l.contains("27-point rule does not allow"))
    );
    // The other side of the same game sees the bad declaration and wins.
    let wht = replay("transcript_csa_kachi_bad.txt", "wht");
    assert_result(&wht, EndReason::IllegalMove, Outcome::Win);
}

#[test]
fn max_moves_is_censored() {
    assert_result(
        &replay("transcript_csa_maxmoves.txt", "blk"),
        EndReason::MaxMoves,
        Outcome::Censored,
    );
    let wht = replay("transcript_csa_maxmoves.txt", "wht");
    assert_result(&wht, EndReason::MaxMoves, Outcome::Censored);
    assert!(
        wht.record
            .as_deref()
            .unwrap()
            .contains("%HIKIWAKE\n'summary:max_moves:blk draw:wht draw\n")
    );
}

#[test]
fn fischer_game_both_sides() {
    let blk = replay("transcript_csa_fischer.txt", "blk");
    assert_result(&blk, EndReason::Resign, Outcome::Lose);
    let wht = replay("transcript_csa_fischer.txt", "wht");
    assert_result(&wht, EndReason::Resign, Outcome::Win);
    assert!(
        wht.log
            .iter()
            .any(|l| l.contains("time 10s byoyomi 0s increment 2s"))
    );
    // Clock after +7776FU T0, -3334FU T0, +2726FU T1: Black 10+2+2-1 = 13 s.
    assert!(
        wht.log
            .iter()
            .any(|l| l.contains("move 3 +2726FU T1 | + 13s - 12s")),
        "{:?}",
        wht.log
    );
}

#[test]
fn floodgate_comments_carry_black_view_evals() {
    let a = replay("transcript_csa_floodgate.txt", "fgA");
    assert_result(&a, EndReason::Resign, Outcome::Lose);
    let b = replay("transcript_csa_floodgate.txt", "fgB");
    assert_result(&b, EndReason::Resign, Outcome::Win);
    let sent = b.server.as_ref().unwrap()[0].texts().join("\n");
    assert!(
        sent.contains("-3334FU,'* -50 +2726FU\n-8384FU,'* -38 +2625FU"),
        "{sent}"
    );
}

#[test]
fn floodgate_comment_can_be_turned_off() {
    let lines = side(&transcript("transcript_csa_floodgate.txt"), "fgB");
    let script = steps(&lines)
        .into_iter()
        .map(|s| match s {
            Step::Expect(e) if e.contains(",'") => {
                Step::Expect(e.split(",'").next().unwrap().to_string())
            }
            s => s,
        })
        .collect();
    let run = replay_with(
        "transcript_csa_floodgate.txt",
        "fgB",
        script,
        Box::new(ScriptPlayer::from_side(&lines)),
        |s| s.floodgate_comment = false,
    );
    assert_result(&run, EndReason::Resign, Outcome::Win);
}

#[test]
fn rejected_by_the_opponent() {
    let run = replay("transcript_csa_reject.txt", "blk");
    let r = ok(&run);
    assert!(r.rejected);
    assert_eq!(r.outcome, None);
    assert_eq!(r.game_id, "test+sc-60-10+blk+wht+20261121095609");
}

#[test]
fn an_unusable_summary_is_rejected_by_id() {
    // wht's side of the reject transcript, with a time unit we cannot read.
    let lines = side(&transcript("transcript_csa_reject.txt"), "wht");
    let script = steps(&lines)
        .into_iter()
        .map(|s| match s {
            Step::Send(l) if l == "Byoyomi:10" => Step::Send("Byoyomi:ten".into()),
            s => s,
        })
        .collect();
    let run = replay_with(
        "transcript_csa_reject.txt",
        "wht",
        script,
        Box::new(ScriptPlayer::from_side(&lines)),
        |_| {},
    );
    run.server.as_ref().expect("server");
    assert!(
        matches!(run.result, Err(CsaError::BadSummary(_))),
        "{:?}",
        run.result
    );
    assert!(
        run.log
            .iter()
            .any(|l| l.contains("unusable Game_Summary: bad value in summary line `Byoyomi:ten`"))
    );
}

#[test]
fn chudan_by_the_opponent_is_its_loss() {
    // shogi-server scores %CHUDAN as an illegal move (our client never sends it).
    let run = replay("transcript_csa_chudan.txt", "wht");
    assert_result(&run, EndReason::IllegalMove, Outcome::Win);
}
