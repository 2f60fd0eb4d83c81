//! The one game runner against scripted players: every ending is decided by the rules core and
//! the runner, never by a player's word.

use std::time::Duration;

use hayate_core::game::{
    EndReason, GameResult, GameRules, ScoreAdjudication, Side, TimeControl, play_game,
};
use hayate_core::player::{BestMove, Fault, GameOver, Info, Limits, Player, Score, Signals};
use hayate_core::usi_option::OptionError;
use hayate_core::{Color, Position};

/// Plays `script[n % len]` where `n` counts its own calls; optional score, sleep and fault.
#[derive(Default)]
struct Scripted {
    name: &'static str,
    script: Vec<&'static str>,
    calls: usize,
    score: Option<Score>,
    sleep_ms: u64,
    fault_on_new_game: Option<Fault>,
    fault: Option<Fault>,
    seen_limits: Vec<Limits>,
    game_over: Option<GameOver>,
}

impl Scripted {
    fn new(name: &'static str, script: &[&'static str]) -> Scripted {
        Scripted {
            name,
            script: script.to_vec(),
            ..Scripted::default()
        }
    }
}

impl Player for Scripted {
    fn name(&self) -> String {
        self.name.to_string()
    }
    fn set_option(&mut self, _: &str, _: &str) -> Result<(), OptionError> {
        Ok(())
    }
    fn new_game(&mut self) {
        self.fault = self.fault_on_new_game.take();
    }
    fn game_over(&mut self, result: GameOver) {
        self.game_over = Some(result);
    }
    fn take_fault(&mut self) -> Option<Fault> {
        self.fault.take()
    }
    fn think(
        &mut self,
        pos: &Position,
        limits: &Limits,
        _: &Signals,
        info: &mut dyn FnMut(&Info),
    ) -> BestMove {
        self.seen_limits.push(limits.clone());
        std::thread::sleep(Duration::from_millis(self.sleep_ms));
        info(&Info {
            depth: Some(7),
            score: self.score,
            ..Info::default()
        });
        let text = self.script[self.calls % self.script.len()];
        self.calls += 1;
        match text {
            "resign" => BestMove::Resign,
            "win" => BestMove::Win,
            t => match pos.parse_usi_move(t) {
                Ok(best) => BestMove::Move { best, ponder: None },
                // A move that exists but is not legal here: any move of the right shape.
                Err(_) => BestMove::Move {
                    best: Position::startpos().parse_usi_move("7g7f").unwrap(),
                    ponder: None,
                },
            },
        }
    }
}

fn sides<'a>(a: &'a mut Scripted, b: &'a mut Scripted) -> [Side<'a>; 2] {
    [
        Side {
            player: a,
            time_control: None,
            limits: Limits::default(),
        },
        Side {
            player: b,
            time_control: None,
            limits: Limits::default(),
        },
    ]
}

#[test]
fn fourfold_repetition_is_a_draw_after_twelve_plies() {
    let mut a = Scripted::new("a", &["5i5h", "5h5i"]);
    let mut b = Scripted::new("b", &["5a5b", "5b5a"]);
    let g = play_game(
        &Position::startpos(),
        &[],
        sides(&mut a, &mut b),
        &GameRules::default(),
    );
    assert_eq!(
        (g.result, g.reason, g.plies()),
        (GameResult::Draw, EndReason::Repetition, 12)
    );
    assert_eq!(a.game_over, Some(GameOver::Draw));
    assert_eq!(g.moves[0].info.depth, Some(7));
    assert!(g.moves[0].time_ms.is_some());
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let start = Position::from_sfen("R7k/9/9/9/9/9/9/9/4K4 w - 1").unwrap();
    let mut w = Scripted::new("w", &["1a1b", "1b1a"]);
    let mut b = Scripted::new("b", &["9a9b", "9b9a"]);
    let g = play_game(&start, &[], sides(&mut b, &mut w), &GameRules::default());
    assert_eq!(
        (g.result, g.reason, g.plies()),
        (GameResult::White, EndReason::PerpetualCheck, 12)
    );
    assert_eq!(g.detail, "b checked perpetually");
    assert_eq!(
        (b.game_over, w.game_over),
        (Some(GameOver::Lose), Some(GameOver::Win))
    );
}

