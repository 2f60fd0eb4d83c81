//! A USI fuzz test against the real binary: seeded random bytes, malformed lines and `go` lines
//! with bytes that are not UTF-8, interleaved with valid commands. The engine must answer `isready` within 2 s after every 50
//! lines, answer every `go` with exactly one `bestmove` (`checkmate` for `go mate`), and stay up
//! until `quit`.

mod support;

use hayate_usi::{Command, decode_line, parse_command};
use std::time::{Duration, Instant};
use support::{Engine, SERIAL};

/// A small seeded generator (SplitMix64): the same seed gives the same lines.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Commands a GUI sends, each cheap (short searches; ones without a limit end at the next
/// `stop` or `go`).
const VALID: &[&str] = &[
    "isready",
    "usinewgame",
    "position startpos",
    "position startpos moves 7g7f 3c3d 8h2b+ 3a2b",
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d",
    "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
    "position sfen 8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "go depth 1",
    "go depth 2",
    "go nodes 300",
    "go btime 0 wtime 0 byoyomi 10",
    "go btime 100 wtime 100 binc 10 winc 10",
    "go movetime 15",
    "go infinite",
    "go ponder btime 0 wtime 0 byoyomi 10",
    "go mate 10",
    "ponderhit",
    "stop",
    "stop",
    "gameover win",
    "setoption name MultiPV value 2",
    "setoption name MultiPV value 1",
    "setoption name USI_Ponder value true",
    "setoption name DrawValue value -50",
    "usi",
    "d",
];

/// Malformed lines of the kinds GUIs and broken pipes produce.
const MALFORMED: &[&str] = &[
    "go btime 18446744073709551615 wtime 18446744073709551615 byoyomi 10",
    "go btime -99999999999999999999999 wtime 0 byoyomi 10",
    "go depth 99999999999999999999 nodes 200",
    "go nodes -5 depth 1",
    "go movetime abc depth 1",
    "go mate -1",
    "go searchmoves 7g7f zzzz 1a1a depth 1",
    "go depth",
    "go frobnicate depth 1",
    "position sfen 9/9/9/9/9/9/9/9/9 b - 1",
    "position sfen 4k4/9/9/9/9/9/9/9/3KK4 b - 1",
    "position sfen 4k4/4+p4/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1",
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
    "position startpos moves 7g7f 7g7f",
    "position startpos moves 1a1a",
    "position startpos moves",
    "position sfen",
    "position",
    "setoption name",
    "setoption value 3",
    "setoption name MultiPV value 0",
    "setoption name MultiPV value 99999999999999999999",
    "setoption name Threads value many",
    "setoption name EvalType value frobnicate",
    "setoption name NoSuchOption value 1",
    "gameover",
    "ponderhit now",
    "isready please",
    "usi usi",
    "\t  \t",
    "",
];

/// Bytes biased towards USI's alphabet, with anything else mixed in (never `\n`).
fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    const ALPHABET: &[u8] = b"gopstinqurmvebwkl0123456789+-*/ \t\r";
    let len = rng.below(80);
    (0..len)
        .map(|_| match rng.below(4) {
            0 => (rng.next() as u8).max(1),
            _ => ALPHABET[rng.below(ALPHABET.len())],
        })
        .map(|b| if b == b'\n' { b'?' } else { b })
        .collect()
}

/// A valid line damaged: truncated, a byte flipped, or words shuffled.
fn damaged(rng: &mut Rng) -> Vec<u8> {
    let mut b = rng.pick(VALID).as_bytes().to_vec();
    match rng.below(3) {
        0 => b.truncate(rng.below(b.len() + 1)),
        1 if !b.is_empty() => {
            let i = rng.below(b.len());
            b[i] ^= 1 << rng.below(8);
        }
        _ => {
            let text = String::from_utf8_lossy(&b).to_string();
            let mut words: Vec<&str> = text.split(' ').collect();
            for i in (1..words.len()).rev() {
                words.swap(i, rng.below(i + 1));
            }
            b = words.join(" ").into_bytes();
        }
    }
    b.iter()
        .map(|&c| if c == b'\n' { b'?' } else { c })
        .collect()
}

/// A `go` line (valid or malformed) with bytes that are not UTF-8 put in: one to three
/// replaced or inserted after the `go ` (a GUI's broken pipe, issue 66). Every one is owed an
/// answer.
fn mutated_go(rng: &mut Rng) -> Vec<u8> {
    let gos: Vec<&str> = VALID
        .iter()
        .chain(MALFORMED)
        .copied()
        .filter(|l| l.starts_with("go "))
        .collect();
    let mut b = rng.pick(&gos).as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let i = 3 + rng.below(b.len() - 2);
        let bad = 0x80 | rng.next() as u8;
        if rng.below(2) == 0 && i < b.len() {
            b[i] = bad;
        } else {
            b.insert(i, bad);
        }
    }
    b
}

