//! The decision rule over synthetic answers.

use super::*;
use hayate_core::Position;

fn mv(text: &str) -> BestMove {
    let best = Position::startpos()
        .parse_usi_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    BestMove::Move { best, ponder: None }
}

fn ab(text: &str, score: Score) -> AbView {
    AbView {
        best: mv(text),
        score,
    }
}

fn dl(text: &str) -> DlView {
    DlView {
        best: mv(text),
        proven_win: false,
    }
}

fn decided(step: Step) -> Decision {
    match step {
        Step::Final(d) => d,
        Step::Verify(m) => panic!("asked to verify {}", m.to_usi()),
    }
}

#[test]
fn a_lone_side_plays_whatever_it_answers() {
    let r = Rule::default();
    let d = decided(first_step(&r, Some(&ab("7g7f", Score::Cp(-5000))), None));
    assert_eq!(
        (d.best, d.side, d.reason),
        (mv("7g7f"), Side::AlphaBeta, Reason::OnlySide)
    );
    let d = decided(first_step(&r, None, Some(&dl("2g2f"))));
    assert_eq!((d.best, d.side), (mv("2g2f"), Side::Dl));
    let d = decided(first_step(&r, None, None));
    assert_eq!(d.best, BestMove::Resign);
}

#[test]
fn mate_rule_plays_an_ab_mate_before_a_dl_proof_and_either_over_the_other_side() {
    let r = Rule::default();
    let proven = DlView {
        proven_win: true,
        ..dl("2g2f")
    };
    let d = decided(first_step(
        &r,
        Some(&ab("7g7f", Score::Mate(3))),
        Some(&proven),
    ));
    assert_eq!((d.best, d.reason), (mv("7g7f"), Reason::Mate));
    // A DL proof beats a small αβ score, and would beat verification.
    let d = decided(first_step(
        &r,
        Some(&ab("7g7f", Score::Cp(40))),
        Some(&proven),
    ));
    assert_eq!(
        (d.best, d.side, d.reason),
        (mv("2g2f"), Side::Dl, Reason::Mate)
    );
    // With the mate rule off, a DL proof is only a DL move: verification decides.
    let off = Rule { mate: false, ..r };
    assert_eq!(
        first_step(&off, Some(&ab("7g7f", Score::Cp(40))), Some(&proven)),
        Step::Verify(Position::startpos().parse_usi_move("2g2f").expect("legal"))
    );
    // Being mated is no mate to play: the αβ score is decisive instead (longest defence).
    let d = decided(first_step(
        &r,
        Some(&ab("7g7f", Score::Mate(-4))),
        Some(&dl("2g2f")),
    ));
    assert_eq!((d.best, d.reason), (mv("7g7f"), Reason::Decisive));
}

#[test]
fn a_decisive_ab_score_plays_the_ab_move_at_the_threshold_not_below() {
    let r = Rule {
        ab_threshold: 1000,
        ..Rule::default()
    };
    for score in [1000, -1000, 2500] {
        let d = decided(first_step(
            &r,
            Some(&ab("7g7f", Score::Cp(score))),
            Some(&dl("2g2f")),
        ));
        assert_eq!(
            (d.best, d.reason),
            (mv("7g7f"), Reason::Decisive),
            "{score}"
        );
    }
    let step = first_step(&r, Some(&ab("7g7f", Score::Cp(999))), Some(&dl("2g2f")));
    assert!(matches!(step, Step::Verify(_)), "{step:?}");
}

#[test]
fn the_dl_move_is_played_when_both_agree_or_verification_is_off() {
    let r = Rule::default();
    let d = decided(first_step(
        &r,
        Some(&ab("7g7f", Score::Cp(10))),
        Some(&dl("7g7f")),
    ));
    assert_eq!((d.side, d.reason), (Side::Dl, Reason::Agree));
    let off = Rule {
        verify_depth: 0,
        ..r
    };
    let d = decided(first_step(
        &off,
        Some(&ab("7g7f", Score::Cp(10))),
        Some(&dl("2g2f")),
    ));
    assert_eq!(
        (d.best, d.side, d.reason),
        (mv("2g2f"), Side::Dl, Reason::Dl)
    );
}

#[test]
fn verification_overrules_the_dl_move_only_beyond_the_margin() {
    let r = Rule {
        verify_margin: 300,
        ..Rule::default()
    };
    let a = ab("7g7f", Score::Cp(200));
    let d = dl("2g2f");
    let within = after_verify(&r, &a, &d, Score::Cp(-100));
    assert_eq!((within.best, within.side), (mv("2g2f"), Side::Dl));
    assert_eq!(
        within.reason,
        Reason::Verified {
            dl_move: Score::Cp(-100)
        }
    );
    let beyond = after_verify(&r, &a, &d, Score::Cp(-101));
    assert_eq!((beyond.best, beyond.side), (mv("7g7f"), Side::AlphaBeta));
    // A DL move that walks into a mate is overruled whatever the margin.
    let wide = Rule {
        verify_margin: 30_000,
        ..r
    };
    let mated = after_verify(&wide, &a, &d, Score::Mate(-5));
    assert_eq!(mated.side, Side::AlphaBeta);
}

#[test]
fn resignation_needs_both_sides_and_a_declaration_either() {
    let r = Rule::default();
    let resigning_ab = AbView {
        best: BestMove::Resign,
        score: Score::Cp(-3000),
    };
    let resigning_dl = DlView {
        best: BestMove::Resign,
        proven_win: false,
    };
    let d = decided(first_step(&r, Some(&resigning_ab), Some(&dl("2g2f"))));
    assert_eq!((d.best, d.reason), (mv("2g2f"), Reason::OtherResigned));
    let d = decided(first_step(
        &r,
        Some(&ab("7g7f", Score::Cp(-300))),
        Some(&resigning_dl),
    ));
    assert_eq!((d.best, d.reason), (mv("7g7f"), Reason::OtherResigned));
    let d = decided(first_step(&r, Some(&resigning_ab), Some(&resigning_dl)));
    assert_eq!((d.best, d.reason), (BestMove::Resign, Reason::BothResign));
    let declaring = DlView {
        best: BestMove::Win,
        proven_win: false,
    };
    let d = decided(first_step(
        &r,
        Some(&ab("7g7f", Score::Cp(0))),
        Some(&declaring),
    ));
    assert_eq!((d.best, d.reason), (BestMove::Win, Reason::Declaration));
}

#[test]
fn scores_order_mates_beyond_evaluations() {
    let order = [
        Score::Mate(0),
        Score::Mate(-2),
        Score::Cp(-15000),
        Score::Cp(0),
        Score::Cp(15000),
        Score::Mate(9),
        Score::Mate(1),
    ];
    for w in order.windows(2) {
        assert!(score_value(w[0]) < score_value(w[1]), "{w:?}");
    }
}