#[test]
fn checkmate_is_found_by_the_rules_not_the_players() {
    // Black mates with G*5b; White never gets to answer.
    let start = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
    let mut b = Scripted::new("b", &["G*5b"]);
    let mut w = Scripted::new("w", &["resign"]);
    let g = play_game(&start, &[], sides(&mut b, &mut w), &GameRules::default());
    assert_eq!(
        (g.result, g.reason, g.plies()),
        (GameResult::Black, EndReason::Checkmate, 1)
    );
    assert_eq!(w.calls, 0);
}

#[test]
fn resignation_illegal_move_and_false_declaration_lose() {
    let rules = GameRules::default();
    let mut b = Scripted::new("b", &["7g7f"]);
    let mut w = Scripted::new("w", &["resign"]);
    let g = play_game(&Position::startpos(), &[], sides(&mut b, &mut w), &rules);
    assert_eq!(
        (g.result, g.reason, g.plies()),
        (GameResult::Black, EndReason::Resign, 1)
    );
    assert!(g.end_time_ms.is_some());

    // White answers a move that is not legal for White.
    let mut b = Scripted::new("b", &["2g2f"]);
    let mut w = Scripted::new("w", &["1a1z"]);
    let g = play_game(&Position::startpos(), &[], sides(&mut b, &mut w), &rules);
    assert_eq!(
        (g.result, g.reason),
        (GameResult::Black, EndReason::IllegalMove)
    );
    assert_eq!(g.detail, "w played 7g7f: not a legal move here");

    let mut b = Scripted::new("b", &["win"]);
    let mut w = Scripted::new("w", &["resign"]);
    let g = play_game(&Position::startpos(), &[], sides(&mut b, &mut w), &rules);
    assert_eq!(
        (g.result, g.reason),
        (GameResult::White, EndReason::IllegalDeclaration)
    );
}

#[test]
fn a_valid_declaration_wins() {
    // Black's king in White's camp with 10 pieces there and 28 points (rooks, bishops: 5 each).
    let start =
        Position::from_sfen("1+R+B+BK+RG2/GGG5k/PPPP5/9/9/9/9/9/9 b SSSSNNNNLLLLPPPPPPPPPPPPPP 1")
            .unwrap();
    assert!(start.can_declare_win(hayate_core::DeclarationRule::Csa27));
    let mut b = Scripted::new("b", &["win"]);
    let mut w = Scripted::new("w", &["resign"]);
    let g = play_game(&start, &[], sides(&mut b, &mut w), &GameRules::default());
    assert_eq!(
        (g.result, g.reason),
        (GameResult::Black, EndReason::Declaration)
    );
}

#[test]
fn faults_lose_and_opening_moves_count_towards_the_ply_limit() {
    let mut b = Scripted::new("b", &["resign"]);
    b.fault_on_new_game = Some(Fault::Crash("b exited".into()));
    let mut w = Scripted::new("w", &["resign"]);
    let g = play_game(
        &Position::startpos(),
        &[],
        sides(&mut b, &mut w),
        &GameRules::default(),
    );
    assert_eq!(
        (g.result, g.reason, g.detail.as_str()),
        (GameResult::White, EndReason::Crash, "b exited")
    );
    assert_eq!(w.game_over, Some(GameOver::Win));

    let pos = Position::startpos();
    let opening = [pos.parse_usi_move("7g7f").unwrap()];
    let mut b = Scripted::new("b", &["5i5h", "5h5i"]);
    let mut w = Scripted::new("w", &["5a5b", "5b5a"]);
    let rules = GameRules {
        max_plies: 4,
        ..GameRules::default()
    };
    let g = play_game(&pos, &opening, sides(&mut b, &mut w), &rules);
    assert_eq!(
        (g.result, g.reason, g.plies(), g.opening_plies),
        (GameResult::Draw, EndReason::MaxPlies, 4, 1)
    );
    assert!(g.moves[0].time_ms.is_none());
    // White moved first after the opening.
    assert_eq!(w.calls, 2);
}

