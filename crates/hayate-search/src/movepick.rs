//! Move ordering in stages, generating only what a node gets to: the TT move (checked without
//! generation), then captures and promotions (best by the captured value plus capture history;
//! SEE is run only when a capture is about to be tried, and losing ones are put off to the
//! end), then the killers and the counter-move, then the quiet moves by history (generated
//! only if the node has not cut and the caller still wants quiets), then the losing captures.
//! In check, all evasions are generated at once and ordered the same way.

use crate::history::{Conts, History};
use crate::see::{capture_value, see_ge};
use hayate_core::{
    Bitboard, Move, Move16, MoveList, PieceType, Position, Stage as GenStage, attacks,
};

/// Scores one position's moves and hands them out best first.
pub struct MovePicker {
    list: MoveList,
    scores: [i32; MoveList::CAPACITY],
    /// Next index to hand out in the current stage.
    cur: usize,
    /// Losing captures found so far sit at `0..bad_end`; `bad_cur` is the next to hand out.
    bad_end: usize,
    bad_cur: usize,
    /// Captures occupy `0..captures_end`; quiet moves follow.
    captures_end: usize,
    sorted: bool,
    stage: Stage,
    tt: Move,
    refutations: [Move; 3],
    conts: Conts,
    /// Scales of the threat terms and of the quiet-check bonus in the quiet ordering, in
    /// percent (0: off).
    quiet_terms: QuietTerms,
}

/// The scales of the quiet ordering's terms beside the histories, in percent (0: off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuietTerms {
    /// Stockfish's threat terms (`threat_score`).
    pub threat_pct: i32,
    /// Stockfish's bonus of 16,384 for a direct check that SEE does not lose.
    pub check_pct: i32,
    /// Quiets scored below `-bad_quiet` wait until the losing captures are out (0: never).
    pub bad_quiet: i32,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Refutations(usize),
    GenQuiets,
    Quiets,
    BadCaptures,
    /// The quiets scored below the bad-quiet threshold (none when it is off).
    BadQuiets,
    GenEvasions,
    Evasions,
    /// Quiescence: one scored list, picked best first.
    Quiescence,
    Done,
}

/// Order score of a TT move.
pub const TT_SCORE: i32 = 1 << 30;
/// Order score of a killer or counter-move.
const REFUTATION: i32 = 1 << 27;
/// Order score of a capture that SEE judged losing (handed out last).
const BAD_CAPTURE: i32 = -(1 << 28);
/// Picks made by selection before the rest of the quiet moves is sorted.
const SELECT_FIRST: usize = 3;
/// Picks made in all before the rest is sorted: after the first [`SELECT_FIRST`], each pick
/// takes the first best move and keeps the others in their order (a stable selection), which
/// hands out exactly what the sort would, without sorting a long list (shogi's quiets with
/// drops are often 100) for the few picks most nodes make.
const SELECT_STABLE: usize = 16;

/// The value class of a piece type: 0 pawn, 1 lance or knight, 2 silver or gold-like,
/// 3 bishop or rook, 4 horse or dragon, 5 king.
#[inline(always)]
fn value_class(pt: PieceType) -> usize {
    VALUE_CLASS[pt.index()] as usize
}

const VALUE_CLASS: [u8; 16] = {
    let mut t = [2u8; 16];
    t[PieceType::PAWN.index()] = 0;
    t[PieceType::LANCE.index()] = 1;
    t[PieceType::KNIGHT.index()] = 1;
    t[PieceType::BISHOP.index()] = 3;
    t[PieceType::ROOK.index()] = 3;
    t[PieceType::HORSE.index()] = 4;
    t[PieceType::DRAGON.index()] = 4;
    t[PieceType::KING.index()] = 5;
    t
};

/// Stockfish's weights of the threat terms, by the moving piece's value class (pawns and kings
/// get none).
const THREAT_WEIGHT: [i32; 6] = [0, 144, 144, 256, 517, 0];

