//! A stand-in player: a random legal move, the entering-king declaration when it is valid,
//! resignation when mated. Until the αβ engine plugs in, `hayate csa` plays with it.

use hayate_core::player::{BestMove, Info, Limits, Player, Score, Signals};
use hayate_core::usi_option::OptionError;
use hayate_core::{DeclarationRule, Position};

/// Plays uniformly random legal moves (xorshift, seeded).
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    state: u64,
}

impl RandomPlayer {
    /// A player with this seed (0 is replaced by a fixed non-zero seed).
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            state: if seed == 0 {
                0x9e37_79b9_7f4a_7c15
            } else {
                seed
            },
        }
    }

    fn next(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state = x;
        x
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "hayate-random".into()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        match name {
            "Seed" => {
                let seed = value.parse::<u64>().map_err(|_| OptionError::NotANumber {
                    name: name.into(),
                    value: value.into(),
                })?;
                *self = RandomPlayer::new(seed);
                Ok(())
            }
            // Other options are meant for the real engine: accept them so that one config
            // file serves both.
            _ => Ok(()),
        }
    }

    fn think(
        &mut self,
        pos: &Position,
        _limits: &Limits,
        _signals: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        if pos.can_declare_win(DeclarationRule::Csa27) {
            return BestMove::Win;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return BestMove::Resign;
        }
        let best = moves[(self.next() % moves.len() as u64) as usize];
        info(&Info {
            depth: Some(1),
            score: Some(Score::Cp(0)),
            pv: vec![best],
            ..Info::default()
        });
        BestMove::Move { best, ponder: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_legal_moves_and_resigns_when_mated() {
        let mut p = RandomPlayer::new(7);
        let mut pos = Position::startpos();
        let sig = Signals::default();
        for _ in 0..40 {
            match p.think(&pos, &Limits::default(), &sig, &mut |_| {}) {
                BestMove::Move { best, .. } => {
                    assert!(pos.is_legal(best));
                    pos.do_move(best);
                }
                _ => break,
            }
        }
        // Black's king on 5i, White's gold on 5h guarded by a pawn on 5g: mated.
        let mated = Position::from_sfen("4k4/9/9/9/9/9/4p4/4g4/4K4 b - 1").unwrap();
        assert!(mated.legal_moves().is_empty());
        assert_eq!(
            p.think(&mated, &Limits::default(), &sig, &mut |_| {}),
            BestMove::Resign
        );
        assert!(p.set_option("Seed", "x").is_err());
        assert!(p.set_option("Threads", "4").is_ok());
        assert!(p.set_option("Seed", "5").is_ok());
    }
}