#[test]
fn the_clock_is_the_runners_and_limits_carry_it() {
    let mut b = Scripted::new("b", &["5i5h", "5h5i"]);
    b.sleep_ms = 60;
    let mut w = Scripted::new("w", &["5a5b", "5b5a"]);
    let rules = GameRules {
        margin_ms: 10,
        ..GameRules::default()
    };
    let [mut sb, mut sw] = sides(&mut b, &mut w);
    sb.time_control = Some(TimeControl::byoyomi(20));
    sw.time_control = Some(TimeControl::byoyomi(1000));
    let g = play_game(&Position::startpos(), &[], [sb, sw], &rules);
    assert_eq!(
        (g.result, g.reason),
        (GameResult::White, EndReason::TimeLoss)
    );
    assert!(g.detail.starts_with("b took"), "{}", g.detail);
    let l = &b.seen_limits[0];
    let ms = |v: u64| Some(Duration::from_millis(v));
    assert_eq!(
        (l.time, l.byoyomi, l.increment),
        ([ms(0), ms(0)], ms(20), [None, None])
    );

    let mut b = Scripted::new("b", &["5i5h", "5h5i"]);
    let mut w = Scripted::new("w", &["5a5b", "5b5a"]);
    let [mut sb, mut sw] = sides(&mut b, &mut w);
    sb.time_control = Some(TimeControl::fischer(5000, 100));
    sw.time_control = Some(TimeControl::fischer(5000, 100));
    sw.limits.depth = Some(3);
    let rules = GameRules {
        max_plies: 2,
        ..GameRules::default()
    };
    play_game(&Position::startpos(), &[], [sb, sw], &rules);
    let l = &w.seen_limits[0];
    assert_eq!(
        (l.increment, l.byoyomi, l.depth),
        ([ms(100), ms(100)], None, Some(3))
    );
    // Black's clock got its increment for the move it made.
    assert!(l.time[1] == ms(5000) && l.time[0] > ms(5000) && l.time[0] <= ms(5100));
}

#[test]
fn score_adjudication_resigns_for_the_side_to_move() {
    let mut b = Scripted::new("b", &["5i5h", "5h5i"]);
    b.score = Some(Score::Cp(-2000));
    let mut w = Scripted::new("w", &["5a5b", "5b5a"]);
    w.score = Some(Score::Mate(9));
    let rules = GameRules {
        resign: Some(ScoreAdjudication { cp: 1500, moves: 2 }),
        ..GameRules::default()
    };
    let g = play_game(&Position::startpos(), &[], sides(&mut b, &mut w), &rules);
    assert_eq!(
        (g.result, g.reason, g.plies()),
        (GameResult::White, EndReason::AdjudicatedResign, 4)
    );
    assert_eq!(g.moves[1].info.score, Some(Score::Mate(9)));
    assert_eq!(g.final_position().side_to_move(), Color::Black);
}

#[test]
fn positions_copy_as_values_and_rebuild_from_usi() {
    let mut pos = Position::startpos();
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
        let mv = pos.parse_usi_move(m).unwrap();
        pos.do_move(mv);
    }
    let bare = pos.without_history();
    let text = Position::from_sfen(&pos.to_sfen()).unwrap();
    assert_eq!(bare.to_sfen(), text.to_sfen());
    assert_eq!(
        format!("{:?}", bare.states()),
        format!("{:?}", text.states())
    );
    assert_eq!(bare.moves_since_setup(), 0);
    assert_eq!(bare.game_ply(), 6);

    let cmd = pos.to_usi_position();
    assert_eq!(cmd, "startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e");
    let again = Position::from_usi_position(&cmd).unwrap();
    assert_eq!((again.key(), again.moves_since_setup()), (pos.key(), 5));
    let from_sfen = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").unwrap();
    assert_eq!(
        from_sfen.to_usi_position(),
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1"
    );
}
