//! The hybrid player in process, with the material αβ player and networks without a model:
//! a side that cannot play is left out and reported at every `go`, the rule's options route
//! the decision, and every search answers with a legal move.

use hayate_core::Position;
use hayate_core::player::{BestMove, Info, Limits, Player, Signals};
use hayate_eval::Material;
use hayate_hybrid::{AlphaBetaSide, HybridPlayer};
use hayate_infer::RandomBackend;
use hayate_mcts::MctsPlayer;
use hayate_search::{AlphaBeta, Options};
use std::time::Duration;

fn ab() -> Box<dyn AlphaBetaSide> {
    let options = Options {
        hash_mb: 1,
        ..Options::default()
    };
    Box::new(AlphaBeta::with_options(Material, options))
}

fn dl() -> MctsPlayer {
    MctsPlayer::with_backend(Box::new(RandomBackend::new(7)))
}

fn byoyomi(ms: u64) -> Limits {
    Limits {
        time: [Some(Duration::ZERO); 2],
        byoyomi: Some(Duration::from_millis(ms)),
        ..Limits::default()
    }
}

/// The answer and every `info string` said.
fn think(p: &mut HybridPlayer, pos: &Position, limits: &Limits) -> (BestMove, Vec<String>) {
    let mut said = Vec::new();
    let best = p.think(pos, limits, &Signals::new(), &mut |i: &Info| {
        said.extend(i.string.clone())
    });
    (best, said)
}

fn legal(pos: &Position, best: BestMove) -> bool {
    matches!(best, BestMove::Move { best, .. } if pos.legal_moves().iter().any(|&m| m == best))
}

#[test]
fn a_model_that_cannot_load_leaves_the_ab_side_and_is_said_at_every_go() {
    let mut p = HybridPlayer::new(Ok(ab()), MctsPlayer::new());
    p.set_option("DNN_Model", "/no/such/model.onnx")
        .expect("recorded");
    let err = p.prepare().expect_err("the model is missing");
    assert!(
        err.contains("/no/such/model.onnx") && err.contains("αβ side alone"),
        "{err}"
    );
    assert!(p.has_side());
    let pos = Position::startpos();
    for _ in 0..2 {
        let (best, said) = think(&mut p, &pos, &byoyomi(200));
        assert!(legal(&pos, best), "{best:?}");
        assert!(
            said.iter()
                .any(|s| s.starts_with("error: hybrid: the DL side")),
            "{said:?}"
        );
        assert!(said.iter().any(|s| s.contains("the only side")), "{said:?}");
    }
}

#[test]
fn an_ab_side_that_cannot_be_built_leaves_the_dl_side() {
    let mut p = HybridPlayer::new(Err("nn.bin: not a network".into()), dl());
    p.set_option("UCT_Threads", "1").expect("a DL option");
    p.set_option("Threads", "2")
        .expect("an αβ option, with no αβ side to take it");
    assert!(p.prepare().is_err());
    let pos = Position::startpos();
    let (best, said) = think(&mut p, &pos, &byoyomi(200));
    assert!(legal(&pos, best), "{best:?}");
    assert!(said.iter().any(|s| s.contains("DL side alone")), "{said:?}");
    assert!(
        said.iter().any(|s| s.starts_with("hybrid: dl ")),
        "{said:?}"
    );
}

#[test]
fn the_rule_options_route_the_decision() {
    let mut p = HybridPlayer::new(Ok(ab()), dl());
    for (n, v) in [("UCT_Threads", "1"), ("USI_Hash", "1")] {
        p.set_option(n, v).expect("option");
    }
    p.prepare().expect("both sides");
    let pos = Position::from_usi_position("startpos moves 7g7f 3c3d").expect("position");
    // Threshold 0: every αβ score is decisive.
    p.set_option("Hybrid_AbThreshold", "0").expect("option");
    let (best, said) = think(&mut p, &pos, &byoyomi(200));
    assert!(legal(&pos, best));
    assert!(
        said.iter().any(|s| s.starts_with("hybrid: ab ")),
        "{said:?}"
    );
    // Never decisive, no verification: the DL move (or a move both chose).
    p.set_option("Hybrid_AbThreshold", "32000").expect("option");
    p.set_option("Hybrid_VerifyDepth", "0").expect("option");
    let (best, said) = think(&mut p, &pos, &byoyomi(200));
    assert!(legal(&pos, best));
    let decided = said
        .iter()
        .find(|s| s.starts_with("hybrid: "))
        .expect("said");
    assert!(decided.starts_with("hybrid: dl "), "{said:?}");
    // Verification on: the DL move is verified or overruled, and says which.
    p.set_option("Hybrid_VerifyDepth", "4").expect("option");
    let (best, said) = think(&mut p, &pos, &byoyomi(300));
    assert!(legal(&pos, best));
    let decided = said
        .iter()
        .find(|s| s.starts_with("hybrid: "))
        .expect("said");
    assert!(
        ["verified", "overruled", "agree"]
            .iter()
            .any(|w| decided.contains(w)),
        "{decided}"
    );
}