/// `[c]`: the squares the opponent attacks with a piece of a value class below `c` (Stockfish's
/// `threatByLesser`). As Stockfish's queens and kings, horses, dragons and kings threaten
/// nothing here (a horse's attack on a dragon is left out).
fn threats_by_lesser(pos: &Position) -> [Bitboard; 5] {
    let them = !pos.side_to_move();
    let occ = pos.occupied();
    let mut by = [Bitboard::EMPTY; 4];
    for sq in pos.pieces(them) {
        let pt = pos.piece_on(sq).piece_type();
        // Horses, dragons and kings (classes 4 and 5) have no entry.
        if let Some(b) = by.get_mut(value_class(pt)) {
            *b |= attacks(them, pt, sq, occ);
        }
    }
    let mut lesser = [Bitboard::EMPTY; 5];
    for c in 1..5 {
        lesser[c] = lesser[c - 1] | by[c - 1];
    }
    lesser
}

/// Order bonus of a quiet direct check (Stockfish's 16,384).
const CHECK_BONUS: i32 = 16_384;
/// SEE threshold of a quiet check's bonus: Stockfish's −75 at its pawn of 208, on our 90.
const CHECK_SEE: i32 = -32;

/// For each piece type, the squares from which one of ours gives check directly (`None`
/// without the enemy king). The moving piece's own square still blocks sliders here.
fn check_squares(pos: &Position) -> Option<[Bitboard; PieceType::NUM]> {
    let them = !pos.side_to_move();
    let ksq = pos.king_square(them)?;
    let occ = pos.occupied();
    Some(std::array::from_fn(|i| match PieceType::from_u8(i as u8) {
        Some(pt) if pt != PieceType::NONE && pt != PieceType::KING => attacks(them, pt, ksq, occ),
        _ => Bitboard::EMPTY,
    }))
}

/// Stockfish's threat term of a quiet move: a piece that leaves a square attacked by a lesser
/// piece gains `weight × 100`, one that goes to such a square loses `weight × 95` (drops only
/// the latter).
fn threat_score(m: Move, threats: &[Bitboard; 5]) -> i32 {
    let class = value_class(m.moved_piece().piece_type());
    let weight = THREAT_WEIGHT[class];
    if weight == 0 {
        return 0;
    }
    // Classes 1 to 4 have a weight, and `threats` an entry for each.
    let t = threats[class];
    if t.contains(m.to()) {
        -95 * weight
    } else if !m.is_drop() && t.contains(m.from()) {
        100 * weight
    } else {
        0
    }
}

/// A promotion that quiescence tries: a pawn's, bishop's or rook's (the others are rarely
/// worth a node).
#[inline(always)]
fn is_quiescence_promotion(m: Move) -> bool {
    m.is_promotion()
        && matches!(
            m.moved_piece().piece_type(),
            PieceType::PAWN | PieceType::BISHOP | PieceType::ROOK
        )
}

/// The capture order, Stockfish's, in the main search and quiescence alike: the captured
/// piece's value (8 × what the capture gains) plus the capture history, which can lift a
/// capture above one of a better piece.
#[inline(always)]
fn capture_score(m: Move, history: &History) -> i32 {
    capture_value(m.captured().piece_type()) * 8 + history.capture(m)
}

impl MovePicker {
    /// An empty picker, to be filled in place (pickers live in per-ply boxes: no 5 KB copies).
    pub fn empty() -> MovePicker {
        MovePicker {
            list: MoveList::new(),
            scores: [0; MoveList::CAPACITY],
            cur: 0,
            bad_end: 0,
            bad_cur: 0,
            captures_end: 0,
            sorted: false,
            stage: Stage::Done,
            tt: Move::NONE,
            refutations: [Move::NONE; 3],
            conts: [0; 5],
            quiet_terms: QuietTerms::default(),
        }
    }

