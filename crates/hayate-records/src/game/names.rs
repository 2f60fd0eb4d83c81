//! Japanese piece and number names shared by KIF and KI2 (CSA names are in
//! [`super::csa_notation`]).

use hayate_core::PieceType;

const KANJI: [&str; 15] = [
    "", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "成香", "成桂", "成銀", "馬", "龍",
];

/// The KIF/KI2 name of a piece type (`歩` … `龍`; the king is written `玉`).
pub fn kanji_name(pt: PieceType) -> &'static str {
    KANJI.get(pt.index()).copied().unwrap_or("")
}

/// Reads a piece name at the start of `s`: the type and the bytes used. Accepts the variants
/// `王`, `竜`, `全` (成銀), `圭`/`今` (成桂), `杏`/`仝` (成香).
pub fn parse_kanji_piece(s: &str) -> Option<(PieceType, usize)> {
    const TABLE: [(&str, PieceType); 21] = [
        ("成香", PieceType::PRO_LANCE),
        ("成桂", PieceType::PRO_KNIGHT),
        ("成銀", PieceType::PRO_SILVER),
        ("歩", PieceType::PAWN),
        ("香", PieceType::LANCE),
        ("桂", PieceType::KNIGHT),
        ("銀", PieceType::SILVER),
        ("金", PieceType::GOLD),
        ("角", PieceType::BISHOP),
        ("飛", PieceType::ROOK),
        ("玉", PieceType::KING),
        ("王", PieceType::KING),
        ("と", PieceType::PRO_PAWN),
        ("馬", PieceType::HORSE),
        ("龍", PieceType::DRAGON),
        ("竜", PieceType::DRAGON),
        ("全", PieceType::PRO_SILVER),
        ("圭", PieceType::PRO_KNIGHT),
        ("今", PieceType::PRO_KNIGHT),
        ("杏", PieceType::PRO_LANCE),
        ("仝", PieceType::PRO_LANCE),
    ];
    TABLE
        .iter()
        .find(|(n, _)| s.starts_with(n))
        .map(|&(n, pt)| (pt, n.len()))
}

const ZEN: [char; 10] = ['０', '１', '２', '３', '４', '５', '６', '７', '８', '９'];
const KAN: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Full-width digit for 1..=9 (files in KIF).
pub fn zenkaku(n: u8) -> char {
    ZEN.get(n as usize).copied().unwrap_or('？')
}

/// Kanji numeral for 1..=9 (ranks in KIF).
pub fn kansuji(n: u8) -> char {
    KAN.get(n as usize).copied().unwrap_or('？')
}

/// A digit 1..=9 written in ASCII, full-width or kanji.
pub fn digit(c: char) -> Option<u8> {
    if let Some(d) = c.to_digit(10) {
        return (1..=9).contains(&d).then_some(d as u8);
    }
    ZEN.iter()
        .position(|&z| z == c)
        .or_else(|| KAN.iter().position(|&k| k == c))
        .filter(|&d| d >= 1)
        .map(|d| d as u8)
}

/// A count written in kanji (`十八`, `三`) or ASCII digits, as in KIF hands.
pub fn kanji_count(s: &str) -> Option<u32> {
    if s.is_empty() {
        return Some(1);
    }
    if let Ok(n) = s.parse::<u32>() {
        return Some(n);
    }
    let mut total = 0u32;
    let mut cur = 0u32;
    for c in s.chars() {
        if c == '十' {
            total += if cur == 0 { 10 } else { cur * 10 };
            cur = 0;
        } else {
            cur = KAN.iter().position(|&k| k == c)? as u32;
        }
    }
    Some(total + cur)
}

/// A count in kanji for KIF hands (2..=18; 1 is written as nothing).
pub fn kanji_count_text(n: u32) -> String {
    let mut s = String::new();
    if n >= 10 {
        s.push('十');
    }
    if !n.is_multiple_of(10) {
        s.push(kansuji((n % 10) as u8));
    }
    s
}
