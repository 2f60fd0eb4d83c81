//! Hand-made records in the shapes other tools write: a floodgate CSA record, a KIF with
//! branches and bookmarks, a KI2 with several moves per line.

use hayate_core::Color;
use hayate_records::game::{csa, ki2, kif};
use hayate_records::*;

#[test]
fn floodgate_style_csa() {
    let text = "V2\nN+gps_normal\nN-gps_l\n$EVENT:wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007\n$START_TIME:2010/05/07 12:00:07\n'Max_Moves:256\n'Least_Time_Per_Move:0\n'Increment:5\n'rating:gps_normal+abc:gps_l+def\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n+2726FU\nT3\n'** 30 -8384FU +2625FU\n-8384FU\nT2\n'** -25 +2625FU\n+2625FU,T1\n-8485FU,T1\n%TORYO\n'P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n'+\n'summary:toryo:gps_normal lose:gps_l win\n'$END_TIME:2010/05/07 12:10:00\n";
    let rec = csa::parse_csa(text).expect("parses");
    assert_eq!(rec.players, ["gps_normal".to_string(), "gps_l".to_string()]);
    assert_eq!(rec.moves.len(), 4);
    assert_eq!(rec.moves[0].comments, ["** 30 -8384FU +2625FU"]);
    assert_eq!(rec.moves[2].time_ms, Some(1000));
    assert_eq!(rec.comments.len(), 4);
    // Black, to move after four moves, resigned (the summary agrees: gps_normal lose).
    assert_eq!(rec.outcome(), Outcome::Win(Color::White));
    // The comments after %TORYO are the end comments, and are written back after it.
    assert!(rec.moves[3].comments.is_empty());
    assert_eq!(rec.end_comments.len(), 4);
    assert_eq!(rec.end_comments[3], "$END_TIME:2010/05/07 12:10:00");
    let back = csa::write_csa(&rec).expect("writes");
    assert!(
        back.ends_with("-8485FU\nT1\n%TORYO\n'P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n'+\n'summary:toryo:gps_normal lose:gps_l win\n'$END_TIME:2010/05/07 12:10:00\n"),
        "{back}"
    );
    assert_eq!(csa::parse_csa(&back).expect("reads back"), rec);
    let mut hcpe = Vec::new();
    convert::game_to_hcpe(&rec, &mut hcpe).expect("converts");
    assert_eq!(hcpe[0].eval, 30);
    assert_eq!(hcpe[1].eval, 25, "White to move: -25 from Black's view");
}

#[test]
fn kif_with_branches_bookmarks_and_marks() {
    let text = "# ---- Kifu for Windows V7 ----\n開始日時：2024/01/01 10:00:00\n棋戦：テスト棋戦\n手合割：平手　　\n先手：先手さん\n後手：後手さん\n手数----指手---------消費時間--\n*対局前のコメント\n   1 ７六歩(77)   ( 0:01/00:00:01)\n&しおり\n   2 ３四歩(33)   ( 0:02/00:00:02)+\n*二手目のコメント\n   3 ２二角成(88) ( 0:03/00:00:04)\n   4 同　銀(31)   ( 0:04/00:00:06)\n   5 ４五角打     ( 1:05/00:01:09)\n   6 詰み         ( 0:00/00:00:06)\nまで5手で先手の勝ち\n\n変化：2手\n   2 ８四歩(83)   ( 0:02/00:00:02)\n   3 ２六歩(27)   ( 0:01/00:00:02)\n";
    let rec = kif::parse_kif(text).expect("parses");
    let usi: Vec<String> = rec.moves.iter().map(|m| m.mv.to_usi()).collect();
    assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
    assert_eq!(rec.meta("EVENT"), Some("テスト棋戦"));
    assert_eq!(rec.comments, ["対局前のコメント"]);
    assert_eq!(rec.moves[1].comments, ["二手目のコメント"]);
    assert_eq!(rec.moves[4].time_ms, Some(65_000));
    assert_eq!(rec.end.as_ref().map(|e| e.kind), Some(EndKind::Tsumi));
}

#[test]
fn ki2_several_moves_per_line() {
    let text = "開始日時：2024/01/01\n手合割：平手\n先手：a\n後手：b\n\n▲７六歩    △３四歩    ▲２六歩    △８四歩\n▲２五歩    △８五歩    ▲７八金    △３二金\n*コメント\n▲２四歩    △同　歩    ▲同　飛    △２三歩打\nまで12手で後手の反則負け\n";
    let rec = ki2::parse_ki2(text).expect("parses");
    assert_eq!(rec.moves.len(), 12);
    assert_eq!(rec.moves[7].comments, ["コメント"]);
    assert_eq!(rec.moves[11].mv.to_usi(), "P*2c");
    // 12 moves: Black to move, so White's foul is an illegal action by White.
    assert_eq!(
        rec.end.as_ref().map(|e| e.kind),
        Some(EndKind::IllegalAction(Color::White))
    );
}
