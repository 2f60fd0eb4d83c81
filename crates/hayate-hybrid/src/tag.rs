//! Which side each line comes from. The main side's lines (`Hybrid_Info`, αβ by default) go
//! out as plain `info` lines, so a GUI draws its score graph and PV pane from one engine on one
//! scale (αβ's centipawns are Hayate's usual scale, and its score is what the decisive rule
//! reads); the other side's lines become `info string dl: depth … score cp … pv …`, which every
//! GUI shows as text beside the main lines rather than mixing two scales in one graph. Each
//! side's own `info string` gets its tag too (`ab: …`, `dl: …`).

use crate::rule::Side;
use hayate_core::player::Info;
use hayate_usi::format_info;

/// The line to send for `info` from `side` when `main` is the side shown plainly.
pub fn tagged(side: Side, main: Side, info: &Info) -> Info {
    if let Some(s) = &info.string {
        return text(format!("{}: {s}", side.tag()));
    }
    if side == main {
        return info.clone();
    }
    let line = format_info(info);
    let body = line.strip_prefix("info").unwrap_or(&line).trim_start();
    text(format!("{}: {body}", side.tag()))
}

/// An `info string` line.
pub fn text(s: String) -> Info {
    Info {
        string: Some(s),
        ..Info::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayate_core::Position;
    use hayate_core::player::Score;

    #[test]
    fn the_main_side_is_plain_the_other_tagged_text() {
        let pv = vec![Position::startpos().parse_usi_move("7g7f").expect("legal")];
        let line = Info {
            depth: Some(3),
            score: Some(Score::Cp(42)),
            pv,
            ..Info::default()
        };
        let main = tagged(Side::AlphaBeta, Side::AlphaBeta, &line);
        assert_eq!(format_info(&main), "info depth 3 score cp 42 pv 7g7f");
        let other = tagged(Side::Dl, Side::AlphaBeta, &line);
        assert_eq!(
            format_info(&other),
            "info string dl: depth 3 score cp 42 pv 7g7f"
        );
        let said = tagged(Side::AlphaBeta, Side::AlphaBeta, &text("hash 16 MB".into()));
        assert_eq!(format_info(&said), "info string ab: hash 16 MB");
    }
}