    /// Prepares the main search's ordering: the TT move first, then the stages.
    /// `refutations` are the two killers and the counter-move; `conts` the continuation
    /// blocks of the moves 1, 2, 3, 4 and 6 plies back.
    pub fn init_main(
        &mut self,
        pos: &Position,
        tt_move: Move16,
        refutations: [Move; 3],
        conts: Conts,
        quiet_terms: QuietTerms,
    ) {
        self.list.clear();
        self.cur = 0;
        self.bad_end = 0;
        self.bad_cur = 0;
        self.captures_end = 0;
        self.sorted = false;
        self.stage = Stage::TtMove;
        self.tt = pos.to_move_fast(tt_move).unwrap_or(Move::NONE);
        self.refutations = refutations;
        self.conts = conts;
        self.quiet_terms = quiet_terms;
    }

    /// Orders captures and pawn/bishop/rook promotions, then (with `quiet_checks`) the other
    /// checks, or all evasions in check, for quiescence.
    pub fn fill_quiescence(
        &mut self,
        pos: &Position,
        tt_move: Move,
        history: &History,
        quiet_checks: bool,
    ) {
        self.list.clear();
        self.cur = 0;
        self.sorted = false;
        self.stage = Stage::Quiescence;
        if pos.in_check() {
            pos.generate(GenStage::Evasions, &mut self.list);
        } else {
            pos.generate(GenStage::CapturesAndPromotions, &mut self.list);
            // Quiet promotions of silvers, knights and lances are rarely worth a qsearch node.
            self.retain_from(0, |m| m.is_capture() || is_quiescence_promotion(m));
            if quiet_checks {
                // The other checks: neither captures nor the promotions already listed.
                let from = self.list.len();
                pos.generate(GenStage::Checks, &mut self.list);
                self.retain_from(from, |m| !m.is_capture() && !is_quiescence_promotion(m));
            }
        }
        let us = pos.side_to_move();
        let in_check = pos.in_check();
        for i in 0..self.list.len() {
            let m = self.list[i];
            self.scores[i] = if m.same(tt_move) {
                TT_SCORE
            } else if m.is_capture() {
                capture_score(m, history)
            } else if m.is_promotion() || in_check {
                history.get(us, m) - REFUTATION
            } else {
                // A quiet check: after the promotions.
                history.get(us, m) - 2 * REFUTATION
            };
        }
    }

    /// The TT move as validated by `init_main` (NONE when absent or not pseudo-legal here).
    pub fn tt_move(&self) -> Move {
        self.tt
    }

    fn is_special(&self, m: Move) -> bool {
        m.same(self.tt) || self.refutations.iter().any(|r| m.same(*r))
    }

    fn score_captures(&mut self, history: &History, from: usize) {
        for i in from..self.list.len() {
            let m = self.list[i];
            self.scores[i] = capture_score(m, history);
        }
    }

    fn score_quiets(&mut self, pos: &Position, history: &History, from: usize, threats: bool) {
        let us = pos.side_to_move();
        let QuietTerms {
            threat_pct,
            check_pct,
            ..
        } = self.quiet_terms;
        let checks = (threats && check_pct != 0)
            .then(|| check_squares(pos))
            .flatten();
        let threats = (threats && threat_pct != 0).then(|| threats_by_lesser(pos));
        let scorer = history.quiet_scorer(us, &self.conts);
        let moves = &self.list.as_slice()[from..];
        for (&m, score) in moves.iter().zip(&mut self.scores[from..]) {
            *score = if m.is_capture() {
                capture_score(m, history)
            } else {
                let mut s = scorer.score(m);
                if let Some(t) = &threats {
                    s += threat_score(m, t) * threat_pct / 100;
                }
                if let Some(c) = &checks
                    && c[m.moved_piece_after().piece_type().index()].contains(m.to())
                    && see_ge(pos, m, CHECK_SEE)
                {
                    s += CHECK_BONUS * check_pct / 100;
                }
                s
            };
        }
    }