/// What the engine owes for a line: a `bestmove`, a `checkmate` (for `go mate`) or a
/// `readyok`. `Err` for lines the test must not send.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Owed {
    bestmove: usize,
    checkmate: usize,
    readyok: usize,
}

fn owed(line: &[u8]) -> Result<Owed, ()> {
    let is_go = line
        .trim_ascii_start()
        .split(u8::is_ascii_whitespace)
        .next()
        == Some(&b"go"[..]);
    let Ok(text) = decode_line(line) else {
        assert!(!is_go, "a go line must be read: {line:?}");
        return Ok(Owed::default());
    };
    let mut o = Owed::default();
    match parse_command(&text) {
        Ok(Command::Go(g)) if g.mate.is_some() => o.checkmate = 1,
        Ok(Command::Go(_)) => o.bestmove = 1,
        Ok(Command::IsReady) => o.readyok = 1,
        // `quit` ends the run; a damaged line could become a large hash or many threads.
        Ok(Command::Quit) => return Err(()),
        Ok(Command::SetOption { name, .. }) if name.contains("Hash") || name == "Threads" => {
            return Err(());
        }
        _ => {}
    }
    Ok(o)
}

fn add(total: &mut Owed, o: Owed) {
    total.bestmove += o.bestmove;
    total.checkmate += o.checkmate;
    total.readyok += o.readyok;
}

/// Counts the answers among the engine's lines.
fn answers(lines: &[String]) -> Owed {
    let count = |p: &str| lines.iter().filter(|l| l.starts_with(p)).count();
    Owed {
        bestmove: count("bestmove"),
        checkmate: count("checkmate"),
        readyok: lines.iter().filter(|l| *l == "readyok").count(),
    }
}

/// Sends `isready` and reads until every `readyok` owed so far has come, within 2 s.
fn sync(e: &mut Engine, sent: &mut Owed, seen: &mut Vec<String>, round: usize) {
    e.send("isready");
    sent.readyok += 1;
    let t = Instant::now();
    while answers(seen).readyok < sent.readyok {
        let left = Duration::from_secs(2).saturating_sub(t.elapsed());
        seen.extend(e.until(left, |l| l == "readyok"));
    }
    assert!(t.elapsed() < Duration::from_secs(2), "round {round}");
}

#[test]
fn usi_fuzz_keeps_the_protocol() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let t0 = Instant::now();
    let mut rng = Rng(0x4861_7961_7465);
    let mut e = Engine::start();
    e.handshake(&[("EvalType", "material"), ("USI_Hash", "16")]);
    let mut sent = Owed::default();
    let mut seen = Vec::new();
    let mut mutated_gos = 0usize;
    for round in 0..60 {
        for _ in 0..50 {
            let line = loop {
                let line = match rng.below(11) {
                    0..=3 => rng.pick(VALID).as_bytes().to_vec(),
                    4..=5 => rng.pick(MALFORMED).as_bytes().to_vec(),
                    6..=7 => damaged(&mut rng),
                    8 => {
                        mutated_gos += 1;
                        mutated_go(&mut rng)
                    }
                    _ => random_bytes(&mut rng),
                };
                if let Ok(o) = owed(&line) {
                    add(&mut sent, o);
                    break line;
                }
            };
            e.send_bytes(&line);
        }
        sync(&mut e, &mut sent, &mut seen, round);
        let got = answers(&seen);
        assert!(
            got.bestmove <= sent.bestmove && got.checkmate <= sent.checkmate,
            "round {round}: {got:?} for {sent:?}"
        );
        assert!(e.is_running(), "round {round}: the engine exited");
    }
    // The last search (if any) answers its stop; then every go has had its answer.
    e.send("stop");
    sync(&mut e, &mut sent, &mut seen, 60);
    assert_eq!(answers(&seen), sent);
    assert!(sent.bestmove > 100 && sent.checkmate > 10, "{sent:?}");
    assert!(mutated_gos > 100, "{mutated_gos} go lines with bad bytes");
    assert!(e.is_running());
    e.quit();
    eprintln!(
        "fuzz: 3000 lines ({mutated_gos} go lines with bad bytes), {sent:?}, {:?}",
        t0.elapsed()
    );
}
