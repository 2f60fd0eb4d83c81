//! Random legal games for round-trip tests (fixed-seed, no external crates).
#![allow(dead_code)]

use hayate_core::{Color, Move, Position};
use hayate_records::{EndKind, GameEnd, GameRecord, MoveEntry};

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

pub const ENDINGS: [EndKind; 15] = [
    EndKind::Resign,
    EndKind::Interrupt,
    EndKind::Sennichite,
    EndKind::TimeUp,
    EndKind::IllegalMove,
    EndKind::IllegalAction(Color::Black),
    EndKind::IllegalAction(Color::White),
    EndKind::Jishogi,
    EndKind::Kachi,
    EndKind::Hikiwake,
    EndKind::MaxMoves,
    EndKind::Tsumi,
    EndKind::Fuzumi,
    EndKind::Error,
    EndKind::Matta,
];

/// A random move that prefers drops, promotions and captures half the time.
pub fn pick(rng: &mut Rng, pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let spicy: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.is_drop() || m.is_promotion() || m.is_capture())
        .collect();
    if !spicy.is_empty() && rng.chance(50) {
        Some(spicy[rng.below(spicy.len())])
    } else {
        Some(moves[rng.below(moves.len())])
    }
}

/// A random game. `whole_seconds` keeps times to whole seconds (KIF has no milliseconds);
/// `plain_start` keeps the initial position.
pub fn random_game(rng: &mut Rng, whole_seconds: bool, plain_start: bool) -> GameRecord {
    let mut pos = Position::startpos();
    if !plain_start && rng.chance(30) {
        for _ in 0..rng.below(80) {
            match pick(rng, &pos) {
                Some(m) => pos.do_move(m),
                None => break,
            }
        }
        // A fresh position from the reached one, move number 1.
        let sfen = pos.to_sfen();
        let board: Vec<&str> = sfen.split_whitespace().take(3).collect();
        pos = Position::from_sfen(&format!("{} 1", board.join(" "))).expect("valid");
    }
    let mut rec = GameRecord::from_sfen(&pos.to_sfen());
    rec.players = [
        format!("先手{}", rng.below(100)),
        format!("bob{}", rng.below(100)),
    ];
    rec.metadata
        .push(("EVENT".into(), format!("test{}", rng.below(1000))));
    rec.metadata
        .push(("START_TIME".into(), "2026/11/21 12:00:00".into()));
    if rng.chance(30) {
        rec.comments.push("序盤のコメント".into());
    }
    let len = rng.below(160);
    let mut mated = false;
    for i in 0..len {
        let Some(m) = pick(rng, &pos) else {
            mated = true;
            break;
        };
        let time_ms = if rng.chance(10) {
            None
        } else if whole_seconds {
            Some(1000 * rng.below(100) as u64)
        } else {
            Some(rng.below(100_000) as u64)
        };
        let mut comments = Vec::new();
        if rng.chance(10) {
            comments.push(format!("** {} {}", rng.below(2000) as i64 - 1000, i));
        }
        if rng.chance(5) {
            comments.push(format!("手{i}の感想"));
        }
        rec.moves.push(MoveEntry {
            mv: m,
            time_ms,
            comments,
        });
        pos.do_move(m);
    }
    if pos.legal_moves().is_empty() {
        mated = true;
    }
    rec.end = if mated {
        Some(GameEnd {
            kind: EndKind::Tsumi,
            time_ms: None,
        })
    } else if rng.chance(90) {
        Some(GameEnd {
            kind: ENDINGS[rng.below(ENDINGS.len())],
            time_ms: if rng.chance(50) {
                Some(1000 * rng.below(10) as u64)
            } else {
                None
            },
        })
    } else {
        None
    };
    rec
}