    /// Removes the TT move (and, for quiets, the refutations already tried) from `from..`.
    fn drop_tried(&mut self, from: usize, refutations_too: bool) {
        let mut keep = from;
        for i in from..self.list.len() {
            let m = self.list[i];
            let tried = m.same(self.tt) || (refutations_too && self.is_special(m));
            if !tried {
                self.list.as_mut_slice()[keep] = m;
                keep += 1;
            }
        }
        self.list.truncate(keep);
    }

    /// Keeps the moves of `from..` for which `keep` holds, in their order.
    fn retain_from(&mut self, from: usize, keep: impl Fn(Move) -> bool) {
        let moves = self.list.as_mut_slice();
        let mut n = from;
        for i in from..moves.len() {
            let m = moves[i];
            if keep(m) {
                moves[n] = m;
                n += 1;
            }
        }
        self.list.truncate(n);
    }

    /// Index of the best-scored move in `cur..end` (selection).
    fn select_best(&self, end: usize) -> usize {
        // The maximum first (a vectorised reduction), then its first place: two quick passes
        // instead of one with a dependent compare per move.
        let scores = &self.scores[self.cur..end];
        let best = scores.iter().copied().max().unwrap_or(i32::MIN);
        self.cur + scores.iter().position(|&s| s == best).unwrap_or(0)
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.list.as_mut_slice().swap(a, b);
        self.scores.swap(a, b);
    }

    /// Sorts `cur..end` by score, best first (insertion sort: no heap in the search).
    fn sort_rest(&mut self, end: usize) {
        let moves = self.list.as_mut_slice();
        for i in self.cur + 1..end {
            let (m, s) = (moves[i], self.scores[i]);
            let mut j = i;
            while j > self.cur && self.scores[j - 1] < s {
                moves[j] = moves[j - 1];
                self.scores[j] = self.scores[j - 1];
                j -= 1;
            }
            moves[j] = m;
            self.scores[j] = s;
        }
    }

    /// The next move of a scored stage over `cur..end`: a few picks by selection, a few more by
    /// stable selection, then the rest sorted once (stably: the order the stable picks would
    /// have gone on with).
    fn pick(&mut self, end: usize, first: usize) -> Option<(Move, i32)> {
        self.pick_from(end, first, i32::MIN)
    }

    /// As `pick`, but the best move is handed out only when it scores at least `min`; otherwise
    /// it stays where it is, first of those left.
    fn pick_from(&mut self, end: usize, first: usize, min: i32) -> Option<(Move, i32)> {
        if self.cur >= end {
            return None;
        }
        if !self.sorted && self.cur >= first + SELECT_STABLE {
            self.sort_rest(end);
            self.sorted = true;
        }
        if !self.sorted {
            let b = self.select_best(end);
            if self.cur < first + SELECT_FIRST {
                self.swap(self.cur, b);
            } else {
                // The best move to the front, the ones it passed shift up by one (a
                // rotation, written out: the library's is slow for a few elements).
                let moves = self.list.as_mut_slice();
                let (m, s) = (moves[b], self.scores[b]);
                for i in (self.cur..b).rev() {
                    moves[i + 1] = moves[i];
                    self.scores[i + 1] = self.scores[i];
                }
                moves[self.cur] = m;
                self.scores[self.cur] = s;
            }
        }
        let r = (self.list[self.cur], self.scores[self.cur]);
        if r.1 < min {
            return None;
        }
        self.cur += 1;
        Some(r)
    }

    /// Whether the move just handed out came from the good captures, which passed
    /// `see_ge(pos, m, 0)`: `see_ge` with any threshold ≤ 0 holds for it too.
    #[inline(always)]
    pub fn see_passed(&self) -> bool {
        self.stage == Stage::GoodCaptures
    }

