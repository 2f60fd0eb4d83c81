//! `hayate csa` as a user runs it: the summary line on failure, Ctrl-C while waiting for a game.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn config(name: &str, port: u16, reconnect: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hayate-bin-csa-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cfg = dir.join("csa.toml");
    let text = format!(
        "host = \"127.0.0.1\"\nport = {port}\nid = \"bob\"\npassword_env = \"HAYATE_TEST_PW\"\n\
         record_dir = \"records\"\n[reconnect]\n{reconnect}\n[engine.options]\nEvalType = \"random\"\n"
    );
    std::fs::write(&cfg, text).expect("config");
    cfg
}

fn hayate_csa(cfg: &PathBuf) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hayate"));
    c.arg("csa")
        .arg("--config")
        .arg(cfg)
        .env("HAYATE_TEST_PW", "pw")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

#[test]
fn a_failed_session_still_prints_its_summary() {
    // A port nobody listens on, two tries.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let cfg = config("fail", port, "initial_secs = 0\nmax_attempts = 2");
    let out = hayate_csa(&cfg).output().expect("run");
    let _ = std::fs::remove_dir_all(cfg.parent().unwrap());
    assert!(!out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stdout.lines().last(),
        Some("games 0 win 0 lose 0 draw 0 censored 0 rejected 0 failures 2"),
        "{stderr}"
    );
    assert!(
        stderr.contains("giving up after 2 failures in a row"),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn ctrl_c_while_waiting_for_a_game_ends_cleanly() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let cfg = config("ctrl-c", port, "enabled = true");
    let child = hayate_csa(&cfg).spawn().expect("run");
    // Log in, then no game comes.
    let (stream, _) = listener.accept().expect("connection");
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut login = String::new();
    reader.read_line(&mut login).unwrap();
    assert_eq!(login.trim_end(), "LOGIN bob pw");
    (&stream).write_all(b"LOGIN:bob OK\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(kill.success());
    let out = child.wait_with_output().expect("exit");
    let took = sent.elapsed();
    let _ = std::fs::remove_dir_all(cfg.parent().unwrap());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert!(!out.status.success());
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert_eq!(
        stdout.lines().last(),
        Some("games 0 win 0 lose 0 draw 0 censored 0 rejected 0 failures 0"),
        "{stderr}"
    );
}