    /// The next move with its ordering score. With `skip_quiets` the quiet stages are passed
    /// over (the caller prunes them anyway); captures and evasions still come.
    pub fn next_move(
        &mut self,
        pos: &Position,
        history: &History,
        skip_quiets: bool,
    ) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = if pos.in_check() {
                        Stage::GenEvasions
                    } else {
                        Stage::GenCaptures
                    };
                    if self.tt.is_some() {
                        return Some((self.tt, TT_SCORE));
                    }
                }
                Stage::GenCaptures => {
                    pos.generate(GenStage::CapturesAndPromotions, &mut self.list);
                    self.drop_tried(0, false);
                    self.score_captures(history, 0);
                    self.captures_end = self.list.len();
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if self.cur >= self.captures_end {
                        self.stage = Stage::Refutations(0);
                        continue;
                    }
                    let b = self.select_best(self.captures_end);
                    self.swap(self.cur, b);
                    let m = self.list[self.cur];
                    let s = self.scores[self.cur];
                    self.cur += 1;
                    if see_ge(pos, m, 0) {
                        return Some((m, s));
                    }
                    // Losing: keep it for the end.
                    let i = self.cur - 1;
                    self.swap(self.bad_end, i);
                    self.bad_end += 1;
                }
                Stage::Refutations(i) => {
                    if i >= self.refutations.len() {
                        self.stage = Stage::GenQuiets;
                        continue;
                    }
                    self.stage = Stage::Refutations(i + 1);
                    let r = self.refutations[i];
                    if skip_quiets
                        || !r.is_some()
                        || r.is_capture()
                        || r.same(self.tt)
                        || self.refutations[..i].iter().any(|p| p.same(r))
                    {
                        continue;
                    }
                    if let Some(m) = pos.to_move_fast(r.to_move16())
                        && !m.is_capture()
                        && !m.is_promotion()
                    {
                        return Some((m, REFUTATION));
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::BadCaptures;
                    if skip_quiets {
                        continue;
                    }
                    let from = self.captures_end;
                    self.list.truncate(from);
                    pos.generate(GenStage::Quiets, &mut self.list);
                    self.drop_tried(from, true);
                    self.score_quiets(pos, history, from, true);
                    self.cur = from;
                    self.sorted = false;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    // The bad quiets wait: the losing captures come first.
                    let bad = self.quiet_terms.bad_quiet;
                    let min = if bad == 0 { i32::MIN } else { -bad };
                    if !skip_quiets
                        && let Some(r) = self.pick_from(self.list.len(), self.captures_end, min)
                    {
                        return Some(r);
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    // Set aside in the order they were selected: best first already.
                    if self.bad_cur < self.bad_end {
                        let i = self.bad_cur;
                        self.bad_cur += 1;
                        return Some((self.list[i], BAD_CAPTURE + self.scores[i]));
                    }
                    self.stage = Stage::BadQuiets;
                }
                Stage::BadQuiets => {
                    if !skip_quiets && let Some(r) = self.pick(self.list.len(), self.captures_end) {
                        return Some(r);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    pos.generate(GenStage::Evasions, &mut self.list);
                    self.drop_tried(0, false);
                    self.score_quiets(pos, history, 0, false);
                    for i in 0..self.list.len() {
                        if self.list[i].is_capture() {
                            self.scores[i] += REFUTATION;
                        }
                    }
                    self.cur = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions | Stage::Quiescence => {
                    let r = self.pick(self.list.len(), 0);
                    if r.is_none() {
                        self.stage = Stage::Done;
                    }
                    return r;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Number of moves generated so far.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether no move has been generated.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// Whether an ordering score marks a capture that SEE judged losing.
#[inline(always)]
pub fn is_bad_capture_score(s: i32) -> bool {
    s < BAD_CAPTURE / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threat_terms_and_check_squares_pick_out_the_right_moves() {
        // Black's silver on 5f is attacked by White's pawn on 5e; White's pawn on 2e guards 2f.
        let pos = Position::from_sfen("4k4/9/9/9/4p2p1/4S4/2P6/9/4K4 b B 1").expect("sfen");
        let threats = threats_by_lesser(&pos);
        let mv = |usi: &str| pos.parse_usi_move(usi).expect(usi);
        let score = |usi: &str| threat_score(mv(usi), &threats);
        assert_eq!(score("5f4g"), 100 * 144, "the silver escapes the pawn");
        assert_eq!(
            score("B*2f"),
            -95 * 256,
            "a bishop dropped where a pawn takes it"
        );
        assert_eq!(score("B*4f"), 0, "a bishop dropped on a safe square");
        assert_eq!(score("7g7f"), 0, "pawns fear nothing lesser");
        assert_eq!(score("5i4h"), 0, "the king is not scored");
        let checks = check_squares(&pos).expect("White has a king");
        let gives_check = |usi: &str| {
            let m = mv(usi);
            checks[m.moved_piece_after().piece_type().index()].contains(m.to())
        };
        assert!(
            gives_check("B*3c") && gives_check("B*7c"),
            "bishop drops on the diagonals"
        );
        assert!(!gives_check("B*4f") && !gives_check("5f4g"), "no check");
    }

    /// Every legal move comes out exactly once, in and out of check, with or without a TT move.
    #[test]
    fn stages_hand_out_every_legal_move_once() {
        let sfens = [
            hayate_core::sfen::STARTPOS,
            "lnsgk1snl/r5gb1/2ppppppp/pp7/9/2PPPP3/PPN3PPP/1BG1KG1SR/L1S4NL b - 27",
            "1ns4+N1/lrg1kg3/4p3S/ppppB4/6P2/PPG2p1Pl/L1B4SP/2S2G3/1N2K4 w L2Prn5p 86",
            "2G1k1s+B1/9/p1p4n1/9/2s6/4K2P1/G1n1P4/9/3+l5 b RBG2N5Prg2s3l9p 115",
            "4k4/4G4/9/9/9/9/9/9/4K4 w - 1",
            // Rxd5 loses the rook (a bad capture); drops on 3e meet the pawn (bad quiets).
            "4k4/9/4g4/4p1p2/4R4/9/9/9/4K4 b G2S 1",
        ];
        let h = History::new();
        let mut bad_quiets = 0;
        for sfen in sfens {
            let pos = Position::from_sfen(sfen).expect("sfen");
            let legal = pos.legal_moves();
            for (tt, threat_pct) in [(Move::NONE, 0), (legal[legal.len() / 2], 100)] {
                let killer = legal[0];
                let mut p = MovePicker::empty();
                p.init_main(
                    &pos,
                    tt.to_move16(),
                    [killer, Move::NONE, killer],
                    [0; 5],
                    QuietTerms {
                        threat_pct,
                        check_pct: threat_pct,
                        // Threatened squares score below 0: those quiets wait.
                        bad_quiet: threat_pct / 100,
                    },
                );
                let mut seen = Vec::new();
                let mut after_bad_quiet = false;
                while let Some((m, score)) = p.next_move(&pos, &h, false) {
                    assert!(legal.contains(m), "{sfen}: {} not legal", m.to_usi());
                    if threat_pct != 0 && !pos.in_check() {
                        let bad_quiet = !m.is_capture() && score < -(threat_pct / 100);
                        assert!(
                            !after_bad_quiet || bad_quiet,
                            "{sfen}: {} after a bad quiet",
                            m.to_usi()
                        );
                        after_bad_quiet |= bad_quiet;
                        bad_quiets += bad_quiet as usize;
                    }
                    assert!(
                        !seen.iter().any(|s: &Move| s.same(m)),
                        "{sfen}: {} twice",
                        m.to_usi()
                    );
                    seen.push(m);
                }
                assert_eq!(seen.len(), legal.len(), "{sfen}");
                if tt.is_some() {
                    assert!(seen[0].same(tt));
                }
            }
        }
        assert!(bad_quiets > 0, "no bad quiet was handed out");
    }

    #[test]
    fn skipping_quiets_still_hands_out_every_capture() {
        let sfen = "1ns4+N1/lrg1kg3/4p3S/ppppB4/6P2/PPG2p1Pl/L1B4SP/2S2G3/1N2K4 w L2Prn5p 86";
        let pos = Position::from_sfen(sfen).expect("sfen");
        let h = History::new();
        let mut p = MovePicker::empty();
        p.init_main(
            &pos,
            Move16(0),
            [Move::NONE; 3],
            [0; 5],
            QuietTerms::default(),
        );
        let mut n = 0;
        while let Some((m, _)) = p.next_move(&pos, &h, true) {
            assert!(m.is_capture() || m.is_promotion(), "{}", m.to_usi());
            n += 1;
        }
        let noisy = pos
            .legal_moves()
            .iter()
            .filter(|m| m.is_capture() || m.is_promotion())
            .count();
        assert_eq!(n, noisy);
    }

    /// Quiescence orders captures as the main search does: by the captured value, unless the
    /// capture history lifts a lesser capture above (MVV-LVA let the history only break ties).
    #[test]
    fn quiescence_captures_follow_value_and_capture_history() {
        // Black's silver on 5d can take the gold on 5c, its pawn on 3e the pawn on 3d.
        let pos = Position::from_sfen("8k/9/4g4/4S1p2/6P2/9/9/9/K8 b - 1").expect("sfen");
        let order = |h: &History| {
            let mut p = MovePicker::empty();
            p.fill_quiescence(&pos, Move::NONE, h, false);
            let mut out = Vec::new();
            while let Some((m, _)) = p.next_move(&pos, h, false) {
                out.push(m.to_usi());
            }
            out
        };
        let mut h = History::new();
        let first = order(&h);
        assert_eq!(first.len(), 3);
        assert_eq!(
            first[2], "3e3d",
            "the gold's two captures (with or without promotion) first"
        );
        let pawn_takes = pos.parse_usi_move("3e3d").expect("3e3d");
        for _ in 0..100 {
            h.update_capture(pawn_takes, 2000);
        }
        assert_eq!(order(&h)[0], "3e3d", "the history lifts the pawn capture");
    }

    /// Asked for them, quiescence adds every quiet check (drops too) after the captures and
    /// promotions; not asked, none.
    #[test]
    fn quiescence_quiet_checks_follow_the_captures_when_asked() {
        // Black: the silver on 5d can take the gold on 5c; a gold and a pawn in hand.
        let pos = Position::from_sfen("4k4/9/4g4/4S1p2/6P2/9/9/9/K8 b GP 1").expect("sfen");
        let h = History::new();
        let listed = |checks: bool| {
            let mut p = MovePicker::empty();
            p.fill_quiescence(&pos, Move::NONE, &h, checks);
            let mut out = Vec::new();
            while let Some((m, _)) = p.next_move(&pos, &h, false) {
                out.push(m);
            }
            out
        };
        let noisy = |m: &Move| m.is_capture() || m.is_promotion();
        let without = listed(false);
        assert!(without.iter().all(noisy));
        let with = listed(true);
        let n = without.len();
        assert_eq!(
            with[..n].iter().map(|m| m.to_usi()).collect::<Vec<_>>(),
            without.iter().map(|m| m.to_usi()).collect::<Vec<_>>(),
            "the captures first, in their order"
        );
        let mut quiet: Vec<String> = with[n..].iter().map(|m| m.to_usi()).collect();
        let mut expected: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|m| pos.gives_check(**m) && !m.is_capture() && !is_quiescence_promotion(**m))
            .map(|m| m.to_usi())
            .collect();
        quiet.sort();
        expected.sort();
        assert!(expected.contains(&"G*5b".to_string()), "{expected:?}");
        assert_eq!(quiet, expected);
    }
}
